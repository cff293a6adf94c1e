#!/usr/bin/env bash
# Makes the sample assets of Samples/check/ (see Samples/check/README.md): small posters with
# QR codes, each showing one thing `codesweep check` catches. Needs qrencode and ImageMagick 6
# (/usr/bin/convert, the real one). Output is deterministic for a given qrencode/ImageMagick.
#   scripts/make-check-samples.sh [OUTDIR]   (default: Samples/check)
set -euo pipefail
out="${1:-Samples/check}"
mkdir -p "$out"
CONVERT=/usr/bin/convert
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

utm="utm_source=poster&utm_medium=print&utm_campaign=spring-2026"

# poster NAME TITLE [PAYLOAD [MODULE_PX]]: a 480x320 poster, title on the left, the QR code
# (MODULE_PX pixels per module, 4-module quiet zone) on the right; no payload = no code.
poster() {
    local name="$1" title="$2" payload="${3:-}" module="${4:-4}"
    local args=(-size 480x320 "xc:#f4efe6" -fill "#1d3557" -draw "rectangle 0,0 479,56"
                -fill white -pointsize 26 -annotate +20+38 "ACME Spring Sale"
                -fill "#1d3557" -pointsize 20 -annotate +20+110 "$title"
                -fill "#457b9d" -pointsize 14 -annotate +20+290 "acme example poster - not a real offer")
    if [[ -n "$payload" ]]; then
        qrencode -l M -m 4 -s "$module" -o "$tmp/$name-qr.png" "$payload"
        # The code on a white card, right-aligned and vertically centred below the banner.
        "$CONVERT" "${args[@]}" "$tmp/$name-qr.png" -gravity East -geometry +24+28 -composite \
            +dither -colors 16 -strip -define png:exclude-chunks=date,time "$out/$name.png"
    else
        "$CONVERT" "${args[@]}" +dither -colors 16 -strip -define png:exclude-chunks=date,time "$out/$name.png"
    fi
}

# 1. Passes every rule: https, allowed host, tracking parameters, 4 px modules.
poster good-poster "Scan for 20% off" "https://www.example.com/spring?$utm"
# 2. Plain http link.
poster http-link "Scan for 20% off" "http://www.example.com/spring?$utm"
# 3. Typo in the domain (exmaple.com).
poster wrong-host "Scan for 20% off" "https://www.exmaple.com/spring?$utm"
# 4. Must carry a code (posters must), but the designer left it out.
poster missing-code "Scan for 20% off"
# 5. Right link, but printed at 1 px per module: read here only by upscaling; grade F.
poster too-small "Scan for 20% off" "https://www.example.com/spring?$utm" 1
# 6. Reads fine, but not what the expectations file says this poster must link to.
poster expected-mismatch "Summer preview" "https://www.example.com/spring?$utm"
# 7. Staging host and a debug parameter left in.
poster staging-debug "Scan for 20% off" "https://staging.example.com/spring?$utm&debug=1"

echo "wrote $(ls "$out"/*.png | wc -l) images to $out"
