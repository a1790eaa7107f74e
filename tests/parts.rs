//! What keeps the first load small, run in the browser like the app: the
//! first result from the main module alone (`first::report`) against the
//! core's whole report, numbers written without float printing, the catalog
//! file's format, and the language switch's names known before any table.
#![cfg(target_arch = "wasm32")]

use vramfit_app::catalog_file::{self, CatalogFile, HEADER};
use vramfit_app::first;
use vramfit_app::i18n::format;
use vramfit_app::i18n::Lang;
use vramfit_core::methods::MethodId;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Mode, ModelRef, ScenarioInput};
use vramfit_core::units::{Bytes, DisplayUnit};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_first_result_is_the_whole_reports_estimate() {
    let typed = [
        ScenarioInput::default(),
        ScenarioInput {
            context: 131_072,
            sequences: 4,
            ..ScenarioInput::default()
        },
        // Four copies of the model, each with its share of the sequences.
        ScenarioInput {
            gpus: 4,
            tp: Some(1),
            sequences: 6,
            ..ScenarioInput::default()
        },
        // A copy spread over four GPUs: quick refuses, the same refusal.
        ScenarioInput {
            gpus: 4,
            ..ScenarioInput::default()
        },
        ScenarioInput {
            weight_bits: 4.5,
            kv_bytes: 1.0,
            gpu_memory_gb: 8.0,
            ..ScenarioInput::default()
        },
        // Invalid: the same errors, in the same order.
        ScenarioInput {
            layers: 0,
            context: 0,
            ..ScenarioInput::default()
        },
        // quick does not estimate training: the same refusal.
        ScenarioInput {
            mode: Mode::Full,
            ..ScenarioInput::default()
        },
    ];
    for scenario in typed {
        let request = Request::new(MethodId::Quick, scenario);
        let first =
            first::report(&request).expect("typed numbers and quick: the main module answers");
        match (first, report::build(&request)) {
            (Ok(head), Ok(full)) => {
                assert_eq!(head.estimate, full.estimate);
                assert_eq!(head.model, full.model);
                assert_eq!(head.layout, full.layout);
                assert_eq!(head.inputs, full.inputs);
                assert!(head.methods.is_empty() && head.suggestions.is_empty());
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("{a:?} against {b:?}"),
        }
    }
    // Anything else waits for the engine.
    let other_method = Request::new(MethodId::Lesson, ScenarioInput::default());
    assert!(first::report(&other_method).is_none());
    let model = Request::new(
        MethodId::Quick,
        ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            ..ScenarioInput::default()
        },
    );
    assert!(first::report(&model).is_none());
    let gpu = Request::new(
        MethodId::Quick,
        ScenarioInput {
            gpu: Some("RTX 4090".into()),
            ..ScenarioInput::default()
        },
    );
    assert!(first::report(&gpu).is_none());
}

#[wasm_bindgen_test]
fn numbers_are_written_from_integers() {
    assert_eq!(format::fixed(18.781_116_006, 2), "18.78");
    assert_eq!(format::fixed(0.05, 2), "0.05");
    assert_eq!(format::fixed(0.004, 2), "0.00");
    assert_eq!(
        format::fixed(-1.25, 1),
        "1.3",
        "the magnitude, rounded half away from zero"
    );
    assert_eq!(format::fixed(326.725_635_973, 2), "326.73");
    assert_eq!(format::fixed(85.193, 3), "85.193");
    assert_eq!(format::fixed(7.0, 0), "7");
    assert_eq!(format::fixed(f64::INFINITY, 2), "—");
    assert_eq!(format::fixed(1e40, 0), "—");
    for (value, text) in [
        (0.5, "0.5"),
        (78.3, "78.3"),
        (125.0, "125"),
        (0.1, "0.1"),
        (1.073_741_824, "1.073741824"),
        (-2.5, "-2.5"),
        (1e-7, "0.0000001"),
    ] {
        assert_eq!(format::shortest(value), text);
        assert_eq!(format::shortest(value).parse::<f64>(), Ok(value));
    }
    // Bytes: from the exact integer, half up.
    let es = Lang::Es.t().number;
    assert_eq!(
        format::bytes(&es, DisplayUnit::Gb, Bytes(125_000_000)),
        "0,13 GB"
    );
    assert_eq!(
        format::bytes(&es, DisplayUnit::Gb, Bytes(124_999_999)),
        "0,12 GB"
    );
    assert_eq!(
        format::bytes(&es, DisplayUnit::Gb, Bytes(u64::MAX)),
        "18\u{202f}446\u{202f}744\u{202f}073,71 GB"
    );
    assert_eq!(
        format::bytes(&es, DisplayUnit::Gib, Bytes(3 << 29)),
        "1,50 GiB"
    );
    assert_eq!(format::input_value(&es, 0.25), "0,25");
}

#[wasm_bindgen_test]
fn a_catalog_file_reads_back_its_entries() {
    let config = r#"{"model_type":"llama","note":"ñ — ü"}"#;
    let models = r#"{"models":[]}"#;
    let text = format!(
        "{HEADER}models.json\t{}\n{models}a__B.json\t{}\n{config}",
        models.len(),
        config.len()
    );
    assert_eq!(
        catalog_file::parse(&text),
        Some(CatalogFile {
            models,
            configs: vec![("a__B.json", config)],
        })
    );
    assert_eq!(
        catalog_file::parse(&text).unwrap().config("a__B.json"),
        Some(config)
    );
    // Not a catalog file: another header, a length past the end or inside a
    // character, no metadata.
    assert_eq!(catalog_file::parse(&text.replacen("1\n", "2\n", 1)), None);
    assert_eq!(catalog_file::parse(&text[..text.len() - 1]), None);
    let inside = format!("{HEADER}models.json\t{}\n{models}x\t2\nñ", models.len());
    assert!(catalog_file::parse(&inside).is_some());
    let split = format!("{HEADER}models.json\t{}\n{models}x\t1\nñ", models.len());
    assert_eq!(catalog_file::parse(&split), None);
    assert_eq!(
        catalog_file::parse(&format!("{HEADER}a__B.json\t{}\n{config}", config.len())),
        None
    );
}

#[wasm_bindgen_test]
fn each_language_is_named_before_its_table_is_loaded() {
    for lang in Lang::ALL {
        assert_eq!(lang.own_name(), lang.t().name);
    }
}
