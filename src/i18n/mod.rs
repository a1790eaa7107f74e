//! Languages of the app: one typed table of texts per language, for the
//! whole page, the lesson and the notebook included.
//!
//! [`Texts`] (the page), [`LessonTexts`] and [`NotebookTexts`] list every
//! user-facing string; [`es`], [`en`] and [`nl`] each fill all three in
//! full, so a missing translation is a compile error, and so is a new core
//! enum variant (a [`Term`], a [`MethodId`], a mode) that a table's `match`
//! does not name. Numbers are written for the language by [`format`], the
//! one formatter (decimal comma in Spanish and Dutch, point in English);
//! the byte values themselves come from the core.
//!
//! The choice is remembered in `localStorage` (`vramfit.lang`); the first
//! visit follows the browser's `navigator.languages`.

pub mod en;
pub mod engine;
pub mod es;
pub mod format;
pub mod gguf;
pub mod nl;
pub mod tables;

use crate::import::ImportError;
use crate::lesson::texts::LessonTexts;
use crate::net::HubOutcome;
use crate::notebook::texts::NotebookTexts;
use format::NumberStyle;
use leptos::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};
use vramfit_core::advice::{Change, Cost};
use vramfit_core::catalog::NotFound;
use vramfit_core::methods::planner::NoSpeed;
use vramfit_core::methods::{MethodId, Refusal, RunError};
use vramfit_core::model::{AttentionKind, ConfigError};
use vramfit_core::request::RequestError;
use vramfit_core::scenario::{Field, InputError, Layout, LayoutError, Mode, ScenarioError};
use vramfit_core::term::Term;
use vramfit_core::verdict::FitStatus;

/// Where the chosen language is remembered.
pub const STORAGE_KEY: &str = "vramfit.lang";

/// A language of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// Spanish: the seeds' language and the default.
    #[default]
    Es,
    /// English.
    En,
    /// Dutch.
    Nl,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Lang; 3] = [Lang::Es, Lang::En, Lang::Nl];

    /// The BCP 47 primary subtag (`"es"`), also the stored value and the
    /// `data-testid` suffix of the switch (`lang-es`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::En => "en",
            Lang::Nl => "nl",
        }
    }

    /// The language of a tag such as `"en-GB"` or `"NL"`, if supported.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The first supported language of a preference list (the browser's
    /// `navigator.languages`), or Spanish.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Lang {
        preferred
            .into_iter()
            .find_map(Lang::from_tag)
            .unwrap_or_default()
    }

    /// The app's texts. With the feature `split`, from the tables loaded
    /// so far ([`tables`]: one language per load).
    pub fn t(self) -> &'static Texts {
        #[cfg(feature = "split")]
        return tables::get(self);
        #[cfg(not(feature = "split"))]
        match self {
            Lang::Es => &es::TEXTS,
            Lang::En => &en::TEXTS,
            Lang::Nl => &nl::TEXTS,
        }
    }

    /// The language's name in itself (its table's `name`), known before
    /// its table is loaded: the language switch names every language.
    pub const fn own_name(self) -> &'static str {
        match self {
            Lang::Es => "Español",
            Lang::En => "English",
            Lang::Nl => "Nederlands",
        }
    }

    /// Index of the language in [`Lang::ALL`].
    fn slot(self) -> usize {
        self.index() as usize
    }

    /// The lesson's texts.
    pub fn lesson(self) -> &'static LessonTexts {
        match self {
            Lang::Es => &es::LESSON,
            Lang::En => &en::LESSON,
            Lang::Nl => &nl::LESSON,
        }
    }

    /// The engine methods' texts.
    pub fn engine(self) -> &'static engine::EngineTexts {
        match self {
            Lang::Es => &es::ENGINE,
            Lang::En => &en::ENGINE,
            Lang::Nl => &nl::ENGINE,
        }
    }

    /// The notebook's texts.
    pub fn notebook(self) -> &'static NotebookTexts {
        match self {
            Lang::Es => &es::NOTEBOOK,
            Lang::En => &en::NOTEBOOK,
            Lang::Nl => &nl::NOTEBOOK,
        }
    }

    fn index(self) -> u8 {
        match self {
            Lang::Es => 0,
            Lang::En => 1,
            Lang::Nl => 2,
        }
    }
}

/// Label, unit suffix and one-line hint of an input field.
#[derive(Debug, Clone, Copy)]
pub struct FieldText {
    pub label: &'static str,
    pub unit: &'static str,
    pub hint: &'static str,
}

/// How to read one method's figure: what it assumes, its units and what
/// it leaves out (from docs/methodology.md and the seeds).
#[derive(Debug, Clone, Copy)]
pub struct Interpretation {
    /// One sentence: what the figure is.
    pub summary: &'static str,
    pub assumptions: &'static [&'static str],
    pub units: &'static str,
    pub leaves_out: &'static [&'static str],
}

impl Interpretation {
    /// Nothing to say yet: an engine method's reading before the engine's
    /// tables have come ([`engine_texts`]; the panel that shows it comes
    /// with them).
    pub const NOT_LOADED: Interpretation = Interpretation {
        summary: "",
        assumptions: &[],
        units: "",
        leaves_out: &[],
    };
}

/// Every user-facing text of the app, in one language.
pub struct Texts {
    /// The language's own name, for the switch.
    pub name: &'static str,
    /// How numbers are written.
    pub number: NumberStyle,
    pub page_title: &'static str,
    pub tagline: &'static str,
    /// The lesson and notebook's chunk is on its way (after the first result).
    pub learn_loading: &'static str,
    /// Their chunk could not be fetched; the calculator keeps working.
    pub learn_unavailable: &'static str,
    /// Try fetching it again.
    pub learn_retry: &'static str,
    /// Another part of the page on its way (after the first result).
    pub part_loading: &'static str,
    /// A part of the page could not be fetched; the calculator keeps working.
    pub part_unavailable: &'static str,
    /// The model catalog on its way (after the first result).
    pub catalog_loading: &'static str,
    pub lang_label: &'static str,

    // The three steps.
    pub step_configure: &'static str,
    pub step_input: &'static str,
    pub step_input_hint: &'static str,
    pub step_results: &'static str,
    pub details_title: &'static str,

    // Step 01's first screen: what runs where (`<lang>/picker.rs`).
    /// The question above the model and GPU pickers.
    pub first_question: &'static str,
    pub model_search_label: &'static str,
    pub model_search_placeholder: &'static str,
    /// The list when no catalog model matches the text.
    pub model_search_none: &'static str,
    /// Above the engines (vLLM, llama.cpp, PyTorch).
    pub engine_label: &'static str,
    /// Above the seeds' methods, which are not engines.
    pub other_estimates: &'static str,
    /// A method's name in plain words (the engines keep their own names).
    pub method_plain: fn(MethodId) -> &'static str,
    /// Beside the ring: llama.cpp runs layers from host memory (on host, of).
    pub host_layers: fn(u64, u64) -> String,

    // Step 01.
    pub mode_label: &'static str,
    pub method_label: &'static str,
    pub method_settings: &'static str,
    pub weight_format_label: &'static str,
    pub weight_manual: &'static str,
    /// The "as published" weight format (the checkpoint's own dtypes).
    pub as_published_label: &'static str,
    pub as_published_needs_model: &'static str,
    pub kv_dtype_label: &'static str,
    pub kv_manual: &'static str,
    pub workload_label: &'static str,
    pub gpu_label: &'static str,
    pub gpu_placeholder: &'static str,
    pub gpu_hint: &'static str,
    pub gpu_not_found: fn(&NotFound) -> String,
    /// The catalog GPU picked (full name, the memory counted) and the
    /// others the typed words name (`·`-separated; empty if none).
    pub gpu_picked: fn(&str, &str, &str) -> String,
    pub advanced_label: &'static str,
    /// "(2 changed)" after the disclosure's title.
    pub advanced_changed: fn(usize) -> String,
    pub attention_label: &'static str,
    pub precision_label: &'static str,
    pub optimizer_label: &'static str,
    pub grad_checkpoint: &'static str,

    // Step 02.
    pub model_manual_option: &'static str,
    pub config_label: &'static str,
    pub config_hint: &'static str,
    /// The `hf_quant_config.json` field beside a pasted config.
    pub side_label: &'static str,
    pub side_hint: &'static str,
    pub hub_label: &'static str,
    pub hub_placeholder: &'static str,
    pub hub_button: &'static str,
    pub hub_loading: &'static str,
    pub hub_outcome: fn(&HubOutcome) -> String,
    pub shape_title: &'static str,
    pub summary_params: &'static str,
    pub summary_active: fn(&str) -> String,
    pub summary_layers: &'static str,
    pub summary_kv_per_token: &'static str,

    // Results.
    pub compact_label: &'static str,
    pub ring_label: &'static str,
    /// "GPU 3", under a small per-GPU ring.
    pub gpu_ring_label: fn(u64) -> String,
    /// Under the per-GPU rings: every GPU carries the same budget.
    pub gpu_rings_note: fn(u64) -> String,
    /// "3.05 GB missing".
    pub missing: fn(&str) -> String,
    /// "5.22 GB to spare".
    pub spare: fn(&str) -> String,
    pub unit_label: &'static str,
    pub breakdown_caption: &'static str,
    pub outside_total: &'static str,
    pub suggestions_title: &'static str,
    pub answers_max_context: &'static str,
    /// The most concurrent sequences that fit.
    pub answers_max_sequences: &'static str,
    pub answers_smallest_gpu: &'static str,
    /// The fewest GPUs of the chosen kind it fits on.
    pub answers_min_gpus: &'static str,
    pub none_fits: &'static str,
    /// "32 768 tokens".
    pub tokens: fn(&str) -> String,
    pub methods_caption: &'static str,
    pub col_method: &'static str,
    pub col_total: &'static str,
    pub col_verdict: &'static str,
    pub export_button: &'static str,
    pub export_failed: &'static str,
    pub import_button: &'static str,
    pub drop_hint: &'static str,
    pub import_done: &'static str,
    pub import_error: fn(&ImportError) -> String,
    pub copy_link: &'static str,
    pub link_copied: &'static str,
    pub link_copy_failed: &'static str,
    pub link_broken: &'static str,
    pub truncated_note: &'static str,

    // Chart.
    pub chart_title: &'static str,
    /// "usable: 24.00 GB".
    pub chart_usable: fn(&str) -> String,
    /// Where the curve crosses the usable line.
    pub chart_crossing: fn(&str) -> String,
    pub chart_fits_everywhere: &'static str,
    pub chart_fits_nowhere: &'static str,
    pub chart_current: &'static str,
    pub chart_data: &'static str,
    pub chart_col_context: &'static str,
    pub chart_col_memory: &'static str,

    // Speed.
    pub speed_title: &'static str,
    /// The selected method gives no speed figure.
    pub speed_none: fn(&str) -> String,
    /// The method gives speed, but not for this scenario.
    pub speed_unavailable: fn(&NoSpeed) -> String,
    pub speed_decode: &'static str,
    /// "Prefill of 8 192 tokens".
    pub speed_prefill: fn(&str) -> String,
    pub speed_note: &'static str,
    pub tokens_per_second: &'static str,

    // Interpretation.
    pub interpretation_title: &'static str,
    pub interp_assumptions: &'static str,
    pub interp_units: &'static str,
    pub interp_leaves_out: &'static str,
    pub interpretation: fn(MethodId) -> Interpretation,

    // When something breaks.
    pub panic_title: &'static str,
    pub panic_body: &'static str,
    pub panic_reload: &'static str,
    /// The link that reloads without the scenario in the address.
    pub panic_start_fresh: &'static str,
    pub panic_details: &'static str,

    // Core values in words.
    pub field: fn(Field) -> FieldText,
    pub input_error: fn(&InputError) -> String,
    pub scenario_error: fn(&ScenarioError) -> String,
    /// A method that refuses a valid scenario.
    pub run_error: fn(&RunError) -> String,
    /// Whatever keeps a request from an estimate, in sentences.
    pub request_error: fn(&RequestError) -> String,
    pub config_error: fn(&ConfigError) -> String,
    pub mode_name: fn(Mode) -> &'static str,
    pub method_summary: fn(MethodId) -> &'static str,
    pub status_word: fn(FitStatus) -> &'static str,
    /// A term's name (every term of every method).
    pub term: fn(Term) -> &'static str,
    pub change: fn(&Change) -> String,
    pub cost: fn(Cost) -> &'static str,
    pub attention_kind: fn(&AttentionKind) -> String,
    pub out_of_scope: fn(&Refusal) -> String,
    /// In place of the figures while a blind prediction is pending.
    pub veiled: &'static str,
    /// The link to the lesson's prediction.
    pub veiled_go: &'static str,
    /// The button that shows the figures without predicting.
    pub veiled_show: &'static str,

    /// Why the GPUs cannot be used as asked.
    pub layout_error: fn(&LayoutError) -> String,

    // Answers to trust: the method switched on its own, the checkpoint's
    // format (`<lang>/trust.rs`).
    /// "The method changed from quick to planner."
    pub switch_done: fn(&str, &str) -> String,
    /// Why: the most complete method for the new scenario.
    pub switch_preferred: &'static str,
    /// Why: the method chosen does not estimate the new scenario.
    pub switch_no_longer_applies: &'static str,
    pub switch_undo: &'static str,
    /// "Published in MXFP4: 13.76 GB of weights" (format, bytes, and the
    /// vision tower's bytes when it has one).
    pub model_published: fn(&str, &str, Option<&str>) -> String,
    pub summary_published: &'static str,
    /// The model's name says it is quantized (the word, e.g. "NVFP4") but
    /// config.json has no `quantization_config`: the weights are counted
    /// unquantized.
    pub quant_not_in_config: fn(&str) -> String,
    /// Beside the weights row when they include a vision tower.
    pub weights_with_vision: fn(&str) -> String,
    /// Under the chart when its axis ends at the model's maximum context.
    pub chart_model_max: fn(&str) -> String,
    /// After the longest context when the model's maximum stops it.
    pub answer_model_max: &'static str,
    /// After an answer that reached the largest value the input accepts.
    pub answer_input_max: &'static str,
    /// Beside the context field when it is above the model's maximum.
    pub context_over_model_max: fn(&str) -> String,
    /// Over greyed figures: they belong to the last input that worked.
    pub stale_figures: &'static str,
    /// Before the methods that do estimate the scenario.
    pub way_out_methods: &'static str,
    pub way_out_none: &'static str,
    /// Button: let vramfit derive TP and PP from the GPU count.
    pub way_out_layout: &'static str,
    /// The button that sets the GPU count to one.
    pub way_out_one_gpu: &'static str,
    pub way_out_field: &'static str,
    pub way_out_model: &'static str,
    /// The total's label: one GPU holds it all, or it is per GPU of n.
    pub total_per_gpu: fn(u64) -> String,
    /// "All 4 GPUs: 173.04 GB".
    pub total_all_gpus: fn(u64, &str) -> String,
    /// Methods table: the GPUs carrying the figure, and all of them.
    pub col_gpus: &'static str,
    pub col_all_gpus: &'static str,
    /// Training knob: the forward keeps a KV cache (`use_cache=True`).
    pub use_cache: &'static str,
    /// Placeholder of a field whose empty value is derived (TP, PP).
    pub field_auto: &'static str,
    /// "4 GPUs: TP 4 × PP 1, one copy of the model (derived)".
    pub layout_summary: fn(&Layout) -> String,
    /// Beside the model's name over the results: "published in MXFP4,
    /// 13.76 GB of weights".
    pub published_beside_name: fn(&str, &str) -> String,
}

/// A method's name: its stable id, the same in every language.
pub fn method_name(method: MethodId) -> &'static str {
    method.id()
}

/// The language signal shared by every component (provided by the app).
#[derive(Debug, Clone, Copy)]
pub struct LangContext(pub RwSignal<Lang>);

/// The current language; Spanish where no app provides one (a component
/// mounted on its own, as in the browser tests).
pub fn use_lang() -> Signal<Lang> {
    match use_context::<LangContext>() {
        Some(LangContext(lang)) => lang.into(),
        None => Signal::stored(Lang::default()),
    }
}

/// The language last shown, for code that runs outside the reactive
/// system (the panic message).
static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Records the language on screen (see [`current`]).
pub fn set_current(lang: Lang) {
    CURRENT.store(lang.index(), Ordering::Relaxed);
}

/// The language last recorded with [`set_current`].
pub fn current() -> Lang {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Lang::En,
        2 => Lang::Nl,
        _ => Lang::Es,
    }
}

/// The language a shared link names, else the remembered one, else the
/// browser's preference, else Spanish.
/// Never panics: a browser without storage or navigator gives Spanish.
pub fn initial_lang() -> Lang {
    crate::share::lang_of(&crate::share::address_fragment())
        .or_else(stored_lang)
        .unwrap_or_else(|| Lang::negotiate(browser_languages().iter().map(String::as_str)))
}

/// The language stored by an earlier visit, if storage works and holds one.
/// The value is a JSON string (`"en"`), as gloo-storage wrote it; read here
/// without a JSON parser, which the first load does not otherwise need.
pub fn stored_lang() -> Option<Lang> {
    let stored = storage()?.get_item(STORAGE_KEY).ok()??;
    let code = stored.trim();
    let code = code
        .strip_prefix('"')
        .and_then(|c| c.strip_suffix('"'))
        .unwrap_or(code);
    Lang::from_tag(code)
}

/// Remembers `lang` (as a JSON string, see [`stored_lang`]); a full or
/// blocked storage is ignored.
pub fn store_lang(lang: Lang) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(STORAGE_KEY, &format!("\"{}\"", lang.code()));
    }
}

/// `localStorage`, where it can be used (not in sandboxed frames or with
/// site data disabled).
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// `navigator.languages`, else `navigator.language`.
fn browser_languages() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let list: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if list.is_empty() {
        navigator.language().into_iter().collect()
    } else {
        list
    }
}

/// Shows `lang` on the document: `<html lang>` and the window title.
pub fn apply_to_document(lang: Lang) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.code());
        }
        document.set_title(lang.t().page_title);
    }
}

/// The engine methods' tables as a page table reaches them (an engine's
/// refusal, a knob's error). In the release build the tables come with the
/// `details` chunk, which installs them when it loads
/// ([`install_engine_texts`]); no engine method runs before it, so a page
/// table need not carry them into the first load. Before then (a link
/// whose engine knobs are out of range) `None`: the core's own sentence
/// is shown.
pub fn engine_texts(lang: Lang) -> Option<&'static engine::EngineTexts> {
    #[cfg(feature = "split")]
    return ENGINE_TABLES.get().map(|tables| tables(lang));
    #[cfg(not(feature = "split"))]
    Some(lang.engine())
}

#[cfg(feature = "split")]
static ENGINE_TABLES: std::sync::OnceLock<fn(Lang) -> &'static engine::EngineTexts> =
    std::sync::OnceLock::new();

/// Makes the engine tables reachable from the page tables (the `details`
/// chunk calls it when it loads).
pub fn install_engine_texts() {
    #[cfg(feature = "split")]
    let _ = ENGINE_TABLES.set(Lang::engine);
}
