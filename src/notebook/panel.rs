//! The notebook panel: add, list, edit, delete, open an entry's scenario,
//! export, import, clear with a confirmation and an undo; warnings when the
//! notebook lives in memory only.

use super::handle::Notebook;
use super::persist::Health;
use super::store::{Entry, Observed, Prediction};
use super::texts::{scenario_summary, step_name, NotebookTexts, Step};
use super::web;
use crate::components::UnitButtons;
use crate::download::download_text;
use crate::i18n::{format, use_lang, Lang};
use leptos::prelude::*;
use vramfit_core::request::Request;
use vramfit_core::units::DisplayUnit;

/// What the method gives for `input`, if it estimates it.
pub fn observe(input: &Request) -> Option<Observed> {
    input.run().ok().map(|r| Observed {
        method: r.method,
        total_bytes: r.total_bytes,
    })
}

/// The notebook, listed newest first, with everything a student does to it.
#[component]
pub fn NotebookPanel(
    /// The calculator's scenario: recorded by "add", set by "open".
    input: RwSignal<Request>,
    /// The language; by default the page's.
    #[prop(into, optional)]
    lang: Option<Signal<Lang>>,
    /// The page's notebook (share it with the lesson); by default the
    /// browser's.
    #[prop(optional)]
    notebook: Option<Notebook>,
) -> impl IntoView {
    let notebook = notebook.unwrap_or_else(Notebook::open);
    let lang = lang.unwrap_or_else(use_lang);
    let lang = Memo::new(move |_| lang.get());
    let t = move || lang.get().notebook();
    let confirming = RwSignal::new(false);
    let editing = RwSignal::new(None::<String>);
    let paste = RwSignal::new(String::new());

    let export = move || {
        if let Err(why) = download_text(
            "vramfit-notebook.json",
            "application/json",
            &notebook.export_json(),
        ) {
            notebook.import_failed(why);
        }
    };
    let add = move |_| {
        let scenario = input.get_untracked();
        let observed = observe(&scenario);
        notebook.add(scenario, observed);
    };
    let on_file = move |ev: leptos::ev::Event| {
        let field = event_target::<web_sys::HtmlInputElement>(&ev);
        web::read_chosen_file(&field, move |result| match result {
            Ok(text) => notebook.import_text(&text),
            Err(why) => notebook.import_failed(why),
        });
        field.set_value("");
    };
    let count = move || notebook.entries().len();
    let asking = move || confirming.get() && count() != 0;
    let newest_first = move || {
        let mut entries = notebook.entries();
        entries.reverse();
        entries
    };

    let warning = move || {
        let text = match notebook.health() {
            Health::Saved => return None,
            Health::QuotaExceeded => t().quota.to_string(),
            Health::Unavailable => t().unavailable.to_string(),
            Health::Frozen => t().frozen.to_string(),
            Health::WriteFailed(why) => (lang.get().notebook().write_failed)(&why),
        };
        Some(view! {
            <div class="vf-nb-warning" role="alert" data-testid="notebook-warning">
                <p>{text}</p>
                <button type="button" class="vf-nb-button" data-testid="notebook-warning-export" on:click=move |_| export()>
                    {move || t().export_now}
                </button>
            </div>
        })
    };
    let notices = move || {
        notebook
            .notices()
            .into_iter()
            .enumerate()
            .map(|(index, notice)| {
                let words = (lang.get().notebook().notice)(&notice);
                view! {
                    <div class="vf-nb-notice" role="status" data-testid="notebook-notice">
                        <p>{words}</p>
                        <button type="button" class="vf-link" data-testid="notebook-notice-dismiss" on:click=move |_| notebook.dismiss(index)>
                            {move || t().dismiss}
                        </button>
                    </div>
                }
            })
            .collect_view()
    };
    let undo_bar = move || {
        notebook.pending_undo().map(|undo| {
            let words = if undo.cleared {
                (lang.get().notebook().undo_clear)(undo.entries.len())
            } else {
                t().undo_delete.to_string()
            };
            view! {
                <div class="vf-nb-undo" role="status">
                    <span>{words}</span>
                    <button type="button" class="vf-nb-button" data-testid="notebook-undo" on:click=move |_| notebook.undo()>
                        {move || t().undo}
                    </button>
                </div>
            }
        })
    };

    view! {
        <section
            class="vf-notebook"
            id="vf-notebook"
            data-testid="notebook-panel"
            lang=move || lang.get().code()
            aria-labelledby="vf-notebook-title"
        >
            <h2 id="vf-notebook-title" class="vf-lesson__title">{move || t().title}</h2>
            <p class="vf-note">{move || t().intro}</p>
            {warning}
            {notices}
            <div class="vf-nb-actions">
                <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="notebook-add" on:click=add>
                    {move || t().add}
                </button>
                <button type="button" class="vf-nb-button" data-testid="notebook-export" on:click=move |_| export()>
                    {move || t().export}
                </button>
                <label class="vf-nb-button vf-nb-file">
                    {move || t().import}
                    <input
                        type="file"
                        accept="application/json,.json"
                        class="vf-visually-hidden"
                        data-testid="notebook-import"
                        on:change=on_file
                    />
                </label>
                <button
                    type="button"
                    class="vf-nb-button vf-nb-button--danger"
                    data-testid="notebook-clear"
                    disabled=move || count() == 0
                    on:click=move |_| confirming.set(true)
                >
                    {move || t().clear}
                </button>
            </div>
            <Show when=asking>
                <div class="vf-nb-confirm" role="alertdialog" aria-labelledby="vf-nb-confirm-q">
                    <p id="vf-nb-confirm-q">{move || (lang.get().notebook().clear_question)(count())}</p>
                    <button
                        type="button"
                        class="vf-nb-button vf-nb-button--danger"
                        data-testid="notebook-clear-confirm"
                        on:click=move |_| {
                            confirming.set(false);
                            notebook.clear();
                        }
                    >
                        {move || t().confirm_clear}
                    </button>
                    <button type="button" class="vf-nb-button" data-testid="notebook-clear-cancel" on:click=move |_| confirming.set(false)>
                        {move || t().cancel}
                    </button>
                </div>
            </Show>
            {undo_bar}
            <Show when=move || count() == 0>
                <p class="vf-note" data-testid="notebook-empty">{move || t().empty}</p>
            </Show>
            <ol class="vf-nb-list" aria-label=move || t().entries_label>
                <For
                    each=newest_first
                    key=|e| (e.id.clone(), e.updated_at)
                    children=move |entry| view! { <EntryView entry notebook input lang editing /> }
                />
            </ol>
            <details class="vf-nb-paste">
                <summary>{move || t().import_paste}</summary>
                <textarea
                    class="vf-config"
                    rows="4"
                    spellcheck="false"
                    data-testid="notebook-import-text"
                    prop:value=move || paste.get()
                    on:input=move |ev| paste.set(event_target_value(&ev))
                ></textarea>
                <button
                    type="button"
                    class="vf-nb-button"
                    data-testid="notebook-import-paste"
                    on:click=move |_| {
                        notebook.import_text(&paste.get_untracked());
                        paste.set(String::new());
                    }
                >
                    {move || t().import_paste_button}
                </button>
            </details>
        </section>
    }
}

/// One entry: read, or edited in place.
#[component]
fn EntryView(
    entry: Entry,
    notebook: Notebook,
    input: RwSignal<Request>,
    #[prop(into)] lang: Signal<Lang>,
    editing: RwSignal<Option<String>>,
) -> impl IntoView {
    let id = entry.id.clone();
    let is_editing = {
        let id = id.clone();
        move || editing.get().as_deref() == Some(id.as_str())
    };
    let t = move || lang.get().notebook();
    let entry_for_view = entry.clone();
    let read = move || {
        let e = entry_for_view.clone();
        let l = lang.get();
        let unit = e.prediction.map_or(DisplayUnit::Gb, |p| p.unit);
        let prediction = e.prediction.map_or_else(
            || t().none.to_string(),
            |p| {
                format!(
                    "{} {}",
                    format::decimal(&l.t().number, p.value, 2),
                    p.unit.label()
                )
            },
        );
        let observed = e.observed.map_or_else(
            || t().none.to_string(),
            |o| {
                format!(
                    "{} ({})",
                    format::bytes(&l.t().number, unit, o.total_bytes),
                    o.method.id()
                )
            },
        );
        let discrepancy = e.discrepancy.map_or_else(
            || t().none.to_string(),
            |d| {
                let pct = d
                    .percent
                    .map(|p| format!(" ({})", format::signed_percent(&l.t().number, p)))
                    .unwrap_or_default();
                format!(
                    "{}{pct}",
                    format::signed_bytes(&l.t().number, unit, d.difference_bytes)
                )
            },
        );
        let texts = [
            (t().notes, e.notes.clone(), "notes"),
            (
                t().counterexample,
                e.counterexample.clone(),
                "counterexample",
            ),
            (t().reason, e.reason.clone(), "reason"),
            (t().transfer_test, e.transfer_test.clone(), "transfer"),
        ];
        view! {
            <dl class="vf-nb-fields">
                <dt>{t().scenario}</dt>
                <dd data-testid="notebook-entry-scenario">{scenario_summary(l, &e.scenario)}</dd>
                <dt>{t().version}</dt>
                <dd>{if e.app_version.is_empty() { t().none.to_string() } else { e.app_version.clone() }}</dd>
                <dt>{t().prediction}</dt>
                <dd class="vf-num" data-testid="notebook-entry-prediction">{prediction}</dd>
                <dt>{t().observed}</dt>
                <dd class="vf-num" data-testid="notebook-entry-observed">{observed}</dd>
                <dt>{t().discrepancy}</dt>
                <dd
                    class="vf-num"
                    data-testid="notebook-entry-discrepancy"
                    data-bytes=e.discrepancy.map(|d| d.difference_bytes.to_string())
                >
                    {discrepancy}
                </dd>
                {texts
                    .into_iter()
                    .filter(|(_, value, _)| !value.is_empty())
                    .map(|(label, value, key)| view! {
                        <dt>{label}</dt>
                        <dd class="vf-nb-text" data-testid=format!("notebook-entry-{key}")>{value}</dd>
                    })
                    .collect_view()}
            </dl>
        }
    };
    let open = {
        let scenario = entry.scenario.clone();
        move |_| input.set(scenario.clone())
    };
    let start_edit = {
        let id = id.clone();
        move |_| editing.set(Some(id.clone()))
    };
    let delete = {
        let id = id.clone();
        move |_| notebook.delete(&id)
    };
    let when = {
        let created = entry.created_at;
        move || web::format_time(created, lang.get().code())
    };
    let step = entry.step.clone();
    view! {
        <li class="vf-nb-entry" data-testid="notebook-entry" data-entry-id=id.clone()>
            <header class="vf-nb-entry__head">
                <span class="vf-nb-entry__step" data-testid="notebook-entry-step">
                    {move || step_name(lang.get(), &step)}
                </span>
                <time class="vf-nb-entry__time" datetime=web::iso_time(entry.created_at)>{when}</time>
            </header>
            <Show when=is_editing.clone() fallback=read.clone()>
                <EntryEditor entry=entry.clone() notebook lang editing />
            </Show>
            <div class="vf-nb-entry__actions">
                <button type="button" class="vf-link" data-testid="notebook-entry-open" on:click=open.clone()>
                    {move || t().open}
                </button>
                <button type="button" class="vf-link" data-testid="notebook-entry-edit" on:click=start_edit.clone()>
                    {move || t().edit}
                </button>
                <button type="button" class="vf-link vf-nb-danger" data-testid="notebook-entry-delete" on:click=delete.clone()>
                    {move || t().delete}
                </button>
            </div>
        </li>
    }
}

/// The edit form of one entry.
#[component]
fn EntryEditor(
    entry: Entry,
    notebook: Notebook,
    #[prop(into)] lang: Signal<Lang>,
    editing: RwSignal<Option<String>>,
) -> impl IntoView {
    let t = move || lang.get().notebook();
    let step = RwSignal::new(entry.step.clone());
    let value = RwSignal::new(
        entry
            .prediction
            .map(|p| format::decimal(&lang.get_untracked().t().number, p.value, 2))
            .unwrap_or_default(),
    );
    let unit = RwSignal::new(entry.prediction.map_or(DisplayUnit::Gb, |p| p.unit));
    let notes = RwSignal::new(entry.notes.clone());
    let counterexample = RwSignal::new(entry.counterexample.clone());
    let reason = RwSignal::new(entry.reason.clone());
    let transfer = RwSignal::new(entry.transfer_test.clone());
    let invalid = move || {
        let v = value.get();
        !v.trim().is_empty() && format::parse_amount(&lang.get().t().number, &v).is_none()
    };
    let id = entry.id.clone();
    let save = move |_| {
        if invalid() {
            return;
        }
        let number = &lang.get_untracked().t().number;
        let prediction = format::parse_amount(number, &value.get_untracked())
            .and_then(|v| Prediction::new(v, unit.get_untracked()));
        let (step, notes, counterexample, reason, transfer) = (
            step.get_untracked(),
            notes.get_untracked(),
            counterexample.get_untracked(),
            reason.get_untracked(),
            transfer.get_untracked(),
        );
        notebook.update(&id, move |e| {
            e.step = step;
            e.prediction = prediction;
            e.notes = notes.trim().to_string();
            e.counterexample = counterexample.trim().to_string();
            e.reason = reason.trim().to_string();
            e.transfer_test = transfer.trim().to_string();
        });
        editing.set(None);
    };
    let field = move |label: fn(&NotebookTexts) -> &'static str,
                      signal: RwSignal<String>,
                      key: &'static str| {
        view! {
            <label class="vf-nb-edit__field">
                <span class="vf-field__label">{move || label(t())}</span>
                <textarea
                    class="vf-config"
                    rows="2"
                    data-testid=format!("notebook-edit-{key}")
                    prop:value=move || signal.get()
                    on:input=move |ev| signal.set(event_target_value(&ev))
                ></textarea>
            </label>
        }
    };
    view! {
        <div class="vf-nb-edit">
            <label class="vf-nb-edit__field">
                <span class="vf-field__label">{move || t().step}</span>
                <select
                    class="vf-select"
                    data-testid="notebook-edit-step"
                    prop:value=move || step.get()
                    on:change=move |ev| step.set(event_target_value(&ev))
                >
                    {Step::ALL
                        .iter()
                        .map(|s| view! { <option value=s.id()>{move || step_name(lang.get(), s.id())}</option> })
                        .collect_view()}
                </select>
            </label>
            <div class="vf-nb-edit__field">
                <label class="vf-field__label" for=format!("vf-nb-edit-{}", entry.id)>{move || t().prediction_value}</label>
                <div class="vf-nb-prediction">
                    <input
                        id=format!("vf-nb-edit-{}", entry.id)
                        class="vf-nb-input"
                        type="text"
                        inputmode="decimal"
                        data-testid="notebook-edit-prediction"
                        aria-invalid=move || invalid().to_string()
                        prop:value=move || value.get()
                        on:input=move |ev| value.set(event_target_value(&ev))
                    />
                    <div class="vf-seg" role="group">
                        <UnitButtons unit testid="notebook-edit-unit-" />
                    </div>
                </div>
                <Show when=invalid>
                    <p class="vf-error">{move || t().invalid_prediction}</p>
                </Show>
            </div>
            {field(|t| t.notes, notes, "notes")}
            {field(|t| t.counterexample, counterexample, "counterexample")}
            {field(|t| t.reason, reason, "reason")}
            {field(|t| t.transfer_test, transfer, "transfer")}
            <div class="vf-nb-entry__actions">
                <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="notebook-edit-save" on:click=save>
                    {move || t().save}
                </button>
                <button type="button" class="vf-nb-button" data-testid="notebook-edit-cancel" on:click=move |_| editing.set(None)>
                    {move || t().cancel}
                </button>
            </div>
        </div>
    }
}
