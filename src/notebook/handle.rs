//! The notebook as the page holds it: the document in a signal, stored on
//! every change, kept in step with other tabs, plus the lesson's draft (the
//! prediction and notes a new entry takes).

use super::persist::{self, Health, Notice, State};
use super::storage::{BrowserStorage, Storage};
use super::store::{
    self, ContractStep, Entry, MethodProgress, Observed, Prediction, StoredDraft, KEY,
};
use super::texts::Step;
use super::web;
use leptos::prelude::*;
use vramfit_core::request::Request;

/// What the lesson has prepared for the next entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Draft {
    /// The lesson step (`"predict"`, `"transfer"`…); empty: taken from what
    /// the draft holds (a prediction, a transfer test, a counterexample), or
    /// a free note.
    pub step: String,
    /// The student's prediction for the current scenario, if written.
    pub prediction: Option<Prediction>,
    pub notes: String,
    pub counterexample: String,
    /// Why the counterexample breaks the method's conclusion.
    pub reason: String,
    pub transfer_test: String,
}

impl Draft {
    /// The texts kept with the notebook (the prediction belongs to one
    /// blind attempt and is not kept).
    fn stored(&self) -> StoredDraft {
        StoredDraft {
            notes: self.notes.clone(),
            counterexample: self.counterexample.clone(),
            reason: self.reason.clone(),
            transfer_test: self.transfer_test.clone(),
            ..StoredDraft::default()
        }
    }
}

/// Entries removed by the last delete or clear, for an undo.
#[derive(Debug, Clone, PartialEq)]
pub struct Undo {
    pub entries: Vec<Entry>,
    /// A clear (all entries) rather than one delete.
    pub cleared: bool,
}

/// The notebook of the page. `Copy`: pass it to the lesson and to the
/// notebook panel so that both work on the same entries.
#[derive(Clone, Copy)]
pub struct Notebook {
    state: RwSignal<State>,
    undo: RwSignal<Option<Undo>>,
    /// What the next entry takes from the lesson.
    pub draft: RwSignal<Draft>,
    storage: StoredValue<Box<dyn Storage>, LocalStorage>,
}

impl Notebook {
    /// The notebook in this browser's `localStorage`, kept in step with
    /// other tabs of the same site.
    pub fn open() -> Notebook {
        let notebook = Notebook::with_storage(BrowserStorage);
        notebook.listen();
        notebook
    }

    /// A notebook kept in `storage` (the browser's, or an in-memory one).
    /// The lesson's drafts come back as they were last kept (and are kept
    /// from then on once the lesson calls [`Notebook::keep_drafts`]).
    pub fn with_storage(storage: impl Storage + 'static) -> Notebook {
        let state = persist::load(&storage, web::now_ms());
        let kept = &state.document.lesson.draft;
        let draft = Draft {
            notes: kept.notes.clone(),
            counterexample: kept.counterexample.clone(),
            reason: kept.reason.clone(),
            transfer_test: kept.transfer_test.clone(),
            ..Draft::default()
        };
        Notebook {
            state: RwSignal::new(state),
            undo: RwSignal::new(None),
            draft: RwSignal::new(draft),
            storage: StoredValue::new_local(Box::new(storage)),
        }
    }

    /// Stores the drafts' texts whenever they change, for as long as the
    /// calling component lives (an effect: call it from a component).
    pub fn keep_drafts(self) {
        Effect::new(move |_| {
            let texts = self.draft.with(Draft::stored);
            let changed = self
                .state
                .try_with_untracked(|s| !s.document.lesson.draft.same_texts(&texts))
                .unwrap_or(false);
            if changed {
                self.change(move |doc, now| {
                    doc.lesson.set_draft(&texts, now);
                });
            }
        });
    }

    /// One method's progress through the learning contract (reactive).
    pub fn progress(self, method: &str) -> MethodProgress {
        self.state
            .try_with(|s| s.document.lesson.progress_of(method))
            .unwrap_or_default()
    }

    /// Marks a step of `method`'s contract done (kept; never undone).
    pub fn mark(self, method: &str, step: ContractStep) {
        let done = self
            .state
            .try_with_untracked(|s| s.document.lesson.progress_of(method).done(step))
            .unwrap_or(false);
        if !done {
            let method = method.to_string();
            self.change(move |doc, now| {
                doc.lesson.mark(&method, step, now);
            });
        }
    }

    /// Merges what another tab stores whenever it changes the notebook
    /// (the browser's `storage` event), until the page's owner goes away.
    pub fn listen(self) {
        let handle = window_event_listener_untyped("storage", move |event| {
            let key = js_sys::Reflect::get(&event, &"key".into()).unwrap_or_default();
            // `key` is null when another tab cleared the whole storage.
            if key.is_null() || key.as_string().as_deref() == Some(KEY) {
                self.sync();
            }
        });
        on_cleanup(move || handle.remove());
    }

    /// Reads the stored notebook, merges it in, and stores the result when
    /// this tab knew something the stored copy did not.
    pub fn sync(self) {
        self.change(|_, _| {});
    }

    /// Applies `edit` to the document, then stores it (merging first).
    fn change(self, edit: impl FnOnce(&mut store::Document, u64)) {
        let now = web::now_ms();
        let storage = self.storage;
        self.state.try_update(|state| {
            edit(&mut state.document, now);
            storage.try_with_value(|storage| persist::save(storage.as_ref(), state, now));
        });
    }

    /// Live entries, oldest first (reactive).
    pub fn entries(self) -> Vec<Entry> {
        self.state
            .try_with(|s| s.document.entries.clone())
            .unwrap_or_default()
    }

    /// How safe the notebook is (reactive).
    pub fn health(self) -> Health {
        self.state
            .try_with(|s| s.health.clone())
            .unwrap_or(Health::Saved)
    }

    /// What the person should be told (reactive).
    pub fn notices(self) -> Vec<Notice> {
        self.state
            .try_with(|s| s.notices.clone())
            .unwrap_or_default()
    }

    /// Forgets the notice at `index`.
    pub fn dismiss(self, index: usize) {
        self.state.try_update(|s| {
            if index < s.notices.len() {
                s.notices.remove(index);
            }
        });
    }

    /// What an undo would bring back (reactive).
    pub fn pending_undo(self) -> Option<Undo> {
        self.undo.try_get().flatten()
    }

    /// Adds an entry for `scenario` with what the method `observed`, taking
    /// the step, prediction and notes from the draft (whose notes are then
    /// emptied; the prediction stays with its scenario). Returns the new
    /// entry's id.
    pub fn add(self, scenario: Request, observed: Option<Observed>) -> String {
        let draft = self.draft.try_get_untracked().unwrap_or_default();
        let now = web::now_ms();
        let id = web::new_id(now);
        let step = if !draft.step.is_empty() {
            draft.step.as_str()
        } else if draft.prediction.is_some() {
            Step::Predict.id()
        } else if !draft.transfer_test.trim().is_empty() {
            Step::Transfer.id()
        } else if !draft.counterexample.trim().is_empty() {
            Step::Understand.id()
        } else {
            Step::Free.id()
        };
        let mut entry = Entry::new(id.clone(), now, step, scenario);
        entry.prediction = draft.prediction;
        entry.observed = observed;
        entry.notes = draft.notes.trim().to_string();
        entry.counterexample = draft.counterexample.trim().to_string();
        entry.reason = draft.reason.trim().to_string();
        entry.transfer_test = draft.transfer_test.trim().to_string();
        self.change(move |doc, _| doc.add(entry));
        self.draft.try_update(|d| {
            d.notes.clear();
            d.counterexample.clear();
            d.reason.clear();
            d.transfer_test.clear();
        });
        id
    }

    /// Changes one entry (its time of change is set).
    pub fn update(self, id: &str, edit: impl FnOnce(&mut Entry)) {
        let id = id.to_string();
        self.change(move |doc, now| {
            doc.update(&id, now, edit);
        });
    }

    /// Deletes one entry; an undo brings it back.
    pub fn delete(self, id: &str) {
        let mut removed = None;
        self.change(|doc, now| removed = doc.delete(id, now));
        if let Some(entry) = removed {
            self.undo.try_set(Some(Undo {
                entries: vec![entry],
                cleared: false,
            }));
        }
    }

    /// Deletes every entry; an undo brings them back.
    pub fn clear(self) {
        let mut removed = Vec::new();
        self.change(|doc, now| removed = doc.clear(now));
        if !removed.is_empty() {
            self.undo.try_set(Some(Undo {
                entries: removed,
                cleared: true,
            }));
        }
    }

    /// Undoes the last delete or clear.
    pub fn undo(self) {
        if let Some(Some(undo)) = self.undo.try_get_untracked() {
            self.change(move |doc, now| doc.restore(undo.entries, now));
        }
        self.undo.try_set(None);
    }

    /// Forgets the pending undo.
    pub fn forget_undo(self) {
        self.undo.try_set(None);
    }

    /// Merges an exported notebook (v1 or v0) by entry id. Never deletes.
    pub fn import_text(self, text: &str) {
        let notice = match store::parse(text) {
            Ok(parsed) => {
                let mut summary = store::ImportSummary::default();
                self.change(|doc, now| summary = doc.import(parsed.document, now));
                Notice::Imported(summary)
            }
            Err(why) => Notice::ImportFailed(why.to_string()),
        };
        self.state.try_update(|s| s.notices.push(notice));
    }

    /// Reports a file that could not be read.
    pub fn import_failed(self, why: String) {
        self.state
            .try_update(|s| s.notices.push(Notice::ImportFailed(why)));
    }

    /// The whole notebook as JSON (the export), unreadable entries and
    /// deletions included.
    pub fn export_json(self) -> String {
        self.state
            .try_with_untracked(|s| store::to_json(&s.document))
            .unwrap_or_default()
    }
}
