#!/usr/bin/env python3
"""Hostile corpus and mutation stress for codesweep (issue: never crash, never hang, never lose).

usage: run.py CODESWEEP_BINARY OUTDIR [--mutations 2000] [--seed 7] [--timeout 10] [--jobs 2]

Builds OUTDIR/hostile (every bad kind of file and folder a forensic sweep meets) and
OUTDIR/mutated (real code images corrupted at random, seeded), sweeps each with codesweep
(worker isolation on, CODESWEEP_TEST_HOOKS=1 so two files hang and crash a worker), and checks:
the sweep itself exits 1 (not a crash signal, not a hang), there is a record for every file
expected, every line is valid JSON. Prints the counts by status and error kind.
Runs as another user for the unreadable folder when started as root (root reads anything).
"""
import argparse, json, os, random, shutil, stat, struct, subprocess, sys, time, zlib

CONVERT = "/usr/bin/convert"


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bomb(w, h):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    # A tiny IDAT whose inflated stream would be w*h bytes: zlib of a few zero rows.
    idat = zlib.compress(b"\x00" * (min(w, 4096) + 1) * 4)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def jpeg_with_size(src, w, h):
    data = bytearray(open(src, "rb").read())
    i = 2
    while i < len(data) - 9:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        seglen = (data[i + 2] << 8) | data[i + 3]
        if marker in (0xC0, 0xC1, 0xC2):
            data[i + 5:i + 7] = struct.pack(">H", h)
            data[i + 7:i + 9] = struct.pack(">H", w)
            return bytes(data)
        i += 2 + seglen
    raise SystemExit("no SOF marker")


def make_bases(d):
    os.makedirs(d, exist_ok=True)
    bases = []
    for i, (fmt, extra) in enumerate([("png", []), ("jpg", ["-quality", "90"]), ("gif", []), ("webp", []), ("tiff", []), ("bmp", [])]):
        qr = os.path.join(d, f"qr{i}.png")
        subprocess.run(["qrencode", "-s", "6", "-o", qr, f"https://example.com/base/{i}"], check=True)
        out = os.path.join(d, f"base{i}.{fmt}")
        subprocess.run([CONVERT, qr, "-bordercolor", "white", "-border", "40"] + extra + [out], check=True)
        os.unlink(qr)
        bases.append(out)
    return bases


def build_hostile(root, bases, as_other_user):
    if os.path.exists(root):
        subprocess.run(["chmod", "-R", "u+rwx", root])
        shutil.rmtree(root)
    os.makedirs(root)
    expected = []  # paths that must get a record (relative to root's parent arg)

    def put(name, data, expect=True):
        p = os.path.join(root, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        if expect:
            expected.append(p)

    jpg = open(bases[1], "rb").read()
    png = open(bases[0], "rb").read()
    put("truncated.jpg", jpg[: len(jpg) // 2])
    put("truncated.png", png[: len(png) // 2])
    put("zero-bytes.jpg", b"")
    put("garbage.jpg", bytes(random.Random(1).randrange(256) for _ in range(4096)))
    put("png-named.jpg", png)  # wrong extension: decoded by its magic bytes
    put("bomb-100000x100000.png", png_bomb(100000, 100000))
    put("bomb-65535x65535.jpg", jpeg_with_size(bases[1], 65535, 65535))  # JPEG sides are 16-bit
    put("mvg-named.jpg", b"push graphic-context\nviewbox 0 0 640 480\nimage over 0,0 0,0 'https://127.0.0.1/x.png'\npop graphic-context\n")
    put("svg-named.jpg", b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd"/></svg>')
    put("msl-named.png", b'<?xml version="1.0"?><image><read filename="/etc/passwd"/></image>')
    put("text-named.gif", b"GIF89a but not really")
    put("hang.png", b"CODESWEEP-TEST-HANG")
    put("crash.png", b"CODESWEEP-TEST-CRASH")
    put("not-an-image.txt", b"hello", expect=False)  # skipped quietly when found by walking
    put(b"bad-name-\xff\xfe.png".decode("utf-8", "surrogateescape"), png)
    # symlink loop and a dangling link: skipped (no record), never followed forever
    os.symlink(".", os.path.join(root, "loop"))
    os.symlink("nowhere.png", os.path.join(root, "dangling.png"))
    # FIFO: must never be opened
    os.mkfifo(os.path.join(root, "fifo.png"))
    # very deep tree with an image at the bottom
    deep = root
    for k in range(200):
        deep = os.path.join(deep, "d")
    os.makedirs(deep)
    shutil.copy(bases[0], os.path.join(deep, "deep.png"))
    expected.append(os.path.join(deep, "deep.png"))
    # unreadable folder: one error record
    locked = os.path.join(root, "locked")
    os.makedirs(locked)
    shutil.copy(bases[0], os.path.join(locked, "inside.png"))
    os.chmod(locked, 0)
    if as_other_user:
        expected.append(locked)
    for b in bases:
        dst = os.path.join(root, "good", os.path.basename(b))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(b, dst)
        expected.append(dst)
    return expected


def build_mutated(root, bases, n, seed):
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root)
    rnd = random.Random(seed)
    originals = [open(b, "rb").read() for b in bases]
    paths = []
    for i in range(n):
        k = rnd.randrange(len(bases))
        data = bytearray(originals[k])
        how = rnd.random()
        if how < 0.4:  # flip bytes
            for _ in range(rnd.randint(1, 20)):
                data[rnd.randrange(len(data))] = rnd.randrange(256)
        elif how < 0.6:  # truncate
            data = data[: rnd.randrange(1, len(data))]
        elif how < 0.8:  # overwrite a block with random bytes
            s = rnd.randrange(len(data))
            for j in range(s, min(len(data), s + rnd.randint(8, 512))):
                data[j] = rnd.randrange(256)
        else:  # duplicate or delete a chunk
            s = rnd.randrange(len(data))
            e = min(len(data), s + rnd.randint(1, 256))
            data = data[:s] + (data[s:e] * 2 if rnd.random() < 0.5 else b"") + data[e:]
        ext = os.path.splitext(bases[k])[1]
        p = os.path.join(root, f"m{i:05d}{ext}")
        open(p, "wb").write(bytes(data))
        paths.append(p)
    return paths


def sweep(binary, target, out, jobs, timeout, as_other_user):
    env = dict(os.environ, CODESWEEP_TEST_HOOKS="1")
    cmd = [binary, "scan", "-q", "--jobs", str(jobs), "--timeout", str(timeout), "-o", out, target]
    if as_other_user:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
    return p.returncode, time.monotonic() - t0, p.stderr.decode(errors="replace")


def summarize(label, out, expected, rc, wall):
    recs = []
    bad_lines = 0
    for line in open(out, "rb"):
        try:
            recs.append(json.loads(line))
        except ValueError:
            bad_lines += 1
    def rec_path(r):
        if "path_b64" in r:
            import base64
            return base64.b64decode(r["path_b64"]).decode("utf-8", "surrogateescape")
        return r["path"]
    got = {rec_path(r) for r in recs}
    missing = [p for p in expected if p not in got]
    kinds = {}
    for r in recs:
        k = r["status"] if r["status"] == "ok" else "error:" + r["error"]["kind"]
        if r["status"] == "ok" and r.get("warnings"):
            k = "ok (with warnings)"
        kinds[k] = kinds.get(k, 0) + 1
    codes = sum(len(r.get("codes", [])) for r in recs)
    ok = rc == 1 and not missing and bad_lines == 0
    print(f"\n{label}: {len(recs)} records for {len(expected)} expected files, exit status {rc}, {wall:.1f} s, {codes} codes found")
    for k in sorted(kinds):
        print(f"  {k:28} {kinds[k]}")
    if missing:
        print(f"  MISSING records: {len(missing)}: {missing[:5]}")
    if bad_lines:
        print(f"  INVALID JSON lines: {bad_lines}")
    print(f"  {label}: {'PASS' if ok else 'FAIL'} (sweep exit 1, no crash or hang of the sweep, a record for every file)")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("outdir")
    ap.add_argument("--mutations", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    outdir = os.path.abspath(a.outdir)
    os.makedirs(outdir, exist_ok=True)
    as_other = os.geteuid() == 0 and shutil.which("setpriv") is not None
    if as_other:
        os.chmod(outdir, 0o777)
    bases = make_bases(os.path.join(outdir, "bases"))
    hostile = os.path.join(outdir, "hostile")
    expected = build_hostile(hostile, bases, as_other)
    mutated = os.path.join(outdir, "mutated")
    mpaths = build_mutated(mutated, bases, a.mutations, a.seed)
    if as_other:
        subprocess.run(["chmod", "-R", "a+rwX", os.path.join(outdir, "bases"), mutated])
        for dirpath, dirnames, filenames in os.walk(hostile):
            if os.path.basename(dirpath) == "locked":
                continue
            os.chmod(dirpath, 0o777)
    ok = True
    out = os.path.join(outdir, "hostile.jsonl")
    rc, wall, err = sweep(binary, hostile, out, a.jobs, a.timeout, as_other)
    ok &= summarize("hostile corpus", out, expected, rc, wall)
    out = os.path.join(outdir, "mutated.jsonl")
    rc, wall, err = sweep(binary, mutated, out, a.jobs, a.timeout, as_other)
    ok &= summarize(f"{a.mutations} mutated images (seed {a.seed})", out, mpaths, rc, wall)
    subprocess.run(["chmod", "-R", "u+rwx", hostile])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
