//! The compute and output buffers llama.cpp allocates next to the weights
//! and the KV cache.
//!
//! The **output buffer** is exact: `llama_context::output_reserve`
//! (`src/llama-context.cpp`) allocates `n_vocab × n_seq_max` f32 logits in
//! host memory when the context is created.
//!
//! The **compute buffers** are what ggml's allocator reserves for the
//! worst-case graph (`n_ubatch` tokens, every KV cell visible, one output
//! per token: `llama_context::graph_reserve`): [`super::graph`] builds that
//! graph's nodes as the scheduler splits them over the backends (copies of
//! the inputs a backend reads from another, host weights staged to the
//! first GPU for their products with `op_offload`), and
//! [`super::ggml_alloc`] replays the allocator over them (in-place reuse,
//! a tensor freed after its last use, best-fit free blocks, alignment).
//! Each backend's buffer is its high-water mark. Not counted: backend
//! scratch memory outside the buffer (the CUDA pool, cuBLAS workspaces)
//! and ops whose intermediate tensors a backend adds of its own.
//!
//! # Formula
//!
//! ```text
//! compute(backend) = max over the graph's nodes in order of the allocator's end offset
//! ```
//!
//! (the nodes and their sizes in [`super::graph`]'s documentation).
//! Llama-3.1-8B Q4_0, `-ub 1024`, 16,384 cells, flash attention (load log
//! A7): the logits (1024 × 128,256 × 4 B = 501 MiB) are placed above the
//! last layer's blocks still in use: 613.0 MiB, as printed.

use super::arch::Layout;
use super::graph::{self, Placement};
use super::kv::ContextSize;
use super::tensors::{GgufTensor, Role};
use crate::scenario::LlamacppCalibration;
use serde::Serialize;
use std::collections::HashMap;

/// Bytes of an f32.
const F32: u64 = 4;

/// A GPU compute buffer by phase, bytes (0 for a phase that does not run
/// on the GPU): `I` the GPU's copies of the graph inputs (masks,
/// positions), then the buffer's high-water mark at the end of the
/// attention (`A`), feed-forward (`F`), output-head (`O`) and
/// staged-weight (`S`) nodes:
///
/// ```text
/// compute = max(A; F; O; S)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ComputePhases {
    pub layer_inputs: u64,
    pub attention: u64,
    pub ffn: u64,
    pub output: u64,
    pub staged: u64,
}

impl ComputePhases {
    /// `max(A; F; O; S)`: the compute buffer.
    pub fn peak(&self) -> u64 {
        self.attention
            .max(self.ffn)
            .max(self.output)
            .max(self.staged)
    }
}

/// The compute and output buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Buffers {
    /// The GPU compute buffer's phases.
    #[serde(skip)]
    pub gpu_phases: ComputePhases,
    /// GPU compute buffer (printed `CUDA0 compute buffer size`).
    pub gpu_compute_bytes: u64,
    /// Host compute buffer: the CPU backend's (`CUDA_Host` / `CPU compute
    /// buffer size`).
    pub host_compute_bytes: u64,
    /// The BLAS backend's compute buffer (`CPU compute buffer size` printed
    /// beside `CUDA_Host`), 0 without one ([`graph::Placement::blas`]).
    pub blas_compute_bytes: u64,
    /// Host output buffer (`output buffer size`): logits of one token per
    /// sequence.
    pub output_bytes: u64,
}

/// The output buffer.
///
/// # Formula
///
/// ```text
/// output = V · s · 4
/// ```
///
/// `V` the vocabulary (rows of the logits), `s` sequences (`n_seq_max`).
/// Source: `src/llama-context.cpp`, `llama_context::output_reserve`
/// (called with `n_seq_max` when the context is created).
///
/// ```
/// use vramfit_core::methods::llamacpp::output_buffer_bytes;
/// assert_eq!(output_buffer_bytes(128_256, 1), 513_024); // "0.49 MiB"
/// ```
pub const fn output_buffer_bytes(n_vocab: u64, n_seq_max: u64) -> u64 {
    n_vocab.saturating_mul(n_seq_max).saturating_mul(F32)
}

/// Each weight's device and bytes by GGUF name, for [`graph::reserve`]: a
/// tied output head on a GPU is `token_embd` duplicated there
/// (`TENSOR_DUPLICATED`), named `output.weight`.
pub(crate) fn weight_map(
    tensors: &[(GgufTensor, u64)],
    device: &dyn Fn(&GgufTensor) -> Option<usize>,
    tied: bool,
    output_dev: Option<usize>,
) -> HashMap<String, (Option<usize>, u64)> {
    let mut m: HashMap<String, (Option<usize>, u64)> = tensors
        .iter()
        .map(|(t, b)| (t.name.clone(), (device(t), *b)))
        .collect();
    if tied {
        if let (Some(g), Some((t, b))) = (
            output_dev,
            tensors.iter().find(|(t, _)| t.role == Role::TokenEmbd),
        ) {
            let _ = t;
            m.insert("output.weight".to_string(), (Some(g), *b));
        }
    }
    m
}

/// Every GPU's compute buffer (with its phases), the host's (the CPU
/// backend's, then the BLAS backend's), and the output buffer; with a load
/// log's `calibration`, each side's replay scaled as the log measured it
/// ([`LlamacppCalibration`]'s formula; both host buffers by the host's
/// ratio, which the log measured over both).
pub(crate) fn reserve(
    layout: &Layout,
    ctx: &ContextSize,
    swa_cells: u64,
    placement: &Placement,
    calibration: Option<&LlamacppCalibration>,
) -> (Vec<Buffers>, u64, u64) {
    let r = graph::reserve(layout, ctx, swa_cells, placement);
    let n = placement.n_gpu;
    let gpu = |b: u64| calibration.map_or(b, |c| c.gpu(b));
    let host = r.bytes.get(n).copied().unwrap_or(0);
    let host = calibration.map_or(host, |c| c.host(host));
    let blas = r.bytes.get(n + 1).copied().unwrap_or(0);
    let blas = calibration.map_or(blas, |c| c.host(blas));
    let output_bytes = output_buffer_bytes(layout.n_vocab, ctx.n_seq_max);
    let gpus = (0..n)
        .map(|g| {
            let [inputs, attention, ffn, output, staged] = r.phases[g];
            Buffers {
                gpu_phases: ComputePhases {
                    layer_inputs: gpu(inputs),
                    attention: gpu(attention),
                    ffn: gpu(ffn),
                    output: gpu(output),
                    staged: gpu(staged),
                },
                gpu_compute_bytes: gpu(r.bytes[g]),
                host_compute_bytes: host,
                blas_compute_bytes: blas,
                output_bytes,
            }
        })
        .collect();
    (gpus, host, blas)
}
