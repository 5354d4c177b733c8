#!/usr/bin/env bash
# The test command (docs/testing.md). On a fresh Debian machine: installs what it needs, builds
# native and WebAssembly, and runs the unit, golden and browser tests.
#   scripts/test.sh          those tests: the command for a change
#   scripts/test.sh --full   then the lint of the changed C++ files (scripts/lint_changed.sh) and
#                            the sanitizer job: every native test again under ASan + UBSan, and
#                            each fuzz target (what CI runs, .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
case "${1:-}" in
  --full) full=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
esac
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
if [ "$full" = 1 ]; then
  scripts/lint_changed.sh
  scripts/test-sanitizers.sh | tee "$log/sanitizers.txt"
fi
echo "paleo: all tests passed"
echo "tests: $((native + browser)) passed, 0 failed"
if [ "$full" = 1 ]; then
  echo "lint: clang-format and clang-tidy clean on the changed C++ files"
  echo "sanitizers: the native tests again under ASan + UBSan, and $(grep -c '^Done [0-9]* runs' "$log/sanitizers.txt") fuzz targets, all clean"
else
  echo "not run: the lint of changed files, the sanitizer build and the fuzzers (scripts/test.sh --full, as CI runs)"
fi
