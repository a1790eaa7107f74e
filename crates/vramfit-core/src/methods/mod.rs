//! The estimation methods, and the registry above them.
//!
//! Each method is a module with the same two functions of a validated
//! [`Scenario`]: `covers(mode)` (the modes it estimates) and
//! `estimate(&Scenario) -> Result<MethodResult, Refusal>`, which checks
//! the method's own preconditions (its modes, the model it needs, knobs
//! that must agree with the model) and says why it does not estimate a
//! scenario with a typed [`Refusal`]. Each reproduces one seed document
//! (see `docs/methodology.md`).
//!
//! This module is the registry: [`MethodId`] names every method, [`run`]
//! dispatches to it and wraps a refusal in a [`RunError`]. Adding a method
//! is adding a variant to [`MethodId`]: every `match` on it (here, in the
//! app's language tables and in the lesson) then fails to compile until
//! the new method is named there.
//!
//! `vllm` and `llamacpp` model one serving engine each: their modules
//! estimate on the engine's own inputs, and an adapter in each
//! (`scenario.rs`) reads a scenario as those inputs; the engines' own
//! figures travel in [`MethodResult::engine`] ([`engine`]).

pub mod allocator;
pub mod compare;
pub mod dense;
pub mod engine;
pub mod lesson;
pub mod llamacpp;
pub mod planner;
pub mod quick;
pub mod range;
pub mod refusal;
pub mod result;
pub mod speed;
pub mod vllm;

use crate::scenario::{Field, Mode, Scenario};
pub use refusal::{Feature, Refusal};
pub use result::{Component, Components, MethodResult, SeedVerdict};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The methods vramfit knows, by their stable name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MethodId {
    /// Seed 004: weights + KV cache + a percentage of overhead, decimal GB.
    #[default]
    Quick,
    /// Seed 000: weights, KV cache or 18-byte training states, the user's
    /// reserves and a margin, binary GiB.
    Lesson,
    /// Seed 003: PyTorch's peak allocation for one step of a dense decoder,
    /// derived from the tensors the code keeps alive.
    Allocator,
    /// Seed 001: a low and a high estimate per GPU for serving (weights,
    /// the model's own KV cache, 1 GB runtime; 20 % more weights on the
    /// high end) or fine-tuning (16-byte states or LoRA/QLoRA adapters,
    /// checkpointed activations, FP32 logits), split over up to 8 GPUs,
    /// decimal GB.
    Range,
    /// Seed 002: a per-GPU planning budget over TP/PP, replicas and users
    /// (quantization with unquantized and FP32 subsets, paged KV with
    /// shared prefix and windows, activations, logits, AdamW training,
    /// communication, offload, margin, engine context and reserve), with
    /// a roofline speed estimate, decimal GB.
    Planner,
    /// What vLLM (V1, 0.19) reports at start-up for `vllm serve`: weights
    /// as loaded, profiling peak, non-torch memory, the KV cache it
    /// allocates (tokens, concurrency) and whether it starts, binary GiB.
    Vllm,
    /// Where llama.cpp puts each byte of a GGUF file: model buffer, K and
    /// V caches, compute and output buffers, split between the GPU and
    /// host memory by `-ngl`, binary GiB.
    Llamacpp,
}

impl MethodId {
    /// Every method, in the order they are listed side by side.
    pub const ALL: [MethodId; 7] = [
        MethodId::Quick,
        MethodId::Lesson,
        MethodId::Range,
        MethodId::Planner,
        MethodId::Allocator,
        MethodId::Vllm,
        MethodId::Llamacpp,
    ];

    /// The method's stable name (`"quick"`).
    pub const fn id(self) -> &'static str {
        match self {
            MethodId::Quick => "quick",
            MethodId::Lesson => "lesson",
            MethodId::Allocator => "allocator",
            MethodId::Range => "range",
            MethodId::Planner => "planner",
            MethodId::Vllm => "vllm",
            MethodId::Llamacpp => "llamacpp",
        }
    }

    /// Whether the method estimates `mode` (seed 004 is for inference
    /// only): each method's own `covers`.
    pub const fn applies_to(self, mode: Mode) -> bool {
        match self {
            MethodId::Quick => quick::covers(mode),
            MethodId::Lesson => lesson::covers(mode),
            MethodId::Allocator => allocator::covers(mode),
            MethodId::Range => range::covers(mode),
            MethodId::Planner => planner::covers(mode),
            MethodId::Vllm => vllm::covers(mode),
            MethodId::Llamacpp => llamacpp::covers(mode),
        }
    }

    /// The modes the method estimates, in [`Mode::ALL`] order.
    pub fn modes(self) -> impl Iterator<Item = Mode> {
        Mode::ALL.into_iter().filter(move |m| self.applies_to(*m))
    }

    /// The scenario fields the method reads beyond the shared ones
    /// ([`Field::SHARED`]: model, formats, workload, layout, GPU).
    pub const fn own_fields(self) -> &'static [Field] {
        match self {
            MethodId::Quick => &[Field::OverheadPct],
            MethodId::Lesson => &[Field::RuntimeGib, Field::ActivationGib, Field::MarginPct],
            MethodId::Allocator => &[Field::LoraRank],
            MethodId::Range => &[Field::LoraRank],
            MethodId::Planner => &[
                Field::HostRamGb,
                Field::OffloadGb,
                Field::SharedPrefixTokens,
                Field::LoraRank,
            ],
            // Their own knobs are the scenario's `engine` object.
            MethodId::Vllm => &[Field::Gpus, Field::Tp, Field::Pp],
            MethodId::Llamacpp => &[],
        }
    }

    /// Parses a method name, case-insensitively.
    pub fn from_name(name: &str) -> Option<MethodId> {
        MethodId::ALL
            .into_iter()
            .find(|m| m.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// Runs one method on a validated scenario, or says which method refused
/// it and why (a mode it does not cover, a model it cannot read, knobs
/// that contradict the model). Never panics.
pub fn run(method: MethodId, scenario: &Scenario) -> Result<MethodResult, RunError> {
    let result = match method {
        MethodId::Quick => quick::estimate(scenario),
        MethodId::Lesson => lesson::estimate(scenario),
        MethodId::Allocator => allocator::estimate_scenario(scenario),
        MethodId::Range => range::estimate(scenario),
        MethodId::Planner => planner::estimate(scenario),
        MethodId::Vllm => vllm::estimate_scenario(scenario),
        MethodId::Llamacpp => llamacpp::estimate_scenario(scenario),
    };
    result.map_err(|reason| RunError { method, reason })
}

/// The precondition of the methods that estimate one GPU holding a whole
/// copy of the model (`quick`, `lesson`, `allocator`): the layout does not
/// spread a copy (`TP = PP = 1`; more GPUs are more copies, each serving
/// its share of the sequences).
pub fn one_gpu_per_copy(s: &Scenario) -> Result<(), Refusal> {
    match s.layout.spreads() {
        true => Err(Refusal::SingleGpu {
            tp: s.layout.tp,
            pp: s.layout.pp,
        }),
        false => Ok(()),
    }
}

/// `estimate` on a scenario as entered, for the methods' golden tests.
#[cfg(test)]
pub(crate) fn estimate_input(
    estimate: fn(&Scenario) -> Result<MethodResult, Refusal>,
    input: crate::scenario::ScenarioInput,
) -> MethodResult {
    estimate(&input.validate().expect("a valid scenario")).expect("an estimate")
}

/// A method that does not estimate a valid scenario, and why. Apart from
/// [`ScenarioError`](crate::scenario::ScenarioError): the scenario is
/// fine, this method cannot answer it (another may).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunError {
    pub method: MethodId,
    pub reason: Refusal,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = self.method.id();
        match self.reason {
            Refusal::Mode(mode) => write!(
                f,
                "method {method} does not estimate {} (it applies to: {})",
                mode.id(),
                self.method
                    .modes()
                    .map(Mode::id)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            reason => write!(f, "method {method} cannot estimate this: {reason}"),
        }
    }
}
