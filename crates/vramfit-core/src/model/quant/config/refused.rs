//! Quantization methods transformers or vLLM accept whose stored layout
//! vramfit does not size: each is refused naming it, with the reason.

use super::Object;
use crate::model::error::ConfigError;
use crate::model::json::Reader;
use serde_json::Value;

/// Methods transformers (or vLLM) knows whose stored layout vramfit does
/// not size; each is refused by name.
const REFUSED: [(&str, &str); 24] = [
    (
        "ptpc_fp8",
        "vLLM quantizes an unquantized checkpoint at load with it; no stored layout to size",
    ),
    (
        "experts_int8",
        "vLLM quantizes the experts of an unquantized checkpoint at load; no stored layout to size",
    ),
    (
        "rtn",
        "vLLM's round-to-nearest quantizes an unquantized checkpoint at load",
    ),
    (
        "tpu_int8",
        "vLLM's TPU int8 quantizes an unquantized checkpoint at load",
    ),
    (
        "bitblas",
        "BitBLAS repacks weights into its own tiles, which vramfit does not model",
    ),
    (
        "gptq_marlin_24",
        "Marlin 2:4 sparse checkpoints store metadata vramfit does not model",
    ),
    (
        "marlin",
        "Marlin's tiled layout is not modelled (a GPTQ checkpoint loaded by Marlin is read as gptq)",
    ),
    (
        "deepspeedfp",
        "DeepSpeed FP6/FP8 checkpoints are not modelled",
    ),
    (
        "moe_wna16",
        "vLLM's MoE WNA16 wraps a GPTQ or AWQ config; the checkpoint's own method is read",
    ),
    (
        "inc",
        "Intel Neural Compressor checkpoints name their packing elsewhere",
    ),
    (
        "hqq",
        "HQQ stores per-layer metadata tensors whose set depends on the hqq version",
    ),
    (
        "torchao",
        "torchao stores tensor subclasses whose layout the config does not give",
    ),
    (
        "aqlm",
        "AQLM stores codebooks whose sizes vramfit does not model",
    ),
    (
        "vptq",
        "VPTQ stores codebooks whose sizes vramfit does not model",
    ),
    ("quanto", "quanto's serialized layout is not modelled"),
    (
        "gguf",
        "GGUF files are sized by the llama.cpp method, not from a config.json",
    ),
    (
        "higgs",
        "HIGGS stores codebooks whose sizes vramfit does not model",
    ),
    (
        "spqr",
        "SpQR stores sparse outliers whose count the config does not give",
    ),
    ("bitnet", "BitNet's packed ternary layout is not modelled"),
    (
        "fp_quant",
        "FP-Quant's Hadamard-rotated layout is not modelled",
    ),
    ("quark", "AMD Quark's serialized layout is not modelled"),
    (
        "auto-round",
        "AutoRound's packing depends on the export backend",
    ),
    (
        "exl2",
        "ExLlamaV2 checkpoints are not read from a config.json",
    ),
    (
        "exl3",
        "ExLlamaV3 checkpoints are not read from a config.json",
    ),
];

pub(super) fn refusal(method: &str) -> ConfigError {
    let why = REFUSED
        .iter()
        .find(|(m, _)| *m == method || method.starts_with(m))
        .map(|(_, why)| *why)
        .unwrap_or("vramfit does not know how this method stores its tensors");
    ConfigError::unsupported(format!(
        "quantization_config: quant_method `{method}` cannot be sized: {why}"
    ))
}

/// A config without `quantization_config` that states a quantization
/// under `quantization`: mlx-lm's `{"group_size", "bits"}` (values packed
/// in uint32 with a scale and a bias per group, embeddings and head
/// quantized too) or a TensorRT-LLM checkpoint's `{"quant_algo"}`. Read as
/// unquantized they would be counted at 16 bits; they are refused, naming
/// what they say.
pub(super) fn quantization_elsewhere(r: &Reader) -> Result<(), ConfigError> {
    let Some(Value::Object(q)) = r.get("quantization") else {
        return Ok(());
    };
    Err(ConfigError::unsupported(format!(
        "`quantization` ({}): a quantized checkpoint whose packing vramfit does not size; \
         read as unquantized it would be counted at 16 bits",
        describe(q)
    )))
}

/// A `quantization_config` without `quant_method` (nor bitsandbytes'
/// `load_in_4bit` / `load_in_8bit`): refused naming what it says.
pub(super) fn without_method(config: &Object) -> ConfigError {
    ConfigError::unsupported(format!(
        "quantization_config without quant_method ({}) cannot be sized",
        describe(config)
    ))
}

/// What a quantization object says, in a few words.
fn describe(q: &Object) -> String {
    let num = |k: &str| q.get(k).and_then(Value::as_u64);
    let text = |k: &str| q.get(k).and_then(Value::as_str);
    if let Some(algo) = text("quant_algo") {
        return format!("quant_algo {algo}");
    }
    match (num("bits"), num("group_size")) {
        (Some(b), Some(g)) => format!("{b}-bit in groups of {g}, the mlx-lm layout"),
        (Some(b), None) => format!("{b}-bit"),
        _ => "no method named".to_string(),
    }
}
