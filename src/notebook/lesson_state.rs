//! The lesson's own state, kept in the notebook's document beside the
//! entries (`"lesson"` in a `vramfit-notebook/1` document): which steps of
//! the learning contract the student has done, per method, and the texts
//! the student is drafting. Pure: no browser API.
//!
//! ```json
//! "lesson": {
//!   "progress": { "quick": { "understood_at": 1767225600000,
//!                            "implemented_at": 1767225500000 } },
//!   "draft": { "notes": "", "counterexample": "", "reason": "",
//!              "transfer_test": "", "updated_at": 1767225600000 }
//! }
//! ```
//!
//! The block is optional (a notebook written before it has none, and
//! reads as no progress and empty drafts), and fields this version does
//! not know are kept, as in an entry. Two copies merge without losing a
//! tick: a step stays done once done (the earlier time wins), and the
//! drafts of the later change win. Progress is keyed by the method's id as
//! text, so the progress of a method another version knows survives this
//! one.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// A step of the learning contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContractStep {
    /// A counterexample recorded with its reason.
    Understand,
    /// A blind prediction revealed beside the method's result.
    Implement,
    /// Two methods or two formats compared under the same budget.
    Investigate,
}

/// When each step of one method's contract was first done (ms since 1970).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MethodProgress {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub understood_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implemented_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub investigated_at: Option<u64>,
    /// Fields written by another version, kept as they were.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl MethodProgress {
    fn slot(&mut self, step: ContractStep) -> &mut Option<u64> {
        match step {
            ContractStep::Understand => &mut self.understood_at,
            ContractStep::Implement => &mut self.implemented_at,
            ContractStep::Investigate => &mut self.investigated_at,
        }
    }

    /// Whether `step` is done.
    pub fn done(&self, step: ContractStep) -> bool {
        match step {
            ContractStep::Understand => self.understood_at.is_some(),
            ContractStep::Implement => self.implemented_at.is_some(),
            ContractStep::Investigate => self.investigated_at.is_some(),
        }
    }

    /// Both copies' ticks: a step done in either is done, at the earlier
    /// time; unknown fields of both kept.
    fn merge(a: &MethodProgress, b: &MethodProgress) -> MethodProgress {
        let earliest = |x: Option<u64>, y: Option<u64>| match (x, y) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        MethodProgress {
            understood_at: earliest(a.understood_at, b.understood_at),
            implemented_at: earliest(a.implemented_at, b.implemented_at),
            investigated_at: earliest(a.investigated_at, b.investigated_at),
            extra: merge_extra(&a.extra, &b.extra),
        }
    }
}

/// What the student is writing in the lesson and has not recorded yet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredDraft {
    #[serde(default)]
    pub notes: String,
    /// A case where the method's assumption breaks.
    #[serde(default)]
    pub counterexample: String,
    /// Why the method's conclusion no longer follows in that case.
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub transfer_test: String,
    /// Last change (ms); the later draft wins a merge.
    #[serde(default)]
    pub updated_at: u64,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl StoredDraft {
    /// The same texts (times and unknown fields aside).
    pub fn same_texts(&self, other: &StoredDraft) -> bool {
        self.notes == other.notes
            && self.counterexample == other.counterexample
            && self.reason == other.reason
            && self.transfer_test == other.transfer_test
    }
}

/// The lesson's state in the notebook.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonState {
    /// By method id (`"quick"`), including ids this version does not know.
    #[serde(default)]
    pub progress: BTreeMap<String, MethodProgress>,
    #[serde(default)]
    pub draft: StoredDraft,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl LessonState {
    /// Reads the `"lesson"` block leniently: a progress record or a draft
    /// that cannot be read is left out rather than failing the notebook
    /// (the entries are what must never be lost; the block is rebuilt from
    /// what reads).
    pub fn read(value: Value) -> LessonState {
        let Value::Object(mut map) = value else {
            return LessonState::default();
        };
        let mut state = LessonState::default();
        if let Some(Value::Object(progress)) = map.remove("progress") {
            for (method, raw) in progress {
                if let Ok(p) = serde_json::from_value::<MethodProgress>(raw) {
                    state.progress.insert(method, p);
                }
            }
        }
        if let Some(raw) = map.remove("draft") {
            state.draft = serde_json::from_value(raw).unwrap_or_default();
        }
        state.extra = map.into_iter().collect();
        state
    }

    /// Whether nothing is recorded (no need to write the block).
    pub fn is_empty(&self) -> bool {
        *self == LessonState::default()
    }

    /// One method's progress (none done when it has none).
    pub fn progress_of(&self, method: &str) -> MethodProgress {
        self.progress.get(method).cloned().unwrap_or_default()
    }

    /// Marks `step` of `method` done at `now`, unless it already is.
    /// True when something changed.
    pub fn mark(&mut self, method: &str, step: ContractStep, now: u64) -> bool {
        let slot = self
            .progress
            .entry(method.to_string())
            .or_default()
            .slot(step);
        if slot.is_some() {
            return false;
        }
        *slot = Some(now);
        true
    }

    /// Replaces the drafts' texts, stamped `now` (strictly after the last
    /// change). True when a text changed.
    pub fn set_draft(&mut self, texts: &StoredDraft, now: u64) -> bool {
        if self.draft.same_texts(texts) {
            return false;
        }
        let extra = std::mem::take(&mut self.draft.extra);
        self.draft = StoredDraft {
            updated_at: now.max(self.draft.updated_at.saturating_add(1)),
            extra,
            ..texts.clone()
        };
        true
    }

    /// Two copies of the state (two tabs, memory and storage, an import):
    /// every tick of either, the later drafts. Commutative.
    pub fn merge(a: &LessonState, b: &LessonState) -> LessonState {
        let mut progress = a.progress.clone();
        for (method, p) in &b.progress {
            let merged = match progress.get(method) {
                Some(mine) => MethodProgress::merge(mine, p),
                None => p.clone(),
            };
            progress.insert(method.clone(), merged);
        }
        let draft = match a.draft.updated_at.cmp(&b.draft.updated_at) {
            std::cmp::Ordering::Greater => a.draft.clone(),
            std::cmp::Ordering::Less => b.draft.clone(),
            std::cmp::Ordering::Equal => {
                let text = |d: &StoredDraft| serde_json::to_string(d).unwrap_or_default();
                if text(&a.draft) >= text(&b.draft) {
                    a.draft.clone()
                } else {
                    b.draft.clone()
                }
            }
        };
        LessonState {
            progress,
            draft,
            extra: merge_extra(&a.extra, &b.extra),
        }
    }

    /// Progress brought by an imported notebook: its ticks are added, the
    /// drafts being written here stay.
    pub fn import(&mut self, other: &LessonState) {
        let draft = self.draft.clone();
        *self = LessonState::merge(self, other);
        self.draft = draft;
    }
}

/// Unknown fields of two copies: all of both; where both have a field,
/// the larger JSON text (so that the merge does not depend on the order).
pub(super) fn merge_extra(
    a: &BTreeMap<String, Value>,
    b: &BTreeMap<String, Value>,
) -> BTreeMap<String, Value> {
    let mut out = a.clone();
    for (key, value) in b {
        let keep_b = out
            .get(key)
            .is_none_or(|mine| json_text(value) > json_text(mine));
        if keep_b {
            out.insert(key.clone(), value.clone());
        }
    }
    out
}

/// A value's JSON text, to order two values deterministically.
fn json_text(value: &Value) -> String {
    value.to_string()
}
