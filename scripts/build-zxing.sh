#!/usr/bin/env bash
# Builds zxing-cpp 3.1.1, CodeSweep's second reader, from its release source, once, and installs it
# where SwiftPM finds it (pkg-config name `codesweep-zxing`). Called by scripts/install-deps.sh, so by
# `make demo`, `make test`, `.ci/run` and `make dist`.
#
# - The source is the release's sdist on PyPI (`pip download --no-binary`), checked against the
#   sha256 pinned below before anything is unpacked: a different archive stops the set-up.
# - The core alone: Release, readers and the C API on (ZXingC.h), writers off, a static and
#   position-independent archive, libcodesweep-zxing.a. No network at run time; the binary links it in.
# - Cached: the archive in ~/.cache/codesweep, the build in $PREFIX with a stamp naming the sha256;
#   a second run with the stamp in place does nothing.
#
# Environment: CODESWEEP_ZXING_PREFIX (default /usr/local/lib/codesweep/zxing-cpp-3.1.1),
# CODESWEEP_ZXING_PCDIR (where codesweep-zxing.pc goes; default /usr/local/lib/pkgconfig, which
# pkg-config and SwiftPM search), CODESWEEP_ZXING_ARCHIVE (use this archive instead of fetching).
set -euo pipefail
VERSION=3.1.1
SHA256=1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b
NAME=zxing_cpp-$VERSION.tar.gz
PREFIX=${CODESWEEP_ZXING_PREFIX:-/usr/local/lib/codesweep/zxing-cpp-$VERSION}
PCDIR=${CODESWEEP_ZXING_PCDIR:-/usr/local/lib/pkgconfig}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/codesweep
say() { echo "build-zxing: $*" >&2; }
die() { say "$*"; exit 1; }

stamp="$PREFIX/.source-sha256"
if [ -z "${CODESWEEP_ZXING_ARCHIVE:-}" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$SHA256" ] \
  && [ -f "$PREFIX/lib/libcodesweep-zxing.a" ] && [ -f "$PCDIR/codesweep-zxing.pc" ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p "$PREFIX" "$PCDIR" 2>/dev/null && [ -w "$PREFIX" ] && [ -w "$PCDIR" ] || SUDO="sudo"
fi

# ---- the pinned source ----
if [ -n "${CODESWEEP_ZXING_ARCHIVE:-}" ]; then
  archive=$CODESWEEP_ZXING_ARCHIVE
  [ -f "$archive" ] || die "CODESWEEP_ZXING_ARCHIVE=$archive: no such file"
else
  archive="$CACHE/$NAME"
  if [ ! -f "$archive" ]; then
    mkdir -p "$CACHE"
    say "fetching zxing-cpp $VERSION's release source (pip download --no-binary zxing-cpp)"
    command -v python3 >/dev/null || die "python3 is needed to fetch the source (pip download)"
    python3 -m pip download -q --no-deps --no-binary zxing-cpp "zxing-cpp==$VERSION" -d "$CACHE" \
      || die "pip could not download zxing-cpp==$VERSION's source; fetch $NAME (sha256 $SHA256) and pass it as CODESWEEP_ZXING_ARCHIVE"
    [ -f "$archive" ] || die "pip download left no $archive"
  fi
fi
got=$(sha256sum "$archive" | cut -d' ' -f1)
if [ "$got" != "$SHA256" ]; then
  die "$archive has sha256 $got, not the pinned $SHA256 of zxing-cpp $VERSION's release source: refusing to build it (delete the file to fetch it again)"
fi

# ---- the build ----
command -v cmake >/dev/null || die "cmake is needed (Debian's cmake: apt-get install cmake)"
command -v c++ >/dev/null || die "a C++20 compiler is needed (Debian's g++: apt-get install g++)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
src="$work/zxing_cpp-$VERSION/core"
[ -f "$src/CMakeLists.txt" ] || die "$NAME holds no core/CMakeLists.txt"
t0=$(date +%s)
say "building zxing-cpp $VERSION (readers and C API, static) into $PREFIX"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DZXING_READERS=ON -DZXING_WRITERS=OFF -DZXING_C_API=ON \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib >"$work/cmake.log" 2>&1 \
  || { tail -30 "$work/cmake.log" >&2; die "cmake failed to configure zxing-cpp"; }
cmake --build "$work/build" -j "$(nproc)" >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log" >&2; die "zxing-cpp did not build"; }
$SUDO rm -rf "$PREFIX"
$SUDO cmake --install "$work/build" >"$work/install.log" 2>&1 || { tail -30 "$work/install.log" >&2; die "install failed"; }
[ -f "$PREFIX/include/ZXing/ZXingC.h" ] && [ -f "$PREFIX/lib/libZXing.a" ] || die "the install holds no ZXingC.h or libZXing.a"
# Named apart from Debian's libZXing.so (libzxing-dev, 1.4, no C API), which a linker searching
# /usr/lib first would take instead.
$SUDO mv "$PREFIX/lib/libZXing.a" "$PREFIX/lib/libcodesweep-zxing.a"
$SUDO install -m 644 "$work/zxing_cpp-$VERSION/LICENSE" "$PREFIX/LICENSE"
# Our own .pc, named apart from Debian's zxing.pc (libzxing-dev, 1.4): the static archive and the
# C++ runtime it needs.
pc=$(mktemp)
cat > "$pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: codesweep-zxing
Description: zxing-cpp $VERSION (readers, C API), built statically for CodeSweep
Version: $VERSION
Libs: -L\${libdir} -lcodesweep-zxing -lstdc++
Cflags: -I\${includedir}
PC
$SUDO mkdir -p "$PCDIR"
$SUDO install -m 644 "$pc" "$PCDIR/codesweep-zxing.pc"
rm -f "$pc"
echo "$SHA256" | $SUDO tee "$stamp" >/dev/null
say "zxing-cpp $VERSION built and installed in $(($(date +%s) - t0)) s"
