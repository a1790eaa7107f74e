//! The plan llama.cpp runs: which layers and experts sit on the GPU and
//! which run from host memory, and whether the host has the memory for
//! its part.
//!
//! # Formula
//!
//! ```text
//! host_needed = weights_host + kv_host + compute_host + output     (the plan's host side)
//! host_ram    = R,            when the scenario gives host RAM (--host-ram-gb)
//!             = M_unified − gpu_needed,  else on unified memory (Apple silicon)
//!             = 32 GB,        else (an assumption, stated in the report)
//! host_short  = max(0, host_needed − host_ram)
//! fits        = gpu_needed ≤ M − 1 GiB  and  host_short = 0
//! ```
//!
//! `gpu_needed` is the GPU side of the same split (with `-ngl auto`, the
//! most layers that fit, as llama.cpp chooses them: `common/common.cpp`,
//! `common_fit_params`). The host side of a GGUF is memory-mapped
//! (`llama_model_loader`, `use_mmap`), so a host part larger than the RAM
//! still loads, but every token then reads weights back from disk: the
//! plan is counted as not fitting.
//!
//! On Apple silicon the GPU and the CPU share one memory (`M_unified`, the
//! machine's: the catalog's nominal size, of which the GPU's default share,
//! Metal's wired limit, is `M`): what the GPU side holds is not there for
//! the host side, so the host RAM assumed is what the GPU side leaves.
//! Qwen3-30B-A3B Q4_K_M (17.28 GiB) on an 8 GB M1: 10 layers on the GPU
//! (4.25 GB), 15.47 GB for the host, of the 4.34 GB the 8 GiB leave: it does not fit
//! (a 32 GB desktop's RAM would have said it does).
//!
//! Worked example (the test below): Qwen3-30B-A3B Q4_K_M, 16,384 tokens, on
//! a 16 GiB card: 39 of 49 layers on the GPU (16.09 GB), 4.42 GB on the
//! host, which 8 GB of RAM hold; with the experts of every layer on the host
//! (`--n-cpu-moe 48`), about 17 GB go to the host, which 8 GB do not.

use super::DeviceBytes;
use crate::scenario::Scenario;
use crate::units::Bytes;
use serde::Serialize;

/// Host RAM assumed where the scenario gives none: 32 GB (10⁹), the memory
/// of a common desktop that runs a 16–24 GB GPU.
pub const ASSUMED_HOST_RAM: u64 = 32_000_000_000;

/// Where the plan puts the model, and the host's share checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LlamacppPlan {
    /// Layers on the GPU (the output layer counts as one), of
    /// `layers_total`.
    pub gpu_layers: u64,
    /// Layers run from host memory.
    pub host_layers: u64,
    pub layers_total: u64,
    /// Blocks whose experts run from host memory (`--n-cpu-moe`).
    pub experts_on_host_layers: u64,
    /// What the plan keeps in host memory.
    pub host_needed_bytes: u64,
    /// The host RAM checked against: the scenario's, else on unified
    /// memory what the GPU side leaves of it, else [`ASSUMED_HOST_RAM`].
    pub host_ram_bytes: u64,
    /// Whether `host_ram_bytes` is the assumption.
    pub host_ram_assumed: bool,
    /// Host memory missing (0 when the host part fits).
    pub host_short_by_bytes: u64,
}

impl LlamacppPlan {
    /// The plan for a split of `layers_total` with `gpu_layers` on the GPU
    /// (whose side is `gpu`).
    pub fn new(
        s: &Scenario,
        gpu: &DeviceBytes,
        host: &DeviceBytes,
        gpu_layers: u64,
        layers_total: u64,
        experts_on_host_layers: u64,
    ) -> LlamacppPlan {
        let given = s.host_ram_bytes.get();
        let ram = match (given, s.gpu_memory.wired_limit) {
            // Unified memory: what the GPU side leaves of the machine's.
            (0, Some(_)) => s.gpu_memory.nominal.get().saturating_sub(gpu.total),
            (0, None) => ASSUMED_HOST_RAM,
            (r, _) => r,
        };
        LlamacppPlan {
            gpu_layers,
            host_layers: layers_total.saturating_sub(gpu_layers),
            layers_total,
            experts_on_host_layers: experts_on_host_layers.min(layers_total.saturating_sub(1)),
            host_needed_bytes: host.total,
            host_ram_bytes: ram,
            host_ram_assumed: given == 0,
            host_short_by_bytes: host.total.saturating_sub(ram),
        }
    }

    /// Whether anything runs from host memory.
    pub const fn offloaded(&self) -> bool {
        self.host_layers > 0 || self.experts_on_host_layers > 0
    }

    /// The host shortfall, as bytes.
    pub const fn host_short_by(&self) -> Bytes {
        Bytes(self.host_short_by_bytes)
    }
}
