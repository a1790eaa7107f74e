//! Poolside's Laguna (`laguna`): grouped-query attention with per-head q/k
//! norms and a per-head softplus output gate, query heads counted per
//! layer (`num_attention_heads_per_layer`: fewer on the full layers than
//! on the sliding ones), full and sliding layers from `layer_types`, a
//! dense MLP or routed experts per layer from `mlp_layer_types`, with one
//! shared expert and a router score-correction bias.
//!
//! The reader follows transformers' `models/laguna` (`LagunaConfig`,
//! `LagunaAttention`, `LagunaSparseMoeBlock`, `LagunaDecoderLayer`) and
//! vLLM's `laguna.py`, which agree on the tensors. They disagree with the
//! checkpoints' own remote code on one thing: `gating: true` is one gate
//! per head upstream (`gate_per_head = gating is True or gating ==
//! "per-head"`) and one per head channel in the shipped code. Upstream is
//! followed: its reading gives the published totals (Laguna-XS.2 ~33B,
//! Laguna-S-2.1 ~118B: 33.44B and 117.56B; per channel they would be 34.07B
//! and 118.80B). Per-channel gating (`"per-element"`), a config with no
//! gate, or any layer type other than full and sliding is refused by name.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Selection, Shared};
use super::super::shape::{Keys, Shape, MAX_CONTEXT, MAX_HEADS};
use super::llama::{flag, shape};
use super::{finish, Architecture, Blueprint};
use serde_json::Value;

pub(super) const ALL: &[&Architecture] = &[&LAGUNA];

/// `gating` (or one entry of `gating_types`) as the per-head gate the
/// reader counts, or the reason it is refused.
fn check_gate(key: &str, v: &Value) -> Result<(), ConfigError> {
    let per_head = match v {
        Value::Bool(b) => *b,
        Value::String(s) => matches!(s.as_str(), "per-head" | "per_head"),
        _ => return Err(ConfigError::wrong_type(key, "true or \"per-head\"")),
    };
    match per_head {
        true => Ok(()),
        false => Err(ConfigError::unsupported(format!(
            "{key} {v} in a laguna config: vramfit reads Laguna's per-head output gate \
             (g_proj H → heads) only; no published checkpoint gates per channel or not at all"
        ))),
    }
}

fn check_branches(r: &Reader) -> Result<(), ConfigError> {
    check_gate("gating", r.get("gating").unwrap_or(&Value::Bool(true)))?;
    if let Some(Value::Array(items)) = r.get("gating_types") {
        for (i, v) in items.iter().enumerate() {
            check_gate(&format!("gating_types[{i}]"), v)?;
        }
    }
    if r.flag("use_bidirectional_attention")? == Some(true) {
        return Err(ConfigError::unsupported(
            "use_bidirectional_attention true in a laguna config: the causal decoder only is \
             read"
                .to_string(),
        ));
    }
    Ok(())
}

/// A per-layer list of `key` with at least `n` entries.
fn per_layer<T>(list: Option<Vec<T>>, key: &'static str, n: u64) -> Result<Vec<T>, ConfigError> {
    let list = list.ok_or_else(|| ConfigError::missing(vec![key.to_string()]))?;
    if (list.len() as u64) < n {
        return Err(ConfigError::contradictory(
            &[key, "num_hidden_layers"],
            format!(
                "{key} describes {} layers but num_hidden_layers is {n}",
                list.len()
            ),
        ));
    }
    Ok(list)
}

/// Layer `i`: its query heads, its attention (full or sliding) and its
/// MLP (dense or routed experts).
fn block(s: &Shape, i: usize, heads: u64, mixer: &str, mlp: &str) -> Result<Block, ConfigError> {
    if heads == 0 || heads > MAX_HEADS {
        return Err(ConfigError::out_of_range(
            "num_attention_heads_per_layer",
            heads,
        ));
    }
    if !heads.is_multiple_of(s.kv_heads) {
        return Err(ConfigError::contradictory(
            &["num_attention_heads_per_layer", "num_key_value_heads"],
            format!(
                "layer {i}: {} key/value heads cannot be shared evenly by {heads} query heads",
                s.kv_heads
            ),
        ));
    }
    let mixer = match mixer {
        "full_attention" => Mixer::Full,
        "sliding_attention" => Mixer::Sliding,
        other => {
            return Err(ConfigError::unsupported(format!(
                "layer type \"{other}\" in a laguna config: Laguna builds full_attention and \
                 sliding_attention layers only"
            )))
        }
    };
    let slot = match mlp {
        "dense" => Slot::Dense,
        "sparse" => Slot::Moe,
        other => {
            return Err(ConfigError::unsupported(format!(
                "mlp layer type \"{other}\" in a laguna config: Laguna builds dense and sparse \
                 MLP layers only"
            )))
        }
    };
    Ok(Block {
        heads: Some(heads),
        ..Block::new(mixer, slot)
    })
}

fn laguna(r: &Reader) -> Result<Blueprint, ConfigError> {
    check_branches(r)?;
    let rules = Rules {
        qkv_bias: flag(r, "attention_bias", false)?,
        qk_norm: QkNorm::Shared(Norm::Weight),
        head_gate: true,
        ..Rules::LLAMA
    };
    let s = shape(r, Family::Laguna, &Keys::STANDARD, rules)?;
    let n = s.layers;
    let keys = MoeKeys {
        experts: &["num_experts"],
        top_k: &["num_experts_per_tok"],
        width: &["moe_intermediate_size"],
        shared: Shared::Width("shared_expert_intermediate_size"),
        select: Select::All,
        score_bias_default: false,
        latent: false,
    };
    let mut moe = moe::read(r, &keys, n)?;
    let Some(m) = moe.as_mut() else {
        return Err(ConfigError::missing(vec!["num_experts".to_string()]));
    };
    // Every sparse layer's router keeps `e_score_correction_bias` (E).
    m.score_bias = true;
    let heads = per_layer(
        r.uint_list("num_attention_heads_per_layer")?,
        "num_attention_heads_per_layer",
        n,
    )?;
    let types = per_layer(r.text_list("layer_types")?, "layer_types", n)?;
    let mlps = per_layer(r.text_list("mlp_layer_types")?, "mlp_layer_types", n)?;
    agrees_with_qwen_moe_keys(r, &mlps)?;
    m.selection = Selection::Listed((0..n).filter(|i| mlps[*i as usize] == "sparse").collect());
    let blocks = (0..n as usize)
        .map(|i| block(&s, i, heads[i], types[i], mlps[i]))
        .collect::<Result<Vec<_>, _>>()?;
    let window = r.dim(&["sliding_window"], MAX_CONTEXT)?;
    finish(
        s,
        moe,
        blocks,
        "layer_types",
        Sizes {
            window,
            chunk: None,
        },
        None,
    )
}

/// S-2.1 also states its dense layers the Qwen-MoE way (`mlp_only_layers`,
/// `decoder_sparse_step`); where it does, both ways must give the same
/// layers, or the config is refused rather than read one way.
///
/// # Formula
///
/// Qwen-MoE's rule (transformers `Qwen2MoeDecoderLayer`): layer `i` is
/// sparse iff `i ∉ mlp_only_layers`, `step > 0` and `(i + 1) mod step = 0`,
/// with `step = decoder_sparse_step`. Without a step, only the listed layers
/// are checked (each must be dense). S-2.1: step 1, `[0]` → layer 0 dense,
/// 1–47 sparse, as its `mlp_layer_types` say.
fn agrees_with_qwen_moe_keys(r: &Reader, mlps: &[&str]) -> Result<(), ConfigError> {
    let only = r.uint_list("mlp_only_layers")?.unwrap_or_default();
    for i in &only {
        if mlps.get(*i as usize).is_some_and(|t| *t != "dense") {
            return Err(ConfigError::contradictory(
                &["mlp_only_layers", "mlp_layer_types"],
                format!("mlp_only_layers lists layer {i}, which mlp_layer_types makes sparse"),
            ));
        }
    }
    let Some(step) = r.uint("decoder_sparse_step")? else {
        return Ok(());
    };
    for (i, t) in mlps.iter().enumerate() {
        let i = i as u64;
        let sparse = !only.contains(&i) && step > 0 && (i + 1).is_multiple_of(step);
        if sparse != (*t == "sparse") {
            return Err(ConfigError::contradictory(
                &["decoder_sparse_step", "mlp_only_layers", "mlp_layer_types"],
                format!(
                    "decoder_sparse_step {step} makes layer {i} {}, mlp_layer_types {t}",
                    if sparse { "sparse" } else { "dense" }
                ),
            ));
        }
    }
    Ok(())
}

pub(super) const LAGUNA: Architecture = Architecture {
    family: Family::Laguna,
    model_types: &["laguna"],
    classes: &["LagunaForCausalLM"],
    source: "transformers models/laguna (LagunaConfig, LagunaAttention, LagunaSparseMoeBlock, \
             LagunaDecoderLayer); vLLM vllm/model_executor/models/laguna.py",
    counts: "bias-free q/k/v/o with per-head q/k norms and a per-head output gate g_proj \
             H_q×H, H_q from num_attention_heads_per_layer; full and sliding layers from \
             layer_types; a dense MLP of intermediate_size or routed experts of \
             moe_intermediate_size with one shared expert of shared_expert_intermediate_size \
             and a router score-correction bias, per mlp_layer_types; untied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[
        "layer_types",
        "mlp_layer_types",
        "num_attention_heads_per_layer",
        "gating_types",
        "mlp_only_layers",
    ],
    read: laguna,
};
