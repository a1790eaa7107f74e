//! The texts of answers to trust: a method the page switched on its own,
//! the checkpoint's own format, and the core's ids in words.

use vramfit_core::model::Family;
use vramfit_core::scenario::{Knob, Layout, Optimizer, WeightFormat};

pub(super) fn switch_done(from: &str, to: &str) -> String {
    format!("El método pasó de {from} a {to}.")
}

pub(super) const SWITCH_PREFERRED: &str = "Es el método más completo para este modelo y modo.";
pub(super) const SWITCH_NO_LONGER_APPLIES: &str = "El método que elegiste no estima esto.";
pub(super) const SWITCH_UNDO: &str = "Deshacer";
pub(super) const SUMMARY_PUBLISHED: &str = "Publicado";

pub(super) fn model_published(format: &str, bytes: &str, vision: Option<&str>) -> String {
    let vision = vision.map_or(String::new(), |v| {
        format!(", torre de visión de {v} incluida")
    });
    format!("{format}: {bytes} de pesos{vision}")
}

pub(super) fn weights_with_vision(bytes: &str) -> String {
    format!("incluye la torre de visión ({bytes})")
}

pub(super) fn chart_model_max(n: &str) -> String {
    format!(
        "El eje termina en el contexto máximo del modelo: {n} tokens (max_position_embeddings)."
    )
}

pub(super) const ANSWER_MODEL_MAX: &str = "(el máximo del modelo, max_position_embeddings)";
pub(super) const ANSWER_INPUT_MAX: &str = "(el mayor valor aceptado; puede caber más)";

pub(super) fn context_over_model_max(n: &str) -> String {
    format!("Por encima del contexto máximo del modelo ({n} tokens, max_position_embeddings): no se entrenó para esta longitud.")
}

pub(super) const STALE_FIGURES: &str =
    "Las cifras de abajo son las de la última entrada que funcionó; no responden a la actual.";
pub(super) const WAY_OUT_METHODS: &str = "Métodos que sí lo estiman:";
pub(super) const WAY_OUT_NONE: &str =
    "Ningún método estima esta entrada: cambia el modo, el modelo o las GPU.";
pub(super) const WAY_OUT_LAYOUT: &str = "Que vramfit derive TP y PP del número de GPU";
pub(super) const WAY_OUT_ONE_GPU: &str = "Usar una sola GPU";
pub(super) const WAY_OUT_FIELD: &str =
    "Corrige el campo marcado en rojo: su ayuda dice qué acepta.";
pub(super) const WAY_OUT_MODEL: &str =
    "Elige un modelo (catálogo, config.json o Hub) u otro formato de pesos.";

pub(super) fn total_per_gpu(n: u64) -> String {
    match n {
        0 | 1 => "Total estimado (una GPU)".to_string(),
        n => format!("Por GPU (cada una de {n})"),
    }
}

pub(super) fn total_all_gpus(n: u64, bytes: &str) -> String {
    format!("Las {n} GPU: {bytes}")
}

pub(super) const COL_GPUS: &str = "GPU";
pub(super) const COL_ALL_GPUS: &str = "Todas las GPU";

pub(super) const USE_CACHE: &str =
    "Caché KV en el forward (use_cache, por defecto en transformers)";

/// A planner knob in words (its JSON key is `planner.<key>`).
pub(super) fn knob_name(knob: Knob) -> &'static str {
    match knob {
        Knob::ActivationK => "El factor de activaciones K del planificador",
        Knob::EngineContextGb => "El contexto del motor por GPU",
        Knob::MarginPct => "El margen del planificador",
        Knob::ReservePct => "La reserva del planificador",
        Knob::QuantMetadataPct => "Los metadatos de cuantización",
        Knob::KvBlockTokens => "Los tokens por bloque KV",
        Knob::PrefillBudgetTokens => "El presupuesto de prefill",
        Knob::SharedPrefixTokens => "El prefijo de prompt compartido",
        Knob::GradientBytes => "Los bytes por gradiente",
        Knob::Machines => "El número de equipos",
        Knob::BatchLimit => "El lote máximo del motor",
        Knob::OffloadGb => "Los pesos descargados",
        Knob::HiddenSize => "El tamaño oculto",
        Knob::VocabSize => "El tamaño del vocabulario",
        Knob::AttentionHeads => "El número de cabezas de atención",
        Knob::UnquantizedParamsB => "Los parámetros sin cuantizar (U)",
        Knob::Fp32ParamsB => "Los parámetros en FP32 (U32)",
        Knob::PromptTokens => "Los tokens de prompt de la estimación de velocidad",
        Knob::TargetTokensPerS => "Los tokens por segundo objetivo por usuario",
    }
}

/// A model family by its published name; an unknown one in words.
pub(super) fn family_name(family: Family) -> &'static str {
    match family {
        Family::Generic => "un tipo de modelo desconocido (leído como un decodificador tipo Llama)",
        named => named.name(),
    }
}

/// An optimizer by its name.
pub(super) fn optimizer_name(optimizer: Optimizer) -> &'static str {
    match optimizer {
        Optimizer::AdamW => "AdamW",
        Optimizer::Sgd => "SGD",
    }
}

/// A weight format's label, "as published" in this language.
pub(super) fn weight_format_label(
    format: WeightFormat,
    as_published: &'static str,
) -> &'static str {
    match format {
        WeightFormat::AsPublished => as_published,
        named => named.label(),
    }
}

pub(super) const FIELD_AUTO: &str = "auto";

pub(super) fn layout_summary(l: &Layout) -> String {
    let copies = match l.replicas {
        1 => "una copia del modelo".to_string(),
        n => format!("{n} copias del modelo"),
    };
    let how = if l.derived {
        ", según el número de GPU"
    } else {
        ""
    };
    format!("{} GPU: TP {} × PP {}, {copies}{how}.", l.gpus, l.tp, l.pp)
}

pub(super) fn published_beside_name(format: &str, bytes: &str) -> String {
    format!("publicado en {format}, {bytes} de pesos")
}

pub(super) fn quant_not_in_config(word: &str) -> String {
    format!(
        "El nombre del modelo dice {word}, pero config.json no tiene quantization_config, así que sus pesos se cuentan sin cuantizar. Una exportación de NVIDIA ModelOpt indica su cuantización en hf_quant_config.json: pégalo en el campo bajo el config."
    )
}
