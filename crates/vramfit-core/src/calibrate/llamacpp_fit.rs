//! What a llama.cpp (or Ollama) load log measured that the `llamacpp`
//! method leaves open, fitted for every other scenario on the machine: the
//! compute buffers' ratio of print to replay, the GPU's free memory, the
//! build ([`LlamacppCalibration`]).

use super::llamacpp::LlamacppLog;
use crate::methods::llamacpp::LlamaCppEstimate;
use crate::scenario::{LlamacppCalibration, ScenarioInput};
use crate::units::{Bytes, DisplayUnit};

/// The scenario starts from the log's settings and machine: its context,
/// sequences, cache types, micro-batch, flash attention, offloaded layers,
/// and its first GPU's free memory as the memory to fit.
pub fn start_from(log: &LlamacppLog, input: &mut ScenarioInput) {
    input.context = log.n_ctx;
    input.sequences = log.n_seq_max.unwrap_or(1).max(1);
    if let Some((k, v)) = log.cache_types() {
        input.engine.cache_type_k = Some(k);
        input.engine.cache_type_v = Some(v);
    }
    if let Some(ub) = log.n_ubatch {
        input.engine.ubatch = ub;
    }
    if let Some(fa) = log.flash_attn {
        input.engine.flash_attn = fa;
    }
    if let Some((n, _)) = log.offloaded {
        input.engine.n_gpu_layers = Some(n);
    }
    if let Some(d) = log.devices.first() {
        input.gpu = None;
        input.gpu_memory_gb = Bytes(d.free_mib << 20).in_unit(DisplayUnit::Gb);
    }
}

/// The build number of a printed build (`5274 (d541533a)` → 5274; Ollama
/// and LM Studio print none).
pub fn build_number(log: &LlamacppLog) -> Option<u32> {
    let b = log.build.as_deref()?.trim().trim_start_matches('b');
    let digits: String = b.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The terms `log` gives, `e` being the method's estimate for the log's
/// own settings without a calibration ([`super::llamacpp::inputs`]).
///
/// # Formula
///
/// ```text
/// printed_gpu  = Σ compute buffers the log prints on GPUs
/// replayed_gpu = e.gpu.compute   (ggml's allocator replayed, same settings)
/// printed_host, replayed_host likewise on the host (CUDA_Host, CPU)
/// free = the first device's `MiB free` · 2^20
/// ```
///
/// A side the log does not print, the replay puts nothing on, or whose
/// replay already rounds to the print, keeps the replay (no ratio). Worked example, load log A7 (Llama-3.1-8B Q4_0,
/// Vulkan, `-ub 1024`): 613.01 MiB printed over the replay's, applied to
/// the replay of any other context or micro-batch on that machine.
pub fn fit(log: &LlamacppLog, e: &LlamaCppEstimate) -> LlamacppCalibration {
    // A side's (printed, replayed), where the log prints it and the replay
    // does not already round to the print.
    let side = |host: bool, replayed: u64| {
        let printed = LlamacppLog::sum(&log.compute_buffers, host).bytes();
        let on_side = log.compute_buffers.iter().any(|f| f.on_host() == host);
        let off = replayed.abs_diff(printed) > log.printed_by.half_digit(printed);
        (on_side && replayed > 0 && off).then_some((printed, replayed))
    };
    let (gpu_p, gpu_r) = side(false, e.gpu.compute).unwrap_or((0, 0));
    let host = side(true, e.host.compute + e.host.blas_compute);
    LlamacppCalibration {
        gpu_compute_printed_bytes: gpu_p,
        gpu_compute_replayed_bytes: gpu_r,
        host_compute_printed_bytes: host.map(|h| h.0),
        host_compute_replayed_bytes: host.map(|h| h.1),
        free_bytes: log.devices.first().map(|d| d.free_mib << 20),
        build: build_number(log),
    }
}

#[cfg(test)]
#[path = "llamacpp_fit_tests.rs"]
mod tests;
