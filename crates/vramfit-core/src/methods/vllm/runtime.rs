//! Memory outside PyTorch's allocator ("non-torch forward increase
//! memory") and the CUDA-graph pool captured after the KV cache.
//!
//! Neither is derivable from vLLM's Python source: both are set by the
//! CUDA driver, NCCL and the kernels loaded on first use. The constants
//! below are measured, calibrated on the 47 vLLM 0.19 start-up logs of an
//! H100 80GB that ship with vramfit (`data/engines/vllm-0.19-h100.csv`),
//! one constant per parallel configuration, none per model.

use super::allocator::MIB;
use serde::Serialize;

/// Non-torch growth every worker shows during profiling (kernel modules
/// loaded on first use, library handles): 0.07 GiB in the logs of
/// pipeline stages that do not sample.
pub const NON_TORCH_BASE: u64 = 72 * MIB;

/// Extra non-torch growth on the stage that samples (the last pipeline
/// stage): 0.25 GiB in total on single-GPU logs.
pub const NON_TORCH_SAMPLER: u64 = 184 * MIB;

/// NCCL buffers allocated at the first all-reduce of a tensor-parallel
/// group (H100 with NVLink SHARP), at two GPUs: 2.07 GiB in total on
/// TP = 2 logs.
pub const NON_TORCH_NCCL_TP2: u64 = 1864 * MIB;

/// Growth of the NCCL buffers per GPU beyond two (2.13 GiB at TP = 4).
pub const NON_TORCH_NCCL_PER_RANK: u64 = 31 * MIB;

/// Growth of the NCCL buffers per GPU beyond four (H100 NVLink, 5.64 GiB
/// of non-torch memory at TP 8): measured on one log (`vllm-logs.md` row 8).
pub const NON_TORCH_NCCL_BEYOND4: u64 = 898 * MIB;

/// Where a runtime term's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// Fitted on start-up logs of this GPU class and link (named in the
    /// table's source).
    Measured,
    /// Taken from another GPU class or link: no log of this one.
    Assumed,
    /// Fitted on the user's own start-up log (`--calibrate`).
    Calibrated,
}

/// The terms vLLM's source does not set: memory outside PyTorch's
/// allocator and the CUDA-graph estimate set aside before the KV cache.
/// One set per GPU class and link ([`super::runtime_table`]), or fitted on
/// a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuntimeTerms {
    /// Non-torch growth every worker shows during profiling.
    pub non_torch_base: u64,
    /// Extra non-torch growth on the stage that samples.
    pub non_torch_sampler: u64,
    /// NCCL buffers of a tensor-parallel group of two.
    pub nccl_tp2: u64,
    /// NCCL growth per GPU from two to four.
    pub nccl_per_rank: u64,
    /// NCCL growth per GPU beyond four.
    pub nccl_per_rank_beyond4: u64,
    /// "Estimated CUDA graph memory" of the releases that set it aside
    /// before the KV cache (0.20 on).
    pub graph_estimate: u64,
    /// A machine's own difference, fitted on its log (0 in the table).
    pub offset: i64,
    pub provenance: Provenance,
}

impl RuntimeTerms {
    /// The H100 80GB with NVLink terms, measured on the 47 vLLM 0.19 logs.
    pub const DEFAULT: RuntimeTerms = RuntimeTerms {
        non_torch_base: NON_TORCH_BASE,
        non_torch_sampler: NON_TORCH_SAMPLER,
        nccl_tp2: NON_TORCH_NCCL_TP2,
        nccl_per_rank: NON_TORCH_NCCL_PER_RANK,
        nccl_per_rank_beyond4: NON_TORCH_NCCL_BEYOND4,
        graph_estimate: GRAPH_ESTIMATE,
        offset: 0,
        provenance: Provenance::Measured,
    };

    /// Non-torch memory of one worker.
    ///
    /// # Formula
    ///
    /// ```text
    /// non_torch = base + sampler (last stage) + NCCL(tp)
    /// NCCL(1) = 0, NCCL(tp) = nccl_tp2 + nccl_per_rank · (min(tp, 4) − 2)
    ///                       + nccl_per_rank_beyond4 · (tp − 4)⁺
    /// ```
    ///
    /// H100 with NVLink: `72 + 184 + 1864 + 31·(min(tp, 4) − 2) + 898·(tp −
    /// 4)⁺` MiB: 2.07 GiB at TP 2, 2.13 at TP 4 (the 0.19 sweep), 5.64 at TP 8
    /// (one log, `vllm-logs.md` row 8, vLLM 0.10.0: rank 0's 55.71 GiB). The window
    /// vLLM measures starts after NCCL is initialized (`init_device` in
    /// `vllm/v1/worker/gpu_worker.py`) and ends after the profile run
    /// (`memory_profiling`, `vllm/utils/mem_utils.py`: `non_torch_increase`);
    /// the CUDA context is outside it. Measured, not derived (see the
    /// module documentation). Granite-3.x logs show 0.46 GiB on one GPU,
    /// 0.21 GiB more, unexplained.
    pub fn non_torch(&self, tp: u64, last_stage: bool) -> u64 {
        let mut bytes = self.non_torch_base;
        if last_stage {
            bytes = bytes.saturating_add(self.non_torch_sampler);
        }
        if tp > 1 {
            let to_four = self.nccl_per_rank.saturating_mul(tp.min(4) - 2);
            let beyond = self
                .nccl_per_rank_beyond4
                .saturating_mul(tp.saturating_sub(4).min(1 << 20));
            bytes = bytes
                .saturating_add(self.nccl_tp2)
                .saturating_add(to_four)
                .saturating_add(beyond);
        }
        crate::units::saturate((bytes as i128 + self.offset as i128).max(0) as u128)
    }

    /// These terms with a machine's offset and graph estimate, fitted on
    /// its log (`calibrate::vllm::fit`), marked calibrated.
    ///
    /// # Formula
    ///
    /// `non_torch' = max(0, non_torch + offset)` on every worker,
    /// `graph_estimate' = G_logged` where the log prints it; the NCCL terms
    /// stay the GPU class's.
    pub fn calibrated(self, c: &crate::scenario::VllmCalibration) -> RuntimeTerms {
        RuntimeTerms {
            offset: c.non_torch_offset_bytes,
            graph_estimate: c.graph_estimate_bytes.unwrap_or(self.graph_estimate),
            provenance: Provenance::Calibrated,
            ..self
        }
    }

    /// What the release sets aside for CUDA graphs before the KV cache.
    ///
    /// # Formula
    ///
    /// `reserve = graph_estimate` when the release profiles the graphs
    /// before the cache (0.20 on, [`super::ReleaseFacts::graphs_before_kv`])
    /// and graphs are captured, else 0. `graph_estimate` = 0.14 GiB: the
    /// three logs that print it (0.13, 0.14, 0.15 GiB on a GB10, an H100
    /// and an A100, `data/engines/vllm-logs.md` rows 5, 7, 10). vLLM
    /// captures two graphs per mode and extrapolates
    /// (`profile_cudagraph_memory`, vllm-project/vllm#45197); that capture is
    /// not modelled.
    pub fn graph_reserve(&self, before_kv: bool, enforce_eager: bool) -> u64 {
        match before_kv && !enforce_eager {
            true => self.graph_estimate,
            false => 0,
        }
    }
}

/// The measured CUDA-graph estimate (0.14 GiB).
pub const GRAPH_ESTIMATE: u64 = 14 * (1 << 30) / 100;

/// CUDA-graph capture memory of one worker ("Graph capturing finished in
/// N secs, took X GiB"), taken after the KV cache is allocated, so it does
/// not reduce the KV cache but must fit in what the utilization leaves.
///
/// # Formula
///
/// `graphs = 557 MiB + 12.2 MiB · L_rank` (0 with `--enforce-eager`),
/// `L_rank` the decoder layers of the worker's stage: a least-squares line
/// through the 47 logs. A rough figure: within ±0.3 GiB on dense models,
/// up to 0.7 GiB low on MoE models (DeepSeek-V2-Lite, Kimi-VL) whose
/// graphs capture the expert kernels per size. Not derived.
pub fn cuda_graphs(layers_on_rank: u64, enforce_eager: bool) -> u64 {
    if enforce_eager {
        return 0;
    }
    let tenths_mib = 5570 + 122 * layers_on_rank.min(1 << 30);
    tenths_mib * MIB / 10
}

#[cfg(test)]
mod tests {
    use super::*;

    fn non_torch(tp: u64, last: bool) -> u64 {
        RuntimeTerms::DEFAULT.non_torch(tp, last)
    }

    fn gib(b: u64) -> f64 {
        (b as f64 / (1u64 << 30) as f64 * 100.0).round() / 100.0
    }

    #[test]
    fn single_gpu_and_tensor_parallel_totals() {
        assert_eq!(gib(non_torch(1, true)), 0.25);
        assert_eq!(gib(non_torch(1, false)), 0.07);
        assert_eq!(gib(non_torch(2, true)), 2.07);
        assert_eq!(gib(non_torch(4, true)), 2.13);
        assert_eq!(gib(non_torch(8, true)), 5.64);
    }

    #[test]
    fn graphs_grow_with_layers_and_vanish_eager() {
        assert_eq!(cuda_graphs(32, true), 0);
        assert!(cuda_graphs(80, false) > cuda_graphs(32, false));
        assert_eq!(gib(cuda_graphs(32, false)), 0.93);
    }
}
