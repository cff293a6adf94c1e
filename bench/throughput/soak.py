#!/usr/bin/env python3
"""Memory soak: does the sweep's resident memory stay flat over a long run?

usage: soak.py CODESWEEP_BINARY PHOTOLIB_DIR [--count 10000] [--effort normal] [--jobs 2]
               [--isolation process] [--out bench-out/soak]

Makes COUNT hard links (distinct names, no extra disk) to the images of PHOTOLIB_DIR, sweeps
them in one run and samples the peak RSS of the whole process tree (the sweep and its workers)
every 0.2 s, next to the number of records written so far. Prints RSS after the first 1,000
records (the peak seen up to then), at the end, the growth between the two, and the peak.
"""
import argparse, os, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import tree_rss_kib  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("photolib")
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--effort", default="normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--isolation", default="process")
    ap.add_argument("--out", default="bench-out/soak")
    a = ap.parse_args()

    sources = sorted(os.path.join(a.photolib, n) for n in os.listdir(a.photolib)
                     if n.lower().endswith((".jpg", ".jpeg", ".png", ".heic", ".webp")))
    if not sources:
        sys.exit(f"soak: no images in {a.photolib}")
    links = os.path.join(a.out, "links")
    os.makedirs(links, exist_ok=True)
    for i in range(a.count):
        src = sources[i % len(sources)]
        dst = os.path.join(links, f"{i:06d}{os.path.splitext(src)[1]}")
        if not os.path.exists(dst):
            os.link(src, dst)
    for name in os.listdir(links):  # a smaller --count than last time
        if int(os.path.splitext(name)[0]) >= a.count:
            os.unlink(os.path.join(links, name))

    out_path = os.path.join(a.out, "soak.jsonl")
    cmd = [a.binary, "scan", "-q", "--effort", a.effort, "--jobs", str(a.jobs), "--isolation", a.isolation, links]
    samples = []  # (seconds, records written, tree RSS KiB)
    t0 = time.monotonic()
    with open(out_path, "wb") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                try:
                    with open(out_path, "rb") as f:
                        done = f.read().count(b"\n")
                except OSError:
                    done = 0
                samples.append((time.monotonic() - t0, done, tree_rss_kib(p.pid)))
                time.sleep(0.2)

        th = threading.Thread(target=sample, daemon=True)
        th.start()
        p.wait()
        stop.set()
        th.join()
    wall = time.monotonic() - t0
    with open(out_path, "rb") as f:
        records = f.read().count(b"\n")

    def peak_until(n):
        vals = [rss for _, done, rss in samples if done <= n]
        return max(vals) / 1024 if vals else 0.0

    def window(lo, hi):
        vals = [rss for _, done, rss in samples if lo <= done <= hi and rss > 0]
        return (sum(vals) / len(vals) / 1024) if vals else 0.0

    first = min(1000, records)
    at_1k = window(max(0, first - 200), first)
    at_end = window(max(0, records - 200), records)
    peak = max((rss for _, _, rss in samples), default=0) / 1024
    growth = (at_end - at_1k) / at_1k * 100 if at_1k else float("nan")
    print(f"\nsoak: {records} records ({a.count} files, {len(sources)} distinct images), --effort {a.effort}, "
          f"--jobs {a.jobs}, --isolation {a.isolation}, exit {p.returncode}, {wall:.0f} s ({records / wall:.2f} img/s)")
    print(f"tree RSS around record {first}: {at_1k:.0f} MiB; around record {records}: {at_end:.0f} MiB; "
          f"growth {growth:+.1f} %; peak {peak:.0f} MiB (peak up to record {first}: {peak_until(first):.0f} MiB)")
    with open(os.path.join(a.out, "rss.tsv"), "w") as f:
        f.write("seconds\trecords\trss_kib\n")
        for s, d, r in samples:
            f.write(f"{s:.1f}\t{d}\t{r}\n")


if __name__ == "__main__":
    main()
