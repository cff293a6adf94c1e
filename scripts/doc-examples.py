#!/usr/bin/env python3
"""Runs the shell examples of Markdown files, so a document cannot drift from the binary.

    python3 scripts/doc-examples.py [--bin PATH] [--root DIR] [--jobs N] [--timeout S] [-v] FILE...

What runs (fenced blocks, ``` or ~~~, indented or not):
- ```console: a transcript. A line starting with '$ ' is a command; a command whose line ends in
  '\\' goes on over the next lines (those have no '$ '). The lines after a command, up to the next
  '$ ' line, are its expected output, stdout and stderr together. In the expected output a line
  that is exactly '...' matches any number of lines (zero too), and '...' inside a line matches
  any text within that line. A line '[exit N]' right after the output (the section's last
  non-blank line) says the command exits with N; without it the command must exit 0. Trailing
  whitespace of every line, and trailing blank lines, are ignored on both sides. A console block
  must start with a command. Here-documents in a transcript are not supported (their body would
  read as output): put those in an sh block.
- ```sh, ```bash, ```shell: one script, run with `bash -e -o pipefail`; it must exit 0, its
  output is not compared.
- A block preceded by `<!-- no-run: REASON -->` (only blank lines between) is not run and counts
  as "not run" (use it for what needs a cluster, a network, root, or an unbuilt file). Any
  other info string (json, yaml, text, none) is ignored.

How it runs: every runnable block gets a fresh temporary directory as its working directory,
holding a symlink to every top-level entry of --root (the repository by default: this script's
parent's parent) except .git and .build*, so Samples/, docs/, examples/ read as in the repository
(writes through those links land in the repository: examples write their output to new names in
the working directory). The environment is the caller's without CODESWEEP_* variables, with
PATH = a private bin directory holding `codesweep` (a symlink to --bin) first, HOME = the
temporary directory, LC_ALL=C.UTF-8, NO_COLOR=1, TZ=UTC; standard input is /dev/null.
A console block's commands run one after another in ONE bash process (so `cd` and variables carry
over): each command is eval'ed in that shell with its stdout and stderr sent to a file of its own,
and its exit status is written beside it. A command that exits the shell (`exit 3`) ends the block:
the commands after it count as not reached, a failure. Each block has a timeout (--timeout,
default 120 s); when it expires its process group is killed and the block fails.

Reports every failure as FILE:LINE: the command, and expected against actual output as a short
diff; then one last line exactly 'N passed, N failed, N not run' (N counts blocks). Exits 0 when
everything ran passed; 1 when something failed or nothing was runnable (a gate that checked
nothing must not pass); 2 on a malformed document (an unclosed fence, an empty no-run reason, an
'[exit x]' whose x is not an integer, output before a console block's first command, a line
continued past the block's end) or a usage error (a missing file, no binary). --bin defaults to
ROOT/.build/debug/codesweep, else ROOT/.build/release/codesweep, else `codesweep` on PATH.
"""
import argparse
import concurrent.futures
import dataclasses
import difflib
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FENCE = re.compile(r'^(\s*)(`{3,}|~{3,})(.*)$')
NO_RUN = re.compile(r'^\s*<!--\s*no-run:(.*?)-->\s*$')
NO_RUN_LOOSE = re.compile(r'^\s*<!--\s*no-run\b')
EXIT = re.compile(r'^\[exit(?:\s+(.*?))?\s*\]$')
SCRIPT_KINDS = {"sh", "bash", "shell"}


class Malformed(Exception):
    pass


@dataclasses.dataclass
class Command:
    line: int          # 1-based line of the '$ ' line in the file
    text: str          # the command, continuation lines joined with newlines (bash reads '\\\n')
    expected: list     # expected output lines, rstripped, trailing blank lines dropped
    status: int = 0


@dataclasses.dataclass
class Block:
    path: str
    line: int          # 1-based line of the opening fence
    kind: str          # 'console' or 'script'
    body: list         # the block's lines (indentation of the fence removed)
    body_line: int     # 1-based line of the body's first line
    no_run: str = None
    commands: list = dataclasses.field(default_factory=list)


def parse_file(path):
    """The blocks of one Markdown file (ignored kinds are dropped); raises Malformed."""
    lines = pathlib.Path(path).read_text(encoding="utf-8").splitlines()
    blocks = []
    pending = None  # (reason, line) of a no-run marker waiting for its block
    i = 0
    while i < len(lines):
        line = lines[i]
        m = NO_RUN.match(line)
        if m or NO_RUN_LOOSE.match(line):
            reason = m.group(1).strip() if m else ""
            if not reason:
                raise Malformed(f"{path}:{i + 1}: a no-run marker needs a reason: <!-- no-run: REASON -->")
            if pending:
                print(f"{path}:{pending[1]}: warning: a no-run marker with no block after it", file=sys.stderr)
            pending = (reason, i + 1)
            i += 1
            continue
        f = FENCE.match(line)
        if not f:
            if line.strip() and pending:
                print(f"{path}:{pending[1]}: warning: a no-run marker with no block after it", file=sys.stderr)
                pending = None
            i += 1
            continue
        indent, fence, info = len(f.group(1)), f.group(2), f.group(3).strip()
        start = i
        body = []
        i += 1
        closed = False
        while i < len(lines):
            c = FENCE.match(lines[i])
            if c and c.group(2)[0] == fence[0] and len(c.group(2)) >= len(fence) and not c.group(3).strip():
                closed = True
                break
            raw = lines[i]
            strip = min(indent, len(raw) - len(raw.lstrip(" ")))
            body.append(raw[strip:])
            i += 1
        if not closed:
            raise Malformed(f"{path}:{start + 1}: the fence {fence}{info} is never closed")
        i += 1
        kind = info.split()[0].lower() if info else ""
        kind = "console" if kind == "console" else "script" if kind in SCRIPT_KINDS else None
        if kind:
            b = Block(path, start + 1, kind, body, start + 2, pending[0] if pending else None)
            if kind == "console":
                b.commands = parse_transcript(b)
            blocks.append(b)
        pending = None
    if pending:
        print(f"{path}:{pending[1]}: warning: a no-run marker with no block after it", file=sys.stderr)
    return blocks


def parse_transcript(block):
    commands = []
    body = block.body
    n = 0
    while n < len(body):
        line = body[n]
        if not line.startswith("$ "):
            if line.strip() and not commands:
                raise Malformed(f"{block.path}:{block.body_line + n}: a console block must start with a '$ ' command")
            n += 1
            continue
        first = n
        text = [line[2:]]
        while text[-1].rstrip().endswith("\\"):
            n += 1
            if n >= len(body):
                raise Malformed(f"{block.path}:{block.body_line + first}: the command goes on ('\\') past the block's end")
            text.append(body[n])
        n += 1
        out = []
        while n < len(body) and not body[n].startswith("$ "):
            out.append(body[n].rstrip())
            n += 1
        while out and not out[-1]:
            out.pop()
        status = 0
        for k, o in enumerate(out):
            e = EXIT.match(o)
            if not e:
                continue
            if k != len(out) - 1:
                raise Malformed(f"{block.path}:{block.body_line + first + 1 + k}: '{o}' must be the last line of the command's output")
            try:
                status = int(e.group(1) or "")
            except ValueError:
                raise Malformed(f"{block.path}:{block.body_line + first + 1 + k}: '{o}': the exit status is not an integer")
            out.pop()
            while out and not out[-1]:
                out.pop()
        commands.append(Command(block.body_line + first, "\n".join(text), out, status))
    return commands


def line_matches(pattern, actual):
    if "..." not in pattern:
        return pattern == actual
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("...")), actual, re.S) is not None


def output_matches(expected, actual):
    """Whether the actual lines match the expected ones ('...' lines match any run of lines)."""
    memo = {}

    def go(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            r = a == len(actual)
        elif expected[e] == "...":
            r = any(go(e + 1, k) for k in range(a, len(actual) + 1))
        else:
            r = a < len(actual) and line_matches(expected[e], actual[a]) and go(e + 1, a + 1)
        memo[key] = r
        return r

    sys.setrecursionlimit(max(10000, 4 * (len(expected) + len(actual))))
    return go(0, 0)


def clean_lines(text):
    out = [l.rstrip() for l in text.splitlines()]
    while out and not out[-1]:
        out.pop()
    return out


def make_workdir(root, binary):
    work = tempfile.mkdtemp(prefix="doc-examples-")
    for entry in sorted(os.listdir(root)):
        if entry == ".git" or entry.startswith(".build"):
            continue
        os.symlink(os.path.join(root, entry), os.path.join(work, entry))
    bindir = tempfile.mkdtemp(prefix="doc-examples-bin-")
    os.symlink(binary, os.path.join(bindir, "codesweep"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODESWEEP_")}
    env.update(PATH=bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"), HOME=work,
               LC_ALL="C.UTF-8", NO_COLOR="1", TZ="UTC")
    return work, bindir, env


def run_bash(argv, work, env, timeout):
    """(exit status or None on a timeout, combined output)."""
    p = subprocess.Popen(argv, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        return None, out.decode("utf-8", "replace")


def short_diff(expected, actual, limit=40):
    d = list(difflib.unified_diff(expected, actual, "expected", "actual", lineterm="", n=2))
    if len(d) > limit:
        d = d[:limit] + [f"... ({len(d) - limit} more diff lines)"]
    return "\n".join("    " + l for l in d)


def indent(text, limit=30):
    lines = text.rstrip("\n").splitlines()
    if len(lines) > limit:
        lines = [f"... ({len(lines) - limit} lines before)"] + lines[-limit:]
    return "\n".join("    " + l for l in lines) if lines else "    (no output)"


def run_block(block, root, binary, timeout):
    """A list of failure messages (empty: the block passed)."""
    work, bindir, env = make_workdir(root, binary)
    try:
        if block.kind == "script":
            script = os.path.join(bindir, "block.sh")
            pathlib.Path(script).write_text("\n".join(block.body) + "\n", encoding="utf-8")
            status, out = run_bash(["bash", "-e", "-o", "pipefail", script], work, env, timeout)
            if status == 0:
                return []
            why = f"timed out after {timeout:g} s" if status is None else f"exited {status}"
            return [f"{block.path}:{block.line}: the {block.kind} block {why}; its output:\n{indent(out)}"]
        return run_transcript(block, work, bindir, env, timeout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(bindir, ignore_errors=True)


def run_transcript(block, work, bindir, env, timeout):
    state = os.path.join(bindir, "state")
    os.mkdir(state)
    driver = ['__cs_state=' + shq(state), "trap 'printf %s \"$?\" > \"$__cs_state/rc.$__cs_i\"' EXIT"]
    for k, c in enumerate(block.commands):
        pathlib.Path(state, f"cmd.{k}").write_text(c.text + "\n", encoding="utf-8")
        driver += [f"__cs_i={k}",
                   f'{{ eval "$(cat "$__cs_state/cmd.{k}")"; }} > "$__cs_state/out.{k}" 2>&1 < /dev/null',
                   f'printf %s "$?" > "$__cs_state/rc.{k}"']
    driver += ["__cs_i=end", "trap - EXIT", "exit 0"]
    script = os.path.join(bindir, "driver.sh")
    pathlib.Path(script).write_text("\n".join(driver) + "\n", encoding="utf-8")
    status, shell_out = run_bash(["bash", script], work, env, timeout)
    failures = []
    for k, c in enumerate(block.commands):
        where = f"{block.path}:{c.line}"
        shown = indent("$ " + c.text, limit=10)
        rc_file, out_file = pathlib.Path(state, f"rc.{k}"), pathlib.Path(state, f"out.{k}")
        actual = clean_lines(out_file.read_text(encoding="utf-8", errors="replace")) if out_file.exists() else []
        if not rc_file.exists():
            why = f"timed out after {timeout:g} s" if status is None else "was not reached (the shell ended before it)"
            failures.append(f"{where}: the command {why}:\n{shown}")
            if status is None:
                break
            continue
        rc = int(rc_file.read_text() or "0")
        problems = []
        if rc != c.status:
            problems.append(f"  exit status {rc}, expected {c.status}")
        if not output_matches(c.expected, actual):
            problems.append("  output differs:\n" + short_diff(c.expected, actual))
        elif problems:
            problems.append("  its output:\n" + indent("\n".join(actual)))
        if problems:
            failures.append(f"{where}: the command\n{shown}\n" + "\n".join(problems))
    if shell_out.strip() and failures:
        failures.append(f"{block.path}:{block.line}: the block's shell printed:\n{indent(shell_out)}")
    return failures


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def find_binary(root, given):
    if given:
        return os.path.abspath(given)
    for b in (".build/debug/codesweep", ".build/release/codesweep"):
        if os.access(os.path.join(root, b), os.X_OK):
            return os.path.join(root, b)
    found = shutil.which("codesweep")
    return os.path.abspath(found) if found else None


def main(argv):
    ap = argparse.ArgumentParser(description="Runs the shell examples of Markdown files.")
    ap.add_argument("--bin", help="the codesweep binary the examples run")
    ap.add_argument("--root", help="the directory whose entries each block's directory links to")
    ap.add_argument("--jobs", type=int, default=1, help="blocks run side by side")
    ap.add_argument("--timeout", type=float, default=120, help="seconds a block may take (default 120)")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line for every block")
    ap.add_argument("files", nargs="+", metavar="FILE")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root or pathlib.Path(__file__).resolve().parent.parent)
    binary = find_binary(root, args.bin)
    if not binary or not os.access(binary, os.X_OK):
        print(f"doc-examples: no codesweep binary ({args.bin or 'none found'}): build it or pass --bin", file=sys.stderr)
        return 2
    blocks = []
    try:
        for f in args.files:
            if not os.path.isfile(f):
                print(f"doc-examples: {f}: no such file", file=sys.stderr)
                return 2
            blocks += parse_file(f)
    except Malformed as e:
        print(f"doc-examples: malformed document: {e}", file=sys.stderr)
        return 2
    runnable = [b for b in blocks if b.no_run is None]
    not_run = len(blocks) - len(runnable)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda b: run_block(b, root, binary, args.timeout), runnable))
    passed = failed = 0
    for b, failures in zip(runnable, results):
        if failures:
            failed += 1
            for f in failures:
                print("FAIL " + f, flush=True)
        else:
            passed += 1
            if args.verbose:
                print(f"ok   {b.path}:{b.line} ({b.kind}, {len(b.commands) or 1} command(s))")
    if args.verbose:
        for b in blocks:
            if b.no_run is not None:
                print(f"skip {b.path}:{b.line}: no-run: {b.no_run}")
    if not runnable:
        print("doc-examples: nothing runnable: a check that checked nothing does not pass", file=sys.stderr)
    print(f"{passed} passed, {failed} failed, {not_run} not run")
    return 1 if failed or not runnable else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
