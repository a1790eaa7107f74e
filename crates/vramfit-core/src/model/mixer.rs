//! Linear-attention, state-space and short-convolution token mixers: layers
//! whose cache is a fixed-size state per sequence instead of one entry per
//! token. Each reader says under which names its config class keeps their
//! sizes.

use super::error::ConfigError;
use super::json::Reader;
use super::shape::{Missing, MAX_DIM, MAX_HEADS};
use serde::Serialize;

/// The recurrent mixer of a model's linear-attention / Mamba layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LinearMixer {
    /// Gated DeltaNet (Qwen3-Next, Qwen3.5 `linear_attention` layers).
    GatedDeltaNet {
        key_heads: u64,
        value_heads: u64,
        key_head_dim: u64,
        value_head_dim: u64,
        conv_kernel: u64,
    },
    /// Mamba-2 (Nemotron-H `M` layers, `mamba2`, Falcon-H1, Granite-4).
    Mamba2 {
        heads: u64,
        head_dim: u64,
        state_size: u64,
        groups: u64,
        conv_kernel: u64,
        conv_bias: bool,
        proj_bias: bool,
        /// Bias on the output projection (Falcon-H1 `projectors_bias`).
        out_bias: bool,
        /// A gated RMSNorm of the inner width before the output.
        norm: bool,
    },
    /// Mamba (selective SSM; `mamba`, Jamba's Mamba layers).
    Mamba {
        inner: u64,
        state_size: u64,
        conv_kernel: u64,
        dt_rank: u64,
        conv_bias: bool,
        proj_bias: bool,
        /// Jamba normalizes Δ, B and C (three extra norm vectors).
        dt_norms: bool,
    },
    /// Gated short convolution (LFM2 `conv` layers): `in_proj H → 3H`, a
    /// depthwise convolution of `kernel` taps, `out_proj H → H`.
    ShortConv {
        channels: u64,
        kernel: u64,
        bias: bool,
    },
    /// Lightning (linear) attention (MiniMax-Text-01 `linear_attention`
    /// layers): a state of `head_dim × head_dim` per head; `block` is the
    /// block size of its stored decay buffers (`block_size`).
    Lightning {
        heads: u64,
        head_dim: u64,
        block: u64,
    },
    /// Kimi Delta Attention (Kimi-Linear `kda_layers`): a gated delta rule
    /// with a per-channel forget gate, `heads` heads of `head_dim` for
    /// queries, keys and values alike, short convolutions of
    /// `conv_kernel` taps on each.
    KimiDelta {
        heads: u64,
        head_dim: u64,
        conv_kernel: u64,
    },
    /// RWKV-5 "Eagle" (`rwkv5`): time mixing with `heads` heads of
    /// `head_size` (a `head_size × head_size` state per head) and squared-
    /// ReLU channel mixing of width `intermediate`, both in the mixer.
    /// `wkv_scale`: checkpoint-dtype elements per element of the wkv state,
    /// which the engines hold in float32 whatever the weights' dtype
    /// (`32 / bits`: 2 for bfloat16 weights).
    Rwkv5 {
        heads: u64,
        head_size: u64,
        intermediate: u64,
        wkv_scale: u64,
    },
}

impl LinearMixer {
    /// State elements one sequence keeps in one such layer, whatever its
    /// length: the recurrent state plus the causal-convolution window.
    ///
    /// ```text
    /// Gated DeltaNet: H_v·d_k·d_v + (2·H_k·d_k + H_v·d_v)·(K − 1)
    /// Mamba-2:        H·P·N + (H·P + 2·G·N)·(K − 1)
    /// Mamba:          D_in·N + D_in·(K − 1)
    /// short conv:     C·(K − 1)
    /// lightning:      H·d·d
    /// Kimi delta:     h·d·d + 3·h·d·(K − 1)
    /// RWKV-5:         2·h·d + h·d·d·w
    /// ```
    ///
    /// Symbols: `H_k`/`H_v` key/value heads and `d_k`/`d_v` their widths,
    /// `H` SSM heads of width `P`, `N` state size, `G` groups, `D_in` inner
    /// width, `K` convolution kernel, `C` channels, `d` head width. The
    /// convolution keeps the last `K − 1` inputs (as vLLM's state cache
    /// does). Sources: `transformers` `Qwen3NextGatedDeltaNet`,
    /// `NemotronHMamba2Mixer`, `MambaMixer`, `Lfm2ShortConv`,
    /// `MiniMaxLightningAttention`; vLLM `models/kimi_linear.py`
    /// (`KimiDeltaAttention`: a `h × d × d` state and three convolution
    /// windows, for q, k and v). RWKV-5 keeps per layer the last token's
    /// input to time mixing and to channel mixing (`h·d` each, the model
    /// width, at the weights' dtype) and the wkv state `h·d·d` in float32,
    /// counted as `w` checkpoint-dtype elements each (mlc-llm
    /// `python/mlc_llm/model/rwkv5/rwkv5_model.py`, `create_rnn_state`:
    /// `ATT_X`, `ATT_KV` float32, `FFN_X`).
    pub fn state_elements(&self) -> u64 {
        let conv_window = |k: u64| k.saturating_sub(1);
        match *self {
            LinearMixer::GatedDeltaNet {
                key_heads,
                value_heads,
                key_head_dim,
                value_head_dim,
                conv_kernel,
            } => {
                let recurrent = mul(&[value_heads, key_head_dim, value_head_dim]);
                let channels = mul(&[2, key_heads, key_head_dim])
                    .saturating_add(mul(&[value_heads, value_head_dim]));
                recurrent.saturating_add(mul(&[channels, conv_window(conv_kernel)]))
            }
            LinearMixer::Mamba2 {
                heads,
                head_dim,
                state_size,
                groups,
                conv_kernel,
                ..
            } => {
                let inner = mul(&[heads, head_dim]);
                let channels = inner.saturating_add(mul(&[2, groups, state_size]));
                mul(&[inner, state_size]).saturating_add(mul(&[channels, conv_window(conv_kernel)]))
            }
            LinearMixer::Mamba {
                inner,
                state_size,
                conv_kernel,
                ..
            } => mul(&[inner, state_size]).saturating_add(mul(&[inner, conv_window(conv_kernel)])),
            LinearMixer::ShortConv {
                channels, kernel, ..
            } => mul(&[channels, conv_window(kernel)]),
            LinearMixer::Lightning {
                heads, head_dim, ..
            } => mul(&[heads, head_dim, head_dim]),
            LinearMixer::KimiDelta {
                heads,
                head_dim,
                conv_kernel,
            } => mul(&[heads, head_dim, head_dim]).saturating_add(mul(&[
                3,
                heads,
                head_dim,
                conv_window(conv_kernel),
            ])),
            LinearMixer::Rwkv5 {
                heads,
                head_size,
                wkv_scale,
                ..
            } => mul(&[2, heads, head_size])
                .saturating_add(mul(&[heads, head_size, head_size, wkv_scale])),
        }
    }
}

/// Saturating product.
pub(crate) fn mul(factors: &[u64]) -> u64 {
    factors.iter().fold(1u64, |acc, f| acc.saturating_mul(*f))
}

/// Gated DeltaNet sizes under Qwen3-Next's names (`linear_*`).
pub(crate) fn gated_delta_net(r: &Reader) -> Result<LinearMixer, ConfigError> {
    let key_heads = r.dim(&["linear_num_key_heads"], MAX_HEADS)?;
    let value_heads = r.dim(&["linear_num_value_heads"], MAX_HEADS)?;
    let key_head_dim = r.dim(&["linear_key_head_dim"], MAX_DIM)?;
    let value_head_dim = r.dim(&["linear_value_head_dim"], MAX_DIM)?;
    let mut missing = Missing::default();
    let mixer = LinearMixer::GatedDeltaNet {
        key_heads: missing.need(key_heads, "linear_num_key_heads"),
        value_heads: missing.need(value_heads, "linear_num_value_heads"),
        key_head_dim: missing.need(key_head_dim, "linear_key_head_dim"),
        value_head_dim: missing.need(value_head_dim, "linear_value_head_dim"),
        conv_kernel: r.dim(&["linear_conv_kernel_dim"], MAX_DIM)?.unwrap_or(4),
    };
    missing.check()?;
    Ok(mixer)
}

/// The names (and class defaults) of a Mamba-2 mixer's sizes.
pub(crate) struct Mamba2Keys {
    pub heads: &'static str,
    pub head_dim: &'static str,
    pub state: &'static str,
    pub groups: &'static str,
    pub conv: &'static str,
    pub expand: &'static str,
    pub conv_bias: &'static str,
    pub proj_bias: &'static str,
    /// Inner width written directly (Falcon-H1 `mamba_d_ssm`).
    pub inner: Option<&'static str>,
    /// Defaults: head width, state size, groups.
    pub default_head_dim: u64,
    pub default_state: u64,
    pub default_groups: u64,
}

/// Mamba-2 sizes: `heads` written or `expand · H / head_dim` (or
/// `inner / head_dim`).
pub(crate) fn mamba2(
    r: &Reader,
    hidden: u64,
    keys: &Mamba2Keys,
    out_bias: bool,
    norm: bool,
) -> Result<LinearMixer, ConfigError> {
    let inner = match keys.inner {
        Some(key) => r.dim(&[key], MAX_DIM)?,
        None => None,
    };
    let inner = match inner {
        Some(w) => w,
        None => mul(&[r.dim(&[keys.expand], MAX_HEADS)?.unwrap_or(2), hidden]),
    };
    let heads = r.dim(&[keys.heads], MAX_HEADS)?;
    let head_dim = match r.get(keys.head_dim) {
        Some(v) if v.is_string() => None, // "auto": inner / heads
        _ => r.dim(&[keys.head_dim], MAX_DIM)?,
    };
    let (heads, head_dim) = match (heads, head_dim) {
        (Some(h), Some(d)) => (h, d),
        (Some(h), None) => (h, inner / h.max(1)),
        (None, d) => {
            let d = d.unwrap_or(keys.default_head_dim).max(1);
            (inner / d, d)
        }
    };
    Ok(LinearMixer::Mamba2 {
        heads,
        head_dim,
        state_size: r.dim(&[keys.state], MAX_DIM)?.unwrap_or(keys.default_state),
        groups: r
            .dim(&[keys.groups], MAX_HEADS)?
            .unwrap_or(keys.default_groups),
        conv_kernel: r.dim(&[keys.conv], MAX_DIM)?.unwrap_or(4),
        conv_bias: r.flag(keys.conv_bias)?.unwrap_or(true),
        proj_bias: r.flag(keys.proj_bias)?.unwrap_or(false),
        out_bias,
        norm,
    })
}

/// The names of a Mamba mixer's sizes.
pub(crate) struct MambaKeys {
    pub expand: &'static str,
    pub inner: Option<&'static str>,
    pub state: &'static str,
    pub conv: &'static str,
    pub dt_rank: &'static str,
    pub conv_bias: &'static str,
    pub proj_bias: &'static str,
    pub dt_norms: bool,
}

/// Mamba sizes: inner width `expand · H` (or written), `dt_rank` written
/// or `"auto"` = ⌈H / 16⌉.
pub(crate) fn mamba(r: &Reader, hidden: u64, keys: &MambaKeys) -> Result<LinearMixer, ConfigError> {
    let inner = match keys.inner {
        Some(key) => r.dim(&[key], MAX_DIM)?,
        None => None,
    };
    let inner = match inner {
        Some(w) => w,
        None => mul(&[r.dim(&[keys.expand], MAX_HEADS)?.unwrap_or(2), hidden]),
    };
    let dt_rank = match r.get(keys.dt_rank) {
        Some(v) if v.is_string() => None,
        _ => r.dim(&[keys.dt_rank], MAX_DIM)?,
    };
    Ok(LinearMixer::Mamba {
        inner,
        state_size: r.dim(&[keys.state], MAX_DIM)?.unwrap_or(16),
        conv_kernel: r.dim(&[keys.conv], MAX_DIM)?.unwrap_or(4),
        dt_rank: dt_rank.unwrap_or(hidden.div_ceil(16)),
        conv_bias: r.flag(keys.conv_bias)?.unwrap_or(true),
        proj_bias: r.flag(keys.proj_bias)?.unwrap_or(false),
        dt_norms: keys.dt_norms,
    })
}
