//! The model catalog: every `config.json` in `data/configs/`, embedded with
//! `include_str!`, with its provenance and its published parameter count.
//!
//! # Data
//!
//! A file `owner__Name.json` is the config of the Hugging Face model
//! `owner/Name`. The list of files is written out in this module; a test
//! compares it with the folder, so a file added or removed there without
//! being listed here fails the build's tests. Provenance comes from the
//! table in `data/configs/SOURCES.md`, the official parameter counts from
//! the table in `data/param_counts.md`; both are embedded too and read
//! once, at first use, without panicking (a row that is missing gives a
//! [`Source`] whose status is `unknown`, which a test rejects).
//!
//! # Calculable or excluded
//!
//! Each entry is [`ModelStatus::Calculable`] when [`parse_config`] accepts
//! its config, with a [`ModelSummary`] of the result, or
//! [`ModelStatus::Excluded`] with the parser's reason. A config is parsed
//! at most once, on demand, and kept.
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

use super::fuzzy;
use super::NotFound;
use crate::model::{parse_config, ConfigError, Dtype, ModelSpec, QuantScheme};
use serde::Serialize;
use std::sync::OnceLock;

/// Provenance table of the configs.
const SOURCES_MD: &str = include_str!("../../data/configs/SOURCES.md");

/// Published parameter counts, one table row per config file.
const PARAM_COUNTS_MD: &str = include_str!("../../data/param_counts.md");

/// `(id, file, text)` of one embedded config.
macro_rules! config {
    ($id:literal, $file:literal) => {
        (
            $id,
            $file,
            include_str!(concat!("../../data/configs/", $file)),
        )
    };
}

/// Every embedded config: Hugging Face id, file name in `data/configs/`,
/// and the file's text. Order is the catalog's order.
const FILES: &[(&str, &str, &str)] = &[
    config!("meta-llama/Llama-2-7b-hf", "meta-llama__Llama-2-7b-hf.json"),
    config!("meta-llama/Llama-3.1-8B", "meta-llama__Llama-3.1-8B.json"),
    config!("meta-llama/Llama-3.1-70B", "meta-llama__Llama-3.1-70B.json"),
    config!(
        "meta-llama/Llama-3.1-405B",
        "meta-llama__Llama-3.1-405B.json"
    ),
    config!(
        "meta-llama/Llama-3.2-1B-Instruct",
        "meta-llama__Llama-3.2-1B-Instruct.json"
    ),
    config!("meta-llama/Llama-3.2-3B", "meta-llama__Llama-3.2-3B.json"),
    config!(
        "meta-llama/Llama-3.3-70B-Instruct",
        "meta-llama__Llama-3.3-70B-Instruct.json"
    ),
    config!(
        "mistralai/Mistral-7B-v0.3",
        "mistralai__Mistral-7B-v0.3.json"
    ),
    config!(
        "mistralai/Mixtral-8x7B-v0.1",
        "mistralai__Mixtral-8x7B-v0.1.json"
    ),
    config!("Qwen/Qwen2.5-0.5B", "Qwen__Qwen2.5-0.5B.json"),
    config!("Qwen/Qwen2.5-3B", "Qwen__Qwen2.5-3B.json"),
    config!("Qwen/Qwen2.5-7B", "Qwen__Qwen2.5-7B.json"),
    config!("Qwen/Qwen2.5-14B", "Qwen__Qwen2.5-14B.json"),
    config!("Qwen/Qwen2.5-32B", "Qwen__Qwen2.5-32B.json"),
    config!("Qwen/Qwen3-4B", "Qwen__Qwen3-4B.json"),
    config!("Qwen/Qwen3-8B", "Qwen__Qwen3-8B.json"),
    config!("Qwen/Qwen3-14B", "Qwen__Qwen3-14B.json"),
    config!("Qwen/Qwen3-32B", "Qwen__Qwen3-32B.json"),
    config!("Qwen/Qwen3-30B-A3B", "Qwen__Qwen3-30B-A3B.json"),
    config!("Qwen/Qwen3-30B-A3B-FP8", "Qwen__Qwen3-30B-A3B-FP8.json"),
    config!("Qwen/Qwen3-235B-A22B", "Qwen__Qwen3-235B-A22B.json"),
    config!("google/gemma-2-2b-it", "google__gemma-2-2b-it.json"),
    config!("google/gemma-2-9b-it", "google__gemma-2-9b-it.json"),
    config!("google/gemma-2-27b-it", "google__gemma-2-27b-it.json"),
    config!("google/gemma-3-1b-it", "google__gemma-3-1b-it.json"),
    config!(
        "deepseek-ai/DeepSeek-V2-Lite",
        "deepseek-ai__DeepSeek-V2-Lite.json"
    ),
    config!("deepseek-ai/DeepSeek-V3", "deepseek-ai__DeepSeek-V3.json"),
    config!("deepseek-ai/DeepSeek-R1", "deepseek-ai__DeepSeek-R1.json"),
    config!("openai/gpt-oss-20b", "openai__gpt-oss-20b.json"),
    config!("openai/gpt-oss-120b", "openai__gpt-oss-120b.json"),
    config!(
        "microsoft/Phi-3.5-mini-instruct",
        "microsoft__Phi-3.5-mini-instruct.json"
    ),
    config!(
        "microsoft/Phi-4-mini-instruct",
        "microsoft__Phi-4-mini-instruct.json"
    ),
    config!("openai-community/gpt2", "openai-community__gpt2.json"),
    config!("allenai/OLMo-2-1124-7B", "allenai__OLMo-2-1124-7B.json"),
    // Models of the vLLM 0.19 start-up logs (data/engines/vllm-0.19-h100.csv).
    config!(
        "codellama/CodeLlama-7b-hf",
        "codellama__CodeLlama-7b-hf.json"
    ),
    config!(
        "deepseek-ai/DeepSeek-V2-Lite-Chat",
        "deepseek-ai__DeepSeek-V2-Lite-Chat.json"
    ),
    config!(
        "RedHatAI/Qwen2.5-7B-Instruct-FP8-dynamic",
        "RedHatAI__Qwen2.5-7B-Instruct-FP8-dynamic.json"
    ),
    config!("google/gemma-3-4b-it", "google__gemma-3-4b-it.json"),
    config!("google/gemma-3-12b-it", "google__gemma-3-12b-it.json"),
    config!("google/gemma-3-27b-it", "google__gemma-3-27b-it.json"),
    config!("google/gemma-7b", "google__gemma-7b.json"),
    config!(
        "ibm-granite/granite-3.1-2b-instruct",
        "ibm-granite__granite-3.1-2b-instruct.json"
    ),
    config!(
        "ibm-granite/granite-3.1-8b-instruct",
        "ibm-granite__granite-3.1-8b-instruct.json"
    ),
    config!(
        "ibm-granite/granite-3.3-8b-instruct",
        "ibm-granite__granite-3.3-8b-instruct.json"
    ),
    config!(
        "ibm-granite/granite-vision-3.3-2b",
        "ibm-granite__granite-vision-3.3-2b.json"
    ),
    config!(
        "meta-llama/Llama-3.1-8B-Instruct",
        "meta-llama__Llama-3.1-8B-Instruct.json"
    ),
    config!("microsoft/phi-2", "microsoft__phi-2.json"),
    config!("microsoft/phi-4", "microsoft__phi-4.json"),
    config!(
        "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        "mistralai__Mistral-Small-3.1-24B-Instruct-2503.json"
    ),
    config!(
        "mistralai/Mixtral-8x7B-Instruct-v0.1",
        "mistralai__Mixtral-8x7B-Instruct-v0.1.json"
    ),
    config!("moonshotai/Kimi-Dev-72B", "moonshotai__Kimi-Dev-72B.json"),
    config!(
        "moonshotai/Kimi-VL-A3B-Instruct",
        "moonshotai__Kimi-VL-A3B-Instruct.json"
    ),
    config!("Qwen/Qwen1.5-MoE-A2.7B", "Qwen__Qwen1.5-MoE-A2.7B.json"),
    config!("Qwen/Qwen2.5-7B-Instruct", "Qwen__Qwen2.5-7B-Instruct.json"),
    config!(
        "Qwen/Qwen2.5-72B-Instruct",
        "Qwen__Qwen2.5-72B-Instruct.json"
    ),
    config!(
        "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16",
        "RedHatAI__Meta-Llama-3.1-8B-Instruct-quantized.w4a16.json"
    ),
    config!(
        "RedHatAI/Mistral-Small-3.1-24B-Instruct-2503-quantized.w8a8",
        "RedHatAI__Mistral-Small-3.1-24B-Instruct-2503-quantized.w8a8.json"
    ),
];

/// Where a config's text was copied from: its row of `SOURCES.md`, each
/// cell as written there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Source {
    /// How faithful the copy is (`verbatim`, `transcribed (Python dict ->
    /// JSON)`, ...); `unknown` when the table has no row for the file.
    pub status: &'static str,
    /// The Hugging Face repository as the table names it, with any remark
    /// (`meta-llama/Llama-3.1-8B (formerly Meta-Llama-3.1-8B)`).
    pub hf_repo: &'static str,
    /// The repository the text was found in.
    pub repo: &'static str,
    /// The path inside [`Source::repo`].
    pub path: &'static str,
    /// The commit the text was read at.
    pub commit: &'static str,
    /// Remarks on the copy (trimmed keys, older revisions, ...).
    pub notes: &'static str,
}

impl Source {
    /// The source of a file the table does not list.
    pub const UNKNOWN: Source = Source {
        status: "unknown",
        hf_repo: "",
        repo: "",
        path: "",
        commit: "",
        notes: "",
    };
}

/// One model of the catalog.
#[derive(Debug)]
pub struct ModelEntry {
    /// Hugging Face id, `owner/Name` (`meta-llama/Llama-3.1-8B`).
    pub id: &'static str,
    /// File name in `data/configs/` (`meta-llama__Llama-3.1-8B.json`).
    pub file: &'static str,
    /// The text of the `config.json`.
    pub config: &'static str,
    /// Where the text comes from.
    pub source: Source,
    /// Total parameters as officially published (`8B`, `30.5B`,
    /// `2,614,341,888`), rounded as published; `None` where none is known.
    pub published_params: Option<&'static str>,
    /// Active parameters per token as officially published, for
    /// mixture-of-experts models (`3.3B`).
    pub published_active: Option<&'static str>,
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
    /// All parameters ([`ModelSpec::params_total`]).
    pub params_total: u64,
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
    /// The part of the id after the slash (`Llama-3.1-8B`).
    pub fn name(&self) -> &'static str {
        name_of(self.id)
    }

    /// The part of the id before the slash (`meta-llama`).
    pub fn owner(&self) -> &'static str {
        self.id.split_once('/').map_or("", |(owner, _)| owner)
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
        self.parsed.get_or_init(|| parse_config(self.config))
    }

    /// An entry with its provenance looked up in the two tables.
    fn new(file: (&'static str, &'static str, &'static str), tables: &Tables) -> ModelEntry {
        let (id, file, config) = file;
        let counts = tables.counts.iter().find(|row| row.first() == Some(&file));
        let count = |column: usize| counts.and_then(|row| figure(row.get(column)?));
        ModelEntry {
            id,
            file,
            config,
            source: tables.source(file),
            published_params: count(2),
            published_active: count(3),
            parsed: OnceLock::new(),
        }
    }
}

/// The rows of the two embedded tables, cells trimmed.
struct Tables {
    sources: Vec<Vec<&'static str>>,
    counts: Vec<Vec<&'static str>>,
}

impl Tables {
    /// Reads both embedded tables.
    fn embedded() -> Tables {
        Tables {
            sources: table_rows(SOURCES_MD),
            counts: table_rows(PARAM_COUNTS_MD),
        }
    }

    /// The `SOURCES.md` row of `file`, or [`Source::UNKNOWN`].
    fn source(&self, file: &str) -> Source {
        let row = self.sources.iter().find(|row| row.first() == Some(&file));
        match row.map(|r| &r[..]) {
            Some(&[_, hf_repo, status, repo, path, commit, notes, ..]) => Source {
                status,
                hf_repo,
                repo,
                path,
                commit,
                notes,
            },
            _ => Source::UNKNOWN,
        }
    }
}

/// The cells of every markdown table row (`| a | b |`) of `text`, trimmed;
/// header and separator rows included, other lines skipped.
fn table_rows(text: &'static str) -> Vec<Vec<&'static str>> {
    text.lines()
        .filter_map(|line| {
            let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
            Some(inner.split('|').map(str::trim).collect())
        })
        .collect()
}

/// A published figure: `None` for an empty cell or a dash.
fn figure(cell: &'static str) -> Option<&'static str> {
    match cell {
        "" | "-" => None,
        _ => Some(cell),
    }
}

/// The part of an id after the first slash (the whole id without one).
fn name_of(id: &str) -> &str {
    id.split_once('/').map_or(id, |(_, name)| name)
}

/// Every model of the catalog, in catalog order.
pub fn all() -> &'static [ModelEntry] {
    static ENTRIES: OnceLock<Vec<ModelEntry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let tables = Tables::embedded();
        FILES.iter().map(|&f| ModelEntry::new(f, &tables)).collect()
    })
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
    let entries = all();
    let ids: Vec<&str> = entries.iter().map(|e| e.id).collect();
    match resolve(&ids, query) {
        Ok(index) => Ok(&entries[index]),
        Err(suggestions) => Err(NotFound {
            query: query.to_string(),
            suggestions,
        }),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashSet};

    fn id_of(query: &str) -> &'static str {
        match find_model(query) {
            Ok(entry) => entry.id,
            Err(e) => panic!("{query:?} did not resolve: {e}"),
        }
    }

    fn config_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/configs")
    }

    #[test]
    fn listed_files_are_exactly_the_folder() {
        let on_disk: BTreeSet<String> = std::fs::read_dir(config_dir())
            .expect("data/configs is readable")
            .map(|e| e.expect("a directory entry").file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".json"))
            .collect();
        let listed: BTreeSet<String> = FILES.iter().map(|f| f.1.to_string()).collect();
        let unlisted: Vec<_> = on_disk.difference(&listed).collect();
        let absent: Vec<_> = listed.difference(&on_disk).collect();
        assert!(unlisted.is_empty(), "not listed in FILES: {unlisted:?}");
        assert!(absent.is_empty(), "listed but absent: {absent:?}");
        assert_eq!(listed.len(), FILES.len(), "a file is listed twice");
    }

    #[test]
    fn ids_match_file_names_and_are_unique() {
        let mut ids = HashSet::new();
        let mut keys = HashSet::new();
        for entry in all() {
            let want = format!("{}.json", entry.id.replacen('/', "__", 1));
            assert_eq!(entry.file, want);
            assert!(!entry.owner().is_empty() && !entry.name().is_empty());
            assert!(ids.insert(entry.id.to_lowercase()), "dup {}", entry.id);
            assert!(keys.insert(fuzzy::key(entry.id)), "key clash {}", entry.id);
            let name_key = fuzzy::key(entry.name());
            assert!(keys.insert(name_key), "name clash {}", entry.id);
        }
        assert_eq!(all().len(), FILES.len());
    }

    #[test]
    fn every_entry_is_calculable() {
        for entry in all() {
            let spec = match entry.spec() {
                Ok(spec) => spec,
                Err(e) => panic!("{} is excluded: {e}", entry.id),
            };
            assert!(entry.is_calculable());
            let ModelStatus::Calculable(summary) = entry.status() else {
                panic!("{} not calculable", entry.id);
            };
            assert_eq!(summary, ModelSummary::from(&spec));
            assert!(summary.params_total > 0 && summary.params_active > 0);
            assert!(summary.params_active <= summary.params_total);
            assert!(summary.published_weight_bytes > 0);
        }
    }

    #[test]
    fn every_entry_has_a_source_row() {
        for entry in all() {
            let s = entry.source;
            assert_ne!(s.status, "unknown", "{} has no SOURCES.md row", entry.file);
            assert!(!s.status.is_empty() && !s.repo.is_empty(), "{}", entry.file);
            assert!(!s.path.is_empty() && !s.commit.is_empty(), "{}", entry.file);
        }
        let llama = find_model("meta-llama/Llama-3.1-8B").unwrap();
        assert_eq!(llama.source.status, "verbatim");
        assert_eq!(llama.source.repo, "ai-dynamo/aiconfigurator");
    }

    #[test]
    fn every_source_row_names_a_listed_file() {
        let listed: HashSet<&str> = FILES.iter().map(|f| f.1).collect();
        let rows = table_rows(SOURCES_MD);
        let files: Vec<&str> = rows
            .iter()
            .filter_map(|row| row.first().copied())
            .filter(|cell| cell.ends_with(".json"))
            .collect();
        assert_eq!(files.len(), FILES.len());
        for file in files {
            assert!(listed.contains(file), "SOURCES.md row {file} is not listed");
        }
    }

    #[test]
    fn published_counts_come_from_the_table() {
        let llama = find_model("Llama-3.1-8B").unwrap();
        assert_eq!(llama.published_params, Some("8B"));
        assert_eq!(llama.published_active, None);
        let moe = find_model("Qwen3-30B-A3B").unwrap();
        assert_eq!(moe.published_params, Some("30.5B"));
        assert_eq!(moe.published_active, Some("3.3B"));
        for entry in all() {
            assert!(entry.published_params.is_some(), "{}", entry.file);
        }
    }

    #[test]
    fn a_missing_row_is_unknown_not_a_panic() {
        let tables = Tables {
            sources: table_rows("| file | a |\n|---|---|\n| x.json | short |"),
            counts: Vec::new(),
        };
        let entry = ModelEntry::new(("o/x", "x.json", "{}"), &tables);
        assert_eq!(entry.source, Source::UNKNOWN);
        assert_eq!(entry.published_params, None);
    }

    #[test]
    fn a_config_that_does_not_parse_is_excluded_with_the_reason() {
        let tables = Tables {
            sources: Vec::new(),
            counts: Vec::new(),
        };
        for text in ["{}", "not json", r#"{"model_type": "llama"}"#] {
            let entry = ModelEntry::new(("o/x", "o__x.json", text), &tables);
            let reason = parse_config(text).unwrap_err().to_string();
            assert_eq!(entry.status(), ModelStatus::Excluded { reason });
            assert!(!entry.is_calculable());
            assert!(entry.spec().is_err());
        }
    }

    #[test]
    fn lookups_ignore_case_and_separators() {
        let cases = [
            ("meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-8B"),
            ("META-LLAMA/LLAMA-3.1-8B", "meta-llama/Llama-3.1-8B"),
            ("llama-3.1-8b", "meta-llama/Llama-3.1-8B"),
            ("llama_3_1_8b", "meta-llama/Llama-3.1-8B"),
            ("qwen3 8b", "Qwen/Qwen3-8B"),
            ("gpt2", "openai-community/gpt2"),
            ("Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B"),
            ("qwen3 30b a3b fp8", "Qwen/Qwen3-30B-A3B-FP8"),
            ("DeepSeek-V3", "deepseek-ai/DeepSeek-V3"),
            ("gpt-oss-20b", "openai/gpt-oss-20b"),
        ];
        for (query, want) in cases {
            assert_eq!(id_of(query), want, "{query:?}");
        }
        for entry in all() {
            assert_eq!(id_of(entry.id), entry.id);
            assert_eq!(id_of(entry.name()), entry.id);
            assert_eq!(id_of(&entry.id.to_uppercase()), entry.id);
        }
    }

    #[test]
    fn short_names_are_offered_not_picked() {
        let miss = find_model("Qwen3-30B").unwrap_err();
        assert_eq!(
            miss.suggestions,
            ["Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-FP8"]
        );
        let miss = find_model("gpt-oss").unwrap_err();
        assert_eq!(
            miss.suggestions,
            ["openai/gpt-oss-20b", "openai/gpt-oss-120b"]
        );
        let miss = find_model("gemma-2-9b").unwrap_err();
        assert_eq!(miss.suggestions, ["google/gemma-2-9b-it"]);
        let miss = find_model("Llama").unwrap_err();
        assert_eq!(miss.suggestions.len(), fuzzy::MAX_SUGGESTIONS);
    }

    #[test]
    fn same_name_under_two_owners_is_ambiguous() {
        let ids = ["a/Model-7B", "b/model_7b", "a/Model-7B-Chat"];
        assert_eq!(resolve(&ids, "Model 7B").unwrap_err(), ids[..2]);
        assert_eq!(resolve(&ids, "b/model-7b"), Ok(1));
        assert_eq!(resolve(&ids, "model-7b-chat"), Ok(2));
    }

    #[test]
    fn typo_suggests_the_close_id() {
        let miss = find_model("Lama-3.1-8B").unwrap_err();
        assert_eq!(miss.query, "Lama-3.1-8B");
        assert_eq!(miss.suggestions[0], "meta-llama/Llama-3.1-8B");
        assert!(miss.suggestions.len() <= fuzzy::MAX_SUGGESTIONS);
        let miss = find_model("Mixtral 8x7").unwrap_err();
        assert_eq!(miss.suggestions[0], "mistralai/Mixtral-8x7B-v0.1");
    }

    #[test]
    fn nonsense_is_not_found_without_panic() {
        let huge = "z".repeat(100_000);
        for q in ["", "   ", "/", "xyzzy plugh", "😀", "-", huge.as_str()] {
            assert!(find_model(q).is_err(), "{q:?}");
        }
        assert!(find_model("").unwrap_err().suggestions.is_empty());
        assert!(find_model("xyzzy plugh")
            .unwrap_err()
            .suggestions
            .is_empty());
    }

    #[test]
    fn helpers() {
        assert!(starts_with_key("Qwen3-30B-A3B-FP8", "qwen330b"));
        assert!(!starts_with_key("Qwen3-30B-A3B", "qwen330"));
        assert!(!starts_with_key("Qwen3", "qwen330b"));
        assert_eq!(name_of("a/b/c"), "b/c");
        assert_eq!(name_of("plain"), "plain");
        assert_eq!(figure("-"), None);
        assert_eq!(figure("7B"), Some("7B"));
        assert_eq!(table_rows("text\n| a | b |\n"), [["a", "b"]]);
    }
}
