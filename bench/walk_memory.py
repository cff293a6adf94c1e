#!/usr/bin/env python3
"""Peak memory of a sweep over trees of empty files: the walk must stream (memory flat in the
number of files), issue 16.

  python3 bench/walk_memory.py [--bin .build/release/codesweep] [--counts 2000,200000]
                               [--compare OTHER_BIN] [--out bench-out/walk]

Makes (once, cached) a tree of N empty `.jpg` files, 1,000 a folder, for each count; runs
`BIN scan -q TREE > /dev/null` and prints the coordinator's peak RSS (GNU time's %M) and wall
time. Empty files are reported as errors without being decoded, so the figure is the walk's and
the sweep's bookkeeping, not image decoding. With --compare, the other binary runs beside it.
"""
import argparse, os, subprocess, sys, time

def tree(out, n):
    root = os.path.join(out, f"t{n}")
    done = os.path.join(root, ".complete")
    if os.path.exists(done):
        return root
    per = 1000
    for d in range((n + per - 1) // per):
        folder = os.path.join(root, f"d{d:05d}")
        os.makedirs(folder, exist_ok=True)
        for f in range(min(per, n - d * per)):
            open(os.path.join(folder, f"f{f:04d}.jpg"), "w").close()
    open(done, "w").close()
    return root

def peak(binary, root):
    start = time.time()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "scan", "-q", root],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.time() - start
    if r.returncode not in (0, 1):
        sys.exit(f"walk_memory: {binary} exited {r.returncode}: {r.stderr[-500:]}")
    return int(r.stderr.strip().splitlines()[-1]) / 1024, wall

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--compare")
    ap.add_argument("--counts", default="2000,200000")
    ap.add_argument("--out", default="bench-out/walk")
    a = ap.parse_args()
    counts = [int(c) for c in a.counts.split(",")]
    bins = [a.bin] + ([a.compare] if a.compare else [])
    print(f"{'files':>10}  " + "  ".join(f"{os.path.basename(os.path.dirname(os.path.abspath(b))) + '/' + os.path.basename(b):>28}" for b in bins))
    base = {}
    for n in counts:
        root = tree(a.out, n)
        cells = []
        for b in bins:
            mib, wall = peak(b, root)
            base.setdefault(b, mib)
            cells.append(f"{mib:7.1f} MiB (+{mib - base[b]:5.1f}) {wall:6.1f}s")
        print(f"{n:>10}  " + "  ".join(f"{c:>28}" for c in cells))
    print("peak RSS of the coordinator (GNU time %M); (+x): above the first count's")

main()
