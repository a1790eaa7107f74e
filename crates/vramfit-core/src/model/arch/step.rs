//! StepFun's Step-3.5 text model (`step3p5`, the language model of
//! Step-3.5-Flash and of Step-3.7's `text_config`): grouped-query
//! attention on every layer with per-head q/k norms and a head-wise
//! output gate, full and sliding layers with head counts of their own
//! (`attention_other_setting`), dense MLPs then routed experts with one
//! shared expert and a router bias on the layers `moe_layers_enum` lists,
//! and multi-token-prediction layers stored beside the model.
//!
//! `transformers` has no `step3p5`; the reader follows vLLM's
//! implementation, `vllm/model_executor/models/step3p5.py`
//! (`Step3p5Attention`, `Step3p5MLP`, `FusedMoEBlock`,
//! `Step3p5DecoderLayer`, `Step3p5Model`, `Step3p5ForCausalLM`) and
//! `step3p5_mtp.py` (`Step3p5AMultiTokenPredictorLayer`, `SharedHead`).
//! A config outside the branches that code builds (another
//! `att_impl_type`, one key/value group, no router bias, a tied head, a
//! layer type other than full or sliding) is refused by name.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::{as_uint, Reader};
use super::super::layers::{Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Selection, Shared};
use super::super::shape::{Keys, MtpLayout, Shape, MAX_CONTEXT, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{finish, Architecture, Blueprint};
use serde_json::{Map, Value};

pub(super) const ALL: &[&Architecture] = &[&STEP3P5];

const OTHER: &str = "attention_other_setting";

/// The attention sizes a layer type may override: query heads, key/value
/// groups and head width.
#[derive(Debug, Clone, Copy)]
struct Heads {
    heads: u64,
    kv_heads: u64,
    head_dim: u64,
}

/// `attention_other_setting`: the layer type it applies to and its sizes.
/// vLLM reads all four keys (`config.attention_other_setting[...]`).
fn other_setting<'a>(r: &Reader<'a>) -> Result<Option<(&'a str, Heads)>, ConfigError> {
    let Some(c) = r.object(OTHER)? else {
        return Ok(None);
    };
    let size = |c: &Map<String, Value>, name: &str, max: u64| -> Result<u64, ConfigError> {
        let key = format!("{OTHER}.{name}");
        let v = c
            .get(name)
            .filter(|v| !v.is_null())
            .ok_or_else(|| ConfigError::missing(vec![key.clone()]))?;
        match as_uint(&key, v)? {
            v if v == 0 || v > max => Err(ConfigError::out_of_range(&key, v)),
            v => Ok(v),
        }
    };
    let kind = match c.get("attention_type") {
        Some(Value::String(s)) => s.as_str(),
        None | Some(Value::Null) => {
            return Err(ConfigError::missing(vec![format!(
                "{OTHER}.attention_type"
            )]))
        }
        Some(_) => {
            return Err(ConfigError::wrong_type(
                "attention_other_setting.attention_type",
                "string",
            ))
        }
    };
    let heads = Heads {
        heads: size(c, "num_attention_heads", MAX_HEADS)?,
        kv_heads: size(c, "num_attention_groups", MAX_HEADS)?,
        head_dim: size(c, "head_dim", MAX_DIM)?,
    };
    Ok(Some((kind, heads)))
}

/// `moe_layers_enum`, a comma-separated string of 0-based layer indices;
/// absent, every layer but the first (vLLM `Step3p5DecoderLayer`).
fn moe_layers(r: &Reader, n: u64) -> Result<Vec<u64>, ConfigError> {
    const KEY: &str = "moe_layers_enum";
    let Some(text) = r.text(KEY)? else {
        return Ok((1..n).collect());
    };
    text.trim()
        .split(',')
        .map(|item| {
            item.trim()
                .parse::<u64>()
                .map_err(|_| ConfigError::wrong_type(KEY, "comma-separated layer indices"))
        })
        .collect()
}

/// Refuses the config branches vLLM's Step-3.5 code does not build.
fn check_branches(r: &Reader) -> Result<(), ConfigError> {
    if let Some(t) = r.text("att_impl_type")? {
        if t != "GQA" {
            return Err(ConfigError::unsupported(format!(
                "att_impl_type \"{t}\" in a step3p5 config: vLLM's Step-3.5 code builds GQA \
                 attention only"
            )));
        }
    }
    for key in ["use_moe_router_bias", "need_fp32_gate"] {
        if r.flag(key)? == Some(false) {
            return Err(ConfigError::unsupported(format!(
                "{key} false in a step3p5 config: vLLM's Step-3.5 code supports {key} true only"
            )));
        }
    }
    if r.flag("tie_word_embeddings")? == Some(true) {
        return Err(ConfigError::unsupported(
            "tie_word_embeddings true in a step3p5 config: vLLM's Step-3.5 code keeps a head \
             of its own"
                .to_string(),
        ));
    }
    Ok(())
}

/// The sizes of layer `i`: those of `attention_other_setting` where its
/// type is the layer's, else the model's.
fn layer_heads(s: &Shape, kind: Option<&str>, other: Option<(&str, Heads)>) -> Heads {
    match (kind, other) {
        (Some(k), Some((t, h))) if k == t => h,
        _ => Heads {
            heads: s.heads,
            kv_heads: s.kv_heads,
            head_dim: s.head_dim,
        },
    }
}

/// Layer `i` as vLLM builds it: sliding where `layer_types[i]` says so
/// (no list: the even layers), its heads, experts where `moe` lists it.
fn block(
    s: &Shape,
    i: u64,
    types: Option<&[&str]>,
    other: Option<(&str, Heads)>,
    moe: &[u64],
) -> Result<Block, ConfigError> {
    let kind = match types {
        Some(t) => Some(t.get(i as usize).copied().ok_or_else(|| {
            ConfigError::missing(vec![format!(
                "layer_types[{i}] (vLLM reads it for layer {i})"
            )])
        })?),
        None => None,
    };
    let sliding = match kind {
        Some("sliding_attention") => true,
        Some("full_attention") => false,
        Some(other) => {
            return Err(ConfigError::unsupported(format!(
                "layer type \"{other}\" in a step3p5 config: vLLM's Step-3.5 code builds \
                 full_attention and sliding_attention layers only"
            )))
        }
        None => i.is_multiple_of(2),
    };
    let h = layer_heads(s, kind, other);
    if h.kv_heads > h.heads || !h.heads.is_multiple_of(h.kv_heads) {
        return Err(ConfigError::contradictory(
            &[OTHER, "num_attention_groups"],
            format!(
                "layer {i}: {} key/value groups cannot be shared evenly by {} query heads",
                h.kv_heads, h.heads
            ),
        ));
    }
    let slot = match moe.contains(&i) {
        true => Slot::Moe,
        false => Slot::Dense,
    };
    let mixer = if sliding { Mixer::Sliding } else { Mixer::Full };
    Ok(Block {
        heads: Some(h.heads),
        kv_heads: Some(h.kv_heads),
        head_dim: (h.head_dim != s.head_dim).then_some(h.head_dim),
        ..Block::new(mixer, slot)
    })
}

fn step3p5(r: &Reader) -> Result<Blueprint, ConfigError> {
    check_branches(r)?;
    let rules = Rules {
        qkv_bias: flag(r, "attention_bias", false)?,
        qk_norm: QkNorm::Shared(Norm::Weight),
        head_gate: flag(r, "use_head_wise_attn_gate", false)?,
        ..Rules::LLAMA
    };
    let keys = Keys {
        kv_heads: &["num_attention_groups"],
        ..Keys::STANDARD
    };
    let mut s = shape(r, Family::Step3p7, &keys, rules)?;
    if s.kv_heads < 2 {
        return Err(ConfigError::unsupported(
            "num_attention_groups 1 in a step3p5 config: vLLM's Step-3.5 code asserts more \
             than one key/value group (\"Only support GQA\")"
                .to_string(),
        ));
    }
    let n = s.layers;
    let keys = MoeKeys {
        experts: &["moe_num_experts"],
        top_k: &["moe_top_k"],
        width: &["moe_intermediate_size"],
        shared: Shared::Width("share_expert_dim"),
        select: Select::All,
        score_bias_default: false,
        latent: false,
    };
    let mut moe = moe::read(r, &keys, n)?;
    let Some(m) = moe.as_mut() else {
        return Err(ConfigError::missing(vec!["moe_num_experts".to_string()]));
    };
    if !r.has(&["share_expert_dim"]) {
        return Err(ConfigError::missing(vec!["share_expert_dim".to_string()]));
    }
    // The router keeps `router_bias`, loaded as the score correction
    // (`FusedMoEBlock`); use_moe_router_bias false is refused above.
    m.score_bias = true;
    let listed = moe_layers(r, n)?;
    if let Some(out) = listed.iter().find(|i| **i >= n) {
        return Err(ConfigError::out_of_range("moe_layers_enum", *out));
    }
    m.selection = Selection::Listed(listed.clone());
    let types = r.text_list("layer_types")?;
    if let Some(t) = &types {
        if (t.len() as u64) < n {
            return Err(ConfigError::contradictory(
                &["layer_types", "num_hidden_layers"],
                format!(
                    "layer_types describes {} layers but num_hidden_layers is {n}",
                    t.len()
                ),
            ));
        }
    }
    let other = other_setting(r)?;
    let blocks = (0..n)
        .map(|i| block(&s, i, types.as_deref(), other, &listed))
        .collect::<Result<Vec<_>, _>>()?;
    // Each MTP step `i` is layer `L + i`: enorm, hnorm, eh_proj 2H → H, a
    // decoder layer of that index (its type from `layer_types[L + i]`, a
    // dense MLP unless `moe_layers_enum` lists it) and a shared head (norm
    // and a head V×H of its own); the embedding is the model's.
    s.mtp_layers = r
        .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
        .unwrap_or(0);
    if s.mtp_layers > 0 {
        let steps = (n..n.saturating_add(s.mtp_layers))
            .map(|i| block(&s, i, types.as_deref(), other, &listed))
            .collect::<Result<Vec<_>, _>>()?;
        s.mtp = Some(MtpLayout {
            vocab_matrices: 1,
            per_step: true,
            blocks: steps,
            extra: 0,
        });
    }
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

pub(super) const STEP3P5: Architecture = Architecture {
    family: Family::Step3p7,
    model_types: &["step3p5"],
    classes: &["Step3p5ForCausalLM"],
    source: "vLLM vllm/model_executor/models/step3p5.py (Step3p5Attention, Step3p5MLP, \
             FusedMoEBlock, Step3p5DecoderLayer, Step3p5ForCausalLM), step3p5_mtp.py \
             (Step3p5AMultiTokenPredictorLayer, SharedHead)",
    counts: "bias-free q/k/v/o with per-head q/k norms and a head-wise gate g_proj H_q×H \
             (use_head_wise_attn_gate); full and sliding layers from layer_types, the type \
             attention_other_setting names with its own heads, groups and head width; dense \
             MLPs of intermediate_size except on moe_layers_enum, where routed experts, one \
             shared expert of share_expert_dim and a router bias; untied head; \
             num_nextn_predict_layers MTP layers apart (enorm, hnorm, eh_proj, the decoder \
             layer of index L + i, a shared head with a head of its own)",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[
        "layer_types",
        "rope_theta",
        "partial_rotary_factors",
        "swiglu_limits",
        "swiglu_limits_shared",
        "use_rope_layers",
        "yarn_only_types",
        "moe_layers_enum",
    ],
    read: step3p5,
};
