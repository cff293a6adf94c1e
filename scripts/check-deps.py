#!/usr/bin/env python3
"""Every Swift target's declared dependencies (Package.swift) are exactly the package modules and
products its sources import: none declared and unused, none imported and undeclared (SwiftPM
rebuilds a target when a module it declares changes, not one it only reaches through another).

usage: scripts/check-deps.py [PACKAGE_DIR]   (default: .)

Prints each mismatch as `Target: declares X, imports nothing of it` or `Target: imports X, does not
declare it`, and exits 1 if there is one; exits 2 if it found no target or a target's folder holds
no Swift file (a gate that checked nothing must not pass). System modules (Foundation, Glibc,
Testing, ...) are not dependencies; a C target's linked libraries are not checked.
"""
import glob
import os
import re
import sys

SYSTEM = {"Foundation", "FoundationEssentials", "FoundationXML", "FoundationNetworking", "Glibc", "Darwin",
          "Dispatch", "Testing", "XCTest", "Synchronization", "_Concurrency", "os"}
TARGET = re.compile(r'\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"(\w+)"')
IMPORT = re.compile(r'^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?import\s+'
                    r'(?:(?:struct|enum|class|protocol|func|var|let|typealias)\s+)?(\w+)', re.M)


def targets(manifest):
    """(kind, name, declared dependencies, path) of each target, from the manifest's text."""
    starts = [(m.start(), m.group(1), m.group(2)) for m in TARGET.finditer(manifest)]
    out = []
    for k, (pos, kind, name) in enumerate(starts):
        # The target's text: up to the parenthesis that closes `.target(`.
        depth, i = 0, manifest.index("(", pos)
        while True:
            c = manifest[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        text = manifest[pos:i]
        deps = set()
        m = re.search(r"dependencies:\s*\[(.*?)\]\s*(?:,|$)", text, re.S)
        if m:
            body = re.sub(r"//[^\n]*", "", m.group(1))
            deps |= {d for d in re.findall(r'(?<![\w.])"(\w+)"', re.sub(r"\.product\([^)]*\)", "", body))}
            deps |= set(re.findall(r'\.product\(\s*name:\s*"(\w+)"', body))
        p = re.search(r'path:\s*"([^"]+)"', text)
        out.append((kind, name, deps, p.group(1) if p else ("Tests/" + name if kind == "testTarget" else "Sources/" + name)))
    return out


def main(argv):
    root = argv[0] if argv else "."
    manifest = open(os.path.join(root, "Package.swift"), encoding="utf-8").read()
    found = targets(manifest)
    if not found:
        print("check-deps: no target in Package.swift: nothing was checked", file=sys.stderr)
        return 2
    problems, checked = 0, 0
    for kind, name, deps, path in found:
        if kind == "systemLibrary":
            continue
        files = glob.glob(os.path.join(root, path, "**", "*.swift"), recursive=True)
        if not files:
            if glob.glob(os.path.join(root, path, "**", "*.c*"), recursive=True):
                continue  # a C or C++ target: its imports are #includes
            print(f"check-deps: {name}: no Swift file under {path}: nothing was checked", file=sys.stderr)
            return 2
        checked += 1
        imports = set()
        for f in files:
            text = open(f, encoding="utf-8").read()
            # Swift source inside string literals (tests write scripts) is not an import.
            text = re.sub(r'"""(?:.|\n)*?"""', "", text)
            imports |= set(IMPORT.findall(text))
        imports -= SYSTEM
        for d in sorted(deps - imports):
            print(f"{name}: declares {d}, imports nothing of it")
            problems += 1
        for i in sorted(imports - deps):
            print(f"{name}: imports {i}, does not declare it")
            problems += 1
    print(f"check-deps: {checked} Swift targets, {problems} mismatches", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
