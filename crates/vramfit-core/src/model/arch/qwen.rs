//! Qwen: the first generation (checkpoint code) and the Qwen2 / Qwen3
//! dense and MoE decoders (with their vision-language text models).

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Block, Mixer, Sizes};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, Shape, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{dense_full, finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[
    &QWEN,
    &QWEN2,
    &QWEN2_MOE,
    &QWEN3,
    &QWEN3_MOE,
    &QWEN2_VL_TEXT,
    &QWEN3_VL_TEXT,
    &QWEN3_VL_MOE_TEXT,
];

/// Qwen (first generation, `QWenLMHeadModel`): `c_attn` q/k/v fused with
/// bias, `c_proj` without (`no_bias`), and an MLP `w1`, `w2`, `c_proj` whose
/// two input halves are each `intermediate_size / 2` wide: the config's
/// `intermediate_size` counts both.
pub(super) const QWEN: Architecture = Architecture {
    family: Family::Qwen,
    model_types: &["qwen"],
    classes: &["QWenLMHeadModel"],
    source: "Qwen/Qwen-7B modeling_qwen.py (checkpoint code; vLLM qwen.py)",
    counts: "fused c_attn with bias, bias-free c_proj, gated MLP of intermediate_size / 2 \
             (the config counts both halves), 2 RMSNorms per layer, untied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            head_dim: &["kv_channels"],
            context: &["max_position_embeddings", "seq_length"],
            kv_heads: &[],
            ..Keys::STANDARD
        };
        let no_bias = flag(r, "no_bias", true)?;
        let rules = Rules {
            qkv_bias: true,
            o_bias: !no_bias,
            mlp_bias: !no_bias,
            fused_qkv: true,
            ..Rules::LLAMA
        };
        let mut s = shape(r, Family::Qwen, &keys, rules)?;
        s.intermediate = Some(s.need_intermediate("intermediate_size")? / 2);
        dense_full(s)
    },
};

/// Qwen2-style layers: `layer_types` when written, else sliding layers
/// from `max_window_layers` on when `use_sliding_window` is set.
fn qwen2_layers(r: &Reader, s: &Shape) -> Result<(Vec<Block>, Sizes), ConfigError> {
    let window = layers::window(r, "sliding_window", true)?;
    let sizes = Sizes {
        window,
        chunk: None,
    };
    if let Some(blocks) = layers::layer_types(r, &attention_types)? {
        return Ok((blocks, sizes));
    }
    let first = r.count(&["max_window_layers"], MAX_LAYERS)?.unwrap_or(28);
    let sliding = |i: u64| window.is_some() && i >= first;
    Ok((
        layers::by_index(s.layers, sliding, Mixer::Sliding, Mixer::Full),
        sizes,
    ))
}

pub(super) fn qwen2(r: &Reader, family: Family) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        qkv_bias: true,
        ..Rules::LLAMA
    };
    let s = shape(r, family, &Keys::STANDARD, rules)?;
    let (blocks, sizes) = qwen2_layers(r, &s)?;
    finish(s, None, blocks, "layer_types", sizes, None)
}

pub(super) const QWEN2: Architecture = Architecture {
    family: Family::Qwen2,
    model_types: &["qwen2"],
    classes: &["Qwen2ForCausalLM"],
    source: "transformers models/qwen2 (Qwen2Config, Qwen2ForCausalLM)",
    counts: "q/k/v with biases, bias-free o and gated MLP, 2 RMSNorms per layer; sliding \
             layers only with use_sliding_window (from max_window_layers on)",
    defaults: &[("num_key_value_heads", 32)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| qwen2(r, Family::Qwen2),
};

/// The text model of Qwen2-VL and Qwen2.5-VL: Qwen2's layers (with
/// multimodal rotary sections, which hold no weights).
pub(super) const QWEN2_VL_TEXT: Architecture = Architecture {
    family: Family::Qwen2,
    model_types: &["qwen2_vl_text", "qwen2_5_vl_text"],
    classes: &[],
    source: "transformers models/qwen2_vl, qwen2_5_vl (Qwen2VLTextConfig, Qwen2VLTextModel)",
    counts: "Qwen2's text layers (vision tower not counted here)",
    defaults: &[("num_key_value_heads", 32)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| qwen2(r, Family::Qwen2),
};

/// Qwen-MoE experts: `num_experts`, `moe_intermediate_size`, routed where
/// `decoder_sparse_step` and `mlp_only_layers` say.
const QWEN_MOE_KEYS: MoeKeys = MoeKeys {
    experts: &["num_experts", "num_local_experts"],
    top_k: &["num_experts_per_tok"],
    width: &["moe_intermediate_size"],
    shared: Shared::None,
    select: Select::SparseStep,
    score_bias_default: false,
    latent: false,
};

pub(super) const QWEN2_MOE: Architecture = Architecture {
    family: Family::Qwen2Moe,
    model_types: &["qwen2_moe"],
    classes: &["Qwen2MoeForCausalLM"],
    source: "transformers models/qwen2_moe (Qwen2MoeConfig, Qwen2MoeForCausalLM)",
    counts: "q/k/v biases (qkv_bias, default on), experts plus a gated shared expert with \
             its sigmoid gate, dense MLP on mlp_only_layers, 2 RMSNorms per layer",
    defaults: &[
        ("num_key_value_heads", 16),
        ("moe_intermediate_size", 1408),
        ("shared_expert_intermediate_size", 5632),
        ("num_experts_per_tok", 4),
        ("num_experts", 60),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types", "mlp_only_layers"],
    read: |r| {
        let rules = Rules {
            qkv_bias: flag(r, "qkv_bias", true)?,
            shared_expert_gate: true,
            ..Rules::LLAMA
        };
        let s = shape(r, Family::Qwen2Moe, &Keys::STANDARD, rules)?;
        let keys = MoeKeys {
            shared: Shared::Width("shared_expert_intermediate_size"),
            ..QWEN_MOE_KEYS
        };
        let moe = moe::read(r, &keys, s.layers)?;
        let window = layers::window(r, "sliding_window", true)?;
        let blocks = match layers::layer_types(r, &attention_types)? {
            Some(b) => b,
            None => {
                let last = r.count(&["max_window_layers"], MAX_LAYERS)?.unwrap_or(28);
                let sliding = |i: u64| window.is_some() && !(i + 1).is_multiple_of(2) && i < last;
                layers::by_index(s.layers, sliding, Mixer::Sliding, Mixer::Full)
            }
        };
        let sizes = Sizes {
            window,
            chunk: None,
        };
        finish(s, moe, blocks, "layer_types", sizes, None)
    },
};

fn qwen3_rules(r: &Reader) -> Result<Rules, ConfigError> {
    Ok(Rules {
        qk_norm: QkNorm::Shared(Norm::Weight),
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    })
}

fn qwen3(r: &Reader, family: Family) -> Result<Blueprint, ConfigError> {
    let s = shape(r, family, &Keys::STANDARD, qwen3_rules(r)?)?;
    let (blocks, sizes) = qwen2_layers(r, &s)?;
    finish(s, None, blocks, "layer_types", sizes, None)
}

pub(super) const QWEN3: Architecture = Architecture {
    family: Family::Qwen3,
    model_types: &["qwen3"],
    classes: &["Qwen3ForCausalLM"],
    source: "transformers models/qwen3 (Qwen3Config, Qwen3ForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), per-head RMSNorms on q and k, gated MLP, \
             2 RMSNorms per layer; head_dim class default 128",
    defaults: &[("num_key_value_heads", 32), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| qwen3(r, Family::Qwen3),
};

/// The text model of Qwen3-VL: Qwen3's layers.
pub(super) const QWEN3_VL_TEXT: Architecture = Architecture {
    family: Family::Qwen3,
    model_types: &["qwen3_vl_text"],
    classes: &[],
    source: "transformers models/qwen3_vl (Qwen3VLTextConfig, Qwen3VLTextModel)",
    counts: "Qwen3's text layers (vision tower not counted here)",
    defaults: &[("num_key_value_heads", 8), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| qwen3(r, Family::Qwen3),
};

fn qwen3_moe(r: &Reader, family: Family) -> Result<Blueprint, ConfigError> {
    let s = shape(r, family, &Keys::STANDARD, qwen3_rules(r)?)?;
    let moe = moe::read(r, &QWEN_MOE_KEYS, s.layers)?;
    let window = layers::window(r, "sliding_window", true)?;
    let blocks = layers::uniform(s.layers, Mixer::Sliding);
    let sizes = Sizes {
        window,
        chunk: None,
    };
    finish(s, moe, blocks, "num_hidden_layers", sizes, None)
}

pub(super) const QWEN3_MOE: Architecture = Architecture {
    family: Family::Qwen3Moe,
    model_types: &["qwen3_moe"],
    classes: &["Qwen3MoeForCausalLM"],
    source: "transformers models/qwen3_moe (Qwen3MoeConfig, Qwen3MoeForCausalLM)",
    counts: "Qwen3 attention, experts on the layers decoder_sparse_step selects (dense MLP \
             on mlp_only_layers), bias-free router, 2 RMSNorms per layer",
    defaults: &[
        ("num_key_value_heads", 4),
        ("moe_intermediate_size", 768),
        ("num_experts_per_tok", 8),
        ("num_experts", 128),
    ],
    nested_defaults: &[],
    layer_keys: &["mlp_only_layers"],
    read: |r| qwen3_moe(r, Family::Qwen3Moe),
};

/// The text model of Qwen3-VL-MoE: Qwen3-MoE's layers.
pub(super) const QWEN3_VL_MOE_TEXT: Architecture = Architecture {
    family: Family::Qwen3Moe,
    model_types: &["qwen3_vl_moe_text"],
    classes: &[],
    source: "transformers models/qwen3_vl_moe (Qwen3VLMoeTextConfig, Qwen3VLMoeTextModel)",
    counts: "Qwen3-MoE's text layers (vision tower not counted here)",
    defaults: &[
        ("num_key_value_heads", 16),
        ("moe_intermediate_size", 1408),
        ("num_experts_per_tok", 4),
        ("num_experts", 60),
    ],
    nested_defaults: &[],
    layer_keys: &["mlp_only_layers"],
    read: |r| qwen3_moe(r, Family::Qwen3Moe),
};
