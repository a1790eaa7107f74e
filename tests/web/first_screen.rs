//! The first screen: the model combobox over the catalog (typed words,
//! the arrow keys, Enter), the engines before the other estimates, and the
//! GPU picker saying which card and memory it counts.

use super::*;
use vramfit_app::model_list::matching;

/// Sends a `keydown` of `key` to the element with `data-testid="testid"`.
fn press(root: &web_sys::HtmlElement, testid: &str, key: &str) {
    let send = js_sys::Function::new_with_args(
        "el, key",
        "el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))",
    );
    send.call2(
        &wasm_bindgen::JsValue::NULL,
        &find(root, testid),
        &key.into(),
    )
    .unwrap();
}

fn attr(root: &web_sys::HtmlElement, testid: &str, name: &str) -> String {
    find(root, testid).get_attribute(name).unwrap_or_default()
}

/// The `data-id` of every option shown.
fn option_ids(root: &web_sys::HtmlElement) -> Vec<String> {
    all(root, "[data-testid=model-option]")
        .iter()
        .filter_map(|o| o.get_attribute("data-id"))
        .collect()
}

#[wasm_bindgen_test]
fn every_word_must_match_and_the_base_model_comes_first() {
    let ids = [
        "Qwen/Qwen3-30B-A3B-Instruct-2507",
        "meta-llama/Llama-3.1-8B",
        "Qwen/Qwen3-30B-A3B",
        "Qwen/Qwen2.5-32B",
    ];
    assert_eq!(
        matching(ids, "qwen3 30b"),
        ["Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-Instruct-2507"]
    );
    assert_eq!(matching(ids, "  LLAMA  8b "), ["meta-llama/Llama-3.1-8B"]);
    assert!(matching(ids, "llama qwen").is_empty());
    // No words: every model, in catalog order.
    assert_eq!(matching(ids, " "), ids);
}

#[wasm_bindgen_test]
async fn the_model_combobox_filters_moves_and_picks() {
    let root = mount_app(Lang::En);
    settle().await;
    assert_eq!(attr(&root, "model-search", "role"), "combobox");
    assert_eq!(attr(&root, "model-search", "aria-expanded"), "false");
    assert_eq!(attr(&root, "model-options", "role"), "listbox");
    type_into(&root, "model-search", "qwen3 30b");
    settle().await;
    assert_eq!(attr(&root, "model-search", "aria-expanded"), "true");
    let ids = option_ids(&root);
    assert_eq!(ids.first().map(String::as_str), Some("Qwen/Qwen3-30B-A3B"));
    assert!(ids.len() >= 2, "{ids:?}");
    assert!(ids
        .iter()
        .all(|id| id.to_lowercase().contains("qwen3") && id.to_lowercase().contains("30b")));
    press(&root, "model-search", "ArrowDown");
    settle().await;
    assert_eq!(
        attr(&root, "model-search", "aria-activedescendant"),
        "vf-model-opt-1"
    );
    let options = all(&root, "[data-testid=model-option]");
    assert_eq!(
        options[1].get_attribute("aria-selected").as_deref(),
        Some("true")
    );
    assert_eq!(
        options[0].get_attribute("aria-selected").as_deref(),
        Some("false")
    );
    press(&root, "model-search", "ArrowUp");
    press(&root, "model-search", "Enter");
    settle().await;
    assert_eq!(attr(&root, "model-search", "aria-expanded"), "false");
    assert_eq!(input_value(&root, "model-search"), "Qwen/Qwen3-30B-A3B");
    assert!(text(&root, "results-model").contains("Qwen/Qwen3-30B-A3B"));
    // Nothing matches: the list says so, and Escape keeps the model.
    type_into(&root, "model-search", "zzz no such model");
    settle().await;
    assert!(exists(&root, "model-none"));
    assert!(option_ids(&root).is_empty());
    press(&root, "model-search", "Escape");
    settle().await;
    assert_eq!(input_value(&root, "model-search"), "Qwen/Qwen3-30B-A3B");
}

#[wasm_bindgen_test]
async fn the_engines_come_first_and_the_methods_in_plain_words() {
    let root = mount_app(Lang::Nl);
    settle().await;
    assert_eq!(
        text(&root, "engines"),
        "vLLMllama.cppPyTorch / transformers"
    );
    let other = text(&root, "other-estimates");
    assert!(other.starts_with("Vuistregel"), "{other}");
    assert!(
        !other.contains("quick") && !other.contains("planner"),
        "{other}"
    );
}

#[wasm_bindgen_test]
async fn the_gpu_hint_names_the_card_and_the_other_sizes_of_its_chip() {
    let root = mount_app(Lang::En);
    settle().await;
    type_into(&root, "gpu-select", "M4 Max");
    settle().await;
    let hint = text(&root, "gpu-hint");
    assert!(hint.starts_with("Counted: Apple M4 Max ("), "{hint}");
    assert!(
        hint.contains("Also in the catalog: Apple M4 Max ("),
        "{hint}"
    );
    assert!(!hint.contains("by hand"), "{hint}");
}
