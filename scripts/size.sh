#!/usr/bin/env bash
# What a visitor downloads on the first load, per response: raw, gzip -9
# and brotli (quality 11), as a static host serves precompressed files.
#   scripts/size.sh            release build (trunk build --release), then sizes of dist/
#   scripts/size.sh --no-build sizes of the dist/ already built
#   scripts/size.sh --sections also the wasm's sections (code, data, ...)
#   scripts/size.sh --attribute also where the code and data go, by kind of
#                              code, by module and by embedded file / text
#                              (a second release build with v0 symbol names
#                              in target/size-names; scripts/size_attribute.py)
# See docs/size.md for where the bytes go and what each build setting does.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

build=1
sections=0
attribute=0
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --sections) sections=1 ;;
    --attribute) attribute=1 ;;
    *) echo "usage: scripts/size.sh [--no-build] [--sections] [--attribute]" >&2; exit 2 ;;
  esac
done

if [ "$build" -eq 1 ]; then
  trunk build --release >target/size-build.log 2>&1 || { tail -n 40 target/size-build.log; exit 1; }
fi
node scripts/size.mjs dist
if [ "$sections" -eq 1 ]; then
  node scripts/size.mjs --sections dist
fi
if [ "$attribute" -eq 1 ]; then
  # The same release build, with v0 symbol mangling (names carry generic
  # arguments). The --config list is added to .cargo/config.toml's rustflags
  # (erase_components), not put in their place as RUSTFLAGS would.
  names=target/size-names
  cargo build --release --target wasm32-unknown-unknown -p vramfit-app --bin vramfit-app \
    --config 'target.wasm32-unknown-unknown.rustflags=["-Csymbol-mangling-version=v0"]' \
    --target-dir "$names" >target/size-names.log 2>&1 || { tail -n 40 target/size-names.log; exit 1; }
  wasm-bindgen --target=web --no-typescript --out-dir "$names/bindgen" --out-name vramfit-app \
    "$names/wasm32-unknown-unknown/release/vramfit-app.wasm"
  code_gzip=$(node scripts/size.mjs --sections --json dist |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s).rows.find(r=>r.name==="code");console.log((r.gzip/1024).toFixed(1))})')
  python3 scripts/size_attribute.py "$names/bindgen/vramfit-app_bg.wasm" --final-code-gzip "$code_gzip"
fi
