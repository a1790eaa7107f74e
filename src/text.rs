//! User-facing text of the app. Spanish is the seeds' language and the
//! default; every label lives here so that views hold no wording.

use vramfit_core::advice::{Change, Cost};
use vramfit_core::methods::MethodId;
use vramfit_core::methods::{Feature, OutOfScope};
use vramfit_core::model::AttentionKind;
use vramfit_core::scenario::{Field, InputError, InputProblem, Mode, ScenarioError};
use vramfit_core::verdict::FitStatus;

/// Label, unit and one-line hint of each input field.
pub fn field_label(field: Field) -> (&'static str, &'static str, &'static str) {
    match field {
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
        Field::Batch => (
            "Secuencias a la vez",
            "",
            "Secuencias atendidas simultáneamente.",
        ),
        Field::OverheadPct => (
            "Sobrecarga",
            "%",
            "Activaciones, contexto CUDA y búferes: 10–20 % es razonable.",
        ),
        Field::GpuMemoryGb => (
            "Memoria de la GPU",
            "GB",
            "Capacidad nominal en GB decimales (10⁹ bytes).",
        ),
        Field::Users => (
            "Usuarios",
            "",
            "Usuarios atendidos a la vez (pueden esperar en cola).",
        ),
        Field::Gpus => ("GPU", "×", "Número de GPU de la máquina."),
        Field::Tp => ("Paralelismo tensorial", "TP", "GPU que reparten cada capa."),
        Field::Pp => (
            "Paralelismo de tubería",
            "PP",
            "Etapas de capas en GPU distintas.",
        ),
        Field::HostRamGb => (
            "RAM del equipo",
            "GB",
            "Para descargar pesos a la CPU (0: sin offload).",
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
    }
}

/// Why a typed value was rejected, in words.
pub fn input_error(e: &InputError) -> String {
    match e.problem {
        InputProblem::Empty => "Escribe un número.".into(),
        InputProblem::NotANumber => "No es un número.".into(),
        InputProblem::NotAnInteger => "Debe ser un número entero.".into(),
        InputProblem::TooSmall | InputProblem::TooLarge => {
            format!("Debe estar entre {} y {}.", e.min, e.max)
        }
    }
}

/// A rejected scenario, in words.
pub fn scenario_error(e: &ScenarioError) -> String {
    match e {
        ScenarioError::Field(f) => format!("{}: {}", field_label(f.field).0, input_error(f)),
        ScenarioError::MethodMode { method, .. } => {
            format!("El método {} no estima este modo.", method_name(*method))
        }
        ScenarioError::MethodScope { method, reason } => format!(
            "El método {} no puede estimar esto: {}.",
            method_name(*method),
            out_of_scope(reason)
        ),
        ScenarioError::UnknownModel(miss) if miss.suggestions.is_empty() => {
            format!("No hay ningún modelo «{}» en el catálogo.", miss.query)
        }
        ScenarioError::UnknownModel(miss) => format!(
            "No hay ningún modelo «{}» en el catálogo. ¿Quizá {}?",
            miss.query,
            miss.suggestions.join(", ")
        ),
        ScenarioError::UnknownGpu(miss) if miss.suggestions.is_empty() => {
            format!("No hay ninguna GPU «{}» en el catálogo.", miss.query)
        }
        ScenarioError::UnknownGpu(miss) => format!(
            "No hay ninguna GPU «{}» en el catálogo. ¿Quizá {}?",
            miss.query,
            miss.suggestions.join(", ")
        ),
        ScenarioError::Config(e) => format!(
            "config.json no se puede usar: {} (claves: {}).",
            e,
            e.keys().join(", ")
        ),
        ScenarioError::NeedsModel(_) => {
            "El formato «como se publicó» necesita un modelo real (catálogo o config.json).".into()
        }
    }
}

/// A mode's name.
pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Inference => "Inferencia",
        Mode::Full => "Ajuste completo",
        Mode::Lora => "LoRA",
        Mode::Qlora => "QLoRA",
    }
}

/// A method's name and what it counts, in one line.
pub fn method_name(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "quick",
        MethodId::Lesson => "lesson",
        MethodId::Allocator => "allocator",
    }
}

/// What a method counts, in one line.
pub fn method_summary(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "Pesos + caché KV + sobrecarga en % (GB decimales).",
        MethodId::Lesson => {
            "Pesos + caché KV (o 18 bytes/parámetro al entrenar) + reservas + margen (GiB)."
        }
        MethodId::Allocator => {
            "Pico de PyTorch (max_memory_allocated) para un paso; necesita un modelo denso real."
        }
    }
}

/// The ring state in words.
pub fn status_word(status: FitStatus) -> &'static str {
    match status {
        FitStatus::Holgada => "holgada",
        FitStatus::ConMargen => "con margen",
        FitStatus::Ajustada => "ajustada",
        FitStatus::NoCabe => "no cabe",
    }
}

/// A component's display name.
pub fn component_name(name: &str) -> &str {
    match name {
        "weights" => "Pesos",
        "kv_cache" => "Caché KV",
        "overhead" => "Sobrecarga",
        "training_states" => "Estados de entrenamiento",
        "runtime" => "Runtime",
        "activation" => "Activaciones",
        "margin" => "Margen",
        "gradients" => "Gradientes",
        "optimizer" => "Optimizador",
        "activations" => "Activaciones guardadas",
        "autocast_cache" => "Copias de autocast",
        "step_workspace" => "Búfer del paso",
        other => other,
    }
}

/// A single adjustment, in words.
pub fn change(c: &Change) -> String {
    match c {
        Change::Context(n) => format!("Contexto de {n} tokens"),
        Change::Batch(n) => format!("{n} secuencias a la vez"),
        Change::WeightFormat(f) => format!("Pesos en {}", f.label()),
        Change::KvBytes(b) => format!("Caché KV a {b} byte por valor (FP8)"),
        Change::Lora => "LoRA en lugar de ajuste completo".into(),
        Change::GradCheckpoint => "Activar gradient checkpointing".into(),
        Change::PurePrecision => "Precisión pure en lugar de amp".into(),
    }
}

/// What an adjustment costs besides memory.
pub fn cost(c: Cost) -> &'static str {
    match c {
        Cost::ChangesTrainingObjective => "cambia el objetivo de entrenamiento",
        Cost::ShorterContext => "prompts y respuestas más cortos",
        Cost::LowerThroughput => "menos rendimiento",
        Cost::MayCostQuality => "puede costar calidad: pruébalo en tu tarea",
        Cost::TrainsAdaptersOnly => "solo entrena adaptadores",
        Cost::SlowerStep => "paso más lento (recalcula activaciones)",
        Cost::LessPreciseUpdates => "actualizaciones menos precisas",
    }
}

/// An attention kind in words.
pub fn attention_kind(kind: &AttentionKind) -> String {
    match kind {
        AttentionKind::Full => "atención completa".into(),
        AttentionKind::SlidingWindow { window } => format!("ventana deslizante de {window}"),
        AttentionKind::Chunked { chunk } => format!("atención por bloques de {chunk}"),
        AttentionKind::Mla { latent } => format!("MLA, latente {latent}"),
        AttentionKind::Linear { .. } => "lineal / estado fijo".into(),
        AttentionKind::None => "sin atención".into(),
    }
}

/// Why a method does not estimate a scenario, in words.
pub fn out_of_scope(reason: &OutOfScope) -> String {
    match reason {
        OutOfScope::NeedsModel => {
            "necesita un modelo real (del catálogo o un config.json), no números a mano".into()
        }
        OutOfScope::Family(family) => format!(
            "la familia {family:?} queda fuera de su alcance (llama, mistral, qwen2, qwen3, gemma, gemma2 densos)"
        ),
        OutOfScope::Feature(feature) => {
            let what = match feature {
                Feature::Experts => "mezcla de expertos",
                Feature::LatentAttention => "atención latente (MLA)",
                Feature::LinearLayers => "capas lineales o de estado",
                Feature::QuantizedCheckpoint => "un checkpoint cuantizado",
                Feature::NoDenseMlp => "ninguna MLP densa (intermediate_size)",
            };
            format!("el modelo tiene {what}, que este método no modela")
        }
        OutOfScope::QuantizedWeights => {
            "solo cubre pesos fp32, bf16 y fp16; los formatos cuantizados quedan fuera".into()
        }
        OutOfScope::TooManyGpus { max } => format!("reparte un modelo entre {max} GPU como máximo"),
        OutOfScope::Parallelism { tp, pp, gpus } => format!(
            "TP {tp} × PP {pp} necesita un múltiplo de {} GPU, no {gpus}",
            tp.saturating_mul(*pp)
        ),
    }
}
