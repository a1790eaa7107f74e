//! Spanish: the seeds' language and the default.

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

/// Decimal comma; a narrow space between thousands from five digits on.
const NUMBER: NumberStyle = NumberStyle {
    decimal: ',',
    group: '\u{202f}',
    min_group_digits: 5,
    percent_sep: " ",
};

fn num(value: f64) -> String {
    format::plain(&NUMBER, value)
}

pub static TEXTS: Texts = Texts {
    name: "Español",
    number: NUMBER,
    page_title: "vramfit — memoria de GPU para LLM",
    tagline: "Cuánta memoria de GPU necesita un modelo de lenguaje, antes de descargarlo.",
    learn_loading: "Cargando la lección y el cuaderno…",
    learn_unavailable: "No se pudieron cargar la lección y el cuaderno (¿sin conexión?). La calculadora sigue funcionando.",
    learn_retry: "Reintentar",
    part_loading: "Cargando…",
    part_unavailable: "Esta parte no se pudo cargar (¿sin conexión?). La calculadora sigue funcionando.",
    catalog_loading: "Cargando el catálogo de modelos…",
    lang_label: "Idioma",

    step_configure: "Configurar",
    step_input: "Añadir entrada",
    step_input_hint: "Configura los parámetros, carga un ejemplo o pega tus datos.",
    step_results: "Revisar resultados",
    details_title: "Detalle del resultado",

    first_question: picker::FIRST_QUESTION,
    model_search_label: picker::MODEL_SEARCH_LABEL,
    model_search_placeholder: picker::MODEL_SEARCH_PLACEHOLDER,
    model_search_none: picker::MODEL_SEARCH_NONE,
    engine_label: picker::ENGINE_LABEL,
    other_estimates: picker::OTHER_ESTIMATES,
    method_plain: picker::method_plain,
    host_layers: picker::host_layers,

    mode_label: "Modo",
    method_label: "Método",
    method_settings: "Ajustes del método",
    weight_format_label: "Formato de los pesos",
    weight_manual: "bits a mano",
    as_published_label: "como se publicó",
    as_published_needs_model: "Necesita un modelo real (catálogo, config.json o Hub).",
    kv_dtype_label: "Tipo de la caché KV",
    kv_manual: "a mano",
    workload_label: "Carga de trabajo",
    gpu_label: "GPU del catálogo",
    gpu_placeholder: "Busca: RTX 4090, H100, MI300X…",
    gpu_hint: "Vacío: escribe la memoria a mano.",
    gpu_not_found,
    gpu_picked: picker::gpu_picked,
    advanced_label: "Avanzado",
    advanced_changed: |n| match n {
        0 => "(todo por defecto)".to_string(),
        1 => "(1 cambiado)".to_string(),
        n => format!("({n} cambiados)"),
    },
    attention_label: "Atención",
    precision_label: "Precisión",
    optimizer_label: "Optimizador",
    grad_checkpoint: "Gradient checkpointing",

    model_manual_option: "Números a mano (sin modelo)",
    config_label: "O pega un config.json (o un JSON exportado)",
    config_hint: "Se lee al pegar; nada sale de tu navegador.",
    side_label: "Su hf_quant_config.json, si el repositorio tiene uno (exportaciones de NVIDIA ModelOpt: NVFP4, FP8)",
    side_hint: "Donde esas exportaciones indican su cuantización; se lee con el config, como hace vLLM.",
    hub_label: "O tráelo del Hub de Hugging Face",
    hub_placeholder: "propietario/modelo, p. ej. Qwen/Qwen3-8B",
    hub_button: "Traer config.json",
    hub_loading: "Descargando config.json…",
    hub_outcome,
    shape_title: "Forma del modelo a mano",
    summary_params: "Parámetros",
    summary_active: |n| format!("activos {n}"),
    summary_layers: "Capas",
    summary_kv_per_token: "KV por token",

    compact_label: "Resumen del resultado",
    ring_label: "Uso de la memoria utilizable",
    gpu_ring_label: |k| format!("GPU {k}"),
    gpu_rings_note: |n| {
        format!("Las {n} GPU llevan el mismo presupuesto: el método reparte por igual y cuenta la etapa más cargada.")
    },
    missing: |x| format!("faltan {x}"),
    spare: |x| format!("sobran {x}"),
    unit_label: "Unidad",
    breakdown_caption: "Desglose de la memoria",
    outside_total: "fuera del total",
    suggestions_title: "Un solo cambio que hace que quepa",
    answers_max_context: "Contexto más largo que cabe",
    answers_max_sequences: "Más secuencias simultáneas",
    answers_smallest_gpu: "GPU más pequeña del catálogo que cabe",
    answers_min_gpus: "Menos GPU con las que cabe",
    none_fits: "ninguno cabe",
    tokens: |n| format!("{n} tokens"),
    methods_caption: "Métodos comparados",
    col_method: "Método",
    col_total: "Por GPU",
    col_verdict: "Veredicto",
    export_button: "Exportar JSON",
    export_failed: "El navegador no permitió descargar el archivo.",
    import_button: "Importar JSON",
    drop_hint: "o suelta aquí un JSON exportado",
    import_done: "Escenario importado.",
    import_error,
    copy_link: "Copiar enlace",
    link_copied: "Enlace copiado: reabre exactamente este cálculo.",
    link_copy_failed: "No se pudo copiar; copia el enlace de la barra de direcciones.",
    link_broken: "El enlace no contenía un escenario válido; se muestra el ejemplo.",
    truncated_note:
        "La vista puede estar truncada; el JSON exportado incluye todos los resultados calculados.",

    chart_title: "Memoria según el contexto",
    chart_usable: |x| format!("utilizable: {x}"),
    chart_crossing: |n| format!("Cabe hasta {n} tokens de contexto."),
    chart_fits_everywhere: "Cabe en todo el rango dibujado.",
    chart_fits_nowhere: "No cabe ni con un solo token de contexto.",
    chart_current: "actual",
    chart_data: "Ver los datos",
    chart_col_context: "Contexto (tokens)",
    chart_col_memory: "Memoria",

    speed_title: "Velocidad",
    speed_none: |m| format!("El método {m} no da una cifra de velocidad: solo estima memoria."),
    speed_unavailable: |r| format!("Sin cifra de velocidad: {}.", no_speed(r)),
    speed_decode: "Decodificación por usuario",
    speed_prefill: |n| format!("Prefill de {n} tokens"),
    speed_note: "De conservador a favorable: un roofline orientativo, no una medida.",
    tokens_per_second: "tokens/s",

    interpretation_title: "Cómo interpretar los resultados",
    interp_assumptions: "Supuestos",
    interp_units: "Unidades",
    interp_leaves_out: "Qué deja fuera",
    interpretation,

    panic_title: "Algo ha fallado en la calculadora.",
    panic_body:
        "El cálculo está guardado en el enlace de la página: recarga para seguir donde estabas.",
    panic_reload: "Recargar",
    panic_start_fresh: "Empezar con el escenario por defecto",
    panic_details: "Detalles técnicos",

    field,
    input_error,
    scenario_error,
    run_error,
    request_error,
    config_error,
    mode_name: |m| match m {
        Mode::Inference => "Inferencia",
        Mode::Full => "Ajuste completo",
        Mode::Lora => "LoRA",
        Mode::Qlora => "QLoRA",
    },
    method_summary,
    status_word: |s| match s {
        FitStatus::Roomy => "holgada",
        FitStatus::WithMargin => "con margen",
        FitStatus::Tight => "ajustada",
        FitStatus::DoesNotFit => "no cabe",
    },
    term: |term| match term {
        Term::Weights => "Pesos",
        Term::KvCache => "Caché KV",
        Term::Overhead => "Sobrecarga",
        Term::TrainingStates => "Estados de entrenamiento",
        Term::Runtime => "Runtime",
        Term::Activation => "Reserva de activaciones",
        Term::Margin => "Margen",
        Term::Gradients => "Gradientes",
        Term::Optimizer => "Optimizador",
        Term::Activations => "Activaciones guardadas",
        Term::AutocastCache => "Copias de autocast",
        Term::StepWorkspace => "Búfer del paso",
        Term::ModelStates => "Estados del modelo",
        Term::Adapters => "Adaptadores",
        Term::Logits => "Logits",
        Term::AttentionScores => "Matriz de atención",
        Term::MasterWeights => "Pesos maestros",
        Term::Communication => "Comunicación",
        Term::OffloadStaging => "Búfer de offload",
        Term::EngineContext => "Contexto del motor",
        Term::ActivationPeak => "Pico del perfilado",
        Term::NonTorch => "Memoria fuera de torch",
        Term::CudaGraphs => "Grafos CUDA",
        Term::KCache => "Caché K",
        Term::VCache => "Caché V",
        Term::ComputeBuffer => "Búfer de cómputo",
        Term::OutputBuffer => "Búfer de salida",
        Term::HostPart => "En la memoria del host",
    },
    change,
    cost: |c| match c {
        Cost::ChangesTrainingObjective => "cambia el objetivo de entrenamiento",
        Cost::ShorterContext => "prompts y respuestas más cortos",
        Cost::LowerThroughput => "menos rendimiento",
        Cost::MayCostQuality => "puede costar calidad: pruébalo en tu tarea",
        Cost::TrainsAdaptersOnly => "solo entrena adaptadores",
        Cost::SlowerStep => "paso más lento (recalcula activaciones)",
        Cost::LessPreciseUpdates => "actualizaciones menos precisas",
        Cost::MoreHardware => "más GPU que comprar o alquilar",
        Cost::PublishedFormat => "el modelo tal como lo publican sus autores",
        Cost::RunsFromHostMemory => "tokens más lentos: se leen de la memoria del host",
        Cost::MoreGpuMemory => "más memoria de la GPU en uso",
    },
    attention_kind,
    out_of_scope,
    veiled: "Las cifras están ocultas mientras predices este escenario en la lección: escribe tu predicción y revélala para verlas todas a la vez.",
    veiled_go: "Ir a tu predicción",
    veiled_show: "Mostrar las cifras sin predecir",
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
        Field::ParamsB => (
            "Parámetros",
            "× 10⁹",
            "Miles de millones de parámetros del modelo.",
        ),
        Field::Layers => ("Capas", "", "num_hidden_layers en config.json."),
        Field::KvHeads => (
            "Cabezas KV",
            "",
            "num_key_value_heads (GQA usa menos que las de atención).",
        ),
        Field::HeadDim => (
            "Dimensión de cabeza",
            "",
            "head_dim, o hidden_size / num_attention_heads.",
        ),
        Field::WeightBits => (
            "Bits por peso",
            "bits",
            "16 en FP16/BF16, 8 en FP8/INT8, 4 en 4 bits.",
        ),
        Field::KvBytes => ("Bytes por valor KV", "bytes", "2 en FP16, 1 en FP8."),
        Field::Context => ("Contexto", "tokens", "Longitud de contexto por secuencia."),
        Field::Sequences => (
            "Secuencias simultáneas",
            "",
            "Atendidas a la vez (o en un paso de entrenamiento), entre todas las GPU.",
        ),
        Field::OverheadPct => (
            "Sobrecarga",
            "%",
            "Activaciones, contexto CUDA y búferes: 10–20 % es razonable.",
        ),
        Field::GpuMemoryGb => (
            "Memoria de la GPU",
            "GB",
            "En GB decimales (10⁹ bytes); una GPU del catálogo muestra la memoria que informa el driver.",
        ),
        Field::Gpus => (
            "Número de GPU",
            "×",
            "Todas las GPU: TP × PP × copias del modelo.",
        ),
        Field::Tp => (
            "Paralelismo tensorial",
            "TP",
            "GPU que reparten cada capa; vacío: según el número de GPU.",
        ),
        Field::Pp => (
            "Paralelismo de tubería",
            "PP",
            "Etapas de capas en GPU distintas; vacío: según el número de GPU.",
        ),
        Field::HostRamGb => (
            "RAM del equipo",
            "GB",
            "Para descargar pesos a la CPU (0: sin offload).",
        ),
        Field::OffloadGb => (
            "Pesos descargados",
            "GB",
            "Por GPU, a la RAM del equipo (planner; como mucho el 80 % de la RAM en total).",
        ),
        Field::SharedPrefixTokens => (
            "Prefijo compartido",
            "tokens",
            "Prefijo del prompt que comparten todas las secuencias, en caché una vez (planner).",
        ),
        Field::LoraRank => ("Rango LoRA", "r", "Rango de los adaptadores LoRA/QLoRA."),
        Field::RuntimeGib => (
            "Reserva de runtime",
            "GiB",
            "Contexto CUDA, kernels y asignador, en GiB (2³⁰ bytes).",
        ),
        Field::ActivationGib => (
            "Reserva de activaciones",
            "GiB",
            "Activaciones y búferes temporales, en GiB.",
        ),
        Field::MarginPct => ("Margen", "%", "Multiplica el subtotal con reservas."),
    };
    FieldText { label, unit, hint }
}

fn input_error(e: &InputError) -> String {
    match e.problem {
        InputProblem::Empty => "Escribe un número.".into(),
        InputProblem::NotANumber => "No es un número.".into(),
        InputProblem::NotAnInteger => "Debe ser un número entero.".into(),
        InputProblem::TooSmall | InputProblem::TooLarge => {
            format!("Debe estar entre {} y {}.", num(e.min), num(e.max))
        }
    }
}

fn gpu_not_found(miss: &NotFound) -> String {
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

fn scenario_error(e: &ScenarioError) -> String {
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
        ScenarioError::Engine(e) => match super::engine_texts(super::Lang::Es) {
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

fn run_error(e: &RunError) -> String {
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

fn method_summary(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "Pesos + caché KV + sobrecarga en % (GB decimales).",
        MethodId::Lesson => {
            "Pesos + caché KV (o 18 bytes/parámetro al entrenar) + reservas + margen (GiB)."
        }
        MethodId::Allocator => {
            "Pico de PyTorch (max_memory_allocated) para un paso; necesita un modelo denso real."
        }
        MethodId::Range => {
            "Estimación baja y alta por GPU: pesos, caché KV del modelo y 1 GB de runtime; +20 % en la alta (GB decimales)."
        }
        MethodId::Planner => {
            "Presupuesto por GPU con TP/PP, réplicas y secuencias simultáneas, margen y reserva, y una velocidad orientativa (GB decimales)."
        }
        MethodId::Vllm => engine::VLLM_SUMMARY,
        MethodId::Llamacpp => engine::LLAMACPP_SUMMARY,
    }
}

fn change(c: &Change) -> String {
    match c {
        Change::Context(n) => format!("Contexto de {} tokens", format::integer(&NUMBER, *n)),
        Change::Sequences(n) => format!("{n} secuencias simultáneas"),
        Change::WeightFormat(f) => format!(
            "Pesos en {}",
            trust::weight_format_label(*f, TEXTS.as_published_label)
        ),
        Change::KvBytes(b) => format!("Caché KV a {} byte por valor", num(*b)),
        Change::Lora => "LoRA en lugar de ajuste completo".into(),
        Change::GradCheckpoint => "Activar gradient checkpointing".into(),
        Change::PurePrecision => "Precisión pure en lugar de amp".into(),
        Change::Gpus(n) => format!("{n} GPU, con el modelo repartido entre ellas"),
        Change::GpuLayers(n) => format!("{n} capas en la GPU (-ngl {n})"),
        Change::CpuMoe(n) => {
            format!("Expertos de {n} bloques en la memoria del host (--n-cpu-moe {n})")
        }
    }
}

fn attention_kind(kind: &AttentionKind) -> String {
    match kind {
        AttentionKind::Full => "atención completa".into(),
        AttentionKind::SlidingWindow { window } => format!("ventana deslizante de {window}"),
        AttentionKind::Chunked { chunk } => format!("atención por bloques de {chunk}"),
        AttentionKind::Mla { latent } => format!("MLA, latente {latent}"),
        AttentionKind::SparseMla { latent, index } => {
            format!("MLA, latente {latent}, clave del indexador {index}")
        }
        AttentionKind::Indexed { index } => {
            format!("atención completa, clave del indexador {index}")
        }
        AttentionKind::Compressed { window, ratio, .. } => {
            format!("comprimida 1:{ratio}, ventana de {window}")
        }
        AttentionKind::Linear { .. } => "lineal / estado fijo".into(),
        AttentionKind::None => "sin atención".into(),
    }
}

fn out_of_scope(reason: &Refusal) -> String {
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
        Refusal::Engine(e) => match super::engine_texts(super::Lang::Es) {
            Some(t) => (t.refusal)(e),
            None => "El motor no acepta este escenario.".into(),
        },
    }
}

fn layout_error(e: &LayoutError) -> String {
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

fn hub_outcome(outcome: &HubOutcome) -> String {
    match outcome {
        HubOutcome::Loaded { id, side: false } => format!("config.json de {id} cargado."),
        HubOutcome::Loaded { id, side: true } => {
            format!("config.json y hf_quant_config.json de {id} cargados.")
        }
        HubOutcome::InvalidId => {
            "Escribe el identificador como propietario/modelo (letras, cifras, . _ -).".into()
        }
        HubOutcome::Gated { status } => format!(
            "El Hub pide acceso a este modelo (HTTP {status}): acepta su licencia en huggingface.co y pega el config.json aquí."
        ),
        HubOutcome::NotFound => {
            "El Hub no tiene ese modelo o no tiene config.json (HTTP 404). Revisa el identificador.".into()
        }
        HubOutcome::Http { status } => format!("El Hub respondió HTTP {status}; prueba más tarde."),
        HubOutcome::Offline => {
            "No se pudo conectar con el Hub (sin red o bloqueado). Puedes pegar el config.json a mano.".into()
        }
    }
}

fn import_error(e: &ImportError) -> String {
    match e {
        ImportError::Empty => "El archivo está vacío.".into(),
        ImportError::Unreadable => "No se pudo leer el archivo.".into(),
        ImportError::NotJson { line, column } => format!(
            "No es un JSON exportado por vramfit: no es JSON válido (línea {line}, columna {column}). No se ha cambiado nada."
        ),
        ImportError::NotADocument => {
            "No es un JSON exportado por vramfit: le falta el objeto «inputs». No se ha cambiado nada.".into()
        }
        ImportError::Schema(schema) => format!(
            "Este JSON es de otra versión («{schema}»); esta calculadora lee vramfit/1. No se ha cambiado nada."
        ),
        ImportError::Inputs(detail) => format!(
            "Las entradas del JSON no se entienden ({detail}). No se ha cambiado nada."
        ),
        ImportError::Invalid(e) => format!(
            "Las entradas del JSON no son válidas: {} No se ha cambiado nada.",
            request_error(e)
        ),
    }
}

fn interpretation(method: MethodId) -> Interpretation {
    match method {
        MethodId::Quick => Interpretation {
            summary: "Memoria para servir el modelo en una GPU: pesos + caché KV + un porcentaje de sobrecarga (según la calculadora «Antes de descargar un modelo o alquilar una GPU»).",
            assumptions: &[
                "Pesos = parámetros × bits por peso / 8: almacenamiento ideal, sin metadatos de cuantización salvo los que incluye el formato elegido.",
                "Caché KV densa: 2 × capas × cabezas KV × dimensión × contexto × secuencias × bytes; todas las capas se tratan como atención completa.",
                "La sobrecarga es un porcentaje fijo de pesos + KV (10–20 % es razonable): activaciones, contexto CUDA y búferes.",
                "Cabe cuando el total no supera la memoria nominal de la GPU.",
            ],
            units: "GB decimales (10⁹ bytes), como se anuncian las GPU. El JSON exportado lleva los bytes exactos.",
            leaves_out: &[
                "Entrenamiento (usa lesson o allocator).",
                "Ventanas deslizantes y atención latente: la caché se cuenta completa.",
                "Kernels, asignador y picos medidos; varias GPU.",
            ],
        },
        MethodId::Lesson => Interpretation {
            summary: "Estimación de un dispositivo según la lección del estimador de memoria GPU: pesos y caché KV, o 18 bytes por parámetro al entrenar, más tus reservas y un margen.",
            assumptions: &[
                "La inferencia usa almacenamiento ideal de pesos y caché KV densa.",
                "El entrenamiento completo usa 18 bytes/parámetro: 2 de pesos de trabajo + 4 de pesos maestros + 4 de gradientes + 8 de momentos de Adam (AdamW de precisión mixta), sin caché KV.",
                "Las reservas de runtime y de activaciones cuentan en ambos modos; el margen multiplica el subtotal con reservas.",
            ],
            units: "GiB = 2³⁰ bytes. Estados = parámetros × 18 bytes. KV = 2 × capas × cabezas KV × dimensión × secuencia × lote × bytes.",
            leaves_out: &[
                "Metadatos de cuantización, kernels, activaciones y asignadores reales: las reservas los aproximan.",
                "LoRA, particionado, offload y picos medidos.",
                "Los 18 bytes son una disposición de tipos, no una constante de todos los frameworks.",
            ],
        },
        MethodId::Allocator => Interpretation {
            summary: "El pico de PyTorch (torch.cuda.max_memory_allocated) en un paso de un modelo denso con transformers, derivado de los tensores vivos (vramcalc 0.1.0).",
            assumptions: &[
                "Total = pesos + caché KV + gradientes + optimizador + máx(activaciones + copias de autocast, búfer del paso).",
                "Cabe si total + 0,75 GB de sobrecarga ≤ 97 % de la memoria nominal.",
                "Paso estable: los estados del optimizador ya existen; LoRA sobre q/k/v/o_proj.",
            ],
            units: "Bytes exactos; se muestran en GB (10⁹) o GiB (2³⁰) según el interruptor.",
            leaves_out: &[
                "Mezcla de expertos, atención latente, capas lineales y checkpoints cuantizados.",
                "Fragmentación del asignador (memory_reserved) y lo que no pasa por PyTorch, salvo la sobrecarga fija.",
                "Otros frameworks de servicio (vLLM, llama.cpp).",
            ],
        },
        MethodId::Range => Interpretation {
            summary: "Una estimación baja y otra alta por GPU para servir o ajustar un modelo real (según la calculadora de VRAM y tamaño de modelo).",
            assumptions: &[
                "Servir: baja = pesos/n + caché KV/n + 1 GB; alta = 1,2 × pesos/n + caché KV/n + 1 GB (el 20 % cubre activaciones, búferes y fragmentación, regla de EleutherAI).",
                "Los formatos de 8 y 4 bits mantienen embeddings y cabeza de salida a 16 bits; la caché cuenta cada capa según su tipo (completa, ventana deslizante, MLA, lineal).",
                "Ajuste: 16 bytes/parámetro (completo) o adaptadores LoRA/QLoRA de rango r a 16 bytes, activaciones con gradient checkpointing completo y logits FP32.",
                "Pesos y caché se reparten por igual entre hasta 8 GPU de un servidor; el runtime cuenta en cada GPU.",
            ],
            units: "GB decimales (10⁹ bytes), para la GPU más cargada. Veredicto de la fuente: holgado si la alta usa ≤ 90 % de la memoria; justo si la baja cabe.",
            leaves_out: &[
                "Más de 8 GPU o varias máquinas.",
                "Velocidad y colas de usuarios.",
                "Picos medidos y el comportamiento de cada motor.",
            ],
        },
        MethodId::Planner => Interpretation {
            summary: "Un presupuesto de planificación por GPU (según la metodología de memoria v0.3) para servir o entrenar con paralelismo tensorial y de tubería, réplicas y secuencias simultáneas.",
            assumptions: &[
                "Total = pesos + adaptadores + caché KV + activaciones + logits + matriz de atención + gradientes + optimizador + pesos maestros + comunicación + staging de offload, más un margen (15 %) y el contexto del motor (1 GiB por GPU).",
                "Utilizable = memoria nominal × (1 − reserva del 10 %).",
                "Caché KV paginada en bloques de 16 tokens, con prefijo compartido y ventanas; metadatos de cuantización del 5 %.",
                "La velocidad es un roofline de ancho de banda y cómputo, de conservador (35 % / 20 %) a favorable (70 % / 45 %).",
            ],
            units: "GB decimales (10⁹ bytes) para la GPU más cargada; velocidad en tokens/s por usuario y segundos de prefill.",
            leaves_out: &[
                "Velocidad al entrenar, con MoE, MLA, ventanas deslizantes, TP/PP > 1 u offload.",
                "Mediciones reales: es una cifra para planificar.",
                "Kernels y fragmentación más allá del margen y la reserva.",
            ],
        },
        MethodId::Vllm => super::engine_texts(super::Lang::Es)
            .map_or(super::Interpretation::NOT_LOADED, |t| t.vllm_interpretation),
        MethodId::Llamacpp => super::engine_texts(super::Lang::Es)
            .map_or(super::Interpretation::NOT_LOADED, |t| t.llamacpp_interpretation),
    }
}

fn no_speed(reason: &NoSpeed) -> String {
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

fn planner_error(e: &PlannerError) -> String {
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
