//! The `details` chunk: the engine and the panels below the first result.
//!
//! With the feature `split` each function here is a split point of the
//! chunk `details`, which the main module fetches right after the first
//! result ([`crate::parts`]); everything only they reach leaves the main
//! module: the core's whole report (every method, the advice, the speed,
//! the config.json reader), the GPU table, the link in the address, export
//! and import, the chart and the speed and interpretation panels. Without
//! the feature they are plain functions.

use crate::advice_panel::{AnswersView, SuggestionsView};
use crate::components::chart::ContextChart;
use crate::components::engine::gguf::GgufPicker;
use crate::components::engine::knobs::EngineKnobsPanel;
use crate::components::engine::EnginePanel;
use crate::components::interpretation::InterpretationPanel;
use crate::components::speed::{EngineSpeed, SpeedPanel};
use crate::components::speed_chart::{self, SpeedChart, SpeedCurve};
use crate::components::transfer::{import_file, TransferBar, TransferStatus};
use crate::components::veil::Veiled;
use crate::components::MethodsTable;
use crate::curve::{self, ContextCurve};
use crate::figures;
use crate::i18n::use_lang;
use crate::parts::{ChunkUnavailable, Engine};
use crate::share;
use leptos::prelude::*;
use vramfit_core::catalog::{self, gpus};
use vramfit_core::methods::MethodId;
use vramfit_core::report::{self, Report};
use vramfit_core::request::Request;
use vramfit_core::scenario::ScenarioInput;
use vramfit_core::units::DisplayUnit;

/// The engine: the core's functions the first result does not need. Also
/// installs the GPU table in the core when the build has not compiled it in
/// (the release build: it comes with this chunk).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn engine() -> Result<Engine, ChunkUnavailable> {
    Ok(local_engine())
}

/// [`engine`] as a plain function (the build without chunks starts with it).
pub fn local_engine() -> Engine {
    crate::i18n::install_engine_texts();
    crate::styles::load(crate::styles::Sheet::Engine);
    if gpus::all().is_empty() {
        let _ = gpus::install(gpus::checked_in());
    }
    Engine {
        report: report::build,
        set_mode: Request::set_mode,
        working_methods: crate::components::stale::working_methods,
        read_link: share::scenario_in_address,
        write_link: share::write_address,
        import_file,
        find_gpu: catalog::find_gpu,
        set_gpu: ScenarioInput::set_gpu,
        gpu_hint: crate::components::gpu::picked_hint,
    }
}

/// The results under the breakdown: suggestions, answers, every method
/// side by side, export / import / link, and the note on rounding.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn results_more(
    report: Memo<Option<Report>>,
    input: RwSignal<Request>,
    unit: RwSignal<DisplayUnit>,
    status: RwSignal<Option<TransferStatus>>,
) -> Result<AnyView, ChunkUnavailable> {
    let lang = use_lang();
    let suggestions = Signal::derive(move || {
        report.with(|r| {
            r.as_ref()
                .map(|r| r.suggestions.clone())
                .unwrap_or_default()
        })
    });
    let answers = Signal::derive(move || report.with(|r| r.as_ref().map(|r| r.answers.clone())));
    let methods = Signal::derive(move || {
        report.with(|r| r.as_ref().map(|r| r.methods.clone()).unwrap_or_default())
    });
    let selected = Signal::derive(move || {
        report.with(|r| r.as_ref().map(|r| r.estimate.method).unwrap_or_default())
    });
    let engine =
        Signal::derive(move || report.with(|r| r.as_ref().and_then(|r| r.estimate.engine.clone())));
    let context = Signal::derive(move || input.with(|i| i.scenario.context));
    Ok(view! {
        <EnginePanel engine context />
        <SuggestionsView suggestions input unit />
        <AnswersView answers />
        <MethodsTable methods selected unit input />
        <TransferBar report input status />
        <p class="vf-note">{move || lang.get().t().truncated_note}</p>
    }
    .into_any())
}

/// The engine plan's speed beside the ring (vLLM's and llama.cpp's).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn engine_speed(report: Memo<Option<Report>>) -> Result<AnyView, ChunkUnavailable> {
    let speed = Memo::new(move |_| report.with(|r| r.as_ref().and_then(figures::engine_speed)));
    Ok(view! { <EngineSpeed speed /> }.into_any())
}

/// "Paste your command" on the first screen, beside the model and the GPU.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn paste_command(input: RwSignal<Request>) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::components::paste::PasteCommand input /> }.into_any())
}

/// llama.cpp's GGUF file types, in place of the weight formats while its
/// method is selected.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn gguf_picker(
    input: RwSignal<Request>,
    report: Memo<Option<Report>>,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <GgufPicker input report /> }.into_any())
}

/// The engines' own knobs (vLLM's and llama.cpp's), under the method's
/// settings while an engine method is selected.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn engine_knobs(
    input: RwSignal<Request>,
    method: Signal<MethodId>,
    report: Memo<Option<Report>>,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <EngineKnobsPanel input method report /> }.into_any())
}

/// Above the stale figures: why, and the ways out
/// ([`crate::components::stale::StaleNotice`]).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn stale_notice(
    input: RwSignal<Request>,
    ways: Signal<Vec<crate::components::stale::WayOut>>,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::components::stale::StaleNotice input ways /> }.into_any())
}

/// Step 01's folded knobs ([`crate::advanced_panel::AdvancedKnobs`]).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn advanced_knobs(
    input: RwSignal<Request>,
    link_pending: Signal<bool>,
    layout: Signal<Option<vramfit_core::scenario::Layout>>,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::advanced_panel::AdvancedKnobs input link_pending layout /> }.into_any())
}

/// The allocator's knobs of how the step runs (precision, checkpointing,
/// optimizer, attention), under the method's settings while it is selected.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn training_knobs(input: RwSignal<Request>) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::training_panel::TrainingKnobs input /> }.into_any())
}

/// Below the results: memory against context length, the speed, and how
/// to read the selected method's figure. The chart and the speed are
/// greyed while `stale` (the last good figures), and veiled while a blind
/// prediction is pending in the lesson.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn more_panels(
    input: RwSignal<Request>,
    report: Memo<Option<Report>>,
    unit: RwSignal<DisplayUnit>,
    stale: Memo<bool>,
) -> Result<AnyView, ChunkUnavailable> {
    let lang = use_lang();
    let t = move || lang.get().t();
    let max_context =
        Memo::new(move |_| report.with(|r| r.as_ref().and_then(|r| r.answers.max_context)));
    let curve = Memo::new(move |previous: Option<&Option<ContextCurve>>| {
        let max = max_context.get();
        input
            .with(|i| curve::context_curve(i, max))
            .or_else(|| previous.cloned().flatten())
    });
    let speed = Memo::new(move |_| report.with(|r| r.as_ref().map(figures::speed_view)));
    let method = Memo::new(move |_| input.with(|i| i.method));
    // The engine plan's decode against context, once per input; the last
    // good one while the input is not valid.
    let speed_curve = Memo::new(move |previous: Option<&Option<SpeedCurve>>| {
        let engine = matches!(method.get(), MethodId::Vllm | MethodId::Llamacpp);
        input
            .with(speed_chart::speed_curve)
            .or_else(|| previous.cloned().flatten().filter(|_| engine))
    });
    Ok(view! {
        <section class="vf-step-card" class:vf-stale=move || stale.get() data-stale=move || stale.get().to_string() data-testid="details" aria-labelledby="vf-details">
            <h2 id="vf-details" class="vf-step">{move || t().details_title}</h2>
            <Veiled testid="veiled-details">
                <ContextChart curve unit />
                <SpeedPanel speed />
                <SpeedChart curve=speed_curve />
            </Veiled>
        </section>
        <InterpretationPanel method=Signal::from(method) />
    }
    .into_any())
}
