#!/usr/bin/env bash
# Builds the native CLI, tests and benchmarks (build/native) and the WebAssembly modules
# (build/wasm; build/wasm-estimate, the embed's). Usage: scripts/build.sh [native|wasm|all]
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

# ccache, where installed, keeps a rebuild of an unchanged file to a copy.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

if [ "$what" = native ] || [ "$what" = all ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DPALEO_WERROR=ON "${launcher[@]}" >/dev/null
  cmake --build build/native -j"$jobs"
fi
if [ "$what" = wasm ] || [ "$what" = all ]; then
  # Debian's Emscripten runs node scripts that need acorn from /usr/share/nodejs.
  export NODE_PATH=/usr/share/nodejs
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DPALEO_WERROR=ON "${launcher[@]}" >/dev/null
  cmake --build build/wasm -j"$jobs"
  # The embed's module: estimate commands only, compiled for size (docs/embed.md).
  emcmake cmake -S . -B build/wasm-estimate -DCMAKE_BUILD_TYPE=Release -DPALEO_WERROR=ON -DPALEO_ESTIMATE_ONLY=ON \
    "${launcher[@]}" >/dev/null
  cmake --build build/wasm-estimate -j"$jobs"
fi
