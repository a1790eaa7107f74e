# vramfit — the two commands a person needs:
#   make serve   install what is missing, build, serve http://127.0.0.1:8080
#   make test    install what is missing, run every gate and test layer
# Both are idempotent; a second run skips every install.

SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true

.PHONY: setup serve build test cli fmt bench bench-browser figures measure allocator-table llamacpp-table vllm-table speed-table speed-fit size

setup:
	@scripts/setup.sh

serve: setup
	trunk serve --release

build: setup
	trunk build --release

test: setup
	@scripts/test.sh

# Release build, then what a visitor downloads per response (raw, gzip -9,
# brotli 11), the wasm modules' sections, and README.md's size table
# rewritten; docs/size.md says where the bytes go.
size: setup
	@scripts/size.sh --sections --readme

cli:
	cargo build --release -p vramfit-cli
	@echo "built target/release/vramfit"

fmt:
	cargo fmt --all

figures: setup
	@scripts/figures.sh

# Native benchmark of the core (one scenario through every method; the fit
# table of every catalog model x GPU x 4 formats). Not part of `make test`.
bench:
	cargo run --release -q -p vramfit-core --example bench

# The same core in headless Chromium, optimized: prints the fit table's time.
bench-browser: setup
	cargo test --release --target wasm32-unknown-unknown -p vramfit-app --test core_in_browser -- --nocapture 2>&1 | grep -E "fit table|test result"

# The allocator's validation table (README): predicted vs measured.
allocator-table:
	cargo run -q -p vramfit-core --example allocator_table

# The llamacpp method's validation tables (README): GGUF sizes llama.cpp
# printed vs predicted, and every load log (size, KV, compute, host buffers).
llamacpp-table:
	cargo run -q -p vramfit-core --example llamacpp_table

# The vllm method's validation tables (README): the vLLM 0.19 H100 logs and the other releases and GPUs
# (weights, peak, non-torch, KV memory and tokens) against the prediction.
vllm-table:
	cargo run -q -p vramfit-core --example vllm_table

# The speed model against its calibration rows (README, docs/speed.md):
# predicted vs measured decode / prefill / throughput for every row of
# crates/vramfit-core/data/speed/calibration.csv, with the error.
speed-table:
	cargo run -q --release -p vramfit-core --example speed_table

# Refit the speed model's rates on the calibration rows and store them
# (data/speed/rates.json); docs/speed.md records the fit.
speed-fit:
	cargo run -q --release -p vramfit-core --example speed_fit -- --write

# On a machine with a CUDA GPU and torch, transformers, peft installed:
# measure the grid of bench/grid.py and append the rows that the
# validation test reads. Refuses to run without a GPU.
measure:
	python3 bench/measure.py --grid --configs-dir crates/vramfit-core/data/configs \
		--record crates/vramfit-core/data/measurements/measured.jsonl
