#!/usr/bin/env bash
# The long fuzzing run (docs/testing.md): each target for RUNS executions (default 10 million),
# one process at a time, keeping and growing its corpus in build/fuzz/corpus-long/. Not run by CI.
# Usage: scripts/fuzz_long.sh [RUNS_PER_TARGET] [TARGET...]   (targets: api net_spec)
# PALEO_FUZZ_SECONDS=N stops each target after N seconds if it has not done its runs by then.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10000000}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(api net_spec); fi
jobs="$(nproc 2>/dev/null || echo 2)"
CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPALEO_FUZZ=ON -DPALEO_WERROR=ON >/dev/null
cmake --build build/fuzz -j"$jobs" --target fuzz_api fuzz_net_spec
if [ ! -d build/fuzz/corpus-long ]; then python3 fuzz/make_corpus.py build/fuzz/corpus-long; fi
mkdir -p build/fuzz/artifacts
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in "${targets[@]}"; do
  echo "paleo: fuzz_$target, $runs runs"
  start=$(date +%s)
  build/fuzz/fuzz_"$target" build/fuzz/corpus-long/"$target" -dict=fuzz/api.dict -runs="$runs" -max_total_time="${PALEO_FUZZ_SECONDS:-0}" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix=build/fuzz/artifacts/"$target"- 2>&1 | tee build/fuzz/long-"$target".log | tail -n 40
  echo "paleo: fuzz_$target took $(( $(date +%s) - start )) s"
done
