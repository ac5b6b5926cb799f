#!/usr/bin/env python3
"""benchmarks/plot_trace.py -- a picture of a BLASX_TRACE timeline.

Usage: plot_trace.py trace.json out.png [call-index]

Draws one row per GPU stream (and per CPU track that has events) for one
call of the trace (default: the last one): host-to-device copies, peer
copies, kernels and device-to-host copies in different colours, like the
execution profiles of the BLASX paper (Fig. 1 and 8).  The JSON itself opens
in https://ui.perfetto.dev or chrome://tracing for interactive viewing.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"h2d": "#d62728", "p2p": "#ff7f0e", "kernel": "#2ca02c", "d2h": "#1f77b4", "task": "#9467bd"}
LABELS = {"h2d": "host to GPU copy", "p2p": "peer GPU copy (L2 hit)", "kernel": "tile kernel (cuBLAS)",
          "d2h": "GPU to host copy", "task": "CPU task"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    trace = json.load(open(sys.argv[1]))
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    calls = [e for e in events if e.get("cat") == "call"]
    if not calls:
        sys.exit("no call in the trace")
    which = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    call = calls[which]
    cid = call["args"].get("call")
    t0 = call["ts"]
    names = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            names[(e["pid"], None)] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    ops = [e for e in events if e.get("args", {}).get("call") == cid and e.get("cat") in COLORS]
    tracks = sorted({(e["pid"], e["tid"]) for e in ops})
    row = {t: i for i, t in enumerate(tracks)}
    fig, ax = plt.subplots(figsize=(12, 0.45 * len(tracks) + 1.6))
    for cat, color in COLORS.items():
        spans = {}
        for e in ops:
            if e["cat"] == cat:
                spans.setdefault(row[(e["pid"], e["tid"])], []).append(((e["ts"] - t0) / 1e3, e["dur"] / 1e3))
        for r, s in spans.items():
            ax.broken_barh(s, (r - 0.4, 0.8), facecolors=color, linewidth=0)
        if spans:
            ax.bar(0, 0, color=color, label=LABELS[cat])
    ax.set_yticks(range(len(tracks)))
    ax.set_yticklabels([f"{names.get((p, None), p)} {names.get((p, t), t)}" for p, t in tracks])
    ax.invert_yaxis()
    ax.set_xlabel("ms since the call started")
    a = call["args"]
    ax.set_title(f"blasx {call['name']} m={a.get('m')} n={a.get('n')} k={a.get('k')}: "
                 f"{call['dur'] / 1e3:.1f} ms ({sys.argv[1].split('/')[-1]})", fontsize=10)
    ax.set_xlim(0, call["dur"] / 1e3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=5, fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
