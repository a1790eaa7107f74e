#!/usr/bin/env bash
# Reproduces the build figures quoted in the README:
#   - clean release build time (trunk build --release after removing the
#     wasm32 release artefacts and dist/),
#   - release .wasm and JS glue sizes, raw and gzip -9.
# The clean setup time is `time scripts/setup.sh` on a machine without the
# tools (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

rm -rf dist target/wasm32-unknown-unknown/release
start=$(date +%s)
trunk build --release >/dev/null 2>&1
end=$(date +%s)
echo "clean release build: $((end - start)) s"

for f in dist/*.wasm dist/*.js; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  printf '%-4s %9d B raw %9d B gzip -9   (%s)\n' "${f##*.}" "$raw" "$gz" "$(basename "$f")"
done
