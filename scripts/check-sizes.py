#!/usr/bin/env python3
"""The size rules of CONTRIBUTING.md: no Swift file under Sources/ over 350 lines and no function
(func, init, deinit, subscript, or a computed property's body) over 80 lines, counted from its
declaration to its closing brace, comments and blank lines included.

usage: scripts/check-sizes.py [--max-file N] [--max-function N] [DIR ...]   (default: Sources)

Prints each breach as `path:line: ...` and exits 1 if there is one, 2 if it read no Swift file
(a gate that checked nothing must not pass). Braces inside string literals (also multi-line and
raw ones, with interpolations) and comments are not counted.
"""
import os
import re
import sys

DECL = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|fileprivate|internal|package|open|static|class|override|mutating|nonmutating|"
    r"nonisolated|final|convenience|required|dynamic|lazy|weak|unowned|isolated|consuming|borrowing|"
    r"indirect|optional|private\(set\)|package\(set\)|public\(set\)|fileprivate\(set\))\s+)*"
    r"(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<]|var\s+\w+\s*:[^={]*\{)")


def code_chars(text):
    """Yields (index, char) of the text outside comments and string literals; each string literal
    stands as one '"', interpolations inside strings are code again."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            level, i = 1, i + 2
            while i < n and level:
                if text.startswith("/*", i):
                    level, i = level + 1, i + 2
                elif text.startswith("*/", i):
                    level, i = level - 1, i + 2
                else:
                    i += 1
            continue
        if c == "#" or c == '"':
            m = re.match(r'(#*)("""|")', text[i:])
            if m:
                hashes, quote = m.group(1), m.group(2)
                i = skip_string(text, i + len(m.group(0)), hashes, quote)
                yield i - 1, '"'
                continue
        yield i, c
        i += 1


def skip_string(text, i, hashes, quote):
    """Index just past the string literal whose body starts at i."""
    close = quote + hashes
    escape = "\\" + hashes
    n = len(text)
    while i < n:
        if text.startswith(close, i):
            return i + len(close)
        if text.startswith(escape + "(", i):
            # An interpolation: code up to its matching ')', which may hold strings of its own.
            i += len(escape) + 1
            level = 1
            while i < n and level:
                ch = text[i]
                if ch == '"' or ch == "#":
                    m = re.match(r'(#*)("""|")', text[i:])
                    if m:
                        i = skip_string(text, i + len(m.group(0)), m.group(1), m.group(2))
                        continue
                if ch == "(":
                    level += 1
                elif ch == ")":
                    level -= 1
                i += 1
            continue
        if text.startswith(escape, i):
            i += len(escape) + 1
            continue
        i += 1
    return n


def functions(text):
    """(first line, last line, name) of each declaration with a body."""
    line_of = []
    line = 1
    for ch in text:
        line_of.append(line)
        if ch == "\n":
            line += 1
    code = list(code_chars(text))
    # Each '{' of code to its matching '}' (indices into code).
    match, stack = {}, []
    for k, (i, c) in enumerate(code):
        if c == "{":
            stack.append(k)
        elif c == "}" and stack:
            match[stack.pop()] = k
    lines = text.split("\n")
    first_open = {}
    for k, (i, c) in enumerate(code):
        if c == "{":
            first_open.setdefault(line_of[i], []).append(k)
    out = []
    for ln, src in enumerate(lines, start=1):
        m = DECL.match(src)
        if not m:
            continue
        # The body's brace: the first '{' on this line or within the next 15 lines (a long signature).
        for probe in range(ln, min(ln + 16, len(lines) + 1)):
            ks = first_open.get(probe)
            if ks:
                k = ks[0]
                if k in match:
                    end_line = line_of[code[match[k]][0]]
                    out.append((ln, end_line, m.group(1).split("(")[0].strip()))
                break
            if probe > ln and DECL.match(lines[probe - 1]):
                break  # a declaration without a body (a protocol requirement)
    return out


def main(argv):
    max_file, max_function, dirs = 350, 80, []
    it = iter(argv)
    for a in it:
        if a == "--max-file":
            max_file = int(next(it))
        elif a == "--max-function":
            max_function = int(next(it))
        else:
            dirs.append(a)
    files = []
    for d in dirs or ["Sources"]:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, f) for f in names if f.endswith(".swift")]
    if not files:
        print(f"check-sizes: no Swift file under {' '.join(dirs or ['Sources'])}: nothing was checked", file=sys.stderr)
        return 2
    breaches = 0
    for path in sorted(files):
        text = open(path, encoding="utf-8").read()
        n = text.count("\n") + (0 if text.endswith("\n") else 1)
        if n > max_file:
            print(f"{path}:1: {n} lines (at most {max_file} a file)")
            breaches += 1
        for first, last, name in functions(text):
            if last - first + 1 > max_function:
                print(f"{path}:{first}: {name} is {last - first + 1} lines (at most {max_function} a function)")
                breaches += 1
    print(f"check-sizes: {len(files)} files, {breaches} over the limits", file=sys.stderr)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
