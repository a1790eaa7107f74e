#!/usr/bin/env bash
# The figures of README.md's "Figures" table, each from a command:
#   - `make setup`'s and `make test`'s wall times, as the last run of each
#     recorded them in target/figures/ (setup: fresh = something had to be
#     installed, present = nothing; tests: cold = no build was there yet,
#     warm = a second run);
#   - a clean release build's time (trunk build --release after removing the
#     wasm32 release artefacts and dist/), and what it wrote (.wasm modules
#     and JS, raw and gzip -9);
#   - the page timings the last end-to-end run printed (tests/e2e/perf.test.mjs,
#     in target/test-logs/e2e.log).
#
#   scripts/figures.sh            measure and print the table
#   scripts/figures.sh --readme   also rewrite it in README.md
#   scripts/figures.sh --no-build print from the records only
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

readme=0
build=1
for arg in "$@"; do
  case "$arg" in
    --readme) readme=1 ;;
    --no-build) build=0 ;;
    *) echo "usage: scripts/figures.sh [--readme] [--no-build]" >&2; exit 2 ;;
  esac
done

mkdir -p target/figures
if [ "$build" -eq 1 ]; then
  rm -rf dist target/wasm32-unknown-unknown/release
  start=$(date +%s)
  trunk build --release >/dev/null 2>&1
  printf '%s %s\n' "$(( $(date +%s) - start ))" "$(date -u +%Y-%m-%d)" >target/figures/build-clean.txt
  wasm_raw=0; wasm_gz=0; wasm_n=0
  for f in dist/*.wasm; do
    wasm_raw=$((wasm_raw + $(stat -c %s "$f")))
    wasm_gz=$((wasm_gz + $(gzip -9 -c "$f" | wc -c)))
    wasm_n=$((wasm_n + 1))
  done
  js_raw=0; js_gz=0
  for f in dist/*.js; do
    js_raw=$((js_raw + $(stat -c %s "$f")))
    js_gz=$((js_gz + $(gzip -9 -c "$f" | wc -c)))
  done
  printf '%s %s %s %s %s\n' "$wasm_n" "$wasm_raw" "$wasm_gz" "$js_raw" "$js_gz" >target/figures/dist.txt
fi

if [ "$readme" -eq 1 ]; then
  python3 scripts/figures.py target/figures target/test-logs/e2e.log README.md
else
  python3 scripts/figures.py target/figures target/test-logs/e2e.log
fi
