#!/usr/bin/env bash
# Second README command: install what is missing, build, and run the whole test suite.
# Tests labelled `real` use ../shared/traces and skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
./scripts/build.sh
QT_QPA_PLATFORM=offscreen ctest --test-dir build/release --output-on-failure -j2 "$@"
