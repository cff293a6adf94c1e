#!/usr/bin/env python3
"""`make bench-generate`: time `codesweep generate` making and verifying N codes (default 1,000).

Writes a batch list of N campaign URLs (a fixed mix of options: EC levels, brand colours, a
logo on one in eight, sizes) to bench-out/generate/, runs one batch with verification (read
back by the engine, graded like `check`), prints the wall time and the rate, and exits 1 when
any code failed. The issue's goal: 1,000 codes in under 20 s on 2 cores.
"""
import argparse, os, resource, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=".build/release/codesweep")
ap.add_argument("--count", type=int, default=1000)
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--out", default="bench-out/generate")
a = ap.parse_args()

os.makedirs(a.out, exist_ok=True)
logo = os.path.join(a.out, "logo.png")
# A red disc with a white square: the logo of the set (ImageMagick CLI, PNG without dates).
subprocess.run(["/usr/bin/convert", "-size", "120x120", "xc:none", "-fill", "#d62828", "-draw", "circle 60,60 60,2",
                "-fill", "white", "-draw", "rectangle 38,38 82,82", "-define", "png:exclude-chunks=date,time", logo], check=True)
options = ["", "ec=Q", "fg=#003366", "fg=darkred bg=#fffbe6", "ec=L module=6", "size=360", "ec=H fg=#1d3557",
           "logo=logo.png logo-size=0.08"]
lines = ["name,payload,options"]
for i in range(a.count):
    lines.append(f"code-{i:04d},https://www.example.com/c/{i}?utm_source=flyer&utm_campaign=winter-{i % 7},{options[i % len(options)]}")
lst = os.path.join(a.out, "list.csv")
with open(lst, "w") as f:
    f.write("\n".join(lines) + "\n")

codes = os.path.join(a.out, "codes")
subprocess.run(["rm", "-rf", codes], check=True)
load = os.getloadavg()[0]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
r = subprocess.run([a.bin, "generate", "--batch", lst, "-o", codes, "-q", "-j", str(a.jobs)], stderr=subprocess.PIPE, text=True)
dt = time.monotonic() - t0
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
sys.stderr.write(r.stderr[-2000:])
made = len([n for n in os.listdir(codes) if n.endswith(".png")]) if os.path.isdir(codes) else 0
print(f"generate: {made} of {a.count} codes made and verified in {dt:.1f} s ({a.count / dt:.0f} codes/s, {a.jobs} jobs, {os.cpu_count()} cores); goal: 1,000 in < 20 s")
# CPU time is the steadier figure on a shared machine (wall time waits for other work); peak RSS
# is the largest child's (ImageMagick's convert for the logo, or codesweep).
print(f"  CPU {cpu:.1f} s (user + sys), {cpu / max(1, a.count) * 1000:.1f} ms a code; peak RSS {after.ru_maxrss / 1024:.0f} MiB; load average before {load:.2f}")
sys.exit(0 if r.returncode == 0 and made == a.count else 1)
