#!/usr/bin/env python3
"""`make test`'s runner: the whole built suite in SHARDS test processes side by side.

usage: scripts/run-tests.py [--shards N] [SWIFT]

swift-testing runs a process's tests on a pool as wide as the machine has cores, and a test that
waits for a child process (most integration tests run the codesweep binary or an image tool) holds
its thread while it waits: one process leaves cores idle. Here the suites are dealt out to N
processes (default 2), each the test runner `swift test` would start (the built
*PackageTests.xctest) with `--filter`, each suite whole in one of them (a
.serialized suite stays serialized), and they run at once. Each shard's output goes to
.build/test-shard-K.log and is printed when it ends; then a line a shard and the total.

Exits 1 when a shard fails, or when the shards ran a different number of tests than
the runner's `--list-tests` lists (a test no filter took must not pass unnoticed); 2 when nothing
is listed or no runner is built.
"""
import os
import re
import subprocess
import sys
import time

RUN = re.compile(r'Test run with (\d+) tests? (?:in \d+ suites? )?(passed|failed) after ([0-9.]+) seconds')


def main(argv):
    shards = 2
    if len(argv) >= 2 and argv[0] == "--shards":
        shards = max(1, int(argv[1]))
        argv = argv[2:]
    swift = argv[0] if argv else "swift"
    # The test runner `swift test` starts, started here directly: two `swift test` would queue on
    # SwiftPM's lock of .build.
    bins = subprocess.run([swift, "build", "--show-bin-path"], capture_output=True, text=True).stdout.strip()
    runner = [r for r in (os.path.join(bins, f) for f in sorted(os.listdir(bins or "."))) if r.endswith("PackageTests.xctest")]
    if len(runner) != 1:
        print(f"run-tests: no single *PackageTests.xctest in {bins!r}: build the tests first", file=sys.stderr)
        return 2
    test = [runner[0], "--testing-library", "swift-testing"]
    listed = subprocess.run(test + ["--list-tests"], capture_output=True, text=True)
    ids = [l.strip() for l in listed.stdout.splitlines() if l.strip()]
    if listed.returncode != 0 or not ids:
        sys.stderr.write(listed.stderr)
        print("run-tests: --list-tests listed no test: nothing would run", file=sys.stderr)
        return 2
    # Suites whole, the biggest first, each to the shard with the fewest tests so far.
    suites = {}
    for i in ids:
        suites.setdefault(i.split("/")[0], []).append(i)
    groups = [[] for _ in range(shards)]
    counts = [0] * shards
    for name in sorted(suites, key=lambda s: (-len(suites[s]), s)):
        k = counts.index(min(counts))
        groups[k].append(name)
        counts[k] += len(suites[name])
    os.makedirs(".build", exist_ok=True)
    start = time.monotonic()
    procs = []
    for k, names in enumerate(groups):
        if not names:
            continue
        pattern = "^(" + "|".join(re.escape(n) for n in names) + ")(/|$)"
        log = open(f".build/test-shard-{k + 1}.log", "w")
        p = subprocess.Popen(test + ["--filter", pattern], stdout=log, stderr=subprocess.STDOUT)
        procs.append((k + 1, p, log, counts[k]))
    ran, failed, lines = 0, False, []
    for k, p, log, expected in procs:
        status = p.wait()
        log.close()
        text = open(f".build/test-shard-{k}.log", encoding="utf-8", errors="replace").read()
        sys.stdout.write(text)
        m = None
        for m in RUN.finditer(text):
            pass
        if status != 0 or m is None or m.group(2) != "passed":
            failed = True
        n = int(m.group(1)) if m else 0
        ran += n
        lines.append(f"shard {k}: {n} of {expected} tests, {'exit ' + str(status) if status else 'passed'}"
                     + (f" after {float(m.group(3)):.1f} s" if m else ", no result line"))
    print("\n== run-tests: " + "; ".join(lines))
    print(f"== run-tests: {ran} tests in {len(procs)} processes, {time.monotonic() - start:.1f} s wall")
    if ran != len(ids):
        print(f"run-tests: the shards ran {ran} tests, --list-tests lists {len(ids)}", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
