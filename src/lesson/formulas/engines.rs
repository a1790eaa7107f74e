//! The engine methods' terms — what vLLM and llama.cpp themselves
//! allocate — derived from the core's engine estimates
//! (`vramfit_core::methods::vllm`, `llamacpp`), with the formulas of
//! `docs/methods/vllm.md` and `docs/methods/llamacpp.md`.
//!
//! Each part is one figure of the engine's own estimate (weights, the
//! profiling peak, the memory outside PyTorch, the KV cache memory, CUDA
//! graphs; the file's tensors, K and V caches, the output buffer, the
//! compute buffers); `vllm.rs` and `llamacpp.rs` turn the scenario's
//! terms into them. `tests/lesson.rs` checks every substituted formula
//! against the estimate's bytes.

use crate::i18n::format::{self, NumberStyle};
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::llamacpp::{LlamaCppEstimate, LlamaCppInputs};
use vramfit_core::methods::vllm::{RankEstimate, VllmEstimate, VllmInputs};
use vramfit_core::model::{AttentionKind, ModelSpec};

/// A term in parts: formula in symbols, the symbols with their values,
/// the numbers in place (`None` where the method only approximates it).
pub type Parts = (String, Vec<(Symbol, String)>, Option<String>);

/// A term of the `vllm` method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VllmPart {
    /// "Model loading took".
    Weights,
    /// "torch peak memory increase".
    ActivationPeak,
    /// "non-torch forward increase memory".
    NonTorch,
    /// "Available KV cache memory".
    KvCache,
    /// CUDA graphs: the estimate set aside before the KV cache (0.20 on),
    /// else the capture after it.
    CudaGraphs,
}

const MIB: u64 = 1 << 20;

/// Numbers written for the language.
pub struct Num<'a>(pub &'a NumberStyle);

impl Num<'_> {
    fn int(&self, n: u64) -> String {
        format::integer(self.0, n)
    }

    fn dec(&self, x: f64) -> String {
        format::plain(self.0, x)
    }
}

/// The worker whose figures the estimate reports (the one with the
/// fewest KV blocks).
fn head(e: &VllmEstimate) -> Option<&RankEstimate> {
    e.ranks.iter().find(|r| {
        r.weights_bytes == e.weights_bytes
            && r.activation_peak_bytes == e.activation_peak_bytes
            && r.kv_cache_bytes == e.kv_cache_bytes
    })
}

/// `sign = a + b + …` over the parts that are not zero.
fn sum(c: &Num, sign: &str, parts: &[(Symbol, u64)]) -> Parts {
    let present: Vec<&(Symbol, u64)> = parts.iter().filter(|(_, v)| *v > 0).collect();
    let formula = present
        .iter()
        .map(|(s, _)| s.sign())
        .collect::<Vec<_>>()
        .join(" + ");
    let numbers = present
        .iter()
        .map(|(_, v)| c.int(*v))
        .collect::<Vec<_>>()
        .join(" + ");
    (
        format!("{sign} = {formula}"),
        present.iter().map(|(s, v)| (*s, c.int(*v))).collect(),
        Some(numbers),
    )
}

/// One of vLLM's terms for the estimate `e` of `inputs`, on the worker
/// whose figures the estimate reports.
pub fn vllm(part: VllmPart, e: &VllmEstimate, inputs: &VllmInputs, c: &Num) -> Option<Parts> {
    Some(vllm_on(part, e, head(e)?, inputs, c))
}

/// One of vLLM's terms for the estimate `e` of `inputs`, on the worker
/// `rank`.
pub fn vllm_on(
    part: VllmPart,
    e: &VllmEstimate,
    rank: &RankEstimate,
    inputs: &VllmInputs,
    c: &Num,
) -> Parts {
    match part {
        VllmPart::Weights => {
            let w = &rank.weights;
            sum(
                c,
                "W",
                &[
                    (Symbol::EmbeddingBytes, w.embeddings),
                    (Symbol::AttentionBytes, w.attention),
                    (Symbol::MlpBytes, w.mlp),
                    (Symbol::ExpertBytes, w.experts),
                    (Symbol::SmallBytes, w.small),
                    (Symbol::RopeBytes, w.rope),
                    (Symbol::VisionBytes, w.vision),
                ],
            )
        }
        VllmPart::ActivationPeak => {
            let p = &rank.profile;
            let (held_f, mut symbols, held_n) = sum(
                c,
                "AP",
                &[
                    (Symbol::GemmWorkspace, p.gemm_workspaces),
                    (Symbol::MoeWorkspace, p.moe_workspace),
                    (Symbol::MultimodalBytes, p.multimodal),
                    (Symbol::PipelineBuffers, p.pipeline_buffers),
                ],
            );
            symbols.extend([
                (Symbol::EncoderPeak, c.int(p.encoder)),
                (Symbol::ForwardPeak, c.int(p.forward)),
                (Symbol::SamplerPeak, c.int(p.sampler)),
            ]);
            (
                format!("{held_f} + max(E_enc; F_fwd; S_smp)"),
                symbols,
                Some(format!(
                    "{} + max({}; {}; {})",
                    held_n.unwrap_or_default(),
                    c.int(p.encoder),
                    c.int(p.forward),
                    c.int(p.sampler)
                )),
            )
        }
        VllmPart::NonTorch => {
            let last = e.ranks.last().is_some_and(|r| r.stage == rank.stage);
            let tp = inputs.tp as u64;
            let nccl = match tp {
                0 | 1 => c.int(0),
                _ => format!(
                    "{} + {} × ({} − 2)",
                    c.int(1_864 * MIB),
                    c.int(31 * MIB),
                    c.int(tp)
                ),
            };
            (
                "NT = 72 MiB + 184 MiB × last + NCCL(TP)".into(),
                vec![
                    (Symbol::LastStage, c.int(u64::from(last))),
                    (Symbol::Tp, c.int(tp)),
                ],
                Some(format!(
                    "{} + {} × {} + {nccl}",
                    c.int(72 * MIB),
                    c.int(184 * MIB),
                    c.int(u64::from(last))
                )),
            )
        }
        VllmPart::KvCache => {
            let u = inputs.gpu_memory_utilization.0 as u64;
            let g = rank.graph_reserve_bytes;
            let mut symbols = vec![
                (Symbol::GpuTotal, c.int(e.gpu_total_bytes)),
                (Symbol::Utilization, c.dec(u as f64 / 10_000.0)),
            ];
            // From 0.20 the graph estimate is taken off too.
            let (formula, reserve) = match g > 0 {
                true => {
                    symbols.push((Symbol::GraphEstimate, c.int(g)));
                    (
                        "KV = max(⌈M_total × u⌉ − (W + AP + NT + G_est); 0)",
                        format!(" + {}", c.int(g)),
                    )
                }
                false => ("KV = max(⌈M_total × u⌉ − (W + AP + NT); 0)", String::new()),
            };
            (
                formula.into(),
                symbols,
                Some(
                    format!(
                        "max(⌈{} × {} / 10,000⌉ − ({} + {} + {}{reserve}); 0)",
                        c.int(e.gpu_total_bytes),
                        c.int(u),
                        c.int(rank.weights_bytes),
                        c.int(rank.activation_peak_bytes),
                        c.int(rank.non_torch_bytes)
                    )
                    .replace("10,000", &c.int(10_000)),
                ),
            )
        }
        // From 0.20 the term is the estimate set aside before the cache.
        VllmPart::CudaGraphs if rank.graph_reserve_bytes > 0 => (
            "CG = G_est".into(),
            vec![(Symbol::GraphEstimate, c.int(rank.graph_reserve_bytes))],
            Some(c.int(rank.graph_reserve_bytes)),
        ),
        VllmPart::CudaGraphs => {
            let layers = e
                .ranks
                .iter()
                .map(|r| r.layers.1 - r.layers.0)
                .max()
                .unwrap_or(0);
            let graphs = e.cuda_graph_bytes > 0;
            (
                "CG = 557 MiB + 12.2 MiB × L_st".into(),
                vec![(Symbol::StageLayers, c.int(layers))],
                Some(match graphs {
                    true => format!(
                        "⌊557 × {mib} + {} × {mib} × {}⌋",
                        c.dec(12.2),
                        c.int(layers),
                        mib = c.int(MIB)
                    ),
                    // --enforce-eager: no graphs captured.
                    false => c.int(0),
                }),
            )
        }
    }
}

/// A term of the `llamacpp` method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlamaCppPart {
    /// The file's tensors ("model size").
    ModelSize,
    /// The K cache of every layer.
    KCache,
    /// The V cache of every layer.
    VCache,
    /// The output buffer (logits, host memory).
    OutputBuffer,
    /// The compute buffers (an approximation from the graph).
    ComputeBuffer,
}

/// Whether every layer keeps one full-attention cache of the same width
/// (the cache then fits on one line).
pub fn uniform_full(spec: &ModelSpec) -> bool {
    spec.kv_heads_by_layer.is_none()
        && spec.kv_dims_by_layer.is_none()
        && spec.attention.iter().all(|k| *k == AttentionKind::Full)
}

/// One of llama.cpp's terms for the estimate `e` of `inputs` on `spec`;
/// the caches over `layers` (`(Symbol::Layers, L)` for the whole file,
/// `(Symbol::GpuLayers, L_gpu)` for the GPU's share).
pub fn llamacpp(
    part: LlamaCppPart,
    e: &LlamaCppEstimate,
    inputs: &LlamaCppInputs,
    spec: &ModelSpec,
    layers: (Symbol, u64),
    c: &Num,
) -> Parts {
    let ctx = &e.context;
    let cache = |ty: vramfit_core::methods::llamacpp::ggml_type::GgmlType, sign: &str| -> Parts {
        let width = spec.num_kv_heads * spec.head_dim;
        let symbols = vec![
            (layers.0, c.int(layers.1)),
            (Symbol::KvWidth, c.int(width)),
            (Symbol::BlockValues, c.int(ty.block_size())),
            (Symbol::BlockBytes, c.int(ty.type_size())),
            (Symbol::Cells, c.int(ctx.n_ctx_seq)),
            (Symbol::Streams, c.int(ctx.n_stream)),
        ];
        let numbers = uniform_full(spec).then(|| {
            format!(
                "{} × {} / {} × {} × {} × {}",
                c.int(layers.1),
                c.int(width),
                c.int(ty.block_size()),
                c.int(ty.type_size()),
                c.int(ctx.n_ctx_seq),
                c.int(ctx.n_stream)
            )
        });
        (
            format!(
                "{sign} = {} × k / blck × size × n_ctx × streams",
                layers.0.sign()
            ),
            symbols,
            numbers,
        )
    };
    match part {
        LlamaCppPart::ModelSize => {
            let symbols = e
                .tensor_types
                .iter()
                .map(|t| {
                    (
                        Symbol::TypeBytes,
                        format!(
                            "{} ({} × {})",
                            c.int(t.bytes),
                            t.ggml_type.name(),
                            c.int(t.tensors)
                        ),
                    )
                })
                .collect();
            let numbers = e
                .tensor_types
                .iter()
                .map(|t| c.int(t.bytes))
                .collect::<Vec<_>>()
                .join(" + ");
            ("W = Σ_types B_t".into(), symbols, Some(numbers))
        }
        LlamaCppPart::KCache => cache(inputs.cache_type_k, "K"),
        LlamaCppPart::VCache => cache(inputs.cache_type_v, "V"),
        LlamaCppPart::OutputBuffer => (
            "OB = V × s × 4".into(),
            vec![
                (Symbol::Vocab, c.int(spec.vocab_size)),
                (Symbol::Slots, c.int(ctx.n_seq_max)),
            ],
            Some(format!(
                "{} × {} × 4",
                c.int(spec.vocab_size),
                c.int(ctx.n_seq_max)
            )),
        ),
        LlamaCppPart::ComputeBuffer => (
            "CB = max over the graph's phases of the tensors alive, 4 × T × (…)".into(),
            vec![(Symbol::Ubatch, c.int(ctx.n_ubatch))],
            None,
        ),
    }
}
