//! The GPU catalog: `data/gpus.json`, embedded with `include_str!` and
//! parsed once.
//!
//! # Memory
//!
//! `memory_gb` is the size as marketed, in decimal GB (10⁹ bytes), and
//! [`Gpu::memory_bytes`] is exactly `memory_gb × 10⁹`. That is the figure
//! every seed compares against ("cabe en una GPU de 24 GB") and the one a
//! person types. The data file also carries, for some rows, a byte figure
//! from a tool or a driver (`80 GiB as modeled by …`, `97887 MiB as
//! reported by nvidia-smi`); those are mixed in kind (modelling values in
//! GiB, driver-visible sizes in MiB), so they are kept apart as
//! [`Gpu::reported_memory_bytes`] with their note and never replace the
//! marketed size.
//!
//! # Name resolution
//!
//! [`find_gpu`] accepts the short names people use (`RTX 4090`, `rtx4090`,
//! `H100`, `A100 80GB`, `h100 sxm`, `MI300X`, `M3 Max`). Case, spaces,
//! dashes and other separators are ignored, and so are vendor and brand
//! words (`NVIDIA`, `GeForce`, `AMD`, `Instinct`, `Intel`, `Apple`,
//! `Tesla`, `GPU`). In order:
//!
//! 1. **Exact**: the query's key equals a name's key, with or without the
//!    parenthesised part (`B200` is `NVIDIA B200 (HGX/DGX B200, per GPU)`).
//! 2. **Tokens**: names are cut into atoms, runs of letters or of digits
//!    (`h100 sxm5` → `h`, `100`, `sxm`, `5`). A name matches when every
//!    query atom is one of its atoms (any order) and every atom of its
//!    *identity* is in the query. The identity is the name outside
//!    parentheses less its qualifiers: memory sizes (`80GB`), form factors
//!    (`SXM*`, `PCIe`, `NVL`) and the words `RTX`, `Generation`, `Edition`,
//!    `Server`, `Workstation`, `Blackwell`. So `4090` finds the RTX 4090 and
//!    `h100 sxm` the H100 SXM5, but `RTX 4060` does not silently become the
//!    16 GB `RTX 4060 Ti`, nor `MI300` the `MI300X`: those are other cards.
//! 3. **Default variant**: when every match is a variant of the same chip
//!    (same identity: `H100` → PCIe, SXM5, NVL), the default is the SXM
//!    module if there is one, then the variant with the most memory. This
//!    is the part cloud instances and most published figures mean by the
//!    bare name: `H100` → H100 SXM5, `A100` → A100 80GB SXM4, `A100 40GB`
//!    → A100 40GB SXM4, `A100 PCIe` → A100 80GB PCIe, `V100` → V100 32GB.
//! 4. Otherwise a [`NotFound`]: for several matches of different chips,
//!    the matches; for none, up to three names by edit distance
//!    ([`fuzzy::suggest`]).

use super::fuzzy;
use super::NotFound;
use crate::units::{Bytes, DisplayUnit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The checked-in catalog.
const GPUS_JSON: &str = include_str!("../../data/gpus.json");

/// Market segment of an accelerator, as the data file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GpuCategory {
    /// Gaming cards (GeForce).
    Consumer,
    /// Professional desktop and server cards (RTX A6000, RTX 6000 Ada).
    Workstation,
    /// Training-class data-center accelerators (A100, H100, MI300X).
    Datacenter,
    /// Inference-class data-center cards (L4, L40S, T4, A10).
    DatacenterInference,
    /// Apple silicon, whose GPU shares the system's unified memory.
    AppleUnified,
}

/// One accelerator of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gpu {
    /// Full name, unique in the catalog (`NVIDIA GeForce RTX 4090`).
    pub name: String,
    /// `NVIDIA`, `AMD`, `Apple`, `Intel`.
    pub vendor: String,
    pub category: GpuCategory,
    /// Memory as marketed, in decimal GB (10⁹ bytes).
    pub memory_gb: f64,
    /// `memory_gb × 10⁹`, rounded to the byte: the marketed size in bytes.
    pub memory_bytes: Bytes,
    /// `GDDR6X`, `HBM3e`, `LPDDR5X unified`, ...
    pub memory_type: Option<String>,
    /// A byte figure a source gives (a tool's modelling value or a
    /// driver-visible size); see [`Gpu::reported_memory_note`]. Not used
    /// for the fit.
    pub reported_memory_bytes: Option<u64>,
    /// Where [`Gpu::reported_memory_bytes`] comes from and what it means.
    pub reported_memory_note: Option<String>,
    /// Memory bandwidth, in decimal GB/s (10⁹ bytes per second).
    pub bandwidth_gb_s: f64,
    /// Dense (no structured sparsity) BF16 tensor throughput, TFLOPS.
    pub bf16_dense_tflops: Option<f64>,
    /// Dense FP16 tensor throughput, TFLOPS, where it differs or is the
    /// only figure known.
    pub fp16_dense_tflops: Option<f64>,
    /// Native FP8 tensor support.
    pub fp8_support: bool,
    /// Dense FP8 tensor throughput, TFLOPS.
    pub fp8_dense_tflops: Option<f64>,
    /// Native FP4 tensor support.
    pub fp4_support: bool,
    /// Dense FP4 tensor throughput, TFLOPS.
    pub fp4_dense_tflops: Option<f64>,
    /// Native INT4 tensor support; `None` where not verified.
    pub int4_support: Option<bool>,
    /// Field → where it was checked (or `unverified`).
    pub verification: BTreeMap<String, String>,
    /// Full source strings.
    pub sources: Vec<String>,
    pub notes: Option<String>,
}

/// One row exactly as the file spells it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GpuRow {
    name: String,
    vendor: String,
    category: GpuCategory,
    memory_gb: f64,
    memory_type: Option<String>,
    memory_bytes: Option<u64>,
    memory_bytes_note: Option<String>,
    bandwidth_gb_s: f64,
    bf16_dense_tflops: Option<f64>,
    fp16_dense_tflops: Option<f64>,
    fp8_support: bool,
    fp8_dense_tflops: Option<f64>,
    int4_support: Option<bool>,
    fp4_support: bool,
    fp4_dense_tflops: Option<f64>,
    #[serde(default)]
    verification: BTreeMap<String, String>,
    #[serde(default)]
    sources: Vec<String>,
    notes: Option<String>,
}

/// The whole file: a readme and the rows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    #[serde(rename = "_readme")]
    _readme: Option<String>,
    gpus: Vec<GpuRow>,
}

impl From<GpuRow> for Gpu {
    fn from(row: GpuRow) -> Gpu {
        Gpu {
            memory_bytes: Bytes::from_unit(row.memory_gb, DisplayUnit::Gb),
            name: row.name,
            vendor: row.vendor,
            category: row.category,
            memory_gb: row.memory_gb,
            memory_type: row.memory_type,
            reported_memory_bytes: row.memory_bytes,
            reported_memory_note: row.memory_bytes_note,
            bandwidth_gb_s: row.bandwidth_gb_s,
            bf16_dense_tflops: row.bf16_dense_tflops,
            fp16_dense_tflops: row.fp16_dense_tflops,
            fp8_support: row.fp8_support,
            fp8_dense_tflops: row.fp8_dense_tflops,
            fp4_support: row.fp4_support,
            fp4_dense_tflops: row.fp4_dense_tflops,
            int4_support: row.int4_support,
            verification: row.verification,
            sources: row.sources,
            notes: row.notes,
        }
    }
}

/// Parses a catalog document.
fn parse(text: &str) -> Result<Vec<Gpu>, serde_json::Error> {
    let file: CatalogFile = serde_json::from_str(text)?;
    Ok(file.gpus.into_iter().map(Gpu::from).collect())
}

/// Every GPU of the catalog, in file order. Parsed on first use.
///
/// The checked-in file is guaranteed to parse by this module's tests; if
/// it ever could not, this returns an empty list rather than panicking.
pub fn all() -> &'static [Gpu] {
    static CATALOG: OnceLock<Vec<Gpu>> = OnceLock::new();
    CATALOG.get_or_init(|| parse(GPUS_JSON).unwrap_or_default())
}

/// The full names of every GPU, in file order.
pub fn names() -> impl Iterator<Item = &'static str> {
    all().iter().map(|g| g.name.as_str())
}

/// Resolves a GPU name as people write it; see the module documentation
/// for the rules.
///
/// ```
/// use vramfit_core::catalog::find_gpu;
/// assert_eq!(find_gpu("rtx4090").unwrap().name, "NVIDIA GeForce RTX 4090");
/// assert_eq!(find_gpu("H100").unwrap().name, "NVIDIA H100 SXM5");
/// assert_eq!(find_gpu("A100 80GB").unwrap().memory_bytes.get(), 80_000_000_000);
/// let miss = find_gpu("RTX 4909").unwrap_err();
/// assert_eq!(miss.suggestions[0], "NVIDIA GeForce RTX 4090");
/// ```
pub fn find_gpu(query: &str) -> Result<&'static Gpu, NotFound> {
    resolve(all(), query)
}

/// Words that say who makes or brands a card, not which card it is.
const NOISE_WORDS: [&str; 8] = [
    "nvidia", "geforce", "amd", "instinct", "intel", "apple", "tesla", "gpu",
];

/// Words that qualify a variant and may be left out of a query.
const QUALIFIER_WORDS: [&str; 14] = [
    "rtx",
    "sxm",
    "sxm2",
    "sxm3",
    "sxm4",
    "sxm5",
    "sxm6",
    "pcie",
    "nvl",
    "generation",
    "edition",
    "server",
    "workstation",
    "blackwell",
];

/// Words of `text` without the vendor and brand words.
fn meaningful_words(text: &str) -> Vec<String> {
    fuzzy::words(text)
        .into_iter()
        .filter(|w| !NOISE_WORDS.contains(&w.as_str()))
        .collect()
}

/// `text` with every parenthesised part blanked out.
fn outside_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .map(|c| match c {
            '(' => {
                depth += 1;
                ' '
            }
            ')' => {
                depth = depth.saturating_sub(1);
                ' '
            }
            _ if depth > 0 => ' ',
            _ => c,
        })
        .collect()
}

/// Runs of letters or of digits: `h100` → `h`, `100`; `80gb` → `80`, `gb`.
fn atoms(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut previous_numeric: Option<bool> = None;
    for c in word.chars() {
        let numeric = c.is_numeric();
        match out.last_mut() {
            Some(last) if previous_numeric == Some(numeric) => last.push(c),
            _ => out.push(c.to_string()),
        }
        previous_numeric = Some(numeric);
    }
    out
}

/// A memory size such as `80gb` or `1tb`.
fn is_memory_size(word: &str) -> bool {
    let digits = word.trim_end_matches(|c: char| c.is_alphabetic());
    let unit = &word[digits.len()..];
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && matches!(unit, "gb" | "tb")
}

fn is_qualifier(word: &str) -> bool {
    QUALIFIER_WORDS.contains(&word) || is_memory_size(word)
}

/// Whether every element of `needles` can be paired with a distinct equal
/// element of `haystack` (multiset inclusion).
fn contains_all(haystack: &[String], needles: &[String]) -> bool {
    let mut unused: Vec<&str> = haystack.iter().map(String::as_str).collect();
    needles
        .iter()
        .all(|n| match unused.iter().position(|h| *h == n.as_str()) {
            Some(i) => {
                unused.swap_remove(i);
                true
            }
            None => false,
        })
}

/// What resolution compares of one catalog name.
struct NameKeys {
    /// Key of the whole name, vendor words dropped.
    full_key: String,
    /// Key of the name outside parentheses, vendor words dropped.
    base_key: String,
    /// Atoms of the whole name.
    atoms: Vec<String>,
    /// Atoms of the name outside parentheses, qualifiers dropped.
    identity: Vec<String>,
    /// Whether the name says SXM anywhere.
    sxm: bool,
}

impl NameKeys {
    fn of(name: &str) -> NameKeys {
        let all_words = meaningful_words(name);
        let base_words = meaningful_words(&outside_parentheses(name));
        NameKeys {
            full_key: all_words.concat(),
            base_key: base_words.concat(),
            atoms: all_words.iter().flat_map(|w| atoms(w)).collect(),
            identity: base_words
                .iter()
                .filter(|w| !is_qualifier(w))
                .flat_map(|w| atoms(w))
                .collect(),
            sxm: all_words.iter().any(|w| w.starts_with("sxm")),
        }
    }
}

/// Resolution over any list (the tests use small ones).
fn resolve<'a>(gpus: &'a [Gpu], query: &str) -> Result<&'a Gpu, NotFound> {
    let query_words = meaningful_words(query);
    let query_key = query_words.concat();
    let not_found = |suggestions: Vec<String>| NotFound {
        query: query.to_string(),
        suggestions,
    };
    if query_key.is_empty() {
        return Err(not_found(Vec::new()));
    }
    let keys: Vec<NameKeys> = gpus.iter().map(|g| NameKeys::of(&g.name)).collect();

    // 1. Exact key, with or without the parenthesised part.
    let exact: Vec<usize> = (0..gpus.len())
        .filter(|&i| keys[i].full_key == query_key || keys[i].base_key == query_key)
        .collect();
    if let [only] = exact[..] {
        return Ok(&gpus[only]);
    }

    // 2. Tokens: query atoms ⊆ name atoms, name identity ⊆ query atoms.
    let matches: Vec<usize> = if exact.is_empty() {
        let query_atoms: Vec<String> = query_words.iter().flat_map(|w| atoms(w)).collect();
        (0..gpus.len())
            .filter(|&i| {
                contains_all(&keys[i].atoms, &query_atoms)
                    && contains_all(&query_atoms, &keys[i].identity)
            })
            .collect()
    } else {
        exact
    };

    match matches[..] {
        [] => {
            // 4. A miss: close names by edit distance.
            let cleaned = query_words.join(" ");
            Err(not_found(fuzzy::suggest(
                &cleaned,
                gpus.iter().map(|g| g.name.as_str()),
            )))
        }
        [only] => Ok(&gpus[only]),
        _ => {
            // 3. Variants of one chip: SXM first, then the most memory.
            let first_identity = &keys[matches[0]].identity;
            if matches.iter().all(|&i| &keys[i].identity == first_identity) {
                let rank = |i: usize| (keys[i].sxm, gpus[i].memory_bytes);
                let best = matches.iter().map(|&i| rank(i)).max();
                let top: Vec<usize> = matches
                    .iter()
                    .copied()
                    .filter(|&i| Some(rank(i)) == best)
                    .collect();
                if let [only] = top[..] {
                    return Ok(&gpus[only]);
                }
            }
            // 4. Ambiguous: offer the matches, closest first.
            let mut ordered: Vec<(usize, usize)> = matches
                .iter()
                .map(|&i| {
                    let d = fuzzy::window_distance(&query_key, &gpus[i].name, usize::MAX)
                        .unwrap_or(usize::MAX);
                    (d, i)
                })
                .collect();
            ordered.sort_unstable();
            Err(not_found(
                ordered
                    .into_iter()
                    .take(fuzzy::MAX_SUGGESTIONS)
                    .map(|(_, i)| gpus[i].name.clone())
                    .collect(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn name_of(query: &str) -> String {
        match find_gpu(query) {
            Ok(gpu) => gpu.name.clone(),
            Err(e) => panic!("{query:?} did not resolve: {e}"),
        }
    }

    #[test]
    fn checked_in_file_parses_row_by_row() {
        // The whole document, strictly (unknown keys are errors) ...
        let parsed = parse(GPUS_JSON).expect("data/gpus.json parses");
        // ... and each row on its own, so a failure names the row.
        let value: serde_json::Value = serde_json::from_str(GPUS_JSON).unwrap();
        let rows = value["gpus"].as_array().expect("a `gpus` array");
        assert_eq!(rows.len(), parsed.len());
        for row in rows {
            if let Err(e) = serde_json::from_value::<GpuRow>(row.clone()) {
                panic!("row {} does not parse: {e}", row["name"]);
            }
        }
        assert_eq!(all().len(), parsed.len());
        assert!(all().len() >= 39);
    }

    #[test]
    fn names_are_unique_and_resolve_to_themselves() {
        let mut seen = HashSet::new();
        let mut keys = HashSet::new();
        for gpu in all() {
            assert!(seen.insert(gpu.name.as_str()), "duplicate {}", gpu.name);
            let k = NameKeys::of(&gpu.name);
            assert!(keys.insert(k.full_key.clone()), "key clash {}", gpu.name);
            assert_eq!(name_of(&gpu.name), gpu.name);
            assert_eq!(name_of(&gpu.name.to_uppercase()), gpu.name);
        }
    }

    #[test]
    fn memory_and_rates_are_positive_and_finite() {
        for gpu in all() {
            assert!(
                gpu.memory_gb.is_finite() && gpu.memory_gb > 0.0,
                "{}",
                gpu.name
            );
            assert!(gpu.memory_bytes > Bytes::ZERO, "{}", gpu.name);
            assert_eq!(
                gpu.memory_bytes,
                Bytes::from_unit(gpu.memory_gb, DisplayUnit::Gb)
            );
            assert!(gpu.bandwidth_gb_s.is_finite() && gpu.bandwidth_gb_s > 0.0);
            for t in [
                gpu.bf16_dense_tflops,
                gpu.fp16_dense_tflops,
                gpu.fp8_dense_tflops,
                gpu.fp4_dense_tflops,
            ]
            .into_iter()
            .flatten()
            {
                assert!(t.is_finite() && t > 0.0, "{}", gpu.name);
            }
            if let Some(reported) = gpu.reported_memory_bytes {
                assert!(reported > 0);
                assert!(gpu.reported_memory_note.is_some(), "{}", gpu.name);
            }
            assert!(!gpu.sources.is_empty(), "{} has no source", gpu.name);
        }
    }

    #[test]
    fn marketed_gb_are_decimal_bytes() {
        let h200 = find_gpu("H200").unwrap();
        assert_eq!(h200.memory_gb, 141.0);
        assert_eq!(h200.memory_bytes, Bytes(141_000_000_000));
        // The source's 141 GiB modelling figure is kept apart.
        assert_eq!(h200.reported_memory_bytes, Some(141 << 30));
        let rtx = find_gpu("RTX 4090").unwrap();
        assert_eq!(rtx.memory_bytes, Bytes(24_000_000_000));
        assert_eq!(rtx.reported_memory_bytes, None);
        assert_eq!(rtx.category, GpuCategory::Consumer);
    }

    #[test]
    fn short_names_resolve() {
        let cases = [
            ("RTX 4090", "NVIDIA GeForce RTX 4090"),
            ("rtx4090", "NVIDIA GeForce RTX 4090"),
            ("GeForce RTX-4090", "NVIDIA GeForce RTX 4090"),
            ("4090", "NVIDIA GeForce RTX 4090"),
            ("H100", "NVIDIA H100 SXM5"),
            ("h100 sxm", "NVIDIA H100 SXM5"),
            ("H100 PCIe", "NVIDIA H100 PCIe"),
            ("nvidia h100 nvl", "NVIDIA H100 NVL"),
            ("A100 80GB", "NVIDIA A100 80GB SXM4"),
            ("a100-80gb-pcie", "NVIDIA A100 80GB PCIe"),
            ("A100 SXM4 80GB", "NVIDIA A100 80GB SXM4"),
            ("A100 40GB", "NVIDIA A100 40GB SXM4"),
            ("A100", "NVIDIA A100 80GB SXM4"),
            ("A100 PCIe", "NVIDIA A100 80GB PCIe"),
            ("A10", "NVIDIA A10"),
            ("V100", "NVIDIA V100 32GB (SXM2)"),
            ("V100 16GB", "NVIDIA V100 16GB (SXM2)"),
            ("H200", "NVIDIA H200 SXM"),
            ("B200", "NVIDIA B200 (HGX/DGX B200, per GPU)"),
            ("GB200", "NVIDIA GB200 (per Blackwell GPU in the superchip)"),
            ("L4", "NVIDIA L4"),
            ("L40S", "NVIDIA L40S"),
            ("RTX 4060 Ti", "NVIDIA GeForce RTX 4060 Ti 16GB"),
            ("A6000", "NVIDIA RTX A6000"),
            ("RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation"),
            (
                "RTX PRO 6000",
                "NVIDIA RTX PRO 6000 Blackwell Server Edition",
            ),
            ("MI300X", "AMD Instinct MI300X"),
            ("amd mi325x", "AMD Instinct MI325X"),
            ("M3 Max", "Apple M3 Max (128GB, 40-core GPU)"),
            ("M2 Ultra", "Apple M2 Ultra (192GB)"),
            ("Gaudi 3", "Intel Gaudi 3"),
        ];
        for (query, want) in cases {
            assert_eq!(name_of(query), want, "{query:?}");
        }
    }

    #[test]
    fn typo_suggests_the_close_name() {
        let miss = find_gpu("RTX 4909").unwrap_err();
        assert_eq!(miss.query, "RTX 4909");
        assert_eq!(
            miss.suggestions.first().map(String::as_str),
            Some("NVIDIA GeForce RTX 4090")
        );
        assert!(miss.suggestions.len() <= fuzzy::MAX_SUGGESTIONS);
        let miss = find_gpu("NVIDIA H10O").unwrap_err();
        assert!(miss
            .suggestions
            .iter()
            .any(|s| s.starts_with("NVIDIA H100")));
    }

    #[test]
    fn other_cards_are_not_substituted() {
        // A plain RTX 4060 has 8 GB; the catalog's 4060 Ti has 16 GB.
        let miss = find_gpu("RTX 4060").unwrap_err();
        assert_eq!(miss.suggestions[0], "NVIDIA GeForce RTX 4060 Ti 16GB");
        // MI300A is another part than MI300X.
        let miss = find_gpu("MI300").unwrap_err();
        assert_eq!(miss.suggestions[0], "AMD Instinct MI300X");
        // "RTX 6000" names three different cards.
        let miss = find_gpu("RTX 6000").unwrap_err();
        assert_eq!(miss.suggestions[0], "NVIDIA RTX 6000 Ada Generation");
        assert!(miss.suggestions.contains(&"NVIDIA RTX A6000".to_string()));
        // Gaudi 2 or Gaudi 3.
        let miss = find_gpu("Gaudi").unwrap_err();
        assert_eq!(miss.suggestions, ["Intel Gaudi 2", "Intel Gaudi 3"]);
    }

    /// A minimal row for synthetic catalogs.
    fn row(name: &str, memory_gb: u64) -> String {
        format!(
            r#"{{"name": "{name}", "vendor": "V", "category": "consumer",
                "memory_gb": {memory_gb}, "memory_type": null, "memory_bytes": null,
                "memory_bytes_note": null, "bandwidth_gb_s": 1, "bf16_dense_tflops": null,
                "fp16_dense_tflops": null, "fp8_support": false, "fp8_dense_tflops": null,
                "int4_support": null, "fp4_support": false, "fp4_dense_tflops": null,
                "notes": null}}"#
        )
    }

    #[test]
    fn ambiguity_between_chips_lists_the_matches() {
        // "x1y" is exactly both names, and they are different chips
        // (identities `x 1` and `x 1 y`): no default, both offered.
        let doc = format!(
            r#"{{"gpus": [{}, {}]}}"#,
            row("X 1 (Y)", 8),
            row("X 1 Y", 24)
        );
        let gpus = parse(&doc).unwrap();
        let miss = resolve(&gpus, "x 1 y").unwrap_err();
        assert_eq!(miss.suggestions, ["X 1 (Y)", "X 1 Y"]);
        assert_eq!(resolve(&gpus, "x1").unwrap().name, "X 1 (Y)");
    }

    #[test]
    fn variants_of_one_chip_default_to_sxm_then_most_memory() {
        let doc = format!(
            r#"{{"gpus": [{}, {}, {}]}}"#,
            row("Z 9 PCIe", 96),
            row("Z 9 SXM", 80),
            row("Z 9 NVL", 94)
        );
        let gpus = parse(&doc).unwrap();
        assert_eq!(resolve(&gpus, "z9").unwrap().name, "Z 9 SXM");
        let doc = format!(
            r#"{{"gpus": [{}, {}]}}"#,
            row("Q 1 PCIe", 40),
            row("Q 1 NVL", 40)
        );
        let gpus = parse(&doc).unwrap();
        // Same memory, no SXM: a genuine tie, so suggestions.
        assert_eq!(resolve(&gpus, "Q1").unwrap_err().suggestions.len(), 2);
    }

    #[test]
    fn degenerate_queries_do_not_panic() {
        for q in [
            "",
            "   ",
            "NVIDIA",
            "()",
            "😀",
            "a",
            "0",
            &"9".repeat(10_000),
        ] {
            assert!(find_gpu(q).is_err(), "{q:?}");
        }
        assert!(find_gpu("").unwrap_err().suggestions.is_empty());
    }

    #[test]
    fn a_broken_document_is_an_error_not_a_panic() {
        assert!(parse("").is_err());
        assert!(parse(r#"{"gpus": [{"name": "x"}]}"#).is_err());
        assert!(parse(r#"{"gpus": [], "extra": 1}"#).is_err());
        assert_eq!(parse(r#"{"gpus": []}"#).unwrap(), Vec::<Gpu>::new());
    }

    #[test]
    fn helpers() {
        assert_eq!(atoms("h100"), ["h", "100"]);
        assert_eq!(atoms("mi300x"), ["mi", "300", "x"]);
        assert!(is_memory_size("80gb"));
        assert!(!is_memory_size("gb"));
        assert!(!is_memory_size("gb200"));
        assert_eq!(
            outside_parentheses("a (b (c)) d")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["a", "d"]
        );
        assert!(contains_all(
            &["a".into(), "b".into(), "a".into()],
            &["a".into(), "a".into()]
        ));
        assert!(!contains_all(&["a".into()], &["a".into(), "a".into()]));
    }
}
