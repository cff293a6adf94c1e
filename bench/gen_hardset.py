#!/usr/bin/env python3
"""Generates the recall benchmark's HARD SET deterministically (seeded) into bench-out/hardset.

Tools: qrencode, zint, /usr/bin/convert (real ImageMagick; the `convert` on PATH may be a stand-in).
Writes bench-out/hardset/<category>/*.{jpg,png} and bench-out/hardset/truth.json:
  {"version": V, "images": {"<category>/<file>": [{"symbology": "qrcode", "text": "..."}, ...]}}
Generation is cached: nothing is redone while truth.json holds the same VERSION.
"""
import json, os, random, shutil, subprocess, sys, tempfile, concurrent.futures as cf

VERSION = 6
CONVERT = "/usr/bin/convert"
OUT = sys.argv[1] if len(sys.argv) > 1 else "bench-out/hardset"


def run(*args):
    p = subprocess.run([str(a) for a in args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))[:300]}: {p.stderr.decode(errors='replace')[:500]}")


def qr(path, text, module, margin=4, version=None, invert=False, level="M"):
    a = ["qrencode", "-o", path, "-s", module, "-m", margin, "-l", level]
    if version: a += ["-v", version]
    if invert: a += ["--foreground=FFFFFF", "--background=000000"]
    run(*a, "--", text)


def zint(path, kind, data, scale=2, height=50):
    run("zint", "-b", kind, "-o", path, "--scale", scale, "--height", height, "-d", data)


def ean13_check(d12):
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d12))
    return d12 + str((10 - s % 10) % 10)


def upca_check(d11):
    s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(d11))
    return d11 + str((10 - s % 10) % 10)


def background(path, w, h, seed, noise=0.5):
    """Photo-like background: smooth plasma, scaled up, light sensor noise."""
    run(CONVERT, "-seed", seed, "-size", f"{w // 20}x{h // 20}", "plasma:fractal", "-blur", "0x1",
        "-resize", f"{w}x{h}!", "-attenuate", noise, "+noise", "Gaussian", "-depth", "8", "-quality", "92", path)


def place(bg, out, items, post=(), quality=90):
    """Composites items [(png, x, y, extra convert args for the code)] onto bg, then post ops."""
    a = [CONVERT, bg]
    for png, x, y, extra in items:
        a += ["(", png, *extra, ")", "-geometry", f"+{x}+{y}", "-composite"]
    a += list(post) + ["-depth", "8"]
    if out.endswith(".jpg"): a += ["-quality", quality]
    run(*a, out)


class Gen:
    def __init__(self, root, tmp):
        self.root, self.tmp, self.truth, self.jobs = root, tmp, {}, []
        self.n = 0

    def t(self, suffix=".png"):
        self.n += 1
        return os.path.join(self.tmp, f"t{self.n}{suffix}")

    def add(self, cat, name, codes, fn):
        os.makedirs(os.path.join(self.root, cat), exist_ok=True)
        rel = f"{cat}/{name}"
        self.truth[rel] = codes
        self.jobs.append((os.path.join(self.root, rel), fn))


def build(root, tmp):
    R = random.Random(20260601)
    g = Gen(root, tmp)
    # Shared 12 MP and 3 MP photo-like backgrounds (made first, reused).
    bgs12 = [os.path.join(tmp, f"bg12-{i}.jpg") for i in range(3)]
    bgs3 = [os.path.join(tmp, f"bg3-{i}.jpg") for i in range(3)]
    pre = [(p, lambda p=p, i=i: background(p, 4000, 3000, 100 + i)) for i, p in enumerate(bgs12)]
    pre += [(p, lambda p=p, i=i: background(p, 2000, 1500, 200 + i)) for i, p in enumerate(bgs3)]

    def word(n):
        return "".join(R.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(n))

    # 1. tiny-qr: QR with 2-3 px modules somewhere in a 12 MP photo.
    for i, mod in enumerate([2, 2, 2, 3, 3, 3]):
        text = f"https://ex.am/t/{word(10 + 6 * i)}"
        png = g.t(); x, y = R.randrange(200, 3400), R.randrange(200, 2500)
        g.add("tiny-qr", f"tiny{i}.jpg", [{"symbology": "qrcode", "text": text}],
              lambda png=png, text=text, mod=mod, x=x, y=y, i=i: (qr(png, text, mod, 2),
                  place(bgs12[i % 3], g_out("tiny-qr", f"tiny{i}.jpg"), [(png, x, y, [])], quality=92)))

    # 1b. tiny-qr as a phone records it: the same 2-3 px modules (or a pitch between, from a
    # resized code) under camera blur, a slight tilt or weak contrast. A separate seed keeps the
    # other categories as they were.
    Rh = random.Random(20261122)
    hard_tiny = [(2, 0, ["-blur", "0x0.9"]), (2, 8, ["-blur", "0x0.8"]), (3, 12, ["-blur", "0x1.2"]),
                 (3, 0, ["-blur", "0x1.4"]), (4, 20, ["-blur", "0x0.5"], ["-resize", "45%", "+level", "25%,75%"]),
                 (5, 7, ["-blur", "0x0.6"], ["-resize", "36%"])]
    for i, (mod, tilt, post, *extra) in enumerate(hard_tiny):
        text = f"https://ex.am/t/{''.join(Rh.choice('ABCDEFGHJKLMNPQRSTUVWXYZ23456789') for _ in range(12 + 4 * i))}"
        png = g.t(); x, y = Rh.randrange(200, 3400), Rh.randrange(200, 2500)
        name = f"tiny-camera{i}.jpg"
        ops = ["-background", "white", "-rotate", tilt] + (extra[0] if extra else [])
        g.add("tiny-qr", name, [{"symbology": "qrcode", "text": text}],
              lambda png=png, text=text, mod=mod, x=x, y=y, i=i, ops=ops, post=post, name=name: (qr(png, text, mod, 2),
                  place(bgs12[i % 3], g_out("tiny-qr", name), [(png, x, y, ops)], post=post, quality=85)))

    # 2. fill-frame: codes filling the frame (huge modules).
    for i in range(6):
        if i < 4:
            text = f"BIG{i}-{word(6)}"; mod = [60, 90, 120, 150][i]
            png = g.t()
            g.add("fill-frame", f"fill{i}.jpg", [{"symbology": "qrcode", "text": text}],
                  lambda png=png, text=text, mod=mod, i=i: (qr(png, text, mod, 1, level="L"),
                      run(CONVERT, png, "-resize", "3000x3000", "-blur", "0x3", "-attenuate", "0.4", "+noise", "Gaussian",
                          "-quality", "90", g_out("fill-frame", f"fill{i}.jpg"))))
        else:
            text = f"FILL{i}{word(4)}"
            png = g.t()
            g.add("fill-frame", f"fill{i}.jpg", [{"symbology": "code128", "text": text}],
                  lambda png=png, text=text, i=i: (zint(png, 20, text, 2, 60),
                      run(CONVERT, png, "-filter", "point", "-resize", "4000x2600!", "-blur", "0x4", "-attenuate", "0.4",
                          "+noise", "Gaussian", "-quality", "90", g_out("fill-frame", f"fill{i}.jpg"))))

    # 3. blur: Gaussian and motion blur on a QR and an EAN-13 in a 3 MP photo.
    blurs = [["-blur", "0x2"], ["-blur", "0x3"], ["-blur", "0x4"], ["-motion-blur", "0x6+20"],
             ["-motion-blur", "0x10+0"], ["-motion-blur", "0x12+70"], ["-blur", "0x5"], ["-motion-blur", "0x16+45"]]
    for i, b in enumerate(blurs):
        text = f"BLUR{i}-{word(8)}"; ean = ean13_check("40" + "".join(R.choice("0123456789") for _ in range(10)))
        qpng, epng = g.t(), g.t()
        g.add("blur", f"blur{i}.jpg", [{"symbology": "qrcode", "text": text}, {"symbology": "ean13", "text": ean}],
              lambda qpng=qpng, epng=epng, text=text, ean=ean, b=b, i=i: (qr(qpng, text, 7, 4), zint(epng, 13, ean[:12], 3, 60),
                  place(bgs3[i % 3], g_out("blur", f"blur{i}.jpg"), [(qpng, 250, 300, []), (epng, 1150, 500, [])], post=b)))

    # 4. inverted: light codes on dark ground (QR white-on-black, also a negative 1D code).
    for i in range(6):
        text = f"INV{i}-{word(12)}"; mod = [3, 4, 5, 6, 8, 10][i]
        png = g.t(); x, y = R.randrange(100, 2400), R.randrange(100, 1800)
        g.add("inverted", f"inv{i}.jpg", [{"symbology": "qrcode", "text": text}],
              lambda png=png, text=text, mod=mod, x=x, y=y, i=i: (qr(png, text, mod, 3, invert=True),
                  place(bgs12[i % 3], g_out("inverted", f"inv{i}.jpg"), [(png, x, y, ["-bordercolor", "#202020", "-border", "40"])],
                        post=["-blur", "0x0.8"])))

    # 5. low-contrast and glare gradients.
    for i in range(6):
        text = f"LOW{i}-{word(10)}"; mod = 6
        png = g.t()
        lo, hi = [(110, 150), (120, 150), (140, 170), (90, 120), (60, 200), (80, 180)][i]
        glare = i >= 3
        post = ["-blur", "0x1"]
        if glare:
            post = ["(", "-size", "2000x1500", "radial-gradient:white-black", "-evaluate", "multiply", "0.9", ")",
                    "-compose", "screen", "-composite", "-compose", "over", "-blur", "0x1"]
        codes = [{"symbology": "qrcode", "text": text}]
        c128 = f"LC{i}{word(6)}"; cpng = g.t()  # about 560 px wide at scale 2: fits right of x=1250
        codes.append({"symbology": "code128", "text": c128})
        g.add("low-contrast", f"low{i}.jpg", codes,
              lambda png=png, cpng=cpng, text=text, c128=c128, lo=lo, hi=hi, post=post, i=i: (
                  qr(png, text, mod, 4), zint(cpng, 20, c128, 2, 50),
                  place(bgs3[i % 3], g_out("low-contrast", f"low{i}.jpg"),
                        [(png, 650, 450, ["-level", f"0,100%", "+level", f"{lo * 100 // 255}%,{hi * 100 // 255}%"]),
                         (cpng, 1250, 600, ["+level", f"{lo * 100 // 255}%,{hi * 100 // 255}%"])], post=post)))

    # 6. crowded: 20-60 small QR codes on one 12 MP sheet photo.
    for i, n in enumerate([20, 30, 40, 50, 60]):
        cols = 10 if n > 40 else 8
        rows = (n + cols - 1) // cols
        items, codes = [], []
        for k in range(n):
            text = f"S{i}-{k:02d}-{word(6)}"
            png = g.t()
            cx, cy = k % cols, k // cols
            x = 150 + cx * (3700 // cols) + R.randrange(0, 40); y = 150 + cy * (2700 // rows) + R.randrange(0, 40)
            items.append((png, x, y, text))
            codes.append({"symbology": "qrcode", "text": text})
        mod = 4 if n <= 40 else 3
        g.add("crowded", f"sheet{i}.jpg", codes,
              lambda items=items, mod=mod, i=i: ([qr(p, t, mod, 2) for p, _, _, t in items],
                  place(bgs12[i % 3], g_out("crowded", f"sheet{i}.jpg"), [(p, x, y, []) for p, x, y, _ in items],
                        post=["-blur", "0x0.7"])))

    # 7. dense QR versions 20-40 (3-4 px modules) in a photo.
    for i, v in enumerate([20, 25, 30, 35, 40, 40]):
        text = f"DENSE{v}-" + word(40 + 10 * i)
        mod = 4 if i % 2 == 0 else 3
        png = g.t()
        g.add("dense-qr", f"dense{i}.jpg", [{"symbology": "qrcode", "text": text}],
              lambda png=png, text=text, mod=mod, v=v, i=i: (qr(png, text, mod, 4, version=v),
                  place(bgs12[i % 3], g_out("dense-qr", f"dense{i}.jpg"), [(png, 900, 500, [])], post=["-blur", "0x0.6"])))

    # 7b. dense QR as a phone records it: camera blur, a tilt, a pitch between pixels, weak
    # contrast, a keystone (the last is read by neither reader yet: it marks the limit).
    hard_dense = [(25, 3, 10, "0x1.2", []), (30, 3, 0, "0x1.5", []), (35, 4, 5, "0x1.8", []),
                  (40, 4, 15, "0x1.6", []), (35, 4, 0, "0x1.0", ["-resize", "80%"]),
                  (30, 4, 0, "0x0.6", ["-matte", "-virtual-pixel", "white", "-distort", "Perspective",
                                       "0,0 0,0  %w,0 %w,%h2  0,%h 0,%h  %w,%h %w,%h8"])]
    for i, (v, mod, tilt, blur, extra) in enumerate(hard_dense):
        text = f"DENSE{v}-" + "".join(Rh.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(60 + 20 * i))
        png = g.t(); name = f"dense-camera{i}.jpg"
        g.add("dense-qr", name, [{"symbology": "qrcode", "text": text}],
              lambda png=png, text=text, mod=mod, v=v, i=i, tilt=tilt, blur=blur, extra=extra, name=name: (
                  qr(png, text, mod, 4, version=v), perspective_fix(png, extra) if extra[:1] == ["-matte"] else None,
                  place(bgs12[(i + 1) % 3], g_out("dense-qr", name),
                        [(png, 900, 500, ["-background", "white", "-rotate", tilt] + ([] if extra[:1] == ["-matte"] else extra))],
                        post=["-blur", blur], quality=85)))

    # 8. rotation and perspective (QR and 1D codes).
    rots = [("qrcode", ["-background", "white", "-rotate", "30"]), ("code128", ["-background", "white", "-rotate", "30"]),
            ("ean13", ["-background", "white", "-rotate", "-40"]), ("code128", ["-background", "white", "-rotate", "60"]),
            ("qrcode", ["-matte", "-virtual-pixel", "white", "-distort", "Perspective", "0,0 0,0  %w,0 %w,%h2  0,%h 0,%h  %w,%h %w,%h8"]),
            ("code128", ["-matte", "-virtual-pixel", "white", "-distort", "Perspective", "0,0 %w3,0  %w,0 %w,0  0,%h 0,%h  %w,%h %w,%h"]),
            ("ean13", ["-background", "white", "-rotate", "15"]), ("qrcode", ["-background", "white", "-rotate", "-45"])]
    for i, (sym, op) in enumerate(rots):
        png = g.t()
        if sym == "qrcode":
            text = f"ROT{i}-{word(12)}"; mk = lambda png=png, text=text: qr(png, text, 6, 4)
        elif sym == "code128":
            text = f"R{i}{word(7)}"; mk = lambda png=png, text=text: zint(png, 20, text, 3, 60)
        else:
            text = ean13_check("50" + "".join(R.choice("0123456789") for _ in range(10)))
            mk = lambda png=png, text=text: zint(png, 13, text[:12], 3, 70)
        g.add("rotation", f"rot{i}.jpg", [{"symbology": sym, "text": text}],
              lambda png=png, mk=mk, op=op, i=i: (mk(), perspective_fix(png, op),
                  place(bgs3[i % 3], g_out("rotation", f"rot{i}.jpg"), [(png, 500, 300, [])], post=["-blur", "0x0.7"])))

    # 9. product-like shots: EAN-13 / UPC-A / Code128 on a label on a photo, slight tilt and blur.
    for i in range(6):
        kind = ["ean13", "upca", "code128", "ean13", "upca", "code128"][i]
        png = g.t()
        if kind == "ean13":
            text = ean13_check("9" + "".join(R.choice("0123456789") for _ in range(11))); mk = lambda png=png, text=text: zint(png, 13, text[:12], 2, 60)
        elif kind == "upca":
            d = upca_check("0" + "".join(R.choice("0123456789") for _ in range(10)))
            text = d; mk = lambda png=png, d=d: zint(png, 34, d[:11], 2, 60)
        else:
            text = f"SKU-{word(8)}"; mk = lambda png=png, text=text: zint(png, 20, text, 2, 50)
        big = i >= 3
        bg = bgs12[i % 3] if big else bgs3[i % 3]
        tilt = [3, -6, 8, -10, 5, -3][i]
        g.add("product", f"prod{i}.jpg", [{"symbology": kind, "text": text}],
              lambda png=png, mk=mk, tilt=tilt, bg=bg, i=i, big=big: (mk(),
                  place(bg, g_out("product", f"prod{i}.jpg"),
                        [(png, 1800 if big else 700, 1300 if big else 500,
                          ["-bordercolor", "#f4f0e0", "-border", "60", "-background", "#c0a070", "-rotate", tilt])],
                        post=["-blur", "0x1.2", "-attenuate", "0.5", "+noise", "Gaussian"])))

    # 10. photos without any code (the common case in a library: measures what a no-code photo costs).
    for i in range(5):
        big = i < 3
        g.add("photo-none", f"photo{i}.jpg", [],
              lambda i=i, big=big: run(CONVERT, (bgs12 if big else bgs3)[i % 3], "-modulate", f"{90 + 5 * i}", "-quality", "90",
                                       g_out("photo-none", f"photo{i}.jpg")))

    # 11. no code: text, grids, stripes, dotted fabric-like textures (every decode is a false read).
    nocode = [
        ["-size", "3000x2000", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "28", "-fill", "black",
         "-annotate", "+60+80", "@TEXT"],
        ["-size", "750x500", "pattern:checkerboard", "-scale", "400%"],
        ["-size", "1000x667", "pattern:vertical", "-scale", "300%"],
        ["-size", "750x500", "pattern:crosshatch", "-scale", "400%", "-blur", "0x1"],
        ["-size", "1000x667", "pattern:hs_vertical", "-scale", "300%"],
        ["@STRIPES"],
        ["@STRIPES2"],
        ["-size", "3000x2000", "xc:white", "-font", "DejaVu-Sans-Mono", "-pointsize", "20", "-fill", "black",
         "-annotate", "+40+60", "@TEXT"],
    ]
    for i, ops in enumerate(nocode):
        g.add("no-code", f"none{i}.jpg", [], lambda ops=ops, i=i: make_nocode(ops, g_out("no-code", f"none{i}.jpg"), R2(i), tmp))
    return g, pre


def R2(i):
    return random.Random(777 + i)


def make_nocode(ops, out, r, tmp):
    if ops[0].startswith("@STRIPES"):
        # Random bar widths (1-6 px) like a barcode without structure; rows of them with text-like gaps.
        w, h = 3000, 2000
        path = os.path.join(tmp, os.path.basename(out) + ".pgm")
        rows = []
        for band in range(8):
            row = bytearray()
            while len(row) < w:
                row += bytes([r.choice([20, 235])]) * r.randint(1, 6)
            row = bytes(row[:w])
            gap = bytes([235]) * w
            bh = h // 8
            rows.append(row * (bh - 30) + gap * 30)
        data = b"".join(rows)
        data += bytes([235]) * (w * h - len(data))
        with open(path, "wb") as f:
            f.write(b"P5 %d %d 255\n" % (w, h) + data)
        extra = ["-blur", "0x0.8"] if ops[0] == "@STRIPES" else ["-rotate", "20", "-gravity", "center", "-crop", "3000x2000+0+0", "+repage"]
        run(CONVERT, path, *extra, "-quality", "90", out)
        return
    if "@TEXT" in ops:
        words = ["barcode", "lorem", "ipsum", "111", "||||", "IIII", "scan", "0101", "data", "lllll", "mmmm", "#####"]
        lines = [" ".join(r.choice(words) for _ in range(28)) for _ in range(55)]
        ops = [("\n".join(lines) if o == "@TEXT" else o) for o in ops]
    run(CONVERT, "-seed", 5, *ops, "-depth", "8", "-quality", "90", out)


def perspective_fix(png, op):
    """Expands %w/%h tokens in a -distort Perspective argument from the image size."""
    out = subprocess.run(["identify", "-format", "%w %h", png], capture_output=True, text=True, check=True).stdout.split()
    w, h = int(out[0]) - 1, int(out[1]) - 1
    a = []
    for o in op:
        if "%w" in o:
            o = (o.replace("%w3", str(w // 3)).replace("%h2", str(h // 6)).replace("%h8", str(h * 5 // 6))
                 .replace("%w", str(w)).replace("%h", str(h)))
        a.append(o)
    run(CONVERT, png, *a, png)


_ROOT = None


def g_out(cat, name):
    return os.path.join(_ROOT, cat, name)


def main():
    global _ROOT
    _ROOT = OUT
    tp = os.path.join(OUT, "truth.json")
    if os.path.exists(tp):
        try:
            if json.load(open(tp)).get("version") == VERSION:
                print(f"hard set: cached in {OUT} (version {VERSION})", file=sys.stderr)
                return
        except ValueError:
            pass
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    with tempfile.TemporaryDirectory() as tmp:
        g, pre = build(OUT, tmp)
        with cf.ThreadPoolExecutor(2) as ex:
            list(ex.map(lambda j: j[1](), pre))
            futs = [ex.submit(fn) for _, fn in g.jobs]
            for f in futs:
                f.result()
    json.dump({"version": VERSION, "images": g.truth}, open(tp, "w"), indent=1, sort_keys=True)
    print(f"hard set: generated {len(g.truth)} images in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
