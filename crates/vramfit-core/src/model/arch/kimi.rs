//! Kimi-Linear: Kimi Delta Attention layers (a gated delta rule with a
//! per-channel forget gate) mixed with multi-head latent attention layers,
//! DeepSeek-style experts after `first_k_dense_replace`.
//!
//! The checkpoint ships its own code (`configuration_kimi.py`,
//! `modeling_kimi.py`; `transformers` has no `kimi_linear`); vLLM's
//! `models/kimi_linear.py` loads it. Kimi-K3's text model shares the
//! `model_type` and adds attention residuals, a gated MLA output, a
//! full-rank KDA output gate and latent experts ([`KimiK3Parts`]), read
//! from SGLang's `models/kimi_k3.py`.

use super::super::error::ConfigError;
use super::super::family::{Family, Rules};
use super::super::json::{as_uint, Reader};
use super::super::layers::{Block, Mixer, Sizes, Slot};
use super::super::mixer::LinearMixer;
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, KimiK3Parts, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::shape;
use super::{finish, Architecture, Blueprint};
use serde_json::Value;

pub(super) const ALL: &[&Architecture] = &[&KIMI_LINEAR];

/// Keys of Kimi-K3's text model (SGLang `KimiLinearConfig`, defaults
/// `None`/`False`): a `kimi_linear` config with any of them is read with
/// Kimi-K3's parts ([`k3_parts`]). The SiTU activation's two constants
/// change no tensor.
const K3_KEYS: [&str; 6] = [
    "routed_expert_hidden_size",
    "attn_res_block_size",
    "mla_use_output_gate",
    "latent_moe_use_norm",
    "activation_situ_beta",
    "activation_situ_linear_beta",
];

/// Kimi-K3's parts, where the config has any of its keys.
///
/// # Formula
///
/// Per layer and model-wide, beyond Kimi-Linear's tensors:
///
/// ```text
/// every layer     4H                         attention residuals (attn_res_block_size set)
/// MLA layer       H_q·d_v·H                  output gate g_proj (mla_use_output_gate)
/// KDA layer       h·d·H − (d·H + h·d·d)      g_proj for g_a, g_b (use_full_rank_gate)
///                 + d − h                    A_log stored as [d]
/// MoE layer       experts in r: E·3·I_e·(r − H), + 2·r·H (+ r with latent_moe_use_norm)
/// model           2H                         output_attn_res_norm, output_attn_res_proj
/// ```
///
/// Symbols: `H` `hidden_size`, `H_q` `num_attention_heads`, `d_v`
/// `v_head_dim`, `h`/`d` `linear_attn_config.num_heads`/`head_dim`, `E`
/// `num_experts`, `I_e` `moe_intermediate_size`, `r`
/// `routed_expert_hidden_size`. The KV cache is Kimi-Linear's: `r_kv +
/// d_rope` per token in each MLA layer, a fixed state per sequence in each
/// KDA layer (`h·d·d + 3·h·d·(K − 1)`; SGLang `KimiLinearStateShape`);
/// the attention residuals keep no cache (the block bank lives for one
/// forward pass).
///
/// Source: SGLang `python/sglang/srt/models/kimi_k3.py` @ 0000e9b4
/// (`KimiK3MLP`, `KimiK3MoE`, `KimiK3DeltaAttention`, `KimiK3MLAAttention`,
/// `KimiK3DecoderLayer`, `KimiK3LinearModel`), `configs/kimi_linear.py` @
/// 008b79d2 (the keys' defaults).
///
/// Worked example (moonshotai/Kimi-K3: `H` 7168, 93 layers of which 24 MLA
/// and 69 KDA, 92 MoE layers of 896 experts, `r` 3584): a KDA layer
/// 443,740,416, an MLA layer 232,196,096, a MoE block 29,784,936,832; the
/// text model 2,779,484,478,208 parameters, 105,364,019,968 active per
/// token; KV 2 · 24 · 576 = 27,648 bytes per token at bf16.
fn k3_parts(r: &Reader) -> Result<Option<KimiK3Parts>, ConfigError> {
    let full_rank_gate = match r.object("linear_attn_config")? {
        Some(c) => match c.get("use_full_rank_gate") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(ConfigError::wrong_type(
                    "linear_attn_config.use_full_rank_gate",
                    "boolean",
                ))
            }
        },
        None => false,
    };
    if !full_rank_gate && !K3_KEYS.iter().any(|k| r.get(k).is_some()) {
        return Ok(None);
    }
    Ok(Some(KimiK3Parts {
        attn_residuals: r.dim(&["attn_res_block_size"], MAX_LAYERS)?.is_some(),
        mla_output_gate: r.flag("mla_use_output_gate")?.unwrap_or(false),
        full_rank_gate,
        latent_norm: r.flag("latent_moe_use_norm")?.unwrap_or(false),
    }))
}

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
    let k3 = k3_parts(r)?;
    let keys = Keys {
        head_dim: &[],
        ..Keys::STANDARD
    };
    let mut s = shape(r, Family::KimiLinear, &keys, Rules::LLAMA)?;
    let Some(mla) = s.mla else {
        return Err(ConfigError::missing(vec!["kv_lora_rank".to_string()]));
    };
    s.kimi_k3 = k3;
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
        // Kimi-K3's routed experts work in `routed_expert_hidden_size`
        // (SGLang `KimiK3MoE`: `moe_hidden_size`).
        if k3.is_some() {
            m.latent = r.dim(&["routed_expert_hidden_size"], MAX_DIM)?;
        }
    }
    let delta = kda(r, s.layers)?;
    if let (Some(_), Some((LinearMixer::KimiDelta { head_dim, .. }, _))) = (k3, &delta) {
        // SGLang's fused K3 projection sizes v as `h·d`, its unfused one
        // as `h·v_head_dim`: the code agrees with itself only when equal.
        if mla.v_head_dim != *head_dim {
            return Err(ConfigError::contradictory(
                &["v_head_dim", "linear_attn_config.head_dim"],
                format!(
                    "Kimi-K3's delta-attention values are {head_dim} wide in one SGLang path \
                     and v_head_dim = {} in the other; vramfit reads only configs where they agree",
                    mla.v_head_dim
                ),
            ));
        }
    }
    let (mixer, blocks, key) = match delta {
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
             models/kimi_linear.py (KimiDeltaAttention, KimiMLAAttention, KimiMoE); Kimi-K3's \
             parts: SGLang models/kimi_k3.py @ 0000e9b4 (KimiK3DeltaAttention, \
             KimiK3MLAAttention, KimiK3MoE, KimiK3DecoderLayer)",
    counts: "Kimi Delta Attention layers (q/k/v with short convolutions, low-rank forget and \
             output gates, b, A_log, dt_bias, o_norm, o) on linear_attn_config.kda_layers, \
             latent attention (q or q_a/q_b, kv_a, kv_b, o) on full_attn_layers, dense MLP \
             before first_k_dense_replace, experts with fused shared experts and a score bias \
             after; with Kimi-K3's keys also attention residuals (two norms and two 1×H score \
             projections per layer, one of each at the output), the MLA output gate g_proj, the \
             full-rank KDA gate g_proj, A_log of head_dim, and latent experts in \
             routed_expert_hidden_size (down/up projections, latent_moe_use_norm)",
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
