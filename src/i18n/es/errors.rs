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
        InputProblem::Empty => "Escribe un número.".into(),
        InputProblem::NotANumber => "No es un número.".into(),
        InputProblem::NotAnInteger => "Debe ser un número entero.".into(),
        InputProblem::TooSmall | InputProblem::TooLarge => {
            format!("Debe estar entre {} y {}.", num(e.min), num(e.max))
        }
    }
}

pub(super) fn gpu_not_found(miss: &NotFound) -> String {
    if miss.suggestions.is_empty() {
        format!("No hay ninguna GPU «{}» en el catálogo.", miss.query)
    } else {
        format!(
            "No hay ninguna GPU «{}» en el catálogo. ¿Quizá {}?",
            miss.query,
            miss.suggestions.join(", ")
        )
    }
}

pub(super) fn scenario_error(e: &ScenarioError) -> String {
    match e {
        ScenarioError::Field(f) => format!("{}: {}", field(f.field).label, input_error(f)),
        ScenarioError::UnknownModel(miss) if miss.suggestions.is_empty() => {
            format!("No hay ningún modelo «{}» en el catálogo.", miss.query)
        }
        ScenarioError::UnknownModel(miss) => format!(
            "No hay ningún modelo «{}» en el catálogo. ¿Quizá {}?",
            miss.query,
            miss.suggestions.join(", ")
        ),
        ScenarioError::UnknownGpu(miss) => gpu_not_found(miss),
        ScenarioError::Config(e) => format!("config.json no se puede usar: {}", config_error(e)),
        ScenarioError::Planner(e) => format!("{}.", planner_error(e)),
        ScenarioError::Speed(e) => format!(
            "Un ajuste de velocidad está fuera de su rango: {} = {} ({}–{}).",
            e.field,
            num(e.value),
            num(e.min),
            num(e.max)
        ),
        ScenarioError::Engine(e) => match crate::i18n::engine_texts(crate::i18n::Lang::Es) {
            Some(t) => (t.knob_error)(e),
            // Before the engine's tables have come (see engine_texts).
            None => "Este ajuste del motor está fuera de su rango.".into(),
        },
        ScenarioError::Layout(e) => format!("{}.", layout_error(e)),
        ScenarioError::NeedsModel(_) => {
            "El formato «como se publicó» necesita un modelo real (catálogo o config.json).".into()
        }
    }
}

pub(super) fn run_error(e: &RunError) -> String {
    match e.reason {
        Refusal::Mode(mode) => format!(
            "El método {} no estima el modo {}.",
            method_name(e.method),
            (TEXTS.mode_name)(mode)
        ),
        reason => format!(
            "El método {} no puede estimar esto: {}.",
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
            format!("no es JSON válido (línea {line}, columna {column}).")
        }
        ConfigErrorKind::NotAnObject => "no es un objeto JSON ({ … }).".into(),
        ConfigErrorKind::MissingKeys { keys } => {
            format!("faltan claves: {}.", keys.join(", "))
        }
        ConfigErrorKind::WrongType { key, expected } => {
            format!("la clave {key} debería ser de tipo {expected}.")
        }
        ConfigErrorKind::Contradictory { keys, reason } => {
            format!("las claves {} se contradicen ({reason}).", keys.join(", "))
        }
        ConfigErrorKind::Unsupported { reason } => {
            format!("describe algo que vramfit no modela ({reason}).")
        }
        ConfigErrorKind::OutOfRange { key, value } => {
            format!("{key} = {value} está fuera de rango.")
        }
        ConfigErrorKind::UnknownModelType {
            model_type,
            architecture,
        } => match (model_type, architecture) {
            (Some(t), _) => format!(
                "vramfit no lee exactamente el tipo de modelo «{t}», así que no lo estima."
            ),
            (None, Some(a)) => format!(
                "no tiene model_type y vramfit no lee exactamente la arquitectura «{a}»."
            ),
            (None, None) => "no indica model_type, así que su estructura es desconocida.".into(),
        },
        ConfigErrorKind::UnknownLayerPattern { key, model_type } => format!(
            "la clave {key} describe las capas de una forma que el lector del tipo de modelo «{model_type}» no conoce, así que no se estima."
        ),
    }
}

pub(super) fn out_of_scope(reason: &Refusal) -> String {
    match reason {
        Refusal::Mode(mode) => format!("no estima el modo {}", (TEXTS.mode_name)(*mode)),
        Refusal::NeedsModel => {
            "necesita un modelo real (del catálogo o un config.json), no números a mano".into()
        }
        Refusal::Family(family) => format!(
            "los modelos {} quedan fuera de su alcance (Llama, Mistral, Qwen2, Qwen3, Gemma y Gemma 2 densos)",
            trust::family_name(*family)
        ),
        Refusal::Feature(feature) => {
            let what = match feature {
                Feature::Experts => "mezcla de expertos",
                Feature::LatentAttention => "atención latente (MLA)",
                Feature::LinearLayers => "capas lineales o de estado",
                Feature::QuantizedCheckpoint => "un checkpoint cuantizado",
                Feature::NoDenseMlp => "ninguna MLP densa (intermediate_size)",
                Feature::CompressedAttention => "atención comprimida (DeepSeek-V4)",
                Feature::SparseIndexer => "un indexador de atención dispersa (MiniMax-M3)",
                Feature::MixedAttentionWidths => "anchos de cabeza de atención distintos por capa",
                Feature::VisionTower => "una torre de visión (sus activaciones no se derivan)",
            };
            format!("el modelo tiene {what}, que este método no modela")
        }
        Refusal::QuantizedWeights => {
            "solo cubre pesos fp32, bf16 y fp16; los formatos cuantizados quedan fuera".into()
        }
        Refusal::TooManyGpus { max } => format!("reparte un modelo entre {max} GPU como máximo"),
        Refusal::SingleGpu { tp, pp } => format!(
            "estima una GPU con el modelo entero, no una copia repartida en TP {tp} × PP {pp}; pon TP = PP = 1 para una copia por GPU, o elige range o planner"
        ),
        Refusal::Optimizer(optimizer) => format!(
            "solo da los estados de entrenamiento de AdamW, no los de {}",
            trust::optimizer_name(*optimizer)
        ),
        Refusal::Knob(e) => planner_error(e),
        Refusal::Engine(e) => match crate::i18n::engine_texts(crate::i18n::Lang::Es) {
            Some(t) => (t.refusal)(e),
            None => "El motor no acepta este escenario.".into(),
        },
    }
}

pub(super) fn layout_error(e: &LayoutError) -> String {
    match *e {
        LayoutError::NotDivisible { gpus, tp, pp } => format!(
            "TP {tp} × PP {pp} = {} GPU por copia del modelo no divide {gpus} GPU",
            tp.saturating_mul(pp)
        ),
        LayoutError::Heads {
            tp,
            attention: Some(h),
            kv,
        } => format!("TP {tp} no reparte las {h} cabezas de atención y {kv} cabezas KV del modelo"),
        LayoutError::Heads { tp, kv, .. } => format!("TP {tp} no reparte {kv} cabezas KV"),
        LayoutError::Stages { pp, layers } => {
            format!("PP {pp} son más etapas que las {layers} capas del modelo")
        }
        LayoutError::NoSpread { gpus } => format!(
            "ningún TP × PP reparte este modelo entre {gpus} GPU; prueba otro número de GPU"
        ),
        LayoutError::OneDevice { gpus } => format!(
            "un Mac tiene una sola GPU: {gpus} serían un clúster de Macs en red, \
             que vramfit no modela"
        ),
    }
}

pub(super) fn no_speed(reason: &NoSpeed) -> String {
    match reason {
        NoSpeed::Training => "el entrenamiento no tiene cifra de velocidad".into(),
        NoSpeed::CustomModel => "los modelos a mano no tienen cifra de velocidad".into(),
        NoSpeed::Moe => "los modelos de mezcla de expertos no tienen cifra de velocidad".into(),
        NoSpeed::Mla => "la atención latente (MLA) no tiene cifra de velocidad".into(),
        NoSpeed::SlidingWindow => {
            "la atención de ventana deslizante no tiene cifra de velocidad".into()
        }
        NoSpeed::SpecialDimensions => {
            "una atención más ancha o más estrecha que el tamaño oculto no tiene cifra de velocidad"
                .into()
        }
        NoSpeed::Parallelism => {
            "TP o PP mayores que 1 no tienen una cifra de velocidad calibrada".into()
        }
        NoSpeed::Offload => "los pesos descargados a la CPU no tienen cifra de velocidad".into(),
        NoSpeed::NoEfficientAttention => {
            "la velocidad supone atención eficiente (un kernel fusionado)".into()
        }
        NoSpeed::NoGpu => "la velocidad necesita una GPU del catálogo".into(),
        NoSpeed::NoGpuFigures => "la GPU no tiene cifra BF16 densa en el catálogo".into(),
        NoSpeed::RackScaleGpu => "el GB300 NVL72 no tiene cifra de velocidad".into(),
        NoSpeed::DoesNotFit => "solo se da velocidad cuando el modelo cabe sin offload".into(),
        NoSpeed::OutOfScope(r) => format!("no hay estimación: {}", out_of_scope(r)),
    }
}

pub(super) fn planner_error(e: &PlannerError) -> String {
    let gb = |bytes: Bytes| format::decimal(&NUMBER, bytes.in_unit(DisplayUnit::Gb), 3);
    let problem = match e.problem {
        KnobProblem::NotANumber => "no es un número".to_string(),
        KnobProblem::OutOfRange { min, max } => {
            format!("debe estar entre {} y {}", num(min), num(max))
        }
        KnobProblem::NotTwoOrFour => "debe ser 2 (BF16) o 4 (FP32)".to_string(),
        KnobProblem::AboveContext { context } => format!(
            "no puede superar el contexto ({} tokens)",
            format::integer(&NUMBER, context)
        ),
        KnobProblem::AboveParams { params } => format!(
            "no puede superar los {} parámetros del modelo",
            format::integer(&NUMBER, params)
        ),
        KnobProblem::AboveUnquantized { unquantized } => format!(
            "no puede superar los {} parámetros sin cuantizar",
            format::integer(&NUMBER, unquantized)
        ),
        KnobProblem::AboveBodyWeights { max_bytes } => format!(
            "no puede superar los pesos cuantizados de una GPU ({} GB)",
            gb(max_bytes)
        ),
        KnobProblem::AboveHostRam { max_bytes } => format!(
            "sumado en todas las GPU de una máquina no puede superar el 80 % de su RAM ({} GB por GPU)",
            gb(max_bytes)
        ),
    };
    format!(
        "{} (planner.{}) {problem}",
        trust::knob_name(e.knob),
        e.knob.key()
    )
}
