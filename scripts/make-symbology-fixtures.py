#!/usr/bin/env python3
"""Makes the test fixtures of issue 48 and records what zxing-cpp 3.1 reads in each.

  python3 scripts/make-symbology-fixtures.py [--check] [--corpus ../shared/corpus/zxing-cpp]

Tests/Fixtures/symbologies/: codes of our own, one per symbology zxing-cpp 3.1 adds (Micro QR from
segno; rMQR, MaxiCode, DataBar Limited, DataBar Expanded Stacked, Micro PDF417 and Telepen from
zint; DX film edge from zxing-cpp's own writer, as Debian 12's zint 2.11 has no DX film edge),
and a structured-append QR sequence of 3 symbols (segno's make_sequence): all 3 in one image and
each in a file of its own. Fixed payloads and fixed sizes: the same tools give the same files.

Tests/Fixtures/zxing-samples/: one small sample per new symbology copied from zxing-cpp's own
test samples (the shared corpus, Apache-2.0; see NOTICE there), chosen as the first of a short
list that zxing-cpp 3.1 reads with the corpus's expected text. Only made when the corpus is
there; the tests use the copies, never the corpus.

Each folder gets manifest.json and README.md: every file, its symbology (codesweep's name), the
payload it was made with or the corpus's expected text, and what zxing-cpp 3.1 from PyPI reads
(`zxingcpp.read_barcodes`, Pillow grey): format, text in HRI and plain mode, bytes, symbology
identifier, EC level, extras. The PyPI module does not expose structured-append fields, so
sequence index/size/id come from zxing-cpp 3.1.1's C API (ZXingC.h: ZXing_Barcode_sequenceIndex,
...) through a 60-line C reader compiled against the installed build (pkg-config `zxing`, under
ZXING_PREFIX, default /usr/local/lib/codesweep/zxing-cpp-3.1.1); without that build the manifest
says so and carries the values segno wrote instead (index, count, parity), marked as such.

--check: make everything in a temporary folder and compare with the committed files (exit 1 on
any difference): the fixtures are what this script makes.

Needs: pip install segno 'zxing-cpp==3.1.*' pillow numpy; zint; a C compiler for the C API part.
"""
import argparse, base64, filecmp, hashlib, json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OWN = os.path.join(ROOT, "Tests", "Fixtures", "symbologies")
SAMPLES = os.path.join(ROOT, "Tests", "Fixtures", "zxing-samples")
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "zxing-cpp")
ZXING_PREFIX = os.environ.get("ZXING_PREFIX", "/usr/local/lib/codesweep/zxing-cpp-3.1.1")

SEQUENCE_TEXT = ("CodeSweep structured append fixture: this message is split over three QR symbols, "
                 "each carrying its index, the count and the parity of the whole message.")

# name: (codesweep symbology, how it is made, payload). zint: its arguments before --data.
OWN_CODES = [
    ("microqr.png", "microqr", "segno", "MICRO QR 48"),
    ("rmqr.png", "rmqr", ["-b", "145"], "rMQR CodeSweep 48"),
    ("maxicode.png", "maxicode", ["-b", "57", "--scale=1"], "CodeSweep MaxiCode 48"),
    ("databar-ltd.png", "databar-ltd", ["-b", "30"], "0950110153001"),
    ("databar-exp-stacked.png", "databar-exp-stacked", ["-b", "81", "--cols=2"], "[01]98898765432106[3202]012345[15]991231"),
    ("micropdf417.png", "micropdf417", ["-b", "84"], "CodeSweep MicroPDF417 48"),
    ("telepen.png", "telepen", ["-b", "32"], "CodeSweep48"),
    ("dxfilmedge.png", "dxfilmedge", "zxing-writer", "112-1/19A"),
]

# corpus family: (codesweep symbology, candidate files in order of preference)
SAMPLE_PICKS = [
    ("microqrcode", "microqr", ["microqrcode-1/1.png", "microqrcode-1/M3-Mixed.png"]),
    ("rmqrcode", "rmqr", ["rmqrcode-1/R17x139.png", "rmqrcode-1/R7x43-H.png"]),
    ("maxicode", "maxicode", ["maxicode-1/MODE2.png", "maxicode-1/MODE4.png", "maxicode-1/Wikipedia.webp"]),
    ("databarltd", "databar-ltd", ["databarltd-1/01.webp", "databarltd-1/00.png"]),
    ("rssexpandedstacked", "databar-exp-stacked", ["rssexpandedstacked-2/1000.webp", "rssexpandedstacked-1/1.png"]),
    ("dxfilmedge", "dxfilmedge", ["dxfilmedge-1/2.png", "dxfilmedge-1/3.webp"]),
    ("micropdf417", "micropdf417", ["micropdf417-1/MPDF-0.png", "micropdf417-1/1x20.webp"]),
    ("telepen", "telepen", ["telepen-1/telepen-alpha-2.png", "telepen-1/telepen-numeric-1.png"]),
]

C_READER = r"""
#include <ZXing/ZXingC.h>
#include <stdio.h>
#include <stdlib.h>
/* usage: reader W H FILE.grey: prints one tab-separated line per barcode:
   format, sequenceIndex, sequenceSize, sequenceId, symbologyIdentifier, hex(text) */
int main(int argc, char** argv) {
    if (argc != 4) return 2;
    int w = atoi(argv[1]), h = atoi(argv[2]);
    unsigned char* buf = malloc((size_t)w * h);
    FILE* f = fopen(argv[3], "rb");
    if (!f || fread(buf, 1, (size_t)w * h, f) != (size_t)w * h) { fprintf(stderr, "short read\n"); return 2; }
    fclose(f);
    ZXing_ImageView* iv = ZXing_ImageView_new(buf, w, h, ZXing_ImageFormat_Lum, 0, 0);
    ZXing_ReaderOptions* opts = ZXing_ReaderOptions_new();
    ZXing_Barcodes* bcs = ZXing_ReadBarcodes(iv, opts);
    if (!bcs) { char* e = ZXing_LastErrorMsg(); fprintf(stderr, "%s\n", e ? e : "error"); return 3; }
    for (int i = 0; i < ZXing_Barcodes_size(bcs); i++) {
        const ZXing_Barcode* b = ZXing_Barcodes_at(bcs, i);
        char* fmt = ZXing_BarcodeFormatToString(ZXing_Barcode_format(b));
        char* sid = ZXing_Barcode_sequenceId(b);
        char* sym = ZXing_Barcode_symbologyIdentifier(b);
        char* text = ZXing_Barcode_text(b);
        printf("%s\t%d\t%d\t%s\t%s\t", fmt, ZXing_Barcode_sequenceIndex(b), ZXing_Barcode_sequenceSize(b), sid, sym);
        for (const unsigned char* p = (const unsigned char*)text; *p; p++) printf("%02x", *p);
        printf("\n");
        ZXing_free(fmt); ZXing_free(sid); ZXing_free(sym); ZXing_free(text);
    }
    ZXing_Barcodes_delete(bcs);
    ZXing_ReaderOptions_delete(opts);
    ZXing_ImageView_delete(iv);
    free(buf);
    return 0;
}
"""


def zint(args, text, out):
    cmd = ["zint", *args, "--quietzones", f"--data={text}", "-o", out]
    if not any(a.startswith("--scale") for a in args):
        cmd.insert(-2, "--scale=2")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or p.stdout.strip() or p.stderr.strip():  # zint warns (and substitutes) on stdout/stderr
        sys.exit(f"zint failed or warned: {' '.join(cmd)}: {p.stdout.strip()} {p.stderr.strip()}")
    return " ".join(["zint", *cmd[1:-2], f"--data='{text}'", "-o", os.path.basename(out)])


def make_own(out):
    """Writes our own fixtures into OUT; returns [(file, symbology, payload, how)]."""
    import segno, zxingcpp
    from PIL import Image
    import numpy as np
    made = []
    for name, sym, how, text in OWN_CODES:
        path = os.path.join(out, name)
        if how == "segno":
            q = segno.make_micro(text)
            q.save(path, scale=6, border=2)
            cmd = f"segno.make_micro({text!r}) ({q.designator}), saved at scale 6 with a 2-module border"
        elif how == "zxing-writer":
            b = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.DXFilmEdge)
            Image.fromarray(np.array(b.to_image(scale=4))).save(path)
            cmd = f"zxingcpp.create_barcode({text!r}, BarcodeFormat.DXFilmEdge).to_image(scale=4) (zxing-cpp's bundled zint writer)"
        else:
            cmd = zint(how, text, path)
        made.append((name, sym, text, cmd))
    seq = segno.make_sequence(SEQUENCE_TEXT, symbol_count=3)
    parts = []
    for i, q in enumerate(seq):
        name = f"qr-sequence-{i + 1}of3.png"
        q.save(os.path.join(out, name), scale=4, border=4)
        parts.append(Image.open(os.path.join(out, name)).convert("L"))
        made.append((name, "qr", SEQUENCE_TEXT, f"segno.make_sequence(TEXT, symbol_count=3)[{i}] ({q.designator}), scale 4, border 4"))
    w = sum(p.width for p in parts) + 20 * (len(parts) - 1)
    sheet = Image.new("L", (w, max(p.height for p in parts)), 255)
    x = 0
    for p in parts:
        sheet.paste(p, (x, 0))
        x += p.width + 20
    sheet.save(os.path.join(out, "qr-sequence-3in1.png"))
    made.append(("qr-sequence-3in1.png", "qr", SEQUENCE_TEXT, "the three qr-sequence-Nof3.png side by side, 20 px apart"))
    return made, seq


def sa_expected(seq):
    """What segno wrote in each symbol's structured-append header: index (0-based), count, parity."""
    data = SEQUENCE_TEXT.encode("utf-8")  # segno encodes the whole message, then splits it
    parity = 0
    for b in data:
        parity ^= b
    return [{"index": i, "count": len(seq), "parity": parity} for i in range(len(seq))]


def pypi_reads(path):
    import zxingcpp
    from PIL import Image
    with Image.open(path) as im:
        grey = im.convert("L")
    hri = zxingcpp.read_barcodes(grey)
    plain = zxingcpp.read_barcodes(grey, text_mode=zxingcpp.TextMode.Plain)
    out = []
    for b, p in zip(hri, plain):
        out.append({"format": b.format.name, "text": b.text, "text_plain": p.text, "bytes_b64": base64.b64encode(bytes(b.bytes)).decode(),
                    "symbology_identifier": b.symbology_identifier, "ec_level": b.ec_level, "content_type": b.content_type.name,
                    "extra": b.extra or {}})
    return out


def c_reader(tmp):
    """Compiles the C API reader against the installed zxing-cpp 3.1.1; None (and why) without it."""
    pc = os.path.join(ZXING_PREFIX, "lib", "pkgconfig")
    env = dict(os.environ, PKG_CONFIG_PATH=pc + ":" + os.environ.get("PKG_CONFIG_PATH", ""))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "zxing"], capture_output=True, text=True, env=env)
    if flags.returncode != 0:
        return None, f"no zxing-cpp build with the C API under {ZXING_PREFIX} (pkg-config zxing failed)"
    ver = subprocess.run(["pkg-config", "--modversion", "zxing"], capture_output=True, text=True, env=env).stdout.strip()
    src, exe = os.path.join(tmp, "reader.c"), os.path.join(tmp, "reader")
    with open(src, "w") as f:
        f.write(C_READER)
    p = subprocess.run(["c++", "-x", "c", src, "-x", "none", "-o", exe, *flags.stdout.split(), "-lpthread"], capture_output=True, text=True)
    if p.returncode != 0:
        p = subprocess.run(["cc", src, "-o", exe, *flags.stdout.split(), "-lstdc++", "-lm", "-lpthread"], capture_output=True, text=True)
    if p.returncode != 0:
        return None, f"the C API reader did not compile: {p.stderr[-300:]}"
    return (exe, ver), None


def c_reads(reader, path, tmp):
    from PIL import Image
    exe, _ = reader
    with Image.open(path) as im:
        grey = im.convert("L")
    raw = os.path.join(tmp, "img.grey")
    with open(raw, "wb") as f:
        f.write(grey.tobytes())
    p = subprocess.run([exe, str(grey.width), str(grey.height), raw], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"C API reader failed on {path}: {p.stderr}")
    out = []
    for line in p.stdout.splitlines():
        fmt, idx, size, sid, sym, hx = line.split("\t")
        out.append({"format": fmt, "sequence_index": int(idx), "sequence_size": int(size), "sequence_id": sid,
                    "symbology_identifier": sym, "text": bytes.fromhex(hx).decode("utf-8", errors="replace")})
    return out


def pick_samples(corpus, out):
    """Copies one sample per family; returns [(file, symbology, expected text, source)]."""
    man = json.load(open(os.path.join(corpus, "manifest.json")))
    by_path = {e["path"]: e for e in man["images"]}
    picked = []
    for family, sym, candidates in SAMPLE_PICKS:
        for rel in candidates:
            e = by_path.get(rel)
            if not e or "text" not in e:
                continue
            src = os.path.join(corpus, rel)
            if hashlib.sha256(open(src, "rb").read()).hexdigest() != e["sha256"]:
                sys.exit(f"{rel}: sha256 differs from the corpus manifest")
            reads = pypi_reads(src)
            if any(r["text"] == e["text"] or r["text_plain"] == e["text"] for r in reads):
                name = f"{sym}-{os.path.basename(rel).lstrip('#')}"
                shutil.copyfile(src, os.path.join(out, name))
                picked.append((name, sym, e["text"], rel))
                break
        else:
            sys.exit(f"no sample of {family} that zxing-cpp 3.1 reads among {candidates}")
    return picked


def describe(folder, entries, reader, tmp, seq_expect=None):
    """manifest entries with what zxing-cpp reads (PyPI; C API for sequences)."""
    items = []
    for name, sym, payload, how in entries:
        path = os.path.join(folder, name)
        it = {"file": name, "symbology": sym, "payload": payload, "made_by" if seq_expect is not None else "source": how,
              "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(), "zxing_cpp_pypi": pypi_reads(path)}
        if not it["zxing_cpp_pypi"]:
            sys.exit(f"{name}: zxing-cpp 3.1 (PyPI) reads nothing")
        if reader:
            it["zxing_cpp_c_api"] = c_reads(reader, path, tmp)
            if not it["zxing_cpp_c_api"]:
                sys.exit(f"{name}: zxing-cpp's C API reads nothing")
        if seq_expect is not None and name.startswith("qr-sequence"):
            part = name[len("qr-sequence-"):-len(".png")]
            it["structured_append_written"] = seq_expect if part == "3in1" else [seq_expect[int(part[0]) - 1]]
            for r, w in zip(it.get("zxing_cpp_c_api", []), it["structured_append_written"]):
                if (r["sequence_index"], r["sequence_size"], r["sequence_id"]) != (w["index"], w["count"], str(w["parity"])):
                    sys.exit(f"{name}: the C API reads {r}, segno wrote {w}")
        items.append(it)
    return items


def readme(title, intro, items, c_note):
    lines = [f"# {title}", "", intro, "", "| file | symbology | payload (generator input / corpus's expected text) | zxing-cpp 3.1 reads (format: text) |", "|---|---|---|---|"]
    esc = lambda s: json.dumps(s, ensure_ascii=False)[1:-1].replace("|", "\\|")
    for it in items:
        reads = "; ".join(f"{r['format']}: `{esc(r['text'])}`" for r in it["zxing_cpp_pypi"])
        lines.append(f"| `{it['file']}` | {it['symbology']} | `{esc(it['payload'])}` | {reads} |")
    lines += ["", "Texts are JSON-escaped here; manifest.json has them exactly, with bytes, symbology identifier, EC level and",
              "extras as zxing-cpp 3.1 from PyPI reads them (`text`: HRI text mode, the default; `text_plain`: TextMode.Plain).",
              "HRI and plain differ for GS1 codes (HRI `(01)...` with the AIs in brackets, plain the raw element string) and for",
              "control characters (HRI shows GS/RS as the symbols U+241D/U+241E, plain keeps them).", c_note, ""]
    return "\n".join(lines)


def build(own_dir, samples_dir, corpus, tmp):
    os.makedirs(own_dir, exist_ok=True)
    reader, why = c_reader(tmp)
    made, seq = make_own(own_dir)
    items = describe(own_dir, made, reader, tmp, sa_expected(seq))
    seq_items = [it for it in items if it["file"].startswith("qr-sequence")]
    if reader:
        c_note = (f"`zxing_cpp_c_api` in manifest.json: each file read again through the C API of zxing-cpp {reader[1]} (ZXingC.h, as\n"
                  "the bridge reads), with the structured-append fields (ZXing_Barcode_sequenceIndex/Size/Id: index 0-based, id the QR\n"
                  "parity byte in decimal), checked against what segno wrote (`structured_append_written`):")
        for it in seq_items:
            for r in it["zxing_cpp_c_api"]:
                c_note += f"\n- `{it['file']}`: index {r['sequence_index']}, size {r['sequence_size']}, id `{r['sequence_id']}`"
    else:
        c_note = f"Structured append: NOT read ({why}); manifest.json gives what segno wrote instead (`structured_append_written`)."
    joined = {"sequence_text": SEQUENCE_TEXT, "parts": [f"qr-sequence-{i}of3.png" for i in (1, 2, 3)], "sheet": "qr-sequence-3in1.png"}
    json.dump({"generator": "scripts/make-symbology-fixtures.py", "structured_append": joined, "files": items},
              open(os.path.join(own_dir, "manifest.json"), "w"), indent=1, ensure_ascii=False)
    open(os.path.join(own_dir, "README.md"), "w").write(readme(
        "Codes of our own for the symbologies zxing-cpp 3.1 adds",
        "Made by `python3 scripts/make-symbology-fixtures.py` (segno, zint, zxing-cpp's writer for DX film edge; fixed payloads;\n"
        "`--check` remakes them and compares). The structured-append QR sequence holds one message in 3 symbols:\n"
        "`qr-sequence-1of3.png` .. `3of3.png` one a file, `qr-sequence-3in1.png` all three in one image; joined, they give\n"
        f"`{SEQUENCE_TEXT}`", items, c_note))
    if corpus:
        os.makedirs(samples_dir, exist_ok=True)
        picked = pick_samples(corpus, samples_dir)
        sitems = describe(samples_dir, picked, reader, tmp)
        json.dump({"generator": "scripts/make-symbology-fixtures.py", "source": "zxing-cpp test/samples (Apache-2.0), via the shared corpus",
                   "files": sitems}, open(os.path.join(samples_dir, "manifest.json"), "w"), indent=1, ensure_ascii=False)
        open(os.path.join(samples_dir, "README.md"), "w").write(readme(
            "One zxing-cpp sample per new symbology",
            "Copied unchanged from zxing-cpp's test samples (https://github.com/zxing-cpp/zxing-cpp, `test/samples/`, Apache-2.0: see\n"
            "NOTICE) by `python3 scripts/make-symbology-fixtures.py`: the first of a short list per symbology that zxing-cpp 3.1 reads\n"
            "with the expected text. `payload` is the sample's expected text; `source` in manifest.json its path upstream.",
            sitems, "`zxing_cpp_c_api` in manifest.json: each file read again through zxing-cpp's C API (ZXingC.h)." if reader else ""))
        src = json.load(open(os.path.join(corpus, "manifest.json")))["source"]
        open(os.path.join(samples_dir, "NOTICE"), "w").write(
            "The images in this folder are test samples of zxing-cpp (https://github.com/zxing-cpp/zxing-cpp),\n"
            f"test/samples at commit {src['commit']}, copied unchanged apart from their names.\n"
            "zxing-cpp is licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0);\n"
            "many of its samples come from the ZXing project (Java), also under the Apache License 2.0.\n")
    return items


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="remake in a temporary folder and compare with the committed files")
    ap.add_argument("--corpus", default=CORPUS)
    a = ap.parse_args()
    corpus = a.corpus if os.path.exists(os.path.join(a.corpus, "manifest.json")) else None
    if not corpus:
        print(f"make-symbology-fixtures: no corpus at {a.corpus}: Tests/Fixtures/zxing-samples left as it is", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        if not a.check:
            build(OWN, SAMPLES, corpus, tmp)
            print(f"wrote {os.path.relpath(OWN, ROOT)}" + (f" and {os.path.relpath(SAMPLES, ROOT)}" if corpus else ""))
            return
        own, samples = os.path.join(tmp, "own"), os.path.join(tmp, "samples")
        build(own, samples, corpus, tmp)
        bad = []
        for got, want in ((own, OWN), (samples, SAMPLES) if corpus else (None, None)):
            if got is None:
                continue
            cmp = filecmp.dircmp(got, want)
            bad += [f"{os.path.relpath(want, ROOT)}/{f}" for f in cmp.diff_files + cmp.left_only + cmp.right_only]
        if bad:
            sys.exit("make-symbology-fixtures --check: differs: " + ", ".join(bad))
        print("make-symbology-fixtures --check: the committed fixtures are what the script makes")


if __name__ == "__main__":
    main()
