#!/usr/bin/env python3
"""The slowest tests of a `swift test` run, from its output (swift-testing's lines).

usage: swift test --skip-build 2>&1 | scripts/test-times.py [--top N]
       scripts/test-times.py [--top N] LOG

Passes the output through unchanged, then prints the N (default 25) slowest tests and suites
with their seconds, and the run's own total line. Exits 1 when the run failed or printed no
test result at all (a run that timed nothing must not look like a fast one).
"""
import re
import sys

# A test line: `Test name()` or `Test "display name"`, then, for a parameterized one,
# `with N test cases`, then the result.
CASES = r'(?: with \d+ test cases?)?'
TEST = re.compile(r'^[^\w]*Test (\S+?)(?:\(.*?\))?' + CASES + r' (passed|failed) after ([0-9.]+) seconds')
NAMED = re.compile(r'^[^\w]*Test "(.+?)"' + CASES + r' (passed|failed) after ([0-9.]+) seconds')
SUITE = re.compile(r'^[^\w]*Suite "?(.+?)"? (passed|failed) after ([0-9.]+) seconds')
RUN = re.compile(r'^[^\w]*Test run with (\d+) tests? (?:in \d+ suites? )?(passed|failed) after ([0-9.]+) seconds')


def main(argv):
    top = 25
    if len(argv) >= 2 and argv[0] == "--top":
        top = int(argv[1])
        argv = argv[2:]
    src = open(argv[0], encoding="utf-8", errors="replace") if argv else sys.stdin
    tests, suites, run, failed = [], [], None, False
    for line in src:
        if not argv:
            sys.stdout.write(line)
        m = RUN.match(line)
        if m:
            run = (int(m.group(1)), m.group(2), float(m.group(3)))
            failed |= m.group(2) == "failed"
            continue
        m = SUITE.match(line)
        if m:
            suites.append((float(m.group(3)), m.group(1), m.group(2)))
            continue
        m = NAMED.match(line) or TEST.match(line)
        if m:
            tests.append((float(m.group(3)), m.group(1), m.group(2)))
            failed |= m.group(2) == "failed"
    sys.stdout.flush()
    if not tests:
        print("test-times: no test result in the output: nothing was timed", file=sys.stderr)
        return 1
    print(f"\n== the {min(top, len(tests))} slowest of {len(tests)} tests (seconds)")
    for secs, name, status in sorted(tests, reverse=True)[:top]:
        print(f"{secs:8.2f}  {name}{'' if status == 'passed' else '  FAILED'}")
    if suites:
        print(f"\n== the {min(top, len(suites))} slowest of {len(suites)} suites")
        for secs, name, status in sorted(suites, reverse=True)[:top]:
            print(f"{secs:8.2f}  {name}")
    if run:
        print(f"\n== run: {run[0]} tests {run[1]} after {run[2]:.1f} s")
    return 1 if failed or run is None else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
