//! The engine methods' components in headless Chromium: the engine panel
//! of a vLLM and a llama.cpp report, the GGUF type picker, the engines'
//! knobs and the method's description.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use vramfit_app::components::engine::gguf::GgufPicker;
use vramfit_app::components::engine::knobs::EngineKnobsPanel;
use vramfit_app::components::engine::EnginePanel;
use vramfit_app::components::method_note::MethodDescription;
use vramfit_app::i18n::{Lang, LangContext};
use vramfit_core::gguf::{FileType, GgmlType};
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::MethodId;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{ModelRef, ScenarioInput, WeightFormat};
use wasm_bindgen_test::*;

mod dom;

use dom::*;

wasm_bindgen_test_configure!(run_in_browser);

fn request(method: MethodId, model: &str, f: impl FnOnce(&mut ScenarioInput)) -> Request {
    let mut scenario = ScenarioInput {
        model: Some(ModelRef::Catalog(model.into())),
        ..ScenarioInput::default()
    };
    f(&mut scenario);
    Request::new(method, scenario)
}

/// The panel for a request's report, in English.
fn mount_panel(request: Request) -> web_sys::HtmlElement {
    let root = host();
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(LangContext(RwSignal::new(Lang::En)));
        let input = RwSignal::new(request);
        let engine = Signal::derive(move || {
            input.with(|i| report::build(i).ok().and_then(|r| r.estimate.engine))
        });
        let context = Signal::derive(move || input.with(|i| i.scenario.context));
        view! { <EnginePanel engine context /> }
    })
    .forget();
    root
}

#[wasm_bindgen_test]
async fn vllm_panel_shows_kv_tokens_concurrency_and_the_command() {
    let req = request(MethodId::Vllm, "meta-llama/Llama-3.1-8B-Instruct", |s| {
        s.set_gpu("H100");
        s.engine.gpu_memory_utilization = Some(0.95);
    });
    let expected = report::build(&req).unwrap();
    let Some(EngineReport::Vllm(v)) = expected.estimate.engine else {
        panic!("no vLLM figures");
    };
    let root = mount_panel(req);
    settle().await;
    assert_eq!(
        find(&root, "engine-panel")
            .get_attribute("data-engine")
            .as_deref(),
        Some("vllm")
    );
    let tokens = text(&root, "engine-kv-tokens-value");
    assert_eq!(tokens.replace(',', ""), v.kv_cache_tokens.to_string());
    assert!(text(&root, "engine-concurrency-value").contains("× requests of 8,192 tokens"));
    assert!(exists(&root, "engine-starts"));
    assert!(!exists(&root, "engine-start-error"));
    assert_eq!(text(&root, "engine-command"), v.command);
    assert!(
        text(&root, "engine-command").starts_with("vllm serve meta-llama/Llama-3.1-8B-Instruct")
    );
    assert!(text(&root, "engine-cuda-graphs-value").ends_with("GiB"));
    // The copy button answers, whether or not the browser allows it.
    click(&root, "engine-copy");
    for _ in 0..50 {
        if !text(&root, "engine-copy-status").is_empty() {
            break;
        }
        settle().await;
    }
    assert!(!text(&root, "engine-copy-status").is_empty());
}

#[wasm_bindgen_test]
async fn vllm_panel_shows_the_error_it_would_stop_with() {
    let req = request(MethodId::Vllm, "meta-llama/Llama-3.1-8B-Instruct", |s| {
        s.set_gpu("RTX 4090");
        s.context = 131_072;
    });
    let root = mount_panel(req);
    settle().await;
    let error = text(&root, "engine-start-error");
    assert!(error.starts_with("vLLM would not start:"), "{error}");
    assert!(error.contains("max seq len (131072)"), "{error}");
    // The RTX 4090's CUDA total is not in the catalog: said so.
    assert!(text(&root, "engine-notes").contains("driver's total"));
    // A command that would not start is not offered to copy.
    assert!(!exists(&root, "engine-command"));
}

#[wasm_bindgen_test]
async fn llamacpp_panel_shows_the_split_and_the_layers() {
    let req = request(MethodId::Llamacpp, "meta-llama/Llama-3.1-70B", |s| {
        s.set_weight_format(WeightFormat::Q4KM);
        s.set_gpu("RTX 4090");
        s.engine.n_gpu_layers = Some(40);
    });
    let root = mount_panel(req);
    settle().await;
    assert_eq!(text(&root, "engine-layers-value"), "40 of 81");
    // The 41 layers in host memory said in words, with their bytes.
    let offload = text(&root, "engine-offload");
    assert!(
        offload.starts_with("Partly offloaded: 41 of 81 layers run from host memory ("),
        "{offload}"
    );
    assert_eq!(
        text(&root, "engine-host-value"),
        offload.split(['(', ')']).nth(1).unwrap()
    );
    assert!(text(&root, "engine-host-value").ends_with("GiB"));
    assert!(text(&root, "engine-command").contains("-ngl 40"));
    assert!(text(&root, "engine-command").starts_with("llama-server -m Llama-3.1-70B-Q4_K_M.gguf"));
    assert!(text(&root, "engine-longest-fit-value").contains("tokens"));
}

#[wasm_bindgen_test]
async fn other_methods_have_no_engine_panel() {
    let req = request(MethodId::Range, "meta-llama/Llama-3.1-8B", |_| {});
    let root = mount_panel(req);
    settle().await;
    assert!(!exists(&root, "engine-panel"));
}

#[wasm_bindgen_test]
async fn gguf_picker_sets_the_type_llama_cpp_loads() {
    let root = host();
    let input = RwSignal::new(request(
        MethodId::Llamacpp,
        "meta-llama/Llama-3.1-8B",
        |_| {},
    ));
    leptos::mount::mount_to(root.clone(), move || view! { <GgufPicker input /> }).forget();
    settle().await;
    assert_eq!(count(&root, "gguf-type"), 1);
    // Q4_K_M while nothing is chosen.
    let pressed = |id: &str| find(&root, id).get_attribute("aria-pressed").unwrap();
    assert_eq!(pressed("gguf-q4_k_m"), "true");
    click(&root, "gguf-iq4_xs");
    settle().await;
    assert_eq!(pressed("gguf-iq4_xs"), "true");
    assert_eq!(pressed("gguf-q4_k_m"), "false");
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.gguf_type),
        Some(FileType::IQ4_XS)
    );
    // A type that is a weight format sets the format.
    click(&root, "gguf-q8_0");
    settle().await;
    assert_eq!(
        input.with_untracked(|i| i.scenario.weight_format),
        Some(WeightFormat::Q8_0)
    );
}

#[wasm_bindgen_test]
async fn engine_knobs_are_checked_as_typed() {
    let root = host();
    let input = RwSignal::new(request(
        MethodId::Llamacpp,
        "meta-llama/Llama-3.1-8B",
        |_| {},
    ));
    let method = RwSignal::new(MethodId::Llamacpp);
    let report = Memo::new(move |_| input.with(|i| vramfit_core::report::build(i).ok()));
    leptos::mount::mount_to(root.clone(), move || {
        view! { <EngineKnobsPanel input method report /> }
    })
    .forget();
    settle().await;
    // Empty, -ngl says what llama.cpp ran at: every layer and the output.
    let placeholder = |key: &str| {
        find(&root, key)
            .get_attribute("placeholder")
            .unwrap_or_default()
    };
    assert_eq!(placeholder("engine-n_gpu_layers"), "auto (33)");
    type_into(&root, "engine-n_gpu_layers", "20");
    settle().await;
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.n_gpu_layers),
        Some(20)
    );
    type_into(&root, "engine-n_gpu_layers", "2.5");
    settle().await;
    assert!(
        text(&root, "engine-hint-n_gpu_layers").contains("whole number")
            || text(&root, "engine-hint-n_gpu_layers").contains("entero")
    );
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.n_gpu_layers),
        Some(20)
    );
    // Empty: back to auto.
    type_into(&root, "engine-n_gpu_layers", "");
    settle().await;
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.n_gpu_layers),
        None
    );
    type_into(&root, "engine-cache_type_k", "q8_0");
    settle().await;
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.cache_type_k),
        Some(GgmlType::Q8_0)
    );
    // vLLM's knobs replace llama.cpp's; empty ones say what vLLM ran at
    // (the newest release's 0.92, the batch limits of a GPU under 70 GiB).
    input.update(|i| i.method = MethodId::Vllm);
    method.set(MethodId::Vllm);
    settle().await;
    assert_eq!(placeholder("engine-gpu_memory_utilization"), "auto (0,92)");
    assert_eq!(placeholder("engine-max_num_seqs"), "auto (256)");
    assert_eq!(placeholder("engine-max_num_batched_tokens"), "auto (2048)");
    assert!(exists(&root, "engine-gpu_memory_utilization"));
    assert!(!exists(&root, "engine-n_gpu_layers"));
    type_into(&root, "engine-block_size", "24");
    settle().await;
    assert_eq!(input.with_untracked(|i| i.scenario.engine.block_size), 16);
    type_into(&root, "engine-gpu_memory_utilization", "0,95");
    settle().await;
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.gpu_memory_utilization),
        Some(0.95)
    );
    // Emptied, it is the release's default again.
    type_into(&root, "engine-gpu_memory_utilization", "");
    settle().await;
    assert_eq!(
        input.with_untracked(|i| i.scenario.engine.gpu_memory_utilization),
        None
    );
}

#[wasm_bindgen_test]
async fn the_method_picker_says_what_each_method_is() {
    let root = host();
    let method = RwSignal::new(MethodId::Vllm);
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(LangContext(RwSignal::new(Lang::En)));
        view! { <MethodDescription method /> }
    })
    .forget();
    settle().await;
    assert!(text(&root, "method-description").starts_with("What vLLM reports"));
    method.set(MethodId::Llamacpp);
    settle().await;
    assert!(text(&root, "method-description").contains("-ngl"));
}

#[wasm_bindgen_test]
async fn the_vllm_release_brings_its_utilization_default_unless_typed() {
    use vramfit_app::components::engine::vllm::VllmKnobs;
    let root = host();
    let input = RwSignal::new(request(
        MethodId::Vllm,
        "meta-llama/Llama-3.1-8B-Instruct",
        |_| {},
    ));
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(LangContext(RwSignal::new(Lang::En)));
        view! { <VllmKnobs input /> }
    })
    .forget();
    settle().await;
    let pick = |value: &str| {
        let el = find(&root, "engine-vllm_version");
        js_sys::Reflect::set(&el, &"value".into(), &value.into()).unwrap();
        el.dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
    };
    let utilization = || input.with_untracked(|i| i.scenario.engine.gpu_memory_utilization);
    let release = || input.with_untracked(|i| i.scenario.engine.vllm_version);
    let ran = || match input.with_untracked(|i| i.run()).unwrap().engine {
        Some(vramfit_core::methods::engine::EngineReport::Vllm(v)) => {
            (v.vllm_version.text(), v.gpu_memory_utilization)
        }
        other => panic!("no vLLM report: {other:?}"),
    };
    // Left empty, the utilization is the release's own: 0.92 on the
    // newest (the default), 0.9 at 0.19; the scenario keeps "not typed".
    assert_eq!((utilization(), release()), (None, None));
    assert_eq!(ran(), ("0.33.0".to_string(), 0.92));
    pick("0.19");
    settle().await;
    assert_eq!(utilization(), None);
    assert_eq!(ran(), ("0.19.0".to_string(), 0.9));
    pick("0.22");
    settle().await;
    assert_eq!(ran(), ("0.22.0".to_string(), 0.92));
    // A utilization typed stays whatever the release.
    input.update(|i| i.scenario.engine.gpu_memory_utilization = Some(0.8));
    pick("0.19");
    settle().await;
    assert_eq!(utilization(), Some(0.8));
    assert_eq!(ran(), ("0.19.0".to_string(), 0.8));
}
