//! The estimation methods. Each is a named function of the same
//! [`Scenario`](crate::scenario::Scenario) that returns a [`MethodResult`];
//! each reproduces one seed document exactly (see `docs/methodology.md`).

pub mod allocator;
pub mod dense;
pub mod lesson;
pub mod llamacpp;
pub mod planner;
pub mod quick;
pub mod range;
pub mod scope;
pub mod vllm;

use crate::scenario::{Field, Mode, Scenario, ScenarioError};
use crate::verdict::Verdict;
pub use scope::{Feature, OutOfScope};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

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
}

impl MethodId {
    /// Every method, in the order they are listed side by side.
    pub const ALL: [MethodId; 5] = [
        MethodId::Quick,
        MethodId::Lesson,
        MethodId::Range,
        MethodId::Planner,
        MethodId::Allocator,
    ];

    /// Which method to use when none is asked for, serving: the most
    /// complete that estimates the scenario (seed 002's planner needs the
    /// model's hidden size and vocabulary; quick covers anything typed).
    pub const PREFERENCE_SERVING: [MethodId; 5] = [
        MethodId::Planner,
        MethodId::Allocator,
        MethodId::Range,
        MethodId::Quick,
        MethodId::Lesson,
    ];

    /// The same for training: the allocator's measured-against derivation
    /// first, where it applies (dense models, unquantized).
    pub const PREFERENCE_TRAINING: [MethodId; 5] = [
        MethodId::Allocator,
        MethodId::Planner,
        MethodId::Range,
        MethodId::Lesson,
        MethodId::Quick,
    ];

    /// The method's stable name (`"quick"`).
    pub const fn id(self) -> &'static str {
        match self {
            MethodId::Quick => "quick",
            MethodId::Lesson => "lesson",
            MethodId::Allocator => "allocator",
            MethodId::Range => "range",
            MethodId::Planner => "planner",
        }
    }

    /// Whether the method estimates `mode` (seed 004 is for inference only).
    pub const fn applies_to(self, mode: Mode) -> bool {
        match self {
            MethodId::Quick => matches!(mode, Mode::Inference),
            MethodId::Lesson => matches!(mode, Mode::Inference | Mode::Full),
            MethodId::Allocator => matches!(mode, Mode::Inference | Mode::Full | Mode::Lora),
            MethodId::Range => true,
            MethodId::Planner => true,
        }
    }

    /// The fields every method reads: model shape, formats, workload, GPU.
    pub const SHARED_FIELDS: [Field; 9] = [
        Field::ParamsB,
        Field::Layers,
        Field::KvHeads,
        Field::HeadDim,
        Field::WeightBits,
        Field::KvBytes,
        Field::Context,
        Field::Batch,
        Field::GpuMemoryGb,
    ];

    /// The scenario fields the method reads beyond the shared ones
    /// (model, formats, workload, GPU).
    pub const fn own_fields(self) -> &'static [Field] {
        match self {
            MethodId::Quick => &[Field::OverheadPct],
            MethodId::Lesson => &[Field::RuntimeGib, Field::ActivationGib, Field::MarginPct],
            MethodId::Allocator => &[Field::LoraRank],
            MethodId::Range => &[Field::Gpus, Field::LoraRank],
            MethodId::Planner => &[
                Field::Users,
                Field::Gpus,
                Field::Tp,
                Field::Pp,
                Field::HostRamGb,
                Field::LoraRank,
            ],
        }
    }

    /// Parses a method name, case-insensitively.
    pub fn from_name(name: &str) -> Option<MethodId> {
        MethodId::ALL
            .into_iter()
            .find(|m| m.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// One named term of an estimate, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Stable name (`weights`, `kv_cache`, `overhead`, ...).
    pub name: &'static str,
    pub bytes: u64,
}

/// Components serialize as one JSON object, keeping their order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Components(pub Vec<Component>);

impl Serialize for Components {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for c in &self.0 {
            map.serialize_entry(c.name, &c.bytes)?;
        }
        map.end()
    }
}

impl Components {
    /// The bytes of the component called `name`, if the method has one.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.iter().find(|c| c.name == name).map(|c| c.bytes)
    }
}

/// What a method says about a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodResult {
    /// Which method produced this.
    pub method: MethodId,
    /// The terms, in the order the method adds them.
    pub components: Components,
    /// Total on the most loaded GPU, in bytes.
    pub total_bytes: u64,
    /// GPUs that carry this budget: 1 for the single-device methods; every
    /// GPU of the scenario for range and planner, which budget each GPU
    /// alike (the most loaded stage's figure, seed 002's bound).
    pub gpus: u64,
    /// Components listed but not part of `total_bytes` (the allocator's
    /// `overhead`, outside PyTorch's allocator; the verdict adds it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outside_total: Vec<&'static str>,
    /// Lower end, where the method gives a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_bytes: Option<u64>,
    /// Upper end, where the method gives a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_bytes: Option<u64>,
    /// Fit against the method's usable memory.
    pub verdict: Verdict,
    /// The seed's own verdict wording, where it has one besides the ring
    /// (seed 001: `fits_comfortably`, `fits_tightly`, `does_not_fit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_verdict: Option<&'static str>,
}

impl MethodResult {
    /// A result whose whole total is compared with `usable_bytes`, from
    /// named terms in the order the method adds them. Methods with a range,
    /// terms outside the total or a verdict of their own set those fields
    /// on top.
    pub fn new(
        method: MethodId,
        terms: &[(&'static str, u64)],
        total_bytes: u64,
        usable_bytes: u64,
    ) -> MethodResult {
        MethodResult {
            method,
            components: Components(
                terms
                    .iter()
                    .map(|&(name, bytes)| Component { name, bytes })
                    .collect(),
            ),
            total_bytes,
            gpus: 1,
            outside_total: Vec::new(),
            low_bytes: None,
            high_bytes: None,
            verdict: Verdict::new(total_bytes, usable_bytes),
            seed_verdict: None,
        }
    }
}

/// The first method of the mode's preference list
/// ([`MethodId::PREFERENCE_SERVING`], [`MethodId::PREFERENCE_TRAINING`])
/// that estimates `scenario`.
pub fn preferred(scenario: &Scenario) -> Option<MethodId> {
    let order = if scenario.mode.trains() {
        MethodId::PREFERENCE_TRAINING
    } else {
        MethodId::PREFERENCE_SERVING
    };
    order.into_iter().find(|m| run(*m, scenario).is_ok())
}

/// Runs one method on a validated scenario, or says why the method does
/// not estimate it (a mode it does not cover, a model it cannot read).
/// Never panics.
pub fn run(method: MethodId, scenario: &Scenario) -> Result<MethodResult, ScenarioError> {
    if !method.applies_to(scenario.mode) {
        return Err(ScenarioError::MethodMode {
            method,
            mode: scenario.mode,
        });
    }
    match method {
        MethodId::Quick => Ok(quick::estimate(scenario)),
        MethodId::Lesson => Ok(lesson::estimate(scenario)),
        MethodId::Allocator => allocator::estimate_scenario(scenario)
            .map_err(|reason| ScenarioError::MethodScope { method, reason }),
        MethodId::Range => range::estimate(scenario)
            .map_err(|reason| ScenarioError::MethodScope { method, reason }),
        MethodId::Planner => planner::estimate(scenario)
            .map_err(|reason| ScenarioError::MethodScope { method, reason }),
    }
}
