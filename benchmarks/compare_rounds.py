"""benchmarks/compare_rounds.py -- bench_wheels.py's lines from processes
that alternate (LABEL = KIND ROUND, e.g. wheel3, blasx3), compared case
by case: each kind's median over its processes of their medians, the
ratio of those (wheel / blasx: above 1, blasx faster), the per-round
ratios' median and range, and each kind's spread from process to process.

  python3 compare_rounds.py FILE [BASE=wheel] [OTHER=blasx]

A sub-millisecond call's time moves from process to process by more than
the difference between two libraries; one process per kind cannot tell
them apart, many alternating ones can.
"""
import re
import statistics as st
import sys


def main():
    path = sys.argv[1]
    base = sys.argv[2] if len(sys.argv) > 2 else "wheel"
    other = sys.argv[3] if len(sys.argv) > 3 else "blasx"
    t = {}  # (kind, case, n) -> {round: seconds}
    for line in open(path):
        f = line.split()
        if len(f) < 4 or f[3] == "split":
            continue
        m = re.fullmatch(r"([a-z_]+?)(\d+)", f[0])
        if not m or m.group(1) not in (base, other):
            continue
        try:
            t.setdefault((m.group(1), f[1], int(f[2])), {})[int(m.group(2))] = float(f[3])
        except ValueError:
            continue
    cases = sorted({(c, n) for _, c, n in t}, key=lambda k: (k[1], k[0]))
    print("%-14s %6s %10s %10s %7s %7s %15s %17s %17s" % ("case", "rounds", base + " ms", other + " ms", "ratio",
                                                          "paired", "paired range", base + " spread",
                                                          other + " spread"))
    for c, n in cases:
        a, b = t.get((base, c, n), {}), t.get((other, c, n), {})
        both = sorted(set(a) & set(b))
        if not both:
            continue
        ma, mb = st.median(a[r] for r in both), st.median(b[r] for r in both)
        pr = [a[r] / b[r] for r in both]
        print("%-14s %6d %10.4f %10.4f %7.3f %7.3f %7.3f-%-7.3f %8.4f-%-8.4f %8.4f-%-8.4f" % (
            "%s %d" % (c, n), len(both), 1e3 * ma, 1e3 * mb, ma / mb, st.median(pr), min(pr), max(pr),
            1e3 * min(a[r] for r in both), 1e3 * max(a[r] for r in both), 1e3 * min(b[r] for r in both),
            1e3 * max(b[r] for r in both)))


if __name__ == "__main__":
    main()
