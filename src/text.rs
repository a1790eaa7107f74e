//! User-facing text of the app. Spanish is the seeds' language and the
//! default; every label lives here so that views hold no wording.

use vramfit_core::methods::MethodId;
use vramfit_core::scenario::{Field, InputError, InputProblem, Mode, ScenarioError};
use vramfit_core::verdict::FitStatus;

/// Label, unit and one-line hint of each input field.
pub fn field_label(field: Field) -> (&'static str, &'static str, &'static str) {
    match field {
        Field::ParamsB => (
            "Parámetros",
            "B",
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
        Field::KvBytes => ("Bytes por valor KV", "B", "2 en FP16, 1 en FP8."),
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
        Field::Gpus => ("GPU", "×", "Número de GPU que reparten el modelo."),
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
        ScenarioError::UnknownModel(miss) if miss.suggestions.is_empty() => {
            format!("No hay ningún modelo «{}» en el catálogo.", miss.query)
        }
        ScenarioError::UnknownModel(miss) => format!(
            "No hay ningún modelo «{}» en el catálogo. ¿Quizá {}?",
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
    }
}

/// A method's name and what it counts, in one line.
pub fn method_name(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "quick",
        MethodId::Lesson => "lesson",
    }
}

/// What a method counts, in one line.
pub fn method_summary(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "Pesos + caché KV + sobrecarga en % (GB decimales).",
        MethodId::Lesson => {
            "Pesos + caché KV (o 18 bytes/parámetro al entrenar) + reservas + margen (GiB)."
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
        other => other,
    }
}
