//! The estimator core compiled to WebAssembly and run in headless Chromium:
//! the same answers as natively, and how long the fit table takes there
//! (printed; `make bench-browser` runs it optimized). The timing is a
//! figure, never a pass/fail condition.
#![cfg(target_arch = "wasm32")]

use vramfit_core::catalog::{gpus, models};
use vramfit_core::methods::MethodId;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{ModelRef, ScenarioInput};
use vramfit_core::table::{fit_table, DEFAULT_FORMATS};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Milliseconds since page load.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

#[wasm_bindgen_test]
fn seed_examples_come_out_the_same_in_wasm() {
    let doc = report::build(&Request::default()).unwrap();
    assert_eq!(doc.estimate.total_bytes, 18_781_116_006);
    let llama = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
        ..ScenarioInput::default()
    };
    assert_eq!(
        report::build(&Request::new(MethodId::Quick, llama))
            .unwrap()
            .model
            .params_total,
        70_553_706_496
    );
}

#[wasm_bindgen_test]
fn fit_table_covers_every_model_gpu_and_format() {
    let base = Request::default();
    let start = now();
    let rows = fit_table(&base, &DEFAULT_FORMATS);
    let first = now() - start;
    let rounds = 5;
    let start = now();
    for _ in 0..rounds {
        assert_eq!(fit_table(&base, &DEFAULT_FORMATS).len(), rows.len());
    }
    let warm = (now() - start) / rounds as f64;
    // Models the config reader excludes have no scenario, so no cells.
    let calculable = models::all().iter().filter(|m| m.is_calculable()).count();
    assert_eq!(
        rows.len(),
        calculable * gpus::all().len() * DEFAULT_FORMATS.len()
    );
    wasm_bindgen_test::console_log!(
        "fit table in the browser: {} cells ({} catalog configs), first {:.2} ms, then {:.2} ms per table",
        rows.len(),
        calculable,
        first,
        warm
    );
}
