#!/usr/bin/env python3
"""Compares a `codesweep scan` JSONL report of Samples/ with Samples/expected.jsonl, the way the
test suite does (Tests/IntegrationTests/CodeSweep/SweepTests.swift, samplesMatchExpectedJSONL): the
same files (a container's members by their location) in the same order, the same status (and error kind), the same number of codes, each
expected code found by symbology and text, in the same frame, each corner within the line's
tolerance (pixels, largest of |dx|, |dy|). Fields the expectations do not name (timings, sizes,
mtimes, passes) are not compared. Exit 0 when everything matches; otherwise prints each difference
and exits 1.

    scripts/compare-expected.py REPORT.jsonl Samples/expected.jsonl --prefix Samples/
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("expected")
    ap.add_argument("--prefix", default="", help="what the report's paths start with (the scanned folder)")
    a = ap.parse_args()
    got = [json.loads(l) for l in open(a.report, encoding="utf-8") if l.strip()]
    want = [json.loads(l) for l in open(a.expected, encoding="utf-8") if l.strip()]
    problems = []
    # A container's member is named by its location (bundle.zip!/labels/a-qr.png).
    got_paths = [r.get("location", r.get("path", "")) for r in got]
    want_paths = [a.prefix + w["path"] for w in want]
    if got_paths != want_paths:
        problems.append("files differ:\n  got  %s\n  want %s" % (got_paths, want_paths))
    by_path = {r.get("location", r.get("path")): r for r in got}
    codes_checked = 0
    for w in want:
        path = a.prefix + w["path"]
        r = by_path.get(path)
        if r is None:
            continue
        if r.get("status") != w["status"]:
            problems.append("%s: status %s, expected %s (%s)" % (path, r.get("status"), w["status"], r.get("error")))
        if w.get("error_kind") and (r.get("error") or {}).get("kind") != w["error_kind"]:
            problems.append("%s: error kind %s, expected %s" % (path, (r.get("error") or {}).get("kind"), w["error_kind"]))
        codes = r.get("codes") or []
        if len(codes) != len(w["codes"]):
            problems.append("%s: %d codes %s, expected %d" % (path, len(codes), [c.get("text") for c in codes], len(w["codes"])))
        for wc in w["codes"]:
            match = [c for c in codes if c.get("symbology") == wc["symbology"] and c.get("text") == wc["text"]]
            if not match:
                problems.append("%s: %s %r not found" % (path, wc["symbology"], wc["text"]))
                continue
            c = match[0]
            codes_checked += 1
            if c.get("frame") != wc["frame"]:
                problems.append("%s: frame %s, expected %s" % (path, c.get("frame"), wc["frame"]))
            # A video's code: its span on screen, each end within one sample (0.25 s) and a frame.
            if "seconds" in wc and not (c.get("seconds") and all(abs(g - e) <= 0.3 for g, e in zip(c["seconds"], wc["seconds"]))):
                problems.append("%s: seconds %s, expected %s +- 0.3" % (path, c.get("seconds"), wc["seconds"]))
            corners = c.get("corners") or []
            if len(corners) != 4:
                problems.append("%s: %d corners" % (path, len(corners)))
            for i, (g, e) in enumerate(zip(corners, wc["corners"])):
                d = max(abs(g[0] - e[0]), abs(g[1] - e[1]))
                if d > wc["tolerance"]:
                    problems.append("%s: corner %d is %s, expected %s +- %s" % (path, i, g, e, wc["tolerance"]))
    for p in problems:
        print("  " + p)
    if not want or not got:
        print("  nothing to compare (%d expected lines, %d records)" % (len(want), len(got)))
        return 1
    print("%d files, %d codes compared with %s: %s" % (len(want), codes_checked, a.expected,
                                                      "all match" if not problems else "%d differences" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
