//! The page: the three steps on the left, results on the right. One memo
//! holds the outcome of the core's `report::build`; the ring, the total,
//! the breakdown, the methods table, the answers and the export all read
//! the last good report from it.

use crate::advice_panel::{AnswersView, SuggestionsView};
use crate::components::{
    Breakdown, MethodPicker, MethodsTable, ModePicker, NumberField, TotalMemory, UnitSwitch,
    UtilizationRing,
};
use crate::download::download_text;
use crate::model_panel::{ModelInput, ModelSummaryView};
use crate::text;
use crate::training_panel::TrainingKnobs;
use leptos::prelude::*;
use vramfit_core::methods::MethodId;
use vramfit_core::report::{self, Report};
use vramfit_core::scenario::{Field, ScenarioError, ScenarioInput};
use vramfit_core::units::DisplayUnit;

/// Fields that describe the model's shape; a real model replaces them.
const SHAPE_FIELDS: [Field; 4] = [
    Field::ParamsB,
    Field::Layers,
    Field::KvHeads,
    Field::HeadDim,
];

/// The whole calculator, opened on seed 004's worked example.
#[component]
pub fn App() -> impl IntoView {
    let input = RwSignal::new(ScenarioInput::default());
    let unit = RwSignal::new(DisplayUnit::Gb);
    let outcome = Memo::new(move |_| input.with(report::build));
    // The last good report stays on screen while the input has a problem.
    let report = Memo::new(move |previous: Option<&Option<Report>>| {
        outcome.get().ok().or_else(|| previous.cloned().flatten())
    });
    let errors = move |model: bool| {
        outcome.with(|o| match o {
            Ok(_) => Vec::new(),
            Err(all) => all
                .iter()
                .filter(|e| is_model_error(e) == model)
                .cloned()
                .collect(),
        })
    };
    let method = Memo::new(move |_| input.with(|i| i.method));
    let has_model = Memo::new(move |_| input.with(|i| i.model.is_some()));
    view! {
        <header class="vf-header">
            <h1 class="vf-title">"vramfit"</h1>
            <p class="vf-subtitle">
                "Cuánta memoria de GPU necesita un modelo de lenguaje, antes de descargarlo."
            </p>
        </header>
        <main class="vf-layout">
            <div class="vf-steps">
                <section class="vf-step-card" aria-labelledby="vf-step-1">
                    <h2 id="vf-step-1" class="vf-step"><span class="vf-step__n">"01"</span>"Configurar"</h2>
                    <ModePicker input />
                    <MethodPicker input />
                    <div class="vf-fields">
                        {move || shared_fields(has_model.get()).into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
                    </div>
                    <h3 class="vf-subhead">"Ajustes del método"</h3>
                    <Show when=move || method.get() == MethodId::Allocator>
                        <TrainingKnobs input />
                    </Show>
                    {move || {
                        let fields = method.get().own_fields();
                        view! {
                            <div class="vf-fields">
                                {fields.iter().map(|&field| view! { <NumberField field input /> }).collect_view()}
                            </div>
                        }
                    }}
                </section>
                <section class="vf-step-card" aria-labelledby="vf-step-2">
                    <h2 id="vf-step-2" class="vf-step"><span class="vf-step__n">"02"</span>"Añadir entrada"</h2>
                    <ModelInput input model_errors=Signal::derive(move || errors(true)) />
                    {move || report.get().filter(|r| r.model.source != "manual").map(|r| view! { <ModelSummaryView model=r.model /> })}
                </section>
            </div>
            <aside class="vf-results" aria-labelledby="vf-step-3">
                <h2 id="vf-step-3" class="vf-step"><span class="vf-step__n">"03"</span>"Revisar resultados"</h2>
                <p class="vf-error" data-testid="scenario-error" role="alert">
                    {move || errors(false).iter().map(text::scenario_error).collect::<Vec<_>>().join(" ")}
                </p>
                {move || report.get().map(|doc| view! { <ResultsPanel doc unit input /> })}
            </aside>
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

/// The fields every method reads; the shape fields only without a model.
fn shared_fields(has_model: bool) -> Vec<Field> {
    MethodId::SHARED_FIELDS
        .into_iter()
        .filter(|f| !(has_model && SHAPE_FIELDS.contains(f)))
        .collect()
}

/// The results column for one report.
#[component]
fn ResultsPanel(
    /// The report to show.
    doc: Report,
    /// Display unit, switchable here.
    unit: RwSignal<DisplayUnit>,
    /// The scenario, so that a method or a suggestion can be picked.
    input: RwSignal<ScenarioInput>,
) -> impl IntoView {
    let estimate = doc.estimate.clone();
    let verdict = Signal::derive({
        let v = estimate.verdict.clone();
        move || v.clone()
    });
    let result = Signal::derive(move || estimate.clone());
    let json = doc.to_json();
    let export = move |_| {
        if let Err(message) = download_text("vramfit.json", "application/json", &json) {
            leptos::logging::warn!("export failed: {message}");
        }
    };
    view! {
        <UtilizationRing verdict unit />
        <TotalMemory result unit />
        <UnitSwitch unit />
        <Breakdown result unit />
        <SuggestionsView suggestions=doc.suggestions input unit />
        <AnswersView answers=doc.answers />
        <MethodsTable methods=doc.methods selected=doc.estimate.method unit input />
        <button class="vf-button" type="button" data-testid="export-json" on:click=export>
            "Exportar JSON"
        </button>
        <p class="vf-note">
            "La vista puede estar truncada; el JSON exportado incluye todos los resultados calculados."
        </p>
    }
}
