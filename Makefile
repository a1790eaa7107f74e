# vramfit — the two commands a person needs:
#   make serve   install what is missing, build, serve http://127.0.0.1:8080
#   make test    install what is missing, run every gate and test layer
# Both are idempotent; a second run skips every install.

SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true

.PHONY: setup serve build test cli fmt bench figures

setup:
	@scripts/setup.sh

serve: setup
	trunk serve --release

build: setup
	trunk build --release

test: setup
	@scripts/test.sh

cli:
	cargo build --release -p vramfit-cli
	@echo "built target/release/vramfit"

fmt:
	cargo fmt --all

figures: setup
	@scripts/figures.sh
