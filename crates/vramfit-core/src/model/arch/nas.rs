//! Nemotron-NAS (DeciLM): Llama layers that differ one by one. Each entry
//! of `block_configs` says whether the layer's attention and MLP exist
//! (`no_op`), are a single linear map (`replace_with_linear`), how many
//! query heads share a key/value head (`n_heads_in_group`) and how wide
//! the MLP is (`ffn_mult`, or `intermediate_size`). DeciLM-7B instead lists
//! `num_key_value_heads_per_layer`.
//!
//! Sources: the checkpoints' `modeling_decilm.py` (`DeciLMDecoderLayer`,
//! `_ffn_mult_to_intermediate_size`); vLLM `nemotron_nas.py`.

use super::super::error::{ConfigError, ConfigErrorKind};
use super::super::family::{Family, Rules};
use super::super::json::Reader;
use super::super::layers::{Block, Mixer, Sizes, Slot};
use super::super::shape::{Keys, MAX_CONTEXT, MAX_HEADS};
use super::llama::{llama_rules, shape};
use super::{finish, Architecture, Blueprint};
use serde_json::{Map, Value};

pub(super) const ALL: &[&Architecture] = &[&NEMOTRON_NAS];

/// Sub-keys of a block's `attention` and `ffn` objects that change no
/// tensor (or are read below). Anything else set to a value other than
/// `null` or `false` is refused.
const ATTENTION_KEYS: [&str; 8] = [
    "n_heads_in_group",
    "no_op",
    "replace_with_linear",
    "window_length",
    "num_sink_tokens",
    "unshifted_sink",
    "use_prefill_window_in_sink_attention",
    "sparsify",
];
const FFN_KEYS: [&str; 6] = [
    "ffn_mult",
    "intermediate_size",
    "no_op",
    "replace_with_linear",
    "sparsify",
    "hidden_act",
];

/// `_ffn_mult_to_intermediate_size`: `⌊2·m·H/3⌋` rounded up to a multiple
/// of 256.
fn ffn_width(mult: f64, hidden: u64) -> Option<u64> {
    let width = (2.0 * mult * hidden as f64 / 3.0).floor();
    if !(0.0..(1u64 << 40) as f64).contains(&width) {
        return None;
    }
    Some((width as u64).div_ceil(256).saturating_mul(256))
}

fn unknown(key: String) -> ConfigError {
    ConfigError::new(ConfigErrorKind::UnknownLayerPattern {
        key,
        model_type: "nemotron-nas".to_string(),
    })
}

/// Refuses a sub-key outside `known` that is set.
fn check_known(part: &str, m: &Map<String, Value>, known: &[&str]) -> Result<(), ConfigError> {
    for (k, v) in m {
        let set = !matches!(v, Value::Null | Value::Bool(false));
        if set && !known.contains(&k.as_str()) {
            return Err(unknown(format!("block_configs.{part}.{k}")));
        }
    }
    Ok(())
}

fn bool_of(m: &Map<String, Value>, key: &str, part: &str) -> Result<bool, ConfigError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ConfigError::wrong_type(
            &format!("block_configs.{part}.{key}"),
            "boolean",
        )),
    }
}

/// One block of `block_configs`.
fn block(entry: &Value, heads: u64, hidden: u64) -> Result<Block, ConfigError> {
    let bad = || ConfigError::wrong_type("block_configs", "list of objects");
    let entry = entry.as_object().ok_or_else(bad)?;
    let empty = Map::new();
    let attention = entry
        .get("attention")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let ffn = entry
        .get("ffn")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for k in entry.keys() {
        if k != "attention" && k != "ffn" {
            return Err(unknown(format!("block_configs.{k}")));
        }
    }
    check_known("attention", attention, &ATTENTION_KEYS)?;
    check_known("ffn", ffn, &FFN_KEYS)?;
    for (part, m) in [("attention", attention), ("ffn", ffn)] {
        if !matches!(m.get("sparsify"), None | Some(Value::Null)) {
            return Err(unknown(format!("block_configs.{part}.sparsify")));
        }
    }
    let mut b = Block::new(Mixer::Full, Slot::Dense);
    if bool_of(attention, "no_op", "attention")? {
        b.mixer = Mixer::None;
    } else if bool_of(attention, "replace_with_linear", "attention")? {
        b.mixer = Mixer::Replaced;
    } else {
        let group = attention
            .get("n_heads_in_group")
            .and_then(Value::as_u64)
            .filter(|g| *g >= 1 && heads.is_multiple_of(*g))
            .ok_or_else(|| {
                ConfigError::contradictory(
                    &[
                        "block_configs.attention.n_heads_in_group",
                        "num_attention_heads",
                    ],
                    "n_heads_in_group must divide the query heads".to_string(),
                )
            })?;
        b.kv_heads = Some(heads / group);
        if let Some(w) = attention.get("window_length").and_then(Value::as_u64) {
            b.mixer = Mixer::Sliding;
            b.window = Some(w.min(MAX_CONTEXT));
        }
    }
    if bool_of(ffn, "no_op", "ffn")? {
        b.slot = Slot::None;
    } else if bool_of(ffn, "replace_with_linear", "ffn")? {
        b.slot = Slot::Replaced;
    } else {
        let width = match (ffn.get("intermediate_size"), ffn.get("ffn_mult")) {
            (Some(Value::Number(n)), _) => n.as_u64(),
            (_, Some(Value::Number(m))) => m.as_f64().and_then(|m| ffn_width(m, hidden)),
            _ => None,
        };
        b.width =
            Some(width.ok_or_else(|| {
                ConfigError::missing(vec!["block_configs.ffn.ffn_mult".to_string()])
            })?);
    }
    Ok(b)
}

fn nemotron_nas(r: &Reader) -> Result<Blueprint, ConfigError> {
    let keys = Keys {
        kv_heads: &[],
        ..Keys::STANDARD
    };
    let rules = Rules {
        norm_per_part: true,
        ..llama_rules(r, false)?
    };
    let s = shape(r, Family::DeciLm, &keys, rules)?;
    let (blocks, key) = match r.get("block_configs") {
        Some(Value::Array(list)) => (
            list.iter()
                .map(|e| block(e, s.heads, s.hidden))
                .collect::<Result<Vec<_>, _>>()?,
            "block_configs",
        ),
        Some(_) => return Err(ConfigError::wrong_type("block_configs", "list of objects")),
        None => match r.uint_list("num_key_value_heads_per_layer")? {
            Some(list) => (
                list.iter()
                    .map(|kv| {
                        let mut b = Block::new(Mixer::Full, Slot::Dense);
                        b.kv_heads = Some((*kv).clamp(1, MAX_HEADS));
                        b
                    })
                    .collect(),
                "num_key_value_heads_per_layer",
            ),
            None => {
                return Err(ConfigError::missing(vec!["block_configs".to_string()]));
            }
        },
    };
    for b in &blocks {
        if let Some(kv) = b.kv_heads {
            if kv == 0 || !s.heads.is_multiple_of(kv) {
                return Err(ConfigError::contradictory(
                    &[key, "num_attention_heads"],
                    format!(
                        "{kv} key/value heads cannot be shared evenly by {} query heads",
                        s.heads
                    ),
                ));
            }
        }
    }
    finish(s, None, blocks, key, Sizes::default(), None)
}

pub(super) const NEMOTRON_NAS: Architecture = Architecture {
    family: Family::DeciLm,
    model_types: &["nemotron-nas", "deci"],
    classes: &["DeciLMForCausalLM"],
    source: "nvidia Llama-3_3-Nemotron-Super-49B-v1 modeling_decilm.py (checkpoint code; \
             vLLM nemotron_nas.py)",
    counts: "Llama layers configured one by one from block_configs: attention with \
             heads / n_heads_in_group key/value heads, skipped (no_op) or one H×H map, MLP of \
             ffn_mult (⌊2·m·H/3⌋ to a multiple of 256), skipped or one H×H map; a norm before \
             each part that exists",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &["block_configs", "num_key_value_heads_per_layer"],
    read: nemotron_nas,
};

#[cfg(test)]
mod tests {
    use super::ffn_width;

    #[test]
    fn ffn_mult_rounds_up_to_256() {
        // Llama-3.3-Nemotron-Super-49B, H = 8192: 2.625 → 14336, 5.25 → 28672.
        assert_eq!(ffn_width(2.625, 8192), Some(14_336));
        assert_eq!(ffn_width(5.25, 8192), Some(28_672));
        assert_eq!(ffn_width(1.3, 8192), Some(7168));
        assert_eq!(ffn_width(f64::NAN, 8192), None);
    }
}
