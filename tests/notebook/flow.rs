//! The lesson as a student follows it, for every method and language: a
//! fitting model in one click, a blind prediction, the reveal, and every
//! term shown with its formula, its symbols and its numbers; no raw key
//! and no repository path anywhere a student reads. "Understand" once a
//! counterexample is recorded with its reason; ticks and drafts back after
//! a reload; exact predictions and Dutch numbers.
use super::*;
use vramfit_app::lesson::cases;

/// Mounts the lesson and the notebook over `storage` in `lang`.
fn mount(root: &web_sys::HtmlElement, storage: &MemoryStorage, lang: Lang) -> RwSignal<Request> {
    let input = RwSignal::new(Request::default());
    let storage = storage.clone();
    leptos::mount::mount_to(root.clone(), move || {
        let notebook = Notebook::with_storage(storage.clone());
        let report = Memo::new(move |_| input.with(|i| report::build(i).ok()));
        view! {
            <LessonPanel input report lang=Signal::stored(lang) notebook />
            <NotebookPanel input lang=Signal::stored(lang) notebook />
        }
    })
    .forget();
    input
}

fn inner_text(root: &web_sys::HtmlElement, testid: &str) -> String {
    find(root, testid)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .inner_text()
}

/// What a student reads: every card of the lesson but the command-line
/// example (which shows the command and its JSON on purpose).
fn readable(root: &web_sys::HtmlElement) -> String {
    [
        "lesson-contract",
        "lesson-start",
        "lesson-understand",
        "lesson-predict",
        "lesson-counter",
        "lesson-isolate",
        "lesson-investigate",
        "lesson-methodology",
        "lesson-references",
    ]
    .iter()
    .map(|id| inner_text(root, id))
    .collect::<Vec<_>>()
    .join("\n")
}

/// Whether `id` stands as a word of its own in `text` (not inside a
/// source's file name such as `kv_cache_utils.py`).
fn as_word(text: &str, id: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '/' | '.');
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

fn assert_no_raw_key_nor_path(text: &str, context: &str) {
    for term in vramfit_core::term::Term::ALL {
        let id = term.id();
        if id.contains('_') {
            assert!(!as_word(text, id), "{context}: raw key {id} in\n{text}");
        }
    }
    assert!(as_word("a kv_cache.", "kv_cache") && !as_word("kv_cache_utils.py", "kv_cache"));
    for path in ["docs/", "crates/", ".md", "methodology.md", "src/lesson"] {
        assert!(
            !text.contains(path),
            "{context}: repository path {path} in\n{text}"
        );
    }
    let lower = text.to_lowercase();
    for n in ["seed 0", "semilla 0", "zaaddocument 0", "seeds"] {
        assert!(!lower.contains(n), "{context}: {n} in\n{text}");
    }
    assert!(!as_word(text, "kv_cache"), "{context}: code as a formula");
    for code in ["× o / 100\")", "(weights + kv_cache)"] {
        assert!(!text.contains(code), "{context}: code as a formula: {code}");
    }
}

#[wasm_bindgen_test]
async fn every_method_in_every_language_starts_fits_predicts_reveals_and_derives_every_term() {
    for lang in Lang::ALL {
        for method in MethodId::ALL {
            let root = host();
            let input = mount(&root, &MemoryStorage::new(), lang);
            input.update(|i| i.method = method);
            settle().await;
            // One click: a catalog model that suits the method, and why.
            click(&root, "lesson-start-load");
            settle().await;
            assert_eq!(input.get_untracked(), cases::start(method));
            assert!(!text(&root, "lesson-start-why").is_empty());
            let context = format!("{lang:?} {method:?}");
            // The figures are hidden: a prediction is pending.
            assert_eq!(count(&root, "lesson-predict-pending"), 1, "{context}");
            let cells = |testid: &str| -> Vec<String> {
                all(&root, &format!("[data-testid=\"{testid}\"]"))
                    .iter()
                    .map(|n| n.text_content().unwrap())
                    .collect()
            };
            assert!(!cells("lesson-term-value").is_empty(), "{context}");
            for hidden in cells("lesson-term-value")
                .iter()
                .chain(&cells("lesson-term-substituted"))
            {
                assert_eq!(hidden, "?", "{context}: a figure before the reveal");
            }
            type_into(&root, "lesson-prediction", "20");
            settle().await;
            click(&root, "lesson-reveal");
            settle().await;
            assert_eq!(count(&root, "lesson-result"), 1, "{context}");
            let result = input
                .get_untracked()
                .run()
                .expect("the method estimates its start");
            let shown: Vec<_> = result
                .components
                .0
                .iter()
                .filter(|c| c.bytes.get() > 0 || result.outside_total.contains(&c.term))
                .collect();
            assert!(!shown.is_empty());
            for c in shown {
                let id = format!("lesson-term-{}", c.term.id());
                let row = find(&root, &id).dyn_into::<web_sys::HtmlElement>().unwrap();
                let cell = |testid: &str| {
                    row.query_selector(&format!("[data-testid=\"{testid}\"]"))
                        .unwrap()
                        .unwrap_or_else(|| panic!("{context} {id}: no {testid}"))
                        .text_content()
                        .unwrap()
                };
                let formula = cell("lesson-term-formula");
                assert!(formula.contains('='), "{context} {id}: {formula}");
                let substituted = cell("lesson-term-substituted");
                assert!(
                    substituted.ends_with(" B") && substituted.chars().any(|d| d.is_ascii_digit()),
                    "{context} {id}: {substituted}"
                );
                let value = cell("lesson-term-value");
                assert!(
                    value.ends_with("GB") || value.ends_with("GiB"),
                    "{context} {id}: {value}"
                );
                // Every symbol of the formula is defined.
                for item in all(&row, "[data-testid=\"lesson-term-symbols\"] li") {
                    let item = item.text_content().unwrap();
                    assert!(
                        item.contains(" = ") && item.contains(" — "),
                        "{context} {id}: {item}"
                    );
                }
            }
            assert!(text(&root, "lesson-total-formula").contains('='));
            // The prepared counterexample, both ways, side by side.
            click(&root, "lesson-counter-run");
            settle().await;
            assert!(count(&root, "lesson-counter-table") == 1, "{context}");
            // Set against vLLM's own log, the table ends on the KV cache
            // vLLM allocates; else on the totals.
            let last = match cases::counterexample(method).logged {
                Some(_) => "lesson-counter-kv-pool",
                None => "lesson-counter-total",
            };
            assert!(!text(&root, last).contains('?'), "{context}");
            assert_no_raw_key_nor_path(&readable(&root), &context);
            assert_eq!(
                find(&root, "lesson-contract-implement")
                    .get_attribute("data-done")
                    .as_deref(),
                Some("true")
            );
        }
    }
}

#[wasm_bindgen_test]
async fn understand_needs_a_recorded_counterexample_with_its_reason_and_a_reload_keeps_it() {
    let storage = MemoryStorage::new();
    let root = host();
    let input = mount(&root, &storage, Lang::Es);
    input.update(|i| i.method = MethodId::Range);
    settle().await;
    let understood = |root: &web_sys::HtmlElement| {
        find(root, "lesson-contract-understand").get_attribute("data-done")
    };
    type_into(&root, "lesson-counterexample", "x");
    type_into(&root, "lesson-reason", "y");
    settle().await;
    click(&root, "lesson-counter-record");
    settle().await;
    assert_eq!(count(&root, "lesson-counter-too-short"), 1);
    assert_eq!(understood(&root).as_deref(), Some("false"));
    assert_eq!(count(&root, "notebook-entry"), 0);
    // Drafts are kept as they are written, before anything is recorded.
    type_into(
        &root,
        "lesson-counterexample",
        "Ajustar sin gradient checkpointing en Llama",
    );
    settle().await;
    assert_eq!(
        stored(&storage).lesson.draft.counterexample,
        "Ajustar sin gradient checkpointing en Llama"
    );
    type_into(
        &root,
        "lesson-reason",
        "cada capa guarda sus tensores para el paso hacia atrás",
    );
    settle().await;
    click(&root, "lesson-counter-record");
    settle().await;
    assert_eq!(understood(&root).as_deref(), Some("true"));
    assert_eq!(count(&root, "notebook-entry"), 1);
    let saved = stored(&storage);
    assert_eq!(saved.entries[0].step, "understand");
    assert!(saved.entries[0].reason.starts_with("cada capa"));
    assert!(saved.lesson.progress_of("range").understood_at.is_some());
    // A new draft, not recorded yet.
    type_into(&root, "lesson-notes", "borrador de notas");
    settle().await;
    // Another method has its own contract.
    input.update(|i| i.method = MethodId::Quick);
    settle().await;
    assert_eq!(understood(&root).as_deref(), Some("false"));

    // A reload: the same storage, a new page.
    let again = host();
    let input = mount(&again, &storage, Lang::Es);
    input.update(|i| i.method = MethodId::Range);
    settle().await;
    assert_eq!(understood(&again).as_deref(), Some("true"));
    assert_eq!(count(&again, "notebook-entry"), 1);
    let notes = find(&again, "lesson-notes");
    assert_eq!(
        js_sys::Reflect::get(&notes, &"value".into())
            .unwrap()
            .as_string()
            .as_deref(),
        Some("borrador de notas")
    );
}

#[wasm_bindgen_test]
async fn an_exact_prediction_reads_exact_and_dutch_numbers_go_both_ways() {
    let root = host();
    mount(&root, &MemoryStorage::new(), Lang::Es);
    settle().await;
    // 18,78 GB against 18 781 116 006 bytes: 0,00 at the precision shown.
    type_into(&root, "lesson-prediction", "18,78");
    settle().await;
    click(&root, "lesson-reveal");
    settle().await;
    let discrepancy = text(&root, "lesson-discrepancy");
    assert!(discrepancy.starts_with("±0,00 GB"), "{discrepancy}");
    assert!(
        discrepancy.ends_with("exacta al centésimo"),
        "{discrepancy}"
    );
    assert!(!discrepancy.contains('−'));

    let root = host();
    mount(&root, &MemoryStorage::new(), Lang::Nl);
    settle().await;
    type_into(&root, "lesson-prediction", "20,5");
    settle().await;
    click(&root, "lesson-reveal");
    settle().await;
    assert!(text(&root, "lesson-predicted").starts_with("20,50 GB"));
    assert_eq!(
        find(&root, "lesson-predicted")
            .get_attribute("data-bytes")
            .as_deref(),
        Some("20500000000")
    );
    assert!(text(&root, "lesson-discrepancy").starts_with("+1,72 GB (+9,2%), te hoog"));
    // Dutch throughout: the kit, the methodology, the counterexample.
    let panel = inner_text(&root, "lesson-panel");
    for dutch in [
        "Referentiekit",
        "Methodologie",
        "Tegenvoorbeeld",
        "Aannames, in gewone woorden",
    ] {
        assert!(panel.contains(dutch), "{dutch}");
    }
}
