#!/usr/bin/env bash
# `make dist-check`: proves dist/'s .deb and tarball on a clean Debian 12 with no Swift.
# debootstrap --variant=minbase bookworm into a temporary folder (the mirror taken from this
# machine's apt sources), chroot, install the .deb with packaging/install-deb.sh (the Containerfile's
# steps: apt-get install ./codesweep_*.deb, no recommends), then run the installed codesweep:
# --version, scan Samples (compared with Samples/expected.jsonl), check Samples/check, generate,
# man codesweep, the completions, and the tarball's binary. Prints every check; exits 1 if any
# failed (or if fewer checks ran than it has). Runs as root; unmounts and removes the root on exit.
set -uo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
die() { echo "dist-check: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, mount, chroot)"
command -v debootstrap >/dev/null || PATH="$PATH:/usr/sbin:/sbin"
command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
command -v python3 >/dev/null || die "python3 is missing (it compares the scan with Samples/expected.jsonl)"

VERSION=$(scripts/version.sh)
DEBVERSION=$(scripts/version.sh --deb)
DEB=dist/codesweep_${DEBVERSION}_amd64.deb
TAR=dist/codesweep-${VERSION}-linux-x86_64.tar.gz
[ -f "$DEB" ] && [ -f "$TAR" ] || die "no $DEB or $TAR for this version: run make dist first"

# The mirror: the first Debian URI in this machine's apt sources (deb822 or one-line), else deb.debian.org.
MIRROR=${DIST_CHECK_MIRROR:-}
if [ -z "$MIRROR" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
  MIRROR=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
fi
if [ -z "$MIRROR" ] && [ -f /etc/apt/sources.list ]; then
  MIRROR=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list)
fi
MIRROR=${MIRROR:-http://deb.debian.org/debian}

ROOT=$(mktemp -d "${TMPDIR:-/var/tmp}/codesweep-dist-check.XXXXXX") || die "mktemp"
chmod 755 "$ROOT"   # the chroot's /: mktemp's 0700 would lock every user but root out of it
MOUNTS=()
cleanup() {
  local i m
  for (( i=${#MOUNTS[@]}-1; i>=0; i-- )); do umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}" 2>/dev/null; done
  # Anything else mounted in the root (debootstrap mounts proc and sys while it works, and an
  # interrupted debootstrap may leave them), deepest first.
  findmnt -rn -o TARGET | grep "^$ROOT/" | sort -r | while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
  rm -f "$ROOT.debootstrap.log"
  if findmnt -rn -o TARGET | grep -q "^$ROOT"; then
    echo "dist-check: something is still mounted under $ROOT; left in place" >&2
  else
    rm -rf --one-file-system "$ROOT"
    echo "dist-check: clean root removed; $(( $(date +%s) - t0 )) s in all" >&2
  fi
}
trap cleanup EXIT
trap 'echo "dist-check: FAILED: interrupted" >&2; exit 130' INT TERM

PASSED=0; FAILED=0; RAN=()
ok()   { PASSED=$((PASSED+1)); RAN+=("ok    $1"); echo "ok    $1"; }
fail() { FAILED=$((FAILED+1)); RAN+=("FAIL  $1"); echo "FAIL  $1" >&2; }
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb /bin/sh -c "$1"; }

echo "dist-check: $DEB ($(stat -c %s "$DEB") bytes), $TAR"
echo "dist-check: Depends: $(dpkg-deb -f "$DEB" Depends)"
echo "dist-check: debootstrap --variant=minbase bookworm $ROOT $MIRROR"
t1=$(date +%s)
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" > "$ROOT.debootstrap.log" 2>&1 \
  || { tail -20 "$ROOT.debootstrap.log" >&2; rm -f "$ROOT.debootstrap.log"; die "debootstrap"; }
rm -f "$ROOT.debootstrap.log"
echo "dist-check: clean root made in $(( $(date +%s) - t1 )) s"
# Its apt sources: this machine's (bookworm, -updates, -security), so Depends resolve as they would here.
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  cp /etc/apt/sources.list.d/debian.sources "$ROOT/etc/apt/sources.list.d/debian.sources"
  rm -f "$ROOT/etc/apt/sources.list"
fi
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$ROOT/proc" && MOUNTS+=("$ROOT/proc") || die "mount proc"
if [ ! -c "$ROOT/dev/null" ]; then mount --bind /dev "$ROOT/dev" && MOUNTS+=("$ROOT/dev") || die "mount /dev"; fi

W="$ROOT/root/work"
mkdir -p "$W"
cp "$DEB" "$W/codesweep.deb"; cp "$TAR" "$W/codesweep.tar.gz"; cp packaging/install-deb.sh "$W/"
cp -a Samples "$W/Samples"
cp Tests/Fixtures/symbologies/microqr.png Tests/Fixtures/symbologies/rmqr.png "$W/"

# 1. No Swift in the clean root.
if in_root '! command -v swift >/dev/null && ! ls /usr/lib/swift /opt/swift >/dev/null 2>&1'; then ok "no Swift toolchain or runtime in the clean root"; else fail "the clean root has Swift"; fi

# 2. Install the .deb (packaging/install-deb.sh: apt-get install ./codesweep_*.deb, no recommends).
t1=$(date +%s)
if in_root 'sh /root/work/install-deb.sh /root/work/codesweep.deb' > "$W/install.log" 2>&1; then
  ok "apt-get install ./$(basename "$DEB") ($(( $(date +%s) - t1 )) s; $(grep -c '^Setting up' "$W/install.log") packages set up)"
else
  tail -20 "$W/install.log" >&2; fail "apt-get install of the .deb"
fi

# 3. The binary finds every library, none of them Swift's.
if in_root 'ldd /usr/bin/codesweep' > "$W/ldd.txt" 2>&1 && ! grep -Eq 'not found|libswift' "$W/ldd.txt"; then
  ok "ldd /usr/bin/codesweep: $(wc -l < "$W/ldd.txt") libraries, none missing, no Swift runtime"
else
  cat "$W/ldd.txt" >&2; fail "ldd /usr/bin/codesweep"
fi

# 3b. zxing-cpp 3.1.1 is linked in: no libzxing2 in the root, and a Micro QR and an rMQR code read.
if in_root '! dpkg-query -W libzxing2 >/dev/null 2>&1 && ! ls /usr/lib/x86_64-linux-gnu/libZXing.so* >/dev/null 2>&1 && cd /root/work && codesweep scan -q microqr.png rmqr.png' > "$W/zxing.jsonl" 2>&1 \
  && grep -q '"symbology":"microqr","text":"MICRO QR 48"' "$W/zxing.jsonl" && grep -q '"symbology":"rmqr","text":"rMQR CodeSweep 48"' "$W/zxing.jsonl"; then
  ok "no libzxing2 installed; a Micro QR and an rMQR code read (zxing-cpp 3.1.1 linked in)"
else
  cat "$W/zxing.jsonl" >&2; fail "zxing-cpp 3.1.1: libzxing2 installed, or the Micro QR / rMQR code not read"
fi

# 4. --version is this build's git-described version.
got=$(in_root 'codesweep --version' 2>&1)
if [ "$got" = "$VERSION" ]; then ok "codesweep --version = $got"; else fail "codesweep --version said '$got', expected '$VERSION'"; fi

# 5. scan Samples: exit 1 (Samples/corrupt.jpg is corrupt on purpose), records as Samples/expected.jsonl.
in_root 'cd /root/work && codesweep scan -q Samples > scan.jsonl 2> scan.err'; status=$?
if [ "$status" -eq 1 ] && python3 scripts/compare-expected.py "$W/scan.jsonl" Samples/expected.jsonl --prefix Samples/ > "$W/compare.txt" 2>&1; then
  ok "codesweep scan Samples: exit 1 as expected; $(tail -1 "$W/compare.txt")"
else
  cat "$W/compare.txt" "$W/scan.err" >&2; fail "codesweep scan Samples: exit $status (expected 1), $(tail -1 "$W/compare.txt")"
fi

# 6. check Samples/check with its rules (docs/check.md's example): exit 1, only good-poster.png passes.
in_root 'cd /root/work && codesweep check --rules Samples/check/.codesweep.yml --json check.json Samples/check > check.out 2>&1'; status=$?
summary=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
passed = sorted(i["path"].rsplit("/", 1)[-1] for i in d["images"] if i["status"] == "passed")
print(s["images"], s["passed"], s["failed"], s["errors"], ",".join(passed))' "$W/check.json" 2>&1)
if [ "$status" -eq 1 ] && [ "$summary" = "7 1 6 0 good-poster.png" ]; then
  ok "codesweep check --rules Samples/check/.codesweep.yml Samples/check: exit 1; 7 images, good-poster.png passed, 6 failed (as docs/check.md says)"
else
  cat "$W/check.out" >&2; fail "codesweep check Samples/check: exit $status, images/passed/failed/errors/passed files: $summary (expected exit 1, 7 1 6 0 good-poster.png)"
fi

# 7. generate: one code read back; the sample campaign generated and gated by check.
url='https://www.example.com/dist-check?utm_source=deb'
if in_root "cd /root/work && codesweep generate -o one.png '$url' > gen.out 2>&1 && codesweep scan -q one.png" > "$W/one.jsonl" 2>>"$W/gen.out" \
   && grep -qF "\"text\":\"$url\"" "$W/one.jsonl"; then
  ok "codesweep generate -o one.png URL, and scan reads URL back"
else
  cat "$W/gen.out" >&2; fail "codesweep generate a single code"
fi
if in_root 'cd /root/work && codesweep generate --batch Samples/generate/campaign.csv -o codes/ && codesweep check --no-rules-file --expectations codes/expected.yml codes/' > "$W/batch.out" 2>&1; then
  ok "codesweep generate --batch Samples/generate/campaign.csv: $(ls "$W/codes" | grep -vc expected.yml) files, check --expectations passes"
else
  tail -20 "$W/batch.out" >&2; fail "codesweep generate --batch + check --expectations"
fi

# 8. As a plain user, as the Containerfile runs it (USER codesweep): its ImageMagick policy and
#    temporary files go to /tmp, nothing needs root.
if in_root 'useradd --system --create-home --home-dir /home/codesweep codesweep && cp /root/work/Samples/qr-photo.jpg /home/codesweep/ && chown codesweep /home/codesweep/qr-photo.jpg && runuser -u codesweep -- sh -c "cd /home/codesweep && codesweep scan -q qr-photo.jpg && codesweep generate -o - https://www.example.com/user | codesweep scan -q -"' > "$W/user.jsonl" 2>&1 \
   && grep -q 'https://example.com/codesweep/photo' "$W/user.jsonl" && grep -q '"text":"https://www.example.com/user"' "$W/user.jsonl" \
   && [ -z "$(ls -A "$ROOT/tmp" | grep '^codesweep-')" ]; then
  ok "as a plain user (the Containerfile's USER): scan, generate to stdout and scan from stdin; no temporary folder left in /tmp"
else
  cat "$W/user.jsonl" >&2; ls -la "$ROOT/tmp" >&2; fail "codesweep as a plain user"
fi

# 9. man codesweep (man-db installed for the test only; the .deb does not depend on it).
if in_root 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends man-db' > "$W/man-db.log" 2>&1 \
   && in_root 'MANPAGER=cat MANWIDTH=80 man codesweep' > "$W/man.txt" 2>"$W/man.err" \
   && grep -q 'codesweep scan' "$W/man.txt" && grep -q 'codesweep generate' "$W/man.txt"; then
  ok "man codesweep: $(wc -l < "$W/man.txt") lines, every command"
else
  tail -5 "$W/man-db.log" "$W/man.err" >&2; fail "man codesweep"
fi

# 10. Completions where bash-completion, zsh and fish look, and the bash one parses.
if in_root 'test -s /usr/share/bash-completion/completions/codesweep && test -s /usr/share/zsh/vendor-completions/_codesweep && test -s /usr/share/fish/vendor_completions.d/codesweep.fish && bash -n /usr/share/bash-completion/completions/codesweep && bash -c ". /usr/share/bash-completion/completions/codesweep && complete -p codesweep"' > "$W/compl.txt" 2>&1; then
  ok "completions installed (bash, zsh, fish); bash: $(tail -1 "$W/compl.txt")"
else
  cat "$W/compl.txt" >&2; fail "completions"
fi

# 11. The tarball's binary, in the same root (only the .deb's Depends installed): version and the sample scan.
in_root 'cd /root/work && mkdir tar && tar -xzf codesweep.tar.gz -C tar && cd tar/codesweep-*/ && ./bin/codesweep --version > ../../tar-version.txt && cp -a /root/work/Samples . && ./bin/codesweep scan -q Samples > ../../tar-scan.jsonl 2>/dev/null'; status=$?
if [ "$status" -eq 1 ] && [ "$(cat "$W/tar-version.txt" 2>/dev/null)" = "$VERSION" ] \
   && python3 scripts/compare-expected.py "$W/tar-scan.jsonl" Samples/expected.jsonl --prefix Samples/ > "$W/tar-compare.txt" 2>&1; then
  ok "the tarball's bin/codesweep: --version $VERSION; scan Samples matches Samples/expected.jsonl"
else
  cat "$W/tar-compare.txt" >&2 2>/dev/null
  fail "the tarball's binary: --version '$(cat "$W/tar-version.txt" 2>/dev/null)' (expected '$VERSION'), scan exit $status (expected 1), $(tail -1 "$W/tar-compare.txt" 2>/dev/null)"
fi

# Every check above, counted: one skipped or lost fails the run (13 since the zxing-cpp check).
EXPECTED_CHECKS=13
echo
echo "dist-check: $PASSED passed, $FAILED failed, in $(( $(date +%s) - t0 )) s (debootstrap included)"
if [ "$FAILED" -ne 0 ] || [ "$PASSED" -ne "$EXPECTED_CHECKS" ]; then
  echo "dist-check: FAILED ($PASSED of $EXPECTED_CHECKS checks passed)" >&2
  exit 1
fi
echo "dist-check: PASSED"
