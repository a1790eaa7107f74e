//! With the feature `split` (the Trunk build, see index.html), the wasm
//! linker keeps its relocations (`--emit-relocs`): the post-build splitter
//! (`wasm_split_cli`, scripts/wasm-split.mjs) reads them to move functions
//! and data into chunks. Nothing else changes, and no other build pays for
//! the larger linker output.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if split && wasm {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
