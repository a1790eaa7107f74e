//! The page: inputs on the left, results on the right. One memo holds the
//! report; the ring, the total, the breakdown and the export read from it.

use crate::components::{Breakdown, NumberField, TotalMemory, UtilizationRing};
use crate::download::download_text;
use leptos::prelude::*;
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
                <div class="vf-fields">
                    {Field::ALL.into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
                </div>
            </section>
            <aside class="vf-results" aria-labelledby="vf-step-3">
                <h2 id="vf-step-3" class="vf-step"><span class="vf-step__n">"03"</span>"Revisar resultados"</h2>
                {move || report.get().map(|doc| view! { <ResultsPanel doc unit /> })}
            </aside>
        </main>
    }
}

/// The results column for one report.
#[component]
fn ResultsPanel(
    /// The report to show.
    doc: Report,
    /// Display unit, switchable here.
    unit: RwSignal<DisplayUnit>,
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
        <button class="vf-button" type="button" data-testid="export-json" on:click=export>
            "Exportar JSON"
        </button>
        <p class="vf-note">
            "La vista puede estar truncada; el JSON exportado incluye todos los resultados calculados."
        </p>
    }
}

/// GB (10⁹) / GiB (2³⁰) switch for every figure.
#[component]
fn UnitSwitch(
    /// The unit every figure is shown in.
    unit: RwSignal<DisplayUnit>,
) -> impl IntoView {
    let option = move |u: DisplayUnit| {
        view! {
            <button
                type="button"
                class="vf-seg__option"
                data-testid=format!("unit-{}", u.label().to_lowercase())
                aria-pressed=move || (unit.get() == u).to_string()
                on:click=move |_| unit.set(u)
            >
                {u.label()}
            </button>
        }
    };
    view! {
        <div class="vf-seg" role="group" aria-label="Unidad">
            {option(DisplayUnit::Gb)}
            {option(DisplayUnit::Gib)}
        </div>
    }
}
