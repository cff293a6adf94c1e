#!/usr/bin/env python3
"""QR details (`make bench-qr-details`): does every QR code read carry its version, EC level, mask
and mirroring, and are they right? (issue 39, "carried over from the last round").

Generates (seeded, cached) one image per QR code: versions 1-40 x EC levels L, M, Q, H (160 codes)
made with segno (an encoder that is not ours and not qrencode), payloads of four kinds (digits,
upper-case alphanumerics, ASCII text/URLs, UTF-8 text) filling 45-95 % of the version's capacity
at that level, drawn at 4, 5 or 6 px a module with a 4-module quiet zone. About a quarter are
mirrored (flipped left-right: the reader must say mirrored=true), about 40 % rotated by 3-30
degrees, about a quarter slightly perspective-tilted, some a little blurred. The truth (payload,
version, EC level, segno's mask, mirrored) is in OUT/truth.json.

Then scans the set with codesweep at each effort (`scan -q --effort E --jobs J DIR`, default
symbologies, JSONL) and prints per effort: codes read / total, and of the codes read how many
have the right version, EC level, mask, mirroring and payload (a field that is absent counts as
not right), and lists every mismatch. zxing-cpp 3.1 reads the same images beside it (its version,
EC level and mask are in Barcode.extra; it does not report mirroring). Prints figures; asserts
nothing.

  python3 bench/qr_details.py [--bin .build/release/codesweep] [--efforts fast,normal] [--jobs 2]
                              [--seed 39] [--out bench-out/qr-details] [--no-peer]

Needs segno, numpy and Pillow (pip install segno numpy pillow); the peer zxing-cpp==3.1.* (pip).
"""
import argparse, json, math, os, random, string, sys, time

from codesweep_scan import scan_folder

GEN_VERSION = 1
LEVELS = "LMQH"
PEER = "zxing-cpp 3.1"
ALNUM = string.ascii_uppercase + string.digits + " $%*+-./:"
WORDS = ["barcode", "sweep", "label", "asset", "order", "parcel", "Zürich", "naïve", "café", "größe",
         "東京", "✓", "—", "€", "π", "data", "Kiste", "inventory", "São", "Ωmega"]


def capacity_chars(version, level, kind):
    """Characters of one mode that fit version/level (single segment): segno's bit capacity."""
    import segno.consts as c
    lvl = {"L": c.ERROR_LEVEL_L, "M": c.ERROR_LEVEL_M, "Q": c.ERROR_LEVEL_Q, "H": c.ERROR_LEVEL_H}[level]
    bits = c.SYMBOL_CAPACITY[version][lvl] - 4
    band = 0 if version < 10 else 1 if version < 27 else 2
    if kind == "numeric":
        bits -= (10, 12, 14)[band]
        return bits // 10 * 3 + (2 if bits % 10 >= 7 else 1 if bits % 10 >= 4 else 0)
    if kind == "alnum":
        bits -= (9, 11, 13)[band]
        return bits // 11 * 2 + (1 if bits % 11 >= 6 else 0)
    return (bits - (8, 16, 16)[band]) // 8


def payload(rng, version, level):
    kind = rng.choice(["numeric", "alnum", "ascii", "ascii", "utf8"])
    n = max(1, int(capacity_chars(version, level, "numeric" if kind == "numeric" else "alnum" if kind == "alnum" else "byte")
                   * rng.uniform(0.45, 0.95)))
    if kind == "numeric":
        return kind, "".join(rng.choice(string.digits) for _ in range(n))
    if kind == "alnum":
        return kind, "".join(rng.choice(ALNUM) for _ in range(n))
    if kind == "ascii":
        head = rng.choice(["https://example.com/", "https://shop.example.org/item?id=", "", "INV-", "WIFI:S:"])
        body = "".join(rng.choice(string.ascii_letters + string.digits + " -_/.,;:=&?!()") for _ in range(n))
        return kind, (head + body)[:n]
    text = ""  # UTF-8 bytes: a multi-byte word now and then, n bytes at most
    while True:
        w = rng.choice(WORDS) if rng.random() < 0.4 else "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 8)))
        if len((text + " " + w).encode()) > n:
            return kind, text or "x"
        text = (text + " " + w) if text else w


def make_code(segno, rng, version, level):
    kind, text = payload(rng, version, level)
    while True:
        try:
            return kind, text, segno.make_qr(text, version=version, error=level.lower(), boost_error=False)
        except segno.DataOverflowError:
            text = text[:max(1, int(len(text) * 0.9))]


def perspective_coeffs(src, dst):
    """Pillow's PERSPECTIVE data mapping output points dst to input points src."""
    import numpy as np
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return list(np.linalg.solve(np.array(a, float), np.array(b, float)))


def render(np, Image, ImageFilter, qr, rng, mirrored):
    px = rng.choice([4, 5, 6])
    m = np.pad(np.array(qr.matrix, dtype=np.uint8), 4)
    img = Image.fromarray(((1 - m) * 255).astype(np.uint8)).resize((m.shape[1] * px, m.shape[0] * px), Image.NEAREST)
    if mirrored:
        img = img.transpose(Image.FLIP_LEFT_RIGHT)
    how = [f"{px}px"] + (["mirrored"] if mirrored else [])
    margin = img.width // 5 + 20
    canvas = Image.new("L", (img.width + 2 * margin, img.height + 2 * margin), 255)
    canvas.paste(img, (margin, margin))
    img = canvas
    if rng.random() < 0.4:
        angle = rng.uniform(3, 30) * rng.choice([-1, 1])
        img = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
        how.append(f"rot{angle:+.0f}")
    if rng.random() < 0.25:
        w, h = img.size
        d = 0.045 * min(w, h)
        src = [(0, 0), (w, 0), (w, h), (0, h)]
        dst = [(x + rng.uniform(-d, d), y + rng.uniform(-d, d)) for x, y in src]
        img = img.transform((w, h), Image.PERSPECTIVE, perspective_coeffs(src, dst), Image.BICUBIC, fillcolor=255)
        how.append("tilt")
    if rng.random() < 0.2:
        img = img.filter(ImageFilter.GaussianBlur(0.6))
        how.append("blur")
    return img, " ".join(how)


def generate(out, seed):
    import numpy as np, segno
    from PIL import Image, ImageFilter
    truth_path = os.path.join(out, "truth.json")
    stamp = {"gen": GEN_VERSION, "seed": seed}
    if os.path.exists(truth_path):
        with open(truth_path) as f:
            t = json.load(f)
        if t.get("stamp") == stamp and all(os.path.exists(os.path.join(out, "images", n)) for n in t["codes"]):
            return t["codes"]
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    rng = random.Random(seed)
    codes = {}
    for version in range(1, 41):
        for level in LEVELS:
            kind, text, qr = make_code(segno, rng, version, level)
            assert qr.version == version and qr.error == level, (version, level, qr.designator)
            mirrored = rng.random() < 0.25
            img, how = render(np, Image, ImageFilter, qr, rng, mirrored)
            name = f"v{version:02d}-{level}.png"
            img.save(os.path.join(out, "images", name))
            codes[name] = {"text": text, "kind": kind, "version": version, "ec_level": level, "mask": qr.mask,
                           "mirrored": mirrored, "drawn": how}
    with open(truth_path, "w") as f:
        json.dump({"stamp": stamp, "codes": codes}, f, indent=1, ensure_ascii=False)
    return codes


def peer(folder, names):
    import zxingcpp
    from PIL import Image
    got = {}
    t = time.monotonic()
    for n in names:
        got[n] = []
        for b in zxingcpp.read_barcodes(Image.open(os.path.join(folder, n))):
            e = b.extra if isinstance(b.extra, dict) else {}
            got[n].append({"symbology": "qr" if "QR" in str(b.format) else str(b.format), "text": b.text,
                           "pass": "zxing-cpp", "details": {"version": int(e["Version"]) if "Version" in e else None,
                                                           "ec_level": b.ec_level or None, "mask": e.get("DataMask")}})
    return got, time.monotonic() - t


FIELDS = ["version", "ec_level", "mask", "mirrored"]


def score(label, truth, got, dt, fields=FIELDS):
    ok = {f: 0 for f in fields + ["payload", "all"]}
    read, extras, mismatches = 0, 0, []
    for name, want in sorted(truth.items()):
        codes = got.get(name, [])
        qrs = [c for c in codes if c.get("symbology") == "qr"]
        extras += len(codes) - min(1, len(qrs))
        if not qrs:
            mismatches.append(f"  {name:12} not read ({want['drawn']})")
            continue
        read += 1
        c, d = qrs[0], qrs[0].get("details") or {}
        bad = [f"{f}: {d.get(f)!r}, want {want[f]!r}" for f in fields if d.get(f) != want[f]]
        for f in fields:
            ok[f] += d.get(f) == want[f]
        right_text = c.get("text") == want["text"]
        ok["payload"] += right_text
        if not right_text:
            bad.append(f"payload {c.get('text')!r:.40}, want {want['text']!r:.40}")
        ok["all"] += not bad
        if bad:
            mismatches.append(f"  {name:12} pass {c.get('pass', '?')}, {want['drawn']}: " + "; ".join(bad))
    n = len(truth)
    cols = " ".join(f"{f} {ok[f]}" for f in fields + ["payload"])
    print(f"{label:24} read {read}/{n}  right: {cols}  all right {ok['all']}/{read}  extras {extras}  {dt:.1f} s")
    return mismatches


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="fast,normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--out", default="bench-out/qr-details")
    ap.add_argument("--no-peer", action="store_true")
    a = ap.parse_args()
    truth = generate(a.out, a.seed)
    folder = os.path.join(a.out, "images")
    kinds = {}
    for w in truth.values():
        for k in ["mirrored" if w["mirrored"] else "", "rotated" if "rot" in w["drawn"] else "", "tilted" if "tilt" in w["drawn"] else ""]:
            if k:
                kinds[k] = kinds.get(k, 0) + 1
    print(f"{len(truth)} QR codes (segno; versions 1-40 x L, M, Q, H; 4-6 px a module), seed {a.seed}: "
          + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())) + f"  ({folder})")
    report = []
    for effort in [e for e in a.efforts.split(",") if e]:
        got, dt = scan_folder(a.bin, effort, folder, a.jobs)
        mm = score(f"codesweep {effort}", truth, got, dt)
        report.append((f"codesweep {effort}", mm))
    if not a.no_peer:
        try:
            got, dt = peer(folder, sorted(truth))
            mm = score(f"{PEER} (1 process)", truth, got, dt, fields=["version", "ec_level", "mask"])
            report.append((f"{PEER} (no mirroring reported)", mm))
        except ImportError:
            print(f"{PEER}: not installed (pip install 'zxing-cpp==3.1.*')")
    for label, mm in report:
        print(f"\n{label}: {len(mm)} mismatches" + (":" if mm else ""))
        for line in mm:
            print(line)


if __name__ == "__main__":
    main()
