//! Linear-attention and state-space token mixers: layers whose cache is a
//! fixed-size state per sequence instead of one entry per token.

use super::error::ConfigError;
use super::family::Family;
use super::json::Reader;
use super::shape::{MAX_DIM, MAX_HEADS};
use serde::Serialize;

/// The recurrent mixer of a model's linear-attention / Mamba layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LinearMixer {
    /// Gated DeltaNet (Qwen3-Next `linear_attention` layers).
    GatedDeltaNet {
        key_heads: u64,
        value_heads: u64,
        key_head_dim: u64,
        value_head_dim: u64,
        conv_kernel: u64,
    },
    /// Mamba-2 (Nemotron-H `M` layers, `mamba2`).
    Mamba2 {
        heads: u64,
        head_dim: u64,
        state_size: u64,
        groups: u64,
        conv_kernel: u64,
        conv_bias: bool,
        proj_bias: bool,
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
}

impl LinearMixer {
    /// State elements one sequence keeps in one such layer, whatever its
    /// length: the recurrent state plus the causal-convolution window.
    ///
    /// ```text
    /// Gated DeltaNet: H_v·d_k·d_v + (2·H_k·d_k + H_v·d_v)·(K − 1)
    /// Mamba-2:        H·P·N + (H·P + 2·G·N)·(K − 1)
    /// Mamba:          D_in·N + D_in·(K − 1)
    /// ```
    ///
    /// Symbols: `H_k`/`H_v` key/value heads and `d_k`/`d_v` their widths,
    /// `H` SSM heads of width `P`, `N` state size, `G` groups, `D_in` inner
    /// width, `K` convolution kernel. The convolution keeps the last `K − 1`
    /// inputs (as vLLM's state cache does). Sources: `transformers`
    /// `Qwen3NextGatedDeltaNet`, `NemotronHMamba2Mixer`, `MambaMixer`.
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
        }
    }
}

/// Saturating product.
pub(crate) fn mul(factors: &[u64]) -> u64 {
    factors.iter().fold(1u64, |acc, f| acc.saturating_mul(*f))
}

/// Reads the mixer the config describes: Gated DeltaNet when it has
/// `linear_*` keys, Mamba for `mamba` models and Jamba, Mamba-2 otherwise.
pub(crate) fn read(r: &Reader, family: Family, hidden: u64) -> Result<LinearMixer, ConfigError> {
    if r.has(&[
        "linear_key_head_dim",
        "linear_num_key_heads",
        "linear_num_value_heads",
    ]) {
        return gated_delta_net(r);
    }
    if matches!(family, Family::Mamba | Family::Jamba) || r.has(&["mamba_d_state"]) {
        return mamba(r, hidden);
    }
    let mamba2_keys = [
        "mamba_num_heads",
        "ssm_state_size",
        "mamba_head_dim",
        "state_size",
    ];
    if family == Family::Mamba2 || family == Family::NemotronH || r.has(&mamba2_keys) {
        return mamba2(r, family, hidden);
    }
    Err(ConfigError::unsupported(
        "linear-attention layers without linear_* (Gated DeltaNet) or mamba/ssm keys".to_string(),
    ))
}

fn gated_delta_net(r: &Reader) -> Result<LinearMixer, ConfigError> {
    let key_heads = r.dim(&["linear_num_key_heads"], MAX_HEADS)?;
    let value_heads = r.dim(&["linear_num_value_heads"], MAX_HEADS)?;
    let key_head_dim = r.dim(&["linear_key_head_dim"], MAX_DIM)?;
    let value_head_dim = r.dim(&["linear_value_head_dim"], MAX_DIM)?;
    let mut missing = super::shape::Missing::default();
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

fn mamba2(r: &Reader, family: Family, hidden: u64) -> Result<LinearMixer, ConfigError> {
    let own = family == Family::Mamba2;
    let head_keys: &[&str] = if own {
        &["num_heads"]
    } else {
        &["mamba_num_heads"]
    };
    let dim_keys: &[&str] = if own {
        &["head_dim"]
    } else {
        &["mamba_head_dim"]
    };
    let head_dim = r.dim(dim_keys, MAX_DIM)?.unwrap_or(64);
    let expand = r.dim(&["expand", "mamba_expand"], MAX_HEADS)?.unwrap_or(2);
    let heads = match r.dim(head_keys, MAX_HEADS)? {
        Some(h) => h,
        None => mul(&[expand, hidden]) / head_dim,
    };
    Ok(LinearMixer::Mamba2 {
        heads,
        head_dim,
        state_size: r
            .dim(&["ssm_state_size", "state_size", "mamba_d_state"], MAX_DIM)?
            .unwrap_or(128),
        groups: r
            .dim(&["n_groups", "mamba_n_groups"], MAX_HEADS)?
            .unwrap_or(1),
        conv_kernel: r
            .dim(&["conv_kernel", "mamba_d_conv"], MAX_DIM)?
            .unwrap_or(4),
        conv_bias: first_flag(r, &["use_conv_bias", "mamba_conv_bias"])?.unwrap_or(true),
        proj_bias: first_flag(r, &["use_bias", "mamba_proj_bias"])?.unwrap_or(false),
    })
}

fn mamba(r: &Reader, hidden: u64) -> Result<LinearMixer, ConfigError> {
    let expand = r.dim(&["mamba_expand", "expand"], MAX_HEADS)?.unwrap_or(2);
    let inner = match r.dim(&["mamba_intermediate_size"], MAX_DIM)? {
        Some(w) => w,
        None => mul(&[expand, hidden]),
    };
    // `time_step_rank` may be written as "auto": ⌈hidden / 16⌉.
    let dt_rank = match r.get("time_step_rank").or(r.get("mamba_dt_rank")) {
        Some(v) if v.is_string() => None,
        _ => r.dim(&["time_step_rank", "mamba_dt_rank", "dt_rank"], MAX_DIM)?,
    };
    Ok(LinearMixer::Mamba {
        inner,
        state_size: r
            .dim(&["mamba_d_state", "state_size", "d_state"], MAX_DIM)?
            .unwrap_or(16),
        conv_kernel: r
            .dim(&["mamba_d_conv", "conv_kernel", "d_conv"], MAX_DIM)?
            .unwrap_or(4),
        dt_rank: dt_rank.unwrap_or(hidden.div_ceil(16)),
        conv_bias: first_flag(r, &["mamba_conv_bias", "use_conv_bias", "conv_bias"])?
            .unwrap_or(true),
        proj_bias: first_flag(r, &["mamba_proj_bias", "use_bias", "bias"])?.unwrap_or(false),
        dt_norms: r.has(&["mamba_d_state"]),
    })
}

fn first_flag(r: &Reader, keys: &[&str]) -> Result<Option<bool>, ConfigError> {
    for key in keys {
        if let Some(b) = r.flag(key)? {
            return Ok(Some(b));
        }
    }
    Ok(None)
}
