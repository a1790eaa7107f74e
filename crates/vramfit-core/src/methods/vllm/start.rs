//! The errors vLLM prints when it would not start, in its own wording,
//! and the longest context that starts.

use super::kv;
use super::RankEstimate;
use crate::units::{Bytes, DisplayUnit};
use serde::Serialize;

/// Why vLLM would not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StartErrorKind {
    /// `--max-model-len` beyond what the config allows.
    ContextBeyondModel,
    /// The weights do not fit in the GPU.
    WeightsDoNotFit,
    /// Nothing is left for the KV cache.
    NoKvMemory,
    /// One request of `max_model_len` tokens does not fit in the KV cache.
    ContextDoesNotFit,
    /// Less memory is free at start-up than the utilization requests.
    NotEnoughFreeMemory,
}

/// The error vLLM would print, with its own wording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StartError {
    pub kind: StartErrorKind,
    pub message: String,
}

/// The largest `len ≤ ceiling` with `fits(len)`, 0 if even 1 does not fit
/// (`_estimate_max_model_len_from_groups`, a binary search).
pub(super) fn largest_fitting(ceiling: u64, fits: &dyn Fn(u64) -> bool) -> u64 {
    if ceiling == 0 || !fits(1) {
        return 0;
    }
    let (mut lo, mut hi, mut best) = (1u64, ceiling, 1u64);
    while lo <= hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    best
}

pub(super) struct StartCheck<'a> {
    pub ranks: &'a [RankEstimate],
    pub workers: &'a [kv::WorkerGroups<'a>],
    pub with_cache: &'a [usize],
    pub availability: &'a [i128],
    pub max_model_len: u64,
    pub derived: u64,
    pub given: Option<u64>,
    pub gpu_total_bytes: u64,
    /// What other processes hold at start-up.
    pub other_bytes: u64,
    pub requested: u64,
    pub utilization: super::Utilization,
    pub block: u64,
    pub batch_tokens: u64,
}

/// The first error vLLM would raise, in the order it checks: the config,
/// the free memory at start-up (`request_memory`, `vllm/v1/worker/utils.py`:
/// `free < ⌈total · u⌉`, free being what others leave of the total: the
/// system's free memory on unified memory), model loading, then each
/// worker's KV cache
/// (`_check_enough_kv_cache_memory` in `vllm/v1/core/kv_cache_utils.py`).
pub(super) fn start_error(c: StartCheck) -> Option<StartError> {
    const TIPS: &str = "See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ \
                        for more details.";
    if let Some(len) = c.given.filter(|l| *l > c.derived) {
        return Some(StartError {
            kind: StartErrorKind::ContextBeyondModel,
            message: format!(
                "User-specified max_model_len ({len}) is greater than the derived \
                 max_model_len (max_position_embeddings={} or model_max_length=None in \
                 model's config.json). To allow overriding this maximum, set the env var \
                 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.",
                c.derived
            ),
        });
    }
    let free = c.gpu_total_bytes.saturating_sub(c.other_bytes);
    if free < c.requested {
        let gib = |b: u64| Bytes(b).hundredths_text(DisplayUnit::Gib);
        return Some(StartError {
            kind: StartErrorKind::NotEnoughFreeMemory,
            message: format!(
                "Free memory on device ({}/{} GiB) on startup is less than desired GPU memory \
                 utilization ({}, {} GiB). Decrease GPU memory utilization or reduce GPU memory \
                 used by other processes.",
                gib(free),
                gib(c.gpu_total_bytes),
                c.utilization.text(),
                gib(c.requested),
            ),
        });
    }
    if c.ranks.iter().any(|r| r.weights_bytes > c.gpu_total_bytes) {
        return Some(StartError {
            kind: StartErrorKind::WeightsDoNotFit,
            message: "Failed to load model - not enough GPU memory. Try lowering \
                      --gpu-memory-utilization to free memory for weights, increasing \
                      --tensor-parallel-size, or using --quantization. See \
                      https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for \
                      more tips."
                .to_string(),
        });
    }
    for &i in c.with_cache {
        let available = c.availability[i];
        if available <= 0 {
            return Some(StartError {
                kind: StartErrorKind::NoKvMemory,
                message: format!(
                    "No available memory for the cache blocks. Try increasing \
                     `gpu_memory_utilization` when initializing the engine. {TIPS}"
                ),
            });
        }
        let worker = &c.workers[i];
        let needed = worker.needed(c.max_model_len, c.block, c.batch_tokens);
        if needed > available as u128 {
            let fits = |len: u64| worker.needed(len, c.block, c.batch_tokens) <= available as u128;
            let estimated = largest_fitting(c.max_model_len, &fits);
            let estimated_msg = match estimated {
                0 => String::new(),
                n => format!(
                    "Based on the available memory, the estimated maximum model length is {n}. "
                ),
            };
            return Some(StartError {
                kind: StartErrorKind::ContextDoesNotFit,
                message: format!(
                    "To serve at least one request with the models's max seq len ({}), ({} GiB \
                     KV cache is needed, which is larger than the available KV cache memory \
                     ({} GiB). {estimated_msg}Try increasing `gpu_memory_utilization` or \
                     decreasing `max_model_len` when initializing the engine. {TIPS}",
                    c.max_model_len,
                    Bytes(crate::units::saturate(needed)).hundredths_text(DisplayUnit::Gib),
                    Bytes(crate::units::saturate(available as u128))
                        .hundredths_text(DisplayUnit::Gib),
                ),
            });
        }
    }
    None
}
