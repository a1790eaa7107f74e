//! Mixture of experts: how many experts, how wide, which layers route.
//! Each reader says under which names its config class keeps them
//! ([`MoeKeys`]).

use super::error::ConfigError;
use super::json::Reader;
use super::shape::{MAX_DIM, MAX_HEADS, MAX_LAYERS};
use serde::Serialize;

/// The mixture-of-experts part of a model. All experts stay resident in
/// memory; only `experts_per_token` of them run for each token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoeSpec {
    /// Routed experts per MoE layer (`num_local_experts`, `num_experts` or
    /// `n_routed_experts`).
    pub routed_experts: u64,
    /// Routed experts each token runs through (`num_experts_per_tok`).
    pub experts_per_token: u64,
    /// Width of one routed expert's MLP (`moe_intermediate_size`, else
    /// `intermediate_size`).
    pub expert_intermediate: u64,
    /// Shared experts per MoE layer, which every token runs through.
    pub shared_experts: u64,
    /// Total width of the shared expert MLP (0 without one).
    pub shared_intermediate: u64,
    /// Experts read a projection of this width instead of the hidden state
    /// (`moe_latent_size`, Nemotron-H).
    pub latent: Option<u64>,
    /// Layers with routed experts (counted from the per-layer plan).
    pub moe_layers: u64,
    /// Layers with a dense MLP instead (counted from the per-layer plan).
    pub dense_layers: u64,
    /// The router keeps a per-expert `e_score_correction_bias`.
    pub score_bias: bool,
    #[serde(skip)]
    pub(crate) selection: Selection,
}

/// Which layers hold experts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Selection {
    /// Every layer.
    All,
    /// DeepSeek: layer `i` routes when `i ≥ first_k_dense_replace` and
    /// `i mod moe_layer_freq = 0`.
    FirstDense { first_dense: u64, every: u64 },
    /// Qwen-MoE: layer `i` routes when `i ∉ mlp_only_layers` and
    /// `(i + 1) mod decoder_sparse_step = 0`.
    SparseStep { step: u64, mlp_only: Vec<u64> },
    /// Llama-4: the layers listed in `moe_layers` (by default every
    /// `interleave_moe_layer_step`-th layer, `(i + 1) mod step = 0`).
    Listed(Vec<u64>),
    /// Jamba: layer `i` routes when `i mod expert_layer_period =
    /// expert_layer_offset`.
    Period { period: u64, offset: u64 },
}

impl Selection {
    /// Whether layer `i` (0-based) holds routed experts.
    pub(crate) fn routes(&self, i: u64) -> bool {
        match self {
            Selection::All => true,
            Selection::FirstDense { first_dense, every } => {
                i >= *first_dense && i.is_multiple_of(*every)
            }
            Selection::SparseStep { step, mlp_only } => {
                !mlp_only.contains(&i) && (i + 1).is_multiple_of(*step)
            }
            Selection::Listed(layers) => layers.contains(&i),
            Selection::Period { period, offset } => i % period == *offset,
        }
    }
}

/// How a config class states its shared experts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Shared {
    None,
    /// One shared MLP whose width is under this key (Qwen2-MoE
    /// `shared_expert_intermediate_size`); 0 or absent: none.
    Width(&'static str),
    /// This many shared experts (the key), fused into one MLP as wide as
    /// that many routed experts (DeepSeek `n_shared_experts`).
    Count(&'static str),
    /// Always one, as wide as a routed expert (Llama-4).
    One,
}

/// How a config class states which layers route.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Select {
    All,
    /// `first_k_dense_replace` and `moe_layer_freq` (DeepSeek, GLM-4.5).
    FirstDense,
    /// `decoder_sparse_step` and `mlp_only_layers` (Qwen-MoE).
    SparseStep,
    /// `moe_layers`, else `interleave_moe_layer_step` (Llama-4).
    Interleaved,
    /// `expert_layer_period` and `expert_layer_offset`, class defaults 2
    /// and 1 (Jamba).
    Period,
}

/// The names of a config class's MoE keys.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MoeKeys {
    pub experts: &'static [&'static str],
    pub top_k: &'static [&'static str],
    /// Width of one expert.
    pub width: &'static [&'static str],
    pub shared: Shared,
    pub select: Select,
    /// Router keeps an `e_score_correction_bias` when `topk_method` is
    /// absent.
    pub score_bias_default: bool,
    /// `moe_latent_size` (Nemotron-H).
    pub latent: bool,
}

impl MoeKeys {
    /// Mixtral's names.
    pub(crate) const MIXTRAL: MoeKeys = MoeKeys {
        experts: &["num_local_experts", "num_experts"],
        top_k: &["num_experts_per_tok"],
        width: &["intermediate_size"],
        shared: Shared::None,
        select: Select::All,
        score_bias_default: false,
        latent: false,
    };
}

/// Reads the MoE keys; `None` for a config without experts (absent or 0).
/// The layer counts are left at 0 for the caller to fill from the plan.
pub(crate) fn read(
    r: &Reader,
    keys: &MoeKeys,
    layers: u64,
) -> Result<Option<MoeSpec>, ConfigError> {
    let routed = r.count(keys.experts, MAX_HEADS)?.unwrap_or(0);
    if routed == 0 {
        return Ok(None);
    }
    let top_k = r.dim(keys.top_k, MAX_HEADS)?;
    let width = r.dim(keys.width, MAX_DIM)?;
    let (Some(top_k), Some(width)) = (top_k, width) else {
        let mut missing = Vec::new();
        if top_k.is_none() {
            missing.extend(keys.top_k.first().map(|k| k.to_string()));
        }
        if width.is_none() {
            missing.extend(keys.width.first().map(|k| k.to_string()));
        }
        return Err(ConfigError::missing(missing));
    };
    if top_k > routed {
        return Err(ConfigError::contradictory(
            &[
                keys.top_k.first().copied().unwrap_or(""),
                keys.experts.first().copied().unwrap_or(""),
            ],
            format!("{top_k} experts per token but only {routed} experts"),
        ));
    }
    let (shared_experts, shared_intermediate) = shared(r, keys.shared, width)?;
    Ok(Some(MoeSpec {
        routed_experts: routed,
        experts_per_token: top_k,
        expert_intermediate: width,
        shared_experts,
        shared_intermediate,
        latent: match keys.latent {
            true => r.dim(&["moe_latent_size"], MAX_DIM)?,
            false => None,
        },
        moe_layers: 0,
        dense_layers: 0,
        score_bias: score_bias(r, keys.score_bias_default)?,
        selection: selection(r, keys.select, layers)?,
    }))
}

/// Shared experts `(count, total width)`.
fn shared(r: &Reader, shared: Shared, width: u64) -> Result<(u64, u64), ConfigError> {
    Ok(match shared {
        Shared::None => (0, 0),
        Shared::Width(key) => match r.count(&[key], MAX_DIM)?.filter(|w| *w > 0) {
            Some(w) => (1, w),
            None => (0, 0),
        },
        Shared::Count(key) => match r.count(&[key], MAX_HEADS)?.filter(|n| *n > 0) {
            Some(n) => (n, n.saturating_mul(width)),
            None => (0, 0),
        },
        Shared::One => (1, width),
    })
}

fn selection(r: &Reader, select: Select, layers: u64) -> Result<Selection, ConfigError> {
    Ok(match select {
        Select::All => Selection::All,
        Select::FirstDense => Selection::FirstDense {
            first_dense: r
                .count(&["first_k_dense_replace"], MAX_LAYERS)?
                .unwrap_or(0),
            every: r.dim(&["moe_layer_freq"], MAX_LAYERS)?.unwrap_or(1),
        },
        Select::SparseStep => Selection::SparseStep {
            step: r.dim(&["decoder_sparse_step"], MAX_LAYERS)?.unwrap_or(1),
            mlp_only: r.uint_list("mlp_only_layers")?.unwrap_or_default(),
        },
        Select::Interleaved => match r.uint_list("moe_layers")? {
            Some(listed) => Selection::Listed(listed),
            None => {
                let step = r
                    .dim(&["interleave_moe_layer_step"], MAX_LAYERS)?
                    .unwrap_or(1);
                Selection::Listed(
                    (0..layers)
                        .filter(|i| (i + 1).is_multiple_of(step))
                        .collect(),
                )
            }
        },
        Select::Period => Selection::Period {
            period: r.dim(&["expert_layer_period"], MAX_LAYERS)?.unwrap_or(2),
            offset: r.count(&["expert_layer_offset"], MAX_LAYERS)?.unwrap_or(1),
        },
    })
}

/// DeepSeek-V3-style routers keep one correction bias per expert when
/// `topk_method` is `"noaux_tc"`; without `topk_method`, the class decides.
fn score_bias(r: &Reader, default: bool) -> Result<bool, ConfigError> {
    Ok(match r.text("topk_method")? {
        Some(method) => method == "noaux_tc",
        None => default,
    })
}
