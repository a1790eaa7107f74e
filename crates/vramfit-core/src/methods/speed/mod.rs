//! How fast an engine plan runs: decode tokens per second, prefill tokens
//! per second and the time to the first token, with the band the
//! calibration residuals support and what limits each.
//!
//! The figures are formulas over the plan the engine methods already
//! compute (which bytes sit on which device, what a token reads) and
//! effective rates: a device's peak bandwidth and tensor throughput from
//! the GPU catalog times an efficiency fitted, per engine × backend ×
//! weight-type family, on published measurements
//! (`data/speed/calibration.csv`; the fit is `examples/speed_fit.rs`, its
//! values `data/speed/rates.json`, its quality `docs/speed.md`). Nothing
//! is fitted per model or per GPU.
//!
//! - [`llamacpp`]: `llama-bench`'s `tgN` and `ppN` for a GGUF split
//!   between GPUs (layer split: they run one after another) and host memory;
//! - [`vllm`]: decode at batch 1 and at a concurrency, output throughput
//!   and time to first token for `vllm serve`;
//! - [`curve`]: either one's decode speed against context, over one plan.

pub mod calibration;
pub mod curve;
pub mod llamacpp;
pub mod rates;
pub mod scenario;
pub mod vllm;

pub use crate::scenario::Backend;
pub use rates::{Family, Rates};
use serde::Serialize;

/// A figure with the band the calibration supports: `low ≤ point ≤ high`,
/// all finite and positive.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    pub point: f64,
    pub low: f64,
    pub high: f64,
}

impl Band {
    /// `point` scaled by the band's lower and upper ratios (measured /
    /// predicted quantiles of the calibration rows); `None` unless the
    /// point is finite and positive.
    pub fn around(point: f64, ratios: rates::Ratios) -> Option<Band> {
        (point.is_finite() && point > 0.0).then(|| Band {
            point,
            low: point * ratios.low.min(1.0),
            high: point * ratios.high.max(1.0),
        })
    }

    /// The band of `1 / x` (a rate from a time, or back): the low and
    /// high ends swap.
    pub fn inverse(self) -> Band {
        Band {
            point: 1.0 / self.point,
            low: 1.0 / self.high,
            high: 1.0 / self.low,
        }
    }

    /// Every end multiplied by `k` (> 0).
    pub fn scaled(self, k: f64) -> Band {
        Band {
            point: self.point * k,
            low: self.low * k,
            high: self.high * k,
        }
    }
}

/// What sets a figure: the part of the time per token that is largest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// Reading weights and cache from GPU memory.
    Bandwidth,
    /// Tensor throughput (prefill, large batches).
    Compute,
    /// Reading the layers or experts left in host memory.
    HostMemory,
    /// Fixed costs per step (kernel launches, synchronisation).
    Overhead,
}

/// The speed of one engine plan: `estimate.engine.speed` in the
/// `vramfit/1` document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpeedEstimate {
    /// The backend the rates are for.
    pub backend: Backend,
    /// The weight-type family the rates are for.
    pub family: Family,
    /// Tokens of prompt the figures are for.
    pub prompt_tokens: u64,
    /// Tokens per second of one sequence's reply, right after the prompt.
    pub decode_tokens_per_s: Band,
    /// What limits decode.
    pub decode_limited_by: Limit,
    /// Decode at the end of the context (the whole KV cache read per token).
    pub decode_at_context_tokens_per_s: Band,
    /// Prompt tokens per second; `None` where the GPU's tensor
    /// throughput is not known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefill_tokens_per_s: Option<Band>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefill_limited_by: Option<Limit>,
    /// Seconds from the request to the first reply token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_to_first_token_s: Option<Band>,
    /// Sequences at once the server figures are for (vLLM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    /// Each sequence's decode speed at that concurrency (vLLM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_at_concurrency_tokens_per_s: Option<Band>,
    /// Output tokens per second of all sequences together (vLLM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens_per_s: Option<Band>,
    /// Repeating layers whose weights run from host memory (llama.cpp).
    pub host_layers: u64,
    /// Bytes one decode step reads from GPU memory and from host memory.
    pub gpu_bytes_per_token: u64,
    pub host_bytes_per_token: u64,
    /// What the figure assumed (rates borrowed, defaults taken).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<SpeedAssumption>,
}

/// Something a speed figure assumed, for every front end to say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "assumption", rename_all = "snake_case")]
pub enum SpeedAssumption {
    /// No calibration rows for this backend × family: the rates of
    /// another are used.
    RatesBorrowed {
        from_backend: Backend,
        from_family: Family,
    },
    /// The host's memory bandwidth was not given: the default is used.
    HostBandwidthDefault { gb_s_tenths: u64 },
    /// No GPU from the catalog: no bandwidth, no speed.
    NoGpuFigures,
}

/// A device a plan runs on: its peak rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    /// Peak memory bandwidth, bytes per second.
    pub bytes_per_s: f64,
    /// Dense BF16/FP16 tensor peak with FP32 accumulate, FLOP per second,
    /// where known: what PyTorch's GEMMs in vLLM run at.
    pub flops: Option<f64>,
    /// Dense FP16 tensor peak with FP16 accumulate, FLOP per second: what
    /// llama.cpp's prompt GEMMs run at (cuBLAS with `CUBLAS_COMPUTE_16F`
    /// on CUDA, ggml-cuda.cu `ggml_cuda_op_mul_mat_cublas`; Metal, Vulkan
    /// and ROCm have one FP16 rate). Twice [`Device::flops`] on GeForce.
    pub fp16_flops: Option<f64>,
}

impl Device {
    /// A catalog GPU's peaks: BF16 dense, else FP16 dense; FP16 with FP16
    /// accumulate, else the FP16 figure.
    pub fn of(gpu: &crate::catalog::gpus::Gpu) -> Device {
        let flops = gpu
            .bf16_dense_tflops
            .or(gpu.fp16_dense_tflops)
            .map(|t| t * 1e12);
        Device {
            bytes_per_s: gpu.bandwidth_gb_s * 1e9,
            flops,
            fp16_flops: gpu
                .fp16_acc16_dense_tflops
                .or(gpu.fp16_dense_tflops)
                .map(|t| t * 1e12)
                .or(flops),
        }
    }
}

/// The host memory's bandwidth for a scenario, bytes per second: as given;
/// else the GPU's own on unified memory (Apple silicon, AMD APUs); else the
/// stated default (dual-channel DDR5-4800), noted.
pub fn host_bytes_per_s(
    settings: &crate::scenario::SpeedSettings,
    gpu: Option<&crate::catalog::gpus::Gpu>,
    notes: &mut Vec<SpeedAssumption>,
) -> f64 {
    match (settings.host_bytes_per_s, gpu) {
        (Some(b), _) => b,
        (None, Some(g)) if shares_host_memory(g) => g.bandwidth_gb_s * 1e9,
        (None, _) => {
            let d = crate::scenario::DEFAULT_HOST_BANDWIDTH_GB_S;
            notes.push(SpeedAssumption::HostBandwidthDefault {
                gb_s_tenths: (d * 10.0).round() as u64,
            });
            d * 1e9
        }
    }
}

/// Whether a GPU's memory is the host's own (Apple silicon, and the APUs
/// the catalog lists with "unified" memory: DGX Spark, Strix Halo), so that
/// host memory runs at the GPU's bandwidth.
pub fn shares_host_memory(gpu: &crate::catalog::gpus::Gpu) -> bool {
    gpu.unified_memory
        || gpu
            .memory_type
            .as_deref()
            .is_some_and(|t| t.contains("unified"))
}

/// The backend of a scenario: as given, else the GPU vendor's default.
pub fn backend_of(s: &crate::scenario::Scenario) -> Backend {
    s.speed.backend.unwrap_or_else(|| {
        s.gpu
            .map_or(Backend::Cpu, |g| Backend::default_for_vendor(&g.vendor))
    })
}

/// Experts a step of `batch` tokens touches on average, of `n` routed
/// experts with `k` per token chosen uniformly:
///
/// # Formula
///
/// ```text
/// E(batch) = n × (1 − (1 − k/n)^batch)
/// ```
///
/// One token reads `k` experts; a large batch reads all `n`. Source: the
/// expected number of distinct items in `batch` draws of `k` of `n`
/// (routing assumed uniform). Example: gpt-oss-20b (`n` 32, `k` 4): 4 at
/// batch 1, 28.2 at batch 16.
///
/// ```
/// use vramfit_core::methods::speed::experts_touched;
/// assert!((experts_touched(32, 4, 1) - 4.0).abs() < 1e-9);
/// assert!((experts_touched(32, 4, 16) - 28.22).abs() < 0.01);
/// ```
pub fn experts_touched(n: u64, k: u64, batch: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let (n, k) = (n as f64, k.min(n) as f64);
    n * (1.0 - (1.0 - k / n).powf(batch.max(1) as f64))
}

#[cfg(test)]
mod tests;
