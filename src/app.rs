//! The page: inputs on the left, results on the right. One memo holds the
//! report; the ring, the total, the breakdown, the methods table and the
//! export all read from it.

use crate::components::{
    Breakdown, MethodPicker, MethodsTable, ModePicker, NumberField, TotalMemory, UnitSwitch,
    UtilizationRing,
};
use crate::download::download_text;
use leptos::prelude::*;
use vramfit_core::methods::MethodId;
use vramfit_core::report::{self, Report};
use vramfit_core::scenario::{Field, ScenarioInput};
use vramfit_core::units::DisplayUnit;

/// The whole calculator, opened on seed 004's worked example.
#[component]
pub fn App() -> impl IntoView {
    let input = RwSignal::new(ScenarioInput::default());
    let unit = RwSignal::new(DisplayUnit::Gb);
    // Fields only write values the core accepts, so this always builds; if
    // it ever did not, the last good report stays.
    let report = Memo::new(move |previous: Option<&Option<Report>>| {
        report::build(&input.get())
            .ok()
            .or_else(|| previous.cloned().flatten())
    });
    let method = Memo::new(move |_| input.with(|i| i.method));
    view! {
        <header class="vf-header">
            <h1 class="vf-title">"vramfit"</h1>
            <p class="vf-subtitle">
                "Cuánta memoria de GPU necesita un modelo de lenguaje, antes de descargarlo."
            </p>
        </header>
        <main class="vf-layout">
            <section class="vf-steps" aria-labelledby="vf-step-1">
                <h2 id="vf-step-1" class="vf-step"><span class="vf-step__n">"01"</span>"Configurar"</h2>
                <ModePicker input />
                <MethodPicker input />
                <div class="vf-fields">
                    {shared_fields().into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
                </div>
                <h3 class="vf-subhead">"Ajustes del método"</h3>
                {move || {
                    let fields = method.get().own_fields();
                    view! {
                        <div class="vf-fields">
                            {fields.iter().map(|&field| view! { <NumberField field input /> }).collect_view()}
                        </div>
                    }
                }}
            </section>
            <aside class="vf-results" aria-labelledby="vf-step-3">
                <h2 id="vf-step-3" class="vf-step"><span class="vf-step__n">"03"</span>"Revisar resultados"</h2>
                {move || report.get().map(|doc| view! { <ResultsPanel doc unit input /> })}
            </aside>
        </main>
    }
}

/// The fields every method reads (model shape, formats, workload, GPU).
fn shared_fields() -> [Field; 9] {
    MethodId::SHARED_FIELDS
}

/// The results column for one report.
#[component]
fn ResultsPanel(
    /// The report to show.
    doc: Report,
    /// Display unit, switchable here.
    unit: RwSignal<DisplayUnit>,
    /// The scenario, so that a method can be picked from the table.
    input: RwSignal<ScenarioInput>,
) -> impl IntoView {
    let estimate = doc.estimate.clone();
    let verdict = Signal::derive({
        let v = estimate.verdict.clone();
        move || v.clone()
    });
    let result = Signal::derive(move || estimate.clone());
    let methods = doc.methods.clone();
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
        <MethodsTable methods selected=doc.estimate.method unit input />
        <button class="vf-button" type="button" data-testid="export-json" on:click=export>
            "Exportar JSON"
        </button>
        <p class="vf-note">
            "La vista puede estar truncada; el JSON exportado incluye todos los resultados calculados."
        </p>
    }
}
