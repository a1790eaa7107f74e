//! What fits a GPU: the most layers at a context, the longest context at a
//! layer count.
//!
//! The GPU side of an estimate must fit the GPU's memory less the margin
//! llama.cpp itself keeps free when it fits parameters to a device
//! (`common/common.h`, `fit_params_target`: 1 GiB per device;
//! `common/fit.cpp`).

use super::kv::CTX_PAD;
use super::{footprint, Fit, Footprint, LlamaCppInputs, LlamaCppRefusal, Prepared};
use crate::units::GIB;

/// Memory llama.cpp keeps free on each device when fitting (1 GiB).
pub const FIT_MARGIN: u64 = GIB;

/// GPU memory the estimate may use.
fn budget(memory: u64) -> u64 {
    memory.saturating_sub(FIT_MARGIN)
}

/// The largest `-ngl` (0 to layers + 1) whose GPU bytes fit, at `n_ctx`.
pub(super) fn max_gpu_layers(
    p: &Prepared,
    inputs: &LlamaCppInputs,
    n_ctx: u64,
    memory: u64,
) -> Result<u64, LlamaCppRefusal> {
    let budget = budget(memory);
    let mut n = p.layout.n_layer.saturating_add(1);
    loop {
        if footprint(p, inputs, n_ctx, n)?.gpu.total <= budget || n == 0 {
            return Ok(n);
        }
        n -= 1;
    }
}

/// The longest context (a multiple of 256, at most `limit`) whose GPU bytes
/// fit at `ngl` layers; GPU bytes grow with the context, so the search
/// halves the interval.
fn max_context(
    p: &Prepared,
    inputs: &LlamaCppInputs,
    ngl: u64,
    limit: u64,
    memory: u64,
) -> Result<Option<u64>, LlamaCppRefusal> {
    let budget = budget(memory);
    let fits = |cells: u64| -> Result<bool, LlamaCppRefusal> {
        Ok(footprint(p, inputs, cells, ngl)?.gpu.total <= budget)
    };
    let (mut lo, mut hi) = (1u64, limit / CTX_PAD);
    if hi == 0 || !fits(CTX_PAD)? {
        return Ok(None);
    }
    // Invariant: lo·256 fits; nothing above hi·256 does.
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        match fits(mid * CTX_PAD)? {
            true => lo = mid,
            false => hi = mid - 1,
        }
    }
    Ok(Some(lo * CTX_PAD))
}

/// The layers and contexts of an estimate: its context, its `-ngl`, the
/// most layers that fit ([`max_gpu_layers`]) and the model's trained
/// context.
pub(super) struct Layers {
    pub n_ctx: u64,
    pub ngl: u64,
    pub most: u64,
    pub trained: Option<u64>,
}

/// What fits a GPU of `memory` bytes, for the estimate `f` made at
/// `n_ctx` cells and `ngl` layers.
pub(super) fn fit(
    p: &Prepared,
    inputs: &LlamaCppInputs,
    f: &Footprint,
    layers: Layers,
    memory: u64,
) -> Result<Fit, LlamaCppRefusal> {
    // The trained context bounds each slot: with one cache per slot, `-c`
    // may be the trained context times the slots.
    let slots = match inputs.kv_unified {
        true => 1,
        false => inputs.n_parallel.max(1),
    };
    let limit = layers
        .trained
        .map_or(layers.n_ctx, |t| t.saturating_mul(slots));
    Ok(Fit {
        gpu_memory_bytes: memory,
        margin_bytes: FIT_MARGIN,
        fits: f.gpu.total <= budget(memory),
        max_gpu_layers: layers.most,
        max_context: max_context(p, inputs, layers.ngl, limit, memory)?,
    })
}
