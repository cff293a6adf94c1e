#!/bin/sh
# Prints CodeSweep's version, the one `make dist` builds into `codesweep --version` and names the
# tarball with: `git describe --tags --always --dirty` without a leading "v" (v0.2.0-3-gabc1234 ->
# 0.2.0-3-gabc1234). With no tag reachable, describe gives a bare commit id, which is put after
# the base version below (0.1.0-gabc1234). Not a git checkout (a source tarball): the base version.
# With --deb: the same as a Debian version (starts with a digit, no hyphen): 0.2.0+3+gabc1234.
BASE=0.1.0
cd "$(dirname "$0")/.." || exit 1
v=$(git describe --tags --always --dirty 2>/dev/null) || v=""
case "$v" in
  "") v="$BASE" ;;
  v[0-9]*) v="${v#v}" ;;
  [0-9]*.*) ;;
  *) v="$BASE-g$v" ;;
esac
if [ "${1:-}" = "--deb" ]; then
  printf '%s\n' "$v" | tr -- '-' '+'
else
  printf '%s\n' "$v"
fi
