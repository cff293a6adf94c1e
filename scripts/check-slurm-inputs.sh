#!/usr/bin/env bash
# The Slurm recipe's own checks of its environment, without a cluster: examples/slurm/sweep.sbatch
# and merge.sbatch run by bash as a job array's tasks would run them (SLURM_ARRAY_TASK_ID etc. set
# by hand). Run first by `make check-slurm` (scripts/check-slurm.sh) and by the integration test
# SlurmRecipeInputTests, so it needs no root.
#   - shard counts with a leading zero (08: bash's arithmetic reads it as octal and fails; 010: as
#     8), not decimal, empty or too long are refused by both scripts, with the same words, whether
#     given (CODESWEEP_SHARDS) or recorded (CODESWEEP_OUT/shards);
#   - a newline in CODESWEEP_ROOTS is refused by both (the roots after it were dropped);
#   - a two-digit count (10) works end to end: ten tasks, one after another, then the merge,
#     whose report must be byte for byte one `codesweep scan` of the folder.
# BIN is the codesweep the scripts run (default .build/debug/codesweep). Prints one line a case.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
BIN=${BIN:-$repo/.build/debug/codesweep}
case $BIN in /*) ;; *) BIN=$repo/$BIN ;; esac
[ -x "$BIN" ] || {
  echo "check-slurm-inputs: FAILED: no $BIN: build it first" >&2
  exit 1
}
sweep=$repo/examples/slurm/sweep.sbatch
merge=$repo/examples/slurm/merge.sbatch
T=$(mktemp -d /tmp/codesweep-slurm-inputs.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
mkdir -p photos/a photos/b bin
cp "$repo"/Samples/qr-photo.jpg "$repo"/Samples/screenshot.png photos/a/
cp "$repo"/Samples/*.png photos/b/ 2>/dev/null || true
ln -s "$BIN" bin/codesweep
export PATH="$T/bin:$PATH"

say() { echo "check-slurm-inputs: $*"; }
die() {
  echo "check-slurm-inputs: FAILED: $*" >&2
  exit 1
}

# SCRIPT WANT-STATUS WANT-WORDS [VAR=VALUE...]: runs SCRIPT as task 0 of an array of 4 with the
# given environment; its status and standard error must be as wanted.
expect() {
  local script=$1 want=$2 words=$3
  shift 3
  local s=0
  env -u CODESWEEP_SHARDS SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=4 \
    CODESWEEP_ROOTS=photos CODESWEEP_OUT=out "$@" bash "$script" >stdout.txt 2>stderr.txt || s=$?
  [ "$s" -eq "$want" ] || die "$(basename "$script") with $* exited $s, not $want: $(cat stderr.txt)"
  grep -qF -- "$words" stderr.txt || die "$(basename "$script") with $* did not say '$words': $(cat stderr.txt)"
  say "$(basename "$script") $*: exit $s, $(head -n 1 stderr.txt)"
}

refused="written in decimal digits without a leading zero"
for n in 08 010 0 00 -3 1e3 ' 4' 1234567 99999999999999999999; do
  for script in "$sweep" "$merge"; do
    rm -rf out
    expect "$script" 2 "$refused, not '$n'" CODESWEEP_SHARDS="$n"
  done
done
# Recorded by an earlier task (or written by hand): the same rule.
for script in "$sweep" "$merge"; do
  rm -rf out && mkdir out && echo 08 >out/shards
  expect "$script" 2 "$refused" CODESWEEP_ROOTS=photos
done
for script in "$sweep" "$merge"; do
  rm -rf out
  expect "$script" 2 "CODESWEEP_ROOTS holds a newline" CODESWEEP_ROOTS=$'photos/a\nphotos/b' CODESWEEP_SHARDS=4
done
[ ! -e out/shard-0.jsonl ] || die "a refused task wrote a shard"

# Ten shards (two digits), tasks run one after another as Slurm would run them, then the merge.
rm -rf out
s=0
"$BIN" scan -q --hash sha256 -o single.jsonl photos || s=$?
[ $s -le 1 ] || die "the single scan exited $s"
for k in $(seq 0 9); do
  s=0
  env SLURM_ARRAY_TASK_ID="$k" SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=9 SLURM_ARRAY_TASK_COUNT=10 \
    CODESWEEP_ROOTS=photos CODESWEEP_OUT=out CODESWEEP_SHARDS=10 bash "$sweep" 2>>tasks.txt || s=$?
  [ $s -eq 0 ] || die "task $k of 10 exited $s: $(tail -n 3 tasks.txt)"
done
[ "$(cat out/shards)" = 10 ] || die "out/shards holds '$(cat out/shards)', not 10"
s=0
env CODESWEEP_ROOTS=photos CODESWEEP_OUT=out bash "$merge" 2>merge.txt || s=$?
[ $s -eq 0 ] || die "the merge of 10 shards exited $s: $(cat merge.txt)"
grep -qF "merged 10 shards" merge.txt || die "the merge did not merge 10 shards: $(cat merge.txt)"
cmp -s out/report.jsonl single.jsonl || die "the merged report of 10 shards differs from the single scan's"
say "10 shards, tasks 0-9 and the merge: the report ($(wc -l <single.jsonl) files) is byte for byte the single scan's"
say "passed"
