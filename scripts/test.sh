#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds native and WebAssembly, and runs every test; then the
# sanitizer job: every native test under ASan + UBSan and each fuzz target (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh all
log="$(mktemp -d)"
ctest --test-dir build/native --output-on-failure -j2 | tee "$log/ctest.txt"
native=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log/ctest.txt")
browser=0
if [ -f package.json ]; then
  npm ci --no-audit --no-fund
  npm test | tee "$log/node.txt"
  browser=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log/node.txt")
fi
scripts/test-sanitizers.sh | tee "$log/sanitizers.txt"
echo "paleo: all tests passed"
echo "tests: $((native + browser)) passed, 0 failed"
echo "sanitizers: the native tests again under ASan + UBSan, and $(grep -c '^Done [0-9]* runs' "$log/sanitizers.txt") fuzz targets, all clean"
