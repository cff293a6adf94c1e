#!/usr/bin/env python3
"""Textured negatives for the throughput set: 12 MP photo-like JPEGs with no code in them, whose
texture looks code-like to a scanner (what makes a real photo library costly to sweep).

usage: textured.py OUTDIR [--count 20] [--seed S]   (or make_photolib.py OUTDIR --textured N)

Kinds, in turn: dense text pages, spreadsheet grids, brick walls, woven fabric (fine crossing
threads, plain/twill/basket weaves, stripes and plaids), foliage (noise at several scales),
building facades with window grids (in perspective), finder-like concentric squares (1:1:3:1:1,
scattered, in L-shaped triplets, as nested-square tiles), checkerboards (calibration targets,
chequered floors, gingham) and tile walls. Most are drawn as ImageMagick vector primitives (MVG)
computed here; fabric and gingham are a small woven repeat (a PPM made here) tiled over the
frame, foliage is noise. Then each is lit unevenly, blurred a little (or not), given sensor noise
and saved as a JPEG; about a fifth are stored rotated with EXIF Orientation 6, as phones do.
Seeded (a seed per image, so they can be made two at a time) and cached: truth.json (no codes in
any image: any code reported there is a false read) records count, seed and version.
Needs /usr/bin/convert (ImageMagick 6; /usr/local/bin/convert may be something else), exiftool,
and the DejaVu fonts (Ghostscript's are not assumed).
"""
import argparse, json, math, multiprocessing, os, random, shutil, subprocess, sys, time

CONVERT = "/usr/bin/convert"
VERSION = 2  # bump when the generator changes: the cached set is made again
W, H = 4000, 3000
SEED = 20261123
KINDS = ["text", "sheet", "brick", "fabric", "foliage", "facade", "finder", "checker", "tiles"]
SYL = ["lo", "rem", "ip", "sum", "do", "lor", "sit", "am", "et", "con", "sec", "te", "tur", "ad", "pis",
       "cing", "el", "it", "sed", "ei", "us", "mod", "tem", "por", "in", "ci", "dunt", "ut", "la", "bo",
       "re", "ma", "gna", "al", "iqua", "ve", "ni", "am", "quis", "nos", "trud", "ex", "er", "ta", "tion"]
MAX_DRAW = 100_000  # bytes of MVG per -draw argument (one argument may not exceed 128 KiB)


def run(*args):
    p = subprocess.run([str(a) for a in args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode:
        raise RuntimeError(f"{args[0]} failed ({p.returncode}): {p.stderr.decode(errors='replace')[-400:]}")


def rgb(c):
    return "#%02x%02x%02x" % tuple(max(0, min(255, int(v))) for v in c)


def jitter(r, c, d):
    k = r.uniform(-d, d)
    return rgb([v + k + r.uniform(-d / 3, d / 3) for v in c])


def words(r, n):
    out = []
    for _ in range(n):
        if r.random() < 0.12:
            out.append(str(r.randrange(1, 10 ** r.randrange(1, 6))))
        else:
            w = "".join(r.choice(SYL) for _ in range(r.randrange(1, 4)))
            out.append(w.capitalize() if r.random() < 0.1 else w)
    return " ".join(out)


def poly(pts):
    return "polygon " + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def rect(x0, y0, x1, y1):
    return f"rectangle {x0:.1f},{y0:.1f} {x1:.1f},{y1:.1f}"


class Scene:
    """MVG items drawn under one rotation about the frame's centre (a hand-held shot is never
    square to the subject), with the margin the rotation needs so the corners stay covered."""

    def __init__(self, r, max_angle):
        self.angle = r.uniform(-max_angle, max_angle)
        self.margin = int(2600 * math.sin(math.radians(abs(self.angle)))) + 60
        self.items = []

    def add(self, s):
        self.items.append(s)

    def draw_args(self):
        head = (f"push graphic-context\ntranslate {W / 2},{H / 2} rotate {self.angle:.2f} "
                f"translate {-W / 2},{-H / 2}\n")
        chunks, cur = [], []
        size = 0
        for it in self.items:
            if cur and size + len(it) > MAX_DRAW:
                chunks.append(cur); cur, size = [], 0
            cur.append(it); size += len(it) + 1
        if cur:
            chunks.append(cur)
        args = []
        for c in chunks:
            args += ["-draw", head + "\n".join(c) + "\npop graphic-context"]
        return args


def grain(r, scale, contrast, w=W, h=H):
    """A w x h grey noise field with blobs of about `scale` px, centred on 50 % grey (overlay with
    it leaves the image's mean as it was); `contrast` 0..0.5 is how far it strays from grey."""
    lo, hi = 50 - 100 * contrast, 50 + 100 * contrast
    return ["(", "-size", f"{max(2, w // scale)}x{max(2, h // scale)}", "xc:", "-seed", str(r.randrange(1 << 30)),
            "+noise", "Random", "-colorspace", "Gray", "-filter", "Triangle", "-resize", f"{w}x{h}!",
            "+level", f"{lo:.0f}%,{hi:.0f}%", ")",
            "-compose", "Overlay", "-composite"]


# --- the kinds: each returns the convert arguments that make the scene, and the scale (px) and
# strength (0..0.5) of the light and shade laid over it afterwards ---

def k_text(r, tmp):
    s = Scene(r, 7)
    desk = r.choice([(110, 80, 55), (90, 90, 95), (150, 120, 90), (60, 60, 65)])
    paper = r.choice([(244, 241, 234), (250, 250, 250), (236, 232, 220)])
    fs = r.choice([18, 22, 26, 32, 40])
    lh = fs * r.uniform(1.25, 1.5)
    pages = r.choice([1, 2])
    pw = (W + 2 * s.margin) * r.uniform(0.8, 0.95) / pages
    ph = (H + 2 * s.margin) * r.uniform(0.85, 1.0)
    x0 = (W - pw * pages) / 2
    y0 = (H - ph) / 2
    for p in range(pages):
        px = x0 + p * pw
        s.add(f"fill '{rgb(paper)}' " + rect(px + 8, y0, px + pw - 8, y0 + ph))
        cols = r.choice([1, 2]) if fs <= 26 else 1
        mx = pw * 0.08
        cw = (pw - 2 * mx) / cols
        items = [f"fill '{rgb([r.randrange(10, 50)] * 3)}'"]
        for c in range(cols):
            y = y0 + ph * 0.06 + fs
            while y < y0 + ph * 0.94:
                if r.random() < 0.06:  # a heading
                    items.append(f"font 'DejaVu-Sans-Bold' font-size {fs * 1.4:.0f}")
                    items.append(f"text {px + mx + c * cw:.0f},{y:.0f} '{words(r, r.randrange(2, 6))}'")
                    items.append(f"font 'DejaVu-Sans' font-size {fs}")
                    y += lh * 1.8
                    continue
                n = int(cw / (fs * 0.56) / 6.5)  # about six and a half glyphs a word
                if r.random() < 0.12:  # a paragraph's last line
                    n = max(1, int(n * r.uniform(0.2, 0.8)))
                if r.random() < 0.05:
                    y += lh  # blank line between paragraphs
                items.append(f"text {px + mx + c * cw:.0f},{y:.0f} '{words(r, max(1, n))}'")
                y += lh
        s.add(f"font 'DejaVu-Sans' font-size {fs}\n" + "\n".join(items))
    return ["-size", f"{W}x{H}", f"xc:{rgb(desk)}", "-font", "DejaVu-Sans"] + s.draw_args(), (300, 0.08)


def k_sheet(r, tmp):
    s = Scene(r, 4)
    rh = r.choice([22, 26, 30, 36])
    fs = int(rh * 0.62)
    line = r.choice(["#b8b8b8", "#c8c8d0", "#9a9a9a"])
    m = s.margin
    cols, x = [], -m
    while x < W + m:
        w = r.choice([60, 90, 120, 150, 200])
        cols.append((x, w)); x += w
    rows = int((H + 2 * m) / rh) + 1
    sw = r.choice([1, 1, 2])
    grid = [f"stroke '{line}' stroke-width {sw} fill none"]
    # Long lines in short pieces: ImageMagick rasterises a primitive over its bounding box, which
    # for a long line at a slant is most of the frame.
    for cx, _ in cols:
        grid += [f"line {cx},{y} {cx},{y + 200}" for y in range(-m, H + m, 200)]
    for k in range(rows + 1):
        grid += [f"line {x},{-m + k * rh} {x + 200},{-m + k * rh}" for x in range(-m, W + m, 200)]
    s.add(f"fill '#dde4ee' " + rect(-m, -m, W + m, rh - m))
    for k in range(1, len(grid), 1000):
        s.add(grid[0] + "\n" + "\n".join(grid[k:k + 1000]))
    # Cell text: one multi-line text per column and block of rows (one text per cell costs ~10 s
    # of rendering); the interline spacing puts a line per row (DejaVu Sans' line is 1.164 em).
    block, spacing = 5, rh - 1.164 * fs
    items = [f"stroke none font-size {fs} interline-spacing {spacing:.2f}"]
    for (cx, cw) in cols:
        n = max(2, int(cw / (fs * 0.6)))
        cells = [words(r, 1)[:n]]  # the header row
        for _ in range(rows - 1):
            if r.random() < 0.25:
                cells.append("")
            elif r.random() < 0.8:
                cells.append(f"{r.uniform(0, 10 ** r.randrange(1, 6)):,.{r.choice([0, 2])}f}"[:n])
            else:
                cells.append(words(r, 1)[:n])
        for b in range(0, rows, block):
            txt = "\n".join(cells[b:b + block])
            if txt.strip():
                items.append(f"fill '{'#334' if b == 0 else '#111'}' text {cx + 4},{-m + b * rh + rh * 0.76:.1f} '{txt}'")
    for k in range(0, len(items), 300):
        s.add((items[0] + "\n" if k else "") + "\n".join(items[k:k + 300]))
    return ["-size", f"{W}x{H}", "xc:white", "-font", "DejaVu-Sans"] + s.draw_args(), (400, 0.05)


def k_brick(r, tmp):
    s = Scene(r, 6)
    bh = r.choice([36, 50, 70, 100])
    bw = bh * r.uniform(2.0, 2.7)
    g = max(3, int(bh * r.uniform(0.1, 0.2)))
    base = r.choice([(150, 70, 50), (170, 100, 70), (120, 110, 100), (190, 160, 110), (100, 45, 35)])
    mortar = r.choice([(200, 195, 185), (150, 145, 140), (90, 90, 90)])
    m = s.margin
    items = []
    y, row = -m, 0
    while y < H + m:
        x = -m - (bw / 2 if row % 2 else 0) - r.uniform(0, bw * 0.1)
        while x < W + m:
            items.append(f"fill '{jitter(r, base, 28)}' " + rect(x + g / 2, y + g / 2, x + bw - g / 2, y + bh - g / 2))
            x += bw
        y += bh; row += 1
    for i in range(0, len(items), 500):
        s.add("\n".join(items[i:i + 500]))
    return ["-size", f"{W}x{H}", f"xc:{rgb(mortar)}"] + s.draw_args(), (int(bh * 0.7), 0.15)


def k_tiles(r, tmp):
    s = Scene(r, 8)
    style = r.choice(["plain", "two", "mosaic", "diag"])
    t = r.choice([40, 60, 90, 140, 220] if style != "diag" else [90, 140, 220])
    g = max(2, int(t * r.uniform(0.04, 0.1)))
    pal = [(235, 235, 230), (60, 90, 130), (200, 180, 150), (40, 40, 40), (120, 160, 140), (180, 70, 60)]
    a, b = r.sample(pal, 2)
    grout = r.choice([(210, 210, 205), (120, 120, 120), (60, 60, 60)])
    m = s.margin + (1100 if style == "diag" else 0)
    if style == "diag":
        s.angle += 45
    items = []
    y, j = -m, 0
    while y < H + m:
        x, i = -m, 0
        while x < W + m:
            c = (a if style == "plain" else (a if (i + j) % 2 else b) if style in ("two", "diag")
                 else r.choice(pal))
            items.append(f"fill '{jitter(r, c, 12)}' " + rect(x + g / 2, y + g / 2, x + t - g / 2, y + t - g / 2))
            x += t; i += 1
        y += t; j += 1
    for k in range(0, len(items), 500):
        s.add("\n".join(items[k:k + 500]))
    return ["-size", f"{W}x{H}", f"xc:{rgb(grout)}"] + s.draw_args(), (300, 0.06)


def fabric_tile(r, path):
    """One repeat of a woven cloth as a PPM: threads `p` px wide, each lighter at its middle, warp
    (vertical) over weft where the weave says so; stripes or plaid from colour sequences."""
    p = r.choice([3, 4, 5, 6, 8])
    weave = r.choice(["plain", "twill", "basket"])
    n = 24  # threads per repeat (a multiple of every weave's period)
    pal = [(40, 50, 90), (180, 170, 150), (120, 30, 40), (30, 80, 50), (210, 205, 195), (60, 60, 60), (200, 150, 60)]
    style = r.choice(["stripes", "plaid", "plaid"])  # crossing stripes: plaid, or striped warp on a plain weft
    c1, c2, c3 = r.sample(pal, 3)
    seq, k = [], 0
    while len(seq) < n:
        seq += [(c1, c2, c3)[k % 3]] * r.choice([1, 2, 3, 4, 6]); k += 1
    warp = seq[:n]
    weft = warp if style == "plaid" else [c2] * n
    size = n * p
    prof = [0.7 + 0.3 * math.sin(math.pi * (k + 0.5) / p) for k in range(p)]
    rows = []
    for y in range(size):
        j, py = divmod(y, p)
        row = bytearray()
        for x in range(size):
            i, px = divmod(x, p)
            over = {"plain": (i + j) % 2 == 0, "twill": (i + j) % 4 < 2, "basket": (i // 2 + j // 2) % 2 == 0}[weave]
            c, f = (warp[i], prof[px]) if over else (weft[j], prof[py])
            row += bytes(max(0, min(255, int(v * f))) for v in c)
        rows.append(bytes(row))
    with open(path, "wb") as fh:
        fh.write(f"P6 {size} {size} 255\n".encode() + b"".join(rows))


def k_fabric(r, tmp):
    tile = os.path.join(tmp, "fabric.ppm")
    fabric_tile(r, tile)
    # Half square to the camera, half at a slant; folds come from the common light and shade.
    turn = ["-virtual-pixel", "tile", "-distort", "SRT", f"{r.uniform(-12, 12):.2f}"] if r.random() < 0.5 else []
    return (["-size", f"{W}x{H}", f"tile:{tile}"] + turn,
            (r.choice([250, 400, 700]), 0.25))


def k_foliage(r, tmp):
    """Leaves, clumps and shadows: noise at three scales, made at half size (the finest is 3 px),
    then stretched and given hard edges and greens."""
    scales = sorted(r.sample([3, 6, 14, 30, 70, 160], 3))
    w, h = W // 2, H // 2
    args = ["-size", f"{max(2, W // scales[-1])}x{max(2, H // scales[-1])}", "xc:", "-seed", str(r.randrange(1 << 30)),
            "+noise", "Random", "-colorspace", "Gray", "-resize", f"{w}x{h}!"]
    for sc in scales[:-1]:
        args += grain(r, max(1, sc // 2), r.uniform(0.2, 0.45), w, h)
    dark, light = r.choice([("#0c2008", "#8fbf3a"), ("#1a2a10", "#c8d86a"), ("#102818", "#6fa860"),
                            ("#2a1a08", "#d09a40")])
    return (args + ["-filter", "Triangle", "-resize", f"{W}x{H}!", "-sigmoidal-contrast", f"{r.choice([6, 9, 12])}x50%",
                    "-colorspace", "sRGB", "+level-colors", f"{dark},{light}"], (400, 0.1))


def k_facade(r, tmp):
    """One to three buildings side by side, window grids seen from the street (the top
    narrower), each window a frame with two to six panes, lit or dark."""
    items = []
    sky = r.choice([(170, 195, 225), (200, 205, 210), (235, 235, 240)])
    n = r.choice([1, 2, 3])
    edges = sorted([0] + [r.uniform(0.25, 0.75) * W for _ in range(n - 1)] + [W])
    for b in range(n):
        x0, x1 = edges[b] - 10, edges[b + 1] + 10
        top = r.uniform(-200, 600)
        lean = r.uniform(0.03, 0.12) * (x1 - x0)  # top narrower: looking up at it
        A, B = (x0 + lean, top), (x1 - lean, top)
        C, D = (x1 + 40, H + 40), (x0 - 40, H + 40)
        wall = r.choice([(190, 175, 150), (140, 135, 130), (160, 90, 70), (215, 210, 200), (90, 95, 100)])

        def P(u, v):
            return ((1 - u) * (1 - v) * A[0] + u * (1 - v) * B[0] + u * v * C[0] + (1 - u) * v * D[0],
                    (1 - u) * (1 - v) * A[1] + u * (1 - v) * B[1] + u * v * C[1] + (1 - u) * v * D[1])

        items.append(f"fill '{rgb(wall)}' " + poly([A, B, C, D]))
        cols, floors = r.randrange(5, 22), r.randrange(6, 20)
        ww, wh = r.uniform(0.45, 0.7), r.uniform(0.45, 0.7)
        panes = r.choice([(1, 2), (2, 2), (2, 3), (3, 2)])
        frame = r.choice(["#f0f0f0", "#303030", "#705030"])
        for fl in range(floors):
            for c in range(cols):
                u0 = (c + (1 - ww) / 2) / cols; u1 = u0 + ww / cols
                v0 = (fl + (1 - wh) / 2) / floors; v1 = v0 + wh / floors
                items.append(f"fill '{frame}' " + poly([P(u0, v0), P(u1, v0), P(u1, v1), P(u0, v1)]))
                glass = r.choice([(40, 50, 65), (70, 85, 100), (120, 140, 160), (230, 200, 120)])
                fu, fv = 0.08 * (u1 - u0), 0.08 * (v1 - v0)
                nx, ny = panes
                for a in range(nx):
                    for b_ in range(ny):
                        pu0 = u0 + fu + a * (u1 - u0 - fu) / nx; pu1 = u0 + (a + 1) * (u1 - u0 - fu) / nx
                        pv0 = v0 + fv + b_ * (v1 - v0 - fv) / ny; pv1 = v0 + (b_ + 1) * (v1 - v0 - fv) / ny
                        items.append(f"fill '{jitter(r, glass, 10)}' " + poly([P(pu0, pv0), P(pu1, pv0), P(pu1, pv1), P(pu0, pv1)]))
            if r.random() < 0.3:  # a ledge under the floor's windows
                v = (fl + 1) / floors - 0.02
                items.append(f"fill '#5a5a5a' " + poly([P(0, v), P(1, v), P(1, v + 0.008), P(0, v + 0.008)]))
    draw = []
    for k in range(0, len(items), 500):
        draw += ["-draw", "\n".join(items[k:k + 500])]
    return ["-size", f"{W}x{H}", f"xc:{rgb(sky)}"] + draw, (60, 0.08)


def finder(cx, cy, u, ang, dark, light):
    """A QR-finder-like mark: 7x7 dark, 5x5 light, 3x3 dark (the 1:1:3:1:1 ratio scanners seek)."""
    return (f"push graphic-context\ntranslate {cx:.1f},{cy:.1f} rotate {ang:.1f}\n"
            f"fill '{dark}' " + rect(-3.5 * u, -3.5 * u, 3.5 * u, 3.5 * u) + "\n"
            f"fill '{light}' " + rect(-2.5 * u, -2.5 * u, 2.5 * u, 2.5 * u) + "\n"
            f"fill '{dark}' " + rect(-1.5 * u, -1.5 * u, 1.5 * u, 1.5 * u) + "\npop graphic-context")


def k_finder(r, tmp):
    s = Scene(r, 10)
    bg = r.choice([(235, 232, 225), (200, 190, 170), (245, 245, 245), (170, 180, 190)])
    dark = rgb(r.choice([(20, 20, 20), (40, 30, 60), (60, 20, 20)]))
    light = rgb(bg)
    style = r.choice(["scatter", "triplets", "tiles"])
    m = s.margin
    if style == "tiles":
        # Nested-square tiles: rings alternating dark and light, a finder in the middle of each.
        t = r.choice([120, 180, 260])
        rings = r.choice([3, 4, 5])
        y = -m
        while y < H + m:
            x = -m
            while x < W + m:
                for k in range(rings):
                    inset = k * t / (2 * rings + 1)
                    s.add(f"fill '{dark if k % 2 == 0 else light}' " + rect(x + inset, y + inset, x + t - inset, y + t - inset))
                x += t
            y += t
    else:
        for _ in range(r.randrange(40, 160) if style == "scatter" else r.randrange(8, 30)):
            u = r.choice([3, 4, 6, 9, 14, 22, 30])
            cx, cy, ang = r.uniform(-m, W + m), r.uniform(-m, H + m), r.uniform(-30, 30)
            if style == "scatter":
                s.add(finder(cx, cy, u, ang, dark, light))
                continue
            # Three marks in an L, as a QR code's, with a field of random modules between them
            # one time in three: a code-shaped thing that is not a code.
            side = r.choice([21, 25, 29, 33]) * u
            a = math.radians(ang)
            ex, ey, fx, fy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
            pts = [(0, 0), (side - 7 * u, 0), (0, side - 7 * u)]
            for px, py in pts:
                s.add(finder(cx + (px + 3.5 * u) * ex + (py + 3.5 * u) * fx,
                             cy + (px + 3.5 * u) * ey + (py + 3.5 * u) * fy, u, ang, dark, light))
            if r.random() < 0.33:
                mods = [f"push graphic-context\ntranslate {cx:.1f},{cy:.1f} rotate {ang:.1f}\nfill '{dark}'"]
                nmod = side // u
                for i in range(nmod):
                    for j in range(nmod):
                        if (i < 8 and j < 8) or (i >= nmod - 8 and j < 8) or (i < 8 and j >= nmod - 8):
                            continue
                        if r.random() < 0.5:
                            mods.append(rect(i * u, j * u, (i + 1) * u, (j + 1) * u))
                mods.append("pop graphic-context")
                s.add("\n".join(mods))
    return ["-size", f"{W}x{H}", f"xc:{light}"] + s.draw_args(), (120, 0.1)


def k_checker(r, tmp):
    s = Scene(r, 15)
    style = r.choice(["target", "floor", "gingham"])
    m = s.margin
    items = []
    if style == "target":  # a calibration chessboard on a desk
        q = r.choice([60, 90, 140, 220])
        nx, ny = r.randrange(7, 14), r.randrange(5, 10)
        x0, y0 = W / 2 - nx * q / 2, H / 2 - ny * q / 2
        s.add("fill white " + rect(x0 - q * 0.6, y0 - q * 0.6, x0 + (nx + 0.6) * q, y0 + (ny + 0.6) * q))
        ink = "fill '#111'"
        for j in range(ny):
            for i in range(nx):
                if (i + j) % 2 == 0:
                    items.append(rect(x0 + i * q, y0 + j * q, x0 + (i + 1) * q, y0 + (j + 1) * q))
        bg = r.choice(["#6b5a48", "#50555a", "#9a8a70"])
    elif style == "floor":
        q = r.choice([80, 120, 200])
        ink = f"fill '{r.choice(['#1a1a1a', '#3a2a20', '#203040'])}'"
        y, j = -m, 0
        while y < H + m:
            x, i = -m, 0
            while x < W + m:
                if (i + j) % 2 == 0:
                    items.append(rect(x, y, x + q, y + q))
                x += q; i += 1
            y += q; j += 1
        bg = r.choice(["#e8e4dc", "#d0d0d0"])
    else:  # gingham: stripes of a colour at half strength across and down, on a tile
        q = r.choice([12, 20, 32, 50])
        col = r.choice([(176, 32, 48), (32, 64, 160), (32, 112, 64), (48, 48, 48)])
        bgc = (244, 242, 236)
        tone = [tuple(int(b_ + (c - b_) * f) for b_, c in zip(bgc, col)) for f in (0, 0.5, 0.75)]
        rows = []
        for y in range(2 * q):
            rows.append(b"".join(bytes(tone[(x < q) + (y < q)]) for x in range(2 * q)))
        tile = os.path.join(tmp, "gingham.ppm")
        with open(tile, "wb") as fh:
            fh.write(f"P6 {2 * q} {2 * q} 255\n".encode() + b"".join(rows))
        return (["-size", f"{W}x{H}", f"tile:{tile}", "-virtual-pixel", "tile", "-distort", "SRT", f"{s.angle:.2f}"],
                (r.choice([250, 400]), 0.2))
    for k in range(0, len(items), 500):
        s.add(ink + "\n" + "\n".join(items[k:k + 500]))
    return ["-size", f"{W}x{H}", f"xc:{bg}"] + s.draw_args(), (300, 0.06)


def make(outdir, count, seed, jobs=2):
    os.makedirs(outdir, exist_ok=True)
    stamp = os.path.join(outdir, "truth.json")
    if os.path.exists(stamp):
        t = json.load(open(stamp))
        if t.get("count") == count and t.get("seed") == seed and t.get("version") == VERSION:
            print(f"textured: cached in {outdir}", file=sys.stderr)
            return
        os.unlink(stamp)
    for f in os.listdir(outdir):  # a set made by another version or count
        if f.startswith("tex"):
            os.unlink(os.path.join(outdir, f))
    tmp = os.path.join(outdir, ".tmp")
    os.makedirs(tmp, exist_ok=True)
    truth = {"count": count, "seed": seed, "version": VERSION, "images": {}, "kinds": {}}
    t0 = time.monotonic()
    # Two images at a time (most ImageMagick steps use one core); each has a seed of its own, so
    # the set does not depend on the order they are made in.
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for k, (name, kind) in enumerate(pool.imap(one, [(outdir, tmp, seed, i) for i in range(count)])):
            truth["images"][name] = []
            truth["kinds"][name] = kind
            print(f"textured: {k + 1}/{count} {name} ({time.monotonic() - t0:.0f} s)", file=sys.stderr, end="\r")
    shutil.rmtree(tmp)
    json.dump(truth, open(stamp, "w"), indent=1)
    print(file=sys.stderr)


def one(job):
    outdir, tmp, seed, i = job
    kind = KINDS[i % len(KINDS)]
    r = random.Random(seed * 1009 + i)  # a seed of its own per image
    tmp = os.path.join(tmp, str(i))
    os.makedirs(tmp, exist_ok=True)
    args, (shade_scale, shade_contrast) = globals()["k_" + kind](r, tmp)
    # Light and shade in one pass: blotches of about shade_scale px (folds, weathering, dirt),
    # times uneven light darker towards the corners, made at 400x300 and stretched.
    post = ["(", "-size", f"{max(2, W // shade_scale)}x{max(2, H // shade_scale)}", "xc:",
            "-seed", str(r.randrange(1 << 30)), "+noise", "Random", "-colorspace", "Gray",
            "-resize", "400x300!", "+level", f"{100 - 200 * shade_contrast:.0f}%,100%"]
    if r.random() < 0.6:
        post += ["(", "-size", "400x300", f"radial-gradient:white-gray{r.choice([55, 65, 75])}", ")",
                 "-compose", "Multiply", "-composite"]
    post += ["-filter", "Triangle", "-resize", f"{W}x{H}!", ")", "-compose", "Multiply", "-composite"]
    sigma = r.choice([0, 0, 0.6, 0.8, 1.1])  # a little soft, or sharp
    if sigma:
        post += ["-blur", f"0x{sigma}"]
    post += ["-seed", str(r.randrange(1 << 30)), "-attenuate", str(r.choice([0.2, 0.3, 0.5])), "+noise", "Gaussian"]
    rotated = r.random() < 0.2  # stored rotated with Orientation 6, as phones do
    if rotated:
        post += ["-rotate", "-90"]
    name = f"tex{i:04d}-{kind}.jpg"
    out = os.path.join(outdir, name)
    run(CONVERT, *args, *post, "-colorspace", "sRGB", "-quality", r.choice([84, 88, 92]), out)
    if rotated:
        run("exiftool", "-q", "-overwrite_original", "-Orientation#=6", out)
    return name, kind


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    make(a.outdir, a.count, a.seed, a.jobs)


if __name__ == "__main__":
    main()
