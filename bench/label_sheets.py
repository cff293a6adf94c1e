#!/usr/bin/env python3
"""Label sheets (issue 39): big images full of small codes, as a new user makes them.

Generates (seeded, cached in OUT) a few sheets and scans them with codesweep at each effort and
with plain zbarimg, in the same run, one sheet at a time, and prints per sheet and reader: codes
expected, read, false reads (a symbology and payload not on the sheet, or read more often than
it is there) and wall seconds. Prints figures; asserts nothing.

  a        20 x 20 QR codes of version 2 at 5 px a module, 4-module quiet zones (3,300 px square)
  b        10 x 30 labels, each a QR code (4 px modules), a Code 128 and an EAN-13 (2 px bars),
           8,200 x 4,500
  b-jpeg   sheet b as a JPEG (quality 85, 4:2:0)
  d        10 x 30 labels, each a QR code of version 1 (4 px modules), a Code 128 and an EAN-13
           (2 px bars), 7,400 x 4,500 clean PNG: 900 codes, more than zxing-cpp returns a read
           (255; issue 58)
  c        24 x 16 QR codes of versions 1-4 at every EC level, 3-4 px a module, other payloads
           (URLs, digits, mixed case), 4,800 x 3,600 PNG
  scan     a 300-dpi scanned A4 page (2,480 x 3,508): 4 x 12 asset tags (QR at 4 px, Code 128 at
           2 px), turned 0.6 degrees, blurred a little, grey paper, sensor noise, JPEG quality 90

  python3 bench/label_sheets.py [--bin .build/release/codesweep] [--efforts fast,normal,thorough]
                                [--sheets a,b,b-jpeg,c,d,scan] [--seed 39] [--out bench-out/label-sheets]
                                [--no-zbarimg] [--timeout 900]

Needs numpy and Pillow (pip install numpy pillow) and zint (the symbols' modules, `zint --dump`).
"""
import argparse, base64, json, os, random, subprocess, sys, time
from collections import Counter

GEN_VERSION = 1
ZBAR_NAMES = {"QR-Code": "qr", "CODE-128": "code128", "EAN-13": "ean13", "EAN-8": "ean8", "UPC-A": "upca",
              "UPC-E": "upce", "CODE-39": "code39", "CODE-93": "code93", "I2/5": "itf", "CODABAR": "codabar",
              "ISBN-13": "isbn13", "ISBN-10": "isbn10", "DataBar": "databar", "DataBar-Exp": "databar-exp"}


def dump(barcode, data, *extra):
    """The symbol's modules from `zint --dump`: rows of 0/1 lists (1 = dark)."""
    p = subprocess.run(["zint", "-b", str(barcode), "-d", data, "--dump", *extra], capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.strip():
        sys.exit(f"zint -b {barcode} -d {data!r} {extra} failed: {p.stderr}")
    rows = []
    for line in p.stdout.strip().split("\n"):
        bits = []
        for tok in line.split():
            n = 4 * len(tok)
            bits += [(int(tok, 16) >> (n - 1 - i)) & 1 for i in range(n)]
        rows.append(bits)
    return rows


def trim_linear(bits):
    """A linear symbol's bars: the dump pads the last byte with light modules."""
    while bits and bits[-1] == 0:
        bits = bits[:-1]
    return bits


def qr_modules(data, version, ec="M"):
    level = {"L": 1, "M": 2, "Q": 3, "H": 4}[ec]
    rows = dump(58, data, f"--vers={version}", f"--secure={level}")
    n = 17 + 4 * version
    return [r[:n] for r in rows[:n]]


def ean13_check(d12):
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d12))
    return d12 + str((10 - s % 10) % 10)


def draw_qr(np, canvas, x, y, rows, px):
    m = np.array(rows, dtype=bool)
    canvas[y:y + m.shape[0] * px, x:x + m.shape[1] * px][np.kron(m, np.ones((px, px), dtype=bool))] = 0


def draw_linear(np, canvas, x, y, bits, px, height):
    b = np.repeat(np.array(bits, dtype=bool), px)
    canvas[y:y + height, x:x + b.size][:, b] = 0
    return b.size


def sheet_a(np, rng):
    px, n, cell = 5, 20, 165
    img = np.full((n * cell, n * cell), 255, np.uint8)
    expected = []
    for i in range(n * n):
        text = f"SHEET-A {i:04d} {rng.randrange(10**6):06d}"
        rows = qr_modules(text, 2, "L")
        side = len(rows) * px
        draw_qr(np, img, (i % n) * cell + (cell - side) // 2, (i // n) * cell + (cell - side) // 2, rows, px)
        expected.append(("qr", text))
    return img, expected


def sheet_b(np, rng):
    cols, rows_, cw, ch = 10, 30, 820, 150
    img = np.full((rows_ * ch, cols * cw), 255, np.uint8)
    expected = []
    for i in range(cols * rows_):
        x0, y0 = (i % cols) * cw, (i // cols) * ch
        qr_text = f"https://example.com/asset/{i:05d}"
        rows = qr_modules(qr_text, 3, "M")
        draw_qr(np, img, x0 + 24, y0 + (ch - len(rows) * 4) // 2, rows, 4)
        c128 = f"LBL-{i:04d}-{rng.randrange(100):02d}"
        w = draw_linear(np, img, x0 + 24 + len(rows) * 4 + 40, y0 + 25, trim_linear(dump(20, c128)[0]), 2, 100)
        ean = ean13_check(f"{rng.choice('123456'):s}{rng.randrange(10**11):011d}")
        draw_linear(np, img, x0 + 24 + len(rows) * 4 + 40 + w + 40, y0 + 25, trim_linear(dump(13, ean[:12])[0]), 2, 100)
        expected += [("qr", qr_text), ("code128", c128), ("ean13", ean)]
    return img, expected


def sheet_d(np, rng):
    cols, rows_, cw, ch = 10, 30, 740, 150
    img = np.full((rows_ * ch, cols * cw), 255, np.uint8)
    expected = []
    for i in range(cols * rows_):
        x0, y0 = (i % cols) * cw, (i // cols) * ch
        qr_text = f"HTTPS://EX.AM/L{i:03d}"
        rows = qr_modules(qr_text, 1, "L")
        draw_qr(np, img, x0 + 24, y0 + (ch - len(rows) * 4) // 2, rows, 4)
        c128 = f"L{i:03d}-{rng.randrange(100):02d}"
        w = draw_linear(np, img, x0 + 150, y0 + 25, trim_linear(dump(20, c128)[0]), 2, 100)
        ean = ean13_check(f"{rng.choice('123456'):s}{rng.randrange(10**11):011d}")
        draw_linear(np, img, x0 + 150 + w + 40, y0 + 25, trim_linear(dump(13, ean[:12])[0]), 2, 100)
        expected += [("qr", qr_text), ("code128", c128), ("ean13", ean)]
    return img, expected


def sheet_c(np, rng):
    cols, rows_, cw, ch = 24, 16, 200, 225
    img = np.full((rows_ * ch, cols * cw), 255, np.uint8)
    expected = []
    alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    for i in range(cols * rows_):
        version, ec = 1 + i % 4, "LMQH"[(i // 4) % 4]
        kind = i % 3
        if kind == 0:
            text = "".join(rng.choice("0123456789") for _ in range(8 + version * 3))
        elif kind == 1:
            text = f"http://x.io/{''.join(rng.choice(alphabet) for _ in range(2 + version))}"
        else:
            text = "".join(rng.choice(alphabet) for _ in range(3 + version * 2))
        try:
            rows = qr_modules(text, version, ec)
        except SystemExit:
            text = text[: max(3, len(text) // 2)]
            rows = qr_modules(text, version, ec)
        if len(rows) != 17 + 4 * version:  # zint chose a bigger version: keep what it made
            pass
        px = 3 + (i // 7) % 2
        side = len(rows) * px
        draw_qr(np, img, (i % cols) * cw + (cw - side) // 2, (i // cols) * ch + (ch - side) // 2, rows, px)
        expected.append(("qr", text))
    return img, expected


def sheet_scan(np, rng, Image, ImageFilter):
    W, H = 2480, 3508
    img = np.full((H, W), 255, np.uint8)
    expected = []
    cols, rows_, cw, ch = 4, 12, 560, 270
    for i in range(cols * rows_):
        x0, y0 = 120 + (i % cols) * cw, 150 + (i // cols) * ch
        tag = f"AT-{rng.randrange(10**6):06d}"
        rows = qr_modules(f"ASSET {tag}", 2, "Q")
        draw_qr(np, img, x0 + 20, y0 + 20, rows, 4)
        draw_linear(np, img, x0 + 160, y0 + 40, trim_linear(dump(20, tag)[0]), 2, 90)
        expected += [("qr", f"ASSET {tag}"), ("code128", tag)]
    im = Image.fromarray(img).rotate(0.6, resample=Image.BICUBIC, fillcolor=255).filter(ImageFilter.GaussianBlur(0.7))
    a = np.asarray(im).astype(np.float32) * (225 / 255) + 18
    a += np.random.default_rng(rng.randrange(2**32)).normal(0, 4, a.shape)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)), expected


def generate(out, seed, names):
    import numpy as np
    from PIL import Image, ImageFilter
    os.makedirs(out, exist_ok=True)
    mf = os.path.join(out, "manifest.json")
    manifest = json.load(open(mf)) if os.path.exists(mf) else {}
    if manifest.get("version") != GEN_VERSION or manifest.get("seed") != seed:
        manifest = {"version": GEN_VERSION, "seed": seed, "sheets": {}}
    for name in names:
        if name in manifest["sheets"] and os.path.exists(os.path.join(out, manifest["sheets"][name]["file"])):
            continue
        rng = random.Random(f"{seed}-{name.split('-')[0]}")
        t = time.monotonic()
        if name in ("b", "b-jpeg"):
            img, expected = sheet_b(np, rng)
            im = Image.fromarray(img)
        elif name == "a":
            img, expected = sheet_a(np, rng)
            im = Image.fromarray(img)
        elif name == "d":
            img, expected = sheet_d(np, rng)
            im = Image.fromarray(img)
        elif name == "c":
            img, expected = sheet_c(np, rng)
            im = Image.fromarray(img)
        elif name == "scan":
            im, expected = sheet_scan(np, rng, Image, ImageFilter)
        else:
            sys.exit(f"unknown sheet {name}")
        jpeg = name in ("b-jpeg", "scan")
        file = f"sheet-{name}.{'jpg' if jpeg else 'png'}"
        if jpeg:
            im.convert("RGB").save(os.path.join(out, file), quality=90 if name == "scan" else 85)
        else:
            im.save(os.path.join(out, file))
        manifest["sheets"][name] = {"file": file, "size": list(im.size), "expected": expected}
        print(f"made {file} ({im.size[0]}x{im.size[1]}, {len(expected)} codes) in {time.monotonic() - t:.1f} s", file=sys.stderr)
        json.dump(manifest, open(mf, "w"))
    return manifest


def score(expected, got):
    exp, seen = Counter(expected), Counter(got)
    read = sum(min(n, seen[k]) for k, n in exp.items())
    false = sum(max(0, n - exp[k]) for k, n in seen.items())
    return read, false


def codesweep(binary, effort, path, timeout):
    t = time.monotonic()
    p = subprocess.run([binary, "scan", "-q", "--effort", effort, "--jobs", "1", "--timeout", str(timeout), path], capture_output=True)
    dt = time.monotonic() - t
    got, warnings = [], []
    for line in p.stdout.decode().split("\n"):
        if not line.strip():
            continue
        r = json.loads(line)
        warnings += r.get("warnings", [])
        if r.get("error"):
            warnings.append(f"error: {r['error']}")
        got += [(c["symbology"], base64.b64decode(c.get("bytes_b64", "")).decode("utf-8", "replace")) for c in r.get("codes", [])]
    if p.returncode not in (0, 1):
        sys.exit(f"codesweep --effort {effort} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    return got, dt, warnings


def zbarimg(path):
    t = time.monotonic()
    p2 = subprocess.run(["zbarimg", "-q", "-Sean2.disable", "-Sean5.disable", path], capture_output=True)
    dt = time.monotonic() - t
    got = []
    for line in p2.stdout.decode("utf-8", "replace").split("\n"):
        if ":" in line:
            k, v = line.split(":", 1)
            got.append((ZBAR_NAMES.get(k, k), v))
    return got, dt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="fast,normal,thorough")
    ap.add_argument("--sheets", default="a,b,b-jpeg,c,d,scan")
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--out", default="bench-out/label-sheets")
    ap.add_argument("--no-zbarimg", action="store_true")
    ap.add_argument("--timeout", type=float, default=900, help="codesweep's --timeout per sheet (thorough takes minutes)")
    a = ap.parse_args()
    names = a.sheets.split(",")
    manifest = generate(a.out, a.seed, names)
    print(f"{'sheet':<8} {'size':>11} {'reader':<18} {'expected':>8} {'read':>5} {'false':>5} {'wall s':>7}")
    for name in names:
        s = manifest["sheets"][name]
        path = os.path.join(a.out, s["file"])
        expected = [tuple(e) for e in s["expected"]]
        size = f"{s['size'][0]}x{s['size'][1]}"
        rows = []
        for effort in a.efforts.split(","):
            got, dt, warnings = codesweep(a.bin, effort, path, a.timeout)
            read, false = score(expected, got)
            note = f"  warnings: {'; '.join(warnings)[:160]}" if warnings else ""
            rows.append((f"codesweep {effort}", read, false, dt, note))
        if not a.no_zbarimg:
            got, dt = zbarimg(path)
            read, false = score(expected, got)
            rows.append(("zbarimg", read, false, dt, ""))
        for reader, read, false, dt, note in rows:
            print(f"{name:<8} {size:>11} {reader:<18} {len(expected):>8} {read:>5} {false:>5} {dt:>7.2f}{note}", flush=True)


if __name__ == "__main__":
    main()
