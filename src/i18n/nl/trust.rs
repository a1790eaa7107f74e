//! The texts of answers to trust: a method the page switched on its own,
//! the checkpoint's own format, and the core's ids in words.

use vramfit_core::model::Family;
use vramfit_core::scenario::{Knob, Layout, Optimizer, WeightFormat};

pub(super) fn switch_done(from: &str, to: &str) -> String {
    format!("De methode ging van {from} naar {to}.")
}

pub(super) const SWITCH_PREFERRED: &str =
    "Het is de meest volledige methode voor dit model en deze modus.";
pub(super) const SWITCH_NO_LONGER_APPLIES: &str = "De methode die je koos schat dit niet.";
pub(super) const SWITCH_UNDO: &str = "Ongedaan maken";
pub(super) const SUMMARY_PUBLISHED: &str = "Gepubliceerd";

pub(super) fn model_published(format: &str, bytes: &str, vision: Option<&str>) -> String {
    let vision = vision.map_or(String::new(), |v| {
        format!(", vision-toren van {v} inbegrepen")
    });
    format!("{format}: {bytes} aan gewichten{vision}")
}

pub(super) fn weights_with_vision(bytes: &str) -> String {
    format!("inclusief de vision-toren ({bytes})")
}

pub(super) fn chart_model_max(n: &str) -> String {
    format!("De as eindigt bij de maximale context van het model: {n} tokens (max_position_embeddings).")
}

pub(super) const ANSWER_MODEL_MAX: &str = "(het maximum van het model, max_position_embeddings)";
pub(super) const ANSWER_INPUT_MAX: &str = "(de grootste toegestane waarde; er past misschien meer)";

pub(super) fn context_over_model_max(n: &str) -> String {
    format!("Boven de maximale context van het model ({n} tokens, max_position_embeddings): het is niet op deze lengte getraind.")
}

pub(super) const STALE_FIGURES: &str =
    "De cijfers hieronder horen bij de laatste invoer die werkte; ze beantwoorden de huidige niet.";
pub(super) const WAY_OUT_METHODS: &str = "Methoden die dit wel schatten:";
pub(super) const WAY_OUT_NONE: &str =
    "Geen methode schat deze invoer: verander de modus, het model of de GPU's.";
pub(super) const WAY_OUT_LAYOUT: &str = "Laat vramfit TP en PP afleiden uit het aantal GPU's";
pub(super) const WAY_OUT_ONE_GPU: &str = "Eén GPU gebruiken";
pub(super) const WAY_OUT_FIELD: &str =
    "Verbeter het rood gemarkeerde veld: de hint zegt wat het aanneemt.";
pub(super) const WAY_OUT_MODEL: &str =
    "Kies een model (catalogus, config.json of Hub) of een ander gewichtsformaat.";

pub(super) fn total_per_gpu(n: u64) -> String {
    match n {
        0 | 1 => "Geschat totaal (één GPU)".to_string(),
        n => format!("Per GPU (elk van {n})"),
    }
}

pub(super) fn total_all_gpus(n: u64, bytes: &str) -> String {
    format!("Alle {n} GPU's: {bytes}")
}

pub(super) const COL_GPUS: &str = "GPU's";
pub(super) const COL_ALL_GPUS: &str = "Alle GPU's";

pub(super) const USE_CACHE: &str = "KV-cache in de forward (use_cache, standaard in transformers)";

/// A planner knob in words (its JSON key is `planner.<key>`).
pub(super) fn knob_name(knob: Knob) -> &'static str {
    match knob {
        Knob::ActivationK => "De activatiefactor K van de planner",
        Knob::EngineContextGb => "De enginecontext per GPU",
        Knob::MarginPct => "De marge van de planner",
        Knob::ReservePct => "De reserve van de planner",
        Knob::QuantMetadataPct => "De kwantisatiemetadata",
        Knob::KvBlockTokens => "Tokens per KV-blok",
        Knob::PrefillBudgetTokens => "Het prefill-budget",
        Knob::SharedPrefixTokens => "De gedeelde promptprefix",
        Knob::GradientBytes => "Bytes per gradiënt",
        Knob::Machines => "Het aantal machines",
        Knob::BatchLimit => "De grootste batch van de engine",
        Knob::OffloadGb => "Uitbestede gewichten",
        Knob::HiddenSize => "De verborgen grootte",
        Knob::VocabSize => "De vocabulairegrootte",
        Knob::AttentionHeads => "Het aantal attention-heads",
        Knob::UnquantizedParamsB => "Niet-gekwantiseerde parameters (U)",
        Knob::Fp32ParamsB => "FP32-parameters (U32)",
        Knob::PromptTokens => "De prompttokens van de snelheidsschatting",
        Knob::TargetTokensPerS => "Het doel in tokens per seconde per gebruiker",
    }
}

/// A model family by its published name; an unknown one in words.
pub(super) fn family_name(family: Family) -> &'static str {
    match family {
        Family::Generic => "een onbekend modeltype (gelezen als een Llama-achtige decoder)",
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
        1 => "één kopie van het model".to_string(),
        n => format!("{n} kopieën van het model"),
    };
    let how = if l.derived {
        ", afgeleid uit het aantal GPU's"
    } else {
        ""
    };
    format!(
        "{} GPU's: TP {} × PP {}, {copies}{how}.",
        l.gpus, l.tp, l.pp
    )
}

pub(super) fn published_beside_name(format: &str, bytes: &str) -> String {
    format!("gepubliceerd in {format}, {bytes} aan gewichten")
}

pub(super) fn quant_not_in_config(word: &str) -> String {
    format!(
        "De naam van het model zegt {word}, maar config.json heeft geen quantization_config, dus de gewichten worden ongekwantiseerd geteld. Een export van NVIDIA ModelOpt vermeldt zijn kwantisering in hf_quant_config.json: plak het in het veld onder de config."
    )
}
