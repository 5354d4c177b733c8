#!/usr/bin/env bash
# The sanitizer job of CI (docs/testing.md): one clang tree, build/fuzz, with the core, the CLI
# and every native unit test under AddressSanitizer + UndefinedBehaviorSanitizer (any undefined
# behaviour ends the run) plus the libFuzzer targets; runs the unit tests, then each fuzz target
# for a fixed number of executions (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc 2>/dev/null || echo 2)"
CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPALEO_FUZZ=ON \
  -DPALEO_BUILD_TESTS=ON -DPALEO_WERROR=ON >/dev/null
cmake --build build/fuzz -j"$jobs"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build/fuzz --output-on-failure -j"$jobs"
scripts/fuzz.sh "$@"
