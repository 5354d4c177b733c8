#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds the web estimator and serves it on localhost.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-8080}"
scripts/setup-debian.sh
scripts/build.sh all
if [ -f package.json ]; then
  npm ci --no-audit --no-fund
  npm run build
  echo "paleo: serving the estimator at http://localhost:${port}/ (Ctrl-C to stop)"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory web/dist
fi
build/native/paleo simulate vgg16 --device_name=TITAN_X --use_only_gemm
