//! llama.cpp's offload moves as single adjustments: fewer layers on the
//! GPU (`-ngl N`), the experts of N blocks in host memory (`--n-cpu-moe
//! N`), each at the value that fits with the least moved to the host.
//! The smaller context and the smaller KV type are the general moves
//! (`Change::Context`, `Change::KvBytes`), which llama.cpp's plan reads
//! too: a smaller cache leaves room for more layers on the GPU.

use super::{fits, rerun_change, Change, Cost};
use crate::methods::engine::EngineReport;
use crate::methods::{self, MethodId};
use crate::scenario::Scenario;

/// The offload moves that make a llama.cpp plan fit; empty for the other
/// methods.
pub(super) fn moves(method: MethodId, s: &Scenario) -> Vec<(Change, Cost)> {
    if method != MethodId::Llamacpp {
        return Vec::new();
    }
    let Some(EngineReport::Llamacpp(l)) = methods::run(method, s).ok().and_then(|r| r.engine)
    else {
        return Vec::new();
    };
    let fits_with = |c: Change| rerun_change(method, s, c).is_some_and(|r| fits(&r));
    let mut out = Vec::new();
    // Fewer layers, where `-ngl` was given and more than fit: the most
    // that fit.
    if s.engine
        .n_gpu_layers
        .is_some_and(|n| n.min(l.layers_total) > l.max_gpu_layers)
        && fits_with(Change::GpuLayers(l.max_gpu_layers))
    {
        out.push((
            Change::GpuLayers(l.max_gpu_layers),
            Cost::RunsFromHostMemory,
        ));
    }
    let moe = s.model.as_deref().is_some_and(|m| m.moe.is_some());
    let blocks = l.layers_total.saturating_sub(1);
    if moe && blocks > 0 {
        let current = s.engine.n_cpu_moe.min(blocks);
        // More experts on the host: the fewest blocks that fit.
        let more = (current + 1..=blocks).collect::<Vec<_>>();
        let first_fit = more.partition_point(|n| !fits_with(Change::CpuMoe(*n)));
        if let Some(n) = more.get(first_fit) {
            out.push((Change::CpuMoe(*n), Cost::RunsFromHostMemory));
        }
        // Fewer experts on the host (the host RAM is short): the most
        // blocks that still fit on the GPU.
        if current > 0 && l.plan.host_short_by_bytes > 0 {
            let fewer: Vec<u64> = (0..current).rev().collect();
            let first_fit = fewer.partition_point(|n| !fits_with(Change::CpuMoe(*n)));
            if let Some(n) = fewer.get(first_fit) {
                out.push((Change::CpuMoe(*n), Cost::MoreGpuMemory));
            }
        }
    }
    out
}
