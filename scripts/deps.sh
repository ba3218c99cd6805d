#!/usr/bin/env bash
# Installs the Debian 12 packages schedlab needs, only when some are missing.
set -euo pipefail

PACKAGES=(cmake g++ ninja-build ccache pkg-config
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev libqcustomplot-dev libqt6sql6-sqlite libgl1-mesa-dev
    libtorch-dev libopenblas0-pthread libsqlite3-dev zlib1g-dev libbenchmark-dev xvfb xauth
    libsimdjson-dev libyaml-cpp-dev libbz2-dev
    munge slurmctld slurmd slurm-client
    clang-14 libclang-rt-14-dev)

missing=()
for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all ${#PACKAGES[@]} packages present"
    exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
