#!/usr/bin/env bash
# Regenerates Samples/ (the demo images) and Samples/expected.jsonl, deterministically:
# fixed seeds, no timestamps in PNG/TIFF/JPEG/PDF metadata. Needs qrencode, zint, exiftool, rsvg-convert and the
# real ImageMagick 6 CLI at /usr/bin/convert (never a `convert` found on PATH).
#
#   bash scripts/make-samples.sh            # writes into Samples/ at the package root
#
# Geometry is chosen here and written to expected.jsonl: a QR drawn by `qrencode -s S -m M` at
# offset (X,Y) has its symbol (without the quiet zone) at X+M*S .. X+M*S+N*S, where N is the
# number of modules; the script measures N from the generated PNG.
set -euo pipefail

CONVERT=/usr/bin/convert
IDENTIFY=/usr/bin/identify
for tool in qrencode zint exiftool rsvg-convert python3 "$CONVERT" "$IDENTIFY"; do
  command -v "$tool" >/dev/null || { echo "make-samples: missing $tool" >&2; exit 2; }
done

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/Samples"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
# The check/ posters' lines (made by make-check-samples.sh, written by hand) are kept as they are.
CHECK_LINES="$(grep '"path":"check/' "$OUT/expected.jsonl" 2>/dev/null || true)"
rm -f "$OUT"/*.jpg "$OUT"/*.png "$OUT"/*.webp "$OUT"/*.heic "$OUT"/*.tif "$OUT"/*.gif "$OUT"/*.pdf "$OUT"/*.zip "$OUT"/*.docx "$OUT"/*.eml "$OUT"/*.mp4 "$OUT"/expected.jsonl

# Common options: strip dates and other volatile metadata from everything ImageMagick writes.
NODATE=(+set date:create +set date:modify +set date:timestamp -define png:exclude-chunks=date,time)

# qr NAME TEXT SCALE MARGIN -> $TMP/NAME.png; echoes the symbol's side in pixels (no margin).
qr() {
  qrencode -l M -s "$3" -m "$4" -o "$TMP/$1.png" "$2"
  local side
  side=$("$IDENTIFY" -format '%w' "$TMP/$1.png")
  echo $(( side - 2 * $4 * $3 ))
}

# corners X Y SIDE: the four corners of an upright square symbol, clockwise from top-left.
corners() { echo "[[$1,$2],[$(( $1 + $3 )),$2],[$(( $1 + $3 )),$(( $2 + $3 ))],[$1,$(( $2 + $3 ))]]"; }
# box X0 Y0 X1 Y1: an axis-aligned box clockwise from top-left.
box() { echo "[[$1,$2],[$3,$2],[$3,$4],[$1,$4]]"; }
# bars FILE: "X0 X1" of the dark bars on row 2 of a zint drawing (the digits below may stick out).
bars() { "$CONVERT" "$1" -crop "$("$IDENTIFY" -format '%w' "$1")x1+0+2" +repage -format "%@" info: 2>/dev/null \
  | sed -E 's/^([0-9]+)x[0-9]+\+([0-9]+)\+[0-9]+$/\2 \1/' | awk '{print $1, $1 + $2}'; }

EXPECTED="$OUT/expected.jsonl"
: > "$EXPECTED"
# expect PATH STATUS CODES_JSON [ERROR_KIND]
expect() {
  if [ -n "${4:-}" ]; then
    echo "{\"path\":\"$1\",\"status\":\"$2\",\"codes\":$3,\"error_kind\":\"$4\"}" >> "$EXPECTED"
  else
    echo "{\"path\":\"$1\",\"status\":\"$2\",\"codes\":$3}" >> "$EXPECTED"
  fi
}
# code SYMBOLOGY TEXT CORNERS TOLERANCE_PX FRAME
code() { echo "{\"symbology\":\"$1\",\"text\":\"$2\",\"corners\":$3,\"tolerance\":$4,\"frame\":$5}"; }

# A photo-like background: seeded plasma, blurred so it reads as soft light, not noise.
photo() { "$CONVERT" -size "$1" -seed "$2" plasma:"$3" -blur 0x6 "$TMP/$4.png"; }

# 1. qr-photo.jpg: a QR pasted onto a 1600x1200 photo-like scene.
photo 1600x1200 11 wheat-slategray scene
S=$(qr qr-photo "https://example.com/codesweep/photo" 8 4)
X=980; Y=360
"$CONVERT" "$TMP/scene.png" "$TMP/qr-photo.png" -geometry +$X+$Y -composite -strip "${NODATE[@]}" -quality 85 "$OUT/qr-photo.jpg"
expect qr-photo.jpg ok "[$(code qr "https://example.com/codesweep/photo" "$(corners $((X + 32)) $((Y + 32)) "$S")" 4 0)]"

# 2. screenshot.png: a flat "app window" holding a QR and a Code 128.
S=$(qr shot-qr "WIFI:T:WPA;S:codesweep;P:correct-horse;;" 6 4)
# zint --scale=1 draws 2 px per module; --height=40 gives bars 80 px tall, digits below.
zint -b 20 --scale=1 --height=40 -d "INV-2024-000172" -o "$TMP/shot-128.png" >/dev/null
read -r B0 B1 < <(bars "$TMP/shot-128.png")
"$CONVERT" -size 1280x800 xc:'#eef1f5' \
  -fill '#2d3e50' -draw 'rectangle 0,0 1279,56' \
  -fill '#ffffff' -draw 'rectangle 40,96 600,760' -draw 'rectangle 660,96 1240,760' \
  -fill '#c9d2dc' -draw 'rectangle 80,140 560,160' -draw 'rectangle 80,190 480,210' -draw 'rectangle 700,140 1180,160' \
  "$TMP/shot-qr.png" -geometry +120+300 -composite \
  "$TMP/shot-128.png" -geometry +740+380 -composite \
  -strip "${NODATE[@]}" "$OUT/screenshot.png"
expect screenshot.png ok "[$(code qr "WIFI:T:WPA;S:codesweep;P:correct-horse;;" "$(corners $((120 + 24)) $((300 + 24)) "$S")" 4 0),$(code code128 "INV-2024-000172" "$(box $((740 + B0)) 380 $((740 + B1)) $((380 + 80)))" 12 0)]"

# 3-4. EXIF-rotated JPEGs: the upright picture (800x600, QR off-centre) is stored rotated,
# and the Orientation tag says how to turn it back.
photo 800x600 23 lightyellow-peru upright-bg
S=$(qr rot "orientation test" 6 4)
"$CONVERT" "$TMP/upright-bg.png" "$TMP/rot.png" -geometry +90+70 -composite "$TMP/upright.png"
# Orientation 6: the viewer turns the stored image 90° clockwise, so store it turned 90° anticlockwise.
"$CONVERT" "$TMP/upright.png" -rotate 270 -strip "${NODATE[@]}" -quality 88 "$OUT/exif-orientation-6.jpg"
# Orientation 8: the viewer turns it 90° anticlockwise, so store it turned 90° clockwise.
"$CONVERT" "$TMP/upright.png" -rotate 90 -strip "${NODATE[@]}" -quality 88 "$OUT/exif-orientation-8.jpg"
exiftool -q -overwrite_original -n -Orientation=6 "$OUT/exif-orientation-6.jpg"
exiftool -q -overwrite_original -n -Orientation=8 "$OUT/exif-orientation-8.jpg"
UP="$(corners $((90 + 24)) $((70 + 24)) "$S")"
expect exif-orientation-6.jpg ok "[$(code qr "orientation test" "$UP" 4 0)]"
expect exif-orientation-8.jpg ok "[$(code qr "orientation test" "$UP" 4 0)]"

# 5. ean13-product.jpg: an EAN-13 label on a "product box".
# 3 px per module, bars 150 px tall (the guard bars a little longer).
zint -b 13 --scale=1.5 --height=50 -d "590123412345" -o "$TMP/ean.png" >/dev/null
# The leading digit sits left of the bars; the bars are 95 modules wide from the first guard.
read -r B0 B1 < <(bars "$TMP/ean.png"); B1=$((B0 + 95 * 3))
photo 1200x900 37 lightsteelblue-dimgray ean-bg
"$CONVERT" "$TMP/ean-bg.png" -fill '#d9472b' -draw 'roundrectangle 260,140 940,780 30,30' \
  -fill white -draw 'rectangle 340,420 860,720' \
  "$TMP/ean.png" -geometry +430+480 -composite -strip "${NODATE[@]}" -quality 88 "$OUT/ean13-product.jpg"
expect ean13-product.jpg ok "[$(code ean13 "5901234123457" "$(box $((430 + B0)) 480 $((430 + B1)) $((480 + 150)))" 20 0)]"

# 6-7. The same QR card as WebP and HEIC.
S=$(qr card "CodeSweep reads WebP and HEIC" 6 4)
"$CONVERT" -size 640x480 gradient:'#fdfdfd-#b8c4d0' "$TMP/card.png" -geometry +200+110 -composite "$TMP/card-full.png"
"$CONVERT" "$TMP/card-full.png" -strip -quality 90 "$OUT/qr-card.webp"
"$CONVERT" "$TMP/card-full.png" -strip -quality 90 "$OUT/qr-card.heic"
CARD="$(corners $((200 + 24)) $((110 + 24)) "$S")"
expect qr-card.heic ok "[$(code qr "CodeSweep reads WebP and HEIC" "$CARD" 4 0)]"
expect qr-card.webp ok "[$(code qr "CodeSweep reads WebP and HEIC" "$CARD" 4 0)]"

# 8. two-page.tif: a QR on page 1, a Code 128 on page 2.
S=$(qr page1 "page one" 6 4)
zint -b 20 --scale=1 --height=40 -d "PAGE-TWO" -o "$TMP/page2-code.png" >/dev/null
read -r B0 B1 < <(bars "$TMP/page2-code.png")
"$CONVERT" -size 600x400 xc:white "$TMP/page1.png" -geometry +60+50 -composite -type Grayscale "$TMP/p1.png"
"$CONVERT" -size 600x400 xc:white "$TMP/page2-code.png" -geometry +100+120 -composite -type Grayscale "$TMP/p2.png"
"$CONVERT" "$TMP/p1.png" "$TMP/p2.png" -strip "${NODATE[@]}" -compress zip "$OUT/two-page.tif"
# ImageMagick stamps TIFF DateTime regardless; blank it so the file is reproducible.
exiftool -q -overwrite_original -ifd0:DateTime= -ifd1:DateTime= "$OUT/two-page.tif" 2>/dev/null || true
expect two-page.tif ok "[$(code qr "page one" "$(corners $((60 + 24)) $((50 + 24)) "$S")" 4 0),$(code code128 "PAGE-TWO" "$(box $((100 + B0)) 120 $((100 + B1)) $((120 + 80)))" 12 1)]"

# 9. no-code.jpg: a photo-like scene with no code at all.
photo 1024x768 53 skyblue-darkolivegreen nocode
"$CONVERT" "$TMP/nocode.png" -strip "${NODATE[@]}" -quality 85 "$OUT/no-code.jpg"
expect no-code.jpg ok "[]"

# 10. corrupt.jpg: a JPEG signature followed by garbage (no decodable image data).
{ printf '\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00'; \
  for i in $(seq 1 64); do printf 'this is not image data %02d\n' "$i"; done; } > "$OUT/corrupt.jpg"
expect corrupt.jpg error "[]" corrupt

# trimbox FILE: "W H X Y" of the dark drawing inside a zint PNG (its quiet zone cut off).
# (A white border first: zint's drawings start with a dark module in the corner, which -trim
# would take for the background.)
trimbox() { "$CONVERT" "$1" -bordercolor white -border 1 -trim -format '%w %h %X %Y\n' info: | tr -d '+' \
  | awk '{print $1, $2, $3 - 1, $4 - 1}'; }

# 11. boarding-pass.png: a phone screenshot of a boarding pass, its PDF417 holding an IATA
# BCBP-like string (read by the isolated reader, zxing-cpp).
BCBP="M1DOE/JANE            EABC123 LHRJFKBA 0117 328Y014C0042 100"
zint -b 55 --scale=2 -d "$BCBP" -o "$TMP/bp-pdf.png" >/dev/null
read -r PW PH PX PY < <(trimbox "$TMP/bp-pdf.png")
"$CONVERT" -size 720x1280 xc:'#f4f6f9' \
  -fill '#0b3d91' -draw 'rectangle 0,0 719,180' \
  -fill '#ffffff' -draw 'roundrectangle 40,220 680,1180 24,24' \
  -fill '#0b3d91' -draw 'rectangle 80,280 300,330' -draw 'rectangle 420,280 640,330' \
  -fill '#c9d2dc' -draw 'rectangle 80,380 640,400' -draw 'rectangle 80,430 520,450' -draw 'rectangle 80,480 600,500' \
  -fill '#e3e8ef' -draw 'rectangle 60,560 660,564' \
  "$TMP/bp-pdf.png" -geometry +80+640 -composite \
  -strip "${NODATE[@]}" "$OUT/boarding-pass.png"
expect boarding-pass.png ok "[$(code pdf417 "$BCBP" "$(box $((80 + PX)) $((640 + PY)) $((80 + PX + PW)) $((640 + PY + PH)))" 12 0)]"

# 12. datamatrix-label.png: a parcel/pharmacy label with a GS1 DataMatrix (GTIN, expiry, lot),
# and a Code 128 shipment number (ZBar's).
zint -b 71 --gs1 --scale=4 -d "[01]09501101530003[17]270331[10]LOT4711" -o "$TMP/dm.png" >/dev/null
read -r DW DH DX DY < <(trimbox "$TMP/dm.png")
zint -b 20 --scale=1 --height=40 -d "SHIP-0042-7781" -o "$TMP/label-128.png" >/dev/null
read -r C0 C1 < <(bars "$TMP/label-128.png")
"$CONVERT" -size 900x600 xc:'#d8cbb0' \
  -fill white -draw 'rectangle 100,80 800,520' \
  -fill '#222222' -draw 'rectangle 140,110 560,130' -draw 'rectangle 140,150 420,166' \
  "$TMP/dm.png" -geometry +140+220 -composite \
  "$TMP/label-128.png" -geometry +420+260 -composite \
  -strip "${NODATE[@]}" "$OUT/datamatrix-label.png"
expect datamatrix-label.png ok "[$(code code128 "SHIP-0042-7781" "$(box $((420 + C0)) 260 $((420 + C1)) $((260 + 80)))" 12 0),$(code datamatrix "01095011015300031727033110LOT4711" "$(box $((140 + DX)) $((220 + DY)) $((140 + DX + DW)) $((220 + DY + DH)))" 8 0)]"

# 13. invoice.pdf: a two-page A4 PDF (vector art, drawn by librsvg's rsvg-convert from SVG pages):
# an EPC (SEPA credit transfer) payment QR code on page 1 (frame 0), a Code 128 delivery-note
# number on page 2 (frame 1). codesweep renders pages at 150 dpi: a point is 150/72 px.
EPC=$'BCD\n002\n1\nSCT\nBPOTBEWB\nCodeSweep Sample\nBE71096123456769\nEUR12.50\n\n\nInvoice 2026-0042'
qrencode -t SVG -l M -m 4 -o "$TMP/inv-qr.svg" "$EPC"
zint -b 20 -d "INV-2026-0042" --filetype=svg -o "$TMP/inv-128.svg" >/dev/null
GEOM=$(python3 - "$TMP" <<'PY'
import re, sys
tmp = sys.argv[1]
def inner(path, w=None, h=None):
    s = open(path).read()
    s = re.sub(r'<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->', '', s, flags=re.S)
    if w is not None:  # the QR's own size in points (its viewBox is in modules)
        s = re.sub(r'<svg width="[^"]*" height="[^"]*"', f'<svg width="{w}" height="{h}"', s, count=1)
    return s
def page(body):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="595pt" height="842pt" viewBox="0 0 595 842">'
            '<rect width="595" height="842" fill="white"/>' + body + '</svg>')
qr = inner(tmp + "/inv-qr.svg", 180, 180)            # 45 modules (version 5 + 4 of margin): 4 pt a module
modules = int(re.search(r'viewBox="0 0 (\d+) ', qr).group(1))
bar = inner(tmp + "/inv-128.svg")
rects = [(float(x), float(w)) for x, w in re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="100.00"', bar)]
text = '<text x="60" y="{}" font-family="DejaVu Sans" font-size="{}">{}</text>'
open(tmp + "/inv-p1.svg", "w").write(page(text.format(90, 24, "Invoice 2026-0042")
    + text.format(130, 12, "Scan to pay (EPC QR code, SEPA credit transfer)")
    + f'<g transform="translate(60,150)">{qr}</g>'))
open(tmp + "/inv-p2.svg", "w").write(page(text.format(90, 18, "Delivery note INV-2026-0042")
    + f'<g transform="translate(60,120)">{bar}</g>'))
px = 150 / 72
m = 180 / modules
q0, q1 = 60 + 4 * m, 60 + (modules - 4) * m           # the symbol without its quiet zone, x
r0, r1 = 150 + 4 * m, 150 + (modules - 4) * m          # and y
b0, b1 = 60 + rects[0][0], 60 + rects[-1][0] + rects[-1][1]
print(*(round(v * px) for v in (q0, r0, q1, r1, b0, 120, b1, 220)))
PY
)
read -r QX0 QY0 QX1 QY1 BX0 BY0 BX1 BY1 <<< "$GEOM"
rsvg-convert -f pdf -o "$OUT/invoice.pdf" "$TMP/inv-p1.svg" "$TMP/inv-p2.svg"
# cairo stamps the time of writing; a fixed date of the same length keeps the xref offsets valid.
python3 -c 'import re,sys; p=sys.argv[1]; b=open(p,"rb").read(); open(p,"wb").write(re.sub(rb"\(D:\d{14}[^)]{0,7}\)", lambda m: b"(D:20260101000000" + b"Z" * (len(m.group(0)) - 18) + b")", b))' "$OUT/invoice.pdf"
EPC_JSON=$(printf '%s' "$EPC" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read())[1:-1])')
expect invoice.pdf ok "[$(code qr "$EPC_JSON" "$(box "$QX0" "$QY0" "$QX1" "$QY1")" 4 0),$(code code128 "INV-2026-0042" "$(box "$BX0" "$BY0" "$BX1" "$BY1")" 16 1)]"

# The container, mail and video samples (a ZIP, a DOCX, an EML, a screen recording).
python3 "$ROOT/scripts/make-container-samples.py" "$OUT" "$TMP" "$EXPECTED"
if [ -n "$CHECK_LINES" ]; then printf '%s\n' "$CHECK_LINES" >> "$EXPECTED"; fi
# Records are expected in the walk's order: names sorted by bytes.
LC_ALL=C sort -o "$EXPECTED" "$EXPECTED"
echo "make-samples: wrote $(ls "$OUT" | wc -l) files, $(du -sk "$OUT" | cut -f1) KiB, into $OUT" >&2
