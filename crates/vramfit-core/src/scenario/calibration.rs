//! A machine's runtime terms for vLLM as fitted on its own start-up log
//! (`vramfit estimate --calibrate LOG`, `calibrate::vllm::fit`): what the
//! scenario carries to every other estimate on that machine.

use serde::{Deserialize, Serialize};

/// vLLM's runtime terms on one machine, fitted on its log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VllmCalibration {
    /// Added to every worker's non-torch memory: what the log's non-KV
    /// memory holds beyond the prediction (negative where it holds less).
    pub non_torch_offset_bytes: i64,
    /// "Estimated CUDA graph memory" as the log prints it (printed from
    /// 0.18, set aside from 0.20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_estimate_bytes: Option<u64>,
    /// The GPU's total as CUDA reports it, where the log prints it: the
    /// machine's own figure, used instead of the catalog's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_total_bytes: Option<u64>,
}

/// What a llama.cpp (or Ollama) load log of this machine measured that
/// the `llamacpp` method leaves open, fitted on the log
/// (`calibrate::llamacpp::fit`): every other scenario on the machine (another
/// context, micro-batch or model) takes them. Its provenance is the
/// user's own log: the figures are the log's prints and the method's
/// replay of the log's settings.
///
/// # Formula
///
/// ```text
/// compute'(backend) = ⌊compute_replay(backend) · printed / replayed + ½⌋
/// ```
///
/// `printed` the log's compute buffers on that side (the GPUs together, or
/// the host), `replayed` ggml's allocator replayed for the log's own
/// settings ([`crate::methods::llamacpp`]'s graph): the backend's own
/// scratch and kernel choices the replay does not see scale with the
/// graph. The log's own scenario then comes back to its print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlamacppCalibration {
    /// The GPUs' compute buffers as the log prints them, bytes.
    pub gpu_compute_printed_bytes: u64,
    /// The replay's GPU compute buffers for the log's settings, bytes.
    pub gpu_compute_replayed_bytes: u64,
    /// The host's compute buffers as printed (`CUDA_Host`, `CPU`), where
    /// the log prints them and the replay has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_compute_printed_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_compute_replayed_bytes: Option<u64>,
    /// The first GPU's free memory when the log's model loaded
    /// (`using device CUDA0 (…) - 23041 MiB free`; Ollama's `available`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_bytes: Option<u64>,
    /// The build the log prints (`build: 5274 (d541533a)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<u32>,
}

impl LlamacppCalibration {
    /// `bytes` of the GPU side's replay scaled as the log measured.
    pub fn gpu(&self, bytes: u64) -> u64 {
        scale(
            bytes,
            self.gpu_compute_printed_bytes,
            self.gpu_compute_replayed_bytes,
        )
    }

    /// `bytes` of the host side's replay scaled as the log measured.
    pub fn host(&self, bytes: u64) -> u64 {
        match (
            self.host_compute_printed_bytes,
            self.host_compute_replayed_bytes,
        ) {
            (Some(p), Some(r)) => scale(bytes, p, r),
            _ => bytes,
        }
    }

    /// The GPU side's factor in millionths (1,000,000 = the replay).
    pub fn gpu_ppm(&self) -> u64 {
        self.gpu(1_000_000)
    }
}

/// `⌊bytes · num / den + ½⌋`, `bytes` where `den` is 0 (nothing replayed:
/// nothing to scale).
///
/// ```
/// use vramfit_core::scenario::LlamacppCalibration;
/// let c = LlamacppCalibration {
///     gpu_compute_printed_bytes: 613,
///     gpu_compute_replayed_bytes: 517,
///     host_compute_printed_bytes: None,
///     host_compute_replayed_bytes: None,
///     free_bytes: None,
///     build: None,
/// };
/// assert_eq!(c.gpu(517), 613);
/// assert_eq!(c.gpu(1034), 1226);
/// assert_eq!(c.host(80), 80);
/// ```
fn scale(bytes: u64, num: u64, den: u64) -> u64 {
    if den == 0 {
        return bytes;
    }
    let v = (u128::from(bytes) * u128::from(num) + u128::from(den) / 2) / u128::from(den);
    u64::try_from(v).unwrap_or(u64::MAX)
}
