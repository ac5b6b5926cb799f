#!/usr/bin/env python3
"""benchmarks/trace_summary.py -- where each call of a BLASX_TRACE timeline
spent its time, per GPU and per link, as text.

Usage: trace_summary.py trace.json [trace.json ...]

For every call: its wall time, then per GPU the tasks it ran, the time its
kernels kept it busy (the union over its streams), bytes and busy time of
its host-to-GPU link in each direction and the bytes it took from peers,
when its first kernel started and its last one ended (ms after the call
began), and the call's end.  A GPU whose kernels are busy for much less
than the call lasted waited: for inputs (h2d busy near the call's length:
the host link is the bound), for work (few tasks: the planner or the
scheduler gave it too little), or at the start or the end (first/last).
"""
import collections
import json
import sys


def union_ms(iv):
    """Total length of the union of (start, end) intervals, in ms."""
    total, end = 0.0, None
    for s, e in sorted(iv):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total / 1000.0


def summarize(path):
    trace = json.load(open(path))
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    gpu_names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
                 if e.get("ph") == "M" and e.get("name") == "process_name"}
    calls = [e for e in events if e.get("cat") == "call"]
    by_call = collections.defaultdict(list)
    for e in events:
        if e.get("pid", 0) != 0 and "call" in e.get("args", {}):
            by_call[e["args"]["call"]].append(e)
    print(f"== {path}: {len(calls)} call(s)")
    for c in calls:
        cid, t0, wall = c["args"].get("call"), c["ts"], c["dur"] / 1000.0
        a = c["args"]
        print(f"call {cid} {c['name']} m={a.get('m')} n={a.get('n')} k={a.get('k')}  wall {wall:.2f} ms")
        per = collections.defaultdict(lambda: collections.defaultdict(list))
        for e in by_call.get(cid, []):
            per[e["pid"]][e["cat"]].append(e)
        print("  gpu    tasks  kern_busy  h2d_GB h2d_busy  d2h_GB d2h_busy  p2p_in_GB  first_k  last_k  last_op")
        for pid in sorted(per):
            d = per[pid]
            ks = d.get("kernel", [])
            tasks = len({e["args"].get("task") for e in ks})
            kb = union_ms([(e["ts"], e["ts"] + e["dur"]) for e in ks])
            gb = {cat: sum(e["args"].get("bytes", 0) for e in d.get(cat, [])) / 1e9 for cat in ("h2d", "d2h", "p2p")}
            busy = {cat: union_ms([(e["ts"], e["ts"] + e["dur"]) for e in d.get(cat, [])]) for cat in ("h2d", "d2h")}
            first_k = (min(e["ts"] for e in ks) - t0) / 1000.0 if ks else float("nan")
            last_k = (max(e["ts"] + e["dur"] for e in ks) - t0) / 1000.0 if ks else float("nan")
            last = (max(e["ts"] + e["dur"] for cat in d for e in d[cat]) - t0) / 1000.0
            print(f"  {gpu_names.get(pid, pid):6} {tasks:5d} {kb:9.2f} {gb['h2d']:7.2f} {busy['h2d']:8.2f}"
                  f" {gb['d2h']:7.2f} {busy['d2h']:8.2f} {gb['p2p']:10.2f} {first_k:8.2f} {last_k:7.2f} {last:8.2f}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        summarize(p)


if __name__ == "__main__":
    main()
