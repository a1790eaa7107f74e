#!/usr/bin/env bash
# What a visitor downloads, per response: raw, gzip -9 and brotli (quality
# 11), as a static host serves precompressed files; the first load (up to
# the first result) apart from what comes after it (scripts/size.mjs).
#   scripts/size.sh            release build (trunk build --release), then sizes of dist/
#   scripts/size.sh --no-build sizes of the dist/ already built
#   scripts/size.sh --sections also each wasm module's sections (code, data, ...)
#   scripts/size.sh --readme   also rewrites README.md's size table
#   scripts/size.sh --attribute also where the main module's code and data go,
#                              by kind of code, by module and by embedded file /
#                              text (a second release build with v0 symbol names
#                              in target/size-names, split like the release;
#                              scripts/size_attribute.py)
# See docs/size.md for where the bytes go and what each build setting does.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

build=1
sections=0
attribute=0
readme=0
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --sections) sections=1 ;;
    --attribute) attribute=1 ;;
    --readme) readme=1 ;;
    *) echo "usage: scripts/size.sh [--no-build] [--sections] [--readme] [--attribute]" >&2; exit 2 ;;
  esac
done

if [ "$build" -eq 1 ]; then
  trunk build --release >target/size-build.log 2>&1 || { tail -n 40 target/size-build.log; exit 1; }
fi
node scripts/size.mjs dist
if [ "$sections" -eq 1 ]; then
  node scripts/size.mjs --sections dist
fi
if [ "$readme" -eq 1 ]; then
  node scripts/size.mjs dist --readme README.md
fi
if [ "$attribute" -eq 1 ]; then
  # The same release build (no default features, feature `split`), with v0
  # symbol mangling (names carry generic arguments), split as the release
  # build splits it; the attribution reads the main module. The --config
  # list is added to .cargo/config.toml's rustflags (erase_components), not
  # put in their place as RUSTFLAGS would.
  names=target/size-names
  cargo build --release --target wasm32-unknown-unknown -p vramfit-app --bin vramfit-app \
    --no-default-features --features split \
    --config 'target.wasm32-unknown-unknown.rustflags=["-Csymbol-mangling-version=v0"]' \
    --target-dir "$names" >target/size-names.log 2>&1 || { tail -n 40 target/size-names.log; exit 1; }
  node scripts/wasm-split.mjs --names "$names/wasm32-unknown-unknown/release/vramfit-app.wasm" "$names/split"
  code_gzip=$(node -e '
    const { readdirSync, readFileSync } = require("fs");
    const { gzipSync } = require("zlib");
    const name = readdirSync("dist").find((n) => n.endsWith("_bg.wasm"));
    const b = readFileSync("dist/" + name);
    let at = 8;
    const leb = () => { let v = 0, s = 0; for (;;) { const x = b[at++]; v += (x & 127) * 2 ** s; s += 7; if (x < 128) return v; } };
    while (at < b.length) { const id = b[at++]; const size = leb(); if (id === 10) { console.log((gzipSync(b.subarray(at, at + size), { level: 9 }).length / 1024).toFixed(1)); break; } at += size; }
  ')
  python3 scripts/size_attribute.py "$names/split/bindgen/vramfit-app_bg.wasm" --final-code-gzip "$code_gzip"
fi
