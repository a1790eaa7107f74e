//! Keeping the notebook in a [`Storage`] without ever losing anything:
//!
//! - stored data that cannot be read is first copied aside under
//!   `vramfit.notebook.backup.<time>` (never over an existing key), and
//!   only then replaced; if it cannot be copied aside, nothing is written
//!   at all while the page stays open;
//! - every write first reads what is stored and merges it in, so entries
//!   written by another tab in between survive;
//! - a full quota or a disabled storage leaves the notebook in memory and
//!   says so; a full quota is retried on every change;
//! - a v0 notebook is migrated and its key left as it was.
//!
//! Uses only the [`Storage`] interface: no browser API.

use super::storage::{Storage, StorageError};
use super::store::{self, Document, ImportSummary, BACKUP_PREFIX, KEY, LEGACY_KEY};

/// Whether the notebook is safe in storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    /// Every change so far is stored.
    Saved,
    /// The last write hit the quota: the notebook is in memory only until
    /// a later write succeeds.
    QuotaExceeded,
    /// Storage is disabled or refused (private mode, `SecurityError`):
    /// memory only while the page stays open.
    Unavailable,
    /// A write failed for another reason (memory only until one succeeds).
    WriteFailed(String),
    /// Stored data could not be read and could not be copied aside either:
    /// nothing is written while the page stays open, so that it is not overwritten.
    Frozen,
}

impl Health {
    /// Whether the notebook currently lives in memory only.
    pub fn memory_only(&self) -> bool {
        !matches!(self, Health::Saved)
    }
}

/// Something the person should be told once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Unreadable stored data was copied aside under `key`. `why` says
    /// what was wrong with it.
    KeptAside { key: String, why: String },
    /// Unreadable stored data could not be copied aside (storage full or
    /// refused): it was left in place and nothing is written.
    CouldNotKeepAside { why: String },
    /// A v0 notebook under `from` was migrated; `from` is left untouched.
    Migrated { from: String, entries: usize },
    /// A v0 notebook under `key` could not be read; it is left untouched.
    LegacyUnreadable { key: String },
    /// Entries this version cannot read are kept in the notebook as they
    /// were (and in every export).
    UnreadableEntries { count: usize },
    /// Entries written by another tab were merged in.
    Merged { entries: usize },
    /// The notebook is stored again after a full quota or a failure.
    SavedAgain,
    /// An import was merged.
    Imported(ImportSummary),
    /// A file could not be imported.
    ImportFailed(String),
}

/// The notebook in memory, how safe it is, and what to tell.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub document: Document,
    pub health: Health,
    pub notices: Vec<Notice>,
}

/// Opens the notebook from `storage` at time `now` (ms).
pub fn load(storage: &dyn Storage, now: u64) -> State {
    let mut state = State {
        document: Document::default(),
        health: Health::Saved,
        notices: Vec::new(),
    };
    match storage.get(KEY) {
        Err(e) => state.health = health_of(e),
        Ok(Some(text)) => match store::parse(&text) {
            Ok(parsed) if parsed.version == 1 => state.document = parsed.document,
            Ok(parsed) => {
                // A v0 array under the v1 key: kept aside as it was, then
                // stored migrated.
                keep_aside(storage, &mut state, &text, "v0".into(), now);
                state.document = parsed.document;
                overwrite(storage, &mut state);
            }
            Err(why) => {
                keep_aside(storage, &mut state, &text, why.to_string(), now);
                overwrite(storage, &mut state);
            }
        },
        Ok(None) => {
            if load_legacy(storage, &mut state) {
                save(storage, &mut state, now);
            }
        }
    }
    let unreadable = state.document.unreadable.len();
    if unreadable > 0 {
        state
            .notices
            .push(Notice::UnreadableEntries { count: unreadable });
    }
    state
}

/// A v0 notebook, when there is no v1 one; true when one was migrated.
fn load_legacy(storage: &dyn Storage, state: &mut State) -> bool {
    let Ok(Some(text)) = storage.get(LEGACY_KEY) else {
        return false;
    };
    match store::parse(&text) {
        Ok(parsed) => {
            state.notices.push(Notice::Migrated {
                from: LEGACY_KEY.to_string(),
                entries: parsed.document.entries.len(),
            });
            state.document = parsed.document;
            true
        }
        Err(_) => {
            state.notices.push(Notice::LegacyUnreadable {
                key: LEGACY_KEY.to_string(),
            });
            false
        }
    }
}

/// Writes the notebook over the stored text, which was just kept aside
/// (does nothing when it could not be).
fn overwrite(storage: &dyn Storage, state: &mut State) {
    if state.health == Health::Saved {
        if let Err(e) = storage.set(KEY, &store::to_json(&state.document)) {
            state.health = health_of(e);
        }
    }
}

/// Copies `text` to a new backup key; freezes writing when it cannot.
fn keep_aside(storage: &dyn Storage, state: &mut State, text: &str, why: String, now: u64) {
    let key = free_backup_key(storage, now);
    match storage.set(&key, text) {
        Ok(()) => state.notices.push(Notice::KeptAside { key, why }),
        Err(e) => {
            state.health = match e {
                StorageError::Unavailable(_) => Health::Unavailable,
                _ => Health::Frozen,
            };
            state.notices.push(Notice::CouldNotKeepAside { why });
        }
    }
}

/// `vramfit.notebook.backup.<now>`, or with `-2`, `-3`… when taken.
fn free_backup_key(storage: &dyn Storage, now: u64) -> String {
    let base = format!("{BACKUP_PREFIX}{now}");
    if !matches!(storage.get(&base), Ok(Some(_))) {
        return base;
    }
    (2..1_000)
        .map(|n| format!("{base}-{n}"))
        .find(|key| !matches!(storage.get(key), Ok(Some(_))))
        .unwrap_or_else(|| format!("{base}-{}", now % 1_000_003))
}

fn health_of(e: StorageError) -> Health {
    match e {
        StorageError::Unavailable(_) => Health::Unavailable,
        StorageError::QuotaExceeded => Health::QuotaExceeded,
        StorageError::Failed(why) => Health::WriteFailed(why),
    }
}

/// Stores the notebook: reads what is stored, merges it in (entries from
/// another tab are kept, and counted in a notice), writes the result when
/// it differs. Never writes over data it cannot read without copying it
/// aside first. `now` names a backup if one is needed.
pub fn save(storage: &dyn Storage, state: &mut State, now: u64) {
    if matches!(state.health, Health::Frozen | Health::Unavailable) {
        return;
    }
    let stored = match storage.get(KEY) {
        Ok(stored) => stored,
        Err(e) => {
            state.health = health_of(e);
            return;
        }
    };
    let mut stored_doc = None;
    if let Some(text) = &stored {
        match store::parse(text) {
            Ok(parsed) if parsed.version == 1 => stored_doc = Some(parsed.document),
            Ok(parsed) => {
                // A v0 array written under the v1 key: keep it, then merge.
                keep_aside(storage, state, text, "v0".into(), now);
                stored_doc = Some(parsed.document);
            }
            Err(why) => keep_aside(storage, state, text, why.to_string(), now),
        }
        if matches!(state.health, Health::Frozen | Health::Unavailable) {
            return;
        }
    }
    if let Some(other) = &stored_doc {
        let arrived = store::arrivals(&state.document, other);
        state.document = store::merge(&state.document, other);
        if arrived > 0 {
            match state.notices.last_mut() {
                Some(Notice::Merged { entries }) => *entries += arrived,
                _ => state.notices.push(Notice::Merged { entries: arrived }),
            }
        }
        if *other == state.document {
            recovered(state);
            return;
        }
    } else if stored.is_none() && state.document == Document::default() {
        // Nothing stored and nothing to store.
        recovered(state);
        return;
    }
    match storage.set(KEY, &store::to_json(&state.document)) {
        Ok(()) => recovered(state),
        Err(e) => state.health = health_of(e),
    }
}

/// Back to [`Health::Saved`], saying so when it was not.
fn recovered(state: &mut State) {
    if state.health != Health::Saved {
        state.notices.push(Notice::SavedAgain);
    }
    state.health = Health::Saved;
}
