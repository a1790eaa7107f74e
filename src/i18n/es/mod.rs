//! Spanish: the seeds' language and the default.

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
