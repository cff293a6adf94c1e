#!/usr/bin/env python3
"""The decode floor of a folder's HEIC photos (issue 39's throughput target): CPU seconds to
decode them through codesweep (MagickWand, `--timings` decode summed) and through libheif
directly (ctypes, libheif.so.1: YCbCr 4:2:0 with no colour conversion, and interleaved RGB),
beside the CPU-seconds budget a throughput ratio against zbarimg allows on N cores.

HEVC has no reduced-size decode (unlike a JPEG's DCT scaling): whatever reads a HEIC photo pays
for the whole picture. Prints figures; asserts nothing.

usage: heic_floor.py [--bin .build/release/codesweep] [--zbarimg-seconds S --ratio R --cores N] DIR
"""
import argparse, ctypes, glob, json, os, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class HeifError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("subcode", ctypes.c_int), ("message", ctypes.c_char_p)]


def libheif_cpu(files, colorspace, chroma):
    h = ctypes.CDLL("libheif.so.1")
    h.heif_context_alloc.restype = ctypes.c_void_p
    h.heif_context_read_from_file.restype = HeifError
    h.heif_context_read_from_file.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    h.heif_context_get_primary_image_handle.restype = HeifError
    h.heif_context_get_primary_image_handle.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    h.heif_decode_image.restype = HeifError
    h.heif_decode_image.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    for f in ("heif_image_release", "heif_image_handle_release", "heif_context_free"):
        getattr(h, f).argtypes = [ctypes.c_void_p]
    t0 = time.process_time()
    for path in files:
        ctx = h.heif_context_alloc()
        handle, image = ctypes.c_void_p(), ctypes.c_void_p()
        for err in (h.heif_context_read_from_file(ctx, path.encode(), None),
                    h.heif_context_get_primary_image_handle(ctx, ctypes.byref(handle)),
                    h.heif_decode_image(handle, ctypes.byref(image), colorspace, chroma, None)):
            if err.code:
                sys.exit(f"libheif: {path}: {err.message.decode()}")
        h.heif_image_release(image)
        h.heif_image_handle_release(handle)
        h.heif_context_free(ctx)
    return time.process_time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/codesweep"))
    ap.add_argument("--zbarimg-seconds", type=float, help="zbarimg's wall time on the whole set (bench/throughput/run.py)")
    ap.add_argument("--ratio", type=float, default=8)
    ap.add_argument("--cores", type=int, default=os.cpu_count())
    ap.add_argument("dir")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.dir, "*.heic")) + glob.glob(os.path.join(a.dir, "*.HEIC")))
    if not files:
        sys.exit(f"no .heic files in {a.dir}")
    out = subprocess.run([a.bin, "scan", "--effort", "fast", "--jobs", "1", "--timings", *files],
                         capture_output=True, text=True, check=False)
    decode = sum(json.loads(l).get("timings_ms", {}).get("decode", 0) for l in out.stdout.splitlines() if l.strip()) / 1000
    print(f"{len(files)} HEIC photos from {a.dir}")
    print(f"  codesweep (MagickWand) decode: {decode:.2f} CPU-s (--timings, one process)")
    print(f"  libheif, YCbCr 4:2:0:          {libheif_cpu(files, 0, 1):.2f} CPU-s")
    print(f"  libheif, interleaved RGB:      {libheif_cpu(files, 1, 10):.2f} CPU-s")
    if a.zbarimg_seconds:
        budget = a.zbarimg_seconds / a.ratio * a.cores
        print(f"  budget for {a.ratio:g}x zbarimg's {a.zbarimg_seconds:g} s on {a.cores} cores: {budget:.2f} CPU-s for the whole set")


if __name__ == "__main__":
    main()
