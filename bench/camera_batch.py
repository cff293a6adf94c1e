#!/usr/bin/env python3
"""A held-out check for small QR codes in phone photos: 24 seeded 12 MP shots, each one QR code
with 2-3 px modules at a random place, tilted 0-20 degrees and blurred (sigma 0.6-1.4) as a
camera's optics do. Not used to tune the scan plan (the hard set was); it checks that what was
tuned there holds on shots made another way. Prints codes found by codesweep and by zbarimg.

  python3 bench/camera_batch.py [--bin .build/release/codesweep] [--out bench-out/camera-batch] [--effort normal]
"""
import argparse, os, random, subprocess

CONVERT = "/usr/bin/convert"


def run(*args):
    subprocess.run([str(a) for a in args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--out", default="bench-out/camera-batch")
    ap.add_argument("--effort", default="normal")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    bg = os.path.join(a.out, "background.miff")
    if not os.path.exists(bg):
        run(CONVERT, "-seed", 101, "-size", "200x150", "plasma:fractal", "-blur", "0x1", "-resize", "4000x3000!",
            "-attenuate", 0.5, "+noise", "Gaussian", "-depth", 8, bg)
    r = random.Random(5)
    shots = []
    for i in range(24):
        mod, tilt, blur = r.choice([2, 3, 3]), r.randrange(0, 20), r.choice([0.6, 0.8, 1.0, 1.2, 1.4])
        x, y = r.randrange(200, 3500), r.randrange(200, 2600)
        text = f"https://ex.am/t/{i:02d}-ABCDEFGHJKLMNPQRST"
        path = os.path.join(a.out, f"b{i:02d}-m{mod}-t{tilt}-b{blur}.jpg")
        if not os.path.exists(path):
            code = os.path.join(a.out, "code.png")
            run("qrencode", "-o", code, "-s", mod, "-m", 2, "-l", "M", "--", text)
            run(CONVERT, bg, "(", code, "-background", "white", "-rotate", tilt, ")", "-geometry", f"+{x}+{y}",
                "-composite", "-blur", f"0x{blur}", "-quality", 85, path)
        shots.append((path, text))
    found_cs = found_zb = 0
    for path, text in shots:
        cs = subprocess.run([a.bin, "scan", "-q", "--effort", a.effort, "--format", "csv", path], capture_output=True).stdout
        zb = subprocess.run(["zbarimg", "-q", "--raw", path], capture_output=True).stdout
        hit_cs, hit_zb = text.encode() in cs, text.encode() in zb
        found_cs += hit_cs
        found_zb += hit_zb
        print(f"{os.path.basename(path):28} codesweep {'yes' if hit_cs else 'no ':3}  zbarimg {'yes' if hit_zb else 'no'}")
    print(f"camera batch: codesweep --effort {a.effort} {found_cs}/24, zbarimg {found_zb}/24")


if __name__ == "__main__":
    main()
