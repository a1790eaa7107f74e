//! The formula of every term of every method, in the symbols of the
//! method's own documentation (`docs/methodology.md`, `docs/methods/`).
//! Formulas are written in symbols, the same in every language.
//!
//! One arm per [`Term`], and in it one answer per [`MethodId`]: a new term
//! does not compile until each method says whether it has a formula for
//! it, and a new method does not compile until it says so for each term.

use vramfit_core::methods::MethodId::{self, Allocator, Lesson, Planner, Quick, Range};
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
        }),
        Term::KvCache => Some(match method {
            Quick | Lesson => "2 × L × H_kv × d_head × S × B × b_kv",
            Allocator => "2 × L × B × S × k × a",
            Range => "model layers × S × B / n",
            Planner => "2 × stage layers × ⌈H_kv/TP⌉ × d × resident tokens × b_kv",
        }),
        Term::Overhead => match method {
            Quick => Some("(weights + kv_cache) × o / 100"),
            Allocator => Some("0.75 GB (outside total)"),
            Lesson | Range | Planner => None,
        },
        Term::TrainingStates => match method {
            Lesson => Some("P × 18 B"),
            Quick | Allocator | Range | Planner => None,
        },
        Term::Runtime => match method {
            Lesson => Some("R × 2³⁰"),
            Range => Some("1 GB"),
            Quick | Allocator | Planner => None,
        },
        Term::Activation => match method {
            Lesson => Some("A × 2³⁰"),
            Quick | Allocator | Range | Planner => None,
        },
        Term::Margin => match method {
            Lesson => Some("subtotal × m / 100"),
            Range => Some("0.2 × weights (high − low)"),
            Planner => Some("m × components"),
            Quick | Allocator => None,
        },
        Term::Gradients => match method {
            Allocator => Some("trainable × bytes"),
            Planner => Some("g × trainable"),
            Quick | Lesson | Range => None,
        },
        Term::Optimizer => match method {
            Allocator => Some("AdamW: 2 states / SGD: 1 × trainable × bytes"),
            Planner => Some("8 × trainable"),
            Quick | Lesson | Range => None,
        },
        Term::Activations => match method {
            Allocator => Some("tensors alive at the peak + cuBLAS workspace"),
            Range => Some("2 × T × H × L + 34 × T × H"),
            Planner => Some("2 × K × tokens × H"),
            Quick | Lesson => None,
        },
        Term::AutocastCache => match method {
            Allocator => Some("a × cast weights (amp)"),
            Quick | Lesson | Range | Planner => None,
        },
        Term::StepWorkspace => match method {
            Allocator => Some("AdamW: trainable × bytes / SGD: 0"),
            Quick | Lesson | Range | Planner => None,
        },
        Term::ModelStates => match method {
            Range => Some("16 × P / n"),
            Quick | Lesson | Allocator | Planner => None,
        },
        Term::Adapters => match method {
            Range => Some("16 × A / n"),
            Planner => Some("2 × trainable"),
            Quick | Lesson | Allocator => None,
        },
        Term::Logits => match method {
            Range => Some("4 × V × T"),
            Planner => Some("4 × V × active"),
            Quick | Lesson | Allocator => None,
        },
        Term::AttentionScores => match method {
            Planner => Some("2 × ⌈Q heads/TP⌉ × B × S²"),
            Quick | Lesson | Allocator | Range => None,
        },
        Term::MasterWeights => match method {
            Planner => Some("4 × trainable"),
            Quick | Lesson | Allocator | Range => None,
        },
        Term::Communication => match method {
            Planner => Some("2 × 2 × tokens × H × active dimensions"),
            Quick | Lesson | Allocator | Range => None,
        },
        Term::OffloadStaging => match method {
            Planner => Some("body / L / TP"),
            Quick | Lesson | Allocator | Range => None,
        },
        Term::EngineContext => match method {
            Planner => Some("1 GiB"),
            Quick | Lesson | Allocator | Range => None,
        },
    }
}
