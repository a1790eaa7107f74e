//! Shared by the reader tests: a fixture config, a published figure, the
//! comparison.

#![allow(dead_code)]

use vramfit_core::model::{parse_config, Family, ModelSpec, Reading};

/// A published count: exact to the parameter, or rounded as a model card
/// writes it (`value` in units of `unit`).
#[derive(Clone, Copy, Debug)]
pub enum Published {
    Exact(u64),
    Rounded { value: u64, unit: u64 },
}

impl Published {
    pub fn matches(self, n: u64) -> bool {
        match self {
            Published::Exact(v) => n == v,
            Published::Rounded { value, unit } => (n + unit / 2) / unit == value,
        }
    }
}

pub struct Expect {
    pub family: Family,
    pub total: Published,
    pub active: Option<Published>,
}

pub const B: u64 = 1_000_000_000;

pub fn fixture(file: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/configs/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn read(file: &str) -> ModelSpec {
    parse_config(&fixture(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Reads `file` and compares with `expect`; returns a line per mismatch.
pub fn check(file: &str, expect: &Expect) -> Vec<String> {
    let s = read(file);
    let mut wrong = Vec::new();
    if s.reading != Reading::Exact || s.family != expect.family {
        wrong.push(format!("{file}: read as {:?} {:?}", s.reading, s.family));
    }
    if !expect.total.matches(s.params_total) {
        wrong.push(format!(
            "{file}: total {} (published {:?})",
            s.params_total, expect.total
        ));
    }
    let active = expect.active.unwrap_or(expect.total);
    if !active.matches(s.params_active) {
        wrong.push(format!(
            "{file}: active {} (published {active:?})",
            s.params_active
        ));
    }
    if s.params.total() != s.params_total || s.attention.len() as u64 != s.num_layers {
        wrong.push(format!("{file}: groups or layers inconsistent"));
    }
    wrong
}

/// Fixtures read by `tests/current_readers.rs` (the other reader tests
/// check that every fixture is read by some test).
pub const CURRENT: &[&str] = &[
    "deepseek-ai__DeepSeek-V4-Flash.json",
    "deepseek-ai__DeepSeek-V4-Pro.json",
    "google__gemma-4-26B-A4B.json",
    "nvidia__Gemma-4-31B-IT-NVFP4.json",
    "nvidia__Gemma-4-26B-A4B-NVFP4.json",
    "XiaomiMiMo__MiMo-7B-Base.json",
    "XiaomiMiMo__MiMo-V2-Flash.json",
    "zai-org__GLM-5.json",
    "zai-org__GLM-5.2.json",
    "nvidia__Qwen3.6-35B-A3B-NVFP4.json",
    "Qwen__Qwen3.5-397B-A17B.json",
    "moonshotai__Kimi-K3.json",
    "stepfun-ai__Step-3.7-Flash.json",
    "stepfun-ai__Step-3.7-Flash.text.reconstructed.json",
    "MiniMaxAI__MiniMax-M3.json",
    "moonshotai__Kimi-Linear-48B-A3B-Instruct.json",
    "MiniMaxAI__MiniMax-M1.json",
];
