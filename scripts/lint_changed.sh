#!/usr/bin/env bash
# Formatting and clang-tidy on the C++ files a change touches: clang-format judges only the
# changed lines (the tree is not reformatted in one sweep), clang-tidy the changed .cpp files of
# core/ and cli/ (wasm/ needs Emscripten's headers) with the checks of .clang-tidy.
#   scripts/lint_changed.sh [BASE_REF]
# The change: since BASE_REF; without one, since the merge base with main (origin/main, else
# main) when this branch has commits of its own, else the last commit alone (CI on main). A
# clone with a single commit has nothing to compare with and passes with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-}"
if [[ -z "$base" ]]; then
  for ref in origin/main main; do
    if git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
      base="$(git merge-base "$ref" HEAD || true)"
      break
    fi
  done
  # On main itself (or with no main at all): the last commit.
  if [[ -z "$base" || "$base" == "$(git rev-parse HEAD)" ]]; then
    if ! base="$(git rev-parse -q --verify 'HEAD~1^{commit}')"; then
      echo "lint_changed: a single commit of history, nothing to compare it with; not checked"
      exit 0
    fi
  fi
fi
mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.h' '*.cpp' | grep -E '^(core|cli|wasm|tests|fuzz|bench)/' || true)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "lint_changed: no C++ file changed since $base"
  exit 0
fi
echo "lint_changed: ${#files[@]} C++ files changed since $(git rev-parse --short "$base")"
status=0
format_diff="$(git clang-format --quiet --diff "$base" -- "${files[@]}" || true)"
if [[ -n "$format_diff" && "$format_diff" != "no modified files to format" && "$format_diff" != *"did not modify any files"* ]]; then
  echo "$format_diff"
  echo "lint_changed: changed lines differ from .clang-format (git clang-format $base fixes them)"
  status=1
fi
# clang-tidy compiles each file as the build does (its compile_commands.json, with the macros
# CMake defines); without a build, with the plain flags.
compile_db=build/native/compile_commands.json
for f in "${files[@]}"; do
  [[ "$f" == *.cpp ]] || continue
  [[ "$f" == tests/* || "$f" == fuzz/* || "$f" == bench/* ]] && continue  # need Catch2, libFuzzer, benchmark flags
  [[ "$f" == wasm/* ]] && continue  # the binding compiles only with Emscripten's headers (em++)
  if [[ -f "$compile_db" ]] && grep -q "\"$PWD/$f\"" "$compile_db"; then
    clang-tidy --quiet -p "$(dirname "$compile_db")" "$f" 2>/dev/null || { echo "lint_changed: clang-tidy: $f"; status=1; }
  else
    clang-tidy --quiet "$f" -- -std=c++17 -I. 2>/dev/null || { echo "lint_changed: clang-tidy: $f"; status=1; }
  fi
done
[[ $status -eq 0 ]] && echo "lint_changed: clean"
exit $status
