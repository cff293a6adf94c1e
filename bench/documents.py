#!/usr/bin/env python3
"""Documents: pages per second and peak memory of codesweep on a generated set of PDFs and SVGs,
beside the peer a user would script today (Poppler's `pdftoppm -r 300` + zxing-cpp 3.1 from
PyPI, timed in the same run) and zbarimg's result on the same files (issue 41).

  python3 bench/documents.py [--bin .build/release/codesweep] [--jobs 2] [--out bench-out/documents]

The set (made once, cached; seeded): A4 PDFs of 4 pages each with vector QR codes from 8 mm
(version 7 labels) to 60 mm, a raster code (1 px a module, scaled up), text-like hatching and
blank pages, a /Rotate page; and SVG codes from qrencode. Each code's payload is unique, so a read
is counted right only when its payload is expected in that file. Needs poppler-utils, qrencode,
zbar-tools, GNU time and `pip install 'zxing-cpp==3.1.*' pillow` for the peer.
"""
import argparse, json, os, random, subprocess, sys, tempfile, time

MM = 72 / 25.4


def qr_matrix(text, version=0):
    out = subprocess.run(["qrencode", "-t", "ASCII", "-m", "0", "-l", "M", "-v", str(version), "-o", "-", text],
                         capture_output=True, text=True, check=True).stdout
    return [[c == "#" for c in line[::2]] for line in out.splitlines() if line]


def vector(m, x, y, side, h):
    mod = side / len(m)
    s = ["0 g"]
    for r, row in enumerate(m):
        for c, v in enumerate(row):
            if v:
                s.append(f"{x + c * mod:.3f} {h - y - (r + 1) * mod:.3f} {mod:.3f} {mod:.3f} re")
    return "\n".join(s + ["f"]) + "\n"


def pdf(pages):
    """pages: [(width, height, content, extra dict entries, images [(name, w, h, samples)])]"""
    objs = [b"", b""]
    kids = []
    for w, h, content, extra, images in pages:
        xo = []
        for name, iw, ih, samples in images:
            objs.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                        b"/BitsPerComponent 8 /Interpolate false /Length %d >>\nstream\n" % (iw, ih, len(samples))
                        + samples + b"\nendstream")
            xo.append(f"/{name} {len(objs)} 0 R")
        c = content.encode()
        objs.append(b"<< /Length %d >>\nstream\n" % len(c) + c + b"\nendstream")
        res = f"/Resources << /XObject << {' '.join(xo)} >> >> " if xo else ""
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] /Contents {len(objs)} 0 R {res}{extra}>>".encode())
        kids.append(len(objs))
    objs[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objs[1] = ("<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join(f"{k} 0 R" for k in kids), len(kids))).encode()
    out = b"%PDF-1.4\n"
    offs = []
    for i, o in enumerate(objs):
        offs.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offs)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, x)
    return out


def hatching(rng, h):
    s = ["0 g"]
    for line in range(20):
        y = 100 + line * 20
        x = 60
        while x < 520:
            w = rng.randint(15, 60)
            s.append(f"{x} {h - y} {w} 7 re")
            x += w + 6
    return "\n".join(s + ["f"]) + "\n"


def make_set(out, n_pdf, n_svg, seed=7):
    done = os.path.join(out, ".complete")
    expected = os.path.join(out, "expected.json")
    if os.path.exists(done):
        return json.load(open(expected))
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    truth = {}
    for i in range(n_pdf):
        pages, payloads = [], []
        for p in range(4):
            kind = (i + p) % 4
            if kind == 0:  # a label: 8-12 mm version-7 code
                t = f"https://example.com/label/{i}/{p}/" + "x" * 60
                m = qr_matrix(t, 7)
                pages.append((595, 842, vector(m, rng.randint(60, 400), rng.randint(60, 700), rng.uniform(8, 12) * MM, 842), "", []))
            elif kind == 1:  # a flyer: 25-60 mm code beside text
                t = f"https://example.com/flyer/{i}/{p}"
                m = qr_matrix(t)
                pages.append((595, 842, hatching(rng, 842) + vector(m, 380, 650, rng.uniform(25, 60) * MM, 842), "/Rotate 90 " if p == 3 else "", []))
            elif kind == 2:  # a raster code, 1 px a module, scaled up
                t = f"raster/{i}/{p}"
                m = qr_matrix(t)
                q = 4
                n = len(m) + 2 * q
                px = bytearray([255]) * (n * n)
                for r, row in enumerate(m):
                    for c, v in enumerate(row):
                        if v:
                            px[(r + q) * n + c + q] = 0
                side = rng.uniform(30, 50) * MM
                pages.append((595, 842, f"q {side:.2f} 0 0 {side:.2f} 100 300 cm /Im1 Do Q\n", "", [("Im1", n, n, bytes(px))]))
            else:  # blank
                t = None
                pages.append((595, 842, "", "", []))
            if t:
                payloads.append(t)
        name = f"doc{i:03d}.pdf"
        open(os.path.join(out, name), "wb").write(pdf(pages))
        truth[name] = payloads
    for i in range(n_svg):
        t = f"https://example.com/svg/{i}"
        name = f"art{i:03d}.svg"
        subprocess.run(["qrencode", "-t", "SVG", "-s", str(rng.randint(2, 6)), "-o", os.path.join(out, name), t], check=True)
        truth[name] = [t]
    json.dump(truth, open(expected, "w"), indent=1)
    open(done, "w").close()
    return truth


def timed(cmd, **kw):
    """Runs cmd under GNU time: (result, wall seconds, peak RSS MiB of its largest process)."""
    start = time.time()
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, **kw)
    wall = time.time() - start
    rss = int(r.stderr.strip().splitlines()[-1]) / 1024
    return r, wall, rss


PEER = r'''
import os, subprocess, sys, tempfile, json, zxingcpp
from PIL import Image
found = {}
pages = 0
for path in sys.argv[1:]:
    with tempfile.TemporaryDirectory() as d:
        if path.endswith(".svg"):
            subprocess.run(["rsvg-convert", "-z", str(300 / 96), "-b", "white", "-o", d + "/p-1.png", path], check=True)
        else:
            subprocess.run(["pdftoppm", "-r", "300", "-gray", path, d + "/p"], check=True)
        texts = []
        for f in sorted(os.listdir(d)):
            pages += 1
            texts += [b.text for b in zxingcpp.read_barcodes(Image.open(os.path.join(d, f)))]
        found[os.path.basename(path)] = texts
print(json.dumps({"pages": pages, "found": found}))
'''


def score(truth, found):
    right = sum(len(set(found.get(k, [])) & set(v)) for k, v in truth.items())
    wrong = sum(len([t for t in found.get(k, []) if t not in v]) for k, v in truth.items())
    return right, wrong


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pdfs", type=int, default=24)
    ap.add_argument("--svgs", type=int, default=24)
    ap.add_argument("--out", default="bench-out/documents")
    a = ap.parse_args()
    truth = make_set(a.out, a.pdfs, a.svgs)
    files = sorted(os.path.join(a.out, f) for f in truth)
    total = sum(len(v) for v in truth.values())
    print(f"set: {a.pdfs} PDFs x 4 pages + {a.svgs} SVGs, {total} codes ({a.out})")

    rows = []
    for jobs in sorted({1, a.jobs}):
        r, wall, rss = timed([a.bin, "scan", "-q", "--jobs", str(jobs)] + files)
        if r.returncode not in (0, 1):
            sys.exit(f"documents: codesweep exited {r.returncode}: {r.stderr[-500:]}")
        recs = [json.loads(l) for l in r.stdout.splitlines()]
        found = {os.path.basename(x["path"]): [c["text"] for c in x["codes"]] for x in recs}
        pages = sum(len(x.get("pages", [])) for x in recs)
        errors = [x["path"] for x in recs if x["status"] != "ok"]
        right, wrong = score(truth, found)
        rows.append((f"codesweep --jobs {jobs}", pages, wall, rss, right, wrong, f"{len(errors)} errors"))

    r, wall, rss = timed([sys.executable, "-c", PEER] + files)
    if r.returncode != 0:
        rows.append(("pdftoppm -r 300 + zxing-cpp", 0, wall, rss, 0, 0, "failed: " + r.stderr.strip().splitlines()[-2][-120:]))
    else:
        out = json.loads(r.stdout)
        right, wrong = score(truth, out["found"])
        rows.append(("pdftoppm -r 300 + zxing-cpp 3.1 (1 job)", out["pages"], wall, rss, right, wrong, "SVG via rsvg-convert"))

    zb_right = zb_files = 0
    zb_err = ""
    start = time.time()
    for f in files:
        z = subprocess.run(["zbarimg", "-q", "--raw", f], capture_output=True, text=True)
        texts = [t for t in z.stdout.splitlines() if t]
        zb_right += len(set(texts) & set(truth[os.path.basename(f)]))
        zb_files += z.returncode == 0
        if z.returncode not in (0, 4) and not zb_err:
            zb_err = (z.stderr.strip().splitlines() or ["exit %d" % z.returncode])[0][:110]
    rows.append(("zbarimg (Debian 12)", 0, time.time() - start, 0, zb_right, 0, zb_err))

    print(f"{'reader':42} {'pages':>6} {'wall s':>7} {'pages/s':>8} {'peak RSS':>9} {'read':>9} {'wrong':>5}  note")
    for name, pages, wall, rss, right, wrong, note in rows:
        pps = f"{pages / wall:8.2f}" if pages else f"{'-':>8}"
        mem = f"{rss:6.0f} MiB" if rss else f"{'-':>9}"
        print(f"{name:42} {pages:>6} {wall:7.1f} {pps} {mem} {right:>4}/{total:<4} {wrong:>5}  {note}")
    print("peak RSS: the largest process of each run (GNU time %M); read: expected payloads found")


main()
