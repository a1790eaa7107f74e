//! The lesson and the notebook, loaded after the first result.
//!
//! Both panels sit below the fold and the first result needs neither, so in
//! the release build (feature `split`) their code is a chunk of its own:
//! [`learn_panels`] is a split point, and everything only it reaches (the
//! lesson, the notebook's panel, store and storage) leaves the main module.
//! [`LearnPanels`] asks for the chunk once the page has painted its first
//! result; until it arrives the place shows a loading line, and if it cannot
//! be fetched (offline on a first visit, a host that lost the file) a
//! message and a retry button, while the calculator keeps working. Without
//! the feature (`cargo test`, `cargo clippy`) the split point is a plain
//! call.
//!
//! How the split is built and how to add another split point: docs/size.md.

use crate::i18n::{use_lang, Lang};
use crate::lesson::LessonPanel;
use crate::notebook::{Notebook, NotebookPanel};
use leptos::prelude::*;
use vramfit_core::report::Report;
use vramfit_core::scenario::ScenarioInput;

/// The chunk holding the panels could not be fetched or instantiated (the
/// loader has written why to the console). Not cached: a later call tries
/// again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkUnavailable;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkUnavailable {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkUnavailable
    }
}

/// The lesson and the notebook panel, sharing the browser's notebook: the
/// split point. With the feature `split` this is an `async fn` that first
/// loads the `learn` chunk (`fallible`: a failed load is an `Err`, never a
/// panic, which would abort the whole module).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(learn, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn learn_panels(
    input: RwSignal<ScenarioInput>,
    report: Memo<Option<Report>>,
    lang: Signal<&'static str>,
) -> Result<AnyView, ChunkUnavailable> {
    let notebook = Notebook::open();
    Ok(view! {
        <LessonPanel input report lang notebook />
        <NotebookPanel input lang notebook />
    }
    .into_any())
}

/// [`learn_panels`], awaited where it is split, called where it is not.
async fn load(
    input: RwSignal<ScenarioInput>,
    report: Memo<Option<Report>>,
    lang: Signal<&'static str>,
) -> Result<AnyView, ChunkUnavailable> {
    #[cfg(feature = "split")]
    let panels = learn_panels(input, report, lang).await;
    #[cfg(not(feature = "split"))]
    let panels = learn_panels(input, report, lang);
    panels
}

/// The words of the loading and the failed states (three short lines, kept
/// here until the panels' own texts move into the language tables).
struct Words {
    loading: &'static str,
    unavailable: &'static str,
    retry: &'static str,
}

fn words(lang: Lang) -> Words {
    match lang {
        Lang::Es => Words {
            loading: "Cargando la lección y el cuaderno…",
            unavailable: "No se pudieron cargar la lección y el cuaderno (¿sin conexión?). La calculadora sigue funcionando.",
            retry: "Reintentar",
        },
        Lang::En => Words {
            loading: "Loading the lesson and the notebook…",
            unavailable: "The lesson and the notebook could not be loaded (offline?). The calculator keeps working.",
            retry: "Try again",
        },
        Lang::Nl => Words {
            loading: "De les en het notitieboek worden geladen…",
            unavailable: "De les en het notitieboek konden niet worden geladen (offline?). De calculator blijft werken.",
            retry: "Opnieuw proberen",
        },
    }
}

/// The lesson and the notebook once their chunk is here; a loading line
/// before, a message and a retry button if it cannot be fetched.
#[component]
pub fn LearnPanels(
    /// The calculator's scenario.
    input: RwSignal<ScenarioInput>,
    /// The last good report.
    report: Memo<Option<Report>>,
    /// Language code of the panels.
    #[prop(into)]
    lang: Signal<&'static str>,
) -> impl IntoView {
    let page_lang = use_lang();
    let w = move || words(page_lang.get());
    // Each retry is a new attempt (the loader caches successes only).
    let attempt = RwSignal::new(0_u32);
    // The chunk is asked for once the page has painted the frame it mounts
    // in (the next animation frame, then a task, as boot.js waits before it
    // registers the offline worker): its download and compilation never
    // delay the first result.
    let painted = RwSignal::new(false);
    request_animation_frame(move || {
        set_timeout(
            move || {
                let _ = painted.try_set(true);
            },
            std::time::Duration::ZERO,
        )
    });
    let loading = move || {
        view! {
            <p class="vf-note" role="status" data-testid="learn-loading">{move || w().loading}</p>
        }
    };
    view! {
        <Suspense fallback=loading>
            {move || {
                attempt.track();
                painted.get().then(|| Suspend::new(async move {
                    match load(input, report, lang).await {
                        Ok(panels) => panels,
                        Err(ChunkUnavailable) => view! {
                            <div class="vf-nb-warning" role="alert" data-testid="learn-unavailable">
                                <p>{move || w().unavailable}</p>
                                <button
                                    type="button"
                                    class="vf-nb-button"
                                    data-testid="learn-retry"
                                    on:click=move |_| attempt.update(|n| *n += 1)
                                >
                                    {move || w().retry}
                                </button>
                            </div>
                        }
                        .into_any(),
                    }
                }))
            }}
        </Suspense>
    }
}
