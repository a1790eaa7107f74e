//! Mixture of experts: how many experts, how wide, which layers route.

use super::error::ConfigError;
use super::family::{Family, Rules};
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

/// Reads the MoE keys; `None` for a dense model (no experts, or zero).
/// The layer counts are left at 0 for the caller to fill from the plan.
pub(crate) fn read(
    r: &Reader,
    family: Family,
    rules: Rules,
    layers: u64,
) -> Result<Option<MoeSpec>, ConfigError> {
    let expert_keys = [
        "num_local_experts",
        "num_experts",
        "n_routed_experts",
        "moe_num_experts",
    ];
    let routed = r.count(&expert_keys, MAX_HEADS)?.unwrap_or(0);
    if routed == 0 {
        return Ok(None);
    }
    let top_k = r.dim(
        &["num_experts_per_tok", "experts_per_token", "moe_topk"],
        MAX_HEADS,
    )?;
    let width = r.dim(
        &["moe_intermediate_size", "expert_intermediate_size"],
        MAX_DIM,
    )?;
    let width = match width {
        Some(w) => Some(w),
        None => r.dim(&["intermediate_size"], MAX_DIM)?,
    };
    let (Some(top_k), Some(width)) = (top_k, width) else {
        let mut keys = Vec::new();
        if top_k.is_none() {
            keys.push("num_experts_per_tok".to_string());
        }
        if width.is_none() {
            keys.push("moe_intermediate_size".to_string());
        }
        return Err(ConfigError::missing(keys));
    };
    if top_k > routed {
        return Err(ConfigError::contradictory(
            &["num_experts_per_tok", "num_experts"],
            format!("{top_k} experts per token but only {routed} experts"),
        ));
    }
    let (shared_experts, shared_intermediate) = shared(r, family, width)?;
    let selection = selection(r, family, layers)?;
    Ok(Some(MoeSpec {
        routed_experts: routed,
        experts_per_token: top_k,
        expert_intermediate: width,
        shared_experts,
        shared_intermediate,
        latent: r.dim(&["moe_latent_size"], MAX_DIM)?,
        moe_layers: 0,
        dense_layers: 0,
        score_bias: score_bias(r, rules)?,
        selection,
    }))
}

/// Shared experts `(count, total width)`:
/// - `shared_expert_intermediate_size` (Qwen2-MoE, Qwen3-Next): one MLP;
/// - `moe_shared_expert_intermediate_size` (Nemotron-H): one MLP;
/// - `n_shared_experts` (DeepSeek): `n` experts fused into one MLP of
///   width `n × moe_intermediate_size`;
/// - Llama-4: always one, as wide as a routed expert.
fn shared(r: &Reader, family: Family, width: u64) -> Result<(u64, u64), ConfigError> {
    let single = [
        "shared_expert_intermediate_size",
        "moe_shared_expert_intermediate_size",
    ];
    if let Some(w) = r.count(&single, MAX_DIM)?.filter(|w| *w > 0) {
        return Ok((1, w));
    }
    if let Some(n) = r
        .count(&["n_shared_experts"], MAX_HEADS)?
        .filter(|n| *n > 0)
    {
        return Ok((n, n.saturating_mul(width)));
    }
    if family == Family::Llama4 {
        return Ok((1, width));
    }
    Ok((0, 0))
}

fn selection(r: &Reader, family: Family, layers: u64) -> Result<Selection, ConfigError> {
    if r.has(&["first_k_dense_replace", "moe_layer_freq"]) {
        return Ok(Selection::FirstDense {
            first_dense: r
                .count(&["first_k_dense_replace"], MAX_LAYERS)?
                .unwrap_or(0),
            every: r.dim(&["moe_layer_freq"], MAX_LAYERS)?.unwrap_or(1),
        });
    }
    if r.has(&["decoder_sparse_step", "mlp_only_layers"]) {
        return Ok(Selection::SparseStep {
            step: r.dim(&["decoder_sparse_step"], MAX_LAYERS)?.unwrap_or(1),
            mlp_only: r.uint_list("mlp_only_layers")?.unwrap_or_default(),
        });
    }
    if let Some(listed) = r.uint_list("moe_layers")? {
        return Ok(Selection::Listed(listed));
    }
    if let Some(step) = r.dim(&["interleave_moe_layer_step"], MAX_LAYERS)? {
        return Ok(Selection::Listed(
            (0..layers)
                .filter(|i| (i + 1).is_multiple_of(step))
                .collect(),
        ));
    }
    if family == Family::Jamba || r.has(&["expert_layer_period"]) {
        return Ok(Selection::Period {
            period: r.dim(&["expert_layer_period"], MAX_LAYERS)?.unwrap_or(2),
            offset: r.count(&["expert_layer_offset"], MAX_LAYERS)?.unwrap_or(1),
        });
    }
    Ok(Selection::All)
}

/// DeepSeek-V3-style routers keep one correction bias per expert when
/// `topk_method` is `"noaux_tc"`; without `topk_method`, the family decides.
fn score_bias(r: &Reader, rules: Rules) -> Result<bool, ConfigError> {
    Ok(match r.text("topk_method")? {
        Some(method) => method == "noaux_tc",
        None => rules.score_bias_default,
    })
}
