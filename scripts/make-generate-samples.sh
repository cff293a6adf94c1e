#!/usr/bin/env bash
# Makes Samples/generate/: a small campaign set made by `codesweep generate --batch` from
# Samples/generate/campaign.csv (brand colours, a logo, an inverted code, small modules at EC L,
# a JPEG and an SVG; GB18030 with ECI is in the tests: the demo's expected.jsonl compares UTF-8 text), the manifest `check --expectations` reads, and the
# lines for these files in Samples/expected.jsonl (what `make demo` finds in them).
#   scripts/make-generate-samples.sh   (needs a built codesweep: CODESWEEP, default .build/release/codesweep)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CODESWEEP:-.build/release/codesweep}"
out=Samples/generate
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.jpg "$out"/*.svg "$out/expected.yml"

# The logo: a red disc with a white square (ImageMagick CLI, no dates in the PNG).
/usr/bin/convert -size 120x120 xc:none -fill "#d62828" -draw "circle 60,60 60,2" \
    -fill white -draw "rectangle 38,38 82,82" -strip -define png:exclude-chunks=date,time "$out/logo.png"

cat > "$out/campaign.csv" <<'CSV'
name,payload,options
01-poster,https://www.example.com/spring?utm_source=poster&utm_medium=print&utm_campaign=spring-2026,
02-flyer-brand,https://www.example.com/spring?utm_source=flyer&utm_medium=print&utm_campaign=spring-2026,fg=#1d3557 bg=#f4efe6 ec=Q
03-logo,https://www.example.com/spring?utm_source=bag&utm_medium=print&utm_campaign=spring-2026,logo=logo.png logo-size=0.08 plate=rounded
04-inverted,https://www.example.com/spring?utm_source=window&utm_medium=print&utm_campaign=spring-2026,fg=white bg=navy
05-sticker,https://www.example.com/spring?utm_source=sticker&utm_medium=print&utm_campaign=spring-2026,module=4 ec=L
06-newspaper.jpg,https://www.example.com/spring?utm_source=newspaper&utm_medium=print&utm_campaign=spring-2026,ec=Q module=6
07-vector.svg,https://www.example.com/spring?utm_source=vector&utm_medium=print&utm_campaign=spring-2026,fg=darkgreen
CSV

"$BIN" generate --batch "$out/campaign.csv" -o "$out"

# Samples/expected.jsonl: drop old generate/ lines, add what a sweep of the new files finds
# (corners with a tolerance of 4 px), in walk order.
"$BIN" scan -q --isolation none "$out" | python3 -c '
import json, sys
new = []
for line in sys.stdin:
    r = json.loads(line)
    codes = [{"symbology": c["symbology"], "text": c["text"], "corners": c["corners"], "tolerance": 4, "frame": c["frame"]} for c in r["codes"]]
    new.append({"path": r["path"][len("Samples/"):], "status": r["status"], "codes": codes})
old = [json.loads(l) for l in open("Samples/expected.jsonl") if l.strip()]
keep = [r for r in old if not r["path"].startswith("generate/")]
rows = sorted(keep + new, key=lambda r: [p.encode() for p in r["path"].split("/")])
with open("Samples/expected.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
'
