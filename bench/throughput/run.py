#!/usr/bin/env python3
"""Throughput benchmark: codesweep at each effort level against zbarimg, same files, same run.

usage: run.py CODESWEEP_BINARY PHOTOLIB_DIR [--jobs 2] [--efforts fast,normal,thorough]
              [--isolation process,none] [--zbarimg-parallel 2]

Prints, per tool: images, wall seconds, images/s, CPU seconds (user+sys of the whole process
tree), peak RSS of the process tree (sampled from /proc every 20 ms: the sweep and its
workers added up), codes found (payloads matching truth.json) and extra payloads; then the
ratios to zbarimg measured in the same run, which are the figures to quote: the machine is
shared and noisy, so absolute times drift.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("photolib")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--efforts", default="fast,normal,thorough")
    ap.add_argument("--isolation", default="process")
    ap.add_argument("--zbarimg-parallel", type=int, default=2)
    ap.add_argument("--out", default="bench-out/throughput")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    truth = json.load(open(os.path.join(a.photolib, "truth.json")))
    files = sorted(os.path.join(a.photolib, n) for n in truth["images"])
    n = len(files)
    rows = []

    # zbarimg: one process per image (its usual use in scripts), a.zbarimg_parallel at a time.
    zout = os.path.join(a.out, "zbarimg.txt")
    script = 'for f; do zbarimg -q "$f" 2>/dev/null | sed "s|^|$f\t|"; done'
    cmd = ["bash", "-c", f'printf "%s\\0" "$@" | xargs -0 -n 1 -P {a.zbarimg_parallel} bash -c \'{script}\' _', "_"] + files
    wall, cpu, rss = measure(cmd, zout)
    hits, expected, extra = score(parse_zbarimg(zout), truth)
    rows.append((f"zbarimg (xargs -P {a.zbarimg_parallel})", wall, cpu, rss, hits, expected, extra))
    base_rate = n / wall

    for iso in a.isolation.split(","):
        for effort in a.efforts.split(","):
            out = os.path.join(a.out, f"codesweep-{effort}-{iso}.jsonl")
            cmd = [a.binary, "scan", "-q", "--effort", effort, "--jobs", str(a.jobs), "--isolation", iso] + files
            wall, cpu, rss = measure(cmd, out)
            hits, expected, extra = score(parse_codesweep(out), truth)
            rows.append((f"codesweep --effort {effort} --isolation {iso}", wall, cpu, rss, hits, expected, extra))

    print(f"\nthroughput: {n} images from {a.photolib} (truth: {sum(len(v) for v in truth['images'].values())} codes), --jobs {a.jobs}, {os.cpu_count()} cores")
    print(f"{'tool':48} {'wall s':>7} {'img/s':>7} {'x zbarimg':>9} {'cpu s':>7} {'peak RSS MiB':>12} {'codes':>7} {'extra':>5}")
    for name, wall, cpu, rss, hits, expected, extra in rows:
        rate = n / wall
        print(f"{name:48} {wall:7.1f} {rate:7.2f} {rate / base_rate:9.2f} {cpu:7.1f} {rss:12.0f} {hits:>3}/{expected:<3} {extra:5}")


if __name__ == "__main__":
    main()
