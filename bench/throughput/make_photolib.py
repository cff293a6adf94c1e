#!/usr/bin/env python3
"""Generate a deterministic photo-library-like benchmark set (seeded; cached).

usage: make_photolib.py OUTDIR [--count N] [--seed S] [--textured N [--textured-dir DIR]]

About 70 % of the images hold no code (photo-like scenes: seeded plasma/noise textures, some
with text), the rest carry a QR code or a linear code of varied size composited into the
scene, half of them at a slant (5-20 degrees) in a slightly soft photo (blur sigma 0.6-1.2).
Most are 12 MP JPEGs (4000x3000, some with EXIF orientation 6), plus a few HEIC photos and PNG
screenshots. truth.json lists the payloads each image holds.
Needs /usr/bin/convert (ImageMagick 6), qrencode, zint and exiftool.

--textured N also makes N textured negatives (textured.py: 12 MP photos of text, grids, walls,
fabric, foliage, facades, finder-like squares and checkerboards, no code in any) in a folder of
their own (default OUTDIR-textured, with its own truth.json), so the set itself stays as it is.
"""
import argparse, json, os, random, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import textured  # noqa: E402

CONVERT = "/usr/bin/convert"
VERSION = 5  # bump when the generator changes: the cached set is made again


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def scene(path, rnd, w, h):
    seed = rnd.randrange(1 << 30)
    # A smooth "photo" (random colour field blown up with a Gaussian filter) with sensor-like
    # noise: cheap to make, and as costly to scan as a real photo (noise is what ZBar pays for).
    run(CONVERT, "-seed", str(seed), "-size", f"{rnd.choice([8, 12, 16])}x{rnd.choice([6, 9, 12])}", "xc:",
        "+noise", "Random", "-filter", "Gaussian", "-resize", f"{w}x{h}!",
        "-attenuate", str(rnd.choice([0.2, 0.3, 0.5])), "+noise", "Gaussian", "-colorspace", "sRGB", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--textured", type=int, default=0, metavar="N", help="also make N textured negatives")
    ap.add_argument("--textured-dir", help="their folder (default: OUTDIR-textured)")
    a = ap.parse_args()
    if a.textured:
        textured.make(a.textured_dir or a.outdir.rstrip("/") + "-textured", a.textured, textured.SEED)
    os.makedirs(a.outdir, exist_ok=True)
    stamp = os.path.join(a.outdir, "truth.json")
    if os.path.exists(stamp):
        t = json.load(open(stamp))
        if t.get("count") == a.count and t.get("seed") == a.seed and t.get("version") == VERSION:
            print(f"photolib: cached in {a.outdir}", file=sys.stderr)
            return
    for f in os.listdir(a.outdir):  # a set made by another version or count
        if f.startswith("img"):
            os.unlink(os.path.join(a.outdir, f))
    rnd = random.Random(a.seed)
    truth = {"count": a.count, "seed": a.seed, "version": VERSION, "images": {}}
    tmp = os.path.join(a.outdir, ".tmp")
    os.makedirs(tmp, exist_ok=True)
    for i in range(a.count):
        kind = rnd.random()
        has_code = rnd.random() < 0.30
        fmt = "jpg"
        w, h = 4000, 3000
        if kind < 0.10:
            fmt = "heic"
        elif kind < 0.20:
            fmt, w, h = "png", 1920, 1080  # screenshot-like
        name = f"img{i:04d}.{fmt}"
        out = os.path.join(a.outdir, name)
        base = os.path.join(tmp, "base.miff")
        scene(base, rnd, w, h)
        payloads = []
        layers = []
        post = []
        if has_code:
            if rnd.random() < 0.7:
                text = f"https://example.com/p/{rnd.randrange(10**8):08d}"
                # From a code across the room (3 px modules) to a close-up of a ticket or poster
                # that fills most of the frame (60-80 px modules, softened as a phone's close
                # focus does).
                module = rnd.choice([3, 4, 6, 10, 16, 60, 80])
                code = os.path.join(tmp, "code.png")
                run("qrencode", "-s", str(module), "-m", "4", "-o", code, text)
                if module >= 60:
                    run(CONVERT, code, "-blur", "0x6", code)
            else:
                digits = "".join(str(rnd.randrange(10)) for _ in range(12))
                text = None
                code = os.path.join(tmp, "code.png")
                run("zint", "-b", "13", "--scale", str(rnd.choice([2, 3, 4])), "-o", code, "-d", digits)
                # zint prints the check digit in its own reading; ask zbarimg-independent truth:
                s = sum(int(c) * (3 if k % 2 else 1) for k, c in enumerate(digits))
                text = digits + str((10 - s % 10) % 10)
            payloads.append(text)
            # Half the codes as a hand-held phone records them: at a slant and a little soft. A
            # seed of its own per image, so the scenes and the other images stay as they were.
            cam = random.Random(a.seed * 1000 + i)
            if cam.random() < 0.5:
                run(CONVERT, code, "-background", "white", "-rotate", str(cam.randrange(5, 21)), code)
                post = ["-blur", f"0x{cam.choice([0.6, 0.8, 1.0, 1.2])}"]
            size = lambda: map(int, subprocess.run(["/usr/bin/identify", "-format", "%w %h", code], check=True,
                                                   capture_output=True, text=True).stdout.split())
            cw, ch = size()
            if cw > 0.9 * w or ch > 0.9 * h:  # a close-up still fits in the frame
                run(CONVERT, code, "-resize", f"{int(0.9 * w)}x{int(0.9 * h)}", code)
                cw, ch = size()
            x, y = rnd.randrange(0, max(1, min(w // 2, w - cw))), rnd.randrange(0, max(1, min(h // 2, h - ch)))
            layers = [code, "-geometry", f"+{x}+{y}", "-composite"]
        elif rnd.random() < 0.3:
            # Code-like texture without a code: text lines.
            # A font named, not ImageMagick's default (Helvetica needs Ghostscript's fonts).
            layers = ["-font", "DejaVu-Sans", "-fill", "black", "-pointsize", str(rnd.choice([30, 48, 64])), "-annotate",
                      f"+{rnd.randrange(100, w // 2)}+{rnd.randrange(100, h // 2)}",
                      "Lorem ipsum dolor sit amet\nconsectetur adipiscing elit\n0123456789 ABCDEF"]
        args = [CONVERT, base] + layers + post
        if fmt == "jpg":
            args += ["-quality", "88", out]
        elif fmt == "heic":
            args += ["-quality", "60", out]
        else:
            args += ["-define", "png:exclude-chunks=date,time", out]
        run(*args)
        if fmt == "jpg" and rnd.random() < 0.2:
            # Stored rotated with Orientation 6, as phones do.
            run(CONVERT, out, "-rotate", "-90", out)
            run("exiftool", "-q", "-overwrite_original", "-Orientation#=6", out)
        truth["images"][name] = payloads
        print(f"photolib: {i + 1}/{a.count} {name}", file=sys.stderr, end="\r")
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    json.dump(truth, open(stamp, "w"), indent=1)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
