#!/usr/bin/env bash
# Installs exactly what is missing, from the package registries only, and
# skips everything already present (a second run takes seconds).
#   - the wasm32-unknown-unknown target       (rustup)
#   - trunk, pinned                           (crates.io)
#   - wasm-bindgen-cli = Cargo.lock's wasm-bindgen (crates.io)
#   - wasm_split_cli, pinned                  (crates.io wasm_split_cli_support: splits the wasm, scripts/wasm-split.mjs)
#   - chromium + chromium-driver              (Debian)
#   - npm packages from package-lock.json     (npm: playwright-core, binaryen's wasm-opt)
#   - the crates in Cargo.lock                (crates.io; Trunk builds offline)
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# The splitter must understand the split points of Cargo.lock's
# wasm_split_helpers (0.2.3: the CLI 0.2.2 reads its version marker).
WASM_SPLIT_CLI_VERSION=0.2.2

say() { printf 'setup: %s\n' "$*"; }

# The run's wall time goes to target/figures/ (scripts/figures.sh puts it in
# the README): "fresh" when a tool or the browser had to be installed,
# "present" when everything was there.
SETUP_START=$EPOCHREALTIME
installed=0
installing() { installed=1; say "$@"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target: present"
else
  installing "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: present"
else
  installing "installing trunk $TRUNK_VERSION (several minutes)"
  cargo install trunk --version "=$TRUNK_VERSION" --locked
fi

WB_VERSION=$(wasm_bindgen_version)
if [ -z "$WB_VERSION" ]; then
  say "Cargo.lock names no wasm-bindgen version"; exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $WB_VERSION" ] &&
   command -v wasm-bindgen-test-runner >/dev/null; then
  say "wasm-bindgen-cli $WB_VERSION: present"
else
  installing "installing wasm-bindgen-cli $WB_VERSION"
  # Its lockfile pins a crate the registry no longer serves: fall back.
  cargo install wasm-bindgen-cli --version "=$WB_VERSION" --locked ||
    cargo install wasm-bindgen-cli --version "=$WB_VERSION"
fi

if cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_CLI_VERSION:" &&
   command -v wasm_split_cli >/dev/null; then
  say "wasm_split_cli $WASM_SPLIT_CLI_VERSION: present"
else
  installing "installing wasm_split_cli $WASM_SPLIT_CLI_VERSION (two minutes)"
  cargo install wasm_split_cli_support --version "=$WASM_SPLIT_CLI_VERSION" --locked --features build-binary
fi

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  say "chromium + chromedriver: present"
else
  installing "installing Debian chromium + chromium-driver"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# node_modules/.package-lock.json is written by npm after a complete install.
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ] &&
   [ -x node_modules/.bin/wasm-opt ]; then
  say "npm packages: present"
else
  installing "installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund
fi

# Trunk builds offline (Trunk.toml), so the crates must be in cargo's cache.
if cargo fetch --locked --quiet 2>/dev/null; then
  say "crates: fetched"
else
  say "fetching crates"
  cargo fetch
fi

kind=present
[ "$installed" -eq 1 ] && kind=fresh
mkdir -p target/figures
printf "%s %s\n" "$(awk -v a="$SETUP_START" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')" "$(date -u +%Y-%m-%d)" >"target/figures/setup-$kind.txt"
say "done"
