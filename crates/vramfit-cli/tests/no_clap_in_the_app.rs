//! The web app shows the command line (`vramfit_cli::line`) and must not
//! compile clap into its wasm: the library has no parser in it, and the
//! app depends on this crate without the `cli` feature that brings clap.

fn read(path: &str) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::read_to_string(format!("{root}/{path}")).expect("readable")
}

#[test]
fn the_library_has_no_parser_and_the_app_leaves_it_out() {
    for file in ["src/lib.rs", "src/line.rs"] {
        let text = read(file);
        assert!(
            !text.contains("clap::") && !text.contains("use clap"),
            "{file} uses clap"
        );
        assert!(!text.contains("ureq"), "{file} uses the HTTP client");
    }
    let manifest = read("Cargo.toml");
    // The binary also looks models and GPUs up in the checked-in catalogs,
    // and reads GGUF headers by HTTP range requests (ureq).
    assert!(manifest
        .contains(r#"cli = ["dep:clap", "dep:serde_json", "dep:ureq", "vramfit-core/embedded"]"#));
    assert!(manifest.contains("optional = true"));
    let app = read("../../Cargo.toml");
    let dependency = app
        .lines()
        .find(|l| l.starts_with("vramfit-cli ="))
        .expect("the app depends on vramfit-cli");
    assert!(
        dependency.contains("default-features = false"),
        "{dependency}"
    );
}
