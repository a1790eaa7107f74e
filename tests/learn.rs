//! The lesson and the notebook behind their split point, in headless
//! Chromium. These tests build without the feature `split`, so the split
//! point is a plain call: they check what the page mounts in its place
//! (both panels, on one notebook, in the page's language); the chunk itself,
//! its loading and its failure are the end-to-end tests' (tests/e2e/split.test.mjs).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use vramfit_app::learn::LearnPanels;
use vramfit_app::notebook::store::{self, KEY};
use vramfit_core::report::{self, Report};
use vramfit_core::request::Request;
use wasm_bindgen_test::*;

mod dom;

use dom::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

#[wasm_bindgen_test]
async fn both_panels_take_the_place_and_share_the_browsers_notebook() {
    storage().remove_item(KEY).unwrap();
    let root = host();
    leptos::mount::mount_to(root.clone(), || {
        let input = RwSignal::new(Request::default());
        let report: Memo<Option<Report>> =
            Memo::new(move |_| input.with(|i| report::build(i).ok()));
        view! { <LearnPanels input report /> }
    })
    .forget();
    // Nothing is asked for before the first frame is painted.
    assert_eq!(count(&root, "lesson-panel"), 0);
    for _ in 0..100 {
        if exists(&root, "lesson-panel") {
            break;
        }
        settle().await;
    }
    assert_eq!(count(&root, "lesson-panel"), 1);
    assert_eq!(count(&root, "notebook-panel"), 1);
    assert_eq!(count(&root, "learn-loading"), 0);
    assert_eq!(count(&root, "learn-unavailable"), 0);
    assert_eq!(
        find(&root, "lesson-panel").get_attribute("lang").as_deref(),
        Some("es")
    );
    // What the lesson drafts, the notebook records: one notebook, and it is
    // the browser's.
    type_into(
        &root,
        "lesson-counterexample",
        "Gemma 2: ventana deslizante",
    );
    settle().await;
    click(&root, "notebook-add");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 1);
    let stored = store::parse(&storage().get_item(KEY).unwrap().expect("a stored notebook"))
        .expect("a readable notebook")
        .document;
    assert_eq!(stored.entries.len(), 1);
    assert_eq!(
        stored.entries[0].counterexample,
        "Gemma 2: ventana deslizante"
    );
    storage().remove_item(KEY).unwrap();
}

/// While a blind prediction is pending, no figure of the scenario is on the
/// page: not in the results column (ring, total, breakdown, answers,
/// suggestions, methods table), the phone's bar, the chart or the speed.
/// Revealing the prediction brings them back together.
#[wasm_bindgen_test]
async fn a_pending_prediction_veils_every_figure_of_the_scenario() {
    use vramfit_app::i18n::{format, Lang};
    use vramfit_app::App;
    use vramfit_core::units::DisplayUnit;
    storage().remove_item(KEY).unwrap();
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    for _ in 0..100 {
        if exists(&root, "lesson-panel") {
            break;
        }
        settle().await;
    }
    // The scenario's figures, as the page writes them.
    let report = report::build(&Request::default()).unwrap();
    // In the page's language (the browser's, or the one remembered).
    let lang = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .and_then(|tag| Lang::from_tag(&tag))
        .unwrap_or_default();
    let n = &lang.t().number;
    let mut figures = Vec::new();
    for unit in [DisplayUnit::Gb, DisplayUnit::Gib] {
        figures.push(format::bytes(n, unit, report.estimate.total_bytes));
        for c in &report.estimate.components.0 {
            if c.bytes.get() > 0 {
                figures.push(format::bytes(n, unit, c.bytes));
            }
        }
    }
    figures.push(format::percent(n, report.estimate.verdict.percent()));
    let results_text = |root: &web_sys::HtmlElement| {
        all(root, ".vf-results, .vf-more > section, [data-testid=\"compact-bar\"], [data-testid^=\"veiled-\"]")
            .iter()
            .map(|n| n.text_content().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let before = results_text(&root);
    assert!(
        before.contains(&figures[0]),
        "the page shows {} at first: {before}",
        figures[0]
    );

    click(&root, "lesson-predict-start");
    settle().await;
    for veil in ["veiled-results", "veiled-details", "veiled-compact"] {
        assert_eq!(count(&root, veil), 1, "{veil}");
    }
    for gone in [
        "utilization-ring",
        "total-memory",
        "breakdown",
        "answers",
        "methods-table",
        "context-chart",
        "speed-panel",
        "compact-bar",
    ] {
        assert_eq!(count(&root, gone), 0, "{gone} is off the page");
    }
    let veiled = results_text(&root);
    for figure in &figures {
        assert!(
            !veiled.contains(figure.as_str()),
            "{figure} visible before the reveal:\n{veiled}"
        );
    }
    // Nowhere else on the page either (the lesson's own figures are masked;
    // the review scope, folded away, cites the source's worked examples).
    let page = root.inner_text();
    for figure in &figures {
        assert!(
            !page.contains(figure.as_str()),
            "{figure} on the page before the reveal"
        );
    }

    type_into(&root, "lesson-prediction", "18.8");
    settle().await;
    click(&root, "lesson-reveal");
    settle().await;
    assert_eq!(count(&root, "veiled-results"), 0);
    assert!(text(&root, "total-memory").contains(&figures[0]));
    assert_eq!(count(&root, "context-chart"), 1);
    assert!(text(&root, "lesson-observed").starts_with(&figures[0]));
    storage().remove_item(KEY).unwrap();
}
