#!/usr/bin/env bash
# Configures and builds schedlab in build/release (2 parallel jobs: the machine has 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/ccache-env.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCHEDLAB_WERROR=ON
cmake --build build/release -j2
