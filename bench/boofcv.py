#!/usr/bin/env python3
"""BoofCV QR recall benchmark (`make bench-boofcv`): real phone photos of QR codes, per category,
codesweep at each effort level against zxing-cpp 3.1 (the peer), scored by the shared
boofcv_score.py (a labelled code counts as found when a decoded QR's corner quad lands on it).
Prints figures; asserts nothing.

  python3 bench/boofcv.py [--bin .build/release/codesweep] [--efforts normal] [--jobs 2]
                          [--configs all,qr] [--corpus ../shared/corpus/boofcv-dev] [--out bench-out/boofcv]
                          [--categories a,b] [--images N] [--no-peer | --peer-cached]

Like with like: each configuration asks both tools for the same symbologies. `all`: codesweep's
default symbologies against zxing-cpp's default formats (every format it reads); `qr`: codesweep
`--symbologies qr` against zxing-cpp `formats=QRCode`. Both run by default, each timed in this run.

The corpus and the scorer live outside the repository (../shared, next to the clone); without
them the script says so and exits 2. The peer needs `pip install "zxing-cpp==3.1.*" pillow`.
It runs in every run, after codesweep, in as many processes as codesweep has jobs, so its wall
and CPU time are measured in the same run as codesweep's. Its reads are also kept in OUT, keyed
by the zxing-cpp version and the corpus (file names, sizes and times): --peer-cached takes reads
and times from the last such run instead of running it, and the output says so. Times are wall
seconds and CPU seconds (user+sys of the child processes, from getrusage); the machine is
shared, so they are noisy.

--categories and --images pick a quick subset (--images N: N photos spread evenly over the
chosen categories), scanned as a tree of symbolic links in OUT/subset.

With two or more efforts, each image's found codes at one effort are compared with the effort
below it (thorough must never read fewer labelled codes than normal on any image); the match
rule is the scorer's, applied per image, and the per-image counts are checked against its totals.
"""
import argparse, hashlib, importlib.util, json, os, resource, shutil, subprocess, sys, time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "boofcv-dev")
SCORE = os.path.join(ROOT, "..", "shared", "bench", "boofcv_score.py")
IMAGE_EXT = (".jpg", ".jpeg", ".png")
PEER = "zxing-cpp 3.1"
EFFORT_ORDER = ("fast", "normal", "thorough")


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def list_images(corpus):
    files = []
    for d, dirs, fs in os.walk(corpus):
        dirs.sort()
        files += [os.path.relpath(os.path.join(d, f), corpus) for f in sorted(fs) if f.lower().endswith(IMAGE_EXT)]
    return files


def make_subset(corpus, files, outdir):
    """A tree of symbolic links to the chosen photos and their labels, for codesweep, the peer
    and the scorer alike (the scorer counts every label under its root as labelled)."""
    sub = os.path.join(outdir, "subset")
    shutil.rmtree(sub, ignore_errors=True)
    for rel in files:
        os.makedirs(os.path.join(sub, os.path.dirname(rel)), exist_ok=True)
        stem = os.path.splitext(rel)[0]
        for r in (rel, stem + ".txt"):
            if os.path.exists(os.path.join(corpus, r)):
                os.symlink(os.path.abspath(os.path.join(corpus, r)), os.path.join(sub, r))
    return sub


# Each configuration: (codesweep's --symbologies, or None for its default; zxing-cpp's formats name, or None for its default).
CONFIGS = {"all": (None, None), "qr": ("qr", "QRCode")}
CONFIG_TITLE = {"all": "every symbology (codesweep's default symbologies; zxing-cpp's default formats)",
                "qr": "QR only (codesweep --symbologies qr; zxing-cpp formats=QRCode)"}


def run_codesweep(binary, effort, jobs, corpus, out, follow, symbologies=None):
    cpu0, t0 = child_cpu(), time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run([binary, "scan", "-q", "--effort", effort, "--jobs", str(jobs)]
                           + (["--symbologies", symbologies] if symbologies else [])
                           + (["--follow-symlinks"] if follow else []) + [corpus],
                           stdout=f, stderr=subprocess.PIPE)
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    if p.returncode not in (0, 1):  # 1: some file failed, still a full report
        sys.exit(f"codesweep --effort {effort} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    return wall, cpu


# --- the peer: zxing-cpp, one image per task in a process pool ---------------------------------

def peer_one(args):
    corpus, rel, formats = args
    import zxingcpp
    from PIL import Image, ImageOps
    try:
        with Image.open(os.path.join(corpus, rel)) as im:
            img = ImageOps.exif_transpose(im).convert("L")  # corners in the upright frame, as codesweep's
        found = (zxingcpp.read_barcodes(img, formats=getattr(zxingcpp.BarcodeFormat, formats)) if formats
                 else zxingcpp.read_barcodes(img))
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


def run_peer(corpus, files, jobs, outdir, cached_ok, formats=None):
    """zxing-cpp's reads in the scorer's peer form; returns (jsonl path, meta with wall/cpu).
    Runs it (and times it) unless cached_ok and a cached run of this version on this corpus exists."""
    try:
        import importlib.metadata as md
        version = md.version("zxing-cpp")
        import zxingcpp, PIL  # noqa: F401  (fail here, not in the pool)
    except Exception as e:
        print(f"boofcv: peer skipped: {e} (pip install 'zxing-cpp==3.1.*' pillow)", file=sys.stderr)
        return None, None
    if not version.startswith("3.1"):
        print(f"boofcv: note: zxing-cpp {version} installed, the reference peer is 3.1.x", file=sys.stderr)
    key = f"zxingcpp-{version}-{formats or 'default'}-{corpus_key(corpus, files)}"
    out, meta_path = os.path.join(outdir, key + ".jsonl"), os.path.join(outdir, key + ".json")
    if cached_ok:
        if os.path.exists(out) and os.path.exists(meta_path):
            meta = dict(json.load(open(meta_path)), cached=True)
            print(f"boofcv: zxing-cpp {version}: cached ({os.path.basename(out)}), not run", file=sys.stderr)
            return out, meta
        print(f"boofcv: zxing-cpp {version}: no cached run for this corpus, running it", file=sys.stderr)
    import multiprocessing as mp
    print(f"boofcv: zxing-cpp {version} ({formats or 'default formats'}) on {len(files)} images, {jobs} processes ...", file=sys.stderr)
    cpu0, t0 = child_cpu(), time.monotonic()
    errors = {}
    pool = mp.get_context("fork").Pool(jobs)
    try:
        results = pool.map(peer_one, [(corpus, rel, formats) for rel in files], chunksize=1)
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
    meta = {"version": version, "formats": formats or "default", "images": len(files), "wall_s": wall, "cpu_s": cpu, "jobs": jobs, "errors": errors,
            "measured": time.strftime("%Y-%m-%d %H:%M")}
    json.dump(meta, open(meta_path, "w"), indent=1)
    return out, meta


# --- scoring ---------------------------------------------------------------------------------

def score(corpus, results):
    p = subprocess.run([sys.executable, SCORE, corpus, results, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"boofcv_score.py failed on {results}: {p.stderr[-400:]}")
    return json.loads(p.stdout)


def load_scorer():
    spec = importlib.util.spec_from_file_location("boofcv_score", SCORE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def found_per_image(sc, labels, corpus, results):
    """{image: labelled codes found}: boofcv_score.py's reading of the results and its match rule
    (centre of a decoded QR's quad inside the label, area within a factor of 4), per image."""
    rootabs = os.path.abspath(corpus)
    dets = defaultdict(list)
    for line in open(results, errors="replace"):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        p = o.get("path", "")
        if os.path.isabs(p):
            p = os.path.relpath(p, rootabs)
        p = p.lstrip("./") if p.startswith("./") else p  # as the scorer does
        codes = o.get("codes")
        if codes is None:
            codes = [o] if "corners" in o or "format" in o else []
        for c in codes:
            if sc.is_qr(c.get("symbology") or c.get("format")) and c.get("corners"):
                dets[p].append([tuple(map(float, pt)) for pt in c["corners"]])
    per = {}
    for img, quads in labels.items():
        d, used, n = dets.get(img, []), set(), 0
        for q in quads:
            qa = sc.area(q)
            for i, x in enumerate(d):
                if i in used or len(x) < 3:
                    continue
                cx, cy = sum(t[0] for t in x) / len(x), sum(t[1] for t in x) / len(x)
                if sc.inside((cx, cy), q) and qa > 0 and 0.25 <= sc.area(x) / qa <= 4:
                    used.add(i)
                    n += 1
                    break
        per[img] = n
    return per


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configs", default="all,qr",
                    help="all: default symbologies vs zxing-cpp's default formats; qr: --symbologies qr vs formats=QRCode")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--out", default="bench-out/boofcv")
    ap.add_argument("--categories", default="", help="only these categories (comma-separated)")
    ap.add_argument("--images", type=int, default=0, help="only N photos, spread evenly over the categories")
    peer = ap.add_mutually_exclusive_group()
    peer.add_argument("--no-peer", action="store_true", help="do not run zxing-cpp")
    peer.add_argument("--peer-cached", action="store_true",
                      help="zxing-cpp's reads and times from its last run on this corpus, if any (not measured now)")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)  # codesweep's paths are then absolute, which the scorer maps to the root
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

    subset = ""
    if a.categories or a.images:
        cats = [c for c in a.categories.split(",") if c]
        unknown = sorted(set(cats) - {f.split(os.sep)[0] for f in files})
        if unknown:
            print(f"boofcv: no such categories: {', '.join(unknown)}", file=sys.stderr)
            sys.exit(2)
        if cats:
            files = [f for f in files if f.split(os.sep)[0] in cats]
        if 0 < a.images < len(files):
            files = [files[i * len(files) // a.images] for i in range(a.images)]
        subset = ", subset: " + (",".join(cats) if cats else "all categories") + (f", {len(files)} images" if a.images else "")
        corpus = make_subset(corpus, files, os.path.abspath(a.out))

    configs = [c for c in a.configs.split(",") if c]
    unknown = sorted(set(configs) - set(CONFIGS))
    if unknown or not configs:
        print(f"boofcv: --configs takes {', '.join(CONFIGS)} (comma-separated), not {a.configs!r}", file=sys.stderr)
        sys.exit(2)
    runs = {}  # config -> [(name, score json, wall, cpu, results path)], codesweep's efforts then the peer
    peer_metas = {}
    for cfg in configs:
        symbologies, formats = CONFIGS[cfg]
        runs[cfg] = []
        for e in efforts:
            out = os.path.join(a.out, f"codesweep-{e}.jsonl" if cfg == "all" else f"codesweep-{e}-{cfg}.jsonl")
            print(f"boofcv: [{cfg}] codesweep --effort {e} --jobs {a.jobs}"
                  + (f" --symbologies {symbologies}" if symbologies else "") + f" on {len(files)} images ...", file=sys.stderr)
            wall, cpu = run_codesweep(binary, e, a.jobs, corpus, out, follow=bool(subset), symbologies=symbologies)
            runs[cfg].append((e, score(corpus, out), wall, cpu, out))
        if not a.no_peer:
            out, meta = run_peer(corpus, files, a.jobs, a.out, cached_ok=a.peer_cached, formats=formats)
            if out:
                peer_metas[cfg] = meta
                runs[cfg].append((PEER, score(corpus, out), meta["wall_s"], meta["cpu_s"], out))
    readers = runs[configs[0]]  # the per-category table and the per-image checks: the first configuration

    def column(r):
        return r[0] if r[0] == PEER else f"codesweep {r[0]}"

    cats = sorted(readers[0][1]["categories"]) if readers else []
    w = max(16, *(len(column(r)) + 2 for r in readers)) if readers else 16
    lines = [f"BoofCV QR recall: {corpus} ({len(files)} images{subset}), --jobs {a.jobs}; found/labelled codes",
             f"per category: {CONFIG_TITLE[configs[0]]}"]
    hdr = f"{'category':<14}{'codes':>6}" + "".join(f"{column(r):>{w}}" for r in readers)
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

    # The summary: per configuration, totals and times of each reader in this run, codesweep's wall
    # against the peer's asked for the same symbologies.
    for cfg in configs:
        meta = peer_metas.get(cfg)
        peer_wall = meta["wall_s"] if meta else None
        lines += ["", f"{CONFIG_TITLE[cfg]}:",
                  f"{'effort':<15}{'found':>10}{'%':>7}{'extras':>8}{'wall s':>8}{'cpu s':>8}  x zxing-cpp (wall)"]
        for r in runs[cfg]:
            t = r[1]["total"]
            ratio = f"{r[2] / peer_wall:.2f}" if peer_wall else "-"
            lines.append(f"{r[0]:<15}{'%d/%d' % (t['found'], t['labelled']):>10}{100 * t['found'] / max(t['labelled'], 1):>7.1f}"
                         f"{t['extra']:>8}{r[2]:>8.1f}{r[3]:>8.1f}  {ratio}")
    lines.append("extras: decoded QR codes matching no label (false or unlabelled).")
    for cfg, meta in peer_metas.items():
        lines.append(f"peer [{cfg}]: zxing-cpp {meta['version']} from PyPI (Pillow decode + EXIF transpose + grey, "
                     f"formats {meta.get('formats', 'QRCode')}), {meta['jobs']} processes, "
                     + (f"NOT run now: reads and times from its cached run of {meta.get('measured', 'an earlier day')} (--peer-cached)"
                        if meta.get("cached") else "run and timed in this run after codesweep")
                     + (f"; {len(meta['errors'])} unreadable files" if meta["errors"] else ""))

    # Per image, each effort against the one below it: never fewer labelled codes found.
    checks = {}
    ran = [e for e in EFFORT_ORDER if e in efforts]
    if len(ran) >= 2:
        sc = load_scorer()
        labels = sc.load_labels(corpus)
        per = {}
        for r in readers:
            if r[0] in ran:
                per[r[0]] = found_per_image(sc, labels, corpus, r[4])
                if sum(per[r[0]].values()) != r[1]["total"]["found"]:
                    lines.append(f"WARNING: per-image counts for {r[0]} sum to {sum(per[r[0]].values())}, "
                                 f"the scorer says {r[1]['total']['found']}: the check below is not the scorer's rule")
        lines.append("")
        for lo, hi in zip(ran, ran[1:]):
            worse = sorted((img, per[hi][img], per[lo][img]) for img in labels if per[hi][img] < per[lo][img])
            better = sum(1 for img in labels if per[hi][img] > per[lo][img])
            name = f"{hi} >= {lo} on every image"
            if worse:
                lines.append(f"{name}: NO, {len(worse)} of {len(labels)} images found fewer ({better} found more): "
                             + ", ".join(f"{img} ({h} < {l})" for img, h, l in worse))
            else:
                lines.append(f"{name}: yes ({len(labels)} images; {better} found more)")
            checks[f"{hi}>={lo}"] = {"images": len(labels), "fewer": [list(x) for x in worse], "more": better}
        if "normal" in ran and "thorough" not in ran:
            lines.append("thorough >= normal: not checked (thorough did not run; --efforts fast,normal,thorough)")
    lines.append("Times are noisy on a shared machine; compare readers within one run.")
    text = "\n".join(lines)
    print("\n" + text)
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    summary = {"corpus": os.path.abspath(corpus), "images": len(files), "jobs": a.jobs, "binary": os.path.abspath(binary),
               "peer_cached": any(m.get("cached") for m in peer_metas.values()), "per_image_checks": checks,
               "configs": {cfg: {column(r): {"score": r[1], "wall_s": round(r[2], 2), "cpu_s": round(r[3], 2),
                                             "results": os.path.abspath(r[4])} for r in runs[cfg]} for cfg in configs}}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
