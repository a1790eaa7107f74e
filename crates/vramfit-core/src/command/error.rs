//! Why an engine command cannot be read as a scenario: each case names
//! the word at fault.

use super::Engine;
use crate::scenario::{EngineError, InputError};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::fmt;

/// Why an option the engine has is not modelled: it changes memory in a
/// way the estimate does not follow. The page words each reason in its
/// language by this value; [`fmt::Display`] is the CLI's English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unmodelled {
    /// vLLM `--cpu-offload-gb`.
    HostOffload,
    /// vLLM `--swap-space`.
    SwapSpace,
    /// vLLM `--data-parallel-size`, `-dp`.
    DataParallel,
    /// vLLM `--speculative-config`.
    DraftModel,
    /// vLLM `--enable-lora`, `--max-lora-rank`.
    ServingLora,
    /// llama.cpp `-ts`, `-sm`.
    GpuSplit,
    /// llama.cpp `-ot`.
    TensorOverrides,
    /// llama.cpp `-nkvo`.
    HostKvCache,
}

impl Unmodelled {
    /// The stable id (the JSON's `id`).
    pub const fn id(self) -> &'static str {
        match self {
            Unmodelled::HostOffload => "host_offload",
            Unmodelled::SwapSpace => "swap_space",
            Unmodelled::DataParallel => "data_parallel",
            Unmodelled::DraftModel => "draft_model",
            Unmodelled::ServingLora => "serving_lora",
            Unmodelled::GpuSplit => "gpu_split",
            Unmodelled::TensorOverrides => "tensor_overrides",
            Unmodelled::HostKvCache => "host_kv_cache",
        }
    }
}

impl fmt::Display for Unmodelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unmodelled::HostOffload => "weights offloaded to the host are not modelled",
            Unmodelled::SwapSpace => "the host swap space is not modelled",
            Unmodelled::DataParallel => "data-parallel copies are not modelled; give --gpus",
            Unmodelled::DraftModel => "a draft model is not modelled",
            Unmodelled::ServingLora => "LoRA adapters at serving time are not modelled",
            Unmodelled::GpuSplit => "a split over several GPUs is not modelled",
            Unmodelled::TensorOverrides => "tensor overrides are not modelled; use --n-cpu-moe",
            Unmodelled::HostKvCache => "a KV cache kept on the host is not modelled",
        })
    }
}

/// What an option's value should have been. The lists ([`Expected::values`])
/// are the engine's own spellings, the same in every language; the page
/// words the rest by this value; [`fmt::Display`] is the CLI's English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// vLLM `--max-model-len`, `--max-num-batched-tokens` (`16k` too),
    /// llama.cpp `-c`.
    TokenCount,
    /// `-tp`, `-pp`.
    GpuCount,
    /// llama.cpp `-b`.
    BatchTokens,
    /// llama.cpp `-ctk`, `-ctv`.
    CacheType,
    /// vLLM `--kv-cache-dtype`.
    KvCacheDtype,
    /// vLLM `--quantization`.
    Quantization,
    /// vLLM `--dtype`.
    Dtype,
    /// llama.cpp `-fa`.
    FlashAttn,
}

impl Expected {
    /// The stable id (the JSON's `id`).
    pub const fn id(self) -> &'static str {
        match self {
            Expected::TokenCount => "token_count",
            Expected::GpuCount => "gpu_count",
            Expected::BatchTokens => "batch_tokens",
            Expected::CacheType => "cache_type",
            Expected::KvCacheDtype => "kv_cache_dtype",
            Expected::Quantization => "quantization",
            Expected::Dtype => "dtype",
            Expected::FlashAttn => "flash_attn",
        }
    }

    /// The values the option takes, as the engine spells them; empty for
    /// a number.
    pub const fn values(self) -> &'static [&'static str] {
        match self {
            Expected::TokenCount | Expected::GpuCount | Expected::BatchTokens => &[],
            Expected::CacheType => &[
                "f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1",
            ],
            Expected::KvCacheDtype => &["auto", "fp8", "fp8_e4m3", "fp8_e5m2", "bfloat16"],
            Expected::Quantization => &[
                "fp8",
                "awq",
                "gptq",
                "mxfp4",
                "bitsandbytes",
                "compressed-tensors",
                "modelopt",
                "modelopt_fp4",
            ],
            Expected::Dtype => &["auto", "bfloat16", "float16", "half", "float32", "float"],
            Expected::FlashAttn => &["on", "off", "auto"],
        }
    }

    /// [`Expected::values`] as a list whose last two are joined by `or`
    /// (`" or "`: `auto, fp8 or bfloat16`), for a language's word.
    pub fn one_of(self, or: &str) -> String {
        let values = self.values();
        let mut out = String::new();
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push_str(if i + 1 == values.len() { or } else { ", " });
            }
            out.push_str(v);
        }
        out
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::TokenCount => f.write_str("a token count"),
            Expected::GpuCount => f.write_str("a whole number of GPUs, at least 1"),
            Expected::BatchTokens => f.write_str("a whole number of tokens, at least 1"),
            Expected::CacheType
            | Expected::KvCacheDtype
            | Expected::Quantization
            | Expected::Dtype
            | Expected::FlashAttn => f.write_str(&self.one_of(" or ")),
        }
    }
}

/// `{"id": …, "text": …}`: the stable id and the English words.
fn id_and_text<S: Serializer>(
    serializer: S,
    name: &'static str,
    id: &'static str,
    text: String,
) -> Result<S::Ok, S::Error> {
    let mut s = serializer.serialize_struct(name, 2)?;
    s.serialize_field("id", id)?;
    s.serialize_field("text", &text)?;
    s.end()
}

impl Serialize for Unmodelled {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        id_and_text(serializer, "Unmodelled", self.id(), self.to_string())
    }
}

impl Serialize for Expected {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        id_and_text(serializer, "Expected", self.id(), self.to_string())
    }
}

/// One reason an engine command is not a scenario.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CommandError {
    /// Nothing was pasted.
    Empty,
    /// A quote opened and never closed.
    UnclosedQuote,
    /// The program is not an engine this tool models.
    NotAnEngine { program: String },
    /// `vllm` without `serve`.
    VllmWithoutServe,
    /// An option the engine has and the tool does not know.
    UnknownOption { engine: Engine, option: String },
    /// An option the engine has that changes memory in a way the tool
    /// does not model: it is named rather than ignored.
    NotModelled {
        engine: Engine,
        option: String,
        why: Unmodelled,
    },
    /// An option given without its value.
    MissingValue { option: String },
    /// A value the option does not take.
    BadValue {
        option: String,
        value: String,
        expected: Expected,
    },
    /// A value out of the scenario's range for the option.
    Field { option: String, error: InputError },
    /// A value out of the engine knob's range.
    Knob { option: String, error: EngineError },
    /// A word left over where the engine takes none (a second model).
    UnexpectedWord { word: String },
    /// The command names no model.
    NoModel { engine: Engine },
    /// The model the command names is not in the catalog (a GGUF file or
    /// repository whose name matches no catalog model).
    UnknownModel { word: String },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let without_key = |m: String| match m.split_once(' ') {
            Some((_, rest)) => rest.to_string(),
            None => m,
        };
        match self {
            CommandError::Empty => write!(f, "the engine command is empty"),
            CommandError::UnclosedQuote => write!(f, "a quote is not closed"),
            CommandError::NotAnEngine { program } => write!(
                f,
                "`{program}` is not an engine command (known: vllm serve, python -m \
                 vllm.entrypoints.openai.api_server, llama-server, llama-cli)"
            ),
            CommandError::VllmWithoutServe => write!(f, "`vllm` needs `serve MODEL`"),
            CommandError::UnknownOption { engine, option } => {
                write!(f, "unknown {} option `{option}`", engine.name())
            }
            CommandError::NotModelled {
                engine,
                option,
                why,
            } => write!(
                f,
                "{} option `{option}` is not modelled: {why}",
                engine.name()
            ),
            CommandError::MissingValue { option } => write!(f, "{option} needs a value"),
            CommandError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "{option} {value}: expected {expected}"),
            CommandError::Field { option, error } => {
                write!(f, "{option}: {}", without_key(error.to_string()))
            }
            CommandError::Knob { option, error } => {
                write!(f, "{option}: {}", without_key(error.to_string()))
            }
            CommandError::UnexpectedWord { word } => {
                write!(f, "unexpected word `{word}`: one model only")
            }
            CommandError::NoModel { engine } => {
                write!(f, "the {} command names no model", engine.name())
            }
            CommandError::UnknownModel { word } => write!(
                f,
                "no catalog model matches `{word}`: give MODEL (a catalog id or a \
                 config.json) before `--`"
            ),
        }
    }
}

impl std::error::Error for CommandError {}
