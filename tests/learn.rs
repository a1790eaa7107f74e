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
