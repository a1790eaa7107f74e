//! Browser tests (wasm-bindgen-test in headless Chromium): components are
//! mounted into the DOM and checked after input.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use vramfit_app::components::UtilizationRing;
use vramfit_app::App;
use vramfit_core::units::{DisplayUnit, GB};
use vramfit_core::verdict::Verdict;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element in the page to mount into.
fn host() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let el = document
        .create_element("div")
        .unwrap()
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap();
    document.body().unwrap().append_child(&el).unwrap();
    el
}

/// Lets scheduled reactive effects run.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn find(root: &web_sys::HtmlElement, testid: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
}

/// Types `text` into an input as a person would (value + input event).
fn type_into(root: &web_sys::HtmlElement, testid: &str, text: &str) {
    let input = find(root, testid)
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap();
    input.set_value(text);
    let event = web_sys::Event::new("input").unwrap();
    input.dispatch_event(&event).unwrap();
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
        let verdict = Verdict::new(pct * GB, 100 * GB);
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
        assert!(find(&root, "ring-percent")
            .text_content()
            .unwrap()
            .starts_with(&pct.to_string()));
    }
}

#[wasm_bindgen_test]
async fn ring_says_what_is_missing_when_over() {
    let root = host();
    let verdict = Verdict::new(30 * GB, 24 * GB);
    leptos::mount::mount_to(root.clone(), move || {
        view! { <UtilizationRing verdict=verdict.clone() unit=DisplayUnit::Gb /> }
    })
    .forget();
    settle().await;
    assert_eq!(
        find(&root, "ring-detail").text_content().unwrap(),
        "faltan 6.00 GB"
    );
    assert_eq!(
        find(&root, "utilization-ring")
            .get_attribute("aria-valuenow")
            .as_deref(),
        Some("125")
    );
}

#[wasm_bindgen_test]
async fn app_opens_on_the_default_scenario() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "18.78 GB"
    );
    let ring = find(&root, "utilization-ring");
    assert_eq!(
        ring.get_attribute("data-status").as_deref(),
        Some("con_margen")
    );
    assert_eq!(
        find(&root, "component-kv_cache").text_content().unwrap(),
        "Caché KV1.07 GB"
    );
}

#[wasm_bindgen_test]
async fn typing_a_longer_context_updates_total_and_ring() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    type_into(&root, "field-context", "65536");
    settle().await;
    // (16 GB + 8.59 GB) × 1.1 = 27.05 GB > 24 GB
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "27.05 GB"
    );
    let ring = find(&root, "utilization-ring");
    assert_eq!(
        ring.get_attribute("data-status").as_deref(),
        Some("no_cabe")
    );
    assert_eq!(
        ring.get_attribute("aria-valuenow").as_deref(),
        Some("112.7")
    );
}

#[wasm_bindgen_test]
async fn invalid_text_explains_itself_and_keeps_the_last_result() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    type_into(&root, "field-layers", "abc");
    settle().await;
    assert_eq!(
        find(&root, "hint-layers").text_content().unwrap(),
        "No es un número."
    );
    assert_eq!(
        find(&root, "field-layers")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "18.78 GB"
    );
    type_into(&root, "field-layers", "0");
    settle().await;
    assert_eq!(
        find(&root, "hint-layers").text_content().unwrap(),
        "Debe estar entre 1 y 1024."
    );
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "18.78 GB"
    );
}

#[wasm_bindgen_test]
async fn unit_switch_changes_every_figure() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    let button = find(&root, "unit-gib")
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap();
    button.click();
    settle().await;
    // 18,781,116,006 bytes / 2³⁰ = 17.49 GiB
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "17.49 GiB"
    );
    assert_eq!(
        find(&root, "component-kv_cache").text_content().unwrap(),
        "Caché KV1.00 GiB"
    );
}

#[wasm_bindgen_test]
async fn methods_table_lists_every_method_that_applies() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    let table = find(&root, "methods-table");
    assert_eq!(table.query_selector_all("tbody tr").unwrap().length(), 2);
    let quick = find(&root, "method-row-quick").text_content().unwrap();
    assert!(quick.contains("18.78 GB"), "{quick}");
    // lesson on the same inputs: 16 GB + 1.07 GB + 2 GiB + 4 GiB, + 15 %.
    let lesson = find(&root, "method-row-lesson").text_content().unwrap();
    assert!(lesson.contains("27.04 GB"), "{lesson}");
}

#[wasm_bindgen_test]
async fn training_mode_switches_to_a_method_that_estimates_it() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    find(&root, "mode-full")
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    settle().await;
    let quick = find(&root, "method-quick");
    assert!(quick.has_attribute("disabled"));
    assert_eq!(
        find(&root, "method-lesson")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    // 8 × 10⁹ × 18 B + 6 GiB, + 15 % = 173.01 GB
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "173.01 GB"
    );
    assert_eq!(
        find(&root, "utilization-ring")
            .get_attribute("data-status")
            .as_deref(),
        Some("no_cabe")
    );
    // The lesson method's own knobs are on screen; quick's are not.
    assert!(root
        .query_selector("[data-testid=field-margin_pct]")
        .unwrap()
        .is_some());
    assert!(root
        .query_selector("[data-testid=field-overhead_pct]")
        .unwrap()
        .is_none());
}

/// Picks `value` in a `<select>` as a person would (value + change event).
fn choose(root: &web_sys::HtmlElement, testid: &str, value: &str) {
    let select = find(root, testid)
        .dyn_into::<web_sys::HtmlSelectElement>()
        .unwrap();
    select.set_value(value);
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

#[wasm_bindgen_test]
async fn a_catalog_model_enables_the_allocator_and_its_knobs() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    find(&root, "mode-lora")
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    settle().await;
    // Typed numbers are not enough for the allocator: said, not hidden.
    let problem = find(&root, "scenario-error").text_content().unwrap();
    assert!(problem.contains("necesita un modelo real"), "{problem}");
    choose(&root, "model-select", "meta-llama/Llama-3.1-8B");
    settle().await;
    assert_eq!(find(&root, "scenario-error").text_content().unwrap(), "");
    let summary = find(&root, "model-summary").text_content().unwrap();
    assert!(summary.contains("8.03 B"), "{summary}");
    // Seed 003's example at 8,192 tokens: weights 16.12 GB among the terms.
    assert!(find(&root, "component-weights")
        .text_content()
        .unwrap()
        .contains("16.12 GB"));
    assert!(root
        .query_selector("[data-testid=grad-checkpoint]")
        .unwrap()
        .is_some());
    // The shape fields give way to the model's.
    assert!(root
        .query_selector("[data-testid=field-layers]")
        .unwrap()
        .is_none());
}

#[wasm_bindgen_test]
async fn a_suggestion_applies_in_one_click_and_the_field_follows() {
    let root = host();
    leptos::mount::mount_to(root.clone(), App).forget();
    settle().await;
    type_into(&root, "field-context", "131072");
    settle().await;
    let first = find(&root, "suggestion");
    assert!(
        first.text_content().unwrap().contains("32768"),
        "{:?}",
        first.text_content()
    );
    first
        .query_selector("button")
        .unwrap()
        .unwrap()
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    settle().await;
    let context = find(&root, "field-context")
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap();
    assert_eq!(context.value(), "32768");
    assert_eq!(
        find(&root, "total-memory").text_content().unwrap(),
        "22.32 GB"
    );
    assert!(root
        .query_selector("[data-testid=suggestion]")
        .unwrap()
        .is_none());
}
