#!/usr/bin/env python3
"""The shared zxing-cpp corpus (../shared/corpus/zxing-cpp), codesweep at each effort against
zxing-cpp 3.1 from PyPI (bench/zxing_peer.py: Pillow + read_barcodes, default options), run and
timed in this run, like with like: `codesweep scan --jobs J` against J peer processes, both asked
for every symbology they read. Scored by the shared scorer (score.py, per family). Prints the
labelled codes read per family side by side (a family where codesweep reads fewer than
zxing-cpp is marked), the totals, false positives on the falsepositives folders, and wall and CPU
seconds as multiples of zxing-cpp's. Asserts nothing. Exit 2 without the corpus.

  python3 bench/corpus_vs_zxing.py [--bin .build/release/codesweep] [--efforts fast,normal] [--jobs 2]
"""
import argparse, json, os, resource, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "zxing-cpp")
SCORE = os.path.join(ROOT, "..", "shared", "bench", "score.py")


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
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(CORPUS, "manifest.json")):
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="corpus-vs-zxing-")
    runs = []
    peer = os.path.join(tmp, "zxing.jsonl")
    p, wall, cpu = timed([sys.executable, os.path.join(HERE, "zxing_peer.py"), CORPUS, peer, "--jobs", str(a.jobs)], os.path.join(tmp, "peer.txt"))
    if p.returncode != 0:
        print(p.stderr.decode(errors="replace"), file=sys.stderr)
        return 1
    runs.append(("zxing-cpp 3.1", score(peer, tmp), wall, cpu))
    for effort in a.efforts.split(","):
        out = os.path.join(tmp, f"codesweep-{effort}.jsonl")
        p, wall, cpu = timed([a.bin, "scan", "-q", "--jobs", str(a.jobs), "--effort", effort, CORPUS], out)
        if p.returncode not in (0, 1):
            print(p.stderr.decode(errors="replace")[:400], file=sys.stderr)
            return 1
        runs.append((f"codesweep {effort}", score(out, tmp), wall, cpu))
    families = [f for f, g in runs[0][1]["groups"].items() if g.get("kind") == "labelled"]
    names = [r[0] for r in runs]
    print(f"\nzxing-cpp corpus ({CORPUS}), --jobs {a.jobs}; found / labelled per family (* fewer than zxing-cpp)\n")
    print(f"{'family':22s}" + "".join(f"{n:>20s}" for n in names))
    for fam in families:
        peer_found = runs[0][1]["groups"][fam]["found"]
        cells = []
        for _, s, _, _ in runs:
            g = s["groups"].get(fam, {"found": 0, "images": 0})
            mark = "*" if g["found"] < peer_found else " "
            cells.append(f"{g['found']:>4d}/{g['images']:<4d}{mark}")
        print(f"{fam:22s}" + "".join(f"{c:>20s}" for c in cells))
    print(f"{'ALL labelled':22s}" + "".join(f"{s['overall']['all labelled']['found']:>15d}/{s['overall']['all labelled']['images']:<4d}" for _, s, _, _ in runs))
    print(f"{'misread images':22s}" + "".join(f"{s['overall']['all labelled']['misread']:>20d}" for _, s, _, _ in runs))
    fp = lambda s: sum(g.get("fp_images", 0) for f, g in s["groups"].items() if f.startswith("falsepositives"))  # noqa: E731
    print(f"{'false positives':22s}" + "".join(f"{fp(s):>20d}" for _, s, _, _ in runs))
    pw, pc = runs[0][2], runs[0][3]
    print(f"{'wall s (x zxing-cpp)':22s}" + "".join(f"{w:>12.1f} ({w / pw:4.1f}x)" for _, _, w, _ in runs))
    print(f"{'cpu s (x zxing-cpp)':22s}" + "".join(f"{c:>12.1f} ({c / pc:4.1f}x)" for _, _, _, c in runs))
    print("\nThe machine may be shared: compare within one run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
