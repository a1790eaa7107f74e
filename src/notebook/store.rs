//! The notebook's data, independent of any browser API: entries, the
//! stored document and its versions, merging two copies of it, migrating
//! older shapes, importing an export.
//!
//! # Document versions
//!
//! **v1** (`schema: "vramfit-notebook/1"`, stored under [`KEY`]):
//!
//! ```json
//! { "schema": "vramfit-notebook/1",
//!   "entries": [ { "id", "created_at", "updated_at", "step", "scenario",
//!                  "app_version", "prediction": { "value", "unit" },
//!                  "observed": { "method", "total_bytes" }, "discrepancy",
//!                  "notes", "counterexample", "reason", "transfer_test" } ],
//!   "deleted": [ { "id", "updated_at" } ],
//!   "unreadable": [ ... ],
//!   "lesson": { "progress": { ... }, "draft": { ... } } }
//! ```
//!
//! Times are milliseconds since 1970 (UTC). `discrepancy` is computed from
//! the prediction and the observed total; it is written for people reading
//! an export and recomputed on reading. `deleted` keeps the id and time of
//! each deleted entry so that a copy held by another tab cannot bring it
//! back. `unreadable` holds entries this version could not read (written by
//! a newer version, or damaged), exactly as they were: nothing is dropped.
//! Fields an entry carries that this version does not know are kept too,
//! and so are top-level keys this version does not know. `lesson` (optional)
//! is the lesson's progress and drafts ([`LessonState`]); `reason` (optional
//! in an entry) says why a counterexample breaks the method's conclusion.
//! Both were added within v1: a version that does not know them keeps them
//! as unknown fields.
//!
//! **v0** (the first shape, stored under [`LEGACY_KEY`]): a bare JSON array
//! of `{ "id", "time", "step", "inputs", "predicted_gb", "observed_gb",
//! "note" }`, sizes in decimal GB as floating-point numbers. v1 stores
//! exact bytes and names the unit of the prediction; [`parse`] migrates v0.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use vramfit_core::methods::MethodId;
use vramfit_core::request::Request;
use vramfit_core::units::{Bytes, DisplayUnit};

pub use super::lesson_state::{ContractStep, LessonState, MethodProgress, StoredDraft};

/// Where the notebook lives in `localStorage`; the same for every language.
pub const KEY: &str = "vramfit.notebook.v1";
/// Where the v0 notebook lived.
pub const LEGACY_KEY: &str = "vramfit.notebook";
/// Unreadable stored data is kept aside under this prefix plus a time.
pub const BACKUP_PREFIX: &str = "vramfit.notebook.backup.";
/// The v1 document's schema.
pub const SCHEMA: &str = "vramfit-notebook/1";
/// Every notebook schema starts with this.
const SCHEMA_FAMILY: &str = "vramfit-notebook/";

/// A predicted total, as the student wrote it: a number and its unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    pub value: f64,
    pub unit: DisplayUnit,
}

impl Prediction {
    /// A prediction from a finite, non-negative value.
    pub fn new(value: f64, unit: DisplayUnit) -> Option<Prediction> {
        (value.is_finite() && value >= 0.0).then_some(Prediction { value, unit })
    }

    /// The prediction in bytes, rounded (saturating for absurd values).
    pub fn bytes(&self) -> Bytes {
        Bytes::from_unit(self.value, self.unit)
    }
}

/// What the method gave for the scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    pub method: MethodId,
    pub total_bytes: Bytes,
}

/// Prediction minus observation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Discrepancy {
    pub predicted_bytes: Bytes,
    pub observed_bytes: Bytes,
    /// `predicted − observed`: positive when the prediction was too high.
    pub difference_bytes: i64,
    /// The difference as a percentage of the observed total; `None` when
    /// the observed total is zero.
    pub percent: Option<f64>,
}

/// The discrepancy between a prediction and what was observed.
pub fn discrepancy(prediction: &Prediction, observed: &Observed) -> Discrepancy {
    let predicted = prediction.bytes();
    let observed_bytes = observed.total_bytes;
    let difference_bytes = predicted.minus(observed_bytes);
    let percent = (observed_bytes > Bytes::ZERO).then(|| {
        let pct = difference_bytes as f64 / observed_bytes.get() as f64 * 100.0;
        (pct * 100.0).round() / 100.0
    });
    Discrepancy {
        predicted_bytes: predicted,
        observed_bytes,
        difference_bytes,
        percent,
    }
}

/// One record of the notebook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Unique, stable across copies: the merge key.
    pub id: String,
    pub created_at: u64,
    /// Last change; the newer copy wins a merge.
    pub updated_at: u64,
    /// The lesson step the entry belongs to (see `Step` in the lesson).
    #[serde(default)]
    pub step: String,
    /// The whole scenario, as the calculator held it.
    pub scenario: Request,
    /// The vramfit version that computed `observed`.
    #[serde(default)]
    pub app_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<Prediction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<Observed>,
    /// Computed from `prediction` and `observed` (see [`Entry::normalize`]).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub discrepancy: Option<Discrepancy>,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub counterexample: String,
    /// Why the counterexample breaks the method's conclusion.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default)]
    pub transfer_test: String,
    /// Fields written by another version, kept as they were.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl Entry {
    /// A new entry for `scenario`.
    pub fn new(id: String, now: u64, step: &str, scenario: Request) -> Entry {
        Entry {
            id,
            created_at: now,
            updated_at: now,
            step: step.to_string(),
            scenario,
            app_version: vramfit_core::report::APP_VERSION.to_string(),
            prediction: None,
            observed: None,
            discrepancy: None,
            notes: String::new(),
            counterexample: String::new(),
            reason: String::new(),
            transfer_test: String::new(),
            extra: BTreeMap::new(),
        }
    }

    /// Recomputes the derived fields.
    pub fn normalize(&mut self) {
        self.extra.remove("discrepancy");
        self.discrepancy = match (&self.prediction, &self.observed) {
            (Some(p), Some(o)) => Some(discrepancy(p, o)),
            _ => None,
        };
    }
}

/// What is left of a deleted entry: enough to keep it deleted everywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deleted {
    pub id: String,
    pub updated_at: u64,
}

/// The whole notebook.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    /// Live entries, oldest first.
    pub entries: Vec<Entry>,
    /// Deleted entries' ids, by id.
    pub deleted: Vec<Deleted>,
    /// Entries this version cannot read, as they were.
    pub unreadable: Vec<Value>,
    /// The lesson's progress and drafts.
    pub lesson: LessonState,
    /// Top-level keys this version does not know, as they were.
    pub extra: BTreeMap<String, Value>,
}

/// Why a stored text is not a notebook this version can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Not JSON at all (truncated, overwritten).
    NotJson(String),
    /// JSON, but not a notebook.
    NotANotebook,
    /// A notebook written by a newer version (`schema`).
    NewerVersion(String),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::NotJson(e) => write!(f, "not JSON ({e})"),
            ParseError::NotANotebook => f.write_str("not a vramfit notebook"),
            ParseError::NewerVersion(schema) => write!(f, "written by a newer version ({schema})"),
        }
    }
}

/// A document and the version it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub document: Document,
    /// 0 or 1.
    pub version: u32,
}

/// Reads a stored or exported notebook: a v1 document, or a v0 array
/// (migrated). Entries that cannot be read are kept in `unreadable`.
pub fn parse(text: &str) -> Result<Parsed, ParseError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| ParseError::NotJson(e.to_string()))?;
    match value {
        Value::Array(items) => Ok(Parsed {
            document: migrate_v0(items),
            version: 0,
        }),
        Value::Object(map) => match map.get("schema").and_then(Value::as_str) {
            Some(SCHEMA) => Ok(Parsed {
                document: read_v1(map),
                version: 1,
            }),
            Some(schema) if schema.starts_with(SCHEMA_FAMILY) => {
                Err(ParseError::NewerVersion(schema.to_string()))
            }
            _ => Err(ParseError::NotANotebook),
        },
        _ => Err(ParseError::NotANotebook),
    }
}

fn read_v1(mut map: Map<String, Value>) -> Document {
    let mut doc = Document::default();
    if let Some(Value::Array(entries)) = map.remove("entries") {
        for raw in entries {
            match serde_json::from_value::<Entry>(raw.clone()) {
                Ok(entry) if !entry.id.is_empty() => doc.insert(Record::Live(Box::new(entry))),
                _ => doc.unreadable.push(raw),
            }
        }
    }
    if let Some(Value::Array(deleted)) = map.remove("deleted") {
        for raw in deleted {
            if let Ok(gone) = serde_json::from_value::<Deleted>(raw) {
                doc.insert(Record::Gone(gone));
            }
        }
    }
    if let Some(Value::Array(unreadable)) = map.remove("unreadable") {
        for raw in unreadable {
            doc.keep_unreadable(raw);
        }
    }
    if let Some(lesson) = map.remove("lesson") {
        doc.lesson = LessonState::read(lesson);
    }
    map.remove("schema");
    doc.extra = map.into_iter().collect();
    doc.finish();
    doc
}

/// Migrates the v0 array: sizes in GB become bytes and the prediction's
/// unit (always GB in v0) is named.
pub fn migrate_v0(items: Vec<Value>) -> Document {
    let mut doc = Document::default();
    for (index, raw) in items.into_iter().enumerate() {
        match migrate_v0_entry(index, &raw) {
            Some(entry) => doc.insert(Record::Live(Box::new(entry))),
            None => doc.keep_unreadable(raw),
        }
    }
    doc.finish();
    doc
}

fn migrate_v0_entry(index: usize, raw: &Value) -> Option<Entry> {
    let obj = raw.as_object()?;
    let scenario: Request = serde_json::from_value(obj.get("inputs")?.clone()).ok()?;
    let time = obj.get("time").and_then(Value::as_u64).unwrap_or(0);
    let id = match obj.get("id") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        Some(Value::Number(n)) => format!("v0-{n}"),
        _ => format!("v0-{time}-{index}"),
    };
    let text = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let gb = |key: &str| obj.get(key).and_then(Value::as_f64);
    let mut entry = Entry::new(id, time, &text("step"), scenario);
    entry.app_version = text("app_version");
    entry.prediction = gb("predicted_gb").and_then(|v| Prediction::new(v, DisplayUnit::Gb));
    entry.observed = gb("observed_gb")
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| Observed {
            method: entry.scenario.method,
            total_bytes: Bytes::from_unit(v, DisplayUnit::Gb),
        });
    entry.notes = text("note");
    entry.normalize();
    Some(entry)
}

/// The document as JSON (what is stored and what an export holds).
pub fn to_json(doc: &Document) -> String {
    let mut map = Map::new();
    map.insert("schema".into(), Value::from(SCHEMA));
    map.insert(
        "entries".into(),
        serde_json::to_value(&doc.entries).unwrap_or(Value::Array(Vec::new())),
    );
    if !doc.deleted.is_empty() {
        map.insert(
            "deleted".into(),
            serde_json::to_value(&doc.deleted).unwrap_or(Value::Array(Vec::new())),
        );
    }
    if !doc.unreadable.is_empty() {
        map.insert("unreadable".into(), Value::Array(doc.unreadable.clone()));
    }
    if !doc.lesson.is_empty() {
        if let Ok(lesson) = serde_json::to_value(&doc.lesson) {
            map.insert("lesson".into(), lesson);
        }
    }
    for (key, value) in &doc.extra {
        map.entry(key.clone()).or_insert_with(|| value.clone());
    }
    serde_json::to_string_pretty(&Value::Object(map)).unwrap_or_default()
}

/// A live entry or what is left of a deleted one.
#[derive(Debug, Clone, PartialEq)]
enum Record {
    Live(Box<Entry>),
    Gone(Deleted),
}

impl Record {
    fn id(&self) -> &str {
        match self {
            Record::Live(e) => &e.id,
            Record::Gone(d) => &d.id,
        }
    }

    fn updated_at(&self) -> u64 {
        match self {
            Record::Live(e) => e.updated_at,
            Record::Gone(d) => d.updated_at,
        }
    }

    /// Which of two copies of the same id wins: the later change; on a
    /// tie, a deletion, then the larger JSON text (so every tab picks the
    /// same one).
    fn wins_over(&self, other: &Record) -> bool {
        match self.updated_at().cmp(&other.updated_at()) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => match (self, other) {
                (Record::Gone(_), Record::Live(_)) => true,
                (Record::Live(_), Record::Gone(_)) => false,
                (Record::Gone(_), Record::Gone(_)) => false,
                (Record::Live(a), Record::Live(b)) => {
                    serde_json::to_string(a).unwrap_or_default()
                        > serde_json::to_string(b).unwrap_or_default()
                }
            },
        }
    }
}

/// What an import did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Entries this notebook did not have.
    pub added: usize,
    /// Entries the import held in a newer version.
    pub updated: usize,
    /// Entries deleted here and brought back by the import.
    pub restored: usize,
    /// Entries already here, as new or newer.
    pub unchanged: usize,
}

impl Document {
    /// A live entry by id.
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Whether `id` is known, live or deleted.
    fn knows(&self, id: &str) -> bool {
        self.entry(id).is_some() || self.deleted.iter().any(|d| d.id == id)
    }

    /// Puts a record in, keeping the winner when the id is already there.
    fn insert(&mut self, record: Record) {
        let id = record.id().to_string();
        let current = if let Some(i) = self.entries.iter().position(|e| e.id == id) {
            Some(Record::Live(Box::new(self.entries.remove(i))))
        } else if let Some(i) = self.deleted.iter().position(|d| d.id == id) {
            Some(Record::Gone(self.deleted.remove(i)))
        } else {
            None
        };
        let keep = match current {
            Some(current) if !record.wins_over(&current) => current,
            _ => record,
        };
        match keep {
            Record::Live(mut e) => {
                e.normalize();
                self.entries.push(*e);
            }
            Record::Gone(d) => self.deleted.push(d),
        }
    }

    fn keep_unreadable(&mut self, raw: Value) {
        if !self.unreadable.contains(&raw) {
            self.unreadable.push(raw);
        }
    }

    /// A stable order, so that equal notebooks are equal values: entries
    /// oldest first, deletions by id, unreadable entries by their text.
    fn finish(&mut self) {
        self.entries
            .sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        self.deleted.sort_by(|a, b| a.id.cmp(&b.id));
        self.unreadable
            .sort_by_cached_key(|v| serde_json::to_string(v).unwrap_or_default());
    }

    /// Adds a new entry.
    pub fn add(&mut self, mut entry: Entry) {
        entry.normalize();
        self.insert(Record::Live(Box::new(entry)));
        self.finish();
    }

    /// Changes one entry and marks it changed at `now` (always later than
    /// its last change). False when there is no such live entry.
    pub fn update(&mut self, id: &str, now: u64, change: impl FnOnce(&mut Entry)) -> bool {
        let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) else {
            return false;
        };
        change(entry);
        entry.id = id.to_string();
        entry.updated_at = later(now, entry.updated_at);
        entry.normalize();
        true
    }

    /// Deletes an entry; returns it (for an undo).
    pub fn delete(&mut self, id: &str, now: u64) -> Option<Entry> {
        let i = self.entries.iter().position(|e| e.id == id)?;
        let entry = self.entries.remove(i);
        self.insert(Record::Gone(Deleted {
            id: entry.id.clone(),
            updated_at: later(now, entry.updated_at),
        }));
        self.finish();
        Some(entry)
    }

    /// Deletes every entry; returns them (for an undo).
    pub fn clear(&mut self, now: u64) -> Vec<Entry> {
        let ids: Vec<String> = self.entries.iter().map(|e| e.id.clone()).collect();
        ids.iter().filter_map(|id| self.delete(id, now)).collect()
    }

    /// Brings deleted entries back, changed at `now` (later than their
    /// deletion, so that the restored copy wins every merge).
    pub fn restore(&mut self, entries: Vec<Entry>, now: u64) {
        for mut entry in entries {
            let deleted_at = self
                .deleted
                .iter()
                .find(|d| d.id == entry.id)
                .map_or(0, |d| d.updated_at);
            entry.updated_at = later(now, entry.updated_at.max(deleted_at));
            self.insert(Record::Live(Box::new(entry)));
        }
        self.finish();
    }

    /// Merges an imported notebook by entry id. An import never deletes:
    /// its deletions are ignored, and entries deleted here come back.
    pub fn import(&mut self, other: Document, now: u64) -> ImportSummary {
        let mut summary = ImportSummary::default();
        for entry in other.entries {
            if let Some(current) = self.entry(&entry.id) {
                if Record::Live(Box::new(entry.clone()))
                    .wins_over(&Record::Live(Box::new(current.clone())))
                {
                    summary.updated += 1;
                    self.insert(Record::Live(Box::new(entry)));
                } else {
                    summary.unchanged += 1;
                }
            } else if self.knows(&entry.id) {
                summary.restored += 1;
                self.restore(vec![entry], now);
            } else {
                summary.added += 1;
                self.insert(Record::Live(Box::new(entry)));
            }
        }
        for raw in other.unreadable {
            self.keep_unreadable(raw);
        }
        self.lesson.import(&other.lesson);
        self.finish();
        summary
    }
}

/// Merges two copies of the notebook (two tabs, or memory and storage):
/// every id once, the later change winning; deletions win over older
/// copies; nothing unreadable is dropped. Commutative: both tabs end with
/// the same notebook.
pub fn merge(a: &Document, b: &Document) -> Document {
    let mut out = a.clone();
    for entry in &b.entries {
        out.insert(Record::Live(Box::new(entry.clone())));
    }
    for gone in &b.deleted {
        out.insert(Record::Gone(gone.clone()));
    }
    for raw in &b.unreadable {
        out.keep_unreadable(raw.clone());
    }
    out.lesson = LessonState::merge(&a.lesson, &b.lesson);
    out.extra = super::lesson_state::merge_extra(&a.extra, &b.extra);
    out.finish();
    out
}

/// Live ids of `b` that `a` does not know at all: what a merge brings in.
pub fn arrivals(a: &Document, b: &Document) -> usize {
    b.entries.iter().filter(|e| !a.knows(&e.id)).count()
}

/// A time strictly after `previous`, and not before `now`.
fn later(now: u64, previous: u64) -> u64 {
    now.max(previous.saturating_add(1))
}
