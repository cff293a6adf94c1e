#!/usr/bin/env bash
# Installs the Debian packages CodeSweep builds, tests and benchmarks with (poppler-utils and
# librsvg2-bin render documents at run time, qpdf reads a PDF page's /UserUnit and makes the
# encrypted PDFs of the tests; libarchive, GMime and FFmpeg read containers, mail and videos, and ffmpeg, 7z and zip make their fixtures), then builds zxing-cpp 3.1.1 from its pinned source
# (scripts/build-zxing.sh: cmake, g++); with --tests also
# PyPI's jsonschema (pip). Idempotent: does nothing when everything is present. Needs root (or
# sudo) only to install the Debian packages.
set -euo pipefail
PKGS=(make pkg-config python3 python3-pip cmake g++ libpng-dev fonts-dejavu-core poppler-utils librsvg2-bin qpdf libzbar-dev zbar-tools libmagickwand-dev libjpeg62-turbo-dev libjpeg-turbo-progs libwebp-dev libheif-dev libheif-examples libqrencode-dev zlib1g-dev libcurl4-openssl-dev libssl-dev imagemagick libheif1 qrencode zint libimage-exiftool-perl libarchive-dev libgmime-3.0-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg p7zip-full zip zstd)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# zxing-cpp 3.1.1 from its pinned release source (sha256-checked), built once into a cached prefix.
bash "$(dirname "$0")/build-zxing.sh"
# With --tests: PyPI's jsonschema too, with which the tests check the JSON output against
# docs/schema (scripts/validate-schema.py), for the python3 first on PATH, the one the tests run.
if [ "${1:-}" = "--tests" ] && ! python3 -c 'import jsonschema, referencing' 2>/dev/null; then
  echo "installing: jsonschema (pip, for $(command -v python3))" >&2
  python3 -m pip install -q 'jsonschema>=4.18' || {
    echo "cannot install jsonschema for $(command -v python3): install it (python3 -m pip install 'jsonschema>=4.18', or in a venv) and rerun" >&2
    exit 1
  }
fi
