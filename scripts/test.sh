#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds native and WebAssembly, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh all
ctest --test-dir build/native --output-on-failure -j2
if [ -f package.json ]; then
  npm ci --no-audit --no-fund
  npm test
fi
echo "paleo: all tests passed"
