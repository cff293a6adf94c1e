#!/usr/bin/env python3
"""codesweep.1 (roff) from `codesweep --experimental-dump-help` (swift-argument-parser's ToolInfo
JSON) on stdin. Used by scripts/dist.sh. swift-argument-parser's own generate-manual plugin would
build a second, debug copy of the whole program first; this reads the release binary's answer.

    codesweep --experimental-dump-help | scripts/make-manpage.py --version 0.1.0 > codesweep.1
"""
import argparse
import json
import sys


def esc(text):
    """Roff-safe text: backslashes, hyphens, and lines that would start a request."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    out = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def paragraphs(text):
    lines = []
    for i, para in enumerate((text or "").strip().split("\n\n")):
        if i:
            lines.append(".PP")
        lines.append(esc(para.strip()))
    return lines


def names(arg):
    parts = []
    for n in sorted(arg.get("names") or [], key=lambda n: n["kind"] != "short"):
        dash = "-" if n["kind"] in ("short", "longWithSingleDash") else "--"
        parts.append("\\fB" + esc(dash + n["name"]) + "\\fR")
    return ", ".join(parts)


def argument_lines(arg):
    if not arg.get("shouldDisplay", True):
        return []
    kind = arg.get("kind")
    value = arg.get("valueName") or ""
    if kind == "positional":
        head = "\\fI" + esc(value or "argument") + "\\fR" + ("..." if arg.get("isRepeating") else "")
    else:
        head = names(arg)
        if kind == "option":
            head += " \\fI" + esc(value or "value") + "\\fR"
    lines = [".TP", head]
    body = arg.get("abstract") or ""
    if arg.get("discussion"):
        body += "\n\n" + arg["discussion"]
    if arg.get("allValues"):
        body += "\n(values: " + ", ".join(arg["allValues"]) + ")"
    if arg.get("defaultValue") not in (None, ""):
        body += "\n(default: " + str(arg["defaultValue"]) + ")"
    lines.append(esc(body.strip()) if body.strip() else "")
    return lines


def usage(cmd, prefix):
    words = [esc(prefix)]
    for arg in cmd.get("arguments") or []:
        if not arg.get("shouldDisplay", True):
            continue
        if arg.get("kind") == "positional":
            w = "\\fI" + esc(arg.get("valueName") or "argument") + "\\fR"
            w += "..." if arg.get("isRepeating") else ""
        else:
            pref = arg.get("preferredName") or (arg.get("names") or [{}])[0]
            dash = "-" if pref.get("kind") in ("short", "longWithSingleDash") else "--"
            w = "\\fB" + esc(dash + pref.get("name", "")) + "\\fR"
            if arg.get("kind") == "option":
                w += " \\fI" + esc(arg.get("valueName") or "value") + "\\fR"
        words.append("[" + w + "]" if arg.get("isOptional") else w)
    return " ".join(words)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--date", default="")
    opts = ap.parse_args()
    root = json.load(sys.stdin)["command"]
    name = root["commandName"]
    subs = [s for s in root.get("subcommands") or [] if s.get("shouldDisplay", True)]
    out = ['.TH "%s" "1" "%s" "%s %s" "User Commands"' % (name.upper(), esc(opts.date), name, esc(opts.version))]
    out += [".SH NAME", "%s \\- %s" % (name, esc(root.get("abstract", "")))]
    out += [".SH SYNOPSIS", ".B %s" % name, "[\\fIcommand\\fR] [\\fIoptions\\fR] [\\fIpaths\\fR...]"]
    out += [".SH DESCRIPTION"] + paragraphs(root.get("abstract", "") + "\n\n" + (root.get("discussion") or ""))
    root_args = [a for a in root.get("arguments") or [] if a.get("shouldDisplay", True)]
    if root_args:
        out.append(".SH OPTIONS")
        for a in root_args:
            out += argument_lines(a)
    out.append(".SH COMMANDS")
    default = root.get("defaultSubcommand")
    for sub in subs:
        sname = sub["commandName"]
        out += [".SS %s %s%s" % (name, esc(sname), " (the default command)" if sname == default else "")]
        out += [usage(sub, name + " " + sname), ".PP"]
        out += paragraphs(sub.get("abstract", "") + ("\n\n" + sub["discussion"] if sub.get("discussion") else ""))
        for a in sub.get("arguments") or []:
            out += argument_lines(a)
        for nested in sub.get("subcommands") or []:
            if nested.get("shouldDisplay", True):
                out += [".TP", "\\fB%s %s %s\\fR" % (name, esc(sname), esc(nested["commandName"])), esc(nested.get("abstract", ""))]
    out += [".SH SEE ALSO",
            "\\fBcodesweep help\\fR \\fIcommand\\fR, \\fBcodesweep\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR;",
            "the project's README.md and the documents in its docs/ folder."]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
