#!/usr/bin/env python3
"""Fake QR codes (`make bench-fake-qr`): every code read in this set is a false read.

Generates (seeded, cached) COUNT images of fake QR codes: the function patterns of a real symbol
of version 1-40 at their places (finders with separators, timing patterns, alignment patterns
from version 2, the dark module), random data modules and random format information (in a third
of the codes a valid format word, and valid version information from version 7, so a decoder
gets as far as the codewords; elsewhere random bits there too). Module sizes 2-10 px (a code is
kept within 1,600 px), quiet zones of 2-4 modules; flat, rotated or perspective-warped; one to four
codes an image on light, uneven, noisy backgrounds, some blurred or tinted; PNG and JPEG.
Then scans them with codesweep at each effort (`scan -q --effort E --jobs J DIR`) and with
zxing-cpp 3.1 (all formats, J processes) and prints the reads, QR and other symbologies apart.
Prints figures; asserts nothing.

  python3 bench/fake_qr.py [--bin .build/release/codesweep] [--efforts fast,normal] [--jobs 2]
                           [--count 200] [--seed 26] [--out bench-out/fake-qr] [--no-peer]
                           [--control N] [--self-check]

Needs numpy and Pillow (pip install numpy pillow); the peer zxing-cpp==3.1.* (pip). Images go to
OUT/images with OUT/manifest.json (what each image holds); nothing is redrawn while the manifest
has the same generator version, seed and count. --self-check compares the function patterns and
the format and version words with qrencode's symbols of every version (when qrencode is there).
--control N draws the first N images again, the same way, with real symbols (qrencode) where the
fake ones were, and prints how many of them each reader reads: the drawing makes readable codes.
"""
import argparse, io, json, math, os, random, resource, shutil, subprocess, sys, time
from collections import Counter

GEN_VERSION = 1
IMAGE_EXT = (".png", ".jpg")
PEER = "zxing-cpp 3.1"
CONTROL_TEXT = "FQC "  # with "i-j": at most 9 alphanumeric characters, what version 1 holds at level H

# Alignment pattern centres per version 2-40 (ISO/IEC 18004 Annex E).
ALIGN = [
    [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78],
    [6, 30, 56, 82], [6, 30, 58, 86], [6, 34, 62, 90], [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102],
    [6, 28, 54, 80, 106], [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118], [6, 26, 50, 74, 98, 122],
    [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130], [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138],
    [6, 30, 58, 86, 114, 142], [6, 34, 62, 90, 118, 146], [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154],
    [6, 28, 54, 80, 106, 132, 158], [6, 32, 58, 84, 110, 136, 162], [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
]


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# --- the symbol ------------------------------------------------------------------------------

def format_word(ec_bits, mask):
    """The 15-bit format information (BCH(15,5), XOR 0x5412) of EC level bits and a mask."""
    data = ec_bits << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return (data << 10 | rem) ^ 0x5412


def version_word(v):
    """The 18-bit version information (BCH(18,6)) of version v >= 7."""
    rem = v
    for _ in range(12):
        rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
    return v << 12 | rem


def format_cells(n):
    """(row, col) of format bit i, first and second copy."""
    a = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i) for i in range(9, 15)]
    b = [(8, n - 1 - i) for i in range(8)] + [(n - 15 + i, 8) for i in range(8, 15)]
    return a, b


def version_cells(n):
    """(row, col) of version bit i, the block above the bottom-left finder and the one left of the top-right."""
    return [(n - 11 + i % 3, i // 3) for i in range(18)], [(i // 3, n - 11 + i % 3) for i in range(18)]


def function_patterns(v):
    """(dark, fixed): the function modules of version v; fixed marks finders with separators,
    timing, alignment and the dark module (format and version areas are left to the caller)."""
    import numpy as np
    n = 17 + 4 * v
    dark = np.zeros((n, n), bool)
    fixed = np.zeros((n, n), bool)
    for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):
        for dr in range(-1, 8):
            for dc in range(-1, 8):
                r, c = r0 + dr, c0 + dc
                if 0 <= r < n and 0 <= c < n:
                    ring = max(abs(dr - 3), abs(dc - 3))
                    fixed[r, c] = True
                    dark[r, c] = ring in (0, 1, 3)
    for i in range(8, n - 8):
        fixed[6, i] = fixed[i, 6] = True
        dark[6, i] = dark[i, 6] = i % 2 == 0
    if v >= 2:
        cs = ALIGN[v - 2]
        for r in cs:
            for c in cs:
                if (r, c) in ((6, 6), (6, cs[-1]), (cs[-1], 6)):
                    continue
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        fixed[r + dr, c + dc] = True
                        dark[r + dr, c + dc] = max(abs(dr), abs(dc)) != 1
    fixed[n - 8, 8] = dark[n - 8, 8] = True
    return dark, fixed


def fake_symbol(v, rng, nrng, valid_info, real_text=None):
    """A version-v matrix (True = dark): real function patterns, random everything else; with
    valid_info a valid format word (random EC level and mask) and, from version 7, version word.
    With real_text, a real symbol of that text (qrencode) after the same random draws, so the
    rest of the image is drawn as for the fake one (the control)."""
    import numpy as np
    dark, fixed = function_patterns(v)
    n = dark.shape[0]
    m = nrng.random((n, n)) < 0.5
    m[fixed] = dark[fixed]
    ec = rng.randrange(4) if valid_info else 0
    fw = format_word(ec, rng.randrange(8)) if valid_info else rng.getrandbits(15)
    if real_text is not None:
        if v >= 7 and not valid_info:
            rng.getrandbits(18)
        level = {1: "L", 0: "M", 3: "Q", 2: "H"}[ec]
        png = subprocess.run(["qrencode", "-v", str(v), "-l", level, "-s", "1", "-m", "0", "-o", "-", "--", real_text],
                             check=True, capture_output=True).stdout
        from PIL import Image
        q = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA").convert("L")) < 128
        assert q.shape == m.shape, f"qrencode made a larger symbol than version {v}"
        return q
    for cells in format_cells(n):
        for i, (r, c) in enumerate(cells):
            m[r, c] = bool(fw >> i & 1)
    if v >= 7:
        vw = version_word(v) if valid_info else rng.getrandbits(18)
        for cells in version_cells(n):
            for i, (r, c) in enumerate(cells):
                m[r, c] = bool(vw >> i & 1)
    return m


def self_check():
    """The function patterns, format and version words against qrencode's symbols of versions 1-40."""
    import numpy as np
    from PIL import Image
    if not shutil.which("qrencode"):
        print("fake_qr: --self-check needs qrencode", file=sys.stderr)
        return False
    valid_formats = {format_word(e, k) for e in range(4) for k in range(8)}
    ok = True
    for v in range(1, 41):
        png = subprocess.run(["qrencode", "-v", str(v), "-s", "1", "-m", "0", "-o", "-", "--", "fake-qr"],
                             check=True, capture_output=True).stdout
        q = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA").convert("L")) < 128
        dark, fixed = function_patterns(v)
        n = dark.shape[0]
        bad = q.shape != dark.shape or bool((q[fixed] != dark[fixed]).any())
        words = [sum(int(q[r, c]) << i for i, (r, c) in enumerate(cells)) for cells in format_cells(n)] if not bad else []
        bad = bad or words[0] != words[1] or words[0] not in valid_formats
        if v >= 7 and not bad:
            bad = any(sum(int(q[r, c]) << i for i, (r, c) in enumerate(cells)) != version_word(v) for cells in version_cells(n))
        if bad:
            print(f"fake_qr: version {v}: function patterns differ from qrencode's", file=sys.stderr)
            ok = False
    print("fake_qr: self-check: versions 1-40 " + ("match qrencode" if ok else "DIFFER"), file=sys.stderr)
    return ok


# --- the images ------------------------------------------------------------------------------

def perspective_coeffs(dst, src):
    """Pillow's PERSPECTIVE coefficients taking output points dst to input points src."""
    import numpy as np
    a, b = [], []
    for (x, y), (u, w) in zip(dst, src):
        a += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -w * x, -w * y]]
        b += [u, w]
    return np.linalg.solve(np.array(a, float), np.array(b, float)).tolist()


def render_code(rng, nrng, v, module, kind, valid_info, real_text=None):
    """(grey image, mask, corners of the symbol in the image): one fake code drawn and transformed."""
    import numpy as np
    from PIL import Image
    m = fake_symbol(v, rng, nrng, valid_info, real_text)
    n = m.shape[0]
    quiet = rng.randint(2, 4)
    inkv, paper = rng.randint(10, 90), rng.randint(200, 250)
    g = np.full((n + 2 * quiet, n + 2 * quiet), paper, np.uint8)
    g[quiet:quiet + n, quiet:quiet + n][m] = inkv
    g = np.kron(g, np.ones((module, module), np.uint8))
    img = Image.fromarray(g, "L")
    side = g.shape[0]
    q0, q1 = quiet * module, (quiet + n) * module
    corners = [(q0, q0), (q1, q0), (q1, q1), (q0, q1)]
    mask = Image.new("L", img.size, 255)
    if kind == "rotated":
        angle = rng.uniform(3, 357)
        img = img.rotate(angle, Image.BILINEAR, expand=True, fillcolor=paper)
        mask = mask.rotate(angle, Image.BILINEAR, expand=True, fillcolor=0)
        t = math.radians(angle)
        cx, cy = side / 2, side / 2
        ox, oy = img.size[0] / 2, img.size[1] / 2
        corners = [(ox + (x - cx) * math.cos(t) + (y - cy) * math.sin(t),
                    oy - (x - cx) * math.sin(t) + (y - cy) * math.cos(t)) for x, y in corners]
    elif kind == "perspective":
        s = side
        j = lambda: rng.uniform(-0.22, 0.22) * s
        dst = [(j(), j()), (s + j(), j()), (s + j(), s + j()), (j(), s + j())]
        x0, y0 = min(p[0] for p in dst), min(p[1] for p in dst)
        dst = [(x - x0, y - y0) for x, y in dst]
        size = (int(math.ceil(max(p[0] for p in dst))), int(math.ceil(max(p[1] for p in dst))))
        co = perspective_coeffs(dst, [(0, 0), (s, 0), (s, s), (0, s)])
        img = img.transform(size, Image.PERSPECTIVE, co, Image.BILINEAR, fillcolor=paper)
        mask = mask.transform(size, Image.PERSPECTIVE, co, Image.BILINEAR, fillcolor=0)
        inv = perspective_coeffs([(0, 0), (s, 0), (s, s), (0, s)], dst)  # input -> output, to map the corners

        def fwd(x, y):
            d = inv[6] * x + inv[7] * y + 1
            return ((inv[0] * x + inv[1] * y + inv[2]) / d, (inv[3] * x + inv[4] * y + inv[5]) / d)
        corners = [fwd(x, y) for x, y in corners]
    return img, mask, corners


def make_image(args):
    """Draws image i into images_dir; returns (file name, what it holds). Deterministic in (seed, i);
    with control, the same image with real symbols of the text CONTROL_TEXT + "i-j"."""
    seed, i, images_dir, control = args
    import numpy as np
    from PIL import Image, ImageFilter
    rng = random.Random(f"fake-qr-{seed}-{i}")
    nrng = np.random.default_rng([seed, i])
    k = rng.choices([1, 2, 3, 4], weights=[60, 20, 12, 8])[0]
    codes = []
    for j in range(k):
        v = (i * 17 % 40) + 1 if j == 0 else rng.randint(1, 40)  # the first codes cover 1-40 evenly
        quiet_max = 4
        module = max(2, min(rng.randint(2, 10), 1600 // (17 + 4 * v + 2 * quiet_max)))
        kind = rng.choices(["flat", "rotated", "perspective"], weights=[40, 30, 30])[0]
        valid = rng.random() < 1 / 3
        img, mask, corners = render_code(rng, nrng, v, module, kind, valid, f"{CONTROL_TEXT}{i}-{j}" if control else None)
        codes.append({"version": v, "module_px": module, "kind": kind, "info": "valid" if valid else "random",
                      "img": img, "mask": mask, "corners": corners})
    big = max(max(c["img"].size) for c in codes)
    area = sum(c["img"].size[0] * c["img"].size[1] for c in codes)
    w = max(rng.randint(640, 2200), big + 60, int(math.sqrt(3 * area)))
    h = max(int(w * rng.uniform(0.6, 1.0)), big + 60)
    # Light, uneven background: a level, a ramp and soft blotches.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = rng.randint(175, 235)
    ramp = rng.uniform(-25, 25) * (xx / w - 0.5) + rng.uniform(-25, 25) * (yy / h - 0.5)
    blot = Image.fromarray((nrng.random((rng.randint(3, 9), rng.randint(3, 9))) * 255).astype(np.uint8), "L")
    blot = np.asarray(blot.resize((w, h), Image.BICUBIC), np.float32) / 255 - 0.5
    canvas = Image.fromarray(np.clip(base + ramp + rng.uniform(5, 30) * blot, 0, 255).astype(np.uint8), "L")
    placed, boxes = [], []
    for c in codes:
        cw, ch = c["img"].size
        for _ in range(200):
            x, y = rng.randint(10, max(10, w - cw - 10)), rng.randint(10, max(10, h - ch - 10))
            if all(x + cw + 8 < bx or bx + bw + 8 < x or y + ch + 8 < by or by + bh + 8 < y for bx, by, bw, bh in boxes):
                break
        else:
            continue  # no room left: the code is left out (and out of the manifest)
        boxes.append((x, y, cw, ch))
        canvas.paste(c["img"], (x, y), c["mask"])
        placed.append({"version": c["version"], "module_px": c["module_px"], "kind": c["kind"], "info": c["info"],
                       "corners": [[round(px + x, 1), round(py + y, 1)] for px, py in c["corners"]]})
    if rng.random() < 0.3:
        canvas = canvas.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.2)))
    a = np.asarray(canvas, np.float32) + nrng.normal(0, rng.uniform(1, 7), (h, w))
    out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "L")
    if rng.random() < 0.3:  # a tint: paper under warm or cool light
        t = [rng.uniform(0.85, 1.0) for _ in range(3)]
        out = Image.merge("RGB", [out.point(lambda p, f=f: int(p * f)) for f in t])
    ext = ".png" if rng.random() < 0.4 else ".jpg"
    first = placed[0] if placed else codes[0]
    name = f"fq-{i:03d}-v{first['version']}-m{first['module_px']}-{first['kind']}" + (f"-x{len(placed)}" if len(placed) > 1 else "") + ext
    if ext == ".jpg":
        out.save(os.path.join(images_dir, name), quality=rng.randint(60, 95))
    else:
        out.save(os.path.join(images_dir, name))
    return name, {"size": [w, h], "codes": placed}


def generate(out, count, seed, jobs, control=False):
    images_dir = os.path.join(out, "control" if control else "images")
    manifest_path = os.path.join(out, "control.json" if control else "manifest.json")
    key = {"generator": GEN_VERSION, "seed": seed, "count": count, "control": control}
    try:
        m = json.load(open(manifest_path))
        if {k: m.get(k) for k in key} == key and all(os.path.exists(os.path.join(images_dir, f)) for f in m["images"]):
            return images_dir, m
    except (OSError, ValueError, KeyError):
        pass
    shutil.rmtree(images_dir, ignore_errors=True)
    os.makedirs(images_dir)
    print(f"fake_qr: generating {count} {'control ' if control else ''}images (seed {seed}) in {images_dir} ...", file=sys.stderr)
    import multiprocessing as mp
    with mp.get_context("fork").Pool(jobs) as pool:
        made = pool.map(make_image, [(seed, i, images_dir, control) for i in range(count)], chunksize=1)
    m = dict(key, images=dict(made))
    with open(manifest_path, "w") as f:
        json.dump(m, f, indent=1)
    return images_dir, m


# --- the readers -----------------------------------------------------------------------------

def run_codesweep(binary, effort, jobs, images_dir, out):
    """[(file, symbology, text)] of every code read, files that failed, wall and CPU seconds."""
    cpu0, t0 = child_cpu(), time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run([binary, "scan", "-q", "--effort", effort, "--jobs", str(jobs), images_dir],
                           stdout=f, stderr=subprocess.PIPE)
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    if p.returncode not in (0, 1):
        sys.exit(f"codesweep --effort {effort} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    reads, failed, records = [], [], 0
    for line in open(out, errors="replace"):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        records += 1
        name = os.path.basename(o.get("path", ""))
        if o.get("status") != "ok":
            failed.append(f"{name} ({o.get('status')})")
        for c in o.get("codes") or []:
            reads.append((name, c.get("symbology", "?"), c.get("text", "")))
    return reads, failed, records, wall, cpu


def peer_one(path):
    import zxingcpp
    from PIL import Image, ImageOps
    try:
        with Image.open(path) as im:
            img = ImageOps.exif_transpose(im).convert("L")
        return [(os.path.basename(path), str(b.format).split(".")[-1], b.text) for b in zxingcpp.read_barcodes(img)], None
    except Exception as e:
        return [], f"{os.path.basename(path)} ({type(e).__name__})"


def run_peer(images_dir, files, jobs):
    try:
        import importlib.metadata as md
        version = md.version("zxing-cpp")
        import zxingcpp  # noqa: F401
    except Exception as e:
        print(f"fake_qr: peer skipped: {e} (pip install 'zxing-cpp==3.1.*')", file=sys.stderr)
        return None
    import multiprocessing as mp
    print(f"fake_qr: zxing-cpp {version} on {len(files)} images, {jobs} processes ...", file=sys.stderr)
    cpu0, t0 = child_cpu(), time.monotonic()
    pool = mp.get_context("fork").Pool(jobs)
    try:
        res = pool.map(peer_one, [os.path.join(images_dir, f) for f in files], chunksize=1)
    finally:
        pool.close()
        pool.join()
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    reads = [r for rs, _ in res for r in rs]
    failed = [e for _, e in res if e]
    return version, reads, failed, wall, cpu


def is_qr(sym):
    s = "".join(ch for ch in sym.lower() if ch.isalnum())
    return s.startswith("qr") or s.startswith("microqr") or s.startswith("rmqr")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="fast,normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--out", default="bench-out/fake-qr")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--control", type=int, default=0, metavar="N",
                    help="also draw the first N images with real symbols (qrencode) and count those read")
    ap.add_argument("--self-check", action="store_true", help="only compare the patterns with qrencode's, then exit")
    a = ap.parse_args()
    try:
        import numpy, PIL  # noqa: F401
    except ImportError as e:
        print(f"fake_qr: {e} (pip install numpy pillow)", file=sys.stderr)
        sys.exit(2)
    if a.self_check:
        sys.exit(0 if self_check() else 1)
    binary = a.bin
    if not os.access(binary, os.X_OK):
        print(f"fake_qr: no codesweep binary at {binary} (make release, or --bin PATH)", file=sys.stderr)
        sys.exit(2)
    os.makedirs(a.out, exist_ok=True)
    images_dir, manifest = generate(a.out, a.count, a.seed, a.jobs)
    files = sorted(manifest["images"])
    codes = [c for im in manifest["images"].values() for c in im["codes"]]
    vs = Counter(c["version"] for c in codes)
    kinds = Counter(c["kind"] for c in codes)
    info = Counter(c["info"] for c in codes)
    mods = [c["module_px"] for c in codes]
    multi = sum(1 for im in manifest["images"].values() if len(im["codes"]) > 1)

    readers = []  # (name, reads, failed, wall, cpu)
    for e in [e for e in a.efforts.split(",") if e]:
        print(f"fake_qr: codesweep --effort {e} --jobs {a.jobs} on {len(files)} images ...", file=sys.stderr)
        reads, failed, records, wall, cpu = run_codesweep(binary, e, a.jobs, images_dir, os.path.join(a.out, f"codesweep-{e}.jsonl"))
        if records != len(files):
            failed.append(f"{len(files) - records} files without a record")
        readers.append((e, reads, failed, wall, cpu))
    peer_version = None
    if not a.no_peer:
        r = run_peer(images_dir, files, a.jobs)
        if r:
            peer_version = r[0]
            readers.append((PEER, *r[1:]))
    control = []  # (reader, real codes read, other reads)
    if a.control:
        if not shutil.which("qrencode"):
            sys.exit("fake_qr: --control needs qrencode")
        cdir, cman = generate(a.out, min(a.control, a.count), a.seed, a.jobs, control=True)
        creal = sum(len(im["codes"]) for im in cman["images"].values())
        for name, *_ in readers:
            if name == PEER:
                reads = run_peer(cdir, sorted(cman["images"]), a.jobs)[1]
            else:
                reads = run_codesweep(binary, name, a.jobs, cdir, os.path.join(a.out, f"control-{name}.jsonl"))[0]
            ok = sum(1 for r in reads if r[2].startswith(CONTROL_TEXT))
            control.append((name, ok, len(reads) - ok))

    lines = [f"Fake QR codes: {images_dir} ({len(files)} images, {sum(f.endswith('.png') for f in files)} PNG; "
             f"{len(codes)} codes, {multi} images with several; seed {a.seed})",
             f"  versions {min(vs)}-{max(vs)} ({len(vs)} distinct), modules {min(mods)}-{max(mods)} px; "
             + ", ".join(f"{kinds[k]} {k}" for k in ("flat", "rotated", "perspective"))
             + f"; format/version information valid in {info['valid']}, random in {info['random']}",
             "Every code read is a false read.",
             f"{'reader':<15}{'false reads':>12}{'QR':>6}{'other':>7}{'images':>8}{'wall s':>8}{'cpu s':>8}"]
    for name, reads, failed, wall, cpu in readers:
        q = sum(1 for r in reads if is_qr(r[1]))
        lines.append(f"{name:<15}{len(reads):>12}{q:>6}{len(reads) - q:>7}{len({r[0] for r in reads}):>8}{wall:>8.1f}{cpu:>8.1f}"
                     + (f"   {len(failed)} files failed: {', '.join(failed[:5])}" if failed else ""))
    for name, reads, _, _, _ in readers:
        for f, sym, text in reads[:15]:
            lines.append(f"  {name}: {f}: {sym} {text[:50]!r}")
        if len(reads) > 15:
            lines.append(f"  {name}: ... {len(reads) - 15} more")
    if control:
        lines.append(f"control: the first {len(cman['images'])} images drawn the same way with real symbols (qrencode), "
                     f"{creal} codes; read: " + ", ".join(f"{n} {ok}" + (f" (+{bad} other)" if bad else "") for n, ok, bad in control))
    if peer_version:
        lines.append(f"peer: zxing-cpp {peer_version} from PyPI, all formats, Pillow decode + grey, {a.jobs} processes.")
    lines.append("QR: QR, Micro QR and rMQR reads. Times are noisy on a shared machine.")
    text = "\n".join(lines)
    print("\n" + text)
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"images": len(files), "codes": len(codes), "seed": a.seed, "binary": os.path.abspath(binary),
                   "readers": {n: {"false_reads": [list(r) for r in reads], "failed": failed, "wall_s": round(wall, 2),
                                   "cpu_s": round(cpu, 2)} for n, reads, failed, wall, cpu in readers},
                   "control": {n: {"real_read": ok, "other_reads": bad} for n, ok, bad in control}}, f, indent=1)


if __name__ == "__main__":
    main()
