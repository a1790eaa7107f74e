//! Dutch.

mod engine;
pub mod gguf;
mod lesson;
mod notebook;
mod picker;
mod trust;

pub use engine::ENGINE;
pub use lesson::{LESSON, LLAMACPP, VLLM};
pub use notebook::NOTEBOOK;

use super::format::{self, NumberStyle};
use super::{method_name, FieldText, Interpretation, Texts};
use crate::import::ImportError;
use crate::net::HubOutcome;
use vramfit_core::advice::{Change, Cost};
use vramfit_core::catalog::NotFound;
use vramfit_core::methods::planner::NoSpeed;
use vramfit_core::methods::{Feature, MethodId, Refusal, RunError};
use vramfit_core::model::{AttentionKind, ConfigError, ConfigErrorKind};
use vramfit_core::request::RequestError;
use vramfit_core::scenario::{
    Field, InputError, InputProblem, KnobProblem, LayoutError, Mode, PlannerError, ScenarioError,
};
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit};
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

fn input_error(e: &InputError) -> String {
    match e.problem {
        InputProblem::Empty => "Typ een getal.".into(),
        InputProblem::NotANumber => "Dat is geen getal.".into(),
        InputProblem::NotAnInteger => "Moet een geheel getal zijn.".into(),
        InputProblem::TooSmall | InputProblem::TooLarge => {
            format!("Moet tussen {} en {} liggen.", num(e.min), num(e.max))
        }
    }
}

fn gpu_not_found(miss: &NotFound) -> String {
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

fn scenario_error(e: &ScenarioError) -> String {
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
        ScenarioError::Engine(e) => match super::engine_texts(super::Lang::Nl) {
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

fn run_error(e: &RunError) -> String {
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

fn request_error(e: &RequestError) -> String {
    match e {
        RequestError::Invalid(errors) => errors
            .iter()
            .map(scenario_error)
            .collect::<Vec<_>>()
            .join(" "),
        RequestError::Refused(e) => run_error(e),
    }
}

fn config_error(e: &ConfigError) -> String {
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

fn out_of_scope(reason: &Refusal) -> String {
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
        Refusal::Engine(e) => match super::engine_texts(super::Lang::Nl) {
            Some(t) => (t.refusal)(e),
            None => "De engine neemt dit scenario niet aan.".into(),
        },
    }
}

fn layout_error(e: &LayoutError) -> String {
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

fn interpretation(method: MethodId) -> Interpretation {
    match method {
        MethodId::Quick => Interpretation {
            summary: "Geheugen om het model op één GPU te bedienen: gewichten + KV-cache + een percentage overhead (naar de calculator ‘Voordat je een model downloadt of een GPU huurt’).",
            assumptions: &[
                "Gewichten = parameters × bits per gewicht / 8: ideale opslag, zonder kwantisatiemetadata buiten wat het gekozen formaat bevat.",
                "Dichte KV-cache: 2 × lagen × KV-heads × headdimensie × context × sequenties × bytes; elke laag telt als volledige attention.",
                "De overhead is een vast percentage van gewichten + KV (10–20 % is redelijk): activaties, CUDA-context en buffers.",
                "Het past als het totaal het nominale GPU-geheugen niet overschrijdt.",
            ],
            units: "Decimale GB (10⁹ bytes), zoals GPU's worden verkocht. De geëxporteerde JSON bevat de exacte bytes.",
            leaves_out: &[
                "Training (gebruik lesson of allocator).",
                "Glijdende vensters en latente attention: de cache telt volledig.",
                "Kernels, de allocator en gemeten pieken; meerdere GPU's.",
            ],
        },
        MethodId::Lesson => Interpretation {
            summary: "Een schatting voor één apparaat volgens de les van de GPU-geheugenschatter: gewichten en KV-cache, of 18 bytes per parameter bij training, plus je reserves en een marge.",
            assumptions: &[
                "Inferentie gebruikt ideale opslag van gewichten en een dichte KV-cache.",
                "Volledige training gebruikt 18 bytes/parameter: 2 werkgewicht + 4 mastergewicht + 4 gradiënt + 8 Adam-momenten (AdamW met gemengde precisie), zonder KV-cache.",
                "De runtime- en activatiereserve tellen in beide modi; de marge vermenigvuldigt het subtotaal met reserves.",
            ],
            units: "GiB = 2³⁰ bytes. Toestanden = parameters × 18 bytes. KV = 2 × lagen × KV-heads × dimensie × sequentie × batch × bytes.",
            leaves_out: &[
                "Kwantisatiemetadata, kernels, echte activaties en allocators: de reserves benaderen ze.",
                "LoRA, sharding, offload en gemeten pieken.",
                "De 18 bytes zijn één indeling van datatypes, geen constante van elk framework.",
            ],
        },
        MethodId::Allocator => Interpretation {
            summary: "De piek van PyTorch (torch.cuda.max_memory_allocated) voor één stap van een dicht model onder transformers, afgeleid uit de levende tensoren (vramcalc 0.1.0).",
            assumptions: &[
                "Totaal = gewichten + KV-cache + gradiënten + optimizer + max(activaties + autocast-kopieën, werkbuffer van de stap).",
                "Het past als totaal + 0,75 GB overhead ≤ 97 % van het nominale geheugen.",
                "Een stabiele stap: de optimizertoestanden bestaan al; LoRA op q/k/v/o_proj.",
            ],
            units: "Exacte bytes; getoond in GB (10⁹) of GiB (2³⁰) volgens de schakelaar.",
            leaves_out: &[
                "Mixture of experts, latente attention, lineaire lagen en gekwantiseerde checkpoints.",
                "Fragmentatie van de allocator (memory_reserved) en geheugen buiten PyTorch, afgezien van de vaste overhead.",
                "Andere serveerframeworks (vLLM, llama.cpp).",
            ],
        },
        MethodId::Range => Interpretation {
            summary: "Een lage en een hoge schatting per GPU om een echt model te bedienen of te fine-tunen (naar de calculator voor VRAM en modelgrootte).",
            assumptions: &[
                "Bedienen: laag = gewichten/n + KV-cache/n + 1 GB; hoog = 1,2 × gewichten/n + KV-cache/n + 1 GB (de 20 % dekt activaties, buffers en fragmentatie, volgens de vuistregel van EleutherAI).",
                "8- en 4-bit formaten houden de embeddings en de output-head op 16 bits; de cache telt elke laag naar haar soort (volledig, glijdend venster, MLA, lineair).",
                "Fine-tunen: 16 bytes/parameter (volledig) of LoRA/QLoRA-adapters van rang r op 16 bytes, activaties met volledige gradient checkpointing en FP32-logits.",
                "Gewichten en cache worden gelijk verdeeld over hoogstens 8 GPU's van één server; de runtime telt op elke GPU.",
            ],
            units: "Decimale GB (10⁹ bytes), voor de zwaarst belaste GPU. Oordeel van de bron: past ruim als de hoge schatting ≤ 90 % van het geheugen gebruikt; krap als de lage past.",
            leaves_out: &[
                "Meer dan 8 GPU's of meerdere machines.",
                "Snelheid en wachtrijen van gebruikers.",
                "Gemeten pieken en het gedrag van elke engine.",
            ],
        },
        MethodId::Planner => Interpretation {
            summary: "Een planningsbudget per GPU (naar de geheugenmethodologie v0.3) om te bedienen of te trainen met tensor- en pipelineparallellisme, replica's en gelijktijdige sequenties.",
            assumptions: &[
                "Totaal = gewichten + adapters + KV-cache + activaties + logits + attentionscores + gradiënten + optimizer + mastergewichten + communicatie + offload-staging, plus een marge (15 %) en de enginecontext (1 GiB per GPU).",
                "Bruikbaar = nominaal geheugen × (1 − 10 % reserve).",
                "Gepagineerde KV-cache in blokken van 16 tokens, met gedeelde prefix en vensters; kwantisatiemetadata van 5 %.",
                "De snelheid is een roofline van bandbreedte en rekenkracht, van conservatief (35 % / 20 %) tot gunstig (70 % / 45 %).",
            ],
            units: "Decimale GB (10⁹ bytes) voor de zwaarst belaste GPU; snelheid in tokens/s per gebruiker en seconden prefill.",
            leaves_out: &[
                "Snelheid bij training, met MoE, MLA, glijdende vensters, TP/PP > 1 of offload.",
                "Echte metingen: het is een planningscijfer.",
                "Kernels en fragmentatie buiten de marge en de reserve.",
            ],
        },
        MethodId::Vllm => super::engine_texts(super::Lang::Nl)
            .map_or(super::Interpretation::NOT_LOADED, |t| t.vllm_interpretation),
        MethodId::Llamacpp => super::engine_texts(super::Lang::Nl)
            .map_or(super::Interpretation::NOT_LOADED, |t| t.llamacpp_interpretation),
    }
}

fn no_speed(reason: &NoSpeed) -> String {
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

fn planner_error(e: &PlannerError) -> String {
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
