use super::embedded::{CONFIGS, MODELS_JSON};
use super::listing::ListingStatus;
use super::*;
use crate::model::{parse_config, QuantSource};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Catalog models whose published counts today's config reader does not
/// reproduce, with what it computes against what is published. The reader
/// reads each `model_type` exactly and refuses the others; an id here
/// must leave the list once the reader agrees with the figure or refuses the
/// config (the test fails on a stale id as on a new mismatch). A model is
/// never marked excluded to hide a mismatch: the status is the reader's.
///
/// The comments group them by the likely cause, as far as it is known.
const READER_GAPS_PENDING: &[&str] = &[
    // id, // what today's reader computes vs the published figure
    // Small exact differences, the tensors not found.
    // Kimi-VL: the config is reconstructed (no verbatim copy found); the text model (DeepSeek-V3 layout, checked on DeepSeek's own checkpoints) and MoonViT (vLLM moonvit.py, kimi_vl.py) count 1,728 fewer than the Hub.
    "moonshotai/Kimi-VL-A3B-Instruct", // total 16,407,656,048 vs 16,407,657,776
    // Nemotron-3 Nano BF16: the same reader reproduces the Hub's count of NVIDIA's NVFP4 export of this model to the element (router score bias, 23 x 128, included); the BF16 files count 2,944 = 23 x 128 fewer: they apparently do not store e_score_correction_bias.
    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", // total 31,577,940,288 vs 31,577,937,344
];

/// What the reader computes for a figure's scope: the text model and, where
/// the reader counts it, the vision tower; for a checkpoint, also the
/// multi-token-prediction layers stored with it and what the files store
/// beyond the loaded model (a tied head's second copy the record names,
/// Gemma-4's KV-sharing layers' projections), less the 0-dim tensors a
/// safetensors count leaves out.
fn computed_total(entry: &ModelEntry, spec: &ModelSpec, scope: Scope) -> u64 {
    match scope {
        Scope::TextModel => spec.params_total,
        Scope::Model => spec.checkpoint.params,
        Scope::Checkpoint => {
            let stored = entry
                .meta
                .checkpoint
                .as_ref()
                .map_or(0, |c| c.stored_beyond_model(spec));
            let c = &spec.checkpoint;
            crate::units::sum([c.params, spec.mtp_params, stored, c.stored_unloaded])
                .saturating_sub(c.scalars)
        }
    }
}

#[test]
fn totals_agree_with_published_figures() {
    let mut mismatches: BTreeMap<&str, String> = BTreeMap::new();
    let mut compared = 0;
    for entry in all() {
        let Ok(spec) = entry.spec() else {
            continue; // excluded: nothing computed to compare
        };
        let published = entry.published();
        let total = entry
            .published_total()
            .expect("checked by every_row_is_complete");
        let computed = computed_total(entry, &spec, published.scope);
        let mut wrong = Vec::new();
        if !total.agrees(computed) {
            wrong.push(format!("total {computed} vs {}", published.total));
        }
        if let (Some(active), Some(text)) = (entry.published_active(), &published.active) {
            if !active.agrees(spec.params_active) {
                wrong.push(format!("active {} vs {text}", spec.params_active));
            }
        }
        compared += 1;
        if !wrong.is_empty() {
            mismatches.insert(entry.id.as_str(), wrong.join(", "));
        }
    }
    let pending: BTreeSet<&str> = READER_GAPS_PENDING.iter().copied().collect();
    let new: Vec<String> = mismatches
        .iter()
        .filter(|(id, _)| !pending.contains(*id))
        .map(|(id, what)| format!("    \"{id}\", // {what}"))
        .collect();
    let stale: Vec<&&str> = pending
        .iter()
        .filter(|id| !mismatches.contains_key(*id))
        .collect();
    assert!(
        new.is_empty(),
        "{} catalog models disagree with their published counts and are not in \
         READER_GAPS_PENDING:\n{}",
        new.len(),
        new.join("\n")
    );
    assert!(
        stale.is_empty(),
        "now agree, remove from READER_GAPS_PENDING: {stale:?}"
    );
    assert!(compared >= 60, "only {compared} models compared");
    for id in READER_GAPS_PENDING {
        assert!(find_model(id).is_ok(), "{id} is not in the catalog");
    }
}

/// The Hub's totals of NVIDIA's ModelOpt NVFP4 exports count stored
/// elements: a quantized `R × C` weight is `R·C/2` packed bytes and
/// `R·C/16` FP8 scales, every other tensor one element per value, MTP
/// layers (kept unquantized) included. Read with their
/// `hf_quant_config.json`, the quantized parameters reproduce those
/// totals to the element (AlexsJones/llmfit@a3e0eb27c57fe05298292f4c61699b9aed2824ea
/// llmfit-core/data/hf_models.json, `parameters_raw`).
#[test]
fn nvfp4_exports_reproduce_the_hub_element_counts() {
    for (id, hub) in [
        ("nvidia/DeepSeek-V3.1-NVFP4", 393_632_819_968u64),
        ("nvidia/DeepSeek-V3.2-NVFP4", 394_498_304_256),
        ("nvidia/GLM-5-NVFP4", 435_238_854_912),
        (
            "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4",
            18_237_772_608,
        ),
    ] {
        let spec = find_model(id).unwrap().spec().unwrap();
        assert_eq!(spec.quantization_source, QuantSource::HfQuantConfig, "{id}");
        let q = spec.quantized_params.total();
        assert_eq!(q % 16, 0, "{id}");
        let stored = spec.params_total + spec.mtp_params;
        assert_eq!(q / 2 + q / 16 + (stored - q), hub, "{id}");
    }
    // Without the side file the same config reads as unquantized, and
    // says where the quantization would be.
    let entry = find_model("nvidia/DeepSeek-V3.1-NVFP4").unwrap();
    let bare = parse_config(&entry.config).unwrap();
    assert!(bare.quantization.is_none());
    assert!(bare
        .quantization_source
        .note()
        .unwrap()
        .contains("hf_quant_config.json"));
}

#[test]
fn falcon_checkpoints_store_the_tied_head_twice() {
    // The index lists lm_head.weight beside the tied input embedding: the
    // files hold 65,024 × 14,848 values the loaded model does not.
    let entry = find_model("tiiuae/falcon-180B-chat").unwrap();
    let spec = entry.spec().unwrap();
    assert!(spec.tied_embeddings && spec.params.lm_head == 0);
    let c = entry.meta.checkpoint.as_ref().unwrap();
    assert_eq!(c.stored_beyond_model(&spec), 65_024 * 14_848);
    // bf16: the index's total_size is two bytes per stored value.
    let stored = spec.params_total + c.stored_beyond_model(&spec);
    assert_eq!(stored * 2, c.bytes);
    // Without the flag, nothing beyond the model.
    let plain = Checkpoint {
        stores_tied_head: false,
        ..c.clone()
    };
    assert_eq!(plain.stored_beyond_model(&spec), 0);
}

#[test]
fn catalog_is_exactly_the_folder_and_the_metadata() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/configs");
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir)
        .expect("data/configs is readable")
        .map(|e| e.expect("a directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    let listed: BTreeSet<String> = CONFIGS.iter().map(|f| f.0.to_string()).collect();
    let unlisted: Vec<_> = on_disk.difference(&listed).collect();
    let absent: Vec<_> = listed.difference(&on_disk).collect();
    assert!(
        unlisted.is_empty(),
        "not listed in embedded.rs: {unlisted:?}"
    );
    assert!(absent.is_empty(), "listed but absent: {absent:?}");
    assert_eq!(listed.len(), CONFIGS.len(), "a file is listed twice");
    let catalog = embedded::catalog().expect("the embedded catalog builds");
    let rows: BTreeSet<String> = catalog.entries().iter().map(|e| e.file.clone()).collect();
    assert_eq!(rows, on_disk, "models.json rows and config files differ");
    assert_eq!(all().len(), CONFIGS.len());
    assert!(all().len() >= 130, "{} models", all().len());
}

#[test]
fn side_files_are_exactly_the_folder_and_the_rows() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/configs/hf_quant");
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir)
        .expect("data/configs/hf_quant is readable")
        .map(|e| e.expect("a directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = embedded::HF_QUANT_CONFIGS
        .iter()
        .map(|f| f.0.to_string())
        .collect();
    assert_eq!(
        listed, on_disk,
        "embedded.rs and data/configs/hf_quant differ"
    );
    let rows: BTreeSet<String> = all()
        .iter()
        .filter_map(|e| e.meta.hf_quant_config.as_ref())
        .map(|side| side.file.clone())
        .collect();
    assert_eq!(rows, on_disk, "models.json rows and hf_quant files differ");
    for entry in all() {
        let Some(side) = &entry.meta.hf_quant_config else {
            continue;
        };
        assert_eq!(side.file, entry.file, "{}", entry.id);
        assert!(side.source.commit.len() == 40, "{}", entry.id);
        let spec = entry.spec().unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        assert_eq!(
            spec.quantization_source,
            QuantSource::HfQuantConfig,
            "{}",
            entry.id
        );
    }
}

/// A model the catalog tags as quantized is read quantized: from its
/// config's `quantization_config` or from the `hf_quant_config.json` its
/// row names; or its row says why not (`quantization_not_read`). A
/// quantized export whose config states nothing and whose side file the
/// catalog does not have would otherwise be counted at full width, silently.
#[test]
fn models_tagged_quantized_are_read_quantized() {
    let mut unread = Vec::new();
    for entry in all() {
        let quantized = entry.meta.tags.iter().any(|t| t == "quantized");
        let Ok(spec) = entry.spec() else {
            continue;
        };
        let marked = entry.meta.quantization_not_read.is_some();
        if quantized && spec.quantization.is_none() && !marked {
            unread.push(entry.id.as_str());
        }
        if marked {
            assert!(quantized && spec.quantization.is_none(), "{}", entry.id);
        }
        if spec.quantization.is_none() {
            assert!(spec.quantization_source.note().is_some(), "{}", entry.id);
        }
    }
    assert!(
        unread.is_empty(),
        "tagged quantized, read unquantized: {unread:?}"
    );
}

#[test]
fn ids_match_file_names_and_are_unique() {
    let mut ids = HashSet::new();
    let mut keys = HashSet::new();
    for entry in all() {
        let want = format!("{}.json", entry.id.replacen('/', "__", 1));
        assert_eq!(entry.file, want);
        assert_eq!((&entry.meta.id, &entry.meta.file), (&entry.id, &entry.file));
        assert!(!entry.owner().is_empty() && !entry.name().is_empty());
        assert!(ids.insert(entry.id.to_lowercase()), "dup {}", entry.id);
        assert!(keys.insert(fuzzy::key(&entry.id)), "key clash {}", entry.id);
        let name_key = fuzzy::key(entry.name());
        assert!(keys.insert(name_key), "name clash {}", entry.id);
    }
}

#[test]
fn every_row_is_complete() {
    for entry in all() {
        let m = &entry.meta;
        let s = &m.source;
        for (what, text) in [
            ("status", &s.status),
            ("repo", &s.repo),
            ("path", &s.path),
            ("commit", &s.commit),
            ("family", &m.family),
            ("published source", &m.published.source),
        ] {
            assert!(!text.trim().is_empty(), "{}: empty {what}", entry.id);
        }
        // A copy names its repository and commit; only a reconstructed
        // config, or text whose repository could not be resolved, has none,
        // and its status says so.
        let unplaced = s.status.starts_with("reconstructed") || s.status.contains("unresolved");
        if !(unplaced && s.repo == "n/a") {
            assert!(s.repo.contains('/'), "{}: repo {}", entry.id, s.repo);
            assert!(
                s.commit.len() == 40 && s.commit.chars().all(|c| c.is_ascii_hexdigit()),
                "{}: commit {}",
                entry.id,
                s.commit
            );
        }
        assert!(
            entry.published_total().is_some(),
            "{}: total {}",
            entry.id,
            m.published.total
        );
        if let Some(active) = &m.published.active {
            let (a, t) = (Figure::parse(active), entry.published_total());
            assert!(a.is_some(), "{}: active {active}", entry.id);
            assert!(
                a.unwrap().value <= t.unwrap().value,
                "{}: active above total",
                entry.id
            );
        }
        if let Some(c) = &m.checkpoint {
            assert!(
                c.bytes > 0 && !c.source.is_empty() && !c.dtype.is_empty(),
                "{}",
                entry.id
            );
        }
        assert!(!m.tags.is_empty(), "{}: no tags", entry.id);
        let text = serde_json::from_str::<serde_json::Value>(&entry.config);
        let is_json =
            text.is_ok() || entry.config.contains("NaN") || entry.config.contains("Infinity");
        assert!(is_json, "{}: config is not JSON", entry.id);
    }
    let llama = find_model("meta-llama/Llama-3.1-8B").unwrap();
    assert_eq!(llama.source().status, "verbatim");
    assert_eq!(llama.source().repo, "ai-dynamo/aiconfigurator");
    assert_eq!(llama.published().total, "8,030,261,248");
}

#[test]
fn status_is_the_parsers_verdict() {
    let (mut calculable, mut excluded) = (0, 0);
    for entry in all() {
        match (entry.status(), entry.spec()) {
            (ModelStatus::Calculable(summary), Ok(spec)) => {
                assert_eq!(summary, ModelSummary::from(&spec));
                assert!(summary.params_total > 0 && summary.params_active > 0);
                assert!(summary.params_active <= summary.params_total);
                assert!(entry.is_calculable());
                calculable += 1;
            }
            (ModelStatus::Excluded { reason }, Err(e)) => {
                assert_eq!(reason, e.to_string());
                assert!(!reason.is_empty() && !entry.is_calculable());
                excluded += 1;
            }
            (status, parsed) => panic!("{}: {status:?} but parser says {parsed:?}", entry.id),
        }
    }
    assert_eq!(calculable + excluded, all().len());
    assert!(calculable >= 60, "only {calculable} calculable");
    // The cached verdict is the parser's on the config text (a few small
    // configs; parsing every one again would double the test's time).
    for id in [
        "meta-llama/Llama-3.1-8B",
        "Qwen/Qwen3-30B-A3B",
        "RWKV/rwkv-5-world-3b",
    ] {
        let entry = find_model(id).unwrap();
        assert_eq!(entry.spec(), parse_config(&entry.config), "{id}");
    }
}

#[test]
fn a_config_that_does_not_parse_is_excluded_with_the_reason() {
    for text in ["{}", "not json", r#"{"model_type": "llama"}"#] {
        let entry = ModelEntry::new(meta("o/x"), Cow::Borrowed(text));
        let reason = parse_config(text).unwrap_err().to_string();
        assert_eq!(
            entry.status(),
            ModelStatus::Excluded {
                reason: reason.clone()
            }
        );
        assert!(!entry.is_calculable() && entry.spec().is_err());
        let listing = ModelListing::of(&entry);
        assert_eq!(listing.status, ListingStatus::Excluded);
        assert_eq!(listing.reason, Some(reason));
        assert_eq!((listing.params_total, listing.weight_bytes), (None, None));
        assert_eq!(listing.size(), Some(7_000_000_000));
    }
}

/// A minimal metadata row for synthetic catalogs.
fn meta(id: &str) -> ModelMeta {
    ModelMeta {
        id: id.to_string(),
        file: format!("{}.json", id.replacen('/', "__", 1)),
        family: "Test".into(),
        tags: vec!["dense".into()],
        source: Source {
            status: "verbatim".into(),
            repo: "o/r".into(),
            path: "config.json".into(),
            commit: "0".repeat(40),
            notes: None,
        },
        published: Published {
            total: "~7B".into(),
            active: None,
            scope: Scope::Model,
            source: "card".into(),
            notes: None,
        },
        checkpoint: None,
        hf_quant_config: None,
        quantization_not_read: None,
        notes: None,
    }
}

#[test]
fn a_catalog_builds_from_data_without_embedding() {
    let llama = find_model("meta-llama/Llama-3.1-8B").unwrap();
    let doc = serde_json::json!({ "models": [llama.meta, meta("o/broken")] }).to_string();
    let catalog = ModelCatalog::from_parts(&doc, |file| match file {
        "meta-llama__Llama-3.1-8B.json" => Some(Cow::Owned(llama.config.to_string())),
        "o__broken.json" => Some(Cow::Borrowed("{}")),
        _ => None,
    })
    .unwrap();
    assert_eq!(catalog.entries().len(), 2);
    let found = catalog.find("llama 3.1 8b").unwrap();
    assert_eq!(found.spec().unwrap().params_total, 8_030_261_248);
    let listing = catalog.listing();
    assert_eq!(listing[0], ModelListing::of(llama));
    assert_eq!(listing[1].status, ListingStatus::Excluded);
    assert_eq!(catalog.families().get("Test"), Some(&1));
    // A listing survives a round trip through JSON: it can be shipped as data.
    let text = serde_json::to_string(&listing).unwrap();
    assert_eq!(
        serde_json::from_str::<Vec<ModelListing>>(&text).unwrap(),
        listing
    );
}

#[test]
fn broken_parts_are_errors_not_panics() {
    let none = |_: &str| None;
    assert!(matches!(
        ModelCatalog::from_parts("", none),
        Err(CatalogError::Metadata(_))
    ));
    assert!(matches!(
        ModelCatalog::from_parts(r#"{"models": [], "extra": 1}"#, none),
        Err(CatalogError::Metadata(_))
    ));
    let doc = serde_json::json!({ "models": [meta("o/x")] }).to_string();
    let err = ModelCatalog::from_parts(&doc, none).unwrap_err();
    assert_eq!(err, CatalogError::MissingConfig("o__x.json".into()));
    assert_eq!(err.to_string(), "no config text for o__x.json");
    let twice = [
        (meta("o/x"), Cow::Borrowed("{}")),
        (meta("o/x"), Cow::Borrowed("{}")),
    ];
    assert_eq!(
        ModelCatalog::from_records(twice).unwrap_err(),
        CatalogError::DuplicateId("o/x".into())
    );
    let empty = ModelCatalog::from_parts(r#"{"models": []}"#, none).unwrap();
    assert!(empty.entries().is_empty() && empty.find("x").is_err());
    assert!(!MODELS_JSON.is_empty());
}

#[test]
fn listing_covers_every_model() {
    let listing = list_models();
    assert_eq!(listing.len(), all().len());
    for (row, entry) in listing.iter().zip(all()) {
        assert_eq!(row.id, entry.id);
        assert_eq!(
            row.status == ListingStatus::Calculable,
            entry.is_calculable()
        );
        assert_eq!(row.reason.is_some(), !entry.is_calculable());
        assert!(row.size().is_some_and(|n| n > 0), "{}", row.id);
        assert_eq!(row.source, *entry.source());
    }
    let json = serde_json::to_value(&listing[0]).unwrap();
    for key in [
        "id",
        "status",
        "published_total",
        "source",
        "family",
        "tags",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["status"], "calculable");
}

#[test]
fn search_by_name_and_size() {
    let all = list_models();
    let ids = |q: &str| {
        search(&all, q)
            .iter()
            .map(|m| m.id.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids("llama 3.1 8b")[0], "meta-llama/Llama-3.1-8B");
    assert!(ids("qwen3 30b").contains(&"Qwen/Qwen3-30B-A3B"));
    assert!(ids("qwen3 30b").contains(&"Qwen/Qwen3-30B-A3B-FP8"));
    assert!(ids("gpt-oss").len() == 2);
    let small = search(&all, "<1b");
    assert!(!small.is_empty() && small.iter().all(|m| m.size().unwrap() <= 1_000_000_000));
    let moe = search(&all, "moe 20b-40b");
    assert!(!moe.is_empty());
    for m in &moe {
        assert!(m.tags.iter().any(|t| t == "moe"));
        assert!(
            (20_000_000_000..=40_000_000_000).contains(&m.size().unwrap()),
            "{}",
            m.id
        );
    }
    // Names that start with the words first, shorter names first.
    assert_eq!(ids("qwen3 8b")[0], "Qwen/Qwen3-8B");
    assert_eq!(ids("gemma 3")[0], "google/gemma-3-1b-it");
    // Among names none of which starts with the word, shorter names first.
    let lengths: Vec<usize> = search(&all, "nvfp4").iter().map(|m| m.id.len()).collect();
    assert!(lengths.len() >= 10);
    assert_eq!(search(&all, "").len(), all.len());
    assert!(search(&all, "xyzzy").is_empty());
    assert!(!search(&all, "vision").is_empty());
}

#[test]
fn size_terms() {
    let about = SizeQuery::parse("7B").unwrap();
    assert!(about.contains(7_000_000_000) && about.contains(7_615_616_512));
    assert!(!about.contains(8_500_000_000));
    assert_eq!(
        SizeQuery::parse("<10b"),
        Some(SizeQuery::AtMost(10_000_000_000))
    );
    assert_eq!(
        SizeQuery::parse(">=1t"),
        Some(SizeQuery::AtLeast(1_000_000_000_000))
    );
    assert_eq!(
        SizeQuery::parse("14b-7b"),
        Some(SizeQuery::Between(7_000_000_000, 14_000_000_000))
    );
    assert_eq!(
        SizeQuery::parse("0.5b").map(|q| q.contains(494_032_768)),
        Some(true)
    );
    assert_eq!(
        SizeQuery::parse("~7b").map(|q| q.contains(6_738_415_616)),
        Some(true)
    );
    for word in ["qwen", "3.1", "b", "<", "7", "-", "7b-", "a3b", "0b"] {
        assert_eq!(SizeQuery::parse(word), None, "{word:?}");
    }
}

fn id_of(query: &str) -> &'static str {
    match find_model(query) {
        Ok(entry) => entry.id.as_str(),
        Err(e) => panic!("{query:?} did not resolve: {e}"),
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
        ("kimi-k2.5", "moonshotai/Kimi-K2.5"),
        ("Qwen3.5-397B-A17B", "Qwen/Qwen3.5-397B-A17B"),
    ];
    for (query, want) in cases {
        assert_eq!(id_of(query), want, "{query:?}");
    }
    for entry in all() {
        assert_eq!(id_of(&entry.id), entry.id);
        assert_eq!(id_of(entry.name()), entry.id);
        assert_eq!(id_of(&entry.id.to_uppercase()), entry.id);
    }
}

#[test]
fn short_names_are_offered_not_picked() {
    let miss = find_model("Qwen3-30B").unwrap_err();
    assert_eq!(
        miss.suggestions,
        [
            "Qwen/Qwen3-30B-A3B",
            "Qwen/Qwen3-30B-A3B-FP8",
            "Qwen/Qwen3-30B-A3B-GPTQ-Int4"
        ]
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
}
