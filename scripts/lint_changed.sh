#!/usr/bin/env bash
# Formatting and clang-tidy on the C++ files changed since a base ref (default: origin/main, else
# main): clang-format judges only the changed lines (the tree is not reformatted in one sweep),
# clang-tidy the changed .cpp files with the checks of .clang-tidy.
#   scripts/lint_changed.sh [BASE_REF]
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-}"
if [[ -z "$base" ]]; then
  if git rev-parse -q --verify origin/main >/dev/null; then base=origin/main; else base=main; fi
fi
base="$(git merge-base "$base" HEAD)"  # only this branch's changes, not the base's own since
mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.h' '*.cpp' | grep -E '^(core|cli|wasm|tests|fuzz|bench)/' || true)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "lint_changed: no C++ file changed since $base"
  exit 0
fi
status=0
format_diff="$(git clang-format --quiet --diff "$base" -- "${files[@]}" || true)"
if [[ -n "$format_diff" && "$format_diff" != "no modified files to format" ]]; then
  echo "$format_diff"
  echo "lint_changed: changed lines differ from .clang-format (git clang-format $base fixes them)"
  status=1
fi
for f in "${files[@]}"; do
  [[ "$f" == *.cpp ]] || continue
  [[ "$f" == tests/* || "$f" == fuzz/* || "$f" == bench/* ]] && continue  # need Catch2, libFuzzer, benchmark flags
  clang-tidy --quiet "$f" -- -std=c++17 -I. 2>/dev/null || status=1
done
exit $status
