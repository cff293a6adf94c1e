#!/bin/bash
# same_records.sh REF NEW OUT: are two binaries' records byte-identical? Scans Samples, the
# zxing-cpp corpus and the BoofCV dev half with each (--effort normal, --hash sha256, --jobs 2)
# into OUT and compares with cmp. For refactors that must not change output (issue 42).
set -u
REF=$1; NEW=$2; OUT=$3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
status=0
for set in "$ROOT/Samples" "$ROOT/../shared/corpus/zxing-cpp" "$ROOT/../shared/corpus/boofcv-dev"; do
  n=$(basename "$set")
  "$REF" scan "$set" --jobs 2 --effort normal --hash sha256 > "$OUT/$n.ref.jsonl" 2> "$OUT/$n.ref.err"
  "$NEW" scan "$set" --jobs 2 --effort normal --hash sha256 > "$OUT/$n.new.jsonl" 2> "$OUT/$n.new.err"
  if cmp -s "$OUT/$n.ref.jsonl" "$OUT/$n.new.jsonl"; then
    echo "$n: identical ($(wc -l < "$OUT/$n.new.jsonl") records, $(wc -c < "$OUT/$n.new.jsonl") bytes)"
  else
    echo "$n: DIFFER (diff $OUT/$n.ref.jsonl $OUT/$n.new.jsonl)"; status=1
  fi
done
exit $status
