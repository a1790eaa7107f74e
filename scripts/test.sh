#!/usr/bin/env bash
# Runs every gate and every test layer, then prints one line:
#   N passed, M failed
# Layers: native cargo tests (core + CLI), wasm-bindgen-test in headless
# Chromium, the measurement harness's Python unit tests (CPU only),
# end-to-end (node:test + playwright-core on the release build).
# A layer that runs zero tests counts as a failure. A failing gate (fmt,
# clippy native, clippy wasm32) counts as one failed check.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
LOGS=target/test-logs
mkdir -p "$LOGS"

passed=0
failed=0

# The run's wall time goes to target/figures/ (scripts/figures.sh puts it in
# the README): "cold" when no native or wasm build was there yet.
TEST_START=$(date +%s)
test_kind=warm
[ -d target/debug ] && [ -d target/wasm32-unknown-unknown ] || test_kind=cold

# run NAME CMD...: runs a step with its output in $LOGS/NAME.log.
run() {
  local name=$1; shift
  printf '== %s\n' "$name"
  if "$@" >"$LOGS/$name.log" 2>&1; then
    return 0
  else
    tail -n 40 "$LOGS/$name.log"
    return 1
  fi
}

gate() {
  local name=$1; shift
  if run "$name" "$@"; then
    printf '   ok\n'
  else
    printf '   FAILED: %s\n' "$name"
    failed=$((failed + 1))
  fi
}

# count NAME PASS FAIL STATUS: adds a layer's counts; zero tests is a failure.
count() {
  local name=$1 p=$2 f=$3 status=$4
  printf '   %s: %d passed, %d failed\n' "$name" "$p" "$f"
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
    printf '   FAILED: %s ran no test\n' "$name"
    failed=$((failed + 1))
  elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    printf '   FAILED: %s exited with %d\n' "$name" "$status"
    failed=$((failed + 1))
  fi
}

# Sums cargo's "test result: ... N passed; M failed" lines.
cargo_counts() {
  awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed;?$/) p += $(i-1); if ($i ~ /^failed;?$/) f += $(i-1) } }
       END { printf "%d %d\n", p, f }' "$1"
}

gate fmt cargo fmt --all --check
gate clippy-native cargo clippy --workspace --all-targets -- -D warnings
gate clippy-wasm32 cargo clippy --target wasm32-unknown-unknown -p vramfit-app --all-targets -- -D warnings
# The release build's features (index.html): the split points as the
# splitter sees them, the catalogs not compiled in.
gate clippy-wasm32-split cargo clippy --target wasm32-unknown-unknown -p vramfit-app --all-targets --no-default-features --features split -- -D warnings

run native cargo test --workspace; status=$?
read -r p f < <(cargo_counts "$LOGS/native.log")
count native "$p" "$f" "$status"

run wasm cargo test --target wasm32-unknown-unknown -p vramfit-app --tests; status=$?
read -r p f < <(cargo_counts "$LOGS/wasm.log")
count browser "$p" "$f" "$status"

# The measurement harness's own tests (CPU only, standard library).
run python python3 -m unittest discover -s bench -p 'test_*.py' -v; status=$?
p=$(grep -cE ' \.\.\. ok$' "$LOGS/python.log"); f=$(grep -cE ' \.\.\. (FAIL|ERROR)$' "$LOGS/python.log")
count bench-python "$p" "$f" "$status"

if run build trunk build --release; then
  run e2e node --test --test-concurrency=1 --test-timeout=300000 tests/e2e/; status=$?
  p=$(awk '/^# pass / { print $3 }' "$LOGS/e2e.log"); f=$(awk '/^# fail / { print $3 }' "$LOGS/e2e.log")
  count end-to-end "${p:-0}" "${f:-0}" "$status"
else
  printf '   FAILED: release build\n'
  failed=$((failed + 1))
fi

# The failing tests' names, last, where a short tail of the output shows them.
if [ "$failed" -ne 0 ]; then
  printf 'failing:\n'
  grep -hE '^test .* FAILED$|^---- .* stdout ----$' "$LOGS/native.log" "$LOGS/wasm.log" 2>/dev/null | head -n 20
  # node:test's TAP: each top-level failure with the first line of its error.
  awk '/^not ok / { print; want = 1; next }
       want && /^  error: / { if ($0 ~ /\|-?$/) getline; sub(/^ +/, "   "); print; want = 0 }' "$LOGS/e2e.log" 2>/dev/null | head -n 20
fi
mkdir -p target/figures
printf '%s %s\n' "$(( $(date +%s) - TEST_START ))" "$(date -u +%Y-%m-%d)" >"target/figures/test-$test_kind.txt"
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
