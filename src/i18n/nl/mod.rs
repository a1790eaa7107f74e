//! Dutch.

mod engine;
mod errors;
pub mod gguf;
mod interpretation;
mod lesson;
mod notebook;
mod picker;
mod trust;

pub use engine::ENGINE;
pub use lesson::{LESSON, LLAMACPP, VLLM};
pub use notebook::NOTEBOOK;

use super::format::{self, NumberStyle};
use super::{FieldText, Texts};
use crate::import::ImportError;
use crate::net::HubOutcome;
use errors::{
    config_error, gpu_not_found, input_error, layout_error, no_speed, out_of_scope, request_error,
    run_error, scenario_error,
};
use interpretation::interpretation;
use vramfit_core::advice::{Change, Cost};
use vramfit_core::methods::MethodId;
use vramfit_core::model::AttentionKind;
use vramfit_core::scenario::{Field, Mode};
use vramfit_core::term::Term;
use vramfit_core::verdict::FitStatus;

/// Decimal comma, point between thousands.
const NUMBER: NumberStyle = NumberStyle {
    decimal: ',',
    group: '.',
    min_group_digits: 4,
    percent_sep: "",
};

fn num(value: f64) -> String {
    format::plain(&NUMBER, value)
}

pub static TEXTS: Texts = Texts {
    name: "Nederlands",
    number: NUMBER,
    page_title: "vramfit — GPU-geheugen voor LLM's",
    tagline: "Hoeveel GPU-geheugen een taalmodel nodig heeft, voordat je het downloadt.",
    learn_loading: "De les en het notitieboek worden geladen…",
    learn_unavailable: "De les en het notitieboek konden niet worden geladen (offline?). De calculator blijft werken.",
    learn_retry: "Opnieuw proberen",
    part_loading: "Laden…",
    part_unavailable: "Dit deel kon niet worden geladen (offline?). De calculator blijft werken.",
    catalog_loading: "De modelcatalogus wordt geladen…",
    lang_label: "Taal",

    step_configure: "Instellen",
    step_input: "Invoer toevoegen",
    step_input_hint: "Stel de parameters in, laad een voorbeeld of plak je gegevens.",
    step_results: "Resultaten bekijken",
    details_title: "Resultaat in detail",

    first_question: picker::FIRST_QUESTION,
    model_search_label: picker::MODEL_SEARCH_LABEL,
    model_search_placeholder: picker::MODEL_SEARCH_PLACEHOLDER,
    model_search_none: picker::MODEL_SEARCH_NONE,
    engine_label: picker::ENGINE_LABEL,
    other_estimates: picker::OTHER_ESTIMATES,
    method_plain: picker::method_plain,
    host_layers: picker::host_layers,

    mode_label: "Modus",
    method_label: "Methode",
    method_settings: "Instellingen van de methode",
    weight_format_label: "Gewichtsformaat",
    weight_manual: "bits met de hand",
    as_published_label: "zoals gepubliceerd",
    as_published_needs_model: "Heeft een echt model nodig (catalogus, config.json of Hub).",
    kv_dtype_label: "Type van de KV-cache",
    kv_manual: "met de hand",
    workload_label: "Belasting",
    gpu_label: "GPU uit de catalogus",
    gpu_placeholder: "Zoek: RTX 4090, H100, MI300X…",
    gpu_hint: "Leeg: typ het geheugen met de hand.",
    gpu_not_found,
    gpu_picked: picker::gpu_picked,
    advanced_label: "Geavanceerd",
    advanced_changed: |n| match n {
        0 => "(alles standaard)".to_string(),
        1 => "(1 gewijzigd)".to_string(),
        n => format!("({n} gewijzigd)"),
    },
    attention_label: "Attention",
    precision_label: "Precisie",
    optimizer_label: "Optimizer",
    grad_checkpoint: "Gradient checkpointing",

    model_manual_option: "Getallen met de hand (geen model)",
    config_label: "Of plak een config.json (of een geëxporteerde JSON)",
    config_hint: "Wordt gelezen tijdens het plakken; er verlaat niets je browser.",
    side_label: "Zijn hf_quant_config.json, als de repository er een heeft (exports van NVIDIA ModelOpt: NVFP4, FP8)",
    side_hint: "Waar zo'n export zijn kwantisering vermeldt; gelezen met de config, zoals vLLM doet.",
    hub_label: "Of haal het op van de Hugging Face Hub",
    hub_placeholder: "eigenaar/model, bv. Qwen/Qwen3-8B",
    hub_button: "config.json ophalen",
    hub_loading: "config.json wordt gedownload…",
    hub_outcome,
    shape_title: "Modelvorm met de hand",
    summary_params: "Parameters",
    summary_active: |n| format!("{n} actief"),
    summary_layers: "Lagen",
    summary_kv_per_token: "KV per token",

    compact_label: "Samenvatting van het resultaat",
    ring_label: "Gebruik van het bruikbare geheugen",
    gpu_ring_label: |k| format!("GPU {k}"),
    gpu_rings_note: |n| {
        format!("Alle {n} GPU's dragen hetzelfde budget: de methode verdeelt gelijk en rekent met de zwaarste fase.")
    },
    missing: |x| format!("{x} tekort"),
    spare: |x| format!("{x} over"),
    unit_label: "Eenheid",
    breakdown_caption: "Opbouw van het geheugen",
    outside_total: "buiten het totaal",
    suggestions_title: "Eén wijziging waardoor het past",
    answers_max_context: "Langste context die past",
    answers_max_sequences: "Meeste gelijktijdige sequenties",
    answers_smallest_gpu: "Kleinste GPU uit de catalogus die past",
    answers_min_gpus: "Minste GPU's waarop het past",
    none_fits: "geen enkele past",
    tokens: |n| format!("{n} tokens"),
    methods_caption: "Methoden vergeleken",
    col_method: "Methode",
    col_total: "Per GPU",
    col_verdict: "Oordeel",
    export_button: "JSON exporteren",
    export_failed: "De browser stond de download niet toe.",
    import_button: "JSON importeren",
    drop_hint: "of sleep hier een geëxporteerde JSON naartoe",
    import_done: "Scenario geïmporteerd.",
    import_error,
    copy_link: "Link kopiëren",
    link_copied: "Link gekopieerd: die opent precies deze berekening.",
    link_copy_failed: "Kopiëren lukte niet; kopieer de link uit de adresbalk.",
    link_broken: "De link bevatte geen geldig scenario; het voorbeeld wordt getoond.",
    truncated_note:
        "De weergave kan ingekort zijn; de geëxporteerde JSON bevat alle berekende resultaten.",

    chart_title: "Geheugen naar contextlengte",
    chart_usable: |x| format!("bruikbaar: {x}"),
    chart_crossing: |n| format!("Past tot {n} tokens context."),
    chart_fits_everywhere: "Past over het hele getekende bereik.",
    chart_fits_nowhere: "Past zelfs niet met één token context.",
    chart_current: "huidig",
    chart_data: "Toon de gegevens",
    chart_col_context: "Context (tokens)",
    chart_col_memory: "Geheugen",

    speed_title: "Snelheid",
    speed_none: |m| format!("De methode {m} geeft geen snelheid: ze schat alleen het geheugen."),
    speed_unavailable: |r| format!("Geen snelheid: {}.", no_speed(r)),
    speed_decode: "Decoderen per gebruiker",
    speed_prefill: |n| format!("Prefill van {n} tokens"),
    speed_note: "Van conservatief tot gunstig: een indicatieve roofline, geen meting.",
    tokens_per_second: "tokens/s",

    interpretation_title: "Zo lees je de resultaten",
    interp_assumptions: "Aannames",
    interp_units: "Eenheden",
    interp_leaves_out: "Wat ze weglaat",
    interpretation,

    panic_title: "Er ging iets mis in de calculator.",
    panic_body:
        "Je berekening staat in de link van de pagina: herlaad om verder te gaan waar je was.",
    panic_reload: "Herladen",
    panic_start_fresh: "Beginnen met het standaardscenario",
    panic_details: "Technische details",

    field,
    input_error,
    scenario_error,
    run_error,
    request_error,
    config_error,
    mode_name: |m| match m {
        Mode::Inference => "Inferentie",
        Mode::Full => "Volledige fine-tuning",
        Mode::Lora => "LoRA",
        Mode::Qlora => "QLoRA",
    },
    method_summary,
    status_word: |s| match s {
        FitStatus::Roomy => "ruim",
        FitStatus::WithMargin => "met marge",
        FitStatus::Tight => "krap",
        FitStatus::DoesNotFit => "past niet",
    },
    term: |term| match term {
        Term::Weights => "Gewichten",
        Term::KvCache => "KV-cache",
        Term::Overhead => "Overhead",
        Term::TrainingStates => "Trainingstoestanden",
        Term::Runtime => "Runtime",
        Term::Activation => "Activatiereserve",
        Term::Margin => "Marge",
        Term::Gradients => "Gradiënten",
        Term::Optimizer => "Optimizer",
        Term::Activations => "Bewaarde activaties",
        Term::AutocastCache => "Autocast-kopieën",
        Term::StepWorkspace => "Werkbuffer van de stap",
        Term::ModelStates => "Modeltoestanden",
        Term::Adapters => "Adapters",
        Term::Logits => "Logits",
        Term::AttentionScores => "Attentionscores",
        Term::MasterWeights => "Mastergewichten",
        Term::Communication => "Communicatie",
        Term::OffloadStaging => "Offloadbuffer",
        Term::EngineContext => "Enginecontext",
        Term::ActivationPeak => "Profileringspiek",
        Term::NonTorch => "Geheugen buiten torch",
        Term::CudaGraphs => "CUDA-graphs",
        Term::KCache => "K-cache",
        Term::VCache => "V-cache",
        Term::ComputeBuffer => "Rekenbuffer",
        Term::OutputBuffer => "Uitvoerbuffer",
        Term::HostPart => "In het hostgeheugen",
    },
    change,
    cost: |c| match c {
        Cost::ChangesTrainingObjective => "verandert het trainingsdoel",
        Cost::ShorterContext => "kortere prompts en antwoorden",
        Cost::LowerThroughput => "minder doorvoer",
        Cost::MayCostQuality => "kan kwaliteit kosten: test het op je taak",
        Cost::TrainsAdaptersOnly => "traint alleen adapters",
        Cost::SlowerStep => "tragere stap (herberekent activaties)",
        Cost::LessPreciseUpdates => "minder precieze updates",
        Cost::MoreHardware => "meer GPU's kopen of huren",
        Cost::PublishedFormat => "het model zoals de makers het publiceren",
        Cost::RunsFromHostMemory => "tragere tokens: gelezen uit het hostgeheugen",
        Cost::MoreGpuMemory => "meer van de GPU in gebruik",
    },
    attention_kind,
    out_of_scope,
    veiled: "De cijfers zijn verborgen terwijl je dit scenario in de les voorspelt: schrijf je voorspelling en onthul haar om ze allemaal tegelijk te zien.",
    veiled_go: "Naar je voorspelling",
    veiled_show: "De cijfers tonen zonder te voorspellen",
    layout_error,
    switch_done: trust::switch_done,
    switch_preferred: trust::SWITCH_PREFERRED,
    switch_no_longer_applies: trust::SWITCH_NO_LONGER_APPLIES,
    switch_undo: trust::SWITCH_UNDO,
    model_published: trust::model_published,
    quant_not_in_config: trust::quant_not_in_config,
    summary_published: trust::SUMMARY_PUBLISHED,
    weights_with_vision: trust::weights_with_vision,
    chart_model_max: trust::chart_model_max,
    answer_model_max: trust::ANSWER_MODEL_MAX,
    answer_input_max: trust::ANSWER_INPUT_MAX,
    context_over_model_max: trust::context_over_model_max,
    stale_figures: trust::STALE_FIGURES,
    way_out_methods: trust::WAY_OUT_METHODS,
    way_out_none: trust::WAY_OUT_NONE,
    way_out_layout: trust::WAY_OUT_LAYOUT,
    way_out_one_gpu: trust::WAY_OUT_ONE_GPU,
    way_out_field: trust::WAY_OUT_FIELD,
    way_out_model: trust::WAY_OUT_MODEL,
    total_per_gpu: trust::total_per_gpu,
    total_all_gpus: trust::total_all_gpus,
    col_gpus: trust::COL_GPUS,
    col_all_gpus: trust::COL_ALL_GPUS,
    use_cache: trust::USE_CACHE,
    field_auto: trust::FIELD_AUTO,
    layout_summary: trust::layout_summary,
    published_beside_name: trust::published_beside_name,
};

fn field(field: Field) -> FieldText {
    let (label, unit, hint) = match field {
        Field::ParamsB => ("Parameters", "× 10⁹", "Miljarden parameters van het model."),
        Field::Layers => ("Lagen", "", "num_hidden_layers in config.json."),
        Field::KvHeads => (
            "KV-heads",
            "",
            "num_key_value_heads (GQA gebruikt er minder dan attention-heads).",
        ),
        Field::HeadDim => (
            "Headdimensie",
            "",
            "head_dim, of hidden_size / num_attention_heads.",
        ),
        Field::WeightBits => (
            "Bits per gewicht",
            "bits",
            "16 bij FP16/BF16, 8 bij FP8/INT8, 4 bij 4-bit.",
        ),
        Field::KvBytes => ("Bytes per KV-waarde", "bytes", "2 bij FP16, 1 bij FP8."),
        Field::Context => ("Context", "tokens", "Contextlengte per sequentie."),
        Field::Sequences => (
            "Gelijktijdige sequenties",
            "",
            "Tegelijk bediend (of in één trainingsstap), over alle GPU's.",
        ),
        Field::OverheadPct => (
            "Overhead",
            "%",
            "Activaties, CUDA-context en buffers: 10–20 % is redelijk.",
        ),
        Field::GpuMemoryGb => (
            "GPU-geheugen",
            "GB",
            "In decimale GB (10⁹ bytes); een GPU uit de catalogus toont het geheugen dat de driver meldt.",
        ),
        Field::Gpus => (
            "Aantal GPU's",
            "×",
            "Alle GPU's: TP × PP × kopieën van het model.",
        ),
        Field::Tp => (
            "Tensorparallellisme",
            "TP",
            "GPU's die elke laag verdelen; leeg: volgt uit het aantal GPU's.",
        ),
        Field::Pp => (
            "Pipelineparallellisme",
            "PP",
            "Laagfasen op aparte GPU's; leeg: volgt uit het aantal GPU's.",
        ),
        Field::HostRamGb => (
            "RAM van de host",
            "GB",
            "Om gewichten naar de CPU te verplaatsen (0: geen offload).",
        ),
        Field::OffloadGb => (
            "Uitbestede gewichten",
            "GB",
            "Per GPU, naar het RAM van de host (planner; samen hoogstens 80 % van het RAM).",
        ),
        Field::SharedPrefixTokens => (
            "Gedeeld voorvoegsel",
            "tokens",
            "Promptvoorvoegsel dat alle sequenties delen, één keer gecachet (planner).",
        ),
        Field::LoraRank => ("LoRA-rang", "r", "Rang van de LoRA/QLoRA-adapters."),
        Field::RuntimeGib => (
            "Runtimereserve",
            "GiB",
            "CUDA-context, kernels en allocator, in GiB (2³⁰ bytes).",
        ),
        Field::ActivationGib => (
            "Activatiereserve",
            "GiB",
            "Activaties en tijdelijke buffers, in GiB.",
        ),
        Field::MarginPct => ("Marge", "%", "Vermenigvuldigt het subtotaal met reserves."),
    };
    FieldText { label, unit, hint }
}

fn method_summary(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "Gewichten + KV-cache + overhead in % (decimale GB).",
        MethodId::Lesson => {
            "Gewichten + KV-cache (of 18 bytes/parameter bij training) + reserves + marge (GiB)."
        }
        MethodId::Allocator => {
            "Piek van PyTorch (max_memory_allocated) voor één stap; vraagt een echt dicht model."
        }
        MethodId::Range => {
            "Lage en hoge schatting per GPU: gewichten, de KV-cache van het model en 1 GB runtime; +20 % aan de bovenkant (decimale GB)."
        }
        MethodId::Planner => {
            "Budget per GPU over TP/PP, replica's en gelijktijdige sequenties, marge en reserve, met een indicatieve snelheid (decimale GB)."
        }
        MethodId::Vllm => engine::VLLM_SUMMARY,
        MethodId::Llamacpp => engine::LLAMACPP_SUMMARY,
    }
}

fn change(c: &Change) -> String {
    match c {
        Change::Context(n) => format!("Context van {} tokens", format::integer(&NUMBER, *n)),
        Change::Sequences(n) => format!("{n} gelijktijdige sequenties"),
        Change::WeightFormat(f) => format!(
            "Gewichten in {}",
            trust::weight_format_label(*f, TEXTS.as_published_label)
        ),
        Change::KvBytes(b) => format!("KV-cache op {} byte per waarde", num(*b)),
        Change::Lora => "LoRA in plaats van volledige fine-tuning".into(),
        Change::GradCheckpoint => "Gradient checkpointing aanzetten".into(),
        Change::PurePrecision => "Pure precisie in plaats van amp".into(),
        Change::Gpus(n) => format!("{n} GPU's, het model erover verdeeld"),
        Change::GpuLayers(n) => format!("{n} lagen op de GPU (-ngl {n})"),
        Change::CpuMoe(n) => {
            format!("Experts van {n} blokken in het hostgeheugen (--n-cpu-moe {n})")
        }
    }
}

fn attention_kind(kind: &AttentionKind) -> String {
    match kind {
        AttentionKind::Full => "volledige attention".into(),
        AttentionKind::SlidingWindow { window } => format!("glijdend venster van {window}"),
        AttentionKind::Chunked { chunk } => format!("attention in blokken van {chunk}"),
        AttentionKind::Mla { latent } => format!("MLA, latent {latent}"),
        AttentionKind::SparseMla { latent, index } => {
            format!("MLA, latent {latent}, indexersleutel {index}")
        }
        AttentionKind::Indexed { index } => format!("volledige attention, indexersleutel {index}"),
        AttentionKind::Compressed { window, ratio, .. } => {
            format!("gecomprimeerd 1:{ratio}, venster van {window}")
        }
        AttentionKind::Linear { .. } => "lineair / vaste toestand".into(),
        AttentionKind::None => "geen attention".into(),
    }
}

fn hub_outcome(outcome: &HubOutcome) -> String {
    match outcome {
        HubOutcome::Loaded { id, side: false } => format!("config.json van {id} geladen."),
        HubOutcome::Loaded { id, side: true } => {
            format!("config.json en hf_quant_config.json van {id} geladen.")
        }
        HubOutcome::InvalidId => {
            "Typ de id als eigenaar/model (letters, cijfers, . _ -).".into()
        }
        HubOutcome::Gated { status } => format!(
            "De Hub vraagt toegang tot dit model (HTTP {status}): accepteer de licentie op huggingface.co en plak config.json hier."
        ),
        HubOutcome::NotFound => {
            "De Hub kent dit model niet, of het heeft geen config.json (HTTP 404). Controleer de id.".into()
        }
        HubOutcome::Http { status } => {
            format!("De Hub antwoordde HTTP {status}; probeer het later opnieuw.")
        }
        HubOutcome::Offline => {
            "De Hub is niet bereikbaar (offline of geblokkeerd). Je kunt config.json met de hand plakken.".into()
        }
    }
}

fn import_error(e: &ImportError) -> String {
    match e {
        ImportError::Empty => "Het bestand is leeg.".into(),
        ImportError::Unreadable => "Het bestand kon niet gelezen worden.".into(),
        ImportError::NotJson { line, column } => format!(
            "Geen JSON die vramfit exporteerde: geen geldige JSON (regel {line}, kolom {column}). Er is niets gewijzigd."
        ),
        ImportError::NotADocument => {
            "Geen JSON die vramfit exporteerde: het object ‘inputs’ ontbreekt. Er is niets gewijzigd.".into()
        }
        ImportError::Schema(schema) => format!(
            "Deze JSON komt van een andere versie (‘{schema}’); deze calculator leest vramfit/1. Er is niets gewijzigd."
        ),
        ImportError::Inputs(detail) => format!(
            "De invoer in de JSON is niet te begrijpen ({detail}). Er is niets gewijzigd."
        ),
        ImportError::Invalid(e) => format!(
            "De invoer in de JSON is niet geldig: {} Er is niets gewijzigd.",
            request_error(e)
        ),
    }
}
