#!/usr/bin/env bash
# Second README command: install what is missing, build, and run the whole test suite.
# Tests labelled `real` use ../shared/traces and skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
./scripts/build.sh
# The `slurm` test starts slurmd, which runs as root: CI runs as root; elsewhere it is left out, said.
exclude=()
if [ "$(id -u)" -ne 0 ]; then
    echo "test: not root: leaving out test_slurm_sweep (label slurm; it starts munged, slurmctld and slurmd)"
    exclude=(-LE slurm)
fi
QT_QPA_PLATFORM=offscreen ctest --test-dir build/release --output-on-failure -j2 "${exclude[@]}" "$@"
