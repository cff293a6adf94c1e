#!/usr/bin/env python3
"""EAN/UPC on 12 MP product photos (`make bench-ean-photos`): no checksum-valid but wrong read
(issue 39, "carried over from the last round").

Generates (seeded, cached) 4,000 x 3,000 JPEGs (quality 80-90, 4:2:0) that look like product
photos: a background cut from a real photo of the BoofCV corpus (its QR codes painted over with a
blur of themselves; synthetic gradients and shapes when the corpus is not there), with printed
text, shapes and bar-like stripe patches laid over it, and on most images one EAN-13, EAN-8, UPC-A
or UPC-E symbol (made with zint, human-readable digits included) printed on a label of white or a
light tint, bars black or a dark colour, some small (bars 1.5-3 px a module), some large (3.5-9
px), turned, tilted in perspective, under a lighting gradient, blurred, with sensor noise. The
rest are negatives (the same without a code). The truth (symbology and digits per image) is in
OUT/truth.json.

Then scans the set with codesweep at each effort (`scan -q --effort E --jobs J DIR`, default
symbologies) and zxing-cpp 3.1 beside (all formats) and prints per reader: codes read right,
missed, WRONG reads (an EAN/UPC read whose digits are not on the image: checksum-valid but wrong),
other reads (other symbologies: false reads too) and codes read twice (one symbol reported at two
places), each listed. UPC-A read as EAN-13 with a leading 0 (and UPC-E expanded) count as right. Prints figures;
asserts nothing.

  python3 bench/ean_photos.py [--bin .build/release/codesweep] [--efforts fast,normal,thorough]
                              [--jobs 2] [--count 50] [--negatives 10] [--seed 39]
                              [--out bench-out/ean-photos] [--backgrounds ../shared/corpus/boofcv-dev]
                              [--no-peer] [--list-missed]

Needs numpy and Pillow (pip install numpy pillow) and zint; the peer zxing-cpp==3.1.* (pip).
"""
import argparse, glob, json, math, os, random, re, subprocess, sys, time
from collections import Counter

from codesweep_scan import scan_folder

GEN_VERSION = 1
PEER = "zxing-cpp 3.1"
EAN_FAMILY = {"ean13", "ean8", "upca", "upce", "isbn13", "isbn10"}
ZINT = {"ean13": ("13", 12), "ean8": ("13", 7), "upca": ("34", 11), "upce": ("37", 7)}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
W, H = 4000, 3000


def check_digit(body):
    s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(body)))
    return str((10 - s % 10) % 10)


def upce_to_upca(d):
    """8-digit UPC-E (number system, 6 digits, check) to its 12-digit UPC-A."""
    ns, x, chk = d[0], d[1:7], d[7]
    last = x[5]
    if last in "012":
        body = x[0:2] + last + "0000" + x[2:5]
    elif last == "3":
        body = x[0:3] + "00000" + x[3:5]
    elif last == "4":
        body = x[0:4] + "00000" + x[4]
    else:
        body = x[0:5] + "0000" + last
    return ns + body + chk


def canonical(symbology, digits):
    """One key per GTIN: UPC-A as EAN-13 with a leading 0, UPC-E expanded first; EAN-8 apart."""
    d = re.sub(r"\D", "", digits or "")
    if symbology in ("upca", "upce") and len(d) == 13 and d[0] == "0":
        d = d[1:]  # zxing-cpp gives UPC codes as GTIN-13
    if symbology == "upce" and len(d) == 8:
        d = upce_to_upca(d)
    if symbology in ("upca", "upce") and len(d) == 12:
        return "gtin:0" + d
    if symbology in ("ean13", "isbn13") and len(d) == 13:
        return "gtin:" + d
    if symbology == "ean8":
        return "ean8:" + d
    return f"{symbology}:{digits}"


def make_digits(rng, kind):
    if kind == "upce":
        # Number system 0 and six digits whose expansion is a valid UPC-A: zint adds the check.
        six = "".join(rng.choice("0123456789") for _ in range(6))
        body7 = "0" + six
        full = upce_to_upca(body7 + "0")[:11]
        return body7, body7 + check_digit(full)
    n = ZINT[kind][1]
    body = "".join(rng.choice("0123456789") for _ in range(n))
    if kind == "ean13" and body[0] == "0":
        body = str(rng.randint(1, 9)) + body[1:]  # a leading 0 would be a UPC-A
    return body, body + check_digit(body)


def zint_symbol(Image, kind, body, tmp):
    p = subprocess.run(["zint", "-b", ZINT[kind][0], "-d", body, "--scale=5", "-o", tmp], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"zint {kind} {body}: {p.stderr}")
    return Image.open(tmp).convert("L")  # 10 px a module


def cover_codes(Image, ImageDraw, ImageFilter, img, txt):
    """Paints the corpus photo's own codes (hand-marked corners) over with a heavy blur of the photo."""
    if not os.path.exists(txt):
        return img
    lines = [l.split() for l in open(txt) if l.strip() and not l.startswith("#") and l.strip() != "SETS"]
    nums = [[float(v) for v in l] for l in lines]
    polys = [list(zip(l[0::2], l[1::2])) for l in nums if len(l) >= 8]
    flat = [tuple(l[:2]) for l in nums if len(l) == 2]
    polys += [flat[i:i + 4] for i in range(0, len(flat) - 3, 4)]
    if not polys:
        return img
    mask = Image.new("L", img.size, 0)
    draw = ImageDraw.Draw(mask)
    for poly in polys:
        cx, cy = sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)
        draw.polygon([(cx + 1.35 * (x - cx), cy + 1.35 * (y - cy)) for x, y in poly], fill=255)
    return Image.composite(img.filter(ImageFilter.GaussianBlur(max(img.size) / 60)), img, mask)


def background(np, Image, ImageDraw, ImageFilter, rng, photos):
    if photos and rng.random() < 0.8:
        path = rng.choice(photos)
        img = cover_codes(Image, ImageDraw, ImageFilter, Image.open(path).convert("RGB"), path[:-4] + ".txt")
        if img.height > img.width:
            img = img.transpose(Image.ROTATE_90)
        f = rng.uniform(0.5, 1.0)
        cw, ch = int(img.width * f), int(img.width * f * 3 / 4)
        ch = min(ch, img.height)
        cw = int(ch * 4 / 3)
        x, y = rng.randint(0, img.width - cw), rng.randint(0, img.height - ch)
        return img.crop((x, y, x + cw, y + ch)).resize((W, H), Image.BICUBIC), os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
    c0, c1 = np.array([rng.randint(40, 230) for _ in range(3)]), np.array([rng.randint(40, 230) for _ in range(3)])
    t = np.linspace(0, 1, W)[None, :, None] * np.ones((H, 1, 1))
    arr = (c0 * (1 - t) + c1 * t).astype(np.uint8)
    img = Image.fromarray(arr, "RGB")
    d = ImageDraw.Draw(img)
    for _ in range(rng.randint(5, 15)):
        x, y, s = rng.randint(0, W), rng.randint(0, H), rng.randint(100, 1200)
        col = tuple(rng.randint(0, 255) for _ in range(3))
        (d.ellipse if rng.random() < 0.5 else d.rectangle)([x, y, x + s, y + s * rng.uniform(0.3, 1.5)], fill=col)
    return img.filter(ImageFilter.GaussianBlur(8)), "synthetic"


def distractors(Image, ImageDraw, ImageFont, rng, img):
    """Printed text, digits, shapes and bar-like stripes: what packaging has besides its code."""
    d = ImageDraw.Draw(img)
    for _ in range(rng.randint(3, 12)):
        size = rng.randint(30, 160)
        font = ImageFont.truetype(FONT, size)
        text = rng.choice(["NET WT 500 g", "Best before 2027-03-14", "Ingredients: wheat flour, sugar, salt",
                           "LOT 4471 0925", "www.example.com", "100% recycled", "Made in EU", "0 123456 789012",
                           "SALE -30%", "Keep refrigerated", "5 901234 123457", "Nutrition facts per 100 g"])
        col = tuple(rng.randint(0, 90) for _ in range(3)) if rng.random() < 0.7 else tuple(rng.randint(160, 255) for _ in range(3))
        d.text((rng.randint(-200, W - 200), rng.randint(0, H - size)), text, fill=col, font=font)
    for _ in range(rng.randint(0, 4)):  # stripe patches: bars that are no code
        x, y = rng.randint(0, W - 600), rng.randint(0, H - 400)
        w, h = rng.randint(150, 900), rng.randint(60, 500)
        dark, light = tuple(rng.randint(0, 80) for _ in range(3)), tuple(rng.randint(180, 255) for _ in range(3))
        d.rectangle([x, y, x + w, y + h], fill=light)
        pos = x + rng.randint(5, 30)
        while pos < x + w - 5:
            bw = rng.choice([1, 2, 3, 4, 6, 8]) * rng.uniform(1, 3)
            d.rectangle([pos, y + 5, pos + bw, y + h - 5], fill=dark)
            pos += bw + rng.choice([1, 2, 3, 4, 6]) * rng.uniform(1, 3)
    for _ in range(rng.randint(0, 6)):
        x, y, s = rng.randint(0, W), rng.randint(0, H), rng.randint(20, 400)
        d.line([x, y, x + rng.randint(-s, s), y + rng.randint(-s, s)], fill=tuple(rng.randint(0, 255) for _ in range(3)), width=rng.randint(1, 12))


def label(np, Image, rng, sym, module):
    """The symbol on its label, scaled to `module` px a module, as an RGB image and a mask."""
    pad = 60 + rng.randint(0, 80)
    sw, sh = sym.size
    paper = tuple(255 - rng.randint(0, 30) for _ in range(3)) if rng.random() < 0.7 else (
        rng.randint(200, 255), rng.randint(200, 255), rng.randint(170, 255))
    ink = (rng.randint(0, 40),) * 3 if rng.random() < 0.7 else (rng.randint(0, 60), rng.randint(0, 60), rng.randint(40, 110))
    a = np.array(sym, dtype=np.float32)[:, :, None] / 255.0
    rgb = (np.array(ink) * (1 - a) + np.array(paper) * a).astype(np.uint8)
    lab = Image.new("RGB", (sw + 2 * pad, sh + 2 * pad), paper)
    lab.paste(Image.fromarray(rgb, "RGB"), (pad, pad))
    f = module / 10.0
    size = (max(1, round(lab.width * f)), max(1, round(lab.height * f)))
    return lab.resize(size, Image.LANCZOS)


def perspective_coeffs(np, src, dst):
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return list(np.linalg.solve(np.array(a, float), np.array(b, float)))


def place(np, Image, rng, img, lab):
    angle = rng.choice([rng.uniform(-12, 12)] * 3 + [rng.uniform(-180, 180), 90 + rng.uniform(-8, 8)])
    mask = Image.new("L", lab.size, 255)
    lab, mask = lab.rotate(angle, Image.BICUBIC, expand=True), mask.rotate(angle, Image.BICUBIC, expand=True)
    w, h = lab.size
    if rng.random() < 0.5:  # a tilt: the label seen at an angle
        d = 0.12 * min(w, h)
        src = [(0, 0), (w, 0), (w, h), (0, h)]
        dst = [(x + rng.uniform(-d, d), y + rng.uniform(-d, d)) for x, y in src]
        c = perspective_coeffs(np, src, dst)
        lab, mask = lab.transform((w, h), Image.PERSPECTIVE, c, Image.BICUBIC), mask.transform((w, h), Image.PERSPECTIVE, c, Image.BICUBIC)
    if w >= W or h >= H:
        f = min((W - 10) / w, (H - 10) / h)
        lab, mask = lab.resize((int(w * f), int(h * f)), Image.LANCZOS), mask.resize((int(w * f), int(h * f)), Image.LANCZOS)
    img.paste(lab, (rng.randint(0, W - lab.width), rng.randint(0, H - lab.height)), mask)
    return angle


def finish(np, Image, ImageFilter, rng, img):
    arr = np.asarray(img, dtype=np.float32)
    gx = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.15), W)[None, :, None]
    gy = np.linspace(rng.uniform(0.7, 1.1), rng.uniform(0.7, 1.1), H)[:, None, None]
    arr = arr * gx * gy
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")
    blur = rng.choice([0, 0.6, 1.0, 1.4, 2.0])
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    arr = np.asarray(img, dtype=np.float32)
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    arr = arr + nrng.normal(0, rng.uniform(2, 7), size=(H, W, 1)).astype(np.float32)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB"), blur


def generate(out, seed, count, negatives, bg_dir):
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    truth_path = os.path.join(out, "truth.json")
    photos = sorted(glob.glob(os.path.join(bg_dir, "*", "*.jpg"))) if bg_dir and os.path.isdir(bg_dir) else []
    stamp = {"gen": GEN_VERSION, "seed": seed, "count": count, "negatives": negatives, "photos": len(photos)}
    if os.path.exists(truth_path):
        with open(truth_path) as f:
            t = json.load(f)
        if t.get("stamp") == stamp and all(os.path.exists(os.path.join(out, "images", n)) for n in t["images"]):
            return t["images"]
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    rng = random.Random(seed)
    images = {}
    tmp = os.path.join(out, "symbol.png")
    kinds = ["ean13", "ean8", "upca", "upce"]
    for i in range(count):
        negative = i >= count - negatives
        img, bg = background(np, Image, ImageDraw, ImageFilter, rng, photos)
        distractors(Image, ImageDraw, ImageFont, rng, img)
        entry = {"background": bg, "codes": []}
        if not negative:
            kind = kinds[i % 4]
            small = i % 8 < 4
            module = round(rng.uniform(1.5, 3.0) if small else rng.uniform(3.5, 9.0), 2)
            body, digits = make_digits(rng, kind)
            lab = label(np, Image, rng, zint_symbol(Image, kind, body, tmp), module)
            angle = place(np, Image, rng, img, lab)
            entry["codes"].append({"symbology": kind, "digits": digits})
            entry["drawn"] = f"{module} px/module, turned {angle:.0f}"
        img, blur = finish(np, Image, ImageFilter, rng, img)
        q = rng.randint(80, 90)
        entry["drawn"] = (entry.get("drawn", "negative") + f", blur {blur}, q{q}")
        name = f"photo-{i:03d}.jpg"
        img.save(os.path.join(out, "images", name), quality=q, subsampling=2)
        images[name] = entry
        print(f"\rgenerated {i + 1}/{count}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if os.path.exists(tmp):
        os.remove(tmp)
    with open(truth_path, "w") as f:
        json.dump({"stamp": stamp, "images": images}, f, indent=1)
    return images


PEER_NAMES = {"EAN13": "ean13", "EAN8": "ean8", "UPCA": "upca", "UPCE": "upce", "QRCode": "qr", "Code128": "code128"}


def peer(folder, names):
    import zxingcpp
    from PIL import Image
    got, t = {}, time.monotonic()
    for n in names:
        bs = zxingcpp.read_barcodes(Image.open(os.path.join(folder, n)))
        got[n] = [(PEER_NAMES.get(b.format.name, b.format.name), b.text, "zxing-cpp") for b in bs]
    return got, time.monotonic() - t


def score(label, truth, got, dt, list_missed=False):
    right = missed = wrong = other = dups = 0
    lines = []
    for name, want in sorted(truth.items()):
        expect = Counter(canonical(c["symbology"], c["digits"]) for c in want["codes"])
        seen = set(expect)
        for sym, text, how in got.get(name, []):
            key = canonical(sym, text)
            if expect[key] > 0:
                expect[key] -= 1
                right += 1
            elif key in seen:
                dups += 1
                lines.append(f"  again {name} ({want['drawn']}): {sym} {text!r} pass {how} (read twice)")
            elif sym in EAN_FAMILY:
                wrong += 1
                lines.append(f"  WRONG {name} ({want['drawn']}): {sym} {text!r} pass {how}; truth "
                             + (", ".join(f"{c['symbology']} {c['digits']}" for c in want["codes"]) or "none"))
            else:
                other += 1
                lines.append(f"  other {name} ({want['drawn']}): {sym} {text[:40]!r} pass {how}")
        for key, n in expect.items():
            missed += n
            if n and list_missed:
                lines.append(f"  missed {name} ({want['drawn']}): {key}")
    total = sum(len(w["codes"]) for w in truth.values())
    print(f"{label:26} right {right}/{total}  missed {missed}  WRONG {wrong}  other {other}  twice {dups}  {dt:.1f} s")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="fast,normal,thorough")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--negatives", type=int, default=10)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--out", default="bench-out/ean-photos")
    ap.add_argument("--backgrounds", default="../shared/corpus/boofcv-dev")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--list-missed", action="store_true", help="list the codes each reader missed too")
    a = ap.parse_args()
    truth = generate(a.out, a.seed, a.count, a.negatives, a.backgrounds)
    folder = os.path.join(a.out, "images")
    kinds = Counter(c["symbology"] for w in truth.values() for c in w["codes"])
    print(f"{len(truth)} photos 4000 x 3000 (seed {a.seed}): " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
          + f", {sum(1 for w in truth.values() if not w['codes'])} negatives  ({folder})")
    report = []
    for effort in [e for e in a.efforts.split(",") if e]:
        codes, dt = scan_folder(a.bin, effort, folder, a.jobs)
        got = {n: [(c["symbology"], c.get("text", ""), c.get("pass", "?")) for c in cs] for n, cs in codes.items()}
        report.append((f"codesweep {effort}", score(f"codesweep {effort}", truth, got, dt, a.list_missed)))
    if not a.no_peer:
        try:
            got, dt = peer(folder, sorted(truth))
            report.append((PEER, score(f"{PEER} (1 process)", truth, got, dt, a.list_missed)))
        except ImportError:
            print(f"{PEER}: not installed (pip install 'zxing-cpp==3.1.*')")
    for label_, lines in report:
        if lines:
            print(f"\n{label_}:")
            for line in lines:
                print(line)


if __name__ == "__main__":
    main()
