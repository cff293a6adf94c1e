#!/usr/bin/env bash
# Installs the Debian packages CodeSweep builds, tests and benchmarks with.
# Idempotent: does nothing when everything is present. Needs root (or sudo) only to install.
set -euo pipefail
PKGS=(make pkg-config python3 fonts-dejavu-core libzbar-dev zbar-tools libzxing-dev libmagickwand-dev libqrencode-dev imagemagick libheif1 qrencode zint libimage-exiftool-perl)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "installing: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
