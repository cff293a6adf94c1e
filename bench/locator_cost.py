#!/usr/bin/env python3
"""What the QR locator costs per photo, at the view it works on (the frame reduced to at most
4 MP: a 12 MP JPEG's half-size decode). Runs codesweep with CODESWEEP_TRACE=1 on one image at a
time, in-process (--isolation none, --jobs 1), and reads its `locate ms=... (binarise, finders,
group)` trace lines; prints median, 90th percentile and maximum per source size class.

usage: locator_cost.py [--bin .build/release/codesweep] [DIR ...]   (default: the BoofCV dev half)
"""
import argparse, os, re, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"trace locate ms=(\d+) \(binarise ([\d.]+), finders ([\d.]+), group ([\d.]+)\) size=(\d+)x(\d+) finders=(\d+)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/codesweep"))
    ap.add_argument("dirs", nargs="*", default=[os.path.join(ROOT, "..", "shared", "corpus", "boofcv-dev")])
    a = ap.parse_args()
    files = [os.path.join(d, f) for top in a.dirs if os.path.isdir(top) for d, _, fs in os.walk(top)
             for f in sorted(fs) if f.lower().endswith((".jpg", ".jpeg", ".png"))]
    if not files:
        print(f"locator_cost: no images under {' '.join(a.dirs)}", file=sys.stderr)
        sys.exit(2)
    rows = []  # (view MP, total ms, binarise, finders, group, finder count)
    for f in files:
        p = subprocess.run([a.bin, "scan", "-q", "--isolation", "none", "--jobs", "1", f],
                           env=dict(os.environ, CODESWEEP_TRACE="1"), capture_output=True, text=True, errors="replace")
        for m in LINE.finditer(p.stderr):
            ms, b, fi, g, w, h, n = m.groups()
            rows.append((int(w) * int(h) / 1e6, float(b) + float(fi) + float(g), float(b), float(fi), float(g), int(n)))
    if not rows:
        print("locator_cost: no locate trace lines (is the binary built with the locator?)", file=sys.stderr)
        sys.exit(2)
    print(f"QR locator cost on {len(files)} images ({len(rows)} located views), one job, ms per view")
    print(f"{'view':>14} {'views':>6} {'median':>8} {'p90':>8} {'max':>8}   median stages (binarise / finders / group)")
    for label, lo, hi in [("2.5-4 MP", 2.5, 4.01), ("1-2.5 MP", 1.0, 2.5), ("< 1 MP", 0, 1.0)]:
        sel = sorted((r for r in rows if lo <= r[0] < hi), key=lambda r: r[1])
        if not sel:
            continue
        t = [r[1] for r in sel]
        p90 = t[min(len(t) - 1, int(0.9 * len(t)))]
        med = lambda i: statistics.median(r[i] for r in sel)
        print(f"{label:>14} {len(sel):>6} {statistics.median(t):>8.1f} {p90:>8.1f} {t[-1]:>8.1f}   {med(2):.1f} / {med(3):.1f} / {med(4):.1f}")
    print("2.5-4 MP views are 12 MP photos decoded at half size. Times are wall clock on a shared machine.")


if __name__ == "__main__":
    main()
