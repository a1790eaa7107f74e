//! Memory outside PyTorch's allocator ("non-torch forward increase
//! memory") and the CUDA-graph pool captured after the KV cache.
//!
//! Neither is derivable from vLLM's Python source: both are set by the
//! CUDA driver, NCCL and the kernels loaded on first use. The constants
//! below are measured, calibrated on the 47 vLLM 0.19 start-up logs of an
//! H100 80GB that ship with vramfit (`data/engines/vllm-0.19-h100.csv`),
//! one constant per parallel configuration, none per model.

use super::allocator::MIB;

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

/// Non-torch memory of one worker.
///
/// # Formula
///
/// ```text
/// non_torch = 72 MiB + 184 MiB (last stage) + NCCL(tp)
/// NCCL(1) = 0, NCCL(tp) = 1864 MiB + 31 MiB · (tp − 2)
/// ```
///
/// The window vLLM measures starts after NCCL is initialized
/// (`init_device` in `vllm/v1/worker/gpu_worker.py`) and ends after the
/// profile run (`memory_profiling`, `vllm/utils/mem_utils.py`:
/// `non_torch_increase`); the CUDA context is outside it. Measured, not
/// derived (see the module documentation). Granite-3.x logs show 0.46 GiB
/// on one GPU, 0.21 GiB more, unexplained.
pub fn non_torch(tp: u64, last_stage: bool) -> u64 {
    let mut bytes = NON_TORCH_BASE;
    if last_stage {
        bytes += NON_TORCH_SAMPLER;
    }
    if tp > 1 {
        bytes += NON_TORCH_NCCL_TP2 + NON_TORCH_NCCL_PER_RANK * (tp - 2).min(1 << 20);
    }
    bytes
}

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

    fn gib(b: u64) -> f64 {
        (b as f64 / (1u64 << 30) as f64 * 100.0).round() / 100.0
    }

    #[test]
    fn single_gpu_and_tensor_parallel_totals() {
        assert_eq!(gib(non_torch(1, true)), 0.25);
        assert_eq!(gib(non_torch(1, false)), 0.07);
        assert_eq!(gib(non_torch(2, true)), 2.07);
        assert_eq!(gib(non_torch(4, true)), 2.13);
    }

    #[test]
    fn graphs_grow_with_layers_and_vanish_eager() {
        assert_eq!(cuda_graphs(32, true), 0);
        assert!(cuda_graphs(80, false) > cuda_graphs(32, false));
        assert_eq!(gib(cuda_graphs(32, false)), 0.93);
    }
}
