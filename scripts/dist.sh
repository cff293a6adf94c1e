#!/usr/bin/env bash
# `make dist`: a release build with the Swift runtime linked in (--static-swift-stdlib), packed as
#   dist/codesweep-VERSION-linux-x86_64.tar.gz   binary, man page, bash/zsh/fish completions, LICENSE, README
#   dist/codesweep_DEBVERSION_amd64.deb          the same files in their Debian places
# The .deb's Depends: are computed, not listed by hand: every library the binary names (ELF NEEDED),
# found with ldd, and the Debian package that owns it (dpkg -S). VERSION: scripts/version.sh
# (git describe). Builds in its own scratch path (.build-dist) so it never disturbs .build.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH=${DIST_SCRATCH:-.build-dist}
die() { echo "dist: $*" >&2; exit 1; }
t0=$(date +%s)

[ "$(uname -m)" = x86_64 ] || die "only linux x86_64 is packaged (this is $(uname -m))"
command -v dpkg-deb >/dev/null || die "dpkg-deb missing (Debian's dpkg)"
VERSION=$(scripts/version.sh)
DEBVERSION=$(scripts/version.sh --deb)
echo "dist: version $VERSION (deb $DEBVERSION)" >&2

# The version goes in through a generated file (gitignored) and a compilation condition; a plain
# `swift build` leaves both out and prints Version.swift's default. Rewritten only when it changes.
gen=Sources/Commands/DistVersion.generated.swift
want=$(printf '// Written by scripts/dist.sh (make dist); not in git.\nlet distVersion = "%s"\n' "$VERSION")
[ -f "$gen" ] && [ "$(cat "$gen")" = "$want" ] || printf '%s\n' "$want" > "$gen"

$SWIFT build -c release --static-swift-stdlib --scratch-path "$SCRATCH" -Xswiftc -DCODESWEEP_DIST_VERSION --product codesweep
BIN=$($SWIFT build -c release --static-swift-stdlib --scratch-path "$SCRATCH" -Xswiftc -DCODESWEEP_DIST_VERSION --show-bin-path)/codesweep
[ -x "$BIN" ] || die "no binary at $BIN"
got=$("$BIN" --version)
[ "$got" = "$VERSION" ] || die "the binary says version '$got', expected '$VERSION'"
if ldd "$BIN" | grep -Eq 'libswift|libFoundation|libdispatch|not found'; then
  ldd "$BIN" >&2; die "the binary still needs the Swift runtime or a missing library"
fi

# ---- the Debian packages the binary links ----
owner() {  # the package owning a library path; usr-merged systems register either /lib or /usr/lib
  local p=$1 c out
  for c in "$p" "$(readlink -f "$p")" "${p#/usr}" "/usr$p" "$(readlink -f "$p" | sed 's|^/usr||')"; do
    out=$(dpkg -S "$c" 2>/dev/null | head -1) && [ -n "$out" ] && { echo "${out%%:*}"; return 0; }
  done
  return 1
}
needed=$(readelf -d "$BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || die "readelf found no NEEDED libraries in $BIN"
deps=()
# ldd's output read once: awk leaving at its match must not SIGPIPE a still-writing ldd (with
# pipefail that killed the script silently, at a random library, once the binary needed ~25).
linked=$(ldd "$BIN")
for lib in $needed; do
  # "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)", or for the loader "/lib64/ld-linux-x86-64.so.2 (0x...)"
  path=$(awk -v l="$lib" '($1 == l && $2 == "=>") { print $3; exit } (substr($1, length($1) - length(l)) == "/" l) { print $1; exit }' <<< "$linked")
  [ -n "$path" ] && [ -e "$path" ] || die "ldd cannot find $lib"
  pkg=$(owner "$path") || die "no Debian package owns $path ($lib)"
  echo "dist: $lib -> $path -> $pkg" >&2
  deps+=("$pkg")
done
# The programs documents are rendered with (run, not linked: issue 41): Poppler and librsvg; and
# qpdf, which reads a PDF page's /UserUnit (Poppler ignores it).
deps+=(poppler-utils librsvg2-bin qpdf)
# The certificates libcurl verifies https links against (check --check-links): data, not linked.
deps+=(ca-certificates)
DEPENDS=$(printf '%s\n' "${deps[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')

# ---- man page and completions, from the binary itself ----
STAGE=dist/stage
rm -rf "$STAGE"; mkdir -p "$STAGE"
"$BIN" --experimental-dump-help > "$STAGE/dump-help.json"
python3 scripts/make-manpage.py --version "$VERSION" < "$STAGE/dump-help.json" > "$STAGE/codesweep.1"
for sh in bash zsh fish; do
  "$BIN" --generate-completion-script "$sh" > "$STAGE/completion.$sh"
  [ -s "$STAGE/completion.$sh" ] || die "empty $sh completion script"
done

# The licences of what is compiled in (Swift packages, the Swift runtime), to ship beside LICENSE.
{
  echo "Licences of the software compiled into the codesweep binary (see LICENSE for the list and for"
  echo "the Debian libraries it links, whose licences Debian ships in /usr/share/doc/PACKAGE/copyright)."
  zxing=$(pkg-config --variable=prefix codesweep-zxing)/LICENSE
  for f in "$SCRATCH"/checkouts/*/LICENSE* "$(dirname "$(command -v "$SWIFT")")/../share/swift/LICENSE.txt" "$zxing"; do
    [ -f "$f" ] || continue
    case "$f" in */checkouts/*) what=$(basename "$(dirname "$f")") ;; "$zxing") what="zxing-cpp 3.1.1 (Apache-2.0), linked statically" ;; *) what="Swift runtime (swift.org toolchain)" ;; esac
    printf '\n==================== %s ====================\n\n' "$what"
    cat "$f"
  done
} > "$STAGE/THIRD-PARTY-LICENSES"
# One licence per Swift package checked out (Package.swift's dependencies), the runtime's and zxing-cpp's.
for d in "$SCRATCH"/checkouts/*/; do
  grep -qxF "==================== $(basename "$d") ====================" "$STAGE/THIRD-PARTY-LICENSES" || die "no licence file in $d"
done
grep -q '^==================== Swift runtime' "$STAGE/THIRD-PARTY-LICENSES" || die "the Swift runtime's LICENSE.txt is missing"
grep -q '^==================== zxing-cpp' "$STAGE/THIRD-PARTY-LICENSES" || die "zxing-cpp's LICENSE (from pkg-config codesweep-zxing's prefix) is missing"
if readelf -d "$BIN" | grep -q 'libZXing'; then die "the binary links a shared libZXing: zxing-cpp must be linked in statically"; fi

# ---- tarball ----
name="codesweep-$VERSION-linux-x86_64"
T="$STAGE/$name"
install -D -m 755 "$BIN" "$T/bin/codesweep"
strip --strip-unneeded "$T/bin/codesweep"
install -D -m 644 "$STAGE/codesweep.1" "$T/share/man/man1/codesweep.1"
install -D -m 644 "$STAGE/completion.bash" "$T/share/bash-completion/completions/codesweep"
install -D -m 644 "$STAGE/completion.zsh" "$T/share/zsh/site-functions/_codesweep"
install -D -m 644 "$STAGE/completion.fish" "$T/share/fish/vendor_completions.d/codesweep.fish"
install -m 644 LICENSE README.md CHANGELOG.md "$STAGE/THIRD-PARTY-LICENSES" "$T/"
printf 'Debian 12 packages this binary needs (apt-get install):\n%s\n' "$(printf '%s\n' "${deps[@]}" | sort -u | paste -sd' ' -)" > "$T/DEPENDS"
tar -C "$STAGE" --owner=0 --group=0 --numeric-owner -czf "dist/$name.tar.gz" "$name"

# ---- .deb ----
D="$STAGE/deb"
install -D -m 755 "$T/bin/codesweep" "$D/usr/bin/codesweep"
install -d "$D/usr/share/man/man1"
gzip -9n < "$STAGE/codesweep.1" > "$D/usr/share/man/man1/codesweep.1.gz"
install -D -m 644 "$STAGE/completion.bash" "$D/usr/share/bash-completion/completions/codesweep"
install -D -m 644 "$STAGE/completion.zsh" "$D/usr/share/zsh/vendor-completions/_codesweep"
install -D -m 644 "$STAGE/completion.fish" "$D/usr/share/fish/vendor_completions.d/codesweep.fish"
install -D -m 644 LICENSE "$D/usr/share/doc/codesweep/copyright"
install -m 644 README.md "$STAGE/THIRD-PARTY-LICENSES" "$D/usr/share/doc/codesweep/"
gzip -9n < CHANGELOG.md > "$D/usr/share/doc/codesweep/changelog.gz"; chmod 644 "$D/usr/share/doc/codesweep/changelog.gz"
size_kb=$(du -sk --exclude=DEBIAN "$D" | cut -f1)
mkdir -p "$D/DEBIAN"
cat > "$D/DEBIAN/control" <<CONTROL
Package: codesweep
Version: $DEBVERSION
Architecture: amd64
Maintainer: CodeSweep maintainers <maintainers@users.noreply.a-seed-b53f7698.example>
Installed-Size: $size_kb
Depends: $DEPENDS
Recommends: fonts-dejavu-core
Section: utils
Priority: optional
Description: find every barcode and QR code in folders of images
 CodeSweep walks files and folders, loads every image upright and reports each
 barcode and QR code (ZBar, zxing-cpp and its own QR reader) as JSONL, JSON or
 CSV. Also: check (rules for codes in marketing assets), generate (verified QR
 codes), report, merge and summarize. The Swift runtime is linked in.
 fonts-dejavu-core is recommended for the labels of --annotate pictures;
 poppler-utils (GPL) and librsvg2-bin (LGPL), in Depends, render PDF pages and
 SVG artwork as separate programs: the binary links neither; qpdf (Apache-2.0)
 reads each PDF page's UserUnit.
CONTROL
deb="dist/codesweep_${DEBVERSION}_amd64.deb"
dpkg-deb --root-owner-group --build "$D" "$deb" >/dev/null
rm -rf "$STAGE"

echo "dist: Depends: $DEPENDS" >&2
echo "dist: $(du -h "dist/$name.tar.gz" | cut -f1)	dist/$name.tar.gz" >&2
echo "dist: $(du -h "$deb" | cut -f1)	$deb ($(stat -c %s "$deb") bytes)" >&2
echo "dist: done in $(( $(date +%s) - t0 )) s" >&2
