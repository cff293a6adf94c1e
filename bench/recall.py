#!/usr/bin/env python3
"""Recall benchmark (`make bench-recall`): the hard set and the shared zxing-cpp corpus, each
scanned by codesweep at every effort level and by zbarimg, in the same run, side by side.
Prints figures; asserts nothing. Python 3 stdlib only.

  python3 bench/recall.py [--bin .build/release/codesweep] [--jobs 2] [--out bench-out]
                          [--efforts fast,normal,thorough] [--no-corpus] [--no-hardset]
"""
import argparse, base64, collections, json, os, subprocess, sys, time, concurrent.futures as cf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "zxing-cpp")
SCORE = os.path.join(ROOT, "..", "shared", "bench", "score.py")
# zbarimg names -> codesweep names (for the hard set's symbology check).
ZBAR_NAMES = {"QR-Code": "qrcode", "EAN-13": "ean13", "UPC-A": "upca", "UPC-E": "upce", "EAN-8": "ean8",
              "CODE-128": "code128", "CODE-39": "code39", "CODE-93": "code93", "I2/5": "itf",
              "Codabar": "codabar", "DataBar": "databar", "DataBar-Exp": "databar-exp", "ISBN-13": "isbn13",
              "ISBN-10": "isbn10", "EAN-2": "ean2", "EAN-5": "ean5"}
CS_NAMES = {"qr": "qrcode"}


def sym_norm(s):
    s = CS_NAMES.get(s, s)
    return s.replace("-", "").lower()


def run_codesweep(binary, effort, target, out, jobs):
    t = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run([binary, "scan", "-q", "--jobs", str(jobs), "--effort", effort, target],
                           stdout=f, stderr=subprocess.PIPE)
    dt = time.monotonic() - t
    if p.returncode not in (0, 1):
        sys.exit(f"codesweep failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    recs = {}
    for line in open(out, encoding="utf-8"):
        r = json.loads(line)
        if "path" not in r:
            continue
        recs[r["path"]] = [(sym_norm(c["symbology"]), base64.b64decode(c.get("bytes_b64", ""))) for c in r.get("codes", [])]
    return recs, dt


def zbarimg_one(path):
    # Plain `symbology:payload` lines (text mode, payloads are ASCII in the hard set); add-ons off
    # like codesweep's default.
    p = subprocess.run(["zbarimg", "-q", "-Sean2.disable", "-Sean5.disable", path], capture_output=True)
    codes = []
    for line in p.stdout.split(b"\n"):
        if b":" in line:
            k, v = line.split(b":", 1)
            codes.append((sym_norm(ZBAR_NAMES.get(k.decode(errors="replace"), k.decode(errors="replace"))), v))
    return path, codes


def run_zbarimg(files, jobs):
    t = time.monotonic()
    with cf.ThreadPoolExecutor(jobs) as ex:
        res = dict(ex.map(zbarimg_one, files))
    return res, time.monotonic() - t


def zbarimg_jsonl(res, out, root):
    """zbarimg's results as JSON Lines for score.py (text mode: bytes re-encoded as read)."""
    with open(out, "w") as f:
        for path, codes in sorted(res.items()):
            f.write(json.dumps({"path": os.path.relpath(path, root),
                                "codes": [{"symbology": s, "text": v.decode("utf-8", "replace"),
                                           "bytes_b64": base64.b64encode(v).decode()} for s, v in codes]}) + "\n")


def score_hardset(truth, results, root):
    """Per category: codes found / expected, false reads (decodes matching no expected code)."""
    per = collections.OrderedDict()
    for rel, expected in sorted(truth.items()):
        cat = rel.split("/")[0]
        c = per.setdefault(cat, [0, 0, 0, 0])  # found, expected, false, images
        got = list(results.get(os.path.join(root, rel), []))
        c[1] += len(expected); c[3] += 1
        for e in expected:
            want = e["text"].encode()
            hit = next((i for i, (s, b) in enumerate(got) if b == want or
                        (e["symbology"] == "upca" and b in (want, b"0" + want))), None)
            if hit is not None:
                c[0] += 1
                got.pop(hit)
        # Leftovers: a second read of a code already counted is a duplicate, not a false read.
        wanted = {e["text"].encode() for e in expected} | {b"0" + e["text"].encode() for e in expected}
        c[2] += sum(1 for s, b in got if b not in wanted)
    return per


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/codesweep"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench-out"))
    ap.add_argument("--efforts", default="fast,normal,thorough")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--no-hardset", action="store_true")
    a = ap.parse_args()
    efforts = a.efforts.split(",")
    os.makedirs(a.out, exist_ok=True)
    hs = os.path.join(a.out, "hardset")
    if not a.no_hardset:
        t = time.monotonic()
        subprocess.run([sys.executable, os.path.join(HERE, "gen_hardset.py"), hs], check=True)
        print(f"hard set ready in {time.monotonic() - t:.1f} s", file=sys.stderr)
        truth = json.load(open(os.path.join(hs, "truth.json")))["images"]
        files = [os.path.join(hs, r) for r in sorted(truth)]
        cats = sorted({r.split("/")[0] for r in truth}, key=lambda c: list(truth).index(next(r for r in truth if r.startswith(c + "/"))))
        tools = {}
        for e in efforts:
            per_cat = {}
            for cat in sorted({r.split('/')[0] for r in truth}):
                recs, dt = run_codesweep(a.bin, e, os.path.join(hs, cat), os.path.join(a.out, f"hard-{e}-{cat}.jsonl"), a.jobs)
                per_cat[cat] = (recs, dt)
            tools[f"codesweep {e}"] = per_cat
        per_cat = {}
        for cat in sorted({r.split('/')[0] for r in truth}):
            res, dt = run_zbarimg([f for f in files if f"/{cat}/" in f], a.jobs)
            per_cat[cat] = (res, dt)
        tools["zbarimg"] = per_cat
        names = list(tools)
        print("\nHARD SET (found/expected codes, false reads, wall seconds; jobs=%d)" % a.jobs)
        hdr = f"{'category':<13}{'imgs':>5}" + "".join(f"{n:>26}" for n in names)
        print(hdr); print("-" * len(hdr))
        tot = {n: [0, 0, 0, 0.0] for n in names}
        for cat in sorted({r.split('/')[0] for r in truth}):
            sub = {r: v for r, v in truth.items() if r.startswith(cat + "/")}
            row = f"{cat:<13}{len(sub):>5}"
            for n in names:
                recs, dt = tools[n][cat]
                s = score_hardset(sub, recs, hs)[cat]
                tot[n][0] += s[0]; tot[n][1] += s[1]; tot[n][2] += s[2]; tot[n][3] += dt
                cell = f"{s[0]}/{s[1]} f{s[2]} {dt:.1f}s"
                row += f"{cell:>26}"
            print(row)
        row = f"{'TOTAL':<13}{len(truth):>5}"
        for n in names:
            f_, e_, fr, dt = tot[n]
            row += f"{f'{f_}/{e_} f{fr} {dt:.1f}s':>26}"
        print(row)
        sys.stdout.flush()
    if not a.no_corpus and os.path.isdir(CORPUS):
        print("\nSHARED CORPUS zxing-cpp (score.py; wall seconds for the scan)")
        for e in efforts:
            out = os.path.join(a.out, f"corpus-{e}.jsonl")
            _, dt = run_codesweep(a.bin, e, CORPUS, out, a.jobs)
            print(f"\n== codesweep --effort {e}: {dt:.1f} s")
            sys.stdout.flush()
            subprocess.run([sys.executable, SCORE, os.path.join(CORPUS, "manifest.json"), out])
        files = []
        for d, _, fs in os.walk(CORPUS):
            files += [os.path.join(d, f) for f in fs if f.lower().endswith((".png", ".jpg", ".jpeg", ".webp", ".gif", ".tif", ".bmp"))]
        res, dt = run_zbarimg(sorted(files), a.jobs)
        out = os.path.join(a.out, "corpus-zbarimg.jsonl")
        zbarimg_jsonl(res, out, CORPUS)
        print(f"\n== zbarimg (text mode, add-ons off): {dt:.1f} s")
        sys.stdout.flush()
        subprocess.run([sys.executable, SCORE, os.path.join(CORPUS, "manifest.json"), out])


if __name__ == "__main__":
    main()
