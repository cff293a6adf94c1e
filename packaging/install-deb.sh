#!/bin/sh
# Installs a codesweep .deb and the Debian 12 packages its Depends: name, on a bare Debian 12
# (debian:12-slim, debootstrap minbase). The same steps for the Containerfile and `make dist-check`.
#   sh install-deb.sh /tmp/codesweep_VERSION_amd64.deb
set -eu
deb=$1
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$deb"
apt-get clean
rm -rf /var/lib/apt/lists/*
codesweep --version
