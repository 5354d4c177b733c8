#!/usr/bin/env bash
# Installs what Paleo needs on Debian 12: compilers, CMake, the two C++ libraries, Emscripten,
# Node and Chromium (for the browser tests), clang and its sanitizer and libFuzzer runtime (for the
# sanitizer job), clang-format and clang-tidy (for the lint of changed files, scripts/lint_changed.sh),
# PyTorch and torchvision (for the test of tools/paleo_from_torch.py). Does nothing when everything
# is already there.
set -euo pipefail

packages=(build-essential cmake g++ nlohmann-json3-dev catch2 libbenchmark-dev emscripten chromium python3
          clang libclang-rt-dev clang-format clang-tidy python3-torch python3-torchvision)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node and npm: any installation will do (NodeSource's nodejs ships npm and conflicts with
# Debian's npm package).
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "paleo: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
