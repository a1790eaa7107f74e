//! The lesson and the notebook panels over one in-memory notebook: the
//! result hidden until a prediction is written, the terms named and
//! derived, Dutch, the recorded discrepancy, the memory-only warning, the
//! command line.
use super::*;

/// Mounts the lesson and the notebook over one in-memory notebook.
fn mount_both(
    root: &web_sys::HtmlElement,
    storage: &MemoryStorage,
    lang: RwSignal<Lang>,
) -> RwSignal<Request> {
    let input = RwSignal::new(Request::default());
    let storage = storage.clone();
    leptos::mount::mount_to(root.clone(), move || {
        let notebook = Notebook::with_storage(storage.clone());
        let report = Memo::new(move |_| input.with(|i| report::build(i).ok()));
        view! {
            <LessonPanel input report lang notebook />
            <NotebookPanel input lang notebook />
        }
    })
    .forget();
    input
}

#[wasm_bindgen_test]
async fn lesson_hides_the_result_until_a_prediction_is_written() {
    let root = host();
    let input = mount_both(&root, &MemoryStorage::new(), RwSignal::new(Lang::Es));
    settle().await;
    assert_eq!(count(&root, "lesson-result"), 0);
    assert_eq!(count(&root, "lesson-result-hidden"), 1);
    assert!(disabled(&root, "lesson-reveal"), "nothing to reveal yet");
    // No figure of the scenario shown anywhere in the lesson before the
    // reveal (the review scope, folded away, cites the seed's examples).
    let before = find(&root, "lesson-panel")
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .inner_text();
    assert!(
        !before.contains("18,78") && !before.contains("16,00"),
        "{before}"
    );
    assert!(disabled(&root, "lesson-compare"));

    type_into(&root, "lesson-prediction", "no sé");
    settle().await;
    assert!(disabled(&root, "lesson-reveal"));
    assert_eq!(
        find(&root, "lesson-prediction")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );

    type_into(&root, "lesson-prediction", "18");
    settle().await;
    assert!(!disabled(&root, "lesson-reveal"));
    assert_eq!(
        count(&root, "lesson-result"),
        0,
        "typing alone reveals nothing"
    );
    click(&root, "lesson-reveal");
    settle().await;
    assert_eq!(count(&root, "lesson-result"), 1);
    assert_eq!(
        text(&root, "lesson-observed").split(' ').next(),
        Some("18,78")
    );
    let discrepancy = find(&root, "lesson-discrepancy");
    assert_eq!(
        discrepancy.get_attribute("data-bytes").as_deref(),
        Some("-781116006")
    );
    assert_eq!(
        discrepancy.get_attribute("data-percent").as_deref(),
        Some("-4.16")
    );
    assert!(text(&root, "lesson-discrepancy").starts_with("−0,78 GB (−4,2 %)"));
    assert_eq!(
        find(&root, "lesson-contract-implement")
            .get_attribute("data-done")
            .as_deref(),
        Some("true")
    );

    // GiB: the same prediction number means other bytes.
    click(&root, "lesson-prediction-unit-gib");
    settle().await;
    assert_eq!(
        count(&root, "lesson-result"),
        0,
        "a new unit hides it again"
    );
    click(&root, "lesson-reveal");
    settle().await;
    assert_eq!(
        find(&root, "lesson-predicted")
            .get_attribute("data-bytes")
            .as_deref(),
        Some("19327352832")
    );

    // A new scenario needs a new prediction.
    input.update(|i| i.scenario.context = 16_384);
    settle().await;
    assert_eq!(count(&root, "lesson-result"), 0);
    assert_eq!(count(&root, "lesson-result-hidden"), 1);
    assert!(disabled(&root, "lesson-reveal"));
}

/// The lesson and the notebook speak the page's language, Dutch included
/// (they once fell back to English for every language but Spanish).
#[wasm_bindgen_test]
async fn the_lesson_and_the_notebook_speak_dutch() {
    let root = host();
    let storage = MemoryStorage::new();
    mount_both(&root, &storage, RwSignal::new(Lang::Nl));
    settle().await;
    let lesson = find(&root, "lesson-panel");
    assert_eq!(lesson.get_attribute("lang").as_deref(), Some("nl"));
    assert!(lesson
        .text_content()
        .unwrap()
        .contains("Les: GPU-geheugen, stap voor stap"));
    let notebook = find(&root, "notebook-panel");
    assert_eq!(notebook.get_attribute("lang").as_deref(), Some("nl"));
    assert!(notebook.text_content().unwrap().contains("Notitieboek"));
    // Numbers the Dutch way: a prediction typed with a decimal comma, the
    // result and the discrepancy with one.
    type_into(&root, "lesson-prediction", "18,8");
    settle().await;
    click(&root, "lesson-reveal");
    settle().await;
    assert!(text(&root, "lesson-observed").starts_with("18,78 GB"));
    assert!(text(&root, "lesson-discrepancy").starts_with("+0,02 GB (+0,1%), te hoog"));
    click(&root, "notebook-add");
    settle().await;
    assert_eq!(
        text(&root, "notebook-entry-step"),
        "Een grensgeval voorspellen"
    );
    assert!(text(&root, "notebook-entry-scenario").starts_with("quick · Inferentie · 8B"));
}

/// Range reports `model_states` in full fine-tuning; the lesson once
/// looked for `states` and showed the raw key. Every term it shows has its
/// name and a formula.
#[wasm_bindgen_test]
async fn the_lesson_names_and_derives_every_term_of_the_method() {
    let root = host();
    let input = mount_both(&root, &MemoryStorage::new(), RwSignal::new(Lang::En));
    input.set(Request::new(
        MethodId::Range,
        ScenarioInput {
            mode: Mode::Full,
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            ..ScenarioInput::default()
        },
    ));
    settle().await;
    let row = find(&root, "lesson-term-model_states");
    let cells = row.children();
    assert_eq!(
        cells.item(0).unwrap().text_content().unwrap(),
        "Model states MS"
    );
    assert_eq!(
        cells.item(1).unwrap().text_content().unwrap(),
        "MS = 16 × P"
    );
    assert!(cells
        .item(2)
        .unwrap()
        .text_content()
        .unwrap()
        .contains("P = 8,030,261,248 — parameters of the model"));
    // Full fine-tuning keeps no frozen base and no adapters: only the
    // terms that apply are derived; the others are named as zero.
    assert_eq!(count(&root, "lesson-term-weights"), 0);
    assert_eq!(count(&root, "lesson-term-adapters"), 0);
    assert!(text(&root, "lesson-zero-terms").contains("Adapters"));
    for term in ["activations", "logits", "runtime", "margin"] {
        let row = find(&root, &format!("lesson-term-{term}"));
        let name = row.children().item(0).unwrap().text_content().unwrap();
        assert!(!name.contains('_') && !name.is_empty(), "{term}: {name}");
        let formula = row.children().item(1).unwrap().text_content().unwrap();
        assert!(!formula.is_empty(), "{term} has no formula");
    }
}

#[wasm_bindgen_test]
async fn a_revealed_prediction_is_recorded_with_its_discrepancy() {
    let root = host();
    let storage = MemoryStorage::new();
    let lang = RwSignal::new(Lang::Es);
    let input = mount_both(&root, &storage, lang);
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 0);
    type_into(
        &root,
        "lesson-counterexample",
        "Gemma 2: ventana deslizante",
    );
    settle().await;
    // Writing a counterexample is not understanding it: no reason yet,
    // nothing recorded.
    assert_eq!(
        find(&root, "lesson-contract-understand")
            .get_attribute("data-done")
            .as_deref(),
        Some("false")
    );
    type_into(&root, "lesson-prediction", "18,8");
    settle().await;
    click(&root, "lesson-reveal");
    type_into(&root, "lesson-transfer-test", "Llama-3.1-70B a 4 bits");
    settle().await;
    click(&root, "lesson-record");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 1);
    assert!(text(&root, "notebook-entry-step").contains("Predecir"));
    assert!(text(&root, "notebook-entry-discrepancy").starts_with("+0,02 GB"));
    assert_eq!(
        find(&root, "lesson-contract-understand")
            .get_attribute("data-done")
            .as_deref(),
        Some("false"),
        "a counterexample without its reason does not mark it"
    );
    let saved = stored(&storage);
    let e = &saved.entries[0];
    assert_eq!(e.scenario, Request::default());
    assert_eq!(e.app_version, report::APP_VERSION);
    assert_eq!(e.prediction, Prediction::new(18.8, DisplayUnit::Gb));
    assert_eq!(e.observed.unwrap().total_bytes, 18_781_116_006);
    assert_eq!(e.discrepancy.unwrap().difference_bytes, 18_883_994);
    assert_eq!(e.counterexample, "Gemma 2: ventana deslizante");
    assert_eq!(e.transfer_test, "Llama-3.1-70B a 4 bits");

    // Another language, the same notebook.
    lang.set(Lang::En);
    settle().await;
    assert_eq!(
        find(&root, "notebook-panel")
            .get_attribute("lang")
            .as_deref(),
        Some("en")
    );
    assert!(text(&root, "notebook-entry-step").contains("Predict"));
    assert!(text(&root, "notebook-entry-discrepancy").starts_with("+0.02 GB"));

    // Opening the entry puts its scenario back in the calculator.
    input.update(|i| i.scenario.context = 1);
    click(&root, "notebook-entry-open");
    settle().await;
    assert_eq!(input.get_untracked(), Request::default());

    // Edit, delete, undo.
    click(&root, "notebook-entry-edit");
    settle().await;
    type_into(&root, "notebook-edit-notes", "checked by hand");
    type_into(&root, "notebook-edit-prediction", "17.5");
    click(&root, "notebook-edit-save");
    settle().await;
    assert_eq!(text(&root, "notebook-entry-notes"), "checked by hand");
    assert_eq!(stored(&storage).entries[0].prediction.unwrap().value, 17.5);
    click(&root, "notebook-entry-delete");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 0);
    click(&root, "notebook-undo");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 1);
}

#[wasm_bindgen_test]
async fn the_panel_warns_when_the_notebook_lives_in_memory() {
    let root = host();
    let storage = MemoryStorage::new();
    storage.put(KEY, "{broken");
    let input = RwSignal::new(Request::default());
    {
        let storage = storage.clone();
        leptos::mount::mount_to(root.clone(), move || {
            view! { <NotebookPanel input notebook=Notebook::with_storage(storage.clone()) /> }
        })
        .forget();
    }
    settle().await;
    assert_eq!(count(&root, "notebook-warning"), 0);
    assert!(text(&root, "notebook-notice").contains(BACKUP_PREFIX));
    storage.set_quota(Some(10));
    click(&root, "notebook-add");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 1);
    assert!(text(&root, "notebook-warning").contains("lleno"));
    assert_eq!(count(&root, "notebook-warning-export"), 1);
    // Clear asks first.
    click(&root, "notebook-clear");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 1);
    click(&root, "notebook-clear-cancel");
    settle().await;
    assert_eq!(count(&root, "notebook-clear-confirm"), 0);
    click(&root, "notebook-clear");
    settle().await;
    click(&root, "notebook-clear-confirm");
    settle().await;
    assert_eq!(count(&root, "notebook-entry"), 0);
    assert_eq!(count(&root, "notebook-undo"), 1);
}

#[wasm_bindgen_test]
async fn the_lesson_shows_the_command_line_and_one_change_at_a_time() {
    let root = host();
    let input = mount_both(&root, &MemoryStorage::new(), RwSignal::new(Lang::En));
    input.update(|i| {
        i.scenario.params_b = 70.0;
        i.scenario.weight_bits = 4.0;
        i.scenario.gpu_memory_gb = 48.0;
    });
    settle().await;
    assert_eq!(
        text(&root, "lesson-cli"),
        "vramfit estimate --params 70 --weight-bits 4 --capacity-gb 48 --method quick --mode inference"
    );
    let json: Request = serde_json::from_str(&text(&root, "lesson-json")).unwrap();
    assert_eq!(json, input.get_untracked());
    assert!(text(&root, "lesson-change-baseline").contains('?'));
    type_into(&root, "lesson-prediction", "40");
    settle().await;
    click(&root, "lesson-reveal");
    settle().await;
    assert!(text(&root, "lesson-change-baseline").contains("39.68 GB"));
    // Double the context: only the KV cache and the overhead move.
    let row = text(&root, "lesson-change-context-x2");
    assert!(
        row.contains("KV cache") && row.contains("Overhead") && !row.contains("Weights"),
        "{row}"
    );
    // The GiB view: same bytes, another number.
    assert!(text(&root, "lesson-change-unit").contains("36.96 GiB"));
    // Investigate: two formats under the same budget.
    click(&root, "lesson-compare");
    settle().await;
    assert!(text(&root, "lesson-compare-budget").contains("48 GB"));
    assert_eq!(
        find(&root, "lesson-contract-investigate")
            .get_attribute("data-done")
            .as_deref(),
        Some("true")
    );
    assert!(text(&root, "lesson-compare-a-total").contains("39.68 GB"));
    // One click applies a change; the new scenario is hidden until predicted.
    click(&root, "lesson-apply-context-x2");
    settle().await;
    assert_eq!(input.get_untracked().scenario.context, 16_384);
    assert!(text(&root, "lesson-change-baseline").contains('?'));
    assert_eq!(count(&root, "kit-download"), 1);
}
