//! The inputs a person changes: a catalog or pasted model (with its
//! side file), the weight format and KV cache buttons, the GPU picker, the
//! advanced knobs, an imported document, the address.

use super::*;

#[wasm_bindgen_test]
async fn a_catalog_model_enables_the_allocator_and_its_knobs() {
    let root = mount_app(Lang::Es);
    settle().await;
    click(&root, "mode-lora");
    settle().await;
    pick_model(&root, "meta-llama/Llama-3.1-8B").await;
    settle().await;
    click(&root, "method-allocator");
    settle().await;
    assert_eq!(text(&root, "scenario-error"), "");
    let summary = text(&root, "model-summary");
    assert!(summary.contains("8,03 B"), "{summary}");
    // Seed 003's example at 8,192 tokens: weights 16.12 GB among the terms.
    assert!(text(&root, "component-weights").contains("16,12 GB"));
    assert!(exists(&root, "grad-checkpoint"));
    // The shape fields give way to the model's.
    assert!(!exists(&root, "field-layers"));
    // Back to typed numbers: the allocator says what it needs.
    pick_model(&root, "").await;
    settle().await;
    let problem = text(&root, "scenario-error");
    assert!(problem.contains("necesita un modelo real"), "{problem}");
}

#[wasm_bindgen_test]
async fn a_suggestion_applies_in_one_click_and_the_field_follows() {
    let root = mount_app(Lang::Es);
    settle().await;
    type_into(&root, "field-context", "131072");
    settle().await;
    let first = find(&root, "suggestion");
    assert!(
        first
            .text_content()
            .unwrap()
            .contains(&format!("32{NS}768")),
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
    assert_eq!(input_value(&root, "field-context"), "32768");
    assert_eq!(text(&root, "total-memory"), "22,32 GB");
    assert!(!exists(&root, "suggestion"));
}

#[wasm_bindgen_test]
async fn weight_format_and_kv_dtype_buttons() {
    let root = mount_app(Lang::Es);
    settle().await;
    // Bits by hand is the default: the field is there.
    assert_eq!(
        find(&root, "weight-format-manual")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    assert!(exists(&root, "field-weight_bits"));
    // "As published" needs a real model.
    assert!(find(&root, "weight-format-as_published").has_attribute("disabled"));
    click(&root, "weight-format-q4_k_m");
    settle().await;
    assert!(!exists(&root, "field-weight_bits"));
    let mut input = ScenarioInput::default();
    input.set_weight_format(vramfit_core::scenario::WeightFormat::Q4KM);
    let expected = report::build(&quick(input)).unwrap().estimate.total_bytes;
    assert_eq!(
        text(&root, "total-memory"),
        vramfit_app::i18n::format::bytes(&Lang::Es.t().number, DisplayUnit::Gb, expected)
    );
    click(&root, "weight-format-manual");
    settle().await;
    assert!(exists(&root, "field-weight_bits"));
    // KV at FP8 halves the cache: 0.54 GB.
    assert_eq!(
        find(&root, "kv-dtype-fp16")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    click(&root, "kv-dtype-fp8");
    settle().await;
    assert_eq!(text(&root, "component-kv_cache"), "Caché KV0,54 GB");
    assert!(!exists(&root, "field-kv_bytes"));
    click(&root, "kv-dtype-manual");
    settle().await;
    assert!(exists(&root, "field-kv_bytes"));
}

#[wasm_bindgen_test]
async fn gpu_picker_finds_catalog_cards_and_explains_a_miss() {
    let root = mount_app(Lang::Es);
    settle().await;
    type_into(&root, "gpu-select", "H100");
    settle().await;
    // The H100 SXM as nvidia-smi reports it: 81,559 MiB = 85,520,809,984
    // bytes, read rounded with the exact figure in the tooltip.
    assert_eq!(input_value(&root, "field-gpu_memory_gb"), "85,52");
    assert_eq!(
        find(&root, "field-gpu_memory_gb")
            .get_attribute("title")
            .as_deref(),
        Some("85,520809984")
    );
    assert_eq!(
        find(&root, "utilization-ring")
            .get_attribute("data-status")
            .as_deref(),
        Some("holgada")
    );
    type_into(&root, "gpu-select", "RTX 4909");
    settle().await;
    let hint = text(&root, "gpu-hint");
    assert!(
        hint.contains("RTX 4909") && hint.contains("RTX 4090"),
        "{hint}"
    );
    // The last good GPU still holds.
    assert_eq!(input_value(&root, "field-gpu_memory_gb"), "85,52");
    // Memory typed by hand drops the catalog card (and the tooltip).
    type_into(&root, "field-gpu_memory_gb", "24");
    settle().await;
    assert_eq!(
        find(&root, "field-gpu_memory_gb")
            .get_attribute("title")
            .unwrap_or_default(),
        ""
    );
    assert_eq!(input_value(&root, "gpu-select"), "");
    assert_eq!(text(&root, "total-memory"), "18,78 GB");
}

#[wasm_bindgen_test]
async fn advanced_knobs_count_what_differs_from_the_defaults() {
    let root = mount_app(Lang::Es);
    settle().await;
    let count = || find(&root, "advanced-count").get_attribute("data-count");
    assert_eq!(count().as_deref(), Some("0"));
    type_into(&root, "field-host_ram_gb", "64");
    settle().await;
    assert_eq!(count().as_deref(), Some("1"));
    assert_eq!(text(&root, "advanced-count"), "(1 cambiado)");
    type_into(&root, "field-shared_prefix_tokens", "16");
    settle().await;
    assert_eq!(text(&root, "advanced-count"), "(2 cambiados)");
}

#[wasm_bindgen_test]
async fn importing_a_bad_document_says_why_and_changes_nothing() {
    let root = mount_app(Lang::Es);
    settle().await;
    type_into(&root, "field-context", "16384");
    settle().await;
    let before = text(&root, "total-memory");
    // A pasted export whose inputs are out of range.
    type_into(
        &root,
        "config-input",
        r#"{"schema": "vramfit/1", "inputs": {"layers": 0}}"#,
    );
    settle().await;
    let status = text(&root, "transfer-status");
    assert!(status.contains("No se ha cambiado nada"), "{status}");
    assert!(status.contains("Capas"), "{status}");
    assert_eq!(text(&root, "total-memory"), before);
    assert_eq!(input_value(&root, "field-context"), "16384");
    // Another schema version.
    type_into(
        &root,
        "config-input",
        r#"{"schema": "vramfit/9", "inputs": {}}"#,
    );
    settle().await;
    assert!(text(&root, "transfer-status").contains("vramfit/9"));
    // A good one restores its inputs.
    let wanted = ScenarioInput {
        context: 4096,
        gpu_memory_gb: 16.0,
        ..ScenarioInput::default()
    };
    let doc = report::build(&quick(wanted)).unwrap().to_json();
    type_into(&root, "config-input", &doc);
    settle().await;
    assert_eq!(text(&root, "transfer-status"), "Escenario importado.");
    assert_eq!(input_value(&root, "field-context"), "4096");
    assert_eq!(input_value(&root, "field-gpu_memory_gb"), "16");
}

#[wasm_bindgen_test]
async fn the_address_carries_the_scenario() {
    let root = mount_app(Lang::Es);
    settle().await;
    type_into(&root, "field-context", "12345");
    settle().await;
    let hash = web_sys::window().unwrap().location().hash().unwrap();
    let back = vramfit_app::share::scenario_of(&hash).unwrap().unwrap();
    assert_eq!(back.scenario.context, 12345);
    // A new app on this address opens the same scenario.
    let again = host();
    leptos::mount::mount_to(again.clone(), App).forget();
    settle().await;
    assert_eq!(input_value(&again, "field-context"), "12345");
    assert_eq!(text(&again, "total-memory"), text(&root, "total-memory"));
}

#[wasm_bindgen_test]
async fn a_quantized_name_without_a_quantization_config_is_said_on_the_page() {
    let root = mount_app(Lang::En);
    settle().await;
    let config = include_str!(
        "../../crates/vramfit-core/data/configs/meta-llama__Llama-3.2-1B-Instruct.json"
    );
    type_into(&root, "config-input", config);
    settle().await;
    assert!(
        !exists(&root, "model-quant-note"),
        "a plain config says nothing"
    );
    let mut doc: serde_json::Value = serde_json::from_str(config).unwrap();
    doc["_name_or_path"] = "nvidia/Llama-3.2-1B-Instruct-NVFP4".into();
    type_into(&root, "config-input", &doc.to_string());
    settle().await;
    let note = text(&root, "model-quant-note");
    assert!(
        note.contains("NVFP4") && note.contains("unquantized"),
        "{note}"
    );
}

#[wasm_bindgen_test]
async fn a_modelopt_export_is_read_with_its_hf_quant_config() {
    let root = mount_app(Lang::En);
    settle().await;
    assert!(
        !exists(&root, "side-input"),
        "no side file without a config"
    );
    // NVIDIA's FP8 export of Llama-3.1-70B-Instruct under its Hub name:
    // config.json alone reads 16-bit weights, and the page says why.
    let config = include_str!(
        "../../crates/vramfit-core/data/configs/nvidia__Llama-3.1-70B-Instruct-FP8.json"
    );
    let mut doc: serde_json::Value = serde_json::from_str(config).unwrap();
    doc["_name_or_path"] = "nvidia/Llama-3.1-70B-Instruct-FP8".into();
    type_into(&root, "config-input", &doc.to_string());
    settle().await;
    let note = text(&root, "model-quant-note");
    assert!(
        note.contains("FP8") && note.contains("field below"),
        "{note}"
    );
    // Its hf_quant_config.json in the field below: FP8, as the catalog row.
    type_into(
        &root,
        "side-input",
        include_str!(
            "../../crates/vramfit-core/data/configs/hf_quant/nvidia__Llama-3.1-70B-Instruct-FP8.json"
        ),
    );
    settle().await;
    assert!(!exists(&root, "model-quant-note"));
    let published = text(&root, "model-published");
    assert!(
        published.contains("FP8") && published.contains("72.66 GB"),
        "{published}"
    );
    // A new config text keeps the side file; emptying the side file drops it.
    type_into(&root, "config-input", &doc.to_string());
    settle().await;
    assert!(text(&root, "model-published").contains("FP8"));
    type_into(&root, "side-input", "");
    settle().await;
    assert!(exists(&root, "model-quant-note"));
    // Not a side file: a clear error under the config, nothing lost.
    type_into(&root, "side-input", "{\"producer\": {}}");
    settle().await;
    let error = text(&root, "config-error");
    assert!(error.contains("hf_quant_config.json"), "{error}");
}
