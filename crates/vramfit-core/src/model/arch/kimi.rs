//! Kimi-Linear: Kimi Delta Attention layers (a gated delta rule with a
//! per-channel forget gate) mixed with multi-head latent attention layers,
//! DeepSeek-style experts after `first_k_dense_replace`.
//!
//! The checkpoint ships its own code (`configuration_kimi.py`,
//! `modeling_kimi.py`; `transformers` has no `kimi_linear`); vLLM's
//! `models/kimi_linear.py` loads it. Kimi-K3's text model shares the
//! `model_type` but adds attention residuals, a gated MLA output, latent
//! experts and the SiTU activation: a config with those keys is refused.

use super::super::error::ConfigError;
use super::super::family::{Family, Rules};
use super::super::json::{as_uint, Reader};
use super::super::layers::{Block, Mixer, Sizes, Slot};
use super::super::mixer::LinearMixer;
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, MAX_DIM, MAX_HEADS};
use super::llama::shape;
use super::{finish, Architecture, Blueprint};
use serde_json::Value;

pub(super) const ALL: &[&Architecture] = &[&KIMI_LINEAR];

/// Keys of Kimi-K3's text model that change its tensors (a
/// `kimi_linear` config with any of them is not Kimi-Linear's layout).
const K3_KEYS: [&str; 5] = [
    "routed_expert_hidden_size",
    "attn_res_block_size",
    "mla_use_output_gate",
    "latent_moe_use_norm",
    "activation_situ_beta",
];

/// The KDA sizes and the 1-based layer lists of `linear_attn_config`.
fn kda(r: &Reader, n: u64) -> Result<Option<(LinearMixer, Vec<Block>)>, ConfigError> {
    const KEY: &str = "linear_attn_config";
    let Some(c) = r.object(KEY)? else {
        return Ok(None);
    };
    let size = |name: &str, max: u64| -> Result<u64, ConfigError> {
        let key = format!("{KEY}.{name}");
        let v = c
            .get(name)
            .filter(|v| !v.is_null())
            .ok_or_else(|| ConfigError::missing(vec![key.clone()]))?;
        let v = as_uint(&key, v)?;
        match v {
            0 => Err(ConfigError::out_of_range(&key, v)),
            v if v > max => Err(ConfigError::out_of_range(&key, v)),
            v => Ok(v),
        }
    };
    let mixer = LinearMixer::KimiDelta {
        heads: size("num_heads", MAX_HEADS)?,
        head_dim: size("head_dim", MAX_DIM)?,
        conv_kernel: size("short_conv_kernel_size", MAX_DIM)?,
    };
    let list = |name: &str| -> Result<Vec<u64>, ConfigError> {
        let key = format!("{KEY}.{name}");
        match c.get(name) {
            Some(Value::Array(items)) => items.iter().map(|v| as_uint(&key, v)).collect(),
            None | Some(Value::Null) => Err(ConfigError::missing(vec![key])),
            Some(_) => Err(ConfigError::wrong_type(KEY, "object of lists")),
        }
    };
    let (linear, full) = (list("kda_layers")?, list("full_attn_layers")?);
    let blocks = (1..=n)
        .map(
            |layer| match (linear.contains(&layer), full.contains(&layer)) {
                (true, false) => Ok(Block::new(Mixer::Linear, Slot::Auto)),
                (false, true) => Ok(Block::new(Mixer::Full, Slot::Auto)),
                (both, _) => Err(ConfigError::contradictory(
                    &[
                        "linear_attn_config.kda_layers",
                        "linear_attn_config.full_attn_layers",
                    ],
                    format!(
                        "layer {layer} (1-based) is {}",
                        if both {
                            "in both lists"
                        } else {
                            "in neither list"
                        }
                    ),
                )),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(extra) = linear.iter().chain(&full).find(|l| **l == 0 || **l > n) {
        return Err(ConfigError::out_of_range(
            "linear_attn_config.kda_layers",
            *extra,
        ));
    }
    Ok(Some((mixer, blocks)))
}

fn kimi_linear(r: &Reader) -> Result<Blueprint, ConfigError> {
    if let Some(key) = K3_KEYS.iter().find(|k| r.get(k).is_some()) {
        return Err(ConfigError::unsupported(format!(
            "a kimi_linear config with `{key}` is Kimi-K3's text model (attention residuals, \
             gated latent attention, latent experts), which vramfit does not read"
        )));
    }
    let keys = Keys {
        head_dim: &[],
        ..Keys::STANDARD
    };
    let s = shape(r, Family::KimiLinear, &keys, Rules::LLAMA)?;
    if s.mla.is_none() {
        return Err(ConfigError::missing(vec!["kv_lora_rank".to_string()]));
    }
    let moe_keys = MoeKeys {
        experts: &["num_experts"],
        top_k: &["num_experts_per_token"],
        width: &["moe_intermediate_size"],
        shared: Shared::Count("num_shared_experts"),
        select: Select::FirstDense,
        score_bias_default: true,
        latent: false,
    };
    let mut moe = moe::read(r, &moe_keys, s.layers)?;
    // The router keeps `e_score_correction_bias` (vLLM `KimiMoE`; stored
    // in the checkpoint).
    if let Some(m) = moe.as_mut() {
        m.score_bias = true;
    }
    let (mixer, blocks, key) = match kda(r, s.layers)? {
        Some((mixer, blocks)) => (Some(mixer), blocks, "linear_attn_config"),
        None => (
            None,
            super::super::layers::uniform(s.layers, Mixer::Full),
            "num_hidden_layers",
        ),
    };
    finish(s, moe, blocks, key, Sizes::default(), mixer)
}

pub(super) const KIMI_LINEAR: Architecture = Architecture {
    family: Family::KimiLinear,
    model_types: &["kimi_linear"],
    classes: &["KimiLinearForCausalLM"],
    source: "moonshotai/Kimi-Linear-48B-A3B checkpoint code (KimiLinearConfig); vLLM \
             models/kimi_linear.py (KimiDeltaAttention, KimiMLAAttention, KimiMoE)",
    counts: "Kimi Delta Attention layers (q/k/v with short convolutions, low-rank forget and \
             output gates, b, A_log, dt_bias, o_norm, o) on linear_attn_config.kda_layers, \
             latent attention (q or q_a/q_b, kv_a, kv_b, o) on full_attn_layers, dense MLP \
             before first_k_dense_replace, experts with fused shared experts and a score bias \
             after; a config with Kimi-K3's keys is refused",
    defaults: &[
        ("hidden_size", 4096),
        ("intermediate_size", 11008),
        ("num_hidden_layers", 32),
        ("num_attention_heads", 32),
        ("vocab_size", 163_840),
    ],
    nested_defaults: &[],
    layer_keys: &[],
    read: kimi_linear,
};
