//! vLLM's speed for a `vllm serve` plan: decode at batch 1 and at the
//! scenario's concurrency, output throughput, time to first token.
//!
//! # Formula
//!
//! ```text
//! step(b)   = (mem(b)^q + comp(b)^q)^(1/q) + o
//! mem(b)    = (W · (1 − f + f · E(b) / n) + b · K · c) / (e · BW)
//! comp(b)   = 2 · N / T · b · (1 + P / O) / (e_c · F)
//! decode    = 1 / step(b)            (each sequence's tokens per second)
//! output    = r / step(r),  r = min(b, ⌊KV / (P + O)⌋)   (all sequences together)
//! TTFT      = max(W / (e · BW), 2 · N / T · P / (e_c · F)) + o + step(b)
//! ```
//!
//! `W` the weights one GPU holds (vLLM's "Model loading took"), `f` the
//! routed experts' share of them, `E(b)` the experts a batch touches
//! ([`super::experts_touched`]) of `n`; `K` the KV bytes per token on one
//! GPU, `c` the cells a sequence reads (prompt plus half the reply), `b`
//! the sequences at once, `N` active parameters, `T` the tensor-parallel
//! size, `P` and `O` prompt and reply tokens (a step also carries the
//! prompts of the requests that start: `P / O` prompt tokens per reply
//! token), `BW` and `F` the GPU's peaks, `e`, `e_c`, `o` fitted
//! ([`super::rates::VllmRates`]); `q` fitted (memory and compute overlap
//! only in part: a large-batch step is neither purely one nor the other);
//! `r` the sequences that run at once, at most what the KV cache holds
//! (`KV` its tokens, vLLM's "GPU KV cache size"; the rest wait). Source: vLLM's scheduler (`vllm/v1/core/
//! sched/scheduler.py`: chunked prefill shares each step with decodes),
//! CUDA graphs replay each decode step (one fixed cost `o`).
//!
//! Worked example (golden test `qwen3_8b_bf16_on_an_h100`): Qwen3-8B BF16
//! holds 16.4 GB on an H100 SXM (3,350 GB/s); at batch 1 a step is
//! ≈ 6.8 ms, ≈ 146 tokens/s (146.51 measured).

use super::llamacpp::{largest, ttft_band};
use super::rates::Rates;
use super::{experts_touched, Band, Device, Family, Limit, SpeedAssumption, SpeedEstimate};
use crate::model::ModelSpec;
use crate::scenario::Backend;

/// Reply tokens per request when a figure needs them (throughput): an
/// assumption, a typical chat answer.
pub const DEFAULT_OUTPUT_TOKENS: u64 = 256;

/// What a vLLM speed figure is for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    pub device: Device,
    /// Weights on one GPU, bytes.
    pub weights_bytes: u64,
    /// KV bytes per token on one GPU.
    pub kv_bytes_per_token: f64,
    /// Tensor-parallel size.
    pub tp: u64,
    pub concurrency: u64,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// `--max-model-len`: where "at the end of the context" is.
    pub context: u64,
    /// Tokens the KV cache holds (all sequences together).
    pub kv_tokens: u64,
}

/// The sequences that run at once: `b`, at most as many as the KV cache
/// holds whole (prompt and reply), at least one.
pub fn running(s: &Setting, b: u64) -> u64 {
    let per = (s.prompt_tokens + s.output_tokens).max(1);
    match s.kv_tokens {
        0 => b.max(1),
        kv => b.min(kv / per).max(1),
    }
}

/// The routed experts' share of a model's parameters, and `n`.
fn expert_share(model: &ModelSpec) -> (f64, u64) {
    match &model.moe {
        Some(m) => {
            let input = m.latent.unwrap_or(model.hidden_size);
            let per_expert = 3.0 * input as f64 * m.expert_intermediate as f64;
            let routed = per_expert * m.routed_experts as f64 * m.moe_layers as f64;
            let total = model.checkpoint.params.max(1) as f64;
            ((routed / total).clamp(0.0, 1.0), m.routed_experts)
        }
        None => (0.0, 0),
    }
}

/// One step's (memory, compute) seconds at `b` sequences.
fn step_parts(model: &ModelSpec, s: &Setting, r: &Rates, b: u64, prompt_share: f64) -> [f64; 2] {
    let (f, n) = expert_share(model);
    let k = model.moe.as_ref().map_or(0, |m| m.experts_per_token);
    let touched = match n {
        0 => 0.0,
        n => experts_touched(n, k, b) / n as f64,
    };
    let weights = s.weights_bytes as f64 * (1.0 - f + f * touched);
    let cells = s.prompt_tokens as f64 + s.output_tokens as f64 / 2.0;
    let mem = (weights + b as f64 * s.kv_bytes_per_token * cells)
        / (r.vllm.bandwidth_efficiency * s.device.bytes_per_s);
    let comp = match s.device.flops {
        Some(fl) => {
            2.0 * model.params_active as f64 / s.tp.max(1) as f64 * b as f64 * (1.0 + prompt_share)
                / (r.vllm.compute_efficiency * fl)
        }
        None => 0.0,
    };
    [mem, comp]
}

/// The time of one decode step at `b` sequences at once.
pub fn step_seconds(model: &ModelSpec, s: &Setting, r: &Rates, b: u64, prompt_share: f64) -> f64 {
    let [mem, comp] = step_parts(model, s, r, b, prompt_share);
    let both = match r.vllm.overlap_norm {
        Some(q) if q > 0.0 && q.is_finite() => (mem.powf(q) + comp.powf(q)).powf(1.0 / q),
        _ => mem.max(comp),
    };
    both + r.vllm.step_overhead_us * 1e-6
}

/// The speed of a vLLM plan; `None` where the rates have none.
pub fn estimate(
    model: &ModelSpec,
    s: Setting,
    rates: &Rates,
    assumptions: Vec<SpeedAssumption>,
) -> Option<SpeedEstimate> {
    if rates.vllm.bandwidth_efficiency <= 0.0 {
        return None;
    }
    let b = s.concurrency.max(1);
    let run = running(&s, b);
    let share = s.prompt_tokens as f64 / s.output_tokens.max(1) as f64;
    let one = step_seconds(model, &s, rates, 1, 0.0);
    let parts = step_parts(model, &s, rates, 1, 0.0);
    let limit = largest(
        &[parts[0], parts[1], rates.vllm.step_overhead_us * 1e-6],
        [Limit::Bandwidth, Limit::Compute, Limit::Overhead],
    );
    let at_b = step_seconds(model, &s, rates, run, share);
    let decode = Band::around(1.0 / one, rates.vllm.decode_band)?;
    let at_context = {
        let end = Setting {
            prompt_tokens: s.context.max(1),
            output_tokens: 0,
            ..s
        };
        Band::around(
            1.0 / step_seconds(model, &end, rates, 1, 0.0),
            rates.vllm.decode_band,
        )?
    };
    let prefill = s.device.flops.map(|fl| {
        let p = s.prompt_tokens.max(1) as f64;
        let comp = 2.0 * model.params_active as f64 / s.tp.max(1) as f64 * p
            / (rates.vllm.compute_efficiency * fl);
        let mem = s.weights_bytes as f64 / (rates.vllm.bandwidth_efficiency * s.device.bytes_per_s);
        (
            p,
            comp.max(mem) + rates.vllm.step_overhead_us * 1e-6,
            comp >= mem,
        )
    });
    let band = rates.vllm.throughput_band;
    Some(SpeedEstimate {
        backend: Backend::Cuda,
        family: Family::Float,
        prompt_tokens: s.prompt_tokens,
        decode_tokens_per_s: decode,
        decode_limited_by: limit,
        decode_at_context_tokens_per_s: at_context,
        prefill_tokens_per_s: prefill.and_then(|(p, t, _)| Band::around(p / t, band)),
        prefill_limited_by: prefill.map(|(_, _, c)| match c {
            true => Limit::Compute,
            false => Limit::Bandwidth,
        }),
        time_to_first_token_s: prefill.and_then(|(_, t, _)| ttft_band(t + one, band)),
        concurrency: Some(b),
        decode_at_concurrency_tokens_per_s: Band::around(1.0 / at_b, band),
        output_tokens_per_s: Band::around(run as f64 / at_b, band),
        host_layers: 0,
        gpu_bytes_per_token: s.weights_bytes,
        host_bytes_per_token: 0,
        assumptions,
    })
}
