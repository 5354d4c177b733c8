#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build/fuzz), writes the seed corpora and runs each
# target for a fixed number of executions; a crash, leak, timeout (> 10 s: the sanitized,
# instrumented core runs about 40 times slower than a native one) or a non-finite number in a
# response fails the run and leaves the input in build/fuzz/artifacts/ (docs/testing.md).
# Usage: scripts/fuzz.sh [RUNS_PER_TARGET]   (default: CI's budget, PALEO_FUZZ_RUNS or 150000: about a minute per target)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-${PALEO_FUZZ_RUNS:-150000}}"
jobs="$(nproc 2>/dev/null || echo 2)"
CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPALEO_FUZZ=ON -DPALEO_WERROR=ON >/dev/null
cmake --build build/fuzz -j"$jobs" --target fuzz_api fuzz_net_spec
rm -rf build/fuzz/corpus
python3 fuzz/make_corpus.py build/fuzz/corpus
mkdir -p build/fuzz/artifacts
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in api net_spec; do
  echo "paleo: fuzz_$target, $runs runs"
  build/fuzz/fuzz_"$target" build/fuzz/corpus/"$target" -dict=fuzz/api.dict -runs="$runs" -seed=1 \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix=build/fuzz/artifacts/"$target"- 2>&1 | tail -n 80
done
