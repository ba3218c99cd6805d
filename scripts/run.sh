#!/usr/bin/env bash
# First README command: install what is missing, build, and run schedlab on the bundled sample.
# With a display it opens the workbench; without one it prints the CLI summary of the sample.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
./scripts/build.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec build/release/app/gui/schedlab "$@"
fi
echo "(no display: showing the headless summary; run build/release/app/gui/schedlab on a desktop)"
exec build/release/app/cli/schedlab-cli info samples/sample.sltrace "$@"
