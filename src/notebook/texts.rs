//! The wording of the notebook ([`NotebookTexts`]), the lesson steps an
//! entry belongs to ([`Step`]), and an entry's scenario in one line. The
//! tables are in `i18n/<lang>/`; views ask `lang.notebook()`.

use super::persist::Notice;
use crate::i18n::{format, Lang};
use vramfit_core::request::Request;
use vramfit_core::scenario::ModelRef;

/// The notebook's wording in one language; every language fills every
/// field.
pub struct NotebookTexts {
    pub title: &'static str,
    pub intro: &'static str,
    pub add: &'static str,
    pub export: &'static str,
    pub import: &'static str,
    pub import_paste: &'static str,
    pub import_paste_button: &'static str,
    pub clear: &'static str,
    pub confirm_clear: &'static str,
    pub cancel: &'static str,
    pub undo: &'static str,
    pub undo_delete: &'static str,
    pub empty: &'static str,
    pub entries_label: &'static str,
    pub step: &'static str,
    pub scenario: &'static str,
    pub version: &'static str,
    pub prediction: &'static str,
    pub observed: &'static str,
    pub discrepancy: &'static str,
    pub notes: &'static str,
    pub counterexample: &'static str,
    /// Why the counterexample breaks the method's conclusion.
    pub reason: &'static str,
    pub transfer_test: &'static str,
    pub none: &'static str,
    pub open: &'static str,
    pub edit: &'static str,
    pub delete: &'static str,
    pub save: &'static str,
    pub dismiss: &'static str,
    pub export_now: &'static str,
    pub quota: &'static str,
    pub unavailable: &'static str,
    pub frozen: &'static str,
    pub saved_again: &'static str,
    pub prediction_value: &'static str,
    pub invalid_prediction: &'static str,
    /// A lesson step's name.
    pub step_name: fn(Step) -> &'static str,
    /// A notice in words.
    pub notice: fn(&Notice) -> String,
    /// A write that failed for a reason other than the quota.
    pub write_failed: fn(&str) -> String,
    /// The line offering to undo a clear of `n` entries.
    pub undo_clear: fn(usize) -> String,
    /// The question before clearing `n` entries.
    pub clear_question: fn(usize) -> String,
}

/// The lesson step an entry belongs to. Its id is what entries store; an
/// id from another version is shown as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Predict,
    Understand,
    Implement,
    Investigate,
    Isolate,
    Example,
    Transfer,
    Free,
}

impl Step {
    /// Every step, in the order the editor offers them.
    pub const ALL: [Step; 8] = [
        Step::Predict,
        Step::Understand,
        Step::Implement,
        Step::Investigate,
        Step::Isolate,
        Step::Example,
        Step::Transfer,
        Step::Free,
    ];

    /// The id entries store (`"predict"`).
    pub const fn id(self) -> &'static str {
        match self {
            Step::Predict => "predict",
            Step::Understand => "understand",
            Step::Implement => "implement",
            Step::Investigate => "investigate",
            Step::Isolate => "isolate",
            Step::Example => "example",
            Step::Transfer => "transfer",
            Step::Free => "free",
        }
    }

    /// The step of a stored id, if this version knows it.
    pub fn from_id(id: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|s| s.id() == id)
    }
}

/// A stored step's name in `lang`; an unknown id (from another version) as
/// it is.
pub fn step_name(lang: Lang, id: &str) -> String {
    Step::from_id(id).map_or_else(
        || id.to_string(),
        |s| (lang.notebook().step_name)(s).to_string(),
    )
}

/// One line that identifies a scenario.
pub fn scenario_summary(lang: Lang, request: &Request) -> String {
    let s = &request.scenario;
    let t = lang.t();
    let n = &t.number;
    let model = match &s.model {
        Some(ModelRef::Catalog(id)) => id.clone(),
        Some(ModelRef::Config(_) | ModelRef::ConfigWithQuant { .. }) => "config.json".to_string(),
        Some(ModelRef::Gguf(file)) => file.file.clone(),
        None => format!("{}B", format::plain(n, s.params_b)),
    };
    let weights = match s.weight_format {
        Some(f) => f.label().to_string(),
        None => format!("{} bits", format::plain(n, s.weight_bits)),
    };
    let gpu = match &s.gpu {
        Some(name) => name.clone(),
        None => format!("{} GB", format::plain(n, s.gpu_memory_gb)),
    };
    format!(
        "{} · {} · {model} · {weights} · {} × {} tokens · GPU {gpu}",
        request.method.id(),
        (t.mode_name)(s.mode),
        s.sequences,
        format::integer(n, s.context)
    )
}
