//! The real `vramfit` binary, run as a person runs it, for the CLI's
//! integration tests (each test file uses a part of it).
#![allow(dead_code)]

use std::process::{Command, Output};

/// `vramfit ARGS…`, its exit status and both streams.
pub fn vramfit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs")
}

/// The `vramfit/1` document of a run that must succeed; `--json` is added
/// before a `--` tail, so that it stays vramfit's and not the pasted
/// engine command's.
pub fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    let at = all.iter().position(|a| *a == "--").unwrap_or(all.len());
    all.insert(at, "--json");
    let out = vramfit(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The text a run prints on standard output.
pub fn text(args: &[&str]) -> String {
    String::from_utf8(vramfit(args).stdout).unwrap()
}

/// The one-line error of a run refused with exit code 2.
pub fn error(args: &[&str]) -> String {
    let out = vramfit(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}
