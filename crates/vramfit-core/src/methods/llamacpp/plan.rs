//! The plan llama.cpp runs: which layers and experts sit on the GPU and
//! which run from host memory, and whether the host has the memory for
//! its part.
//!
//! # Formula
//!
//! ```text
//! host_side   = weights_host + kv_host + compute_host + output     (the plan's host side)
//! host_needed = host_side,                a GPU with memory of its own
//!             = host_side + gpu_needed,   unified memory (Apple silicon, AMD APUs,
//!                                         DGX Spark): both sides are the same memory
//! host_ram    = R,            when the scenario gives host RAM (--host-ram-gb)
//!             = U,            else on unified memory: the machine's memory
//!             = 32 GB,        else (an assumption, stated in the report)
//! host_short  = max(0, host_needed − host_ram)
//! fits        = gpu_needed ≤ M − 1 GiB  and  host_short = 0
//! ```
//!
//! On unified memory the GPU's limit `M` (Metal's wired limit, an APU's
//! GTT) is a share of `U`, not memory besides it: a partial offload that
//! keeps the GPU within `M` may still need more than `U` in all. Worked
//! example (`tests/engines.rs`): Qwen3-32B Q8_0 on an M3 Pro with 36 GiB
//! (38.65 GB), `-ngl 40`, 16,384 tokens: the GPU's 23.97 GB fit its wired
//! share (27 GiB), the host's 15.69 GB would fit 32 GB of a separate host,
//! but together (39.66 GB) they are 1.00 GB above the machine's memory.
//!
//! `gpu_needed` is the GPU side of the same split (with `-ngl auto`, the
//! most layers that fit, as llama.cpp chooses them: `common/common.cpp`,
//! `common_fit_params`). The host side of a GGUF is memory-mapped
//! (`llama_model_loader`, `use_mmap`), so a host part larger than the RAM
//! still loads, but every token then reads weights back from disk: the
//! plan is counted as not fitting.
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
    /// The host RAM checked against: the scenario's, else
    /// [`ASSUMED_HOST_RAM`].
    pub host_ram_bytes: u64,
    /// Whether `host_ram_bytes` is the assumption.
    pub host_ram_assumed: bool,
    /// The GPU shares the host's memory: `host_needed_bytes` counts the
    /// GPU side too, and `host_ram_bytes` is the machine's memory.
    pub unified_memory: bool,
    /// Host memory missing (0 when the host part fits).
    pub host_short_by_bytes: u64,
}

impl LlamacppPlan {
    /// The plan for a split of `layers_total` with `gpu_layers` on the
    /// GPU, whose side of it is `gpu_needed` bytes.
    pub fn new(
        s: &Scenario,
        host: &DeviceBytes,
        gpu_needed: u64,
        gpu_layers: u64,
        layers_total: u64,
        experts_on_host_layers: u64,
    ) -> LlamacppPlan {
        let unified = s.gpu.is_some_and(|g| {
            g.unified_memory || crate::catalog::gpus::apu::shared_row(&g.name).is_some()
        });
        let given = s.host_ram_bytes.get();
        let ram = match (given, unified) {
            (0, true) => s.gpu_memory.nominal.get(),
            (0, false) => ASSUMED_HOST_RAM,
            (r, _) => r,
        };
        let needed = match unified {
            true => host.total.saturating_add(gpu_needed),
            false => host.total,
        };
        LlamacppPlan {
            gpu_layers,
            host_layers: layers_total.saturating_sub(gpu_layers),
            layers_total,
            experts_on_host_layers: experts_on_host_layers.min(layers_total.saturating_sub(1)),
            host_needed_bytes: needed,
            host_ram_bytes: ram,
            host_ram_assumed: given == 0 && !unified,
            unified_memory: unified,
            host_short_by_bytes: needed.saturating_sub(ram),
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
