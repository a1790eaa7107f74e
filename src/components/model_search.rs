//! The model picker of the first screen: an ARIA combobox (a text field
//! with `role="combobox"` over a `role="listbox"`) on the model catalog.
//! Type "qwen3 30b", move with the arrow keys, pick with Enter.
//!
//! The field is in the main module, drawn with the first result; the list,
//! its filtering and what a pick does to the scenario come with the `model`
//! chunk once the catalog file is in ([`crate::model_part::model_options`]),
//! so the first load carries neither the catalog nor the method switch that
//! a new model may cause. The two halves share a [`ModelSearch`].

use crate::i18n::use_lang;
use crate::parts::{self, Deferred};
use crate::{model_part, split_call};
use leptos::prelude::*;
use vramfit_core::request::Request;
use vramfit_core::scenario::ModelRef;

/// The listbox's element id (the field's `aria-controls`).
pub const LIST_ID: &str = "vf-model-list";

/// The element id of the option at `index` (the field's
/// `aria-activedescendant`).
pub fn option_id(index: usize) -> String {
    format!("vf-model-opt-{index}")
}

/// What the field and its list share.
#[derive(Clone, Copy)]
pub struct ModelSearch {
    /// The scenario whose model a pick sets.
    pub input: RwSignal<Request>,
    /// The text typed since the field was last picked from or left.
    pub query: RwSignal<String>,
    /// Whether the person is typing (the field then shows `query`, else
    /// the chosen model).
    pub editing: RwSignal<bool>,
    /// Whether the list is shown.
    pub open: RwSignal<bool>,
    /// The option the arrow keys are on.
    pub active: RwSignal<usize>,
    /// The catalog ids the text matches, best first (filled by the list).
    pub matches: RwSignal<Vec<&'static str>>,
    /// A pick not yet applied to the scenario (the list applies it); an
    /// empty id is no model (numbers by hand).
    pub picked: RwSignal<Option<&'static str>>,
}

impl ModelSearch {
    fn new(input: RwSignal<Request>) -> ModelSearch {
        ModelSearch {
            input,
            query: RwSignal::new(String::new()),
            editing: RwSignal::new(false),
            open: RwSignal::new(false),
            active: RwSignal::new(0),
            matches: RwSignal::new(Vec::new()),
            picked: RwSignal::new(None),
        }
    }

    /// The catalog id of the scenario's model (empty for typed numbers or
    /// a pasted config).
    pub fn chosen(self) -> String {
        self.input.with(|i| match &i.scenario.model {
            Some(ModelRef::Catalog(id)) => id.clone(),
            _ => String::new(),
        })
    }

    /// The text the list filters on: nothing (every model) until the person
    /// types.
    pub fn filter(self) -> String {
        match self.editing.get() {
            true => self.query.get(),
            false => String::new(),
        }
    }

    /// Picks a catalog model and closes the list.
    pub fn choose(self, id: &'static str) {
        self.picked.set(Some(id));
        self.close();
    }

    /// Closes the list; the field shows the chosen model again.
    pub fn close(self) {
        self.open.set(false);
        self.editing.set(false);
    }

    /// The arrow keys, Enter and Escape; `true` if the key was the list's.
    fn key(self, key: &str) -> bool {
        let count = self.matches.with_untracked(Vec::len);
        let open = self.open.get_untracked();
        match key {
            "ArrowDown" if open => self
                .active
                .update(|a| *a = (*a + 1).min(count.saturating_sub(1))),
            "ArrowUp" if open => self.active.update(|a| *a = a.saturating_sub(1)),
            "ArrowDown" | "ArrowUp" => self.open.set(true),
            "Home" if open => self.active.set(0),
            "End" if open => self.active.set(count.saturating_sub(1)),
            // An emptied field: numbers by hand, no model.
            "Enter"
                if open
                    && self.editing.get_untracked()
                    && self.query.with_untracked(|q| q.trim().is_empty()) =>
            {
                self.choose("")
            }
            "Enter" if open => {
                let at = self.active.get_untracked();
                if let Some(id) = self.matches.with_untracked(|m| m.get(at).copied()) {
                    self.choose(id);
                }
            }
            "Escape" if open => self.close(),
            _ => return false,
        }
        true
    }
}

/// The model field and, once the catalog is in, its list.
#[component]
pub fn ModelCombobox(
    /// The scenario whose model this sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let parts = parts::use_parts();
    let search = ModelSearch::new(input);
    let options = parts::loader(move || async move {
        parts.fetch_catalog().await;
        split_call!(model_part::model_options(search))
    });
    let on_input = move |ev| {
        search.query.set(event_target_value(&ev));
        search.editing.set(true);
        search.open.set(true);
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if search.key(&ev.key()) {
            ev.prevent_default();
        }
    };
    let descendant = move || {
        let count = search.matches.with(Vec::len);
        (search.open.get() && count > 0).then(|| option_id(search.active.get().min(count - 1)))
    };
    view! {
        <div class="vf-field vf-combo">
            <label class="vf-field__label" for="vf-model">{move || t().model_search_label}</label>
            <input
                id="vf-model"
                class="vf-field__input vf-field__input--text vf-combo__input"
                type="text"
                role="combobox"
                autocomplete="off"
                spellcheck="false"
                data-testid="model-search"
                aria-autocomplete="list"
                aria-controls=LIST_ID
                aria-expanded=move || search.open.get().to_string()
                aria-activedescendant=descendant
                placeholder=move || t().model_search_placeholder
                prop:value=move || if search.editing.get() { search.query.get() } else { search.chosen() }
                on:input=on_input
                on:keydown=on_key
                on:click=move |_| search.open.update(|o| *o = !*o)
                on:blur=move |_| search.close()
            />
            <Deferred name="model-options" load=options loading=|t| t.catalog_loading />
        </div>
    }
}
