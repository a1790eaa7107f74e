//! What the views show, derived from the core's results by small pure
//! functions: breakdown rows with their shares and colours, how many
//! advanced knobs differ from the defaults, and the speed figure of the
//! selected method. Views call these; they compute nothing themselves.

use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::planner::{NoSpeed, SpeedRange};
use vramfit_core::methods::speed::SpeedEstimate;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Field, Mode, ScenarioInput};
use vramfit_core::term::Term;
use vramfit_core::units::Bytes;

/// How many advanced knobs differ from their defaults.
pub fn advanced_changed(request: &Request) -> usize {
    let default = ScenarioInput::default();
    Field::ADVANCED
        .iter()
        .filter(|f| request.scenario.get(**f) != default.get(**f))
        .count()
}

/// A method's own fields for a mode that no other part of the form already
/// shows.
pub fn method_fields(method: MethodId, mode: Mode) -> Vec<Field> {
    method
        .own_fields()
        .iter()
        .copied()
        .filter(|f| !Field::ADVANCED.contains(f) && !Field::SHARED.contains(f))
        // The adapters' rank means nothing outside LoRA and QLoRA.
        .filter(|f| *f != Field::LoraRank || matches!(mode, Mode::Lora | Mode::Qlora))
        .collect()
}

/// One line of the breakdown.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakdownRow {
    /// The term (`kv_cache`).
    pub term: Term,
    pub bytes: Bytes,
    /// Width in the stacked bar, percent of all rows.
    pub share_pct: f64,
    /// Colour index (`vf-c{n}`), the same for a name everywhere.
    pub colour: usize,
    /// Listed but not part of the method's total (the allocator's
    /// overhead, which the verdict adds).
    pub outside_total: bool,
}

/// The non-zero components of a result, in the method's order.
pub fn breakdown_rows(result: &MethodResult) -> Vec<BreakdownRow> {
    let parts: Vec<_> = result.components.0.iter().filter(|c| c.bytes > 0).collect();
    let all = parts
        .iter()
        .map(|c| c.bytes.get() as f64)
        .sum::<f64>()
        .max(1.0);
    parts
        .into_iter()
        .map(|c| BreakdownRow {
            term: c.term,
            bytes: c.bytes,
            share_pct: c.bytes.get() as f64 / all * 100.0,
            colour: colour_index(c.term),
            outside_total: result.outside_total.contains(&c.term),
        })
        .collect()
}

/// Number of component colours in the style sheet (`--vf-c0` …).
pub const COLOURS: usize = 12;

/// One colour per term, the same in every method and view; related terms
/// of different methods share one.
pub fn colour_index(term: Term) -> usize {
    match term {
        Term::Weights => 0,
        Term::KvCache | Term::KCache => 1,
        Term::Overhead | Term::EngineContext | Term::CudaGraphs => 2,
        Term::TrainingStates | Term::ModelStates | Term::MasterWeights => 3,
        Term::Runtime | Term::Communication | Term::OffloadStaging | Term::NonTorch => 4,
        Term::Activation | Term::Activations | Term::AttentionScores | Term::ActivationPeak => 5,
        Term::Margin => 6,
        Term::Gradients | Term::Adapters => 7,
        Term::Optimizer | Term::Logits | Term::OutputBuffer => 8,
        Term::AutocastCache | Term::StepWorkspace | Term::ComputeBuffer => 9,
        Term::VCache => 10,
        Term::HostPart => 11,
    }
}

/// The speed part of the results.
#[derive(Debug, Clone, PartialEq)]
pub enum SpeedView {
    /// The selected method gives no speed figure at all.
    NotAMethodFigure(MethodId),
    /// The method gives speed, but not for this scenario.
    Unavailable(NoSpeed),
    /// Decode tokens per second per user and prefill seconds, each from a
    /// conservative to a favourable end.
    Figures {
        decode_tokens_per_s: SpeedRange,
        prefill_seconds: SpeedRange,
        prompt_tokens: u64,
    },
    /// An engine method's plan: its figures stand beside the ring; this
    /// panel adds decode at the end of the context.
    Engine(Box<SpeedEstimate>),
}

/// The speed figure of the report's selected method (the planner gives
/// one, the other methods estimate memory only), read from the report.
pub fn speed_view(doc: &Report) -> SpeedView {
    let method = doc.estimate.method;
    if let Some(speed) = engine_speed(doc) {
        return SpeedView::Engine(Box::new(speed));
    }
    if method != MethodId::Planner {
        return SpeedView::NotAMethodFigure(method);
    }
    match (&doc.speed, doc.speed_unavailable) {
        (Some(speed), _) => SpeedView::Figures {
            decode_tokens_per_s: speed.tokens_per_s_per_user,
            prefill_seconds: speed.prefill_seconds,
            prompt_tokens: speed.prompt_tokens,
        },
        (None, Some(reason)) => SpeedView::Unavailable(reason),
        (None, None) => SpeedView::NotAMethodFigure(method),
    }
}

/// The speed of the engine plan the report estimates (`estimate.engine.speed`:
/// vLLM's and llama.cpp's), `None` for the other methods or without a
/// catalog GPU's figures.
pub fn engine_speed(doc: &Report) -> Option<SpeedEstimate> {
    match doc.estimate.engine.as_ref()? {
        EngineReport::Vllm(v) => v.speed.clone(),
        EngineReport::Llamacpp(l) => l.speed.clone(),
    }
}
