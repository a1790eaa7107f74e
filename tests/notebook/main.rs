//! The learning notebook and the lesson, in headless Chromium: the store's
//! round trip, migration, damaged data kept aside, a full or disabled
//! storage, two tabs merging, and the lesson hiding its result until a
//! prediction is written.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use vramfit_app::i18n::Lang;
use vramfit_app::lesson::LessonPanel;
use vramfit_app::notebook::persist::{self, Health, Notice};
use vramfit_app::notebook::storage::{BrowserStorage, MemoryStorage, Storage};
use vramfit_app::notebook::store::{
    self, Document, Entry, Observed, Prediction, BACKUP_PREFIX, KEY, LEGACY_KEY, SCHEMA,
};
use vramfit_app::notebook::{Notebook, NotebookPanel};
use vramfit_core::methods::MethodId;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Mode, ModelRef, ScenarioInput};
use vramfit_core::units::{Bytes, DisplayUnit};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

#[path = "../dom/mod.rs"]
mod dom;
mod flow;
mod panels;

use dom::*;

wasm_bindgen_test_configure!(run_in_browser);

// ---------------------------------------------------------------- helpers

fn disabled(root: &web_sys::HtmlElement, testid: &str) -> bool {
    find(root, testid).has_attribute("disabled")
}

/// An entry as the notebook writes it.
fn entry(id: &str, at: u64, notes: &str) -> Entry {
    let mut e = Entry::new(id.into(), at, "predict", Request::default());
    e.prediction = Prediction::new(18.0, DisplayUnit::Gb);
    e.observed = Some(Observed {
        method: MethodId::Quick,
        total_bytes: Bytes(18_781_116_006),
    });
    e.notes = notes.into();
    e.normalize();
    e
}

fn doc(entries: Vec<Entry>) -> Document {
    let mut d = Document::default();
    for e in entries {
        d.add(e);
    }
    d
}

/// A notebook over a shared in-memory storage (one per "tab").
fn tab(storage: &MemoryStorage) -> Notebook {
    Notebook::with_storage(storage.clone())
}

fn stored(storage: &MemoryStorage) -> Document {
    store::parse(&storage.item(KEY).expect("a stored notebook"))
        .expect("a readable notebook")
        .document
}

// ------------------------------------------------------------- the store

#[wasm_bindgen_test]
fn store_round_trip_keeps_everything_and_computes_the_discrepancy() {
    let mut e = entry("a", 1_000, "fp16 weights dominate");
    e.counterexample = "sliding windows".into();
    e.transfer_test = "gemma-2-9b".into();
    e.extra
        .insert("future_field".into(), serde_json::json!({"kept": true}));
    let original = doc(vec![e]);
    let d = original.entries[0].discrepancy.unwrap();
    assert_eq!(d.predicted_bytes, 18_000_000_000);
    assert_eq!(d.difference_bytes, -781_116_006);
    assert_eq!(d.percent, Some(-4.16));

    let text = store::to_json(&original);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["schema"], SCHEMA);
    assert_eq!(value["entries"][0]["scenario"]["context"], 8192);
    assert_eq!(value["entries"][0]["prediction"]["unit"], "gb");
    assert_eq!(
        value["entries"][0]["discrepancy"]["difference_bytes"],
        -781_116_006
    );
    assert_eq!(value["entries"][0]["future_field"]["kept"], true);

    let parsed = store::parse(&text).unwrap();
    assert_eq!(parsed.version, 1);
    assert_eq!(parsed.document, original);
    // A tampered discrepancy is recomputed, not trusted.
    let tampered = text.replace("-781116006", "5");
    assert_eq!(store::parse(&tampered).unwrap().document, original);
}

#[wasm_bindgen_test]
fn unreadable_entries_are_kept_as_they_were() {
    let text = format!(
        r#"{{"schema":"{SCHEMA}","entries":[
            {},
            {{"id":"x","created_at":1,"updated_at":1,"scenario":{{"method":"astrology"}}}},
            {{"no_id":true}}
        ]}}"#,
        serde_json::to_string(&entry("a", 5, "")).unwrap()
    );
    let parsed = store::parse(&text).unwrap().document;
    assert_eq!(parsed.entries.len(), 1);
    assert_eq!(parsed.unreadable.len(), 2);
    // They survive a write and a merge.
    let again = store::parse(&store::to_json(&parsed)).unwrap().document;
    assert_eq!(again, parsed);
    let merged = store::merge(&Document::default(), &again);
    assert_eq!(merged.unreadable.len(), 2);
}

#[wasm_bindgen_test]
fn v0_notebook_migrates_with_exact_bytes_and_named_units() {
    let v0 = r#"[
        {"id": "n1", "time": 1700000000000, "step": "predict",
         "inputs": {"context": 4096, "method": "lesson", "params_b": 7},
         "predicted_gb": 24.5, "observed_gb": 24.126220134, "note": "GiB or GB?"},
        {"time": 1700000001000, "inputs": {"context": 16384}},
        {"id": "broken", "inputs": {"layerz": 3}}
    ]"#;
    let parsed = store::parse(v0).unwrap();
    assert_eq!(parsed.version, 0);
    let d = parsed.document;
    assert_eq!(d.entries.len(), 2);
    assert_eq!(d.unreadable.len(), 1, "the entry v1 cannot read is kept");
    let first = &d.entries[0];
    assert_eq!(first.id, "n1");
    assert_eq!(first.created_at, 1_700_000_000_000);
    assert_eq!(first.scenario.method, MethodId::Lesson);
    assert_eq!(first.prediction.unwrap().unit, DisplayUnit::Gb);
    assert_eq!(first.observed.unwrap().total_bytes, 24_126_220_134);
    assert_eq!(first.notes, "GiB or GB?");
    assert_eq!(first.discrepancy.unwrap().difference_bytes, 373_779_866);
    assert_eq!(d.entries[1].id, "v0-1700000001000-1");

    // From storage: the v0 key is read once, migrated to v1 and left as it was.
    let storage = MemoryStorage::new();
    storage.put(LEGACY_KEY, v0);
    let state = persist::load(&storage, 10);
    assert_eq!(state.health, Health::Saved);
    assert!(state.notices.contains(&Notice::Migrated {
        from: LEGACY_KEY.into(),
        entries: 2
    }));
    assert_eq!(storage.item(LEGACY_KEY).as_deref(), Some(v0));
    assert_eq!(stored(&storage).entries.len(), 2);
    let again = persist::load(&storage, 20);
    assert!(!again
        .notices
        .iter()
        .any(|n| matches!(n, Notice::Migrated { .. })));
}

#[wasm_bindgen_test]
fn damaged_storage_is_kept_aside_never_overwritten() {
    let storage = MemoryStorage::new();
    storage.put(KEY, "{\"schema\": \"vramfit-notebook/1\", \"entries\": [");
    let state = persist::load(&storage, 1_234);
    let key = format!("{BACKUP_PREFIX}1234");
    assert!(
        matches!(&state.notices[..], [Notice::KeptAside { key: k, .. }] if *k == key),
        "{:?}",
        state.notices
    );
    assert_eq!(
        storage.item(&key).as_deref(),
        Some("{\"schema\": \"vramfit-notebook/1\", \"entries\": [")
    );
    assert_eq!(state.health, Health::Saved);
    assert_eq!(stored(&storage), Document::default());

    // Damaged again at the same millisecond: a second, distinct backup.
    storage.put(KEY, "garbage");
    let state = persist::load(&storage, 1_234);
    assert!(state.notices.contains(&Notice::KeptAside {
        key: format!("{key}-2"),
        why: "not JSON (expected value at line 1 column 1)".into()
    }));
    assert_eq!(
        storage.item(&key).unwrap().len(),
        45,
        "first backup untouched"
    );

    // A newer version's notebook is kept aside too, not read as ours.
    storage.put(KEY, r#"{"schema": "vramfit-notebook/2", "pages": []}"#);
    let state = persist::load(&storage, 99);
    assert!(
        matches!(&state.notices[..], [Notice::KeptAside { why, .. }] if why.contains("vramfit-notebook/2"))
    );
    assert_eq!(
        storage.item(&format!("{BACKUP_PREFIX}99")).as_deref(),
        Some(r#"{"schema": "vramfit-notebook/2", "pages": []}"#)
    );
}

#[wasm_bindgen_test]
fn damaged_data_that_cannot_be_kept_aside_freezes_writing() {
    let storage = MemoryStorage::new();
    storage.put(KEY, "not json at all");
    storage.set_quota(Some(0));
    let notebook = tab(&storage);
    assert_eq!(untrack(|| notebook.health()), Health::Frozen);
    assert!(matches!(
        &untrack(|| notebook.notices())[..],
        [Notice::CouldNotKeepAside { .. }]
    ));
    notebook.add(Request::default(), None);
    assert_eq!(untrack(|| notebook.entries()).len(), 1, "works in memory");
    storage.set_quota(None);
    notebook.add(Request::default(), None);
    assert_eq!(storage.item(KEY).as_deref(), Some("not json at all"));
    assert_eq!(storage.keys(), [KEY.to_string()]);
}

#[wasm_bindgen_test]
fn a_full_quota_keeps_the_notebook_in_memory_and_recovers() {
    let storage = MemoryStorage::new();
    let notebook = tab(&storage);
    notebook.add(Request::default(), None);
    assert_eq!(untrack(|| notebook.health()), Health::Saved);
    let size = storage.item(KEY).unwrap().encode_utf16().count() + KEY.len();
    storage.set_quota(Some(size + 10));
    notebook.add(Request::default(), None);
    assert_eq!(untrack(|| notebook.health()), Health::QuotaExceeded);
    assert!(untrack(|| notebook.health()).memory_only());
    assert_eq!(
        untrack(|| notebook.entries()).len(),
        2,
        "nothing is lost in memory"
    );
    assert_eq!(stored(&storage).entries.len(), 1);
    // The export still holds everything.
    let export = store::parse(&notebook.export_json()).unwrap().document;
    assert_eq!(export.entries.len(), 2);
    // Room again: the next change stores everything and says so.
    storage.set_quota(None);
    notebook.add(Request::default(), None);
    assert_eq!(untrack(|| notebook.health()), Health::Saved);
    assert!(untrack(|| notebook.notices()).contains(&Notice::SavedAgain));
    assert_eq!(stored(&storage).entries.len(), 3);
}

#[wasm_bindgen_test]
fn disabled_storage_works_in_memory_with_a_warning() {
    let storage = MemoryStorage::new();
    storage.set_disabled(true);
    let notebook = tab(&storage);
    assert_eq!(untrack(|| notebook.health()), Health::Unavailable);
    let id = notebook.add(Request::default(), None);
    notebook.update(&id, |e| e.notes = "still here".into());
    assert_eq!(untrack(|| notebook.entries())[0].notes, "still here");
    assert!(storage.keys().is_empty());
}

#[wasm_bindgen_test]
fn two_tabs_merge_by_id_and_the_later_change_wins() {
    let storage = MemoryStorage::new();
    let (a, b) = (tab(&storage), tab(&storage));
    let from_a = a.add(Request::default(), None);
    let from_b = b.add(Request::default(), None);
    // B's write merged A's entry in; A learns of B's on the storage event.
    assert_eq!(stored(&storage).entries.len(), 2);
    a.sync();
    assert_eq!(untrack(|| a.entries()).len(), 2);
    assert!(a.notices().contains(&Notice::Merged { entries: 1 }));

    // Both edit the same entry; the later edit wins in both tabs.
    a.update(&from_a, |e| e.notes = "first".into());
    b.update(&from_a, |e| e.notes = "second".into());
    a.sync();
    let notes = |n: Notebook| {
        untrack(|| n.entries())
            .iter()
            .find(|e| e.id == from_a)
            .unwrap()
            .notes
            .clone()
    };
    assert_eq!(notes(a), "second");
    assert_eq!(notes(b), "second");

    // A deletes B's entry; B's stale copy does not bring it back.
    a.delete(&from_b);
    b.update(&from_a, |e| e.transfer_test = "8B → 70B".into());
    assert!(untrack(|| b.entries()).iter().all(|e| e.id != from_b));
    assert!(stored(&storage).entries.iter().all(|e| e.id != from_b));

    // The pure merge agrees whichever side it starts from.
    let x = doc(vec![entry("1", 1, "x"), entry("2", 2, "old")]);
    let mut y = doc(vec![entry("2", 2, "old"), entry("3", 3, "y")]);
    y.update("2", 50, |e| e.notes = "new".into());
    assert_eq!(store::merge(&x, &y), store::merge(&y, &x));
    assert_eq!(store::merge(&x, &y).entry("2").unwrap().notes, "new");
}

#[wasm_bindgen_test]
fn clear_undo_and_import_merge_by_id() {
    let storage = MemoryStorage::new();
    let notebook = tab(&storage);
    notebook.add(Request::default(), None);
    notebook.add(Request::default(), None);
    let export = notebook.export_json();
    notebook.clear();
    assert!(untrack(|| notebook.entries()).is_empty());
    assert_eq!(
        untrack(|| notebook.pending_undo()).unwrap().entries.len(),
        2
    );
    assert!(stored(&storage).entries.is_empty());
    notebook.undo();
    assert_eq!(untrack(|| notebook.entries()).len(), 2);
    assert_eq!(stored(&storage).entries.len(), 2);
    assert!(untrack(|| notebook.pending_undo()).is_none());

    // Import after a clear brings entries back; again changes nothing.
    notebook.clear();
    notebook.import_text(&export);
    assert_eq!(untrack(|| notebook.entries()).len(), 2);
    assert!(
        untrack(|| notebook.notices()).contains(&Notice::Imported(store::ImportSummary {
            restored: 2,
            ..Default::default()
        }))
    );
    notebook.import_text(&export);
    assert!(
        untrack(|| notebook.notices()).contains(&Notice::Imported(store::ImportSummary {
            unchanged: 2,
            ..Default::default()
        }))
    );
    notebook.import_text("{ nope");
    assert!(matches!(
        untrack(|| notebook.notices()).last(),
        Some(Notice::ImportFailed(_))
    ));
    assert_eq!(untrack(|| notebook.entries()).len(), 2);
}

#[wasm_bindgen_test]
fn browser_storage_round_trip() {
    let storage = BrowserStorage;
    let key = "vramfit.notebook.test-round-trip";
    storage.set(key, "{\"x\":1}").unwrap();
    assert_eq!(storage.get(key).unwrap().as_deref(), Some("{\"x\":1}"));
    web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .remove_item(key)
        .unwrap();
    assert_eq!(storage.get(key).unwrap(), None);
}
