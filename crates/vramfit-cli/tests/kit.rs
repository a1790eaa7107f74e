//! `vramfit kit` and `vramfit check`, as a user runs them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn vramfit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs")
}

/// A file in the test's own temporary folder.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vramfit-kit-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_reference_kit_checks_clean() {
    let kit = vramfit(&["kit"]);
    assert!(kit.status.success());
    let text = String::from_utf8(kit.stdout).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["schema"], "vramfit-kit/1");
    let count = doc["examples"].as_array().unwrap().len();
    let path = temp_file("reference.json", &text);
    let out = vramfit(&["check", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "ok: {count} examples reproduced by vramfit {}\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn a_tampered_kit_exits_non_zero_with_one_line_per_failing_example() {
    let text = String::from_utf8(vramfit(&["kit"]).stdout).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["examples"][0]["expected"]["total_bytes"] = 18_000_000_000u64.into();
    doc["examples"][1]["expected"]["components"]["kv_cache"] = 5.into();
    let path = temp_file("tampered.json", &doc.to_string());
    let out = vramfit(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("vramfit: 2 of "), "{err}");
    assert_eq!(
        lines[1],
        "FAIL seed004-8b-fp16-8k-24gb: total_bytes expected 18000000000, got 18781116006"
    );
    assert!(
        lines[2].starts_with("FAIL seed004-8b-fp16-8k-24gb@lesson: kv_cache expected 5, got "),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_a_kit_is_one_clear_error() {
    let path = temp_file("not-a-kit.json", "{\"schema\": \"vramfit/1\"}");
    let out = vramfit(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("not a reference kit"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let out = vramfit(&["check"]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "vramfit: usage: vramfit check KIT.json\n"
    );
}
