//! The formula of every term of every method, in the symbols of the
//! method's own documentation (`docs/methodology.md`, `docs/methods/`).
//! Formulas are written in symbols, the same in every language.
//!
//! Each method matches on every [`Term`]: a new term does not compile until
//! each method says whether it has a formula for it, and a new method does
//! not compile until it has a table here.

use vramfit_core::methods::MethodId;
use vramfit_core::term::Term;

/// The formula of `term` under `method`; `None` where the method does not
/// report the term.
pub fn formula(method: MethodId, term: Term) -> Option<&'static str> {
    match method {
        MethodId::Quick => quick(term),
        MethodId::Lesson => lesson(term),
        MethodId::Allocator => allocator(term),
        MethodId::Range => range(term),
        MethodId::Planner => planner(term),
    }
}

/// Seed 004 (`methods/quick.rs`).
fn quick(term: Term) -> Option<&'static str> {
    Some(match term {
        Term::Weights => "P × b_w / 8",
        Term::KvCache => "2 × L × H_kv × d_head × S × B × b_kv",
        Term::Overhead => "(weights + kv_cache) × o / 100",
        Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::Margin
        | Term::Gradients
        | Term::Optimizer
        | Term::Activations
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::ModelStates
        | Term::Adapters
        | Term::Logits
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext => return None,
    })
}

/// Seed 000 (`methods/lesson.rs`).
fn lesson(term: Term) -> Option<&'static str> {
    Some(match term {
        Term::Weights => "P × b_w / 8",
        Term::KvCache => "2 × L × H_kv × d_head × S × B × b_kv",
        Term::TrainingStates => "P × 18 B",
        Term::Runtime => "R × 2³⁰",
        Term::Activation => "A × 2³⁰",
        Term::Margin => "subtotal × m / 100",
        Term::Overhead
        | Term::Gradients
        | Term::Optimizer
        | Term::Activations
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::ModelStates
        | Term::Adapters
        | Term::Logits
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext => return None,
    })
}

/// Seed 003 (`methods/allocator/`, `docs/allocator-derivation.md`).
fn allocator(term: Term) -> Option<&'static str> {
    Some(match term {
        Term::Weights => "P × w + 4 × A (LoRA)",
        Term::KvCache => "2 × L × B × S × k × a",
        Term::Gradients => "trainable × bytes",
        Term::Optimizer => "AdamW: 2 states / SGD: 1 × trainable × bytes",
        Term::Activations => "tensors alive at the peak + cuBLAS workspace",
        Term::AutocastCache => "a × cast weights (amp)",
        Term::StepWorkspace => "AdamW: trainable × bytes / SGD: 0",
        Term::Overhead => "0.75 GB (outside total)",
        Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::Margin
        | Term::ModelStates
        | Term::Adapters
        | Term::Logits
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext => return None,
    })
}

/// Seed 001 (`methods/range/`): per GPU, `n` GPUs.
fn range(term: Term) -> Option<&'static str> {
    Some(match term {
        Term::Weights => "Σ params × b_w / 8 / n (embeddings and head at 16 bits)",
        Term::KvCache => "model layers × S × B / n",
        Term::ModelStates => "16 × P / n",
        Term::Adapters => "16 × A / n",
        Term::Activations => "2 × T × H × L + 34 × T × H",
        Term::Logits => "4 × V × T",
        Term::Runtime => "1 GB",
        Term::Margin => "0.2 × weights (high − low)",
        Term::Overhead
        | Term::TrainingStates
        | Term::Activation
        | Term::Gradients
        | Term::Optimizer
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext => return None,
    })
}

/// Seed 002 (`methods/planner/`): the most loaded GPU.
fn planner(term: Term) -> Option<&'static str> {
    Some(match term {
        Term::Weights => "(P − U) × b/8 × (1 + meta) × stage/L/TP + U × 2 / TP",
        Term::Adapters => "2 × trainable",
        Term::KvCache => "2 × stage layers × ⌈H_kv/TP⌉ × d × resident tokens × b_kv",
        Term::Activations => "2 × K × tokens × H",
        Term::Logits => "4 × V × active",
        Term::AttentionScores => "2 × ⌈Q heads/TP⌉ × B × S²",
        Term::Gradients => "g × trainable",
        Term::Optimizer => "8 × trainable",
        Term::MasterWeights => "4 × trainable",
        Term::Communication => "2 × 2 × tokens × H × active dimensions",
        Term::OffloadStaging => "body / L / TP",
        Term::Margin => "m × components",
        Term::EngineContext => "1 GiB",
        Term::Overhead
        | Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::ModelStates => return None,
    })
}
