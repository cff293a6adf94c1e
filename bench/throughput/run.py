#!/usr/bin/env python3
"""Throughput benchmark: codesweep at each effort level against zbarimg, same files, same run.

usage: run.py CODESWEEP_BINARY PHOTOLIB_DIR [--jobs 2] [--efforts fast,normal,thorough]
              [--isolation process,none] [--zbarimg-parallel 2] [--textured DIR]

Prints, per tool: images, wall seconds, images/s, CPU seconds (user+sys of the whole process
tree), peak RSS of the process tree (sampled from /proc every 20 ms: the sweep and its
workers added up), codes found (payloads matching truth.json) and extra payloads; then the
ratios to zbarimg measured in the same run, which are the figures to quote: the machine is
shared and noisy, so absolute times drift.

--textured DIR (make_photolib.py --textured N) also runs every tool on the textured negatives
(no code in any image: every read there is a false read) and prints three tables: the set as it
is, the textured negatives alone, and the set with them added (the sums of the two runs: wall
and CPU seconds added, peak RSS the larger; a single sweep over both would save codesweep one
start-up and one ramp-down, so the sum slightly understates its rate against zbarimg's).
"""
import argparse, json, os, subprocess, sys, threading, time


def tree_rss_kib(root_pid):
    """Sum of VmRSS over root_pid and its descendants."""
    children = {}
    rss = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
            ppid = int(parts[1])
            with open(f"/proc/{d}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss[int(d)] = int(line.split()[1])
                        break
            children.setdefault(ppid, []).append(int(d))
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [root_pid]
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        stack.extend(children.get(p, []))
    return total


def measure(cmd, stdout_path):
    """Runs cmd; returns (wall, cpu, peak_rss_mib)."""
    before = os.times()
    t0 = time.monotonic()
    with open(stdout_path, "wb") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        peak = 0
        stop = threading.Event()

        def sample():
            nonlocal peak
            while not stop.is_set():
                peak = max(peak, tree_rss_kib(p.pid))
                time.sleep(0.02)

        th = threading.Thread(target=sample, daemon=True)
        th.start()
        p.wait()
        stop.set()
        th.join()
    wall = time.monotonic() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, peak / 1024


def gtin(p):
    """UPC-A read as 12 digits and the same code as EAN-13 with a leading 0 are one payload."""
    return "0" + p if len(p) == 12 and p.isdigit() else p


def score(found_by_file, truth):
    hits = extra = expected = 0
    for name, payloads in truth["images"].items():
        expected += len(payloads)
        payloads = [gtin(p) for p in payloads]
        got = {gtin(p) for p in found_by_file.get(name, set())}
        hits += len(set(payloads) & got)
        extra += len(got - set(payloads))
    return hits, expected, extra


def parse_codesweep(path):
    found = {}
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        name = os.path.basename(r["path"])
        found[name] = {c.get("text") or "" for c in r.get("codes", [])}
    return found


def parse_zbarimg(path):
    # zbarimg prints "path:TYPE:payload" lines with our wrapper below
    found = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if "\t" not in line:
            continue
        name, payload = line.split("\t", 1)
        sym, _, data = payload.partition(":")
        found.setdefault(os.path.basename(name), set()).add(data)
    return found


def run_set(a, files, truth, out):
    """Every tool on `files`, one after the other; rows of (name, wall, cpu, rss, hits, expected,
    extra, files with extra reads)."""
    os.makedirs(out, exist_ok=True)
    rows = []

    def extras(found):
        want = {n: {gtin(p) for p in v} for n, v in truth["images"].items()}
        return sorted(n for n, got in found.items() if n in want and {gtin(p) for p in got} - want[n])

    # zbarimg: one process per image (its usual use in scripts), a.zbarimg_parallel at a time.
    zout = os.path.join(out, "zbarimg.txt")
    script = 'for f; do zbarimg -q "$f" 2>/dev/null | sed "s|^|$f\t|"; done'
    cmd = ["bash", "-c", f'printf "%s\\0" "$@" | xargs -0 -n 1 -P {a.zbarimg_parallel} bash -c \'{script}\' _', "_"] + files
    wall, cpu, rss = measure(cmd, zout)
    found = parse_zbarimg(zout)
    rows.append((f"zbarimg (xargs -P {a.zbarimg_parallel})", wall, cpu, rss, *score(found, truth), extras(found)))

    for iso in a.isolation.split(","):
        for effort in a.efforts.split(","):
            cout = os.path.join(out, f"codesweep-{effort}-{iso}.jsonl")
            cmd = [a.binary, "scan", "-q", "--effort", effort, "--jobs", str(a.jobs), "--isolation", iso] + files
            wall, cpu, rss = measure(cmd, cout)
            found = parse_codesweep(cout)
            rows.append((f"codesweep --effort {effort} --isolation {iso}", wall, cpu, rss, *score(found, truth),
                         extras(found)))
    return rows


def table(title, n, rows, show_extras=False):
    base_rate = n / rows[0][1]
    print(f"\n{title}")
    print(f"{'tool':48} {'wall s':>7} {'img/s':>7} {'x zbarimg':>9} {'cpu s':>7} {'peak RSS MiB':>12} {'codes':>7} {'extra':>5}")
    for name, wall, cpu, rss, hits, expected, extra, where in rows:
        rate = n / wall
        print(f"{name:48} {wall:7.1f} {rate:7.2f} {rate / base_rate:9.2f} {cpu:7.1f} {rss:12.0f} {hits:>3}/{expected:<3} {extra:5}")
    if show_extras:
        for name, *_, where in rows:
            if where:
                print(f"  false reads by {name.split(' (')[0]}: {', '.join(where)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("photolib")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--efforts", default="fast,normal,thorough")
    ap.add_argument("--isolation", default="process")
    ap.add_argument("--zbarimg-parallel", type=int, default=2)
    ap.add_argument("--textured", metavar="DIR", help="textured negatives (make_photolib.py --textured N)")
    ap.add_argument("--out", default="bench-out/throughput")
    a = ap.parse_args()
    truth = json.load(open(os.path.join(a.photolib, "truth.json")))
    files = sorted(os.path.join(a.photolib, n) for n in truth["images"])
    n = len(files)
    codes = sum(len(v) for v in truth["images"].values())
    rows = run_set(a, files, truth, a.out)
    head = f"--jobs {a.jobs}, {os.cpu_count()} cores"
    table(f"throughput: {n} images from {a.photolib} (truth: {codes} codes), {head}", n, rows)
    if not a.textured:
        return
    ttruth = json.load(open(os.path.join(a.textured, "truth.json")))
    tfiles = sorted(os.path.join(a.textured, name) for name in ttruth["images"])
    trows = run_set(a, tfiles, ttruth, os.path.join(a.out, "textured"))
    table(f"textured negatives: {len(tfiles)} images from {a.textured} (no codes: every read is false), {head}",
          len(tfiles), trows, show_extras=True)
    both = [(r[0], r[1] + t[1], r[2] + t[2], max(r[3], t[3]), r[4] + t[4], r[5] + t[5], r[6] + t[6], r[7] + t[7])
            for r, t in zip(rows, trows)]
    table(f"set + textured negatives: {n + len(tfiles)} images (sums of the two runs above; peak RSS the larger)",
          n + len(tfiles), both)
    print("\nThe machine is shared: times are noisy; the x zbarimg ratios within one run are the figures to quote.")


if __name__ == "__main__":
    main()
