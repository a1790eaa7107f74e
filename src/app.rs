//! The page: the steps on the left, results on the right. One memo holds
//! the outcome of the core's `report::build` (before the engine has loaded,
//! of [`crate::first::report`]); the ring, the total, the breakdown, the
//! methods table, the answers and the export all read the last good report
//! from it. What the first result does not need arrives right after it
//! ([`crate::parts`]): the engine, the panels below the breakdown, the
//! model input, the details and the lesson.

use crate::components::compact::CompactBar;
use crate::components::formats::{KvDtypePicker, WeightFormatPicker};
use crate::components::gpu::GpuPicker;
use crate::components::lang::LangSwitch;
use crate::components::method_note::MethodDescription;
use crate::components::model_search::ModelCombobox;
use crate::components::stale::{self, InvalidFields, WayOut};
use crate::components::switch::{SwitchNotice, SwitchNoticeView};
use crate::components::transfer::{dragged_file, drags_files, TransferStatus};
use crate::components::veil::{Veil, Veiled};
use crate::components::{
    Breakdown, GpuRings, MethodPicker, ModePicker, NumberField, TotalMemory, UnitSwitch,
    UtilizationRing,
};
use crate::figures;
use crate::i18n::{self, use_lang, LangContext};
use crate::learn::LearnPanels;
use crate::parts::{self, Deferred, Load, Parts};
use crate::share;
use crate::{details, first, model_part, split_call};
use leptos::prelude::*;
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::MethodId;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::request::RequestError;
use vramfit_core::scenario::{Field, ScenarioError};
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit};
use vramfit_core::verdict::Verdict;

/// The whole calculator, opened on the scenario in the address or on seed
/// 004's worked example.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(i18n::initial_lang());
    provide_context(LangContext(lang));
    // A blind prediction pending in the lesson veils every figure.
    provide_context(Veil(RwSignal::new(false)));
    let parts = Parts::provide();
    let status = RwSignal::new(None::<TransferStatus>);
    let input = RwSignal::new(Request::default());
    // A shared link names the unit it was seen in (and the language,
    // which i18n::initial_lang read before the page was drawn).
    let unit = RwSignal::new(share::unit_of(&share::address_fragment()).unwrap_or(DisplayUnit::Gb));
    provide_context(SwitchNotice(RwSignal::new(None)));
    let invalid_fields = RwSignal::new(Vec::<&'static str>::new());
    provide_context(InvalidFields(invalid_fields));
    // A scenario in the address is read by the engine (its JSON, checked
    // against the catalogs): the first result waits for it.
    let had_link = share::address_has_scenario();
    let link_pending = RwSignal::new(had_link);
    parts.start(had_link);
    Effect::new(move |_| {
        if !link_pending.get() {
            return;
        }
        let Some(engine) = parts.engine.get().ready() else {
            return;
        };
        if parts.catalog.with(|c| matches!(c, Load::Waiting)) {
            return;
        }
        match (engine.read_link)() {
            Some(Ok(request)) => input.set(request),
            Some(Err(_)) => status.set(Some(TransferStatus::LinkBroken)),
            None => {}
        }
        link_pending.set(false);
    });

    Effect::new(move |_| {
        let l = lang.get();
        i18n::set_current(l);
        i18n::store_lang(l);
        i18n::apply_to_document(l);
    });
    // The address follows the scenario, so a copied link reopens it (once
    // the engine, which writes it, is here; not before a link is read).
    let wrote = StoredValue::new(had_link);
    Effect::new(move |_| {
        let Some(engine) = parts.engine.get().ready() else {
            return;
        };
        if link_pending.get() {
            return;
        }
        let (u, l) = (unit.get(), lang.get());
        input.with(|i| {
            if wrote.get_value() || *i != Request::default() || u != DisplayUnit::Gb {
                (engine.write_link)(i, u, l);
                wrote.set_value(true);
            }
        });
    });

    // `None` while what the answer needs is still on its way.
    // Every recomputation counts as a change: the outcome and the report
    // follow the input, and comparing whole reports would cost the first
    // load their equality code for nothing.
    let outcome = Memo::new_with_compare(
        move |_| {
            if link_pending.get() {
                return None;
            }
            input.with(|i| {
                if parts.can_answer(i) {
                    parts.engine.get().ready().map(|engine| (engine.report)(i))
                } else {
                    first::report(i)
                }
            })
        },
        always_changed,
    );
    // The last good report stays on screen while the input has a problem.
    let report = Memo::new_with_compare(
        move |previous: Option<&Option<Report>>| {
            outcome
                .get()
                .and_then(Result::ok)
                .or_else(|| previous.cloned().flatten())
        },
        always_changed,
    );
    // The model's problems beside the model input, the others with the
    // results (a method that refuses the scenario among them).
    let errors = move |model: bool| {
        outcome.with(|o| match o {
            Some(Err(RequestError::Invalid(all))) => all
                .iter()
                .filter(|e| is_model_error(e) == model)
                .cloned()
                .collect(),
            _ => Vec::new(),
        })
    };
    let refusal = move || {
        outcome.with(|o| match o {
            Some(Err(RequestError::Refused(e))) => Some(*e),
            _ => None,
        })
    };
    // The figures on screen are the last good ones while the input has a
    // problem: greyed, with the way out (the methods that do estimate the
    // scenario are the engine's to find).
    let stale = Memo::new(move |_| {
        outcome.with(|o| matches!(o, Some(Err(_)))) || invalid_fields.with(|f| !f.is_empty())
    });
    let ways = Memo::new(move |_| {
        let engine = parts.engine.get().ready();
        let mut ways = input.with(|i| {
            outcome.with(|o| match o {
                Some(o) => stale::ways_out_with(o, || engine.map(|e| (e.working_methods)(i))),
                None => Vec::new(),
            })
        });
        if invalid_fields.with(|f| !f.is_empty()) && !ways.contains(&WayOut::FixField) {
            ways.push(WayOut::FixField);
        }
        ways
    });
    // No answer yet: the engine (or the catalog) is on its way, or failed.
    let waiting = Memo::new(move |_| outcome.with(Option::is_none));
    let method = Memo::new(move |_| input.with(|i| i.method));
    let has_model = Memo::new(move |_| input.with(|i| i.scenario.model.is_some()));
    let has_report = Memo::new(move |_| report.with(Option::is_some));
    let verdict = Signal::derive(move || {
        report
            .with(|r| r.as_ref().map(|r| r.estimate.verdict.clone()))
            .unwrap_or_else(|| Verdict::new(Bytes::ZERO, Bytes(1)))
    });
    let total = Signal::derive(move || {
        report.with(|r| r.as_ref().map_or(Bytes::ZERO, |r| r.estimate.total_bytes))
    });

    let on_dragover = move |ev: leptos::ev::DragEvent| {
        if drags_files(&ev) {
            ev.prevent_default();
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        if let Some(file) = dragged_file(&ev) {
            ev.prevent_default();
            parts.with_engine(move |engine| (engine.import_file)(file, input, status));
        }
    };
    let model_errors = Signal::derive(move || errors(true));
    let model_input = parts::loader(move || async move {
        // The picker lists the catalog: it comes first (or fails).
        parts.fetch_catalog().await;
        split_call!(model_part::model_input(input, model_errors, status))
    });
    let model_facts =
        parts::loader(move || async move { split_call!(model_part::model_facts(report)) });
    // llama.cpp's file types: only its method shows them (the details chunk).
    let gguf_picker = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::gguf_picker(input, report))
    });
    // The command reader comes with the engine.
    let paste = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::paste_command(input))
    });
    let more = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::more_panels(input, report, unit, stale))
    });
    // Why the figures are stale, and the ways out, come with the engine
    // (the first result is never stale).
    let ways_shown = Signal::from(ways);
    let stale_notice = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::stale_notice(input, ways_shown))
    });
    // The advanced knobs are folded: they come with the engine.
    let layout =
        Signal::derive(move || outcome.with(|o| o.as_ref()?.as_ref().ok().map(|r| r.layout)));
    let link_waiting = Signal::from(link_pending);
    let advanced = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::advanced_knobs(input, link_waiting, layout))
    });
    let t = move || lang.get().t();
    // The context asked for is above the model's own maximum.
    let context_over_max = move || {
        let max = outcome.with(|o| o.as_ref()?.as_ref().ok()?.answers.model_max_context)?;
        (input.with(|i| i.scenario.context) > max).then_some(max)
    };
    view! {
        <header class="vf-header">
            <div>
                <h1 class="vf-title">"vramfit"</h1>
                <p class="vf-subtitle">{move || t().tagline}</p>
            </div>
            <LangSwitch />
        </header>
        <main class="vf-layout" data-stale=move || stale.get().to_string() on:dragover=on_dragover on:drop=on_drop>
            <Show when=move || has_report.get()>
                <Veiled testid="veiled-compact">
                    <CompactBar verdict total unit />
                </Veiled>
            </Show>
            <div class="vf-steps">
                <section class="vf-step-card" aria-labelledby="vf-step-1">
                    <h2 id="vf-step-1" class="vf-step"><span class="vf-step__n">"01"</span>{move || t().step_configure}</h2>
                    <p class="vf-question">{move || t().first_question}</p>
                    <ModelCombobox input />
                    <GpuPicker input />
                    <Deferred name="paste-command" load=paste loading=|_| "" />
                    <h3 class="vf-subhead">{move || t().engine_label}</h3>
                    <ModePicker input />
                    <MethodPicker input />
                    <SwitchNoticeView input />
                    <MethodDescription method />
                    <Show
                        when=move || method.get() == MethodId::Llamacpp
                        fallback=move || view! { <WeightFormatPicker input has_model /> }
                    >
                        <Deferred name="gguf-picker" load=gguf_picker.clone() />
                    </Show>
                    <KvDtypePicker input />
                    <h3 class="vf-subhead">{move || t().workload_label}</h3>
                    <div class="vf-fields">
                        {Field::WORKLOAD.into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
                    </div>
                    {move || context_over_max().map(|m| view! {
                        <p class="vf-note" data-testid="context-over-max">
                            {move || (t().context_over_model_max)(&i18n::format::integer(&t().number, m))}
                        </p>
                    })}
                    <Deferred name="advanced" load=advanced />
                    <MethodSettings input method report />
                </section>
                <section class="vf-step-card" aria-labelledby="vf-step-2">
                    <h2 id="vf-step-2" class="vf-step"><span class="vf-step__n">"02"</span>{move || t().step_input}</h2>
                    <p class="vf-note">{move || t().step_input_hint}</p>
                    <Deferred name="model-input" load=model_input />
                    <Show
                        when=move || has_model.get()
                        fallback=move || view! {
                            <h3 class="vf-subhead">{move || t().shape_title}</h3>
                            <div class="vf-fields">
                                {Field::SHAPE.into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
                            </div>
                        }
                    >
                        <Deferred name="model-facts" load=model_facts.clone() />
                    </Show>
                </section>
            </div>
            <aside class="vf-results" aria-labelledby="vf-step-3">
                <h2 id="vf-step-3" class="vf-step"><span class="vf-step__n">"03"</span>{move || t().step_results}</h2>
                <p class="vf-error" data-testid="scenario-error" role="alert">
                    {move || {
                        let mut lines: Vec<String> = errors(false).iter().map(|e| (t().scenario_error)(e)).collect();
                        lines.extend(refusal().map(|e| (t().run_error)(&e)));
                        lines.join(" ")
                    }}
                </p>
                <Deferred name="stale-notice" load=stale_notice loading=|_| "" />
                <Show when=move || has_report.get()>
                    <Veiled testid="veiled-results">
                        <div class="vf-figures" class:vf-stale=move || stale.get() data-testid="figures" data-stale=move || stale.get().to_string()>
                            <ResultsPanel report unit input verdict total status />
                        </div>
                    </Veiled>
                </Show>
                <Show when=move || waiting.get() && !has_report.get()>
                    {move || if parts.engine.with(Load::failed) {
                        parts::unavailable("results", move || parts.load_engine())
                    } else {
                        view! {
                            <p class="vf-note" role="status" data-testid="results-loading">{move || t().part_loading}</p>
                        }.into_any()
                    }}
                </Show>
            </aside>
            <div class="vf-more">
                <Deferred name="details" load=more />
                <div class="vf-learn">
                    <LearnPanels input report />
                </div>
            </div>
        </main>
    }
}

/// Problems that belong next to the model input rather than the results.
fn is_model_error(e: &ScenarioError) -> bool {
    matches!(
        e,
        ScenarioError::UnknownModel(_) | ScenarioError::Config(_) | ScenarioError::NeedsModel(_)
    )
}

/// The selected method's own knobs.
#[component]
fn MethodSettings(
    /// The scenario the knobs edit.
    input: RwSignal<Request>,
    /// The selected method.
    #[prop(into)]
    method: Signal<MethodId>,
    /// The report on screen (what the engines' empty knobs ran at).
    report: Memo<Option<Report>>,
) -> impl IntoView {
    let lang = use_lang();
    let parts = parts::use_parts();
    let fields =
        Memo::new(move |_| figures::method_fields(method.get(), input.with(|i| i.scenario.mode)));
    let engine = move || matches!(method.get(), MethodId::Vllm | MethodId::Llamacpp);
    // The engines' knobs come with the details chunk.
    let engine_knobs = StoredValue::new(parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::engine_knobs(input, method, report))
    }));
    // So do the allocator's (the first result never needs them).
    let training_knobs = StoredValue::new(parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::training_knobs(input))
    }));
    let shown =
        move || method.get() == MethodId::Allocator || engine() || !fields.with(Vec::is_empty);
    view! {
        <Show when=shown>
            <h3 class="vf-subhead">{move || lang.get().t().method_settings}</h3>
            <Show when=move || method.get() == MethodId::Allocator>
                <Deferred name="training-knobs" load=training_knobs.get_value() />
            </Show>
            <div class="vf-fields">
                {move || fields.get().into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
            </div>
            <Show when=engine>
                <Deferred name="engine-knobs" load=engine_knobs.get_value() />
            </Show>
        </Show>
    }
}

/// The results column for the current report.
#[component]
fn ResultsPanel(
    /// The last good report.
    report: Memo<Option<Report>>,
    /// Display unit, switchable here.
    unit: RwSignal<DisplayUnit>,
    /// The scenario, so that a method or a suggestion can be picked.
    input: RwSignal<Request>,
    /// The selected method's verdict.
    verdict: Signal<Verdict>,
    /// The selected method's total.
    total: Signal<Bytes>,
    /// Export, import and share outcome.
    status: RwSignal<Option<TransferStatus>>,
) -> impl IntoView {
    let lang = use_lang();
    let parts = parts::use_parts();
    let gpus = Signal::derive(move || report.with(|r| r.as_ref().map_or(1, |r| r.estimate.gpus)));
    let range = Signal::derive(move || {
        report.with(|r| {
            let e = &r.as_ref()?.estimate;
            Some((e.low_bytes?, e.high_bytes?))
        })
    });
    let rows = Signal::derive(move || {
        report.with(|r| {
            r.as_ref()
                .map(|r| figures::breakdown_rows(&r.estimate))
                .unwrap_or_default()
        })
    });
    // The panels under the breakdown read the whole report: the engine
    // comes first (their chunk holds it).
    let more = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::results_more(report, input, unit, status))
    });
    // The engine plan's speed stands beside the ring (its chunk holds it).
    let engine_speed = parts::loader(move || async move {
        parts.fetch_engine().await.ok_or(parts::ChunkUnavailable)?;
        split_call!(details::engine_speed(report))
    });
    // The weights hold the vision tower an engine loads with the model.
    let vision = Signal::derive(move || {
        report.with(|r| {
            let r = r.as_ref()?;
            let v = r.model.published.as_ref()?.vision_bytes;
            (v > 0
                && r.estimate
                    .components
                    .get(Term::Weights)
                    .is_some_and(|w| w > Bytes::ZERO))
            .then_some(Bytes(v))
        })
    });
    // The model's name, and its checkpoint's format and bytes beside it.
    let model_line = move || {
        report.with(|r| {
            let r = r.as_ref()?;
            let published = r.model.published.as_ref()?;
            let name = match &r.inputs.scenario.model {
                Some(vramfit_core::scenario::ModelRef::Catalog(id)) => id.clone(),
                _ => r
                    .model
                    .spec
                    .as_ref()
                    .and_then(|s| s.name.clone().or(s.model_type.clone()))?,
            };
            Some((name, published.label.clone(), Bytes(published.bytes)))
        })
    };
    view! {
        // The ring and the total stay in view on a desktop while the rest
        // of the column (the breakdown, the engine's command) scrolls with
        // the page, never in a scroll box of its own.
        <div class="vf-results__head">
        {move || model_line().map(|(name, label, bytes)| view! {
            <p class="vf-result-model" data-testid="results-model">
                <strong>{name}</strong>
                " · "
                {move || {
                    let t = lang.get().t();
                    (t.published_beside_name)(&label, &crate::i18n::format::bytes(&t.number, unit.get(), bytes))
                }}
            </p>
        })}
        <UtilizationRing verdict unit />
        <GpuRings verdict gpus />
        <TotalMemory total range unit gpus />
        // The one verdict is the report's; where llama.cpp's plan runs
        // layers from host memory, it is said beside the ring.
        {move || report.with(|r| host_layers(r.as_ref()?)).map(|(n, of)| view! {
            <p class="vf-offload" data-testid="results-offload">{move || (lang.get().t().host_layers)(n, of)}</p>
        })}
        <Deferred name="engine-speed" load=engine_speed loading=|_| "" />
        </div>
        <UnitSwitch unit />
        <Breakdown rows unit />
        {move || vision.get().map(|v| view! {
            <p class="vf-note" data-testid="weights-vision">
                {move || (lang.get().t().weights_with_vision)(&crate::i18n::format::bytes(&lang.get().t().number, unit.get(), v))}
            </p>
        })}
        <Deferred name="results-more" load=more />
    }
}

/// The layers llama.cpp runs from host memory and how many there are, when
/// the report's plan puts some there.
fn host_layers(report: &Report) -> Option<(u64, u64)> {
    match report.estimate.engine.as_ref()? {
        EngineReport::Llamacpp(l) if l.gpu_layers < l.layers_total => {
            Some((l.layers_total - l.gpu_layers, l.layers_total))
        }
        EngineReport::Llamacpp(_) | EngineReport::Vllm(_) => None,
    }
}

/// A memo's comparison that takes every new value as a change.
fn always_changed<T>(_: Option<&T>, _: Option<&T>) -> bool {
    true
}
