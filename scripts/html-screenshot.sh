#!/usr/bin/env bash
# Renders the HTML report of a sweep in headless Chromium and saves a screenshot, so a person
# can look at the page as a browser draws it (the Swift tests check the HTML's structure and
# escaping; they do not need a browser).
#
#   scripts/html-screenshot.sh [SAMPLES_DIR] [OUT_DIR]
#
# SAMPLES_DIR defaults to Samples/; OUT_DIR to .build/html-screenshot/. Writes there
# report.jsonl, report.html, annotated/ (scan --annotate) and report.png (1400x1800 window), and
# report-code128.png (the page filtered to code128 via #sym=code128), and
# report-hostile.png for a page built from generated hostile QR codes (script tag, javascript:
# URL, bidi override) to check that they show as inert text.
# Needs: a built codesweep (swift build), chromium (apt-get install -y chromium), qrencode.
set -euo pipefail
cd "$(dirname "$0")/.."
SAMPLES=${1:-Samples}
OUT=${2:-.build/html-screenshot}
BIN=${CODESWEEP:-.build/debug/codesweep}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -x "$BIN" ] || { echo "no $BIN: run swift build first" >&2; exit 2; }
[ -n "$CHROMIUM" ] || { echo "no chromium: apt-get install -y chromium" >&2; exit 2; }
[ -d "$SAMPLES" ] || { echo "no folder $SAMPLES" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

shoot() { # url png
    # A throw-away profile; no network is needed (the page's CSP forbids remote loads anyway).
    local profile; profile=$(mktemp -d)
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
        --window-size=1400,1800 --screenshot="$2" "$1" >/dev/null 2>&1 || true
    rm -rf "$profile"
    [ -s "$2" ] || { echo "chromium wrote no screenshot for $1" >&2; exit 1; }
    echo "$2"
}

# 1. The sample sweep (exit 1 is expected when a sample is deliberately corrupt).
rm -rf "$OUT/annotated"
"$BIN" scan -q "$SAMPLES" --annotate "$OUT/annotated" > "$OUT/report.jsonl" || [ $? -eq 1 ]
"$BIN" report "$OUT/report.jsonl" --html "$OUT/report.html" --title "CodeSweep: $SAMPLES"
shoot "file://$OUT/report.html" "$OUT/report.png"
# The same page filtered through its URL fragment (the filter script at work): code128 only.
shoot "file://$OUT/report.html#sym=code128" "$OUT/report-code128.png"

# 2. Hostile payloads: they must show as text, and the link must not be clickable.
H="$OUT/hostile"; rm -rf "$H"; mkdir -p "$H/in"
qrencode -s 6 -o "$H/in/script.png" '<script>alert(1)</script><img src=x onerror=alert(2)>'
qrencode -s 6 -o "$H/in/js-url.png" 'javascript:alert(document.domain)'
qrencode -s 6 -o "$H/in/bidi.png" $'https://example.com/\u202Egnp.exe'
qrencode -s 6 -o "$H/in/<b>odd name\".png" 'https://evil.example/?q="><svg onload=alert(3)>'
(cd "$H" && "$BIN" scan -q in > report.jsonl && "$BIN" report report.jsonl --html report.html --title "Hostile payloads")
shoot "file://$H/report.html" "$OUT/report-hostile.png"
