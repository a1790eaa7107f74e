//! Where llama.cpp puts a model over several GPUs and the host, as a
//! person enters it: the GPUs after the first (a 3090 and a 3060 are one
//! machine), `--tensor-split`, `--split-mode`, `--main-gpu`,
//! `-ot`/`--override-tensor`, `--cpu-moe`, `--no-mmap`, `--mlock`. The
//! scenario keeps them as entered (GPU names, patterns); the `llamacpp`
//! method reads them (`methods::llamacpp::devices`) and refuses what
//! llama.cpp refuses.

use serde::{Deserialize, Serialize};

/// `--split-mode` (`-sm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SplitMode {
    /// Everything on `--main-gpu`.
    None,
    /// Whole layers per GPU (llama.cpp's default).
    #[default]
    Layer,
    /// Each matrix split by rows over the GPUs.
    Row,
}

impl SplitMode {
    /// `none`, `layer` or `row`.
    pub fn parse(text: &str) -> Option<SplitMode> {
        match text.trim() {
            "none" => Some(SplitMode::None),
            "layer" => Some(SplitMode::Layer),
            "row" => Some(SplitMode::Row),
            _ => None,
        }
    }

    /// The option's value.
    pub const fn id(self) -> &'static str {
        match self {
            SplitMode::None => "none",
            SplitMode::Layer => "layer",
            SplitMode::Row => "row",
        }
    }

    fn is_default(&self) -> bool {
        *self == SplitMode::Layer
    }
}

/// The placement options as entered (the `engine` object's keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Placement {
    /// The GPUs after the scenario's own GPU, by catalog name, in
    /// llama.cpp's order (`CUDA1`, `CUDA2`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_gpus: Vec<String>,
    /// `--tensor-split`: each GPU's share (empty: their memory).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tensor_split: Vec<f64>,
    #[serde(skip_serializing_if = "SplitMode::is_default")]
    pub split_mode: SplitMode,
    /// `--main-gpu`.
    #[serde(skip_serializing_if = "is_zero")]
    pub main_gpu: u64,
    /// `-ot` values (`PATTERN=BUFFER[,...]`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub override_tensor: Vec<String>,
    /// `--cpu-moe`: every expert on the host.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cpu_moe: bool,
    /// `--no-mmap`: host weights read into memory, not mapped.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_mmap: bool,
    /// `--mlock`: mapped host weights locked in memory.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mlock: bool,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Placement {
    /// Whether anything differs from one GPU with llama.cpp's defaults.
    pub fn is_default(&self) -> bool {
        *self == Placement::default()
    }
}
