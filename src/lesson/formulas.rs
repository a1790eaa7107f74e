//! The formula of every term of every method, in the symbols of the
//! method's own documentation (`docs/methodology.md`, `docs/methods/`).
//! Formulas are written in symbols, the same in every language.
//!
//! One arm per [`Term`], and in it one answer per [`MethodId`]: a new term
//! does not compile until each method says whether it has a formula for
//! it, and a new method does not compile until it says so for each term.

use vramfit_core::methods::MethodId::{
    self, Allocator, Lesson, Llamacpp, Planner, Quick, Range, Vllm,
};
use vramfit_core::term::Term;

/// The formula of `term` under `method`; `None` where the method does not
/// report the term.
pub fn formula(method: MethodId, term: Term) -> Option<&'static str> {
    match term {
        Term::Weights => Some(match method {
            Quick | Lesson => "P × b_w / 8",
            Allocator => "P × w + 4 × A (LoRA)",
            Range => "Σ params × b_w / 8 / n (embeddings and head at 16 bits)",
            Planner => "(P − U) × b/8 × (1 + meta) × stage/L/TP + U × 2 / TP",
            Vllm => "Σ tensors as loaded on the rank, each ⌈allocator block⌉",
            Llamacpp => "Σ_GPU tensors row(t_i, ne0) × ne1 × ne2",
        }),
        Term::KvCache => match method {
            Quick | Lesson => Some("2 × L × H_kv × d_head × S × B × b_kv"),
            Allocator => Some("2 × L × B × S × k × a"),
            Range => Some("model layers × S × B / n"),
            Planner => Some("2 × stage layers × ⌈H_kv/TP⌉ × d × resident tokens × b_kv"),
            Vllm => Some("B × Σ_groups ⌈L / block⌉ × page, page = 2 × block × H_kv/TP × d × b_kv"),
            Llamacpp => None,
        },
        Term::Overhead => match method {
            Quick => Some("(weights + kv_cache) × o / 100"),
            Allocator => Some("0.75 GB (outside total)"),
            Lesson | Range | Planner | Vllm | Llamacpp => None,
        },
        Term::TrainingStates => match method {
            Lesson => Some("P × 18 B"),
            Quick | Allocator | Range | Planner | Vllm | Llamacpp => None,
        },
        Term::Runtime => match method {
            Lesson => Some("R × 2³⁰"),
            Range => Some("1 GB"),
            Quick | Allocator | Planner | Vllm | Llamacpp => None,
        },
        Term::Activation => match method {
            Lesson => Some("A × 2³⁰"),
            Quick | Allocator | Range | Planner | Vllm | Llamacpp => None,
        },
        Term::Margin => match method {
            Lesson => Some("subtotal × m / 100"),
            Range => Some("0.2 × weights (high − low)"),
            Planner => Some("m × components"),
            Quick | Allocator | Vllm | Llamacpp => None,
        },
        Term::Gradients => match method {
            Allocator => Some("trainable × bytes"),
            Planner => Some("g × trainable"),
            Quick | Lesson | Range | Vllm | Llamacpp => None,
        },
        Term::Optimizer => match method {
            Allocator => Some("AdamW: 2 states / SGD: 1 × trainable × bytes"),
            Planner => Some("8 × trainable"),
            Quick | Lesson | Range | Vllm | Llamacpp => None,
        },
        Term::Activations => match method {
            Allocator => Some("tensors alive at the peak + cuBLAS workspace"),
            Range => Some("2 × T × H × L + 34 × T × H"),
            Planner => Some("2 × K × tokens × H"),
            Quick | Lesson | Vllm | Llamacpp => None,
        },
        Term::AutocastCache => match method {
            Allocator => Some("a × cast weights (amp)"),
            Quick | Lesson | Range | Planner | Vllm | Llamacpp => None,
        },
        Term::StepWorkspace => match method {
            Allocator => Some("AdamW: trainable × bytes / SGD: 0"),
            Quick | Lesson | Range | Planner | Vllm | Llamacpp => None,
        },
        Term::ModelStates => match method {
            Range => Some("16 × P / n"),
            Quick | Lesson | Allocator | Planner | Vllm | Llamacpp => None,
        },
        Term::Adapters => match method {
            Range => Some("16 × A / n"),
            Planner => Some("2 × trainable"),
            Quick | Lesson | Allocator | Vllm | Llamacpp => None,
        },
        Term::Logits => match method {
            Range => Some("4 × V × T"),
            Planner => Some("4 × V × active"),
            Quick | Lesson | Allocator | Vllm | Llamacpp => None,
        },
        Term::AttentionScores => match method {
            Planner => Some("2 × ⌈Q heads/TP⌉ × B × S²"),
            Quick | Lesson | Allocator | Range | Vllm | Llamacpp => None,
        },
        Term::MasterWeights => match method {
            Planner => Some("4 × trainable"),
            Quick | Lesson | Allocator | Range | Vllm | Llamacpp => None,
        },
        Term::Communication => match method {
            Planner => Some("2 × 2 × tokens × H × active dimensions"),
            Quick | Lesson | Allocator | Range | Vllm | Llamacpp => None,
        },
        Term::OffloadStaging => match method {
            Planner => Some("body / L / TP"),
            Quick | Lesson | Allocator | Range | Vllm | Llamacpp => None,
        },
        Term::EngineContext => match method {
            Planner => Some("1 GiB"),
            Quick | Lesson | Allocator | Range | Vllm | Llamacpp => None,
        },
        Term::ActivationPeak => match method {
            Vllm => Some("W_gemm + W_moe + M_mm + B_pp + max(encoder, forward, sampler)"),
            Quick | Lesson | Allocator | Range | Planner | Llamacpp => None,
        },
        Term::NonTorch => match method {
            Vllm => Some("72 MiB + 184 MiB (last stage) + NCCL(TP)"),
            Quick | Lesson | Allocator | Range | Planner | Llamacpp => None,
        },
        Term::CudaGraphs => match method {
            Vllm => Some("557 MiB + 12.2 MiB × L_stage (outside requested memory)"),
            Quick | Lesson | Allocator | Range | Planner | Llamacpp => None,
        },
        Term::KCache => match method {
            Llamacpp => Some("Σ_GPU layers row(t_k, H_kv × d) × n_ctx"),
            Quick | Lesson | Allocator | Range | Planner | Vllm => None,
        },
        Term::VCache => match method {
            Llamacpp => Some("Σ_GPU layers row(t_v, H_kv × d) × n_ctx"),
            Quick | Lesson | Allocator | Range | Planner | Vllm => None,
        },
        Term::ComputeBuffer => match method {
            Llamacpp => Some(
                "max(4T × (2H + H_q·d + 2·H_kv·d + H_q·d), 4T × (2H + 2F), 4T × (H + V)) + masks",
            ),
            Quick | Lesson | Allocator | Range | Planner | Vllm => None,
        },
        Term::OutputBuffer => match method {
            Llamacpp => Some("4 × V × slots (outside total)"),
            Quick | Lesson | Allocator | Range | Planner | Vllm => None,
        },
        Term::HostPart => match method {
            Llamacpp => Some("weights + K + V + compute of the host layers (outside total)"),
            Quick | Lesson | Allocator | Range | Planner | Vllm => None,
        },
    }
}
