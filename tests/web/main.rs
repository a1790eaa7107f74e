//! Browser tests (wasm-bindgen-test in headless Chromium): components are
//! mounted into the DOM and checked after input.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use vramfit_app::components::speed::SpeedPanel;
use vramfit_app::components::UtilizationRing;
use vramfit_app::figures::{self, SpeedView};
use vramfit_app::i18n::{self, Lang};
use vramfit_app::{curve, panic, App};
use vramfit_core::methods::planner::SpeedRange;
use vramfit_core::methods::MethodId;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::ScenarioInput;
use vramfit_core::units::{Bytes, DisplayUnit, GB};
use vramfit_core::verdict::Verdict;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

#[path = "../dom/mod.rs"]
mod dom;

use dom::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Spanish thousands separator (narrow no-break space).
const NS: char = '\u{202f}';

/// Mounts the whole app in `lang`, on a clean address (an earlier test's
/// scenario must not carry over through the `#s=` fragment).
fn mount_app(lang: Lang) -> web_sys::HtmlElement {
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    storage
        .set_item(i18n::STORAGE_KEY, &format!("\"{}\"", lang.code()))
        .unwrap();
    let location = window.location();
    let clean = format!(
        "{}{}",
        location.pathname().unwrap(),
        location.search().unwrap()
    );
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&clean))
        .unwrap();
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    root
}

fn input_value(root: &web_sys::HtmlElement, testid: &str) -> String {
    find(root, testid)
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap()
        .value()
}

/// Picks the catalog model `id` in the first screen's combobox as a
/// person would (its words typed, its option clicked); `""` is numbers by
/// hand (the field emptied, "no model" clicked).
async fn pick_model(root: &web_sys::HtmlElement, id: &str) {
    type_into(root, "model-search", id);
    settle().await;
    let option = match id {
        "" => "[data-testid=model-manual]".to_string(),
        id => format!("[data-testid=model-option][data-id=\"{id}\"]"),
    };
    root.query_selector(&option)
        .unwrap()
        .unwrap_or_else(|| panic!("no option {option}"))
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
}

/// Method `quick` (the default) on a scenario.
fn quick(scenario: ScenarioInput) -> Request {
    Request::new(MethodId::Quick, scenario)
}

#[wasm_bindgen_test]
async fn ring_states_at_each_threshold() {
    let cases = [
        (59, "holgada"),
        (60, "holgada"),
        (61, "con_margen"),
        (85, "con_margen"),
        (86, "ajustada"),
        (100, "ajustada"),
        (101, "no_cabe"),
        (130, "no_cabe"),
    ];
    for (pct, status) in cases {
        let root = host();
        let verdict = Verdict::new(Bytes(pct * GB), Bytes(100 * GB));
        leptos::mount::mount_to(root.clone(), move || {
            view! { <UtilizationRing verdict=verdict.clone() unit=DisplayUnit::Gb /> }
        })
        .forget();
        settle().await;
        let ring = find(&root, "utilization-ring");
        assert_eq!(ring.get_attribute("role").as_deref(), Some("progressbar"));
        assert_eq!(
            ring.get_attribute("data-status").as_deref(),
            Some(status),
            "{pct} %"
        );
        assert_eq!(ring.get_attribute("aria-valuenow"), Some(pct.to_string()));
        assert_eq!(text(&root, "ring-percent"), format!("{pct} %"));
        // The state is said in words and with a shape, not only by colour.
        let word = text(&root, "ring-status");
        assert!(word.chars().count() > 2, "{word}");
        assert!(ring
            .get_attribute("aria-valuetext")
            .unwrap()
            .starts_with(&format!("{pct} %, ")));
    }
}

#[wasm_bindgen_test]
async fn ring_says_what_is_missing_when_over() {
    let root = host();
    let verdict = Verdict::new(Bytes(30 * GB), Bytes(24 * GB));
    leptos::mount::mount_to(root.clone(), move || {
        view! { <UtilizationRing verdict=verdict.clone() unit=DisplayUnit::Gb /> }
    })
    .forget();
    settle().await;
    assert_eq!(text(&root, "ring-detail"), "faltan 6,00 GB");
    assert_eq!(
        find(&root, "utilization-ring")
            .get_attribute("aria-valuenow")
            .as_deref(),
        Some("125")
    );
}

#[wasm_bindgen_test]
async fn far_over_the_ring_writes_999_inside_and_the_exact_figure_beside() {
    let root = host();
    let verdict = Verdict::new(Bytes(1_440_470_000_000), Bytes(10 * GB));
    leptos::mount::mount_to(root.clone(), move || {
        view! { <UtilizationRing verdict=verdict.clone() unit=DisplayUnit::Gb /> }
    })
    .forget();
    settle().await;
    assert_eq!(text(&root, "ring-percent"), "> 999 %");
    assert_eq!(text(&root, "ring-percent-exact"), "14\u{202f}404,7 %");
    // The exact figure is outside the ring's label, not inside it.
    assert!(find(&root, "utilization-ring")
        .query_selector("[data-testid=ring-percent-exact]")
        .unwrap()
        .is_none());
}

#[wasm_bindgen_test]
async fn app_opens_on_the_default_scenario() {
    let root = mount_app(Lang::Es);
    settle().await;
    assert_eq!(text(&root, "total-memory"), "18,78 GB");
    let ring = find(&root, "utilization-ring");
    assert_eq!(
        ring.get_attribute("data-status").as_deref(),
        Some("con_margen")
    );
    assert_eq!(ring.get_attribute("aria-valuenow").as_deref(), Some("78.3"));
    assert_eq!(text(&root, "component-kv_cache"), "Caché KV1,07 GB");
    // Everything of the brief is on the first screen.
    for id in [
        "context-chart",
        "speed-panel",
        "interpretation",
        "export-json",
        "import-json",
        "copy-link",
        "gpu-select",
        "advanced",
        "compact-bar",
        "lang-es",
        "lang-en",
        "lang-nl",
    ] {
        assert!(exists(&root, id), "{id}");
    }
}

#[wasm_bindgen_test]
async fn typing_a_longer_context_updates_total_and_ring() {
    let root = mount_app(Lang::Es);
    settle().await;
    type_into(&root, "field-context", "65536");
    settle().await;
    // (16 GB + 8.59 GB) × 1.1 = 27.05 GB > 24 GB
    assert_eq!(text(&root, "total-memory"), "27,05 GB");
    let ring = find(&root, "utilization-ring");
    assert_eq!(
        ring.get_attribute("data-status").as_deref(),
        Some("no_cabe")
    );
    assert_eq!(
        ring.get_attribute("aria-valuenow").as_deref(),
        Some("112.7")
    );
    assert_eq!(text(&root, "ring-percent"), "112,7 %");
}

#[wasm_bindgen_test]
async fn invalid_text_explains_itself_and_keeps_the_last_result() {
    let root = mount_app(Lang::Es);
    settle().await;
    type_into(&root, "field-layers", "abc");
    settle().await;
    assert_eq!(text(&root, "hint-layers"), "No es un número.");
    assert_eq!(
        find(&root, "field-layers")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(text(&root, "total-memory"), "18,78 GB");
    type_into(&root, "field-layers", "0");
    settle().await;
    assert_eq!(text(&root, "hint-layers"), "Debe estar entre 1 y 1024.");
    type_into(&root, "field-context", "");
    settle().await;
    assert_eq!(text(&root, "hint-context"), "Escribe un número.");
    type_into(&root, "field-context", "200000000");
    settle().await;
    assert_eq!(
        text(&root, "hint-context"),
        format!("Debe estar entre 1 y 100{NS}000{NS}000.")
    );
    assert_eq!(text(&root, "total-memory"), "18,78 GB");
}

#[wasm_bindgen_test]
async fn a_decimal_can_be_typed_one_key_at_a_time() {
    let root = mount_app(Lang::Es);
    settle().await;
    for partial in ["7", "7,", "7,5"] {
        type_into(&root, "field-params_b", partial);
        settle().await;
        assert_eq!(input_value(&root, "field-params_b"), partial);
    }
    let input = ScenarioInput {
        params_b: 7.5,
        ..ScenarioInput::default()
    };
    let expected = report::build(&quick(input)).unwrap().estimate.total_bytes;
    assert_eq!(
        text(&root, "total-memory"),
        vramfit_app::i18n::format::bytes(&Lang::Es.t().number, DisplayUnit::Gb, expected)
    );
}

#[wasm_bindgen_test]
async fn unit_switch_changes_every_figure() {
    let root = mount_app(Lang::Es);
    settle().await;
    click(&root, "unit-gib");
    settle().await;
    // 18,781,116,006 bytes / 2³⁰ = 17.49 GiB
    assert_eq!(text(&root, "total-memory"), "17,49 GiB");
    assert_eq!(text(&root, "component-kv_cache"), "Caché KV1,00 GiB");
    assert!(text(&root, "ring-detail").ends_with("GiB"));
    let table = text(&root, "methods-table");
    assert!(table.contains("17,49 GiB"), "{table}");
    assert!(!table.contains(" GB"), "{table}");
}

#[wasm_bindgen_test]
async fn breakdown_rows_add_up_to_the_total() {
    let doc = report::build(&Request::default()).unwrap();
    let rows = figures::breakdown_rows(&doc.estimate);
    assert_eq!(
        rows.iter().map(|r| r.bytes).sum::<Bytes>(),
        doc.estimate.total_bytes
    );
    let shares: f64 = rows.iter().map(|r| r.share_pct).sum();
    assert!((shares - 100.0).abs() < 1e-9, "{shares}");
    // The same in the page, for quick and for lesson.
    let root = mount_app(Lang::Es);
    settle().await;
    for method in ["quick", "lesson"] {
        click(&root, &format!("method-{method}"));
        settle().await;
        let rows = find(&root, "breakdown")
            .query_selector_all("tr[data-bytes]")
            .unwrap();
        let sum: u64 = (0..rows.length())
            .map(|i| {
                rows.item(i)
                    .unwrap()
                    .dyn_into::<web_sys::Element>()
                    .unwrap()
                    .get_attribute("data-bytes")
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        let input = Request::new(
            MethodId::from_name(method).unwrap(),
            ScenarioInput::default(),
        );
        let expected = report::build(&input).unwrap().estimate.total_bytes;
        assert_eq!(expected, sum, "{method}");
    }
}

#[wasm_bindgen_test]
async fn language_switch_translates_formats_and_is_remembered() {
    let root = mount_app(Lang::Es);
    settle().await;
    assert_eq!(
        text(&root, "ring-status").trim_start_matches(['◐', ' ']),
        "con margen"
    );
    click(&root, "lang-en");
    settle().await;
    assert_eq!(text(&root, "total-memory"), "18.78 GB");
    assert_eq!(text(&root, "ring-percent"), "78.3%");
    assert_eq!(text(&root, "ring-detail"), "5.22 GB to spare");
    assert!(text(&root, "ring-status").ends_with("with margin"));
    assert_eq!(text(&root, "hint-context"), "Context length per sequence.");
    assert_eq!(input_value(&root, "field-context"), "8192");
    assert_eq!(i18n::stored_lang(), Some(Lang::En));
    let html = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(
        find(&root, "lang-en")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    click(&root, "lang-nl");
    settle().await;
    assert_eq!(text(&root, "total-memory"), "18,78 GB");
    assert!(text(&root, "ring-status").ends_with("met marge"));
    assert_eq!(text(&root, "ring-detail"), "5,22 GB over");
    // A value typed with a decimal comma reads back in the new language.
    click(&root, "kv-dtype-manual");
    settle().await;
    type_into(&root, "field-kv_bytes", "0,75");
    settle().await;
    click(&root, "lang-en");
    settle().await;
    assert_eq!(input_value(&root, "field-kv_bytes"), "0.75");
    assert_eq!(i18n::stored_lang(), Some(Lang::En));
}

#[wasm_bindgen_test]
async fn chart_crosses_the_usable_line_at_the_longest_context() {
    let input = Request::default();
    let doc = report::build(&input).unwrap();
    let max = doc.answers.max_context.unwrap();
    let c = curve::context_curve(&input, Some(max)).unwrap();
    assert!(c.points.len() >= curve::SAMPLES);
    let (last_fit, first_over) = c.crossing().unwrap();
    assert_eq!((last_fit.context, first_over.context), (max, max + 1));
    assert!(last_fit.needed_bytes <= c.usable_bytes && first_over.needed_bytes > c.usable_bytes);
    assert!(c.lo < input.scenario.context && input.scenario.context < max && max < c.hi);
    // Memory never decreases with context.
    assert!(c
        .points
        .windows(2)
        .all(|w| w[0].needed_bytes <= w[1].needed_bytes));
    // The page shows the same crossing.
    let root = mount_app(Lang::Es);
    settle().await;
    let chart = find(&root, "context-chart");
    assert_eq!(
        chart.get_attribute("data-max-context"),
        Some(max.to_string())
    );
    assert_eq!(
        find(&root, "chart-crossing").get_attribute("data-context"),
        Some(max.to_string())
    );
    assert_eq!(
        text(&root, "chart-sentence"),
        format!("Cabe hasta 44{NS}389 tokens de contexto.")
    );
    assert_eq!(
        text(&root, "answer-max-context"),
        format!("44{NS}389 tokens")
    );
    // A bigger GPU moves the crossing.
    type_into(&root, "field-gpu_memory_gb", "48");
    settle().await;
    let moved = find(&root, "context-chart")
        .get_attribute("data-max-context")
        .unwrap()
        .parse::<u64>()
        .unwrap();
    assert!(moved > max, "{moved}");
}

#[wasm_bindgen_test]
async fn methods_table_lists_every_method_that_applies() {
    let root = mount_app(Lang::Es);
    settle().await;
    let expected = report::build(&Request::default()).unwrap().methods.len();
    let table = find(&root, "methods-table");
    assert_eq!(
        table.query_selector_all("tbody tr").unwrap().length() as usize,
        expected
    );
    let quick = text(&root, "method-row-quick");
    assert!(quick.contains("18,78 GB"), "{quick}");
    // lesson on the same inputs: 16 GB + 1.07 GB + 2 GiB + 4 GiB, + 15 %.
    let lesson = text(&root, "method-row-lesson");
    assert!(lesson.contains("27,04 GB"), "{lesson}");
}

#[wasm_bindgen_test]
async fn training_mode_switches_to_a_method_that_estimates_it() {
    let root = mount_app(Lang::Es);
    settle().await;
    click(&root, "mode-full");
    settle().await;
    assert!(find(&root, "method-quick").has_attribute("disabled"));
    assert_eq!(
        find(&root, "method-lesson")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    // 8 × 10⁹ × 18 B + 6 GiB, + 15 % = 173.01 GB
    assert_eq!(text(&root, "total-memory"), "173,01 GB");
    assert_eq!(
        find(&root, "utilization-ring")
            .get_attribute("data-status")
            .as_deref(),
        Some("no_cabe")
    );
    // The lesson method's own knobs are on screen; quick's are not.
    assert!(exists(&root, "field-margin_pct"));
    assert!(!exists(&root, "field-overhead_pct"));
    assert_eq!(
        find(&root, "interpretation")
            .get_attribute("data-method")
            .as_deref(),
        Some("lesson")
    );
    assert!(text(&root, "interpretation").contains("18 bytes/parámetro"));
}

#[wasm_bindgen_test]
async fn speed_panel_says_when_a_method_gives_no_figure_and_shows_ranges() {
    let root = mount_app(Lang::Es);
    settle().await;
    let none = text(&root, "speed-panel");
    assert!(
        none.contains("quick") && none.contains("velocidad"),
        "{none}"
    );
    // The panel is ready for a method that gives decode and prefill ranges.
    let figures = host();
    leptos::mount::mount_to(figures.clone(), || {
        let speed = Some(SpeedView::Figures {
            decode_tokens_per_s: SpeedRange {
                conservative: 35.26,
                favourable: 71.5,
            },
            prefill_seconds: SpeedRange {
                conservative: 0.84,
                favourable: 0.37,
            },
            prompt_tokens: 8192,
        });
        view! { <SpeedPanel speed /> }
    })
    .forget();
    settle().await;
    assert_eq!(text(&figures, "speed-decode"), "35,3–71,5 tokens/s");
    assert_eq!(text(&figures, "speed-prefill"), "0,37–0,84 s");
}

#[wasm_bindgen_test]
async fn a_panic_leaves_a_recoverable_message() {
    panic::show_panic_message("boom at src/app.rs");
    panic::show_panic_message("a second panic");
    let document = web_sys::window().unwrap().document().unwrap();
    let all = document
        .query_selector_all("[data-testid=\"panic-message\"]")
        .unwrap();
    assert_eq!(all.length(), 1);
    let message = document
        .query_selector("[data-testid=\"panic-message\"]")
        .unwrap()
        .unwrap();
    assert_eq!(message.get_attribute("role").as_deref(), Some("alert"));
    let text = message.text_content().unwrap();
    assert!(text.contains("boom at src/app.rs"), "{text}");
    let button = message
        .query_selector("[data-testid=\"panic-reload\"]")
        .unwrap()
        .unwrap();
    assert_eq!(button.get_attribute("type").as_deref(), Some("submit"));
    let form = message
        .query_selector("form")
        .unwrap()
        .unwrap()
        .dyn_into::<web_sys::HtmlFormElement>()
        .unwrap();
    assert_eq!(form.method(), "get");
    assert!(form
        .query_selector(&format!("input[name=\"{}\"]", panic::RELOAD_PARAM))
        .unwrap()
        .is_some());
    // A way out that drops the scenario from the address.
    let fresh = message
        .query_selector("[data-testid=\"panic-start-fresh\"]")
        .unwrap()
        .unwrap();
    assert!(!fresh.get_attribute("href").unwrap().contains('#'));
    message.remove();
}

#[wasm_bindgen_test]
async fn a_split_over_gpus_shows_one_ring_per_gpu_and_the_most_sequences() {
    let root = mount_app(Lang::En);
    settle().await;
    pick_model(&root, "meta-llama/Llama-3.1-70B").await;
    settle().await;
    click(&root, "method-planner");
    settle().await;
    assert!(!exists(&root, "gpu-rings"), "one GPU: one ring");
    // Four GPUs alone spread the model over them (TP 4 for 64 heads).
    type_into(&root, "field-gpus", "4");
    type_into(&root, "field-gpu_memory_gb", "80");
    settle().await;
    let rings = find(&root, "gpu-rings")
        .query_selector_all("[data-testid=gpu-ring]")
        .unwrap();
    assert_eq!(rings.length(), 4);
    let main_status = find(&root, "utilization-ring")
        .get_attribute("data-status")
        .unwrap();
    assert_eq!(
        find(&root, "gpu-ring")
            .get_attribute("data-status")
            .unwrap(),
        main_status
    );
    assert!(text(&root, "gpu-rings").contains("All 4 GPUs carry the same budget"));
    // One field for the sequences, and the planner's figure grows with it.
    assert!(exists(&root, "answer-max-sequences"));
}

mod engine_page;
mod first_screen;
mod inputs;
