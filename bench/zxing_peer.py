#!/usr/bin/env python3
"""zxing-cpp 3.1 (PyPI) as the peer, read the way its Python users read: each file opened with
Pillow, converted to grey, `zxingcpp.read_barcodes` with its default options, in N processes.
Writes JSON Lines that the shared scorer (../shared/bench/score.py) reads, one line per file, and
prints the wall and CPU seconds it took. Files Pillow cannot open get an "error" line.

  python3 bench/zxing_peer.py FOLDER OUT.jsonl [--jobs 2] [--formats QRCode,DataMatrix]
"""
import argparse, base64, json, os, resource, sys, time
from multiprocessing import Pool

EXTS = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".pgm", ".ppm")


def read(args):
    path, formats = args
    import zxingcpp
    from PIL import Image
    try:
        img = Image.open(path).convert("L")
    except Exception as e:  # noqa: BLE001 - the peer's failure is recorded, not raised
        return {"path": path, "error": str(e), "codes": []}
    kw = {"formats": formats} if formats else {}
    codes = []
    for r in zxingcpp.read_barcodes(img, **kw):
        codes.append({"symbology": r.format.name, "text": r.text, "bytes_b64": base64.b64encode(r.bytes).decode(),
                      "sequence_index": r.sequence_index if hasattr(r, "sequence_index") else None})
    return {"path": path, "codes": codes}


def files(folder):
    out = []
    for d, _, names in os.walk(folder):
        out += [os.path.join(d, n) for n in names if n.lower().endswith(EXTS)]
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("out")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--formats", default="")
    a = ap.parse_args()
    import zxingcpp
    formats = None
    if a.formats:
        formats = [getattr(zxingcpp.BarcodeFormat, f) for f in a.formats.split(",")]
    todo = [(f, formats) for f in files(a.folder)]
    t0, c0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    with Pool(a.jobs) as pool:
        results = pool.map(read, todo, chunksize=4)
    wall = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    with open(a.out, "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    print(f"zxing-cpp {zxingcpp.__version__ if hasattr(zxingcpp, '__version__') else '3.1'}: {len(todo)} files, wall {wall:.1f} s, cpu {cpu:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
