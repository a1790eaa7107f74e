//! The engine plans' speed beside the ring and "paste your command": each
//! component mounted on the core's own report or reader (Spanish, the
//! default language of a component mounted alone).

use super::*;
use vramfit_app::components::paste::PasteCommand;
use vramfit_app::components::speed::EngineSpeed;
use vramfit_core::gguf::FileType;

/// The report of `method` for a catalog model on a catalog GPU.
fn engine_report(method: MethodId, model: &str, gpu: &str) -> report::Report {
    let mut scenario = ScenarioInput::default();
    scenario.set_model_following_checkpoint(Some(vramfit_core::scenario::ModelRef::Catalog(
        model.into(),
    )));
    scenario.set_gpu(gpu);
    if method == MethodId::Llamacpp {
        scenario.set_gguf_type(FileType::Q4_K_M);
    }
    report::build(&Request::new(method, scenario)).expect("the scenario runs")
}

fn mount_speed(doc: &report::Report) -> web_sys::HtmlElement {
    let speed = figures::engine_speed(doc);
    let root = host();
    leptos::mount::mount_to(
        root.clone(),
        move || view! { <EngineSpeed speed=Signal::stored(speed.clone()) /> },
    )
    .forget();
    root
}

#[wasm_bindgen_test]
async fn llamacpp_speed_says_the_layers_run_from_host_memory() {
    let doc = engine_report(MethodId::Llamacpp, "Qwen/Qwen3-30B-A3B", "RTX 4060 Ti 16GB");
    let speed = figures::engine_speed(&doc).expect("a catalog GPU's speed");
    assert!(speed.host_layers > 0, "the plan offloads");
    let root = mount_speed(&doc);
    settle().await;
    assert_eq!(
        text(&root, "engine-speed-host"),
        format!(
            "Más lenta porque {} capas se ejecutan desde la memoria del host",
            speed.host_layers
        )
    );
    let decode = text(&root, "engine-speed-decode");
    let low = i18n::format::decimal(&Lang::Es.t().number, speed.decode_tokens_per_s.low, 1);
    assert!(decode.starts_with(&format!("{low}–")), "{decode}");
    assert!(text(&root, "engine-speed-limit").starts_with("Limitada por "));
}

#[wasm_bindgen_test]
async fn vllm_speed_shows_decode_prefill_and_first_token_on_the_gpu() {
    let doc = engine_report(MethodId::Vllm, "meta-llama/Llama-3.1-8B-Instruct", "H100");
    let speed = figures::engine_speed(&doc).expect("a catalog GPU's speed");
    let root = mount_speed(&doc);
    settle().await;
    let n = &Lang::Es.t().number;
    assert_eq!(
        text(&root, "engine-speed-decode"),
        format!(
            "{}–{} tokens/s",
            i18n::format::decimal(n, speed.decode_tokens_per_s.low, 1),
            i18n::format::decimal(n, speed.decode_tokens_per_s.high, 1)
        )
    );
    assert!(exists(&root, "engine-speed-prefill"));
    assert!(text(&root, "engine-speed-ttft").ends_with(" s"));
    assert!(!exists(&root, "engine-speed-host"));
    // The planner's panel no longer says the engine gives no speed.
    assert!(matches!(figures::speed_view(&doc), SpeedView::Engine(_)));
}

#[wasm_bindgen_test]
async fn a_pasted_command_sets_the_request_and_a_bad_one_changes_nothing() {
    let mut scenario = ScenarioInput::default();
    scenario.set_gpu("H100");
    let start = Request::new(MethodId::Quick, scenario);
    let input = RwSignal::new(start.clone());
    let root = host();
    leptos::mount::mount_to(root.clone(), move || view! { <PasteCommand input /> }).forget();
    settle().await;
    type_into(
        &root,
        "paste-command",
        "vllm serve Qwen/Qwen3-8B --frobnicate 3",
    );
    click(&root, "paste-apply");
    settle().await;
    let error = text(&root, "paste-error");
    assert!(error.contains("--frobnicate"), "{error}");
    assert_eq!(input.get_untracked(), start);
    type_into(
        &root,
        "paste-command",
        "vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2",
    );
    click(&root, "paste-apply");
    settle().await;
    assert!(exists(&root, "paste-applied"));
    let now = input.get_untracked();
    assert_eq!(now.method, MethodId::Vllm);
    assert_eq!(
        (now.scenario.context, now.scenario.gpus, now.scenario.tp),
        (16384, 2, Some(2))
    );
    assert_eq!(
        now.scenario.model,
        Some(vramfit_core::scenario::ModelRef::Catalog(
            "Qwen/Qwen3-8B".into()
        ))
    );
}
