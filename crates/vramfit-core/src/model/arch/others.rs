//! Llama-descended decoders whose norms or projections differ: OLMo
//! (non-parametric norms, post-norms, full-width q/k norms), Cohere
//! (one LayerNorm per parallel block), StableLM, Phi-3.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Mixer, Sizes};
use super::super::shape::{Keys, MAX_CONTEXT, MAX_LAYERS};
use super::llama::{flag, olmo2_rules, shape, window_everywhere};
use super::{dense_full, finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] =
    &[&OLMO, &OLMO2, &OLMO3, &COHERE, &COHERE2, &STABLELM, &PHI3];

pub(super) const OLMO: Architecture = Architecture {
    family: Family::Olmo,
    model_types: &["olmo"],
    classes: &["OlmoForCausalLM"],
    source: "transformers models/olmo (OlmoConfig, OlmoForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), gated MLP, LayerNorms without learned \
             parameters, head unless tied",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            norm: Norm::None,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        dense_full(shape(r, Family::Olmo, &Keys::STANDARD, rules)?)
    },
};

pub(super) const OLMO2: Architecture = Architecture {
    family: Family::Olmo2,
    model_types: &["olmo2"],
    classes: &["Olmo2ForCausalLM"],
    source: "transformers models/olmo2 (Olmo2Config, Olmo2ForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), full-width q/k RMSNorms, gated MLP, \
             RMSNorms after attention and after the MLP",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| dense_full(shape(r, Family::Olmo2, &Keys::STANDARD, olmo2_rules(r)?)?),
};

pub(super) const OLMO3: Architecture = Architecture {
    family: Family::Olmo3,
    model_types: &["olmo3"],
    classes: &["Olmo3ForCausalLM"],
    source: "transformers models/olmo3 (Olmo3Config, Olmo3ForCausalLM)",
    counts: "OLMo-2 layers; layer_types (default three sliding layers per full one, \
             sliding_window class default 4096)",
    defaults: &[("sliding_window", 4096)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let s = shape(r, Family::Olmo3, &Keys::STANDARD, olmo2_rules(r)?)?;
        let blocks = match layers::layer_types(r, &attention_types)? {
            Some(b) => b,
            None => layers::by_index(
                s.layers,
                |i| !(i + 1).is_multiple_of(4),
                Mixer::Sliding,
                Mixer::Full,
            ),
        };
        let sizes = Sizes {
            window: r.dim(&["sliding_window"], MAX_CONTEXT)?,
            chunk: None,
        };
        finish(s, None, blocks, "layer_types", sizes, None)
    },
};

/// Cohere: one LayerNorm (weight only) before parallel attention and MLP;
/// per-head q/k LayerNorms with `use_qk_norm`.
fn cohere_rules(r: &Reader) -> Result<Rules, ConfigError> {
    Ok(Rules {
        layer_norms: 1,
        tied_default: true,
        qk_norm: match flag(r, "use_qk_norm", false)? {
            true => QkNorm::PerHead,
            false => QkNorm::None,
        },
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    })
}

pub(super) const COHERE: Architecture = Architecture {
    family: Family::Cohere,
    model_types: &["cohere"],
    classes: &["CohereForCausalLM"],
    source: "transformers models/cohere (CohereConfig, CohereForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), per-head q/k norms with use_qk_norm, gated \
             MLP, one LayerNorm (no bias) per layer, tied by default",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| dense_full(shape(r, Family::Cohere, &Keys::STANDARD, cohere_rules(r)?)?),
};

pub(super) const COHERE2: Architecture = Architecture {
    family: Family::Cohere2,
    model_types: &["cohere2"],
    classes: &["Cohere2ForCausalLM"],
    source: "transformers models/cohere2 (Cohere2Config, Cohere2ForCausalLM)",
    counts: "Cohere layers with head_dim = hidden / heads; layer_types (or \
             sliding_window_pattern, default 4) give sliding and full layers",
    defaults: &[("sliding_window", 4096)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let keys = Keys {
            head_dim: &[],
            ..Keys::STANDARD
        };
        let rules = Rules {
            qk_norm: QkNorm::None,
            ..cohere_rules(r)?
        };
        let s = shape(r, Family::Cohere2, &keys, rules)?;
        let blocks = match layers::layer_types(r, &attention_types)? {
            Some(b) => b,
            None => {
                let every = r.dim(&["sliding_window_pattern"], MAX_LAYERS)?.unwrap_or(4);
                layers::by_index(
                    s.layers,
                    |i| !(i + 1).is_multiple_of(every),
                    Mixer::Sliding,
                    Mixer::Full,
                )
            }
        };
        let sizes = Sizes {
            window: r.dim(&["sliding_window"], MAX_CONTEXT)?,
            chunk: None,
        };
        finish(s, None, blocks, "layer_types", sizes, None)
    },
};

pub(super) const STABLELM: Architecture = Architecture {
    family: Family::StableLm,
    model_types: &["stablelm", "stablelm_epoch"],
    classes: &["StableLmForCausalLM", "StableLMEpochForCausalLM"],
    source: "transformers models/stablelm (StableLmConfig, StableLmForCausalLM); the original \
             checkpoint code (stablelm_epoch: norm_eps and rope_pct for the same tensors; vLLM \
             stablelm.py reads both names)",
    counts: "q/k/v biases with use_qkv_bias, bias-free o and gated MLP, LayerNorms with bias \
             (one per layer with use_parallel_residual), per-head q/k LayerNorms with \
             qk_layernorm",
    defaults: &[("num_key_value_heads", 32)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            head_dim: &[],
            ..Keys::STANDARD
        };
        let rules = Rules {
            qkv_bias: flag(r, "use_qkv_bias", false)?,
            norm: Norm::WeightBias,
            layer_norms: match flag(r, "use_parallel_residual", false)? {
                true => 1,
                false => 2,
            },
            qk_norm: match flag(r, "qk_layernorm", false)? {
                true => QkNorm::PerHead,
                false => QkNorm::None,
            },
            ..Rules::LLAMA
        };
        dense_full(shape(r, Family::StableLm, &keys, rules)?)
    },
};

pub(super) const PHI3: Architecture = Architecture {
    family: Family::Phi3,
    model_types: &["phi3"],
    classes: &["Phi3ForCausalLM"],
    source: "transformers models/phi3 (Phi3Config, Phi3ForCausalLM)",
    counts: "bias-free fused qkv_proj and gate_up_proj, 2 RMSNorms per layer, head unless \
             tied; sliding_window on every layer when set",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            fused_qkv: true,
            fused_gate_up: true,
            ..Rules::LLAMA
        };
        let s = shape(r, Family::Phi3, &Keys::STANDARD, rules)?;
        phi3_window(r, s)
    },
};

fn phi3_window(r: &Reader, s: super::super::shape::Shape) -> Result<Blueprint, ConfigError> {
    window_everywhere(r, s)
}
