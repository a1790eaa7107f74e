//! What a method says about a scenario: its components, each a [`Term`]
//! with its bytes, the total and the verdict.

use super::engine::EngineReport;
use super::MethodId;
use crate::term::Term;
use crate::units::Bytes;
use crate::verdict::Verdict;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// One named term of an estimate, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Which term.
    pub term: Term,
    pub bytes: Bytes,
}

/// Components serialize as one JSON object, keeping their order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Components(pub Vec<Component>);

impl Serialize for Components {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for c in &self.0 {
            map.serialize_entry(c.term.id(), &c.bytes)?;
        }
        map.end()
    }
}

impl Components {
    /// The bytes of `term`, if the method has it.
    pub fn get(&self, term: Term) -> Option<Bytes> {
        self.0.iter().find(|c| c.term == term).map(|c| c.bytes)
    }

    /// The terms, in the method's order.
    pub fn terms(&self) -> impl Iterator<Item = Term> + '_ {
        self.0.iter().map(|c| c.term)
    }
}

/// What a method says about a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodResult {
    /// Which method produced this.
    pub method: MethodId,
    /// The terms, in the order the method adds them.
    pub components: Components,
    /// Total on one GPU, the most loaded, in bytes: every method's figure
    /// is per GPU.
    pub total_bytes: Bytes,
    /// GPUs that carry this budget: every GPU of the scenario's layout (the
    /// single-device methods hold one copy of the model on each; range and
    /// planner budget each GPU of a copy alike, the most loaded stage's
    /// figure, seed 002's bound). The whole deployment is at most
    /// `total_bytes × gpus` ([`MethodResult::all_gpus_bytes`]).
    pub gpus: u64,
    /// Components listed but not part of `total_bytes` (the allocator's
    /// `overhead`, outside PyTorch's allocator; the verdict adds it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outside_total: Vec<Term>,
    /// Lower end, where the method gives a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_bytes: Option<Bytes>,
    /// Upper end, where the method gives a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_bytes: Option<Bytes>,
    /// Fit against the method's usable memory.
    pub verdict: Verdict,
    /// The seed's own verdict wording, where it has one besides the ring
    /// (seed 001's three).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_verdict: Option<SeedVerdict>,
    /// The engine's own figures (`vllm`, `llamacpp`): KV tokens, the
    /// launch command, the GPU/host split ...; absent for other methods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineReport>,
}

/// Seed 001's own three-way verdict, kept beside the ring's four states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedVerdict {
    /// The high estimate uses at most 90 % of one GPU ("past ruim").
    FitsComfortably,
    /// Only the low estimate fits ("krap").
    FitsTightly,
    /// Not even the low estimate fits.
    DoesNotFit,
}

impl SeedVerdict {
    /// The stable name, as in JSON (`fits_comfortably`).
    pub const fn id(self) -> &'static str {
        match self {
            SeedVerdict::FitsComfortably => "fits_comfortably",
            SeedVerdict::FitsTightly => "fits_tightly",
            SeedVerdict::DoesNotFit => "does_not_fit",
        }
    }
}

impl MethodResult {
    /// The budget of every GPU together: `total_bytes × gpus`.
    pub fn all_gpus_bytes(&self) -> Bytes {
        self.total_bytes.times(self.gpus.max(1))
    }

    /// A result whose whole total is compared with `usable_bytes`, from
    /// named terms in the order the method adds them. Methods with a range,
    /// terms outside the total or a verdict of their own set those fields
    /// on top.
    pub fn new(
        method: MethodId,
        terms: &[(Term, Bytes)],
        total_bytes: Bytes,
        usable_bytes: Bytes,
    ) -> MethodResult {
        MethodResult {
            method,
            components: Components(
                terms
                    .iter()
                    .map(|&(term, bytes)| Component { term, bytes })
                    .collect(),
            ),
            total_bytes,
            gpus: 1,
            outside_total: Vec::new(),
            low_bytes: None,
            high_bytes: None,
            verdict: Verdict::new(total_bytes, usable_bytes),
            seed_verdict: None,
            engine: None,
        }
    }

    /// A result whose total is the sum of its terms, on one GPU of
    /// `usable_bytes`.
    pub fn summed(method: MethodId, terms: &[(Term, Bytes)], usable_bytes: Bytes) -> MethodResult {
        let total = terms.iter().map(|&(_, bytes)| bytes).sum();
        MethodResult::new(method, terms, total, usable_bytes)
    }
}
