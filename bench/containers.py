#!/usr/bin/env python3
"""Containers read in place (issue 60): what reading pictures inside a ZIP costs against reading
them loose, and the peak memory of a sweep over a ZIP of 200,000 members against one of 2,000.
Prints figures; asserts nothing (exit 1 only when codesweep fails, 2 without the corpus).

  python3 bench/containers.py [--bin .build/release/codesweep] [--jobs 2] [--rounds 3]
                              [--pictures 500] [--counts 2000,200000] [--jobs1-rounds 1]
                              [--parts zip,memory] [--sample-ms 50]
                              [--out bench-out/containers]

1. ZIP against loose. The first PICTURES files of the shared zxing-cpp corpus
   (../shared/corpus/zxing-cpp) that are pictures by their first bytes (PNG, JPEG, WebP, GIF,
   BMP, TIFF), in sorted path order, copied once (cached in OUT) into OUT/loose/ under their
   corpus paths, and the same bytes under the same names into OUT/corpus-stored.zip (ZIP_STORED)
   and OUT/corpus-deflated.zip (ZIP_DEFLATED). `BIN scan -q --jobs J` reads the folder and each
   ZIP, default effort, ROUNDS times, the rounds interleaved; the medians of wall and of
   user+sys CPU seconds (getrusage(RUSAGE_CHILDREN) around each run) are printed, with the
   median of each round's ratio to the loose run beside it (the target: at most 1.1x). The
   (symbology, text) pairs read inside each ZIP are compared with the loose ones, as multisets and
   picture by picture (a member's name is its corpus path): any difference is printed. With
   --jobs1-rounds N (default 1), the loose folder and the stored ZIP are also timed with
   --jobs 1, and each is run once more at --jobs J with its process tree sampled, printing the CPU
   seconds of the coordinator and of each worker: to tell the cost of reading all of a
   container's members in one worker (the others idle) from the cost of reading a member.
2. Memory. ZIPs (ZIP_DEFLATED, cached) of COUNTS members: 100-byte text members (skipped: no
   record, only counted) and every 1,000th a PNG of a QR code (qrencode -s 2, about 60 x 60 px,
   a different payload each), so the decoder and the member records run at the same rate in
   every ZIP while the count grows. `BIN scan -q --jobs J ZIP` is run once per ZIP and its
   process tree sampled every 50 ms (--sample-ms) (/proc/PID/status of the coordinator and every descendant):
   the coordinator's and the largest worker's peak RSS (VmHWM), the peak of their RSS summed
   over a sample, and the peak GNU time would print (wait4's ru_maxrss: the largest process).
   Printed per ZIP with the members the container record counts, its read/skipped/failed and the
   wall seconds; then each peak's difference to the first count's (the target: within 64 MB).

Needs qrencode (the memory part's PNG members). The machine may be shared: compare within one run.
"""
import argparse, collections, json, os, resource, shutil, subprocess, sys, threading, time, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "zxing-cpp")
GEN_VERSION = 1
SIGNATURES = [b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM", b"II*\x00", b"MM\x00*"]


def is_picture(path):
    with open(path, "rb") as f:
        head = f.read(16)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return True
    return any(head.startswith(s) for s in SIGNATURES)


def pick(n):
    """The first n pictures of the corpus by content, sorted by path (relative to the corpus)."""
    found = []
    for d, dirs, files in os.walk(CORPUS):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(d, name)
            if os.path.isfile(full) and is_picture(full):
                found.append(os.path.relpath(full, CORPUS))
    found.sort()
    return found[:n]


def make_pictures(out, n):
    """OUT/loose/ and the two ZIPs, made once for this choice of pictures."""
    chosen = pick(n)
    os.makedirs(out, exist_ok=True)
    stamp = os.path.join(out, "pictures.json")
    key = {"version": GEN_VERSION, "pictures": chosen, "sizes": [os.path.getsize(os.path.join(CORPUS, p)) for p in chosen]}
    loose = os.path.join(out, "loose")
    zips = {"stored": os.path.join(out, "corpus-stored.zip"), "deflated": os.path.join(out, "corpus-deflated.zip")}
    if os.path.exists(stamp) and json.load(open(stamp)) == key:
        return chosen, loose, zips
    shutil.rmtree(loose, ignore_errors=True)
    for method, path in zips.items():
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED if method == "stored" else zipfile.ZIP_DEFLATED) as z:
            for rel in chosen:
                data = open(os.path.join(CORPUS, rel), "rb").read()
                z.writestr(zipfile.ZipInfo(rel, date_time=(2026, 12, 1, 0, 0, 0)), data,
                           compress_type=zipfile.ZIP_STORED if method == "stored" else zipfile.ZIP_DEFLATED)
    for rel in chosen:
        os.makedirs(os.path.join(loose, os.path.dirname(rel)), exist_ok=True)
        shutil.copyfile(os.path.join(CORPUS, rel), os.path.join(loose, rel))
    json.dump(key, open(stamp, "w"))
    return chosen, loose, zips


def timed(cmd, out):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"containers: {' '.join(cmd)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-600:]}")
    return wall, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def code_key(c):
    return (c.get("symbology"), c.get("text", c.get("bytes_b64")))


def codes_by_picture(recs, loose=None):
    """{corpus path: Counter of (symbology, text)} and the container's own record (or None)."""
    by, container = {}, None
    for r in recs:
        if "container" in r:
            container = r
            continue
        if "member" in r:
            rel = r["member"][-1]["name"]
        else:
            rel = os.path.relpath(r["path"], loose)
        by.setdefault(rel, collections.Counter()).update(code_key(c) for c in r.get("codes", []))
    return by, container


def steal_seconds():
    """CPU seconds the hypervisor gave other guests so far (/proc/stat), or 0."""
    try:
        with open("/proc/stat") as f:
            return int(f.readline().split()[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def median(xs):
    return sorted(xs)[len(xs) // 2]


def compare(name, chosen, loose_by, zip_by):
    total_l = sum((loose_by.get(p, collections.Counter()) for p in chosen), collections.Counter())
    total_z = sum((zip_by.get(p, collections.Counter()) for p in chosen), collections.Counter())
    extra_names = sorted(set(zip_by) - set(chosen))
    diffs = [(p, loose_by.get(p, collections.Counter()), zip_by.get(p, collections.Counter())) for p in chosen
             if loose_by.get(p, collections.Counter()) != zip_by.get(p, collections.Counter())]
    same = total_l == total_z and not diffs and not extra_names
    print(f"  {name}: {sum(total_z.values())} codes ({len(set(total_z))} distinct symbology+text) against loose "
          f"{sum(total_l.values())} ({len(set(total_l))}): {'the same, picture by picture' if same else 'DIFFERENT'}")
    for p, lc, zc in diffs[:20]:
        print(f"    {p}: loose only {sorted((lc - zc).elements())}, zip only {sorted((zc - lc).elements())}")
    if len(diffs) > 20:
        print(f"    ... and {len(diffs) - 20} more pictures")
    for p in extra_names[:5]:
        print(f"    member {p!r} is not one of the pictures")
    return same


def zip_vs_loose(a):
    if not os.path.isdir(CORPUS):
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        sys.exit(2)
    out = a.out
    chosen, loose, zips = make_pictures(out, a.pictures)
    size = sum(os.path.getsize(os.path.join(loose, p)) for p in chosen)
    kinds = collections.Counter(os.path.splitext(p)[1].lower() for p in chosen)
    print(f"\n1. {len(chosen)} pictures of {os.path.normpath(CORPUS)} ({size / 1e6:.1f} MB; "
          + ", ".join(f"{k} {v}" for k, v in kinds.most_common()) + f"), loose and in one ZIP, --jobs {a.jobs}, default effort")
    runs = [("loose", loose, a.jobs), ("zip stored", zips["stored"], a.jobs), ("zip deflated", zips["deflated"], a.jobs)]
    times = {name: [] for name, _, _ in runs}
    outs = {name: os.path.join(out, f"run-{name.replace(' ', '-')}.jsonl") for name, _, _ in runs}
    steal0 = steal_seconds()
    for _ in range(a.rounds):
        for name, target, jobs in runs:
            times[name].append(timed([a.bin, "scan", "-q", "--jobs", str(jobs), target], outs[name]))
    one = {}
    for _ in range(a.jobs1_rounds):
        for name, target in [("loose", loose), ("zip stored", zips["stored"])]:
            one.setdefault(name, []).append(timed([a.bin, "scan", "-q", "--jobs", "1", target], os.path.join(out, "run-jobs1.jsonl")))
    spread = {}
    for name, target in [("loose", loose), ("zip stored", zips["stored"])] if a.jobs1_rounds else []:
        cpu = {}
        w = sampled([a.bin, "scan", "-q", "--jobs", str(a.jobs), target], os.path.join(out, "run-sampled.jsonl"), 0.05, cpu)[0]
        spread[name] = (w, cpu.pop("coordinator", 0), sorted(cpu.values(), reverse=True))
    steal = steal_seconds() - steal0
    base = times["loose"]
    print(f"\n  {'':14s}{'wall s':>9s}{'cpu s':>9s}{'wall x loose':>14s}{'cpu x loose':>13s}   rounds (wall s)")
    for name, _, _ in runs:
        w = median([t[0] for t in times[name]])
        c = median([t[1] for t in times[name]])
        rw = median([t[0] / b[0] for t, b in zip(times[name], base)])
        rc = median([t[1] / b[1] for t, b in zip(times[name], base)])
        print(f"  {name:14s}{w:9.2f}{c:9.2f}{rw:13.2f}x{rc:12.2f}x   " + " ".join(f"{t[0]:.2f}" for t in times[name]))
    if one:
        lw, lc = median([t[0] for t in one["loose"]]), median([t[1] for t in one["loose"]])
        zw, zc = median([t[0] for t in one["zip stored"]]), median([t[1] for t in one["zip stored"]])
        print(f"  --jobs 1: loose {lw:.2f} s wall, {lc:.2f} s cpu; zip stored {zw:.2f} s wall, {zc:.2f} s cpu "
              f"({zw / lw:.2f}x wall, {zc / lc:.2f}x cpu)")
    for name, (w, coord, per) in spread.items():
        print(f"  --jobs {a.jobs}, {name}, sampled: {w:.2f} s wall; CPU s: coordinator {coord:.2f}, "
              f"{len(per)} worker(s) " + ", ".join(f"{c:.2f}" for c in per))
    print(f"  Seconds: the median of {a.rounds} interleaved round(s); x: the median of the rounds' ratios to the loose "
          f"round beside them (target: zip <= 1.1x loose). CPU time stolen by other guests: {steal:.1f} s.")
    loose_by, _ = codes_by_picture(records(outs["loose"]), loose)
    print()
    same = True
    for name in ("zip stored", "zip deflated"):
        zip_by, container = codes_by_picture(records(outs[name]))
        c = (container or {}).get("container", {})
        print(f"  {name}: container record: format {c.get('format')}, members {c.get('members')}, read {c.get('read')}, "
              f"skipped {c.get('skipped')}, failed {c.get('failed')}, unpacked_bytes {c.get('unpacked_bytes')}")
        same = compare(name, chosen, loose_by, zip_by) and same
    return same


def png_of(text, tmp):
    path = os.path.join(tmp, "qr.png")
    subprocess.run(["qrencode", "-s", "2", "-m", "4", "-l", "L", "-o", path, text], check=True)
    return open(path, "rb").read()


def text_member(i):
    line = f"codesweep bench member {i:07d}: plain text, not a picture; counted as skipped. "
    return (line * 2)[:99].encode() + b"\n"


def make_many(out, n):
    """A ZIP of n members (cached): text, every 1,000th a QR code PNG. Returns its path and the payloads."""
    path = os.path.join(out, f"members-{n}.zip")
    stamp = path + f".v{GEN_VERSION}"
    payloads = [f"CODESWEEP-BENCH-{n}-{i:07d}" for i in range(0, n, 1000)]
    if os.path.exists(stamp) and os.path.exists(path):
        return path, payloads
    tmp = os.path.join(out, "tmp")
    os.makedirs(tmp, exist_ok=True)
    with zipfile.ZipFile(path + ".part", "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(n):
            if i % 1000 == 0:
                name, data = f"d{i // 1000:04d}/m{i:07d}.png", png_of(f"CODESWEEP-BENCH-{n}-{i:07d}", tmp)
            else:
                name, data = f"d{i // 1000:04d}/m{i:07d}.txt", text_member(i)
            z.writestr(zipfile.ZipInfo(name, date_time=(2026, 12, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_DEFLATED)
    os.replace(path + ".part", path)
    open(stamp, "w").close()
    return path, payloads


def descendants(pid):
    """pid's children, grandchildren and so on (/proc/PID/task/TID/children)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def cpu_seconds(pid):
    """utime + stime of pid so far (/proc/PID/stat), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def status_kb(pid):
    """(VmRSS, VmHWM) in kB, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
    except (OSError, KeyError, ValueError):
        return None


def sampled(cmd, out, every=0.05, cpu=None):
    """Runs cmd, sampling its process tree every `every` s. Returns wall s, the coordinator's
    VmHWM, the largest descendant's VmHWM, the peak summed VmRSS (all MiB), wait4's ru_maxrss
    (MiB) and the number of processes seen; `cpu`, a dict, gets each process's CPU seconds at
    its last sample."""
    cpu = {} if cpu is None else cpu
    with open(out, "wb") as f:
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.PIPE)
    t0 = time.monotonic()
    hwm, peak_sum, stop = {}, [0], threading.Event()

    def sample():
        while not stop.is_set():
            total = 0
            for pid in [p.pid] + descendants(p.pid):
                s = status_kb(pid)
                if s:
                    total += s[0]
                    hwm[pid] = max(hwm.get(pid, 0), s[1])
                    key = "coordinator" if pid == p.pid else pid
                    cpu[key] = cpu_seconds(pid) or cpu.get(key, 0)
            peak_sum[0] = max(peak_sum[0], total)
            stop.wait(every)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    stop.set()
    th.join()
    if p.returncode not in (0, 1):
        sys.exit(f"containers: {' '.join(cmd)} exited {p.returncode}: {err.decode(errors='replace')[-600:]}")
    workers = [v for k, v in hwm.items() if k != p.pid]
    return wall, hwm.get(p.pid, 0) / 1024, max(workers, default=0) / 1024, peak_sum[0] / 1024, ru.ru_maxrss / 1024, len(hwm)


def memory(a):
    if not shutil.which("qrencode"):
        print("the memory part needs qrencode (apt-get install qrencode)", file=sys.stderr)
        sys.exit(2)
    out = os.path.join(a.out, "members")
    os.makedirs(out, exist_ok=True)
    counts = [int(c) for c in a.counts.split(",")]
    print(f"\n2. Peak memory: ZIPs of tiny members (100-byte text, every 1,000th a ~60 px QR code PNG), --jobs {a.jobs}")
    print(f"\n  {'members':>9s}{'zip MB':>8s}{'wall s':>8s}{'coordinator':>14s}{'worker':>14s}{'sum':>14s}"
          f"{'time %M':>14s}   container record (members/read/skipped/failed), codes")
    rows = []
    for n in counts:
        path, payloads = make_many(out, n)
        res = os.path.join(out, f"run-{n}.jsonl")
        wall, coord, worker, total, maxrss, procs = sampled([a.bin, "scan", "-q", "--jobs", str(a.jobs), path], res, a.sample_ms / 1000)
        recs = records(res)
        c = next((r["container"] for r in recs if "container" in r), {})
        read = {code["text"] for r in recs if "member" in r for code in r.get("codes", [])}
        rows.append((n, coord, worker, total, maxrss))
        mib = "".join(f"{v:10.1f} MiB" for v in (coord, worker, total, maxrss))
        print(f"  {n:>9d}{os.path.getsize(path) / 1e6:8.1f}{wall:8.1f}{mib}"
              f"   {c.get('members')}/{c.get('read')}/{c.get('skipped')}/{c.get('failed')}, "
              f"{len(read & set(payloads))} of {len(payloads)} QR codes read ({procs} processes)")
    if len(rows) > 1:
        b = rows[0]
        for r in rows[1:]:
            print(f"  {r[0]:,} against {b[0]:,} members: coordinator {r[1] - b[1]:+.1f} MiB, worker {r[2] - b[2]:+.1f} MiB, "
                  f"sum {r[3] - b[3]:+.1f} MiB, time %M {r[4] - b[4]:+.1f} MiB (target: within 64 MB)")
    print(f"  coordinator, worker: each process's peak RSS (VmHWM, sampled every {a.sample_ms} ms; worker: the largest descendant);"
          " sum: the peak of their RSS summed in one sample; time %M: wait4's ru_maxrss (the largest process).")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/codesweep"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs1-rounds", type=int, default=1)
    ap.add_argument("--pictures", type=int, default=500)
    ap.add_argument("--counts", default="2000,200000")
    ap.add_argument("--parts", default="zip,memory")
    ap.add_argument("--sample-ms", type=int, default=50, help="the memory part's sampling interval")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench-out", "containers"))
    a = ap.parse_args()
    parts = a.parts.split(",")
    print(f"binary: {a.bin}")
    if "zip" in parts:
        zip_vs_loose(a)
    if "memory" in parts:
        memory(a)
    print("\nThe machine may be shared: compare within one run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
