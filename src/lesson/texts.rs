//! The wording of the lesson: what every language's table holds
//! ([`LessonTexts`], [`MethodLesson`]). The tables are in `i18n/<lang>/`;
//! views hold no wording and ask `lang.lesson()`.

use super::methodology::Doc;
use super::symbols::Symbol;
use vramfit_core::methods::MethodId;
use vramfit_core::units::DisplayUnit;

/// The lesson's wording in one language. Every language fills every
/// field, so a missing text is a compile error, and so is a method that a
/// language's [`LessonTexts::method`] does not name.
pub struct LessonTexts {
    pub title: &'static str,
    pub lead: &'static str,
    pub method_label: &'static str,

    pub contract_title: &'static str,
    pub contract_goal: &'static str,
    pub understand: &'static str,
    pub understand_what: &'static str,
    pub understand_how: &'static str,
    pub implement: &'static str,
    pub implement_what: &'static str,
    pub implement_how: &'static str,
    pub investigate: &'static str,
    pub investigate_what: &'static str,
    pub investigate_how: &'static str,
    pub done: &'static str,
    pub pending: &'static str,

    pub start_title: &'static str,
    pub start_intro: &'static str,
    pub start_load: &'static str,
    pub start_current_ok: &'static str,
    pub start_current_refused: &'static str,

    pub understand_title: &'static str,
    pub assumptions: &'static str,
    pub terms: &'static str,
    pub term: &'static str,
    pub formula: &'static str,
    pub symbols: &'static str,
    pub substituted: &'static str,
    pub value: &'static str,
    pub total_label: &'static str,
    pub zero_terms: &'static str,
    pub outside_total: &'static str,
    pub no_substitution: &'static str,
    pub method_refuses: &'static str,

    pub counter_title: &'static str,
    pub counter_intro: &'static str,
    pub counter_run: &'static str,
    pub counter_as_assumed: &'static str,
    pub counter_broken: &'static str,
    /// The second column's head when the case is set against an engine's
    /// own start-up log.
    pub counter_logged: &'static str,
    pub counter_usable: &'static str,
    pub counter_load: &'static str,
    /// The counterexample's figures read out, written from the table
    /// itself: the rows whose two columns differ.
    pub counter_differ: fn(&str) -> String,
    /// The row of the assumption at stake: its term, as assumed, broken.
    pub counter_stake: fn(&str, &str, &str) -> String,
    /// When the total moves against the row at stake: the other rows that
    /// the two columns count differently.
    pub counter_against: fn(&str) -> String,
    pub counterexample_label: &'static str,
    pub counterexample_hint: &'static str,
    pub reason_label: &'static str,
    pub reason_hint: &'static str,
    pub counter_record: &'static str,
    pub counter_recorded: &'static str,
    pub counter_too_short: &'static str,

    pub predict_title: &'static str,
    pub predict_intro: &'static str,
    pub predict_start: &'static str,
    pub predict_pending: &'static str,
    pub predict_cancel: &'static str,
    pub boundary_label: &'static str,
    pub boundary_min_context: &'static str,
    pub boundary_at_limit: &'static str,
    pub boundary_none_fits: &'static str,
    pub prediction_label: &'static str,
    pub prediction_hint: &'static str,
    pub prediction_invalid: &'static str,
    pub reveal: &'static str,
    pub hidden: &'static str,
    pub scenario_invalid: &'static str,
    pub predicted: &'static str,
    pub observed: &'static str,
    pub discrepancy: &'static str,
    pub too_high: &'static str,
    pub too_low: &'static str,
    pub exact: &'static str,
    pub after_reveal: &'static str,
    pub masked_hint: &'static str,

    pub isolate_title: &'static str,
    pub isolate_intro: &'static str,
    pub change: &'static str,
    pub total: &'static str,
    pub delta: &'static str,
    pub changed_terms: &'static str,
    pub baseline: &'static str,
    pub apply: &'static str,
    pub not_estimated: &'static str,
    pub same_bytes: &'static str,
    pub nothing_changes: &'static str,

    pub investigate_title: &'static str,
    pub investigate_intro: &'static str,
    pub kind_methods: &'static str,
    pub kind_formats: &'static str,
    pub current: &'static str,
    pub alternative: &'static str,
    pub utilization: &'static str,
    pub verdict: &'static str,

    pub example_title: &'static str,
    pub example_intro: &'static str,
    pub cli_label: &'static str,
    pub json_label: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub config_note: &'static str,
    pub json_note: &'static str,

    pub transfer_title: &'static str,
    pub transfer_intro: &'static str,
    pub notes_label: &'static str,
    pub transfer_label: &'static str,
    pub transfer_hint: &'static str,
    pub record: &'static str,
    pub recorded: &'static str,
    pub open_notebook: &'static str,
    pub evidence_title: &'static str,
    pub evidence_intro: &'static str,

    pub methodology_title: &'static str,
    pub methodology_intro: &'static str,
    pub methodology_language: &'static str,
    pub methodology_loading: &'static str,
    pub methodology_failed: &'static str,
    pub methodology_retry: &'static str,

    pub interpretation_title: &'static str,
    pub references_title: &'static str,
    pub scope_title: &'static str,
    pub checked: &'static str,
    pub not_checked: &'static str,
    pub scope_note: &'static str,

    pub kit_title: &'static str,
    pub kit_intro: &'static str,
    pub kit_download: &'static str,
    pub kit_failed: &'static str,

    // One change at a time, a comparison, in words; numbers come written
    // for the language.
    /// "Double the context: 16,384 tokens".
    pub double_context: fn(&str) -> String,
    /// "Half the bits per weight: 8".
    pub halve_bits: fn(&str) -> String,
    /// "View in GiB".
    pub unit_view: fn(DisplayUnit) -> String,
    /// "Method planner".
    pub switch_method: fn(MethodId) -> String,
    /// The budget both sides of a comparison share: GPU, context, sequences.
    pub matched_budget: fn(&str, &str, u64) -> String,
    /// "Alternative − current: +0.78 GB (+4.2%)".
    pub comparison: fn(&str, &str) -> String,
    /// What a method's lesson says.
    pub method: fn(MethodId) -> &'static MethodLesson,
    /// What a symbol of the formulas stands for (with its unit).
    pub symbol: fn(Symbol) -> &'static str,
    /// A methodology page's title.
    pub doc_title: fn(Doc) -> &'static str,
}

/// What a method's lesson says: how to read it, its assumptions in plain
/// words, where it starts and where it breaks, its sources (by name), and
/// what its review covered. The formulas themselves are written in symbols,
/// the same in every language (`lesson::formulas`).
pub struct MethodLesson {
    /// One paragraph: what the estimate is and is not.
    pub interpretation: &'static str,
    pub assumptions: &'static [&'static str],
    /// The scenario the lesson starts on, and why the method applies to it.
    pub start: &'static str,
    /// The prepared case where an assumption breaks.
    pub counterexample: &'static str,
    /// What the side-by-side shows: which conclusion no longer follows.
    pub counterexample_lesson: &'static str,
    /// (source, what it gives): sources named as a reader can find them.
    pub references: &'static [(&'static str, &'static str)],
    pub checked: &'static [&'static str],
    pub not_checked: &'static [&'static str],
}
