//! Indicative speed (seed 002, "Panel visual y velocidad orientativa"): a
//! roofline of memory bandwidth and compute, for planning, not measured.
//!
//! ```text
//! B          = min(batch limit, ⌈sequences / replicas⌉)  per busy replica
//! bytes      = full weights + KV of B sequences at the full context
//! FLOPs      = B × (2P + 4·L·H·S)
//! step       = max(bytes / (bw × e_bw), FLOPs / (C × e_c)) / penalty + 0.002 s
//! tokens/s per user = (B / requests per replica) / step
//! prefill    = max((2PN + 4·L·H·N²) × B / (C × e_c), weight bytes / (bw × e_bw)) + 0.002 s
//! ```
//!
//! `bw` the catalog bandwidth (GB/s, decimal), `C` the dense BF16 TFLOPS
//! (no sparsity), `N` the prompt tokens capped at the context (default:
//! the context). Conservative: `e_bw` = 35 %, `e_c` = 20 %; favourable:
//! 70 % and 45 %. Penalty 0.92 for weights below 8 bits (no INT4/FP8
//! arithmetic speed-up is promised), else 1. The shared prefix is not
//! discounted from KV reads. With a queue the figure is a long-run fair
//! share, not a steady cadence.
//!
//! No figure, as the seed says (checked in this order): training, custom
//! models, MLA, sliding windows, MoE, special dimensions (query heads × head dimension ≠ hidden
//! size), TP or PP other than 1, offload, attention without a fused
//! kernel, a GPU outside the catalog or without a dense BF16 figure, the
//! GB300 (the seed's GB300 NVL72), and a model that does not fit.

use super::kv::{kv_per_gpu, KvLayout};
use super::shape::Dims;
use super::weights::base_milli_bits;
use crate::methods::Refusal;
use crate::scenario::Scenario;
use crate::units::Bytes;
use crate::verdict::FitStatus;
use serde::Serialize;
use std::fmt;

/// Fixed time added to each step and to the prefill, seconds.
pub const STEP_OVERHEAD_S: f64 = 0.002;
/// Penalty on the step below 8-bit weights.
pub const LOW_BIT_PENALTY: f64 = 0.92;
/// (bandwidth, compute) efficiency of the conservative scenario.
pub const CONSERVATIVE: (f64, f64) = (0.35, 0.20);
/// (bandwidth, compute) efficiency of the favourable scenario.
pub const FAVOURABLE: (f64, f64) = (0.70, 0.45);

/// One figure in both scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SpeedRange {
    pub conservative: f64,
    pub favourable: f64,
}

/// The speed estimate of a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Speed {
    /// `B`: sequences one busy replica decodes per step.
    pub sequences_per_step: u64,
    /// Requests sharing one replica (`⌈sequences / replicas⌉`).
    pub requests_per_replica: u64,
    /// Bytes read per decode step.
    pub decode_bytes_per_step: Bytes,
    /// FLOPs per decode step.
    pub decode_flops_per_step: f64,
    /// 0.92 below 8-bit weights, else 1.
    pub penalty: f64,
    /// Seconds per decode step.
    pub step_seconds: SpeedRange,
    /// Decode tokens per second for each user.
    pub tokens_per_s_per_user: SpeedRange,
    /// `N`: prompt tokens of the prefill estimate.
    pub prompt_tokens: u64,
    /// Prefill of one prompt per active sequence, without a queue, seconds.
    pub prefill_seconds: SpeedRange,
    /// Conservative tokens/s over the target, unclamped (with a target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ratio: Option<f64>,
    /// The bar's fill, 0 to 1: the ratio saturating at 2× the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_bar: Option<f64>,
}

/// Why there is no speed figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "reason", content = "detail")]
pub enum NoSpeed {
    Training,
    CustomModel,
    Moe,
    Mla,
    SlidingWindow,
    SpecialDimensions,
    Parallelism,
    Offload,
    NoEfficientAttention,
    NoGpu,
    NoGpuFigures,
    RackScaleGpu,
    DoesNotFit,
    /// The memory estimate itself is out of scope.
    OutOfScope(Refusal),
}

impl fmt::Display for NoSpeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            NoSpeed::Training => "training has no speed figure",
            NoSpeed::CustomModel => "custom models have no speed figure",
            NoSpeed::Moe => "mixture-of-experts models have no speed figure",
            NoSpeed::Mla => "latent attention (MLA) has no speed figure",
            NoSpeed::SlidingWindow => "sliding-window attention has no speed figure",
            NoSpeed::SpecialDimensions => {
                "attention wider or narrower than the hidden size has no speed figure"
            }
            NoSpeed::Parallelism => "TP or PP above 1 has no calibrated speed figure",
            NoSpeed::Offload => "offloaded weights have no speed figure",
            NoSpeed::NoEfficientAttention => "speed assumes efficient attention",
            NoSpeed::NoGpu => "speed needs a catalog GPU",
            NoSpeed::NoGpuFigures => "the GPU has no dense BF16 figure in the catalog",
            NoSpeed::RackScaleGpu => "the GB300 NVL72 has no speed figure",
            NoSpeed::DoesNotFit => "speed is only given when the model fits without offload",
            NoSpeed::OutOfScope(reason) => return write!(f, "no estimate: {reason}"),
        };
        f.write_str(what)
    }
}

/// Seed 002's speed estimate, or why it gives none.
///
/// ```
/// use vramfit_core::{methods::planner, scenario::{ModelRef, ScenarioInput}};
/// let mut input = ScenarioInput::default();
/// input.model = Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into()));
/// input.set_gpu("H100 SXM");
/// let speed = planner::speed(&input.validate().unwrap()).unwrap();
/// assert_eq!(speed.decode_bytes_per_step, 17_134_264_320);
/// assert!((speed.tokens_per_s_per_user.conservative - 60.19).abs() < 0.01);
/// ```
pub fn speed(s: &Scenario) -> Result<Speed, NoSpeed> {
    if s.mode.trains() {
        return Err(NoSpeed::Training);
    }
    if s.model.is_none() {
        return Err(NoSpeed::CustomModel);
    }
    let k = &s.planner;
    let d = Dims::of(s, k).map_err(NoSpeed::OutOfScope)?;
    if d.has_mla() {
        return Err(NoSpeed::Mla);
    }
    if d.has_window() {
        return Err(NoSpeed::SlidingWindow);
    }
    if d.moe {
        return Err(NoSpeed::Moe);
    }
    if d.q_heads.saturating_mul(d.head_dim) != d.hidden
        || d.attention.contains(&crate::model::AttentionKind::None)
    {
        return Err(NoSpeed::SpecialDimensions);
    }
    if s.layout.spreads() {
        return Err(NoSpeed::Parallelism);
    }
    if k.offload_bytes > Bytes::ZERO {
        return Err(NoSpeed::Offload);
    }
    if !super::efficient_attention(s) {
        return Err(NoSpeed::NoEfficientAttention);
    }
    let gpu = s.gpu.ok_or(NoSpeed::NoGpu)?;
    let tflops = gpu.bf16_dense_tflops.ok_or(NoSpeed::NoGpuFigures)?;
    if gpu.name.contains("GB300") {
        return Err(NoSpeed::RackScaleGpu);
    }
    let plan = super::plan(s).map_err(NoSpeed::OutOfScope)?;
    if plan.result().verdict.status == FitStatus::DoesNotFit {
        return Err(NoSpeed::DoesNotFit);
    }

    let b = plan.residency.active;
    let requests = plan.residency.requests_per_replica;
    let weight_bytes = plan.weights.total();
    let kv_sequence = kv_per_gpu(
        &d,
        &KvLayout {
            context: s.context,
            shared_prefix: 0,
            block_tokens: 1,
            sequences: 1,
            tp: 1,
            stage_layers: d.layers,
            kv_milli_bits: s.kv_milli_bits,
        },
    );
    let bytes = weight_bytes.saturating_add(kv_sequence.saturating_mul(b));
    let (p, l, h) = (d.params as f64, d.layers as f64, d.hidden as f64);
    let ctx = s.context as f64;
    let flops = b as f64 * (2.0 * p + 4.0 * l * h * ctx);
    let penalty = match base_milli_bits(s) < 8_000 {
        true => LOW_BIT_PENALTY,
        false => 1.0,
    };
    let n = k.prompt_tokens.unwrap_or(s.context).min(s.context);
    let nf = n as f64;
    let prefill_flops = (2.0 * p * nf + 4.0 * l * h * nf * nf) * b as f64;
    let at = |(e_bw, e_c): (f64, f64)| {
        let bw = gpu.bandwidth_gb_s * 1e9 * e_bw;
        let compute = tflops * 1e12 * e_c;
        let step = (bytes as f64 / bw).max(flops / compute) / penalty + STEP_OVERHEAD_S;
        let prefill = (prefill_flops / compute).max(weight_bytes as f64 / bw) + STEP_OVERHEAD_S;
        (step, prefill)
    };
    let (cons, fav) = (at(CONSERVATIVE), at(FAVOURABLE));
    let share = b as f64 / requests.max(1) as f64;
    let tokens = SpeedRange {
        conservative: share / cons.0,
        favourable: share / fav.0,
    };
    let target_ratio = k.target_tokens_per_s.map(|t| tokens.conservative / t);
    Ok(Speed {
        sequences_per_step: b,
        requests_per_replica: requests,
        decode_bytes_per_step: Bytes(bytes),
        decode_flops_per_step: flops,
        penalty,
        step_seconds: SpeedRange {
            conservative: cons.0,
            favourable: fav.0,
        },
        tokens_per_s_per_user: tokens,
        prompt_tokens: n,
        prefill_seconds: SpeedRange {
            conservative: cons.1,
            favourable: fav.1,
        },
        target_ratio,
        target_bar: target_ratio.map(|r| r.min(2.0) / 2.0),
    })
}
