#!/usr/bin/env python3
"""The shared zxing-cpp corpus (../shared/corpus/zxing-cpp), codesweep at each effort against
zxing-cpp 3.1 from PyPI (bench/zxing_peer.py: Pillow + read_barcodes, default options), run and
timed in this run, like with like: `codesweep scan --jobs J` against J peer processes, both asked
for every symbology they read. Scored by the shared scorer (score.py, per family). Prints the
labelled codes read per family side by side (a family where codesweep reads fewer than
zxing-cpp is marked), the totals, false positives on the falsepositives folders, and wall and CPU
seconds as multiples of zxing-cpp's. With --rounds N each reader is timed N times, the rounds
interleaved, and the medians printed (the machine is shared: one round can be 30 % off), with the
CPU time the hypervisor gave other guests meanwhile. Asserts nothing. Exit 2 without the corpus.

  python3 bench/corpus_vs_zxing.py [--bin .build/release/codesweep] [--efforts fast,normal] [--jobs 2] [--rounds 3]
"""
import argparse, json, os, resource, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "zxing-cpp")
SCORE = os.path.join(ROOT, "..", "shared", "bench", "score.py")


def steal_seconds():
    """CPU seconds this machine's hypervisor gave to other guests so far (/proc/stat), or 0."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def timed(cmd, out):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p, wall, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)


def score(results, tmp):
    js = os.path.join(tmp, os.path.basename(results) + ".score.json")
    subprocess.run([sys.executable, SCORE, os.path.join(CORPUS, "manifest.json"), results, "--group", "family", "--json", js],
                   stdout=subprocess.DEVNULL, check=True)
    return json.load(open(js))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/codesweep"))
    ap.add_argument("--efforts", default="fast,normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=1, help="time each reader this many times, interleaved; the median is printed")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(CORPUS, "manifest.json")):
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="corpus-vs-zxing-")
    # Each reader timed `--rounds` times, the rounds interleaved (peer, then each effort), and
    # the median kept: on a shared machine one round's neighbour can cost a reader 30 %.
    readers = [("zxing-cpp 3.1", os.path.join(tmp, "zxing.jsonl"),
                lambda out: [sys.executable, os.path.join(HERE, "zxing_peer.py"), CORPUS, out, "--jobs", str(a.jobs)])]
    for effort in a.efforts.split(","):
        readers.append((f"codesweep {effort}", os.path.join(tmp, f"codesweep-{effort}.jsonl"),
                        lambda out, e=effort: [a.bin, "scan", "-q", "--jobs", str(a.jobs), "--effort", e, CORPUS]))
    times = {name: [] for name, _, _ in readers}
    steal0 = steal_seconds()
    for _ in range(a.rounds):
        for name, out, cmd in readers:
            p, wall, cpu = timed(cmd(out), out if name.startswith("codesweep") else os.path.join(tmp, "peer.txt"))
            if p.returncode not in (0, 1) or (not name.startswith("codesweep") and p.returncode != 0):
                print(p.stderr.decode(errors="replace")[:400], file=sys.stderr)
                return 1
            times[name].append((wall, cpu))
    steal = steal_seconds() - steal0
    median = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    peer_times = times[readers[0][0]]
    runs = []
    for name, out, _ in readers:
        # The median wall and CPU seconds, and the median of each round's ratio to the peer's
        # round beside it (paired, so a slow stretch of the machine slows both).
        ratios = (median([w / pw for (w, _), (pw, _) in zip(times[name], peer_times)]),
                  median([c / pc for (_, c), (_, pc) in zip(times[name], peer_times)]))
        runs.append((name, score(out, tmp), median([w for w, _ in times[name]]), median([c for _, c in times[name]]), ratios))
    families = [f for f, g in runs[0][1]["groups"].items() if g.get("kind") == "labelled"]
    names = [r[0] for r in runs]
    print(f"\nzxing-cpp corpus ({CORPUS}), --jobs {a.jobs}; found / labelled per family (* fewer than zxing-cpp)\n")
    print(f"{'family':22s}" + "".join(f"{n:>20s}" for n in names))
    for fam in families:
        peer_found = runs[0][1]["groups"][fam]["found"]
        cells = []
        for _, s, _, _, _ in runs:
            g = s["groups"].get(fam, {"found": 0, "images": 0})
            mark = "*" if g["found"] < peer_found else " "
            cells.append(f"{g['found']:>4d}/{g['images']:<4d}{mark}")
        print(f"{fam:22s}" + "".join(f"{c:>20s}" for c in cells))
    print(f"{'ALL labelled':22s}" + "".join(f"{s['overall']['all labelled']['found']:>15d}/{s['overall']['all labelled']['images']:<4d}" for _, s, _, _, _ in runs))
    print(f"{'misread images':22s}" + "".join(f"{s['overall']['all labelled']['misread']:>20d}" for _, s, _, _, _ in runs))
    fp = lambda s: sum(g.get("fp_images", 0) for f, g in s["groups"].items() if f.startswith("falsepositives"))  # noqa: E731
    print(f"{'false positives':22s}" + "".join(f"{fp(s):>20d}" for _, s, _, _, _ in runs))
    print(f"{'wall s (x zxing-cpp)':22s}" + "".join(f"{w:>12.1f} ({r[0]:4.1f}x)" for _, _, w, _, r in runs))
    print(f"{'cpu s (x zxing-cpp)':22s}" + "".join(f"{c:>12.1f} ({r[1]:4.1f}x)" for _, _, _, c, r in runs))
    if a.rounds > 1:
        print(f"{'rounds (wall x)':22s}" + "".join(f"{' '.join(f'{w / pw:.1f}' for (w, _), (pw, _) in zip(times[n], peer_times)):>20s}" for n, _, _, _, _ in runs))
    print(f"\nSeconds: the median of {a.rounds} interleaved round(s); x: the median of the rounds' ratios to the peer's round. CPU time stolen by other guests during the run: {steal:.1f} s.")
    print("The machine may be shared: compare within one run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
