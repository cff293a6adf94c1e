#!/usr/bin/env python3
"""Checks CodeSweep output against its JSON Schemas (docs/schema/) with PyPI's jsonschema.

    python3 scripts/validate-schema.py SCHEMA DOCUMENT [--lines]

SCHEMA is a schema file (docs/schema/record.schema.json or report.schema.json); every
*.schema.json beside it is registered too, so references between them ("record.schema.json",
"record.schema.json#/$defs/code") resolve. DOCUMENT is a file or '-' for standard input. With
--lines (the default for a name ending in .jsonl) every line is one record: one JSON value per
line, each line ending in a newline, no empty line. Otherwise the whole input is one document.

The JSON is read strictly (RFC 8259): no trailing commas, comments, NaN or Infinity, raw control
characters, duplicate keys, lone surrogates, trailing data or invalid UTF-8.

Prints every problem as 'DOCUMENT:LINE: PATH: message' (PATH like $.codes[0].bytes_b64) and
exits 0 when everything is valid, 1 when something is not, 2 on a usage or setup error (for
example jsonschema missing: python3 -m pip install jsonschema).
"""
import json
import pathlib
import sys

try:
    import jsonschema
    import referencing
    import referencing.jsonschema
except ImportError as e:  # a missing dependency must fail loudly, never pass a check
    sys.stderr.write(f"validate-schema: the python3 module '{e.name}' is missing "
                     f"(install it: python3 -m pip install 'jsonschema>=4.18'); python3 is {sys.executable}\n")
    sys.exit(2)


class JSONProblem(ValueError):
    pass


def reject_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise JSONProblem(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def reject_constant(name):
    raise JSONProblem(f"{name} is not JSON")


def check_strings(value, path="$"):
    """A lone surrogate escape (\\ud800) parses in Python but is no Unicode text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise JSONProblem(f"{path}: lone surrogate in a string")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_strings(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_strings(key, f"{path} (a key)")
            check_strings(item, f"{path}.{key}")


def parse(raw):
    """One strict JSON value from bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JSONProblem(f"invalid UTF-8 at byte {e.start}")
    try:
        value = json.loads(text, object_pairs_hook=reject_duplicates, parse_constant=reject_constant)
    except json.JSONDecodeError as e:
        raise JSONProblem(f"not JSON: {e.msg} at column {e.colno}")
    check_strings(value)
    return value


def where(error):
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def main(argv):
    args = [a for a in argv if a != "--lines"]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    schema_file = pathlib.Path(args[0])
    name = args[1]
    lines = "--lines" in argv or name.endswith(".jsonl")

    resources = []
    for f in sorted(schema_file.parent.glob("*.schema.json")) + [schema_file]:
        contents = json.loads(f.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(contents)
        resource = referencing.jsonschema.DRAFT202012.create_resource(contents)
        resources += [(f.name, resource)] + ([(contents["$id"], resource)] if "$id" in contents else [])
    registry = referencing.Registry().with_resources(resources)
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, registry=registry)

    raw = sys.stdin.buffer.read() if name == "-" else pathlib.Path(name).read_bytes()
    shown = "<stdin>" if name == "-" else name
    if lines:
        chunks = raw.split(b"\n")
        if chunks[-1] == b"":
            chunks.pop()  # the newline ending the last line (one missing is reported below)
        numbered = list(enumerate(chunks, start=1))
    else:
        numbered = [(1, raw)]

    problems = 0
    checked = 0

    def report(line, message):
        nonlocal problems
        problems += 1
        print(f"{shown}:{line}: {message}")

    if lines and not numbered:
        report(1, "no records")
    for line, chunk in numbered:
        if lines and not chunk:
            report(line, "empty line")
            continue
        try:
            value = parse(chunk)
        except JSONProblem as e:
            report(line, str(e))
            continue
        checked += 1
        for error in sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path))):
            report(line, f"{where(error)}: {error.message}")
    if lines and raw and not raw.endswith(b"\n"):
        report(len(numbered), "the last line has no newline (an incomplete record?)")
    if problems:
        print(f"{shown}: {problems} problem(s) in {len(numbered)} {'line' if lines else 'document'}(s)", file=sys.stderr)
        return 1
    print(f"{shown}: {checked} valid {'record' if lines else 'document'}(s) against {schema_file.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
