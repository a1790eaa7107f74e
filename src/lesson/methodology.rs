//! The methodology, readable in the lesson: the same Markdown pages as
//! `docs/` (copied beside the app by the build, see `index.html`), fetched
//! when the reader opens them and shown by the [`markdown`](super::markdown)
//! reader — text nodes only, so nothing in a page can run. A link to
//! another methodology page opens it here; nothing points into the
//! repository.

use super::markdown::{self, Block, Inline, Target};
use crate::i18n::Lang;
use leptos::prelude::*;
use vramfit_core::methods::MethodId;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A page of the methodology.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doc {
    /// Every method side by side; `quick` and `lesson` in full.
    Methodology,
    Range,
    Planner,
    Allocator,
    Vllm,
    Llamacpp,
}

impl Doc {
    /// Every page, in the order the reader lists them.
    pub const ALL: [Doc; 6] = [
        Doc::Methodology,
        Doc::Range,
        Doc::Planner,
        Doc::Allocator,
        Doc::Vllm,
        Doc::Llamacpp,
    ];

    /// Where the build puts the page, relative to the app.
    pub const fn path(self) -> &'static str {
        match self {
            Doc::Methodology => "docs/methodology.md",
            Doc::Range => "docs/methods/range.md",
            Doc::Planner => "docs/methods/planner.md",
            Doc::Allocator => "docs/allocator-derivation.md",
            Doc::Vllm => "docs/methods/vllm.md",
            Doc::Llamacpp => "docs/methods/llamacpp.md",
        }
    }

    /// The page a link names by its file (`"range.md"`).
    pub fn from_file(file: &str) -> Option<Doc> {
        Doc::ALL
            .into_iter()
            .find(|d| d.path().rsplit('/').next() == Some(file))
    }

    /// Its id in `data-testid`s (`"range"`).
    pub const fn id(self) -> &'static str {
        match self {
            Doc::Methodology => "methodology",
            Doc::Range => "range",
            Doc::Planner => "planner",
            Doc::Allocator => "allocator",
            Doc::Vllm => "vllm",
            Doc::Llamacpp => "llamacpp",
        }
    }

    /// The page that derives `method`.
    pub const fn of(method: MethodId) -> Doc {
        match method {
            MethodId::Quick | MethodId::Lesson => Doc::Methodology,
            MethodId::Range => Doc::Range,
            MethodId::Planner => Doc::Planner,
            MethodId::Allocator => Doc::Allocator,
            MethodId::Vllm => Doc::Vllm,
            MethodId::Llamacpp => Doc::Llamacpp,
        }
    }
}

/// Why a page did not arrive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchFailed;

/// The text of `doc`, fetched from the app's own site.
pub async fn fetch(doc: Doc) -> Result<String, FetchFailed> {
    let window = web_sys::window().ok_or(FetchFailed)?;
    let response = JsFuture::from(window.fetch_with_str(doc.path()))
        .await
        .map_err(|_| FetchFailed)?
        .dyn_into::<web_sys::Response>()
        .map_err(|_| FetchFailed)?;
    if !response.ok() {
        return Err(FetchFailed);
    }
    let text = JsFuture::from(response.text().map_err(|_| FetchFailed)?)
        .await
        .map_err(|_| FetchFailed)?;
    text.as_string().ok_or(FetchFailed)
}

/// The reader: one page at a time, chosen from the list, the method's own
/// first.
#[component]
pub(super) fn Methodology(lang: Memo<Lang>, method: Memo<MethodId>) -> impl IntoView {
    let t = move || lang.get().lesson();
    let open = RwSignal::new(false);
    let chosen = RwSignal::new(None::<Doc>);
    let doc = Memo::new(move |_| chosen.get().unwrap_or_else(|| Doc::of(method.get())));
    let attempt = RwSignal::new(0_u32);
    let page = LocalResource::new(move || {
        let (doc, show) = (doc.get(), open.get());
        attempt.track();
        async move {
            match show {
                true => Some(fetch(doc).await.map(|text| markdown::parse(&text))),
                false => None,
            }
        }
    });
    let body = move || match page.get() {
        None | Some(None) => view! {
            <p class="vf-note" data-testid="methodology-loading">{t().methodology_loading}</p>
        }
        .into_any(),
        Some(Some(Err(FetchFailed))) => view! {
            <p class="vf-error" data-testid="methodology-failed">
                {t().methodology_failed} " "
                <button type="button" class="vf-link" on:click=move |_| attempt.update(|n| *n += 1)>
                    {t().methodology_retry}
                </button>
            </p>
        }
        .into_any(),
        Some(Some(Ok(blocks))) => view! {
            <div class="vf-doc" lang="en" data-testid="methodology-page" data-doc=doc.get().id()>
                {render(&blocks, chosen)}
            </div>
        }
        .into_any(),
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-methodology">
            <h3 class="vf-lesson__heading">{move || t().methodology_title}</h3>
            <p>{move || t().methodology_intro} " " <em>{move || t().methodology_language}</em></p>
            <div class="vf-lesson__chips" role="group" aria-label=move || t().methodology_title>
                {Doc::ALL.into_iter().map(|d| view! {
                    <button
                        type="button"
                        class="vf-chip"
                        data-testid=format!("methodology-doc-{}", d.id())
                        aria-pressed=move || (open.get() && doc.get() == d).to_string()
                        on:click=move |_| {
                            let again = open.get_untracked() && doc.get_untracked() == d;
                            chosen.set(Some(d));
                            open.set(!again);
                        }
                    >
                        {move || (t().doc_title)(d)}
                    </button>
                }).collect_view()}
            </div>
            <Show when=move || open.get()>
                {body}
            </Show>
        </div>
    }
}

/// The blocks of a page as views (text nodes only).
pub fn render(blocks: &[Block], chosen: RwSignal<Option<Doc>>) -> AnyView {
    blocks
        .iter()
        .map(|b| block(b, chosen))
        .collect_view()
        .into_any()
}

fn block(b: &Block, chosen: RwSignal<Option<Doc>>) -> AnyView {
    let runs = |r: &[Inline]| inlines(r, chosen);
    match b {
        Block::Heading(level, text) => {
            let inner = runs(text);
            match level {
                1 => view! { <h4 class="vf-doc__h1">{inner}</h4> }.into_any(),
                2 => view! { <h5 class="vf-doc__h2">{inner}</h5> }.into_any(),
                _ => view! { <h6 class="vf-doc__h3">{inner}</h6> }.into_any(),
            }
        }
        Block::Paragraph(text) => view! { <p>{runs(text)}</p> }.into_any(),
        Block::List { ordered, items } => {
            let items = items
                .iter()
                .map(|i| view! { <li>{runs(i)}</li> })
                .collect_view();
            match ordered {
                true => view! { <ol class="vf-lesson__list">{items}</ol> }.into_any(),
                false => view! { <ul class="vf-lesson__list">{items}</ul> }.into_any(),
            }
        }
        Block::Quote(paragraphs) => view! {
            <blockquote class="vf-doc__quote">
                {paragraphs.iter().map(|p| view! { <p>{runs(p)}</p> }).collect_view()}
            </blockquote>
        }
        .into_any(),
        Block::Code(code) => view! { <pre class="vf-lesson__pre"><code>{code.clone()}</code></pre> }.into_any(),
        Block::Table { head, rows } => view! {
            <div class="vf-lesson__scroll">
                <table class="vf-lesson__table vf-doc__table">
                    <thead><tr>{head.iter().map(|c| view! { <th scope="col">{runs(c)}</th> }).collect_view()}</tr></thead>
                    <tbody>
                        {rows.iter().map(|r| view! {
                            <tr>{r.iter().map(|c| view! { <td>{runs(c)}</td> }).collect_view()}</tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        }
        .into_any(),
    }
}

fn inlines(runs: &[Inline], chosen: RwSignal<Option<Doc>>) -> AnyView {
    runs.iter()
        .map(|r| match r {
            Inline::Text(t) => t.clone().into_any(),
            Inline::Code(c) => view! { <code>{c.clone()}</code> }.into_any(),
            Inline::Strong(inner) => view! { <strong>{inlines(inner, chosen)}</strong> }.into_any(),
            Inline::Emphasis(inner) => view! { <em>{inlines(inner, chosen)}</em> }.into_any(),
            Inline::Link { text, target } => match target {
                Target::Page(file) => match Doc::from_file(file) {
                    Some(d) => view! {
                        <button type="button" class="vf-link" data-testid=format!("methodology-link-{}", d.id()) on:click=move |_| chosen.set(Some(d))>
                            {inlines(text, chosen)}
                        </button>
                    }
                    .into_any(),
                    None => inlines(text, chosen),
                },
                Target::Web(url) => view! {
                    <a class="vf-link" href=url.clone() rel="noopener noreferrer" target="_blank">{inlines(text, chosen)}</a>
                }
                .into_any(),
                Target::None => inlines(text, chosen),
            },
        })
        .collect_view()
        .into_any()
}
