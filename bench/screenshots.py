#!/usr/bin/env python3
"""Screenshot benchmark (`make bench-screenshots`, issue 48): a folder of real screenshots made by
headless Chromium (bench/screenshot_pages.py: web articles, chats, sign-in, ticket, shop and
payment pages at phone, laptop and desktop sizes, light and dark, most without a code; QR, Micro
QR, rMQR, Data Matrix square and rectangular, Aztec, PDF417, EAN-13 and Code 128 at page sizes),
read by codesweep at each effort and by zxing-cpp 3.1 (the peer), and by zbarimg when installed,
all timed in this run, like with like: `codesweep scan DIR --jobs J` against J processes of each
peer, every reader asked for the set's symbologies only. Prints figures; asserts nothing.

  python3 bench/screenshots.py [--bin .build/release/codesweep] [--efforts fast,normal] [--jobs 2]
                               [--out bench-out/screenshots] [--pages 360] [--seed 48] [--no-zbar]

Scoring, per file: a code is read when a reader returns its symbology and exact text (codesweep:
`text`, or the payload bytes `bytes_b64` equal to the text's UTF-8); a read matching no code of
the file's truth is a false read; the same code read again is a duplicate (counted apart). Times:
wall seconds and CPU seconds (user+sys of the child processes, getrusage), and wall time as a
multiple of zxing-cpp 3.1's in this run (and CPU time as a multiple of its CPU time). The machine is
shared: compare within one run.

Symbology names: SYMBOLOGIES below is the one table mapping the bench's keys to codesweep's names,
zxing-cpp's format names and ZBar's type names; a binary that lacks a name (`codesweep
symbologies` does not list it) is asked for the others, and the output says which it lacked.
"""
import argparse, base64, json, os, resource, subprocess, sys, time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import screenshot_pages  # noqa: E402

# key: (codesweep's --symbologies name, zxing-cpp BarcodeFormat names, zbarimg type names, zbarimg -S config name).
# Keys not in a truth file still map reads to names, so what a reader reports is named the same in every column.
SYMBOLOGIES = {
    "qr": ("qr", ("QRCode", "QRCodeModel1", "QRCodeModel2"), ("QR-Code",), "qrcode"),
    "microqr": ("microqr", ("MicroQRCode",), (), None),
    "rmqr": ("rmqr", ("RMQRCode",), (), None),
    "datamatrix": ("datamatrix", ("DataMatrix",), (), None),
    "aztec": ("aztec", ("Aztec", "AztecCode", "AztecRune"), (), None),
    "pdf417": ("pdf417", ("PDF417", "CompactPDF417"), ("PDF417",), None),
    "ean13": ("ean13", ("EAN13",), ("EAN-13",), "ean13"),
    "code128": ("code128", ("Code128",), ("CODE-128",), "code128"),
    "micropdf417": ("micropdf417", ("MicroPDF417",), (), None),
    "maxicode": ("maxicode", ("MaxiCode",), (), None),
    "databar-ltd": ("databar-ltd", ("DataBarLtd",), (), None),
    "databar-exp-stacked": ("databar-exp-stacked", ("DataBarExpStk",), (), None),
    "dxfilmedge": ("dxfilmedge", ("DXFilmEdge",), (), None),
    "telepen": ("telepen", ("Telepen", "TelepenAlpha", "TelepenNumeric"), (), None),
}
FROM_CODESWEEP = {v[0]: k for k, v in SYMBOLOGIES.items()}
FROM_ZXING = {n: k for k, v in SYMBOLOGIES.items() for n in v[1]}
FROM_ZBAR = {n: k for k, v in SYMBOLOGIES.items() for n in v[2]}
PEER = "zxing-cpp 3.1"


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# --- readers: each returns ({file: [(key, text, bytes or None)]}, wall, cpu, note) -------------------

def codesweep_names(binary):
    """The symbology names this binary's `codesweep symbologies` lists."""
    p = subprocess.run([binary, "symbologies"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"screenshots: `{binary} symbologies` failed ({p.returncode}): {p.stderr[:300]}")
    names = set()
    for line in p.stdout.splitlines()[1:]:
        if not line.strip():
            break
        names.add(line.split()[0])
    return names


def run_codesweep(binary, effort, jobs, folder, keys, out):
    known = codesweep_names(binary)
    names = [SYMBOLOGIES[k][0] for k in keys]
    asked = [n for n in names if n in known]
    lacking = [n for n in names if n not in known]
    cmd = [binary, "scan", "-q", "--effort", effort, "--jobs", str(jobs), "--symbologies", ",".join(asked), folder]
    cpu0, t0 = child_cpu(), time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE)
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    if p.returncode not in (0, 1):  # 1: some file failed, still a full report
        sys.exit(f"codesweep --effort {effort} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    got, failed = {}, []
    for line in open(out, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        name = os.path.basename(r["path"])
        if r.get("status") not in (None, "ok"):
            failed.append(name)
        reads = got.setdefault(name, [])
        for c in r.get("codes", []):
            raw = base64.b64decode(c["bytes_b64"]) if c.get("bytes_b64") else None
            reads.append((FROM_CODESWEEP.get(c.get("symbology"), "other:" + str(c.get("symbology"))), c.get("text"), raw))
    note = ("lacks " + ", ".join(lacking) + ": its codes count as missed; " if lacking else "") + " ".join(cmd[1:-1])
    if failed:
        note += f"; {len(failed)} files not ok: {', '.join(failed[:5])}"
    return got, wall, cpu, note


def zxing_one(args):
    path, names = args
    import zxingcpp
    from PIL import Image
    with Image.open(path) as im:
        grey = im.convert("L")
    found = zxingcpp.read_barcodes(grey, formats=[getattr(zxingcpp.BarcodeFormat, n) for n in names])
    return os.path.basename(path), [(FROM_ZXING.get(b.format.name, "other:" + b.format.name), b.text, bytes(b.bytes)) for b in found]


def run_zxing(folder, files, jobs, keys):
    try:
        import importlib.metadata as md
        version = md.version("zxing-cpp")
        import zxingcpp, PIL  # noqa: F401  (fail here, not in the pool)
    except Exception as e:
        sys.exit(f"screenshots: the peer is missing: {e} (pip install 'zxing-cpp==3.1.*' pillow)")
    fmts = tuple(n for k in keys for n in SYMBOLOGIES[k][1])
    for n in fmts:
        getattr(zxingcpp.BarcodeFormat, n)  # an unknown name fails here, not in the pool
    import multiprocessing as mp
    cpu0, t0 = child_cpu(), time.monotonic()
    pool = mp.get_context("fork").Pool(jobs)
    try:
        results = pool.map(zxing_one, [(os.path.join(folder, f), fmts) for f in files], chunksize=1)
    finally:
        pool.close()
        pool.join()  # workers reaped: their CPU is now in RUSAGE_CHILDREN
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    note = (f"zxing-cpp {version} from PyPI, Pillow decode + grey, formats {'|'.join(n for k in keys for n in SYMBOLOGIES[k][1][:1])}, "
            f"{jobs} processes")
    if not version.startswith("3.1"):
        note += f" (NOTE: {version} installed, the reference is 3.1.x)"
    return dict(results), wall, cpu, note


def run_zbar(folder, files, jobs, keys):
    """zbarimg --xml over the files, split into `jobs` processes run side by side."""
    cfg = ["-Sdisable"] + [f"-S{SYMBOLOGIES[k][3]}.enable" for k in keys if SYMBOLOGIES[k][3]]
    parts = [files[i::jobs] for i in range(jobs)]
    cpu0, t0 = child_cpu(), time.monotonic()
    procs = [subprocess.Popen(["zbarimg", "-q", "--xml", *cfg, *[os.path.join(folder, f) for f in part]],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for part in parts if part]
    outs = [p.communicate() for p in procs]
    wall, cpu = time.monotonic() - t0, child_cpu() - cpu0
    got = {f: [] for f in files}
    for p, (out, err) in zip(procs, outs):
        if p.returncode not in (0, 4):  # 4: no symbol in any of its files
            sys.exit(f"zbarimg failed ({p.returncode}): {err.decode(errors='replace')[:300]}")
        root = ET.fromstring(out.decode("utf-8", errors="replace"))
        for src in root.iter():
            if not src.tag.endswith("source"):
                continue
            name = os.path.basename(src.get("href"))
            for sym in src.iter():
                if not sym.tag.endswith("symbol"):
                    continue
                data = next((d for d in sym if d.tag.endswith("data")), None)
                text = data.text or "" if data is not None else ""
                raw = None
                if data is not None and data.get("format") == "base64":
                    raw = base64.b64decode(text)
                    text = raw.decode("utf-8", errors="replace")
                typ = sym.get("type")
                got[name].append((FROM_ZBAR.get(typ, "other:" + str(typ)), text, raw))
    enabled = [k for k in keys if SYMBOLOGIES[k][3]]
    return got, wall, cpu, f"zbarimg --xml {' '.join(cfg)}, {jobs} processes (ZBar reads only {', '.join(enabled)} of these)"


# --- scoring ----------------------------------------------------------------------------------------

def score(truth, got):
    """Per file: reads matched against the truth. Returns totals, per key {read, total}, misses, falses, duplicates."""
    per_key = {}
    misses, falses, dups = [], [], []
    for name, codes in truth.items():
        left = list(codes)
        matched = []
        for key, text, raw in got.get(name, []):
            def same(c):
                return c["symbology"] == key and (c["text"] == text or (raw is not None and raw == c["text"].encode("utf-8")))
            hit = next((c for c in left if same(c)), None)
            if hit:
                left.remove(hit)
                matched.append(hit)
            elif any(same(c) for c in matched):
                dups.append((name, key, text))
            else:
                falses.append((name, key, text))
        for c in codes:
            k = per_key.setdefault(c["symbology"], {"read": 0, "total": 0})
            k["total"] += 1
        for c in matched:
            per_key[c["symbology"]]["read"] += 1
        misses += [(name, c["symbology"], c["text"]) for c in left]
    extra = set(got) - set(truth)
    for name in sorted(extra):
        falses += [(name, k, t) for k, t, _ in got[name]]
    read = sum(v["read"] for v in per_key.values())
    total = sum(v["total"] for v in per_key.values())
    return {"read": read, "total": total, "false": len(falses), "duplicates": len(dups), "per_key": per_key,
            "misses": misses, "falses": falses, "dups": dups}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--efforts", default="fast,normal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="bench-out/screenshots")
    ap.add_argument("--pages", type=int, default=360)
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--no-zbar", action="store_true", help="do not run zbarimg")
    a = ap.parse_args()
    binary = a.bin
    if not os.path.isabs(binary) and not os.path.exists(binary) and os.path.exists(os.path.join(ROOT, binary)):
        binary = os.path.join(ROOT, binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"screenshots: no codesweep binary at {binary} (make release, or --bin PATH)")
    folder, truth = screenshot_pages.build(a.out, a.pages, a.seed)
    files = sorted(truth)
    keys = sorted({c["symbology"] for codes in truth.values() for c in codes}, key=list(SYMBOLOGIES).index)
    runs_dir = os.path.join(a.out, "runs")
    os.makedirs(runs_dir, exist_ok=True)

    runs = []  # (column name, got, wall, cpu, note)
    for e in [e for e in a.efforts.split(",") if e]:
        print(f"screenshots: codesweep --effort {e} --jobs {a.jobs} on {len(files)} files ...", file=sys.stderr)
        runs.append((f"codesweep {e}",) + run_codesweep(binary, e, a.jobs, folder, keys, os.path.join(runs_dir, f"codesweep-{e}.jsonl")))
    print(f"screenshots: {PEER}, {a.jobs} processes ...", file=sys.stderr)
    runs.append((PEER,) + run_zxing(folder, files, a.jobs, keys))
    if not a.no_zbar:
        if subprocess.run(["sh", "-c", "command -v zbarimg"], capture_output=True).returncode == 0:
            print(f"screenshots: zbarimg, {a.jobs} processes ...", file=sys.stderr)
            runs.append(("zbarimg",) + run_zbar(folder, files, a.jobs, keys))
        else:
            print("screenshots: zbarimg not installed, its column is left out", file=sys.stderr)
    peer_wall, peer_cpu = next((r[2], r[3]) for r in runs if r[0] == PEER)
    scores = {r[0]: score(truth, r[1]) for r in runs}

    n_codes = sum(len(v) for v in truth.values())
    with_codes = sum(1 for v in truth.values() if v)
    lines = [f"Screenshots: {folder} ({len(files)} files, {with_codes} with codes, {n_codes} codes; seed {a.seed}), "
             f"--jobs {a.jobs}, binary {binary}", "",
             f"{'reader':<20}{'read':>10}{'%':>7}{'false':>7}{'dup':>5}{'wall s':>8}{'cpu s':>8}  x zxing-cpp: wall  cpu"]
    for name, got, wall, cpu, note in runs:
        s = scores[name]
        lines.append(f"{name:<20}{'%d/%d' % (s['read'], s['total']):>10}{100 * s['read'] / max(s['total'], 1):>7.1f}"
                     f"{s['false']:>7}{s['duplicates']:>5}{wall:>8.1f}{cpu:>8.1f}  {wall / peer_wall:>17.2f}{cpu / peer_cpu:>5.2f}")
    w = max(12, *(len(r[0]) + 2 for r in runs))
    hdr = f"{'symbology':<12}{'codes':>6}" + "".join(f"{r[0]:>{w}}" for r in runs)
    lines += ["", "read / codes per symbology:", hdr, "-" * len(hdr)]
    # Sub-rows from pages.json: rectangular Data Matrix, light-on-dark codes (codes missed among them).
    pages = json.load(open(os.path.join(a.out, "pages.json")))
    variants = {"  rectangular": lambda c: str(c.get("version") or "").startswith("rect-"), "  light on dark": lambda c: c.get("invert")}
    for k in keys:
        tot = scores[runs[0][0]]["per_key"][k]["total"]
        lines.append(f"{k:<12}{tot:>6}" + "".join(f"{'%d/%d' % (scores[r[0]]['per_key'][k]['read'], tot):>{w}}" for r in runs))
        for label, pick in variants.items():
            these = {(f, c["text"]) for f, p in pages.items() for c in p["codes"] if c["symbology"] == k and pick(c)}
            if these:
                missed = {r[0]: sum(1 for f, kk, t in scores[r[0]]["misses"] if kk == k and (f, t) in these) for r in runs}
                lines.append(f"{label:<14}{len(these):>4}" + "".join(f"{'%d/%d' % (len(these) - missed[r[0]], len(these)):>{w}}" for r in runs))
    lines.append("")
    for name, got, wall, cpu, note in runs:
        lines.append(f"{name}: {note}")
    for name, *_ in runs:
        s = scores[name]
        for label, items in (("FALSE", s["falses"]), ("missed", s["misses"])):
            if items and (label == "FALSE" or name.startswith("codesweep") or name == PEER):
                shown = items[:40]
                lines.append(f"{name} {label} ({len(items)}): " + "; ".join(f"{f} {k} {t!r}" for f, k, t in shown)
                             + (" ..." if len(items) > len(shown) else ""))
    lines.append("Times are noisy on a shared machine; compare readers within one run.")
    text = "\n".join(lines)
    print("\n" + text)
    with open(os.path.join(runs_dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    summary = {"folder": os.path.abspath(folder), "files": len(files), "codes": n_codes, "jobs": a.jobs, "binary": os.path.abspath(binary),
               "readers": {r[0]: {"wall_s": round(r[2], 2), "cpu_s": round(r[3], 2), "x_zxing_cpp": round(r[2] / peer_wall, 2),
                                  "x_zxing_cpp_cpu": round(r[3] / peer_cpu, 2), "note": r[4],
                                  **{k: v for k, v in scores[r[0]].items()}} for r in runs}}
    with open(os.path.join(runs_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
