//! The list under the first screen's model field
//! ([`crate::components::model_search`]), in the `model` chunk: which
//! catalog models a search matches, the `role="listbox"` that shows them,
//! and the pick applied to the scenario.

use crate::components::model_search::{option_id, ModelSearch, LIST_ID};
use crate::components::switch::{edit_announcing, notice};
use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::scenario::ModelRef;

/// The ids among `ids` that contain every word of `query` (ignoring case),
/// best first: those whose name (after the owner's slash) starts with the
/// first word, then the shorter ids (the base model before its variants),
/// then catalog order. An empty query matches every id, in catalog order.
pub fn matching<'a>(ids: impl IntoIterator<Item = &'a str>, query: &str) -> Vec<&'a str> {
    let query = query.to_lowercase();
    let words: Vec<&str> = query.split_whitespace().collect();
    let Some(first) = words.first() else {
        return ids.into_iter().collect();
    };
    let mut found: Vec<(bool, usize, &'a str)> = ids
        .into_iter()
        .filter_map(|id| {
            let lower = id.to_lowercase();
            if !words.iter().all(|w| lower.contains(w)) {
                return None;
            }
            let name = lower.rsplit('/').next().unwrap_or(&lower);
            Some((!name.starts_with(first), id.len(), id))
        })
        .collect();
    // A stable sort keeps the catalog order among equals.
    found.sort_by_key(|&(later, len, _)| (later, len));
    found.into_iter().map(|(_, _, id)| id).collect()
}

/// Scrolls the list (not the page) so that the option `id` shows.
fn keep_in_view(id: &str) -> Option<()> {
    use wasm_bindgen::JsCast;
    let document = web_sys::window()?.document()?;
    let list = document.get_element_by_id(LIST_ID)?;
    let option: web_sys::HtmlElement = document.get_element_by_id(id)?.dyn_into().ok()?;
    let (top, bottom) = (
        option.offset_top(),
        option.offset_top() + option.offset_height(),
    );
    if top < list.scroll_top() {
        list.set_scroll_top(top);
    } else if bottom > list.scroll_top() + list.client_height() {
        list.set_scroll_top(bottom - list.client_height());
    }
    Some(())
}

/// The listbox, and the effects that fill it and apply a pick.
#[component]
pub fn ModelOptions(
    /// What the field and the list share.
    search: ModelSearch,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let parts = crate::parts::use_parts();
    let notice = notice();
    // The matches follow the text (and the catalog, should it come again
    // after a retry); the arrow keys start on the chosen model.
    Effect::new(move |_| {
        parts.catalog.track();
        let filter = search.filter();
        let ids = vramfit_core::catalog::models::all()
            .iter()
            .map(|m| m.id.as_str());
        let found = matching(ids, &filter);
        let chosen = search.chosen();
        let start = found.iter().position(|id| *id == chosen).unwrap_or(0);
        search.active.set(start);
        search.matches.set(found);
    });
    Effect::new(move |_| {
        if let Some(id) = search.picked.get() {
            search.picked.set(None);
            edit_announcing(notice, search.input, |i| {
                i.set_model((!id.is_empty()).then(|| ModelRef::Catalog(id.to_string())))
            });
        }
    });
    // The active option stays in view as the arrow keys move.
    Effect::new(move |_| {
        let at = search.active.get();
        if !search.open.get() {
            return;
        }
        keep_in_view(&option_id(at));
    });
    view! {
        <ul
            id=LIST_ID
            class="vf-combo__list"
            role="listbox"
            data-testid="model-options"
            aria-label=move || t().model_search_label
            hidden=move || !search.open.get()
        >
            // Back to typed numbers, while nothing is typed.
            <Show when=move || search.filter().trim().is_empty()>
                <li
                    class="vf-combo__option vf-combo__manual"
                    role="option"
                    aria-selected="false"
                    data-testid="model-manual"
                    on:mousedown=|ev| ev.prevent_default()
                    on:click=move |_| search.choose("")
                >
                    {move || t().model_manual_option}
                </li>
            </Show>
            {move || search.matches.with(|m| m.iter().copied().enumerate().map(|(i, id)| view! {
                <li
                    id=option_id(i)
                    class="vf-combo__option"
                    role="option"
                    data-testid="model-option"
                    data-id=id
                    aria-selected=move || (search.active.get() == i).to_string()
                    on:mousedown=|ev| ev.prevent_default()
                    on:click=move |_| search.choose(id)
                >
                    {id}
                </li>
            }).collect_view())}
            <Show when=move || search.matches.with(Vec::is_empty)>
                <li class="vf-combo__none" role="option" aria-disabled="true" aria-selected="false" data-testid="model-none">
                    {move || t().model_search_none}
                </li>
            </Show>
        </ul>
    }
}
