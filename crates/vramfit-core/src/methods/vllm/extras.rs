//! What vLLM needs from a `config.json` beyond [`ModelSpec`]: the rotary
//! tables it builds, the vision tower it loads and the layout of a
//! quantized checkpoint once loaded.
//!
//! This is read here, apart from the model reader, on purpose: the reader
//! owns the model's shape; these are facts about how vLLM loads it. Every
//! function is total: a key that is absent or malformed leaves the
//! corresponding extra at its default, never an error (the config has
//! already been validated by [`crate::model::parse_config`]).

use super::vision::VisionTower;
use crate::model::{ModelSpec, QuantScheme, QuantSource, RopeScaling};
use serde::Serialize;
use serde_json::{Map, Value};

/// One rotary cos/sin table vLLM keeps on the GPU (`cos_sin_cache`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RopeCache {
    /// Positions in the table.
    pub rows: u64,
    /// Rotary dimension (cos and sin halves together).
    pub dim: u64,
}

/// How a quantized checkpoint's linear layers sit in memory once vLLM has
/// loaded (and possibly repacked) them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LoadedFormat {
    /// FP8 values with one fp32 scale per tensor.
    Fp8Tensor,
    /// FP8 values with one fp32 scale per output row.
    Fp8Channel,
    /// FP8 values with one fp32 scale per `rows × cols` block.
    Fp8Block { rows: u64, cols: u64 },
    /// INT8 values with one fp32 scale per output row (W8A8 int8).
    Int8Channel,
    /// Integer weights repacked for the Marlin kernel: `bits` per value,
    /// one 16-bit scale per group of `group` inputs (0: whole row), zero
    /// points only for asymmetric schemes, two int32 permutation indices
    /// per input feature with activation reordering.
    Marlin {
        bits: u64,
        group: u64,
        zero_points: bool,
        act_order: bool,
    },
    /// MXFP4: 4-bit values and one byte of scale per 32 values.
    Mxfp4,
    /// As the checkpoint stores it (bitsandbytes, NVFP4, EETQ: vLLM keeps
    /// the stored layout), sized by the reader's [`QuantScheme::matrix`].
    Stored(QuantScheme),
}

/// Which parts of the model a checkpoint's quantization leaves in the
/// model dtype (its `ignore` / `modules_to_not_convert` lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct Kept {
    /// The vision tower and projector.
    pub vision: bool,
    /// Attention projections.
    pub attention: bool,
}

/// The checkpoint's quantization as loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LoadedQuant {
    /// Layout of the decoder's quantized linear layers.
    pub format: LoadedFormat,
    /// Routed experts only (MXFP4 in gpt-oss): other layers stay dense.
    pub experts_only: bool,
    /// Parts left in the model dtype.
    pub kept: Kept,
    /// One fp32 input scale per layer (static activation quantization).
    pub static_input_scale: bool,
    /// The vLLM quantization method name, as `vllm serve` reports it.
    pub method: &'static str,
}

/// Everything vLLM-specific read from a config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct ConfigExtras {
    /// Rotary tables, one per distinct rotary configuration.
    pub rope_caches: Vec<RopeCache>,
    /// The vision tower vLLM loads, if any.
    pub vision: Option<VisionTower>,
    /// The checkpoint's own quantization, as loaded.
    pub quant: Option<LoadedQuant>,
    /// `final_logit_softcapping` (Gemma-2): logits are divided, passed
    /// through tanh and multiplied back, out of place.
    pub logit_softcap: bool,
    /// The longest `--max-model-len` vLLM accepts without
    /// `VLLM_ALLOW_LONG_MAX_MODEL_LEN` (see [`derived_max_model_len`]).
    pub derived_max_model_len: Option<u64>,
}

impl ConfigExtras {
    /// Reads the extras of `text` for the model `spec` parsed from it.
    /// Text that is not a JSON object gives the defaults (no tables, no
    /// tower, no quantization).
    pub fn read(text: &str, spec: &ModelSpec) -> ConfigExtras {
        let Ok(Value::Object(outer)) = serde_json::from_str::<Value>(text) else {
            return ConfigExtras::from_spec(spec);
        };
        let scope = text_scope(&outer);
        ConfigExtras {
            rope_caches: rope_caches(&outer, scope, spec),
            vision: super::vision::read(&outer, spec),
            quant: loaded_quant(&outer, scope, spec),
            logit_softcap: scope
                .get("final_logit_softcapping")
                .or_else(|| outer.get("final_logit_softcapping"))
                .is_some_and(|v| v.as_f64().is_some()),
            derived_max_model_len: derived_max_model_len(spec),
        }
    }

    /// The extras of a model known only by its spec: one plain rotary
    /// table over the full head (or MLA's rotary part), no tower.
    pub fn from_spec(spec: &ModelSpec) -> ConfigExtras {
        let dim = match spec.mla {
            Some(mla) => mla.qk_rope_head_dim,
            None => spec.head_dim,
        };
        let rows = spec.max_context.unwrap_or(0);
        let rope_caches = match rows > 0 && dim > 0 && has_attention(spec) {
            true => vec![RopeCache { rows, dim }],
            false => Vec::new(),
        };
        ConfigExtras {
            rope_caches,
            derived_max_model_len: spec.max_context,
            ..ConfigExtras::default()
        }
    }
}

fn has_attention(spec: &ModelSpec) -> bool {
    use crate::model::AttentionKind as K;
    spec.attention
        .iter()
        .any(|k| !matches!(k, K::Linear { .. } | K::None))
}

/// The object that holds the text model's keys.
pub(super) fn text_scope(outer: &Map<String, Value>) -> &Map<String, Value> {
    for key in ["text_config", "llm_config", "language_config"] {
        if let Some(Value::Object(inner)) = outer.get(key) {
            return inner;
        }
    }
    outer
}

/// A key from the text scope, else the outer object.
fn lookup<'a>(
    outer: &'a Map<String, Value>,
    scope: &'a Map<String, Value>,
    key: &str,
) -> Option<&'a Value> {
    scope
        .get(key)
        .filter(|v| !v.is_null())
        .or_else(|| outer.get(key).filter(|v| !v.is_null()))
}

/// Rotary tables.
///
/// # Formula
///
/// One table per distinct rotary configuration (vLLM caches them in
/// `_ROPE_DICT` by head size, rotary dimension, positions and scaling), of
/// `rows × d_rot` values at the model dtype, with `d_rot = ⌊d · f⌋`
/// (`partial_rotary_factor` `f`; MLA: `qk_rope_head_dim`) and
///
/// ```text
/// default, llama3, mrope:   rows = P
/// linear, dynamic:          rows = P · s
/// yarn, deepseek yarn:      rows = P_orig · s
/// longrope:                 rows = P_orig + P
/// ```
///
/// `P` is `max_position_embeddings`, `s` the scaling `factor`, `P_orig`
/// `original_max_position_embeddings`. Gemma-3 adds a second, plain table
/// for its local layers (`rope_local_base_freq`). Sources: vLLM
/// `vllm/model_executor/layers/rotary_embedding/__init__.py` (`get_rope`),
/// `base.py`, `linear_scaling_rope.py`, `yarn_scaling_rope.py`,
/// `deepseek_scaling_rope.py`, `phi3_long_rope_scaled_rope.py`;
/// `models/gemma3.py` (`Gemma3Attention`).
fn rope_caches(
    outer: &Map<String, Value>,
    scope: &Map<String, Value>,
    spec: &ModelSpec,
) -> Vec<RopeCache> {
    let base = ConfigExtras::from_spec(spec).rope_caches;
    let Some(plain) = base.first().copied() else {
        return Vec::new();
    };
    let dim = match spec.mla {
        Some(_) => plain.dim,
        None => {
            let f = spec.partial_rotary_milli.unwrap_or(1000);
            match lookup(outer, scope, "rotary_dim").and_then(Value::as_u64) {
                Some(d) if d > 0 && d <= spec.head_dim => d,
                _ => spec.head_dim.saturating_mul(f) / 1000,
            }
        }
    };
    let positions = plain.rows;
    let rows = match spec.rope_scaling.as_ref() {
        Some(s) => scaled_rows(s, positions),
        None => positions,
    };
    let mut caches = vec![RopeCache { rows, dim }];
    // Gemma-3 keeps a plain table for its sliding layers
    // (`rope_local_base_freq`, 10000 by default in `Gemma3TextConfig`).
    let gemma3_text = matches!(spec.model_type.as_deref(), Some("gemma3_text" | "gemma3"));
    let local = gemma3_text || lookup(outer, scope, "rope_local_base_freq").is_some();
    if local {
        caches.push(RopeCache {
            rows: positions,
            dim,
        });
    }
    caches
}

/// Rows of a scaled rotary table (see [`rope_caches`]).
fn scaled_rows(scaling: &RopeScaling, positions: u64) -> u64 {
    let factor = scaling
        .factor_milli
        .filter(|f| (1_000..=1_000_000_000).contains(f))
        .unwrap_or(1_000);
    let original = scaling
        .original_max_position_embeddings
        .unwrap_or(positions);
    let times = |n: u64| crate::units::saturate(n as u128 * factor as u128 / 1_000);
    match scaling.rope_type.as_str() {
        "linear" | "dynamic" => times(positions),
        "yarn" | "deepseek_yarn" => times(original),
        "longrope" | "su" => original.saturating_add(positions),
        _ => positions,
    }
}

/// The longest context vLLM derives from the config.
///
/// # Formula
///
/// `L_derived = P · s`, where `s` is the rope scaling `factor` unless the
/// type is `llama3`, `longrope` or `su` (then 1), and `P` becomes
/// `original_max_position_embeddings` for `yarn`; Gemma-3's positions are
/// already scaled (`s = 1`). Source: vLLM `vllm/config/model.py`,
/// `_get_and_verify_max_len`.
fn derived_max_model_len(spec: &ModelSpec) -> Option<u64> {
    let positions = spec.max_context?;
    let gemma3 = spec
        .model_type
        .as_deref()
        .is_some_and(|t| t.contains("gemma3"));
    let Some(scaling) = spec.rope_scaling.as_ref() else {
        return Some(positions);
    };
    if gemma3 || scaling.is(&["llama3", "longrope", "su"]) {
        return Some(positions);
    }
    let factor = scaling
        .factor_milli
        .filter(|f| (1..=1_000_000_000).contains(f))
        .unwrap_or(1_000);
    let base = match scaling.rope_type.as_str() {
        "yarn" => scaling
            .original_max_position_embeddings
            .unwrap_or(positions),
        _ => positions,
    };
    Some(crate::units::saturate(
        base as u128 * factor as u128 / 1_000,
    ))
}

/// The checkpoint's quantization as vLLM loads it, from the spec's
/// reading of `quantization_config` and the keys it does not keep
/// (compressed-tensors groups, GPTQ's `desc_act`). A ModelOpt export whose
/// config.json has none states it in `hf_quant_config.json`, which vLLM
/// reads too (`get_quant_config`) and the spec was read with
/// ([`QuantSource::HfQuantConfig`]): its scheme comes from the spec.
fn loaded_quant(
    outer: &Map<String, Value>,
    scope: &Map<String, Value>,
    spec: &ModelSpec,
) -> Option<LoadedQuant> {
    let Some(config) = lookup(outer, scope, "quantization_config")
        .or_else(|| lookup(outer, scope, "compression_config"))
        .and_then(Value::as_object)
    else {
        return match spec.quantization_source {
            QuantSource::HfQuantConfig => from_spec_scheme(&Map::new(), spec),
            _ => None,
        };
    };
    let ignore = ignore_list(config);
    let kept = Kept {
        vision: ignore.iter().any(|p| {
            ["vision", "visual", "multi_modal_projector", "mm_projector"]
                .iter()
                .any(|k| p.contains(k))
        }),
        attention: ignore
            .iter()
            .any(|p| p.contains("self_attn") && !p.contains("layers.")),
    };
    let method = config
        .get("quant_method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut loaded = match method.as_str() {
        "compressed-tensors" => compressed_tensors(config)?,
        _ => from_spec_scheme(config, spec)?,
    };
    loaded.kept = kept;
    Some(loaded)
}

fn ignore_list(config: &Map<String, Value>) -> Vec<String> {
    for key in [
        "ignore",
        "modules_to_not_convert",
        "ignored_layers",
        "exclude_modules",
    ] {
        if let Some(Value::Array(items)) = config.get(key) {
            return items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
        }
    }
    Vec::new()
}

/// GPTQ, AWQ, FP8 and MXFP4 checkpoints, from the scheme the model reader
/// found; bitsandbytes, NVFP4 and EETQ keep their stored layout.
fn from_spec_scheme(config: &Map<String, Value>, spec: &ModelSpec) -> Option<LoadedQuant> {
    use crate::model::QuantScheme as S;
    let q = spec.quantization.as_ref()?;
    let flag = |k: &str| config.get(k).and_then(Value::as_bool);
    let marlin = |bits: u64, group: u64, zero_points: bool, act_order: bool| LoadedFormat::Marlin {
        bits,
        group,
        zero_points,
        act_order,
    };
    let (format, method, experts_only) = match q.scheme {
        S::Fp8Tensor => (LoadedFormat::Fp8Tensor, "fp8", false),
        S::Fp8Channel => (LoadedFormat::Fp8Channel, "fbgemm_fp8", false),
        S::Fp8Block { rows, cols } => (LoadedFormat::Fp8Block { rows, cols }, "fp8", false),
        S::Mxfp4 => (LoadedFormat::Mxfp4, "mxfp4", true),
        S::Gptq {
            bits, group_size, ..
        } => {
            let symmetric = flag("sym").unwrap_or(true);
            let act_order = flag("desc_act").unwrap_or(false);
            (
                marlin(bits, group_size, !symmetric, act_order),
                "gptq_marlin",
                false,
            )
        }
        S::AwqGemm {
            bits,
            group_size,
            zero_points,
        } => (
            marlin(bits, group_size, zero_points, false),
            "awq_marlin",
            false,
        ),
        S::AwqGemv { bits, group_size } | S::AwqGemvFast { bits, group_size } => {
            (marlin(bits, group_size, true, false), "awq_marlin", false)
        }
        S::CompressedTensors(_) => return None,
        other @ (S::Nvfp4 { .. } | S::Bnb4 { .. } | S::Bnb8 | S::Int8Channel) => {
            let method = match other {
                S::Nvfp4 { .. } => "modelopt_fp4",
                S::Int8Channel => "eetq",
                _ => "bitsandbytes",
            };
            (LoadedFormat::Stored(other), method, false)
        }
    };
    Some(LoadedQuant {
        format,
        experts_only,
        kept: Kept::default(),
        static_input_scale: q.static_activation_scales,
        method,
    })
}

/// A compressed-tensors checkpoint (llm-compressor): the first config
/// group's weight scheme.
///
/// Loaded layouts follow vLLM
/// `vllm/model_executor/layers/quantization/compressed_tensors/schemes/`:
/// `CompressedTensorsW8A8Fp8` (FP8 per channel / tensor / block),
/// `CompressedTensorsW8A8Int8` (int8 per channel), and
/// `CompressedTensorsWNA16` (4/8-bit weights through Marlin).
fn compressed_tensors(config: &Map<String, Value>) -> Option<LoadedQuant> {
    let groups = config.get("config_groups")?.as_object()?;
    let group = groups.values().next()?.as_object()?;
    let weights = group.get("weights")?.as_object()?;
    let bits = weights.get("num_bits").and_then(Value::as_u64)?;
    let kind = weights.get("type").and_then(Value::as_str).unwrap_or("int");
    let strategy = weights
        .get("strategy")
        .and_then(Value::as_str)
        .unwrap_or("tensor");
    let activations = group.get("input_activations").and_then(Value::as_object);
    let static_input = activations
        .and_then(|a| a.get("dynamic"))
        .and_then(Value::as_bool)
        == Some(false);
    let format = match (kind, bits, activations.is_some()) {
        ("float", 8, _) => match strategy {
            "channel" => LoadedFormat::Fp8Channel,
            "block" => {
                let block = weights.get("block_structure").and_then(Value::as_array);
                let dims: Vec<u64> = block
                    .map(|b| b.iter().filter_map(Value::as_u64).collect())
                    .unwrap_or_default();
                match dims.as_slice() {
                    [r, c] if *r > 0 && *c > 0 => LoadedFormat::Fp8Block { rows: *r, cols: *c },
                    _ => LoadedFormat::Fp8Block {
                        rows: 128,
                        cols: 128,
                    },
                }
            }
            _ => LoadedFormat::Fp8Tensor,
        },
        ("int", 8, true) => LoadedFormat::Int8Channel,
        ("int", 4 | 8, false) => LoadedFormat::Marlin {
            bits,
            group: match strategy {
                "group" => weights
                    .get("group_size")
                    .and_then(Value::as_u64)
                    .unwrap_or(128),
                _ => 0,
            },
            zero_points: weights.get("symmetric").and_then(Value::as_bool) == Some(false),
            act_order: weights
                .get("actorder")
                .and_then(Value::as_str)
                .is_some_and(|a| a == "group" || a == "weight"),
        },
        _ => return None,
    };
    Some(LoadedQuant {
        format,
        experts_only: false,
        kept: Kept::default(),
        static_input_scale: static_input,
        method: "compressed-tensors",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_config;

    const LLAMA31: &str = r#"{
        "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "vocab_size": 128256,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
        "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192,
            "rope_type": "llama3"}
    }"#;

    #[test]
    fn llama3_rope_keeps_the_positions() {
        let spec = parse_config(LLAMA31).unwrap();
        let x = ConfigExtras::read(LLAMA31, &spec);
        assert_eq!(
            x.rope_caches,
            [RopeCache {
                rows: 131_072,
                dim: 128
            }]
        );
        assert_eq!(x.quant, None);
        assert!(x.vision.is_none());
    }

    #[test]
    fn scaled_tables_grow_with_the_factor() {
        let s = |rope_type: &str, factor: Option<u64>, original: Option<u64>| RopeScaling {
            rope_type: rope_type.to_string(),
            factor_milli: factor,
            original_max_position_embeddings: original,
            long_factor_len: None,
        };
        assert_eq!(
            scaled_rows(&s("linear", Some(8_000), None), 131_072),
            1_048_576
        );
        assert_eq!(
            scaled_rows(&s("yarn", Some(40_000), Some(4096)), 163_840),
            163_840
        );
        assert_eq!(
            scaled_rows(&s("longrope", None, Some(4096)), 131_072),
            135_168
        );
        assert_eq!(scaled_rows(&s("llama3", None, None), 100), 100);
    }

    #[test]
    fn partial_rotary_factor_narrows_the_table() {
        let text = r#"{"model_type": "phi", "hidden_size": 2560, "num_hidden_layers": 32,
            "num_attention_heads": 32, "intermediate_size": 10240, "vocab_size": 51200,
            "max_position_embeddings": 2048, "partial_rotary_factor": 0.4,
            "torch_dtype": "float16"}"#;
        let spec = parse_config(text).unwrap();
        let x = ConfigExtras::read(text, &spec);
        assert_eq!(
            x.rope_caches,
            [RopeCache {
                rows: 2048,
                dim: 32
            }]
        );
    }

    #[test]
    fn compressed_tensors_schemes() {
        let ct = |w: &str, a: &str| {
            let text = format!(
                r#"{{"config_groups": {{"group_0": {{"weights": {w}, "input_activations": {a}, "targets": ["Linear"]}}}},
                "ignore": ["lm_head", "re:.*vision_tower.*"], "quant_method": "compressed-tensors"}}"#
            );
            compressed_tensors(&serde_json::from_str(&text).unwrap()).unwrap()
        };
        let fp8 = ct(
            r#"{"num_bits": 8, "type": "float", "strategy": "channel"}"#,
            r#"{"num_bits": 8, "type": "float", "strategy": "token", "dynamic": true}"#,
        );
        assert_eq!(fp8.format, LoadedFormat::Fp8Channel);
        assert!(!fp8.static_input_scale);
        let int8 = ct(
            r#"{"num_bits": 8, "type": "int", "strategy": "channel", "symmetric": true}"#,
            r#"{"num_bits": 8, "type": "int", "strategy": "token", "dynamic": true}"#,
        );
        assert_eq!(int8.format, LoadedFormat::Int8Channel);
        let w4 = ct(
            r#"{"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": true}"#,
            "null",
        );
        assert_eq!(
            w4.format,
            LoadedFormat::Marlin {
                bits: 4,
                group: 128,
                zero_points: false,
                act_order: false
            }
        );
    }

    #[test]
    fn not_json_gives_the_spec_defaults() {
        let spec = parse_config(LLAMA31).unwrap();
        assert_eq!(
            ConfigExtras::read("not json", &spec),
            ConfigExtras::from_spec(&spec)
        );
    }
}
