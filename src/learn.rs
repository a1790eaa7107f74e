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

use crate::i18n::use_lang;
use crate::lesson::LessonPanel;
use crate::notebook::{Notebook, NotebookPanel};
use leptos::prelude::*;
use vramfit_core::report::Report;
use vramfit_core::request::Request;

pub use crate::parts::ChunkUnavailable;

/// The lesson and the notebook panel, sharing the browser's notebook: the
/// split point. With the feature `split` this is an `async fn` that first
/// loads the `learn` chunk (`fallible`: a failed load is an `Err`, never a
/// panic, which would abort the whole module).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(learn, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn learn_panels(
    input: RwSignal<Request>,
    report: Memo<Option<Report>>,
) -> Result<AnyView, ChunkUnavailable> {
    let notebook = Notebook::open();
    Ok(view! {
        <LessonPanel input report notebook />
        <NotebookPanel input notebook />
    }
    .into_any())
}

/// [`learn_panels`], awaited where it is split, called where it is not;
/// shown once their style sheet is in (fetched beside the chunk), so that
/// they never appear unstyled.
async fn load(
    input: RwSignal<Request>,
    report: Memo<Option<Report>>,
) -> Result<AnyView, ChunkUnavailable> {
    let sheet = crate::styles::ready(crate::styles::Sheet::Notebook);
    #[cfg(feature = "split")]
    let panels = learn_panels(input, report).await;
    #[cfg(not(feature = "split"))]
    let panels = learn_panels(input, report);
    if let Some(sheet) = sheet {
        let _ = sheet.await;
    }
    panels
}

/// The lesson and the notebook once their chunk is here; a loading line
/// before, a message and a retry button if it cannot be fetched.
#[component]
pub fn LearnPanels(
    /// The calculator's scenario.
    input: RwSignal<Request>,
    /// The last good report.
    report: Memo<Option<Report>>,
) -> impl IntoView {
    let page_lang = use_lang();
    let t = move || page_lang.get().t();
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
            <p class="vf-note" role="status" data-testid="learn-loading">{move || t().learn_loading}</p>
        }
    };
    view! {
        <Suspense fallback=loading>
            {move || {
                attempt.track();
                painted.get().then(|| Suspend::new(async move {
                    match load(input, report).await {
                        Ok(panels) => panels,
                        Err(ChunkUnavailable) => view! {
                            <div class="vf-nb-warning" role="alert" data-testid="learn-unavailable">
                                <p>{move || t().learn_unavailable}</p>
                                <button
                                    type="button"
                                    class="vf-nb-button"
                                    data-testid="learn-retry"
                                    on:click=move |_| attempt.update(|n| *n += 1)
                                >
                                    {move || t().learn_retry}
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
