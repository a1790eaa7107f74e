//! The model catalog: real `config.json` files with their provenance and
//! their published parameter counts.
//!
//! # Data
//!
//! Two kinds of file, both under `data/`:
//!
//! - `configs/owner__Name.json`: the `config.json` of the Hugging Face
//!   model `owner/Name`, kept as found (see `configs/README.md`);
//! - `models.json`: one reviewable row per config ([`ModelMeta`]): where
//!   the text was found ([`Source`]), the published parameter counts and
//!   where they are published ([`Published`]), the checkpoint's size where
//!   known ([`Checkpoint`]), a family and search tags.
//!
//! A catalog is built from `(metadata, config text)` pairs
//! ([`ModelCatalog::from_records`]) or from the metadata document and a
//! lookup of config texts by file name ([`ModelCatalog::from_parts`]), so
//! it can be made from data fetched at run time ([`install`]) as well as
//! from the copy embedded in the binary (feature `embedded`, see the
//! `embedded` module), which a test keeps equal to the folder.
//!
//! # Calculable or excluded
//!
//! Each entry is [`ModelStatus::Calculable`] when [`parse_config`] accepts
//! its config, with a [`ModelSummary`] of the result, or
//! [`ModelStatus::Excluded`] with the parser's reason. The status is the
//! parser's verdict, never written in the data. A config is parsed at most
//! once, on demand, and kept.
//!
//! # Listing and search
//!
//! [`ModelCatalog::listing`] gives one [`ModelListing`] per entry (id,
//! counts, status and reason, source, size) for `vramfit models` and the
//! page's picker; [`search`] filters it by name words and size terms
//! (`qwen 30b`, `<10b`, `70b-130b`).
//!
//! # Name resolution
//!
//! [`find_model`] compares *keys*: lowercase alphanumeric text with every
//! separator (`/`, `_`, `-`, `.`, spaces) removed ([`fuzzy::key`]). In
//! order:
//!
//! 1. **Exact**: the query's key is the key of a full id
//!    (`meta-llama/llama-3.1-8b`) or of the name after the slash
//!    (`Llama-3.1-8B`, `qwen3 8b`, `gpt2`). One such entry is the answer,
//!    even when longer names also start with the query: `Qwen3-30B-A3B` is
//!    not `Qwen3-30B-A3B-FP8`.
//! 2. **Short name**: otherwise the entries whose id or name *starts* with
//!    the query's words (`Qwen3-30B`, `gpt-oss`, `gemma-2-9b`) are offered
//!    as suggestions, shortest first. They are never picked silently: a
//!    longer name is another checkpoint (an instruct tune, a quantized
//!    copy), which may weigh differently.
//! 3. **Miss**: up to three ids close by edit distance
//!    ([`fuzzy::suggest`]), possibly none.

#[cfg(feature = "embedded")]
mod embedded;
mod figure;
mod listing;
#[cfg(test)]
mod tests;

pub use figure::{Figure, Precision};
pub use listing::{search, ModelListing, SizeQuery};

use super::fuzzy;
use super::NotFound;
use crate::model::{parse_config_with, ConfigError, Dtype, ModelSpec, QuantScheme};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// Where a config's text was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// How faithful the copy is: `verbatim`, `verbatim (embedded in
    /// markdown)`, `transcribed (Python dict -> JSON)`, ... (the legend is
    /// in `data/configs/README.md`).
    pub status: String,
    /// The public repository the text was found in (`owner/name`).
    pub repo: String,
    /// The path inside [`Source::repo`].
    pub path: String,
    /// The commit the text was read at.
    pub commit: String,
    /// Remarks on the copy (trimmed keys, older revisions, identity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// What a published count counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The model as its card counts it (DeepSeek-V3's 671B leaves out the
    /// multi-token-prediction module stored with it).
    Model,
    /// Every tensor stored in the checkpoint (a safetensors index total, the
    /// Hub's count), multi-token-prediction layers included.
    Checkpoint,
    /// The text model of a multimodal checkpoint, without its vision (and
    /// audio) towers: the language model a card counts apart (Gemma-4 26B
    /// A4B's "25.2B", its vision encoder given separately).
    TextModel,
}

/// The published parameter counts of a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// All parameters, as a [`Figure`] text (`8,030,261,248`, `30.5B`,
    /// `~7B`).
    pub total: String,
    /// Parameters used per token, for mixture-of-experts models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<String>,
    /// What the counts include.
    pub scope: Scope,
    /// Where the figures are published.
    pub source: String,
    /// Remarks (the card's own rounding, what the figure includes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// The stored size of a checkpoint, where an index gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// `metadata.total_size` of `model.safetensors.index.json`, in bytes.
    pub bytes: u64,
    /// The storage type of the tensors (`bf16`).
    pub dtype: String,
    /// Where the figure is.
    pub source: String,
    /// The files store the output head as a tensor of its own
    /// (`lm_head.weight` in the index's `weight_map`) although the config
    /// ties it to the input embedding: a second copy of `V × H` values,
    /// which the loaded model does not hold (the Falcon-7B/40B/180B
    /// checkpoints, saved from the RefinedWeb code).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stores_tied_head: bool,
}

impl Checkpoint {
    /// Parameters the files store beyond what the loaded model holds: the
    /// tied head's second copy when [`Checkpoint::stores_tied_head`]
    /// (`vocab × hidden` of a tied model), else 0.
    pub fn stored_beyond_model(&self, spec: &ModelSpec) -> u64 {
        match self.stores_tied_head && spec.tied_embeddings {
            true => spec.vocab_size.saturating_mul(spec.hidden_size),
            false => 0,
        }
    }
}

/// A file read beside the `config.json` (`hf_quant_config.json`), kept in
/// `data/configs/hf_quant/` under [`SideFile::file`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideFile {
    /// File name in `data/configs/hf_quant/` (`owner__Name.json`).
    pub file: String,
    /// Where its text was found.
    pub source: Source,
}

/// One row of `data/models.json`: everything the catalog knows of a model
/// besides its config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelMeta {
    /// Hugging Face id, `owner/Name`.
    pub id: String,
    /// File name in `data/configs/` (`owner__Name.json`).
    pub file: String,
    /// Model family, for grouping and search (`Qwen3`, `Llama 3.1`).
    pub family: String,
    /// Search tags (`moe`, `vision`, `fp8`, `instruct`, ...).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Where the config's text was found.
    pub source: Source,
    /// Published parameter counts.
    pub published: Published,
    /// Stored size of the checkpoint, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<Checkpoint>,
    /// The checkpoint's `hf_quant_config.json`, for a ModelOpt export whose
    /// `config.json` does not state its quantization.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hf_quant_config: Option<SideFile>,
    /// Why a checkpoint known to be quantized is read unquantized: its
    /// `config.json` does not state the quantization and the catalog has no
    /// usable `hf_quant_config.json` for it. Shown with the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantization_not_read: Option<String>,
    /// Remarks on the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// The whole `models.json` document.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MetaFile {
    #[serde(rename = "_readme")]
    _readme: Option<String>,
    models: Vec<ModelMeta>,
}

/// Why a catalog could not be built from its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// The metadata document is not valid JSON of the expected shape.
    Metadata(String),
    /// A metadata row names a config file the lookup does not have.
    MissingConfig(String),
    /// Two rows share an id.
    DuplicateId(String),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::Metadata(e) => write!(f, "the model metadata does not parse: {e}"),
            CatalogError::MissingConfig(file) => write!(f, "no config text for {file}"),
            CatalogError::DuplicateId(id) => write!(f, "{id} is listed twice"),
        }
    }
}

impl std::error::Error for CatalogError {}

/// One model of the catalog.
#[derive(Debug)]
pub struct ModelEntry {
    /// Hugging Face id, `owner/Name` (`meta-llama/Llama-3.1-8B`).
    pub id: String,
    /// File name in `data/configs/` (`meta-llama__Llama-3.1-8B.json`).
    pub file: String,
    /// The text of the `config.json`.
    pub config: Cow<'static, str>,
    /// The text of the `hf_quant_config.json` read beside it, where the
    /// row names one ([`ModelMeta::hf_quant_config`]).
    pub hf_quant_config: Option<Cow<'static, str>>,
    /// Everything else the catalog records ([`ModelMeta`]).
    pub meta: ModelMeta,
    /// The parsed config, filled at first use.
    parsed: OnceLock<Result<ModelSpec, ConfigError>>,
}

/// Whether vramfit can compute a model's memory, and if not why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ModelStatus {
    /// The config parses; the headline figures of its [`ModelSpec`].
    Calculable(ModelSummary),
    /// The config does not parse; `reason` is the [`ConfigError`] message.
    Excluded {
        /// Why, in one English line.
        reason: String,
    },
}

/// The headline figures of a parsed config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModelSummary {
    /// All parameters of the text model ([`ModelSpec::params_total`]).
    pub params_total: u64,
    /// The text model plus, where the reader counts it, the vision tower
    /// (`ModelSpec::checkpoint.params`).
    pub params_with_vision: u64,
    /// Parameters used per token ([`ModelSpec::params_active`]).
    pub params_active: u64,
    /// Bytes of the weights as published
    /// ([`ModelSpec::published_weight_bytes`]).
    pub published_weight_bytes: u64,
    /// Decoder layers.
    pub num_layers: u64,
    /// Longest configured context, where the config gives one.
    pub max_context: Option<u64>,
    /// Storage type of unquantized tensors.
    pub dtype: Dtype,
    /// The checkpoint's quantization scheme, if any.
    pub quantization: Option<QuantScheme>,
    /// Whether the model routes tokens through experts.
    pub moe: bool,
}

impl From<&ModelSpec> for ModelSummary {
    fn from(spec: &ModelSpec) -> Self {
        ModelSummary {
            params_total: spec.params_total,
            params_with_vision: spec.checkpoint.params,
            params_active: spec.params_active,
            published_weight_bytes: spec.published_weight_bytes(),
            num_layers: spec.num_layers,
            max_context: spec.max_context,
            dtype: spec.dtype,
            quantization: spec.quantization.as_ref().map(|q| q.scheme),
            moe: spec.moe.is_some(),
        }
    }
}

impl ModelEntry {
    /// An entry from its metadata and its config's text.
    pub fn new(meta: ModelMeta, config: Cow<'static, str>) -> ModelEntry {
        ModelEntry {
            id: meta.id.clone(),
            file: meta.file.clone(),
            config,
            hf_quant_config: None,
            meta,
            parsed: OnceLock::new(),
        }
    }

    /// The entry with the text of its `hf_quant_config.json`.
    pub fn with_hf_quant_config(mut self, text: Cow<'static, str>) -> ModelEntry {
        self.hf_quant_config = Some(text);
        self.parsed = OnceLock::new();
        self
    }

    /// The part of the id after the slash (`Llama-3.1-8B`).
    pub fn name(&self) -> &str {
        name_of(&self.id)
    }

    /// The part of the id before the slash (`meta-llama`).
    pub fn owner(&self) -> &str {
        self.id.split_once('/').map_or("", |(owner, _)| owner)
    }

    /// Where the config's text was found.
    pub fn source(&self) -> &Source {
        &self.meta.source
    }

    /// The published counts.
    pub fn published(&self) -> &Published {
        &self.meta.published
    }

    /// The published total, read ([`Figure::parse`]).
    pub fn published_total(&self) -> Option<Figure> {
        Figure::parse(&self.meta.published.total)
    }

    /// The published active count, read, for mixture-of-experts models.
    pub fn published_active(&self) -> Option<Figure> {
        self.meta
            .published
            .active
            .as_deref()
            .and_then(Figure::parse)
    }

    /// The parsed config (parsed at first call, then cloned from the
    /// cache).
    pub fn spec(&self) -> Result<ModelSpec, ConfigError> {
        self.parsed().clone()
    }

    /// Calculable with a summary, or excluded with the parser's reason.
    pub fn status(&self) -> ModelStatus {
        match self.parsed() {
            Ok(spec) => ModelStatus::Calculable(ModelSummary::from(spec)),
            Err(e) => ModelStatus::Excluded {
                reason: e.to_string(),
            },
        }
    }

    /// Whether [`ModelEntry::status`] is [`ModelStatus::Calculable`].
    pub fn is_calculable(&self) -> bool {
        self.parsed().is_ok()
    }

    /// The cached parse.
    fn parsed(&self) -> &Result<ModelSpec, ConfigError> {
        self.parsed
            .get_or_init(|| parse_config_with(&self.config, self.hf_quant_config.as_deref()))
    }
}

/// A set of models, searchable by name.
#[derive(Debug, Default)]
pub struct ModelCatalog {
    entries: Vec<ModelEntry>,
}

impl ModelCatalog {
    /// A catalog of `(metadata, config text)` pairs, in the given order.
    /// Ids must be unique (compared as written).
    pub fn from_records(
        records: impl IntoIterator<Item = (ModelMeta, Cow<'static, str>)>,
    ) -> Result<ModelCatalog, CatalogError> {
        let mut entries: Vec<ModelEntry> = Vec::new();
        for (meta, config) in records {
            if entries.iter().any(|e| e.id == meta.id) {
                return Err(CatalogError::DuplicateId(meta.id));
            }
            entries.push(ModelEntry::new(meta, config));
        }
        Ok(ModelCatalog { entries })
    }

    /// A catalog from the text of a `models.json` document and a lookup of
    /// config texts by file name (`owner__Name.json`; a side file as
    /// `hf_quant/owner__Name.json`); rows keep the document's order.
    pub fn from_parts<F>(
        metadata_json: &str,
        mut config_of: F,
    ) -> Result<ModelCatalog, CatalogError>
    where
        F: FnMut(&str) -> Option<Cow<'static, str>>,
    {
        let file: MetaFile = serde_json::from_str(metadata_json)
            .map_err(|e| CatalogError::Metadata(e.to_string()))?;
        let mut sides = Vec::with_capacity(file.models.len());
        let mut records = Vec::with_capacity(file.models.len());
        for meta in file.models {
            let config = config_of(&meta.file)
                .ok_or_else(|| CatalogError::MissingConfig(meta.file.clone()))?;
            let side = match &meta.hf_quant_config {
                Some(side) => {
                    let name = format!("hf_quant/{}", side.file);
                    Some(config_of(&name).ok_or(CatalogError::MissingConfig(name))?)
                }
                None => None,
            };
            sides.push(side);
            records.push((meta, config));
        }
        let mut catalog = ModelCatalog::from_records(records)?;
        let entries = std::mem::take(&mut catalog.entries);
        catalog.entries = entries
            .into_iter()
            .zip(sides)
            .map(|(entry, side)| match side {
                Some(text) => entry.with_hf_quant_config(text),
                None => entry,
            })
            .collect();
        Ok(catalog)
    }

    /// Every entry, in catalog order.
    pub fn entries(&self) -> &[ModelEntry] {
        &self.entries
    }

    /// The entry a name designates (see the module documentation).
    pub fn find(&self, query: &str) -> Result<&ModelEntry, NotFound> {
        let ids: Vec<&str> = self.entries.iter().map(|e| e.id.as_str()).collect();
        match resolve(&ids, query) {
            Ok(index) => Ok(&self.entries[index]),
            Err(suggestions) => Err(NotFound {
                query: query.to_string(),
                suggestions,
            }),
        }
    }

    /// One [`ModelListing`] per entry, in catalog order (parses every
    /// config not parsed yet).
    pub fn listing(&self) -> Vec<ModelListing> {
        self.entries.iter().map(ModelListing::of).collect()
    }

    /// How many entries each family has, by family name.
    pub fn families(&self) -> BTreeMap<&str, usize> {
        let mut counts = BTreeMap::new();
        for e in &self.entries {
            *counts.entry(e.meta.family.as_str()).or_insert(0) += 1;
        }
        counts
    }
}

/// The catalog [`install`] was given, if any.
static INSTALLED: OnceLock<ModelCatalog> = OnceLock::new();

/// The catalog in use: the one given to [`install`], else (feature
/// `embedded`) the one embedded in the binary, built at first use, else an
/// empty one.
///
/// The embedded data is guaranteed to build by this module's tests; if it
/// ever could not, this is an empty catalog rather than a panic.
pub fn catalog() -> &'static ModelCatalog {
    match INSTALLED.get() {
        Some(installed) => installed,
        None => compiled_in(),
    }
}

#[cfg(feature = "embedded")]
fn compiled_in() -> &'static ModelCatalog {
    static CATALOG: OnceLock<ModelCatalog> = OnceLock::new();
    CATALOG.get_or_init(|| embedded::catalog().unwrap_or_default())
}

#[cfg(not(feature = "embedded"))]
fn compiled_in() -> &'static ModelCatalog {
    static EMPTY: ModelCatalog = ModelCatalog {
        entries: Vec::new(),
    };
    &EMPTY
}

/// Makes `catalog` the one [`catalog`], [`all`], [`find_model`] and
/// [`list_models`] use (and so every scenario that names a catalog model),
/// for the rest of the process: a front end built without the feature
/// `embedded` installs the catalog it fetched
/// ([`ModelCatalog::from_parts`]). Only the first call counts: a later one
/// gives its catalog back as the error.
pub fn install(catalog: ModelCatalog) -> Result<(), ModelCatalog> {
    INSTALLED.set(catalog)
}

/// Whether a catalog was installed ([`install`]).
pub fn installed() -> bool {
    INSTALLED.get().is_some()
}

/// Every model of the catalog in use ([`catalog`]), in catalog order.
pub fn all() -> &'static [ModelEntry] {
    catalog().entries()
}

/// One [`ModelListing`] per model of the catalog in use, in catalog
/// order: what `vramfit models` prints.
pub fn list_models() -> Vec<ModelListing> {
    catalog().listing()
}

/// The model a name designates: a Hugging Face id or the name after its
/// slash, ignoring case and separators (see the module documentation).
///
/// ```
/// use vramfit_core::catalog::find_model;
/// assert_eq!(find_model("llama 3.1 8b").unwrap().id, "meta-llama/Llama-3.1-8B");
/// assert_eq!(find_model("Qwen3-30B-A3B").unwrap().id, "Qwen/Qwen3-30B-A3B");
/// let miss = find_model("Lama-3.1-8B").unwrap_err();
/// assert_eq!(miss.suggestions[0], "meta-llama/Llama-3.1-8B");
/// ```
pub fn find_model(query: &str) -> Result<&'static ModelEntry, NotFound> {
    catalog().find(query)
}

/// The part of an id after the first slash (the whole id without one).
fn name_of(id: &str) -> &str {
    id.split_once('/').map_or(id, |(_, name)| name)
}

/// Resolution over any list of ids: the index of the one match, or the
/// ids to suggest instead.
fn resolve(ids: &[&str], query: &str) -> Result<usize, Vec<String>> {
    let query_key = fuzzy::key(query);
    if query_key.is_empty() {
        return Err(Vec::new());
    }
    let exact = matching(ids, |id| {
        fuzzy::key(id) == query_key || fuzzy::key(name_of(id)) == query_key
    });
    if let [only] = exact[..] {
        return Ok(only);
    }
    if !exact.is_empty() {
        return Err(shortest_first(ids, exact));
    }
    let short = matching(ids, |id| {
        starts_with_key(id, &query_key) || starts_with_key(name_of(id), &query_key)
    });
    if !short.is_empty() {
        return Err(shortest_first(ids, short));
    }
    Err(fuzzy::suggest(query, ids.iter().copied()))
}

/// Indices of the ids that satisfy `test`.
fn matching(ids: &[&str], test: impl Fn(&str) -> bool) -> Vec<usize> {
    (0..ids.len()).filter(|&i| test(ids[i])).collect()
}

/// Whether the first few [`fuzzy::words`] of `text`, joined, are `key`.
fn starts_with_key(text: &str, key: &str) -> bool {
    let mut joined = String::new();
    for word in fuzzy::words(text) {
        joined.push_str(&word);
        if joined.len() >= key.len() {
            return joined == key;
        }
    }
    false
}

/// Up to [`fuzzy::MAX_SUGGESTIONS`] of the given ids, shortest name
/// first, then in catalog order.
fn shortest_first(ids: &[&str], mut indices: Vec<usize>) -> Vec<String> {
    indices.sort_by_key(|&i| (fuzzy::key(name_of(ids[i])).len(), i));
    indices
        .into_iter()
        .take(fuzzy::MAX_SUGGESTIONS)
        .map(|i| ids[i].to_string())
        .collect()
}
