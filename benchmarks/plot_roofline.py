#!/usr/bin/env python3
"""benchmarks/plot_roofline.py -- plots the CSV(s) of bench_harness.

Usage:
    python3 benchmarks/plot_roofline.py run1.csv [run2.csv ...] [-o roofline.png]
            [--bar-size 16384]

Writes one PNG (matplotlib, no display needed) with:
  left:  TFLOP/s against N for the square DGEMM cases (m = n = k), one line
         per library (blasx, cuBLAS-XT best block) and GPU count, the
         roofline of each GPU count (flops / bound_s, the harness's T_bound)
         dashed, in-core cuBLAS on one GPU dotted, and for the small-N cases
         blasx's CPU path and in-core cuBLAS with its transfers as markers;
  right: a bar chart of every case of size --bar-size (default 16384): blasx
         and cuBLAS-XT per GPU count, the roofline as a black tick on each bar.
Several CSVs (split runs) are merged; a row seen again (same case, library,
GPU count, and block dimension for cublasxt_bd) replaces the earlier one.
Lines starting with '#' (the harness's node report) are skipped.
"""
import argparse
import csv
import sys


def read_rows(paths):
    rows = {}
    for path in paths:
        with open(path, newline="") as f:
            lines = [ln for ln in f if not ln.startswith("#")]
        for r in csv.DictReader(lines):
            # cublasxt_bd rows: one per block dimension; every other library
            # has one row per case and GPU count
            bd = r["block_dim"] if r["library"] == "cublasxt_bd" else ""
            key = (r["routine"], r["prec"], r["m"], r["n"], r["k"], r["gpus"], r["library"], bd)
            rows[key] = r
    return list(rows.values())


def num(r, field):
    """The field as a float, None when empty or unparsable."""
    try:
        v = r.get(field, "")
        return float(v) if v not in ("", None) else None
    except ValueError:
        return None


def flops(r):
    """Flops of a row from its rate and time (the harness's own count)."""
    t, tf = num(r, "time_s"), num(r, "tflops")
    return tf * 1e12 * t if t and tf else None


def label(r):
    dims = r["m"] if r["routine"] != "gemm" or r["m"] == r["n"] == r["k"] else "%sx%sx%s" % (r["m"], r["n"], r["k"])
    return "%s%s %s" % (r["prec"], r["routine"], dims)


LIBS = [("blasx", "blasx", "-", "o"), ("cublasxt", "cuBLAS-XT (best block)", "-", "s")]


def plot_dgemm(ax, rows):
    sq = [r for r in rows if r["routine"] == "gemm" and r["prec"] == "d" and r["m"] == r["n"] == r["k"]]
    if not sq:
        ax.text(0.5, 0.5, "no square DGEMM rows", ha="center", transform=ax.transAxes)
        return
    gpus = sorted({int(r["gpus"]) for r in sq if r["library"] in ("blasx", "cublasxt")})
    colors = {}
    cmap = ["tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown"]
    for i, g in enumerate(gpus):
        colors[g] = cmap[i % len(cmap)]
    for lib, name, ls, mk in LIBS:
        for g in gpus:
            pts = sorted((int(r["n"]), num(r, "tflops")) for r in sq
                         if r["library"] == lib and int(r["gpus"]) == g and num(r, "tflops"))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, marker=mk, color=colors[g],
                        alpha=1.0 if lib == "blasx" else 0.55, label="%s, %d GPU%s" % (name, g, "s" if g > 1 else ""))
    # Roofline per GPU count: flops / T_bound (same for every library of a case).
    for g in gpus:
        best = {}
        for r in sq:
            if int(r["gpus"]) == g and r["library"] in ("blasx", "cublasxt"):
                f, b = flops(r), num(r, "bound_s")
                if f and b:
                    best[int(r["n"])] = f / b * 1e-12
        if best:
            xs = sorted(best)
            ax.plot(xs, [best[x] for x in xs], "--", marker="_", color=colors[g], linewidth=1,
                    label="roofline, %d GPU%s" % (g, "s" if g > 1 else ""))
    inc = sorted((int(r["n"]), num(r, "tflops")) for r in sq if r["library"] == "cublas_incore" and num(r, "tflops"))
    if inc:
        ax.plot([p[0] for p in inc], [p[1] for p in inc], ":", color="gray", label="in-core cuBLAS, 1 GPU")
    for lib, name, mk in (("blasx_cpu", "blasx CPU path", "x"), ("cublas_xfer", "cuBLAS + transfers, 1 GPU", "+")):
        pts = sorted((int(r["n"]), num(r, "tflops")) for r in sq if r["library"] == lib and num(r, "tflops"))
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], mk, color="black", markersize=8, label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N (DGEMM, m = n = k)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title("DGEMM from pinned host memory")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def plot_bars(ax, rows, size):
    sel = [r for r in rows if r["library"] in ("blasx", "cublasxt") and num(r, "tflops")
           and (int(r["n"]) == size and (r["routine"] != "gemm" or r["m"] == r["n"] == r["k"]))]
    if not sel:
        ax.text(0.5, 0.5, "no rows of size %d" % size, ha="center", transform=ax.transAxes)
        return
    cases = []
    for r in sel:
        c = (r["prec"], r["routine"])
        if c not in cases:
            cases.append(c)
    series = sorted({(int(r["gpus"]), r["library"]) for r in sel}, key=lambda s: (s[0], s[1] != "blasx"))
    width = 0.8 / len(series)
    hatch = {"blasx": "", "cublasxt": "//"}
    cmap = ["tab:blue", "tab:red", "tab:green", "tab:purple"]
    gpus = sorted({s[0] for s in series})
    for j, (g, lib) in enumerate(series):
        xs, ys, roof = [], [], []
        for i, c in enumerate(cases):
            r = next((r for r in sel if (r["prec"], r["routine"]) == c and int(r["gpus"]) == g
                      and r["library"] == lib), None)
            if r is None:
                continue
            x = i - 0.4 + width * (j + 0.5)
            xs.append(x)
            ys.append(num(r, "tflops"))
            f, b = flops(r), num(r, "bound_s")
            if f and b:
                roof.append((x, f / b * 1e-12))
        color = cmap[gpus.index(g) % len(cmap)]
        ax.bar(xs, ys, width, color=color, alpha=1.0 if lib == "blasx" else 0.5, hatch=hatch.get(lib, ""),
               edgecolor="black", linewidth=0.4,
               label="%s, %d GPU%s" % ("blasx" if lib == "blasx" else "cuBLAS-XT", g, "s" if g > 1 else ""))
        if roof:
            ax.plot([p[0] for p in roof], [p[1] for p in roof], "_", color="black", markersize=14, markeredgewidth=2)
    ax.plot([], [], "_", color="black", markersize=14, markeredgewidth=2, label="roofline (T_bound)")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(["%s%s" % c for c in cases], rotation=30)
    ax.set_ylabel("TFLOP/s")
    ax.set_title("N = %d" % size)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="+", help="bench_harness CSV file(s)")
    ap.add_argument("-o", "--output", default="roofline.png", help="PNG to write (default roofline.png)")
    ap.add_argument("--bar-size", type=int, default=16384, help="size of the cases in the bar chart (16384)")
    a = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = read_rows(a.csv)
    if not rows:
        print("plot_roofline: no rows in %s" % ", ".join(a.csv), file=sys.stderr)
        return 1
    fig, (left, right) = plt.subplots(1, 2, figsize=(15, 6))
    plot_dgemm(left, rows)
    plot_bars(right, rows, a.bar_size)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print("plot_roofline: %d rows -> %s" % (len(rows), a.output))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
