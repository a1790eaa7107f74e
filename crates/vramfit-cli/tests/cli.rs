//! The `vramfit` binary as a user runs it.

use std::process::Command;

fn vramfit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs")
}

#[test]
fn json_document_for_seed_004_example() {
    let out = vramfit(&["estimate", "--method", "quick", "--params", "8", "--json"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema"], "vramfit/1");
    assert_eq!(doc["estimate"]["total_bytes"], 18_781_116_006u64);
    assert_eq!(doc["model"]["kv_bytes_per_token"], 131_072);
}

#[test]
fn seventy_b_four_bit_fits_48_gb() {
    let out = vramfit(&[
        "estimate",
        "--params",
        "70",
        "--weight-bits",
        "4",
        "--capacity-gb",
        "48",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("total              39.68 GB"), "{text}");
    assert!(text.contains("fits 48.00 GB"), "{text}");
}

#[test]
fn errors_exit_non_zero_with_one_line() {
    let out = vramfit(&["estimate", "--batch", "-4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err, "vramfit: --batch -4: must be between 1 and 1000000\n");
    assert!(out.stdout.is_empty());
}
