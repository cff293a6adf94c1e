#!/usr/bin/env bash
# make check-slurm: the Slurm recipe of docs/forensics.md (examples/slurm/sweep.sbatch and
# merge.sbatch) run as written on a real Slurm, a one-node cluster started here, and its merged
# report compared byte for byte with one `codesweep scan` of the same folder:
#   run 1: the array and the dependent merge job, as the docs submit them;
#   run 2: the same with one task cancelled (scancel JOBID_K) part-way through its shard, then
#          re-submitted alone (sbatch --array=K): it must resume, and the report must be the same,
#          with no file in two shard records.
# Before both, scripts/check-slurm-inputs.sh (no cluster): shard counts like 08 and 010 and a
# newline in CODESWEEP_ROOTS refused alike by both scripts; ten shards run and merged.
# Root only (it installs the Debian packages slurmctld slurmd slurm-client munge when missing, and
# starts munged, slurmctld and slurmd with their config and state in a temporary folder, on their
# own socket and ports). Every daemon it started is stopped by its pid on exit, pass or fail.
# BIN (default .build/debug/codesweep, what `make test` built) is the codesweep the jobs run;
# CHECK_SLURM_SHARDS the array's size (4); CHECK_SLURM_KEEP=1 keeps the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
BIN=${BIN:-$repo/.build/debug/codesweep}
SHARDS=${CHECK_SLURM_SHARDS:-4}
CTLD_PORT=16817
SLURMD_PORT=16818

say() { echo "check-slurm: $*"; }
die() {
  echo "check-slurm: FAILED: $*" >&2
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="${2:-$(now)}" 'BEGIN { printf "%.1f", b - a }'; }
# "the report was written T s after submission (sbatch --wait returned at W s)": sbatch --wait polls
# at growing intervals (up to 10 s), so the report's own time is the sweep's.
timing() { echo "report written $(since "$1" "$(stat -c %.3Y "$2")") s after submission (sbatch --wait returned at $(since "$1") s)"; }

[ "$(id -u)" -eq 0 ] || die "run as root: it installs Slurm and munge and starts their daemons"
case $BIN in /*) ;; *) BIN=$repo/$BIN ;; esac
[ -x "$BIN" ] || die "no $BIN: build it first (swift build, or make release and BIN=.build/release/codesweep)"
[ "$SHARDS" -ge 2 ] || die "CHECK_SLURM_SHARDS must be at least 2"
started=$(now)
# The scripts' checks of their environment first (no cluster needed): bad shard counts and roots
# refused by both, a two-digit count run end to end.
BIN=$BIN bash "$repo/scripts/check-slurm-inputs.sh" || die "the recipe's input checks (scripts/check-slurm-inputs.sh)"

T=""
policy_rc=""
ctld_up=""
pids=()
waiting=""
# A long wait (sbatch --wait) runs in the background, so that a signal to this script is acted on
# at once (bash runs a trap only after its foreground command ends).
in_background() {
  "$@" &
  waiting=$!
  local s=0
  wait "$waiting" || s=$?
  waiting=""
  return "$s"
}
cleanup() {
  local status=$?
  set +e
  [ -n "$waiting" ] && kill "$waiting" 2>/dev/null
  [ -n "$policy_rc" ] && rm -f "$policy_rc"
  if [ -n "$ctld_up" ]; then
    # Jobs first (a job's slurmstepd outlives slurmd), then the daemons, newest first.
    scancel --quiet --user=root 2>/dev/null
    for _ in $(seq 60); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  if [ "$status" -ne 0 ] && [ -n "$T" ]; then
    for log in "$T"/slurmctld.log "$T"/slurmd.log "$T"/work/*.log; do
      [ -f "$log" ] && { echo "--- $log (last lines)" >&2; tail -n 15 "$log" >&2; }
    done
  fi
  local i pid stopped=()
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    stopped+=("$pid")
  done
  [ ${#stopped[@]} -gt 0 ] && say "stopped the daemons it started (pids ${stopped[*]})"
  if [ -n "$T" ] && [ "${CHECK_SLURM_KEEP:-}" != 1 ]; then rm -rf "$T"; fi
  [ -n "$T" ] && [ "${CHECK_SLURM_KEEP:-}" = 1 ] && say "kept $T"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Debian packages (only the missing ones); a package's own start of its service is refused
# (policy-rc.d), so that nothing runs but the daemons started and stopped below.
missing=()
for p in slurmctld slurmd slurm-client munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for tool in qrencode /usr/bin/convert; do
  command -v "$tool" >/dev/null || die "no $tool (make deps installs it)"
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy_rc=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\n# check-slurm: no service starts while it installs packages\nexit 101\n' >"$policy_rc"
    chmod 755 "$policy_rc"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$policy_rc" ]; then rm -f "$policy_rc" && policy_rc=""; fi
fi
[ -s /etc/munge/munge.key ] || die "no /etc/munge/munge.key (the munge package makes it)"

# --- munged as the munge user on a socket of its own, then slurmctld and slurmd (as root).
T=$(mktemp -d /tmp/codesweep-slurm.XXXXXX)
chmod 755 "$T"
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/work"
chown munge:munge "$T/munge"
chmod 755 "$T/munge"

wait_pidfile() { # FILE WHAT: the daemon's pid once it wrote its pid file
  for _ in $(seq 100); do
    if [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; then
      pids+=("$(cat "$1")")
      return 0
    fi
    sleep 0.1
  done
  die "$2 did not start (no live pid in $1)"
}

runuser -u munge -- /usr/sbin/munged --socket="$T/munge/socket" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/munge/munged.log" --seed-file="$T/munge/seed" ||
  die "munged did not start: $(tail -n 3 "$T/munge/munged.log" 2>/dev/null)"
wait_pidfile "$T/munge/munged.pid" munged

host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
cat >"$T/slurm.conf" <<EOF
ClusterName=codesweep-check
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
PlugStackConfig=$T/plugstack.conf
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
: >"$T/plugstack.conf"
export SLURM_CONF=$T/slurm.conf
/usr/sbin/slurmctld -f "$SLURM_CONF" || die "slurmctld did not start"
wait_pidfile "$T/slurmctld.pid" slurmctld
ctld_up=1
/usr/sbin/slurmd -f "$SLURM_CONF" || die "slurmd did not start"
wait_pidfile "$T/slurmd.pid" slurmd
state=""
for _ in $(seq 120); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.25
done
[ "$state" = idle ] || die "the node $host is '$state', not idle, 30 s after slurmd started"
say "Slurm $(sinfo -V | awk '{ print $2 }'): one node, $host, $cpus CPUs, $mem_mb MB (started in $(since "$started") s)"

# --- The folder to sweep: codes, images without codes, files that fail, awkward names.
cd "$T/work"
gen_started=$(now)
mkdir -p photos
# Photo-like noise without codes: the whole plan runs on each, so these set the sweep's pace.
for i in $(seq 0 7); do
  /usr/bin/convert -seed "$((i + 1))" -size 32x24 xc: +noise Random -resize '200x150!' -quality 85 "base-$i.jpg"
done
for i in $(seq 1 150); do
  d=photos/codes/$((i % 10))
  mkdir -p "$d"
  qrencode -s 3 -o "$d/qr-$i.png" "https://example.com/codesweep/slurm/$i"
done
for i in $(seq 1 100); do
  d=photos/plain/$((i % 9))
  mkdir -p "$d"
  cp "base-$((i % 8)).jpg" "$d/IMG_$i.jpg"
done
mkdir -p photos/mixed
for i in $(seq 0 7); do
  qrencode -s 4 -o qr.png "PHOTO-$i"
  /usr/bin/convert "base-$i.jpg" -resize '400x300!' qr.png -geometry "+$((20 + i * 9))+$((30 + i * 7))" -composite -quality 90 "photos/mixed/photo-$i.jpg"
done
rm -f qr.png base-*.jpg
mkdir -p photos/awkward
qrencode -o "photos/awkward/name with space.png" "a name with a space"
qrencode -o "photos/awkward/caf$(printf '\351').png" "a name that is not UTF-8"
cp "$repo/Samples/corrupt.jpg" photos/awkward/corrupt.jpg
head -c 5000 photos/mixed/photo-1.jpg >photos/awkward/cut-short.jpg # read, with a warning
: >photos/awkward/empty.png
echo "not an image" >photos/awkward/notes.png
echo "skipped: not an image by name or content" >photos/awkward/notes.txt

# One codesweep scan of the folder: the report the sweep must give back.
scan_started=$(now)
set +e
"$BIN" scan -q --hash sha256 -o single.jsonl photos
s=$?
set -e
[ $s -eq 1 ] || die "the single scan exited $s, not 1 (some files fail on purpose)"
files=$(wc -l <single.jsonl)
failed=$(grep -c '"status":"error"' single.jsonl || true)
[ "$failed" -ge 3 ] || die "the single scan recorded $failed failed files, expected the broken ones"
say "swept folder: $files files ($failed fail on purpose; made in $(since "$gen_started" "$scan_started") s), one codesweep scan: $(since "$scan_started") s"

# The recipe as docs/forensics.md gives it: the environment, the array, the dependent merge.
export PATH="$(dirname "$BIN"):$PATH" CODESWEEP_ROOTS=photos
sweep=$repo/examples/slurm/sweep.sbatch
merge=$repo/examples/slurm/merge.sbatch
fits=()
if [ "$cpus" -lt 2 ]; then fits+=(--cpus-per-task=1); fi # the script asks for 2
if [ "$mem_mb" -lt 2048 ]; then fits+=(--mem=$((mem_mb / 2))M); fi

# ids of the array's tasks still known to Slurm (pending, running or completing)
alive() { squeue -h -r -j "$1" -o %i 2>/dev/null || true; }
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
same_as_single() { # REPORT SHARD-FOLDER
  cmp -s "$1" single.jsonl || die "$1 differs from the single scan's report: $(cmp "$1" single.jsonl 2>&1 | head -n 1)"
  [ "$(cat "$2"/shard-*.jsonl | LC_ALL=C sort)" = "$(LC_ALL=C sort single.jsonl)" ] ||
    die "the shards of $2 together do not hold each record of the single scan exactly once"
}

# Run 1: submitted as the docs show; sbatch --wait on the merge returns when it has run.
export CODESWEEP_OUT=out1
run_started=$(now)
jid=$(sbatch --parsable "${fits[@]}" --array=0-$((SHARDS - 1)) "$sweep")
set +e
in_background timeout 600 sbatch --wait --quiet --dependency=afterok:"$jid" --kill-on-invalid-dep=yes "$merge"
s=$?
set -e
[ $s -eq 0 ] || die "run 1: the merge job ended with status $s (array $jid: $(job_state "$jid"))"
same_as_single out1/report.jsonl out1
grep -q 'codesweep exit status 1: some files failed' codesweep-"$jid"_*.log ||
  die "run 1: no task reported codesweep's exit status 1 (the broken files are in some shard)"
say "run 1: $SHARDS shards (array job $jid), $(wc -l <out1/report.jsonl) files swept, $(timing "$run_started" out1/report.jsonl); merged report identical to the single scan"

# Run 2: one slow task (--jobs 1) cancelled after its first records, re-submitted alone.
export CODESWEEP_OUT=out2
K=$((SHARDS - 1))
want=$(wc -l <out1/shard-$K.jsonl)
run_started=$(now)
jid=$(sbatch --parsable "${fits[@]}" --cpus-per-task=1 --array=0-$((SHARDS - 1)) "$sweep")
mid=$(sbatch --parsable --dependency=afterok:"$jid" --kill-on-invalid-dep=yes "$merge")
have=0
for _ in $(seq 1200); do
  [ -f out2/shard-$K.jsonl ] && have=$(wc -l <out2/shard-$K.jsonl)
  [ "$have" -ge 2 ] && break
  sleep 0.1
done
[ "$have" -ge 2 ] || die "run 2: task ${jid}_$K wrote $have records in 120 s"
scancel "${jid}_$K"
for _ in $(seq 300); do
  alive "$jid" | grep -qx "${jid}_$K" || break
  sleep 0.1
done
alive "$jid" | grep -qx "${jid}_$K" && die "run 2: task ${jid}_$K still there 30 s after scancel"
have=$(wc -l <out2/shard-$K.jsonl)
[ "$have" -lt "$want" ] || die "run 2: task ${jid}_$K finished its $want files before it was cancelled: make it slower"
grep -q "CANCELLED" codesweep-"${jid}_$K".log || die "run 2: task ${jid}_$K's log does not say it was cancelled"
# afterok can no longer hold: the merge job is cancelled, not left pending for ever.
for _ in $(seq 100); do [ "$(job_state "$mid")" = CANCELLED ] && break; sleep 0.1; done
[ "$(job_state "$mid")" = CANCELLED ] || die "run 2: merge job $mid is $(job_state "$mid"), not cancelled, after task $K was"
jid2=$(sbatch --parsable "${fits[@]}" --cpus-per-task=1 --array="$K" "$sweep")
set +e
in_background timeout 600 sbatch --wait --quiet --dependency=afterany:"$jid",afterok:"$jid2" --kill-on-invalid-dep=yes "$merge"
s=$?
set -e
[ $s -eq 0 ] || die "run 2: the merge job after the re-submitted task ended with status $s"
grep -q "shard $K/$SHARDS of photos" codesweep-"${jid2}_$K".log ||
  die "run 2: the re-submitted task (an array of one) did not scan shard $K/$SHARDS"
[ "$(wc -l <out2/shard-$K.jsonl)" -eq "$want" ] || die "run 2: shard $K holds $(wc -l <out2/shard-$K.jsonl) records, not $want"
same_as_single out2/report.jsonl out2
say "run 2: $SHARDS shards (array job $jid), task $K cancelled after $have of its $want files and re-submitted (job $jid2: resumed, $((want - have)) more), $(wc -l <out2/report.jsonl) files swept, $(timing "$run_started" out2/report.jsonl); merged report identical to the single scan, no file twice"
say "passed in $(since "$started") s"
