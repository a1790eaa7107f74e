//! The messages of what the calculator cannot read or estimate: a
//! field, the scenario, a config.json, a method's refusal, the layout,
//! the planner's knobs, a missing speed figure.

use super::{field, num, trust, NUMBER, TEXTS};
use crate::i18n::{format, method_name};
use vramfit_core::catalog::NotFound;
use vramfit_core::methods::planner::NoSpeed;
use vramfit_core::methods::{Feature, Refusal, RunError};
use vramfit_core::model::{ConfigError, ConfigErrorKind};
use vramfit_core::request::RequestError;
use vramfit_core::scenario::{
    InputError, InputProblem, KnobProblem, LayoutError, PlannerError, ScenarioError,
};
use vramfit_core::units::{Bytes, DisplayUnit};

pub(super) fn input_error(e: &InputError) -> String {
    match e.problem {
        InputProblem::Empty => "Typ een getal.".into(),
        InputProblem::NotANumber => "Dat is geen getal.".into(),
        InputProblem::NotAnInteger => "Moet een geheel getal zijn.".into(),
        InputProblem::TooSmall | InputProblem::TooLarge => {
            format!("Moet tussen {} en {} liggen.", num(e.min), num(e.max))
        }
    }
}

pub(super) fn gpu_not_found(miss: &NotFound) -> String {
    if miss.suggestions.is_empty() {
        format!("Geen GPU ‘{}’ in de catalogus.", miss.query)
    } else {
        format!(
            "Geen GPU ‘{}’ in de catalogus. Bedoel je {}?",
            miss.query,
            miss.suggestions.join(", ")
        )
    }
}

pub(super) fn scenario_error(e: &ScenarioError) -> String {
    match e {
        ScenarioError::Field(f) => format!("{}: {}", field(f.field).label, input_error(f)),
        ScenarioError::UnknownModel(miss) if miss.suggestions.is_empty() => {
            format!("Geen model ‘{}’ in de catalogus.", miss.query)
        }
        ScenarioError::UnknownModel(miss) => format!(
            "Geen model ‘{}’ in de catalogus. Bedoel je {}?",
            miss.query,
            miss.suggestions.join(", ")
        ),
        ScenarioError::UnknownGpu(miss) => gpu_not_found(miss),
        ScenarioError::Config(e) => format!("config.json is niet bruikbaar: {}", config_error(e)),
        ScenarioError::Planner(e) => format!("{}.", planner_error(e)),
        ScenarioError::Speed(e) => format!("Een snelheidsinstelling valt buiten het bereik: {} = {} ({}–{}).", e.field, num(e.value), num(e.min), num(e.max)),
        ScenarioError::Engine(e) => match crate::i18n::engine_texts(crate::i18n::Lang::Nl) {
            Some(t) => (t.knob_error)(e),
            // Before the engine's tables have come (see engine_texts).
            None => "Deze motorinstelling valt buiten haar bereik.".into(),
        },
        ScenarioError::Layout(e) => format!("{}.", layout_error(e)),
        ScenarioError::NeedsModel(_) => {
            "Het formaat ‘zoals gepubliceerd’ heeft een echt model nodig (catalogus of config.json)."
                .into()
        }
    }
}

pub(super) fn run_error(e: &RunError) -> String {
    match e.reason {
        Refusal::Mode(mode) => format!(
            "De methode {} schat {} niet.",
            method_name(e.method),
            (TEXTS.mode_name)(mode)
        ),
        reason => format!(
            "De methode {} kan dit niet schatten: {}.",
            method_name(e.method),
            out_of_scope(&reason)
        ),
    }
}

pub(super) fn request_error(e: &RequestError) -> String {
    match e {
        RequestError::Invalid(errors) => errors
            .iter()
            .map(scenario_error)
            .collect::<Vec<_>>()
            .join(" "),
        RequestError::Refused(e) => run_error(e),
    }
}

pub(super) fn config_error(e: &ConfigError) -> String {
    match &e.kind {
        ConfigErrorKind::InvalidJson { line, column, .. } => {
            format!("het is geen geldige JSON (regel {line}, kolom {column}).")
        }
        ConfigErrorKind::NotAnObject => "het is geen JSON-object ({ … }).".into(),
        ConfigErrorKind::MissingKeys { keys } => {
            format!("ontbrekende sleutels: {}.", keys.join(", "))
        }
        ConfigErrorKind::WrongType { key, expected } => {
            format!("{key} zou van het type {expected} moeten zijn.")
        }
        ConfigErrorKind::Contradictory { keys, reason } => {
            format!(
                "de sleutels {} spreken elkaar tegen ({reason}).",
                keys.join(", ")
            )
        }
        ConfigErrorKind::Unsupported { reason } => {
            format!("het beschrijft iets wat vramfit niet modelleert ({reason}).")
        }
        ConfigErrorKind::OutOfRange { key, value } => {
            format!("{key} = {value} valt buiten het bereik.")
        }
        ConfigErrorKind::UnknownModelType {
            model_type,
            architecture,
        } => match (model_type, architecture) {
            (Some(t), _) => format!(
                "vramfit leest modeltype “{t}” niet exact, dus het wordt niet geschat."
            ),
            (None, Some(a)) => format!(
                "het heeft geen model_type en vramfit leest architectuur “{a}” niet exact."
            ),
            (None, None) => "het noemt geen model_type, dus de opbouw is onbekend.".into(),
        },
        ConfigErrorKind::UnknownLayerPattern { key, model_type } => format!(
            "sleutel {key} beschrijft de lagen op een manier die de lezer van modeltype ‘{model_type}’ niet kent, dus het wordt niet geschat."
        ),
    }
}

pub(super) fn out_of_scope(reason: &Refusal) -> String {
    match reason {
        Refusal::Mode(mode) => format!("het schat {} niet", (TEXTS.mode_name)(*mode)),
        Refusal::NeedsModel => {
            "ze heeft een echt model nodig (uit de catalogus of een config.json), geen getypte getallen".into()
        }
        Refusal::Family(family) => format!(
            "{}-modellen vallen buiten haar bereik (dichte Llama, Mistral, Qwen2, Qwen3, Gemma, Gemma 2)",
            trust::family_name(*family)
        ),
        Refusal::Feature(feature) => {
            let what = match feature {
                Feature::Experts => "een mixture of experts",
                Feature::LatentAttention => "latente attention (MLA)",
                Feature::LinearLayers => "lineaire of state-space-lagen",
                Feature::QuantizedCheckpoint => "een gekwantiseerd checkpoint",
                Feature::NoDenseMlp => "geen dichte MLP (intermediate_size)",
                Feature::CompressedAttention => "gecomprimeerde attention (DeepSeek-V4)",
                Feature::SparseIndexer => "een indexer voor sparse attention (MiniMax-M3)",
                Feature::MixedAttentionWidths => "attention-kopbreedtes die per laag verschillen",
                Feature::VisionTower => "een vision-toren (de activaties ervan worden niet afgeleid)",
            };
            format!("het model heeft {what}, wat deze methode niet modelleert")
        }
        Refusal::QuantizedWeights => {
            "ze dekt alleen fp32-, bf16- en fp16-gewichten; gekwantiseerde formaten vallen erbuiten".into()
        }
        Refusal::TooManyGpus { max } => {
            format!("ze verdeelt een model over hoogstens {max} GPU's")
        }
        Refusal::SingleGpu { tp, pp } => format!(
            "ze schat één GPU met het hele model, niet één kopie verdeeld over TP {tp} × PP {pp}; zet TP = PP = 1 voor één kopie per GPU, of kies range of planner"
        ),
        Refusal::Optimizer(optimizer) => format!(
            "ze geeft alleen de trainingstoestanden van AdamW, niet die van {}",
            trust::optimizer_name(*optimizer)
        ),
        Refusal::Knob(e) => planner_error(e),
        Refusal::Engine(e) => match crate::i18n::engine_texts(crate::i18n::Lang::Nl) {
            Some(t) => (t.refusal)(e),
            None => "De engine neemt dit scenario niet aan.".into(),
        },
    }
}

pub(super) fn layout_error(e: &LayoutError) -> String {
    match *e {
        LayoutError::NotDivisible { gpus, tp, pp } => format!(
            "TP {tp} × PP {pp} = {} GPU's per kopie van het model deelt {gpus} GPU's niet",
            tp.saturating_mul(pp)
        ),
        LayoutError::Heads {
            tp,
            attention: Some(h),
            kv,
        } => format!("TP {tp} verdeelt de {h} attention-heads en {kv} KV-heads van het model niet"),
        LayoutError::Heads { tp, kv, .. } => format!("TP {tp} verdeelt {kv} KV-heads niet"),
        LayoutError::Stages { pp, layers } => {
            format!("PP {pp} is meer fasen dan de {layers} lagen van het model")
        }
        LayoutError::NoSpread { gpus } => {
            format!("geen TP × PP verdeelt dit model over {gpus} GPU's; probeer een ander aantal")
        }
        LayoutError::OneDevice { gpus } => format!(
            "een Mac heeft één GPU: {gpus} zouden een cluster van Macs via het netwerk zijn, \
             dat vramfit niet modelleert"
        ),
    }
}

pub(super) fn no_speed(reason: &NoSpeed) -> String {
    match reason {
        NoSpeed::Training => "training heeft geen snelheidscijfer".into(),
        NoSpeed::CustomModel => "modellen met de hand hebben geen snelheidscijfer".into(),
        NoSpeed::Moe => "mixture-of-experts-modellen hebben geen snelheidscijfer".into(),
        NoSpeed::Mla => "latente attention (MLA) heeft geen snelheidscijfer".into(),
        NoSpeed::SlidingWindow => {
            "attention met een glijdend venster heeft geen snelheidscijfer".into()
        }
        NoSpeed::SpecialDimensions => {
            "attention breder of smaller dan de verborgen grootte heeft geen snelheidscijfer".into()
        }
        NoSpeed::Parallelism => "TP of PP boven 1 heeft geen gekalibreerd snelheidscijfer".into(),
        NoSpeed::Offload => {
            "gewichten die naar de CPU zijn verplaatst hebben geen snelheidscijfer".into()
        }
        NoSpeed::NoEfficientAttention => {
            "de snelheid veronderstelt efficiënte attention (een gefuseerde kernel)".into()
        }
        NoSpeed::NoGpu => "de snelheid vraagt een GPU uit de catalogus".into(),
        NoSpeed::NoGpuFigures => "de GPU heeft geen dicht BF16-cijfer in de catalogus".into(),
        NoSpeed::RackScaleGpu => "de GB300 NVL72 heeft geen snelheidscijfer".into(),
        NoSpeed::DoesNotFit => {
            "snelheid wordt alleen gegeven als het model past zonder offload".into()
        }
        NoSpeed::OutOfScope(r) => format!("geen schatting: {}", out_of_scope(r)),
    }
}

pub(super) fn planner_error(e: &PlannerError) -> String {
    let gb = |bytes: Bytes| format::decimal(&NUMBER, bytes.in_unit(DisplayUnit::Gb), 3);
    let problem = match e.problem {
        KnobProblem::NotANumber => "is geen getal".to_string(),
        KnobProblem::OutOfRange { min, max } => {
            format!("moet tussen {} en {} liggen", num(min), num(max))
        }
        KnobProblem::NotTwoOrFour => "moet 2 (BF16) of 4 (FP32) zijn".to_string(),
        KnobProblem::AboveContext { context } => format!(
            "mag de context niet overschrijden ({} tokens)",
            format::integer(&NUMBER, context)
        ),
        KnobProblem::AboveParams { params } => format!(
            "mag de {} parameters van het model niet overschrijden",
            format::integer(&NUMBER, params)
        ),
        KnobProblem::AboveUnquantized { unquantized } => format!(
            "mag de {} ongekwantiseerde parameters niet overschrijden",
            format::integer(&NUMBER, unquantized)
        ),
        KnobProblem::AboveBodyWeights { max_bytes } => format!(
            "mag de gekwantiseerde gewichten op één GPU niet overschrijden ({} GB)",
            gb(max_bytes)
        ),
        KnobProblem::AboveHostRam { max_bytes } => format!(
            "mag over alle GPU's van een machine samen niet boven 80 % van haar RAM komen ({} GB per GPU)",
            gb(max_bytes)
        ),
    };
    format!(
        "{} (planner.{}) {problem}",
        trust::knob_name(e.knob),
        e.knob.key()
    )
}
