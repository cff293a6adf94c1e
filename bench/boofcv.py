#!/usr/bin/env python3
"""BoofCV QR recall benchmark (`make bench-boofcv`): real phone photos of QR codes, per category,
codesweep at each effort level against zxing-cpp 3.1 (the peer), scored by the shared
boofcv_score.py (a labelled code counts as found when a decoded QR's corner quad lands on it).
Prints figures; asserts nothing.

  python3 bench/boofcv.py [--bin .build/release/codesweep] [--efforts normal] [--jobs 2]
                          [--corpus ../shared/corpus/boofcv-dev] [--out bench-out/boofcv] [--no-peer]

The corpus and the scorer live outside the repository (../shared, next to the clone); without
them the script says so and exits 2. The peer needs `pip install "zxing-cpp==3.1.*" pillow`;
its results are cached in OUT, keyed by the zxing-cpp version and the corpus (file names, sizes
and times), so it runs once. Times are wall seconds and CPU seconds (user+sys of the child
processes, from getrusage); the machine is shared, so they are noisy.
"""
import argparse, hashlib, json, os, resource, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "boofcv-dev")
SCORE = os.path.join(ROOT, "..", "shared", "bench", "boofcv_score.py")
IMAGE_EXT = (".jpg", ".jpeg", ".png")
PEER = "zxing-cpp 3.1"


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def list_images(corpus):
    files = []
    for d, dirs, fs in os.walk(corpus):
        dirs.sort()
        files += [os.path.relpath(os.path.join(d, f), corpus) for f in sorted(fs) if f.lower().endswith(IMAGE_EXT)]
    return files


def run_codesweep(binary, effort, jobs, corpus, out):
    cpu0, t0 = child_cpu(), time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run([binary, "scan", "-q", "--effort", effort, "--jobs", str(jobs), corpus],
                           stdout=f, stderr=subprocess.PIPE)
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    if p.returncode not in (0, 1):  # 1: some file failed, still a full report
        sys.exit(f"codesweep --effort {effort} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    return wall, cpu


# --- the peer: zxing-cpp, one image per task in a process pool ---------------------------------

def peer_one(args):
    corpus, rel = args
    import zxingcpp
    from PIL import Image, ImageOps
    try:
        with Image.open(os.path.join(corpus, rel)) as im:
            img = ImageOps.exif_transpose(im).convert("L")  # corners in the upright frame, as codesweep's
        found = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)
    except Exception as e:  # a file the peer cannot read is a miss, not a crash of the benchmark
        return rel, [], f"{type(e).__name__}: {e}"
    recs = []
    for b in found:
        p = b.position
        recs.append({"path": rel, "format": str(b.format), "text": b.text,
                     "corners": [[q.x, q.y] for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]})
    return rel, recs, None


def corpus_key(corpus, files):
    h = hashlib.sha1(os.path.realpath(corpus).encode())
    for rel in files:
        st = os.stat(os.path.join(corpus, rel))
        h.update(f"\0{rel}\0{st.st_size}\0{int(st.st_mtime)}".encode())
    return h.hexdigest()[:12]


def run_peer(corpus, files, jobs, outdir):
    """zxing-cpp's reads in the scorer's peer form; returns (jsonl path, meta with wall/cpu)."""
    try:
        import importlib.metadata as md
        version = md.version("zxing-cpp")
        import zxingcpp, PIL  # noqa: F401  (fail here, not in the pool)
    except Exception as e:
        print(f"boofcv: peer skipped: {e} (pip install 'zxing-cpp==3.1.*' pillow)", file=sys.stderr)
        return None, None
    if not version.startswith("3.1"):
        print(f"boofcv: note: zxing-cpp {version} installed, the reference peer is 3.1.x", file=sys.stderr)
    key = f"zxingcpp-{version}-{corpus_key(corpus, files)}"
    out, meta_path = os.path.join(outdir, key + ".jsonl"), os.path.join(outdir, key + ".json")
    if os.path.exists(out) and os.path.exists(meta_path):
        meta = dict(json.load(open(meta_path)), cached=True)
        print(f"boofcv: zxing-cpp {version}: cached ({os.path.basename(out)})", file=sys.stderr)
        return out, meta
    import multiprocessing as mp
    print(f"boofcv: zxing-cpp {version} on {len(files)} images, {jobs} processes ...", file=sys.stderr)
    cpu0, t0 = child_cpu(), time.monotonic()
    errors = {}
    pool = mp.get_context("fork").Pool(jobs)
    try:
        results = pool.map(peer_one, [(corpus, rel) for rel in files], chunksize=1)
    finally:
        pool.close()
        pool.join()  # workers reaped: their CPU is now in RUSAGE_CHILDREN
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        for rel, recs, err in results:
            if err:
                errors[rel] = err
            for r in recs:
                f.write(json.dumps(r) + "\n")
    os.replace(tmp, out)
    meta = {"version": version, "images": len(files), "wall_s": wall, "cpu_s": cpu, "jobs": jobs, "errors": errors}
    json.dump(meta, open(meta_path, "w"), indent=1)
    return out, meta


def score(corpus, results):
    p = subprocess.run([sys.executable, SCORE, corpus, results, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"boofcv_score.py failed on {results}: {p.stderr[-400:]}")
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--out", default="bench-out/boofcv")
    ap.add_argument("--no-peer", action="store_true")
    a = ap.parse_args()
    corpus = os.path.normpath(a.corpus)
    if not os.path.isdir(corpus):
        print(f"boofcv: corpus not found: {corpus}\n"
              "  The BoofCV QR set lives outside the repository (../shared/corpus/boofcv-dev next to the\n"
              "  clone: category folders of photos, <image>.txt corner labels). Pass --corpus DIR.", file=sys.stderr)
        sys.exit(2)
    if not os.path.isfile(SCORE):
        print(f"boofcv: scorer not found: {os.path.normpath(SCORE)} (shared with the corpus)", file=sys.stderr)
        sys.exit(2)
    binary = a.bin
    if not os.path.isabs(binary) and not os.path.exists(binary) and os.path.exists(os.path.join(ROOT, binary)):
        binary = os.path.join(ROOT, binary)
    if not os.access(binary, os.X_OK):
        print(f"boofcv: no codesweep binary at {binary} (make release, or --bin PATH)", file=sys.stderr)
        sys.exit(2)
    os.makedirs(a.out, exist_ok=True)
    efforts = [e for e in a.efforts.split(",") if e]
    files = list_images(corpus)

    readers = []  # (column name, score json, wall, cpu)
    for e in efforts:
        out = os.path.join(a.out, f"codesweep-{e}.jsonl")
        print(f"boofcv: codesweep --effort {e} --jobs {a.jobs} on {len(files)} images ...", file=sys.stderr)
        wall, cpu = run_codesweep(binary, e, a.jobs, corpus, out)
        readers.append((f"codesweep {e}", score(corpus, out), wall, cpu, out))
    peer_meta = None
    if not a.no_peer:
        out, peer_meta = run_peer(corpus, files, a.jobs, a.out)
        if out:
            readers.append((PEER, score(corpus, out), peer_meta["wall_s"], peer_meta["cpu_s"], out))

    cats = sorted(readers[0][1]["categories"]) if readers else []
    w = max(16, *(len(r[0]) + 2 for r in readers))
    lines = [f"BoofCV QR recall: {corpus} ({len(files)} images), --jobs {a.jobs}; found/labelled codes"]
    hdr = f"{'category':<14}{'codes':>6}" + "".join(f"{r[0]:>{w}}" for r in readers)
    lines += [hdr, "-" * len(hdr)]
    for c in cats:
        n = readers[0][1]["categories"][c]["labelled"]
        row = f"{c:<14}{n:>6}"
        for r in readers:
            v = r[1]["categories"].get(c, {"found": 0})
            row += f"{v['found']:>{w}}"
        lines.append(row)
    lines.append("-" * len(hdr))
    if readers:
        tot = readers[0][1]["total"]["labelled"]
        lines.append(f"{'TOTAL':<14}{tot:>6}" + "".join(
            f"{'%d (%.1f %%)' % (r[1]['total']['found'], 100 * r[1]['total']['found'] / max(tot, 1)):>{w}}" for r in readers))
        lines.append(f"{'extra reads':<20}" + "".join(f"{r[1]['total']['extra']:>{w}}" for r in readers))
        lines.append(f"{'wall s':<20}" + "".join(f"{r[2]:>{w}.1f}" for r in readers))
        lines.append(f"{'CPU s':<20}" + "".join(f"{r[3]:>{w}.1f}" for r in readers))
    lines.append("extra reads: decoded QR codes matching no label (false or unlabelled).")
    if peer_meta:
        lines.append(f"peer: zxing-cpp {peer_meta['version']} from PyPI (Pillow decode + EXIF transpose + grey, QRCode only), "
                     f"{peer_meta['jobs']} processes" + (", times from the cached run" if peer_meta.get("cached") else "")
                     + (f"; {len(peer_meta['errors'])} unreadable files" if peer_meta["errors"] else ""))
    lines.append("Times are noisy on a shared machine; compare readers within one run.")
    text = "\n".join(lines)
    print("\n" + text)
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    summary = {"corpus": os.path.abspath(corpus), "images": len(files), "jobs": a.jobs, "binary": os.path.abspath(binary),
               "readers": {r[0]: {"score": r[1], "wall_s": round(r[2], 2), "cpu_s": round(r[3], 2),
                                  "results": os.path.abspath(r[4])} for r in readers}}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
