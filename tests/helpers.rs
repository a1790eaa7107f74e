//! The app's pure helpers, run in the browser like the app: number
//! formatting per language, language negotiation, the context curve's
//! geometry, import parsing, the share fragment and the Hub's answers.
#![cfg(target_arch = "wasm32")]

use vramfit_app::curve::{self, short_tokens, Geometry};
use vramfit_app::i18n::format::{self, normalize_input};
use vramfit_app::i18n::Lang;
use vramfit_app::import::{looks_like_export, parse_import, ImportError};
use vramfit_app::net::{classify, config_url, valid_model_id, HubOutcome};
use vramfit_app::notebook::texts::Step;
use vramfit_app::share::{
    base64url_decode, base64url_encode, fragment_of, fragment_with, lang_of, scenario_of, unit_of,
};
use vramfit_core::methods::MethodId;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Field, Mode, ModelRef, ScenarioInput};
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit};
use vramfit_core::verdict::FitStatus;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const NS: char = '\u{202f}';

/// Method `quick` (the default) on a scenario.
fn quick(scenario: ScenarioInput) -> Request {
    Request::new(MethodId::Quick, scenario)
}

#[wasm_bindgen_test]
fn numbers_are_written_for_each_language() {
    let (es, en, nl) = (
        Lang::Es.t().number,
        Lang::En.t().number,
        Lang::Nl.t().number,
    );
    assert_eq!(
        format::decimal(&es, 1_234_567.891, 2),
        format!("1{NS}234{NS}567,89")
    );
    assert_eq!(format::decimal(&en, 1_234_567.891, 2), "1,234,567.89");
    assert_eq!(format::decimal(&nl, 1_234_567.891, 2), "1.234.567,89");
    // Spanish leaves four-digit numbers whole.
    assert_eq!(format::integer(&es, 8192), "8192");
    assert_eq!(format::integer(&es, 32_768), format!("32{NS}768"));
    assert_eq!(format::integer(&en, 8192), "8,192");
    assert_eq!(format::decimal(&en, -0.001, 2), "0.00");
    assert_eq!(format::decimal(&en, -1.5, 1), "-1.5");
    assert_eq!(format::decimal(&en, f64::NAN, 2), "—");
    assert_eq!(
        format::bytes(&es, DisplayUnit::Gb, Bytes(18_781_116_006)),
        "18,78 GB"
    );
    assert_eq!(
        format::bytes(&en, DisplayUnit::Gib, Bytes(1 << 30)),
        "1.00 GiB"
    );
    assert_eq!(format::percent(&es, 78.3), "78,3 %");
    assert_eq!(format::percent(&en, 125.0), "125%");
    // Signed differences, as the lesson and the notebook write them.
    for (style, bytes, pct, want_bytes, want_pct) in [
        (&es, 781_116_006, -4.16, "+0,78 GB", "−4,2 %"),
        (&en, -781_116_006, 4.16, "−0.78 GB", "+4.2%"),
        (&nl, 0, 0.01, "±0,00 GB", "0,0%"),
    ] {
        assert_eq!(
            format::signed_bytes(style, DisplayUnit::Gb, bytes),
            want_bytes
        );
        assert_eq!(format::signed_percent(style, pct), want_pct);
    }
    // Amounts typed as a person types them.
    for (style, text, want) in [
        (&es, "18,8", Some(18.8)),
        (&en, " 18.8 ", Some(18.8)),
        (&nl, "1.000,5", Some(1000.5)),
        (&en, "-1", None),
        (&es, "abc", None),
    ] {
        assert_eq!(format::parse_amount(style, text), want, "{text}");
    }
    assert_eq!(format::input_value(&es, 0.5), "0,5");
    assert_eq!(format::input_value(&en, 8192.0), "8192");
    // A catalog's or config's long value reads rounded, the exact text apart.
    let brief = |style, value| format::input_value_brief(style, value);
    assert_eq!(brief(&es, 0.95), ("0,95".to_string(), None));
    assert_eq!(brief(&es, 4.8125), ("4,8125".to_string(), None));
    assert_eq!(brief(&en, 24.0), ("24".to_string(), None));
    assert_eq!(
        brief(&es, 85.520809984),
        ("85,52".to_string(), Some("85,520809984".to_string()))
    );
    assert_eq!(brief(&en, 8.030261248).0, "8.03");
    assert_eq!(brief(&nl, 0.124439808).0, "0,1244");
    assert_eq!(brief(&en, 0.000123456789).0, "0.0001235");
    assert_eq!(brief(&en, 1234.56789).0, "1234.57");
    assert_eq!(brief(&en, 80.000001).0, "80");
    assert_eq!(format::plain(&es, 0.25), "0,25");
    assert_eq!(format::plain(&es, 100_000.0), format!("100{NS}000"));
}

#[wasm_bindgen_test]
fn typed_numbers_read_back_in_every_language() {
    let (es, en, nl) = (
        Lang::Es.t().number,
        Lang::En.t().number,
        Lang::Nl.t().number,
    );
    let read = |style, text: &str| Field::Context.parse(&normalize_input(style, text));
    assert_eq!(read(&es, "32 768"), Ok(32_768.0));
    assert_eq!(read(&es, &format!("32{NS}768")), Ok(32_768.0));
    assert_eq!(read(&en, "32,768"), Ok(32_768.0));
    assert_eq!(read(&nl, "1.000.000"), Ok(1_000_000.0));
    let bytes = |style, text: &str| Field::KvBytes.parse(&normalize_input(style, text));
    assert_eq!(bytes(&es, "0,5"), Ok(0.5));
    assert_eq!(bytes(&nl, "0.5"), Ok(0.5));
    assert_eq!(bytes(&en, "0.5"), Ok(0.5));
    // Garbage stays garbage.
    assert!(read(&en, "12abc").is_err());
    assert!(read(&es, "").is_err());
    assert!(read(&es, "-5").is_err());
}

#[wasm_bindgen_test]
fn the_browser_language_picks_the_table() {
    assert_eq!(Lang::negotiate(["nl-BE", "en"]), Lang::Nl);
    assert_eq!(Lang::negotiate(["de-DE", "en-US"]), Lang::En);
    assert_eq!(Lang::negotiate(["de-DE", "fr"]), Lang::Es);
    assert_eq!(Lang::negotiate([]), Lang::Es);
    assert_eq!(Lang::from_tag("ES_mx"), Some(Lang::Es));
}

#[wasm_bindgen_test]
fn every_language_says_everything() {
    for lang in Lang::ALL {
        let t = lang.t();
        for field in Field::ALL {
            let f = (t.field)(field);
            assert!(
                !f.label.is_empty() && !f.hint.is_empty(),
                "{lang:?} {field:?}"
            );
        }
        let words: Vec<_> = [
            FitStatus::Roomy,
            FitStatus::WithMargin,
            FitStatus::Tight,
            FitStatus::DoesNotFit,
        ]
        .into_iter()
        .map(t.status_word)
        .collect();
        let mut unique = words.clone();
        unique.dedup();
        assert_eq!(unique.len(), 4, "{lang:?}");
        for method in MethodId::ALL {
            assert!(!(t.method_summary)(method).is_empty());
            let i = (t.interpretation)(method);
            assert!(!i.summary.is_empty() && !i.units.is_empty());
            assert!(!i.assumptions.is_empty() && !i.leaves_out.is_empty());
        }
        for mode in Mode::ALL {
            assert!(!(t.mode_name)(mode).is_empty());
        }
        for term in Term::ALL {
            let name = (t.term)(term);
            assert!(!name.is_empty() && !name.contains('_'), "{lang:?} {term:?}");
        }
    }
    // The tables differ: nothing was left in another language.
    assert_ne!(
        (Lang::Es.t().total_per_gpu)(1),
        (Lang::En.t().total_per_gpu)(1)
    );
    assert_ne!(
        (Lang::En.t().total_per_gpu)(4),
        (Lang::Nl.t().total_per_gpu)(4)
    );
    for lang in Lang::ALL {
        let lesson = lang.lesson();
        let engines = match lang {
            Lang::Es => [
                &vramfit_app::i18n::es::VLLM,
                &vramfit_app::i18n::es::LLAMACPP,
            ],
            Lang::En => [
                &vramfit_app::i18n::en::VLLM,
                &vramfit_app::i18n::en::LLAMACPP,
            ],
            Lang::Nl => [
                &vramfit_app::i18n::nl::VLLM,
                &vramfit_app::i18n::nl::LLAMACPP,
            ],
        };
        let methods = MethodId::ALL.map(lesson.method);
        for m in methods.iter().chain(engines.iter()) {
            assert!(
                !m.interpretation.is_empty() && !m.start.is_empty() && !m.counterexample.is_empty(),
                "{lang:?}"
            );
            assert!(
                !m.assumptions.is_empty() && !m.references.is_empty(),
                "{lang:?}"
            );
            // Sources by name: no file of the repository, no "seed 004".
            let mut texts = vec![
                m.interpretation,
                m.start,
                m.counterexample,
                m.counterexample_lesson,
            ];
            texts.extend(m.assumptions.iter().copied());
            texts.extend(m.checked.iter().copied());
            texts.extend(m.not_checked.iter().copied());
            for (source, what) in m.references {
                texts.extend([*source, *what]);
            }
            for text in texts {
                let lower = text.to_lowercase();
                for bad in [
                    "docs/",
                    "crates/",
                    ".md",
                    "seed 0",
                    "semilla",
                    "zaaddocument",
                ] {
                    assert!(!lower.contains(bad), "{lang:?}: {bad} in {text}");
                }
            }
        }
        for step in Step::ALL {
            assert!(!(lang.notebook().step_name)(step).is_empty(), "{lang:?}");
        }
    }
    assert_ne!(Lang::En.lesson().title, Lang::Nl.lesson().title);
    assert_ne!(Lang::Es.notebook().title, Lang::Nl.notebook().title);
}

#[wasm_bindgen_test]
fn the_curve_brackets_the_crossing_and_fits_the_frame() {
    let input = Request::default();
    let max = report::build(&input).unwrap().answers.max_context;
    let c = curve::context_curve(&input, max).unwrap();
    let g = Geometry::new(&c, 480.0, 240.0);
    assert_eq!(g.x(c.lo), g.left);
    assert_eq!(g.x(c.hi), g.right);
    assert!(g.y(c.usable_bytes) > g.top && g.y(c.usable_bytes) < g.bottom);
    assert_eq!(g.y(0), g.bottom);
    assert!(g.path(&c).starts_with('M'));
    let ticks = g.x_ticks(&c, 6);
    assert!(!ticks.is_empty() && ticks.len() <= 6);
    assert!(ticks.iter().all(|t| t.is_power_of_two()));
    let y = g.y_ticks(1_000_000_000);
    assert!((2..=6).contains(&y.len()), "{y:?}");
    assert_eq!(short_tokens(8192), "8K");
    assert_eq!(short_tokens(1 << 20), "1M");
    assert_eq!(short_tokens(300), "300");
    // Nothing fits: no crossing, and the curve is all above the line.
    let tiny = quick(ScenarioInput {
        gpu_memory_gb: 1.0,
        ..ScenarioInput::default()
    });
    let none = curve::context_curve(&tiny, None).unwrap();
    assert!(none.crossing().is_none());
    assert!(none
        .points
        .iter()
        .all(|p| p.needed_bytes > none.usable_bytes));
    // An invalid input has no curve.
    let bad = quick(ScenarioInput {
        layers: 0,
        ..ScenarioInput::default()
    });
    assert!(curve::context_curve(&bad, None).is_none());
}

#[wasm_bindgen_test]
fn imports_say_what_is_wrong() {
    assert_eq!(parse_import("  "), Err(ImportError::Empty));
    assert!(matches!(
        parse_import("{ not json"),
        Err(ImportError::NotJson { line: 1, .. })
    ));
    assert_eq!(parse_import("[1, 2]"), Err(ImportError::NotADocument));
    assert_eq!(
        parse_import(r#"{"model_type": "llama"}"#),
        Err(ImportError::NotADocument)
    );
    assert_eq!(
        parse_import(r#"{"schema": "vramfit/2", "inputs": {}}"#),
        Err(ImportError::Schema("vramfit/2".into()))
    );
    assert!(matches!(
        parse_import(r#"{"inputs": {"layerz": 3}}"#),
        Err(ImportError::Inputs(m)) if m.contains("layerz")
    ));
    assert!(matches!(
        parse_import(r#"{"inputs": {"context": -1}}"#),
        Err(ImportError::Inputs(_))
    ));
    assert!(matches!(
        parse_import(r#"{"inputs": {"layers": 0}}"#),
        Err(ImportError::Invalid(_))
    ));
    let input = quick(ScenarioInput {
        context: 4096,
        model: Some(ModelRef::Catalog("Qwen/Qwen3-8B".into())),
        ..ScenarioInput::default()
    });
    let doc = report::build(&input).unwrap().to_json();
    assert!(looks_like_export(&doc));
    assert!(!looks_like_export(r#"{"model_type": "llama"}"#));
    assert_eq!(parse_import(&doc), Ok(input));
    for lang in Lang::ALL {
        let said = (lang.t().import_error)(&ImportError::Schema("x/2".into()));
        assert!(said.contains("x/2"), "{said}");
    }
}

#[wasm_bindgen_test]
fn the_share_fragment_round_trips() {
    for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar", "ñ€𝄞"] {
        let encoded = base64url_encode(text.as_bytes());
        assert!(!encoded.contains(['+', '/', '=']));
        assert_eq!(
            base64url_decode(&encoded).unwrap(),
            text.as_bytes(),
            "{text}"
        );
    }
    assert_eq!(base64url_encode(b"foobar"), "Zm9vYmFy");
    assert_eq!(base64url_decode("Zm9vYg=="), Some(b"foob".to_vec()));
    assert_eq!(base64url_decode("Z"), None);
    assert_eq!(base64url_decode("Zm9v*"), None);
    let input = quick(ScenarioInput {
        model: Some(ModelRef::Config(
            include_str!("../crates/vramfit-core/data/configs/mistralai__Mistral-7B-v0.3.json")
                .into(),
        )),
        sequences: 3,
        ..ScenarioInput::default()
    });
    let fragment = fragment_of(&input);
    assert_eq!(
        scenario_of(&format!("#{fragment}")),
        Some(Ok(input.clone()))
    );
    // The view it was seen in rides after the scenario, read on its own.
    let seen = fragment_with(&input, DisplayUnit::Gib, Lang::Nl);
    assert_eq!(seen, format!("{fragment}&u=gib&l=nl"));
    assert_eq!(scenario_of(&format!("#{seen}")), Some(Ok(input)));
    assert_eq!(unit_of(&format!("#{seen}")), Some(DisplayUnit::Gib));
    assert_eq!(lang_of(&seen), Some(Lang::Nl));
    assert_eq!(unit_of(&fragment), None);
    assert_eq!(lang_of("#s=abc&l=fr"), None);
    assert_eq!(unit_of("#s=abc&u=gb"), Some(DisplayUnit::Gb));
    assert_eq!(scenario_of("#other"), None);
    assert_eq!(scenario_of(""), None);
    assert!(matches!(scenario_of("#s=@@@"), Some(Err(_))));
    let broken = base64url_encode(br#"{"layers": 0}"#);
    assert!(matches!(
        scenario_of(&format!("#s={broken}")),
        Some(Err(ImportError::Invalid(_)))
    ));
}

#[wasm_bindgen_test]
fn hub_ids_and_answers() {
    assert!(valid_model_id("meta-llama/Llama-3.1-8B"));
    assert!(valid_model_id("gpt2"));
    for bad in [
        "", "/x", "a/b/c", "a/../b", "../x", "a b/c", "a/.git", "a/b?x=1", "a/b#c",
    ] {
        assert!(!valid_model_id(bad), "{bad}");
    }
    assert_eq!(
        config_url("https://huggingface.co/", " Qwen/Qwen3-8B "),
        Some("https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json".into())
    );
    assert_eq!(config_url("https://huggingface.co", "a/b/c"), None);
    assert_eq!(classify(200, None), Ok(()));
    assert_eq!(classify(401, None), Err(HubOutcome::Gated { status: 401 }));
    assert_eq!(
        classify(403, Some("GatedRepo")),
        Err(HubOutcome::Gated { status: 403 })
    );
    assert_eq!(
        classify(401, Some("RepoNotFound")),
        Err(HubOutcome::NotFound)
    );
    assert_eq!(classify(404, None), Err(HubOutcome::NotFound));
    assert_eq!(classify(503, None), Err(HubOutcome::Http { status: 503 }));
    for lang in Lang::ALL {
        let t = lang.t();
        let said: Vec<String> = [
            HubOutcome::Gated { status: 403 },
            HubOutcome::NotFound,
            HubOutcome::Offline,
            HubOutcome::InvalidId,
        ]
        .iter()
        .map(t.hub_outcome)
        .collect();
        let mut unique = said.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            4,
            "{lang:?}: each failure has its own message"
        );
    }
}

#[wasm_bindgen_test]
fn the_chart_fits_the_data_and_stops_at_the_models_maximum() {
    // 8B at 16 bits, ten million tokens of cache: about 1,460 GB on 24 GB.
    let huge = quick(ScenarioInput {
        context: 10_000_000,
        ..ScenarioInput::default()
    });
    let max = report::build(&huge).unwrap().answers.max_context;
    let c = curve::context_curve(&huge, max).unwrap();
    let g = Geometry::new(&c, 480.0, 240.0);
    let highest = c.points.iter().map(|p| p.needed_bytes).max().unwrap();
    assert!(highest > 1_000_000_000_000, "{highest}");
    assert!(highest <= g.y_max && c.usable_bytes <= g.y_max);
    assert!(c.points.iter().all(|p| g.y(p.needed_bytes) >= g.top));
    // GPT-2 is made for 1,024 positions: the axis ends there.
    let gpt2 = quick(ScenarioInput {
        model: Some(ModelRef::Catalog("openai-community/gpt2".into())),
        context: 512,
        ..ScenarioInput::default()
    });
    let max = report::build(&gpt2).unwrap().answers.max_context;
    let c = curve::context_curve(&gpt2, max).unwrap();
    assert_eq!((c.hi, c.model_max), (1_024, Some(1_024)));
    assert!(c.points.iter().all(|p| p.context <= 1_024));
}

#[wasm_bindgen_test]
fn the_ring_writes_three_digits_at_most_inside() {
    let es = &Lang::Es.t().number;
    assert_eq!(format::ring_percent(es, 78.3), ("78,3 %".to_string(), None));
    assert_eq!(format::ring_percent(es, 999.0).1, None);
    let (inside, beside) = format::ring_percent(es, 14_404.7);
    assert_eq!(inside, "> 999 %");
    assert_eq!(beside.as_deref(), Some("14\u{202f}404,7 %"));
}

#[wasm_bindgen_test]
fn a_problem_has_a_way_out() {
    use vramfit_app::components::stale::{ways_out, WayOut};
    // Typed numbers with four GPUs: quick does not spread a model, and no
    // method that does reads typed numbers.
    let four = quick(ScenarioInput {
        gpus: 4,
        ..ScenarioInput::default()
    });
    let outcome = report::build(&four);
    assert!(outcome.is_err());
    assert_eq!(ways_out(&four, &outcome), [WayOut::NoMethod]);
    // A layout that cannot be: let vramfit derive it.
    let bad = quick(ScenarioInput {
        gpus: 3,
        tp: Some(2),
        ..ScenarioInput::default()
    });
    assert_eq!(ways_out(&bad, &report::build(&bad)), [WayOut::DeriveLayout]);
    // Two Macs: the way out is one.
    let mut macs = ScenarioInput {
        gpus: 2,
        ..ScenarioInput::default()
    };
    macs.set_gpu("Apple M4 Max (128GB, 40-core GPU)");
    let macs = quick(macs);
    assert_eq!(ways_out(&macs, &report::build(&macs)), [WayOut::OneGpu]);
    // The allocator refuses typed numbers: the methods that estimate them.
    let typed = Request::new(MethodId::Allocator, ScenarioInput::default());
    assert_eq!(
        ways_out(&typed, &report::build(&typed)),
        [WayOut::Methods(vec![MethodId::Quick, MethodId::Lesson])]
    );
    assert!(ways_out(&Request::default(), &report::build(&Request::default())).is_empty());
}

#[wasm_bindgen_test]
fn the_lora_rank_shows_only_in_lora_modes() {
    for method in MethodId::ALL {
        if !method.own_fields().contains(&Field::LoraRank) {
            continue;
        }
        for mode in Mode::ALL {
            let shown =
                vramfit_app::figures::method_fields(method, mode).contains(&Field::LoraRank);
            assert_eq!(
                shown,
                matches!(mode, Mode::Lora | Mode::Qlora),
                "{method:?} {mode:?}"
            );
        }
    }
}
