//! Español: los métodos de motor.

use super::NUMBER;
use crate::i18n::engine::EngineTexts;
use crate::i18n::format;
use crate::i18n::{FieldText, Interpretation};
use vramfit_core::calibrate::vllm::LogFigure;
use vramfit_core::command::{CommandError, Expected, Unmodelled};
use vramfit_core::methods::engine::{EngineNote, EngineRefusal};
use vramfit_core::methods::speed::Limit;
use vramfit_core::scenario::{EngineError, EngineField, EngineProblem};

/// The vllm method in one line (also the page table's, which reads it
/// without the rest of this table).
pub(super) const VLLM_SUMMARY: &str = "Lo que vLLM informa al arrancar: pesos, pico del perfilado, tokens de caché KV y concurrencia, y si arranca (GiB).";
/// The llamacpp method in one line.
pub(super) const LLAMACPP_SUMMARY: &str = "Dónde coloca llama.cpp un archivo GGUF: búfer del modelo, cachés K y V, búfer de cómputo, repartidos entre la GPU y la memoria del host con -ngl (GiB).";
/// How to read the vllm method's figures.
pub(super) const VLLM_INTERPRETATION: Interpretation = Interpretation {
    summary: "Lo que vLLM (motor V1, la versión elegida: la más reciente por defecto) imprime al arrancar `vllm serve` con estas opciones, y el error con el que se detendría.",
    assumptions: &[
        "vLLM pide total × gpu_memory_utilization de cada GPU; la caché KV recibe lo que le dejan los pesos, el pico del perfilado y la memoria fuera de PyTorch.",
        "El anillo compara esa memoria pedida con lo que el escenario necesita de ella: pesos + pico + memoria fuera de torch + la caché KV de las secuencias simultáneas, cada una con el contexto completo (--max-model-len). Cabe exactamente cuando vLLM arranca y las aloja todas.",
        "La caché KV, sus tokens y la concurrencia son los que vLLM reserva completos; los grafos CUDA se capturan después, fuera de la memoria pedida.",
        "El total de la GPU es el que informa CUDA cuando el catálogo lo tiene (79,19 GiB en una H100 80GB); si no, el del controlador o el nominal, como se indica abajo.",
        "Contrastado con 47 registros reales de arranque de vLLM 0.19 en una H100: pesos dentro del 1 %, memoria KV dentro de 0,21 GiB, tokens KV dentro del 0,34 %.",
    ],
    units: "GiB (2³⁰ bytes), como los imprime vLLM; las cifras son por GPU, la más cargada.",
    leaves_out: &[
        "La memoria fuera de torch y los grafos CUDA son constantes medidas en una H100; otras GPU, NCCL sin NVLink y ROCm difieren.",
        "Híbridos con Mamba o atención lineal, decodificación especulativa, LoRA, paralelismo de expertos y de datos.",
        "La velocidad: junto al anillo, la generación, la lectura del prompt y el primer token, con la generación por petición y la salida total de vLLM con las secuencias a la vez; el gráfico bajo los resultados es la generación de una secuencia según el contexto.",
    ],
};
/// How to read the llamacpp method's figures.
pub(super) const LLAMACPP_INTERPRETATION: Interpretation = Interpretation {
    summary: "El archivo GGUF que escribirían las herramientas de llama.cpp para el modelo y el tipo elegido, y dónde coloca llama.cpp cada byte.",
    assumptions: &[
        "Tamaño del modelo: el tipo que llama-quantize da a cada tensor (Q4_K_M deja algunos en Q6_K, las normas en F32), exacto al byte.",
        "Cachés K y V: n_ctx celdas (el contexto, redondeado a 256) por capa, cada una con su tipo (-ctk, -ctv); las capas de ventana deslizante guardan su ventana.",
        "El anillo es la GPU: búfer del modelo + K + V + búfer de cómputo frente a la memoria de la GPU menos el 1 GiB que llama.cpp deja libre. Con -ngl en automático el anillo es el modelo entero en la GPU, y el panel muestra el reparto que elegiría llama.cpp.",
        "Una ranura por secuencia simultánea (-np), compartiendo una caché.",
    ],
    units: "GiB (2³⁰ bytes), como los imprime llama.cpp.",
    leaves_out: &[
        "Los búferes de cómputo son una aproximación del asignador de grafos de ggml, no una medida.",
        "Varias GPU (--tensor-split), proyectores multimodales, adaptadores LoRA, decodificación especulativa.",
        "El contexto CUDA y los espacios de cuBLAS fuera de los búferes de llama.cpp (el margen de 1 GiB los cubre).",
    ],
};

pub static ENGINE: EngineTexts = EngineTexts {
    vllm_summary: VLLM_SUMMARY,
    llamacpp_summary: LLAMACPP_SUMMARY,
    vllm_interpretation: VLLM_INTERPRETATION,
    llamacpp_interpretation: LLAMACPP_INTERPRETATION,

    vllm_title: "Lo que vLLM informa al arrancar",
    llamacpp_title: "Dónde coloca llama.cpp el modelo",
    kv_pool: "Caché KV que reserva vLLM",
    kv_tokens: "Tokens de caché KV",
    concurrency: |x, n| format!("{x}× solicitudes de {n} tokens"),
    concurrency_label: "Concurrencia máxima",
    longest_start: "Contexto más largo con el que arranca",
    cuda_graphs: "Grafos CUDA (tras la caché KV, fuera de la memoria pedida)",
    gpu_total: "Memoria de la GPU según CUDA",
    starts: "vLLM arranca con esta configuración.",
    would_not_start: "vLLM no arrancaría:",
    model_size: "Tamaño del modelo (GGUF)",
    k_cache: "Caché K",
    v_cache: "Caché V",
    compute_buffers: "Búferes de cómputo",
    output_buffer: "Búfer de salida (host)",
    on_gpu: "En la GPU",
    in_host: "En la memoria del host",
    layers_label: "Capas en la GPU",
    layers: |n, of| format!("{n} de {of}"),
    offloaded: |n, of, bytes| {
        format!("Descarga parcial: {n} de {of} capas se ejecutan desde la memoria del host ({bytes}), más lento que en la GPU.")
    },
    all_on_gpu: "Todas las capas en la GPU.",
    most_layers: "Máximo de capas que caben",
    longest_fit: "Contexto más largo que cabe con estas capas",
    none: "ninguno",
    command_label: "Orden",
    copy: "Copiar",
    copied: "Copiado.",
    copy_failed: "No se pudo copiar; selecciona la línea y cópiala.",
    note,
    refusal,
    knob_error,

    knob,
    auto: "auto",
    gguf_label: "Tipo GGUF",
    cache_type_k: "Tipo de la caché K (-ctk)",
    cache_type_v: "Tipo de la caché V (-ctv)",
    cache_follows: "según bytes KV",
    flash_attn: "Flash attention (-fa)",
    enforce_eager: "Sin grafos CUDA (--enforce-eager)",
    speed_label: "Velocidad",
    decode: "Generación",
    prefill: "Lectura del prompt",
    first_token: "Tiempo hasta el primer token",
    limited_by: |l| {
        let what = match l {
            Limit::Bandwidth => "el ancho de banda de la memoria de la GPU",
            Limit::Compute => "el cómputo de la GPU",
            Limit::HostMemory => "la memoria del host",
            Limit::Overhead => "los costes fijos de cada paso",
        };
        format!("Limitada por {what}")
    },
    slower_host: |n| {
        if n == 1 {
            "Más lenta porque 1 capa se ejecuta desde la memoria del host".to_string()
        } else {
            format!("Más lenta porque {n} capas se ejecutan desde la memoria del host")
        }
    },
    decode_at_context: "Generación al final del contexto",
    decode_alone: "Generación, una petición sola",
    decode_each: |n| format!("Generación por petición, {n} a la vez"),
    output_all: |n| format!("Salida, las {n} peticiones juntas"),
    speed_chart_title: "Velocidad de generación según el contexto",
    speed_chart_sentence: |a, lo, b, hi| format!("Una secuencia genera {a} tokens/s con {lo} tokens en su caché y {b} tokens/s con {hi}, el contexto elegido: cada token lee la caché entera."),
    speed_chart_band: "Intervalo (tokens/s)",
    checkpoint_default: "El gradient checkpointing se activa al pasar a entrenamiento, como lo fija SFTTrainer de TRL (SFTConfig) para el ajuste completo, LoRA y QLoRA: cuesta alrededor de un tercio más de cómputo y guarda muchas menos activaciones. El Trainer de transformers sin más lo deja apagado; desmárcalo para estimar ese caso.",
    paste_label: "Pega tu comando",
    paste_hint: "vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2",
    paste_apply: "Leer el comando",
    paste_applied: |e| format!("Leído como comando de {e}: las entradas y el método lo siguen."),
    command_error,
    vllm_version_label: "Versión de vLLM",
    vllm_version_default: |d| format!("{} (predeterminada)", d),
    interconnect_label: "Enlace entre las GPU",
    interconnect_usual: |l| format!("como la tiene el catálogo: {}", l),
    calibrate_label: "Pega el registro de arranque de vLLM",
    calibrate_figure,
    calibrate_figure_col: "Cifra",
    calibrate_logged: "vLLM imprimió",
    calibrate_predicted: "vramfit predice",
    calibrate_applied: |o| {
        format!(
            "Calibrado con tu registro (memoria fuera de PyTorch {} por GPU).",
            o
        )
    },
    calibrate_clear: "Quitar la calibración",
    calibrate_missing: |line, figure| {
        format!(
            "El registro no tiene la línea «{}» ({}).",
            line,
            calibrate_figure(figure)
        )
    },
    calibrate_refused: |why| format!("Sin calibrar: {}", why),
};

fn note(n: &EngineNote) -> String {
    match n {
        EngineNote::DriverTotalUsed => "No se conoce el total que informa CUDA para esta GPU: se usa el del controlador (CUDA informa unos cientos de MiB menos).".into(),
        EngineNote::NominalCapacityUsed => "No se conoce ni el total de CUDA ni el del controlador para esta GPU: se usa su capacidad nominal.".into(),
        EngineNote::SmCountAssumed => "No se conoce el número de SM de la GPU: se suponen los 132 de una H100.".into(),
        EngineNote::ArchitectureAssumed => "No se conoce la arquitectura de la GPU: se suponen los 33 MiB de espacios de cuBLAS de Hopper.".into(),
        EngineNote::NotCuda => "No es una GPU de NVIDIA: la cuenta es la de CUDA.".into(),
        EngineNote::KvFollowsModelDtype { bytes } => format!("vLLM guarda claves y valores en el tipo del modelo ({bytes} bytes) salvo que se elija FP8."),
        EngineNote::KvFp8FromCheckpoint => "El checkpoint pide una caché KV en FP8 (kv_cache_quant_algo): vLLM guarda claves y valores en FP8 (1 byte) salvo que --kv-cache-dtype diga otra cosa.".into(),
        EngineNote::QuantizationNotModelled { method } => format!("La cuantización «{method}» no está modelada: sus capas se cuentan en el tipo del modelo."),
        EngineNote::VisionTowerNotCounted => "No se cuenta la torre de visión de este modelo multimodal.".into(),
        EngineNote::VisionProfileNotCounted => "Se cuentan los pesos de la torre de visión, enteros en cada GPU; no las imágenes ficticias que vLLM codifica al perfilarla.".into(),
        EngineNote::VllmUnifiedMemory => "Memoria unificada: vLLM solo arranca si la memoria disponible del sistema cubre lo que pide; indica lo que ocupan el sistema y otros programas (--other-memory-gib).".into(),
        EngineNote::CudaGraphsBeyondMemory => "Los grafos CUDA no caben en lo que deja la utilización: vLLM podría quedarse sin memoria al capturarlos.".into(),
        EngineNote::GgufDefault => "No se eligió tipo GGUF: Q4_K_M, la descarga más común.".into(),
        EngineNote::RaiseWiredLimit { mb } => format!("Cabe en la memoria unificada si se sube el límite fijado: sudo sysctl iogpu.wired_limit_mb={mb} (hasta el próximo reinicio)."),
        EngineNote::HostMemoryAbove { host_bytes, host_ram_bytes, mapped } => format!(
            "La parte de llama.cpp en el host ({} GiB) supera la memoria del host ({} GiB): {}",
            vramfit_core::units::Bytes(*host_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            vramfit_core::units::Bytes(*host_ram_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            if *mapped { "las páginas del archivo mapeado se leerían del disco una y otra vez" } else { "con --no-mmap la carga falla" }
        ),
        EngineNote::LlamacppRunner { runner, line } => format!("Preajuste del ejecutor: {}; las opciones de llama.cpp que fija: {line}", runner.name()),
        EngineNote::LlamacppBuild { build: None, .. } => "Build de llama.cpp: las disposiciones de caché más recientes.".into(),
        EngineNote::LlamacppBuild { build: Some(b), unsure } => format!(
            "Build de llama.cpp b{b}: sus disposiciones de caché{}.",
            match unsure.is_empty() {
                true => String::new(),
                false => format!(" (sin saber para: {})", unsure.join(", ")),
            }
        ),
        EngineNote::CacheTypeDefault => "Los bytes KV no corresponden a ningún tipo de caché de llama.cpp: se usa f16, su valor por defecto.".into(),
        EngineNote::GttLimitUsed { vram_bytes, gtt_bytes } => format!(
            "APU de AMD: la GPU puede usar la VRAM de la BIOS ({} GiB supuestos) más el GTT por defecto de Linux ({} GiB, la mitad del resto).",
            vramfit_core::units::Bytes(*vram_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            vramfit_core::units::Bytes(*gtt_bytes).display(vramfit_core::units::DisplayUnit::Gib)
        ),
        EngineNote::RaiseGttLimit { pages_limit, gttsize_mb } => format!("Cabe en la memoria si se sube el GTT: arranca con las opciones del kernel ttm.pages_limit={pages_limit} amdgpu.gttsize={gttsize_mb}."),
        EngineNote::UnifiedTotalUsed => "Memoria unificada: CUDA da toda la memoria del sistema como de la GPU, y se usa entera.".into(),
        EngineNote::VllmConsumedMemoryNotModelled => "vLLM 0.27 y posteriores descuentan de la caché KV toda la memoria consumida desde el arranque, incluidos los bloques que PyTorch guarda en caché; vramfit cuenta como 0.26, sin los búferes del model runner ni los bloques que la pasada de perfilado deja en caché, así que la caché KV de vLLM puede ser algo menor (el único registro con esta contabilidad comprobado queda a 0,02 GiB).".into(),
        EngineNote::WiredLimitUsed => "Apple silicon: se usa la parte de la memoria unificada que la GPU puede usar por defecto.".into(),
    }
}

fn refusal(r: &EngineRefusal) -> String {
    let n = |v: u64| format::integer(&NUMBER, v);
    match r {
        EngineRefusal::LmStudioGuardrail { level, load_bytes, limit_bytes, machine_bytes } => {
            let gb = |b: u64| vramfit_core::units::Bytes(b).display(vramfit_core::units::DisplayUnit::Gb);
            format!("la protección de carga de LM Studio ({}) detiene la carga: ocupa {} de los {} que su nivel permite (memoria de GPU + RAM: {})", level.arg(), gb(*load_bytes), gb(*limit_bytes), gb(*machine_bytes))
        }
        EngineRefusal::Format { format } => format!("el motor no carga pesos en {}", format.label()),
        EngineRefusal::ContextAboveModel { context, max } => format!("un contexto de {} tokens supera el máximo del modelo ({} tokens)", n(*context), n(*max)),
        EngineRefusal::HeadsNotDivisible { heads, tp } => format!("sus {heads} cabezas de atención no se reparten entre {tp} GPU (paralelismo de tensor)"),
        EngineRefusal::VocabNotDivisible { vocab, tp } => format!("su vocabulario ({}) no se reparte entre {tp} GPU", n(*vocab)),
        EngineRefusal::StagesOverLayers { pp, layers } => format!("{pp} etapas de pipeline para {layers} capas dejan una etapa sin capas"),
        EngineRefusal::QuantizationConflict => "el checkpoint ya está cuantizado con otro método que FP8".into(),
        EngineRefusal::Architecture { .. } => "la disposición de tensores de llama.cpp para esta arquitectura no está derivada aquí".into(),
        EngineRefusal::Layout { problem } => format!("el modelo tiene algo que su disposición en llama.cpp no contiene ({problem})"),
        EngineRefusal::QuantizedVNeedsFlashAttention { cache_type_v } => format!("una caché V en {cache_type_v} necesita flash attention"),
        EngineRefusal::CacheRowNotBlocks { cache_type, row, block } => format!("una fila de caché de {row} valores no es un número entero de bloques {cache_type} de {block}"),
        EngineRefusal::NoTypeFallback { row, ggml_type } => format!("filas de {row} valores no caben en bloques {ggml_type}: llama-quantize se detiene"),
        EngineRefusal::TooManySequences { max } => format!("llama.cpp atiende como mucho {max} secuencias a la vez"),
        EngineRefusal::VllmRelease { release, newest } => format!("vLLM {} no está modelado: solo las versiones 0.8 a {} (el motor V1)", release.text(), newest.family()),
        EngineRefusal::Input => "un valor que el motor no acepta".into(),
        EngineRefusal::NoMetalBackend => "vLLM no tiene backend Metal: no funciona en la GPU de Apple silicon. llama.cpp sí (y Ollama y LM Studio, que usan llama.cpp).".into(),
        EngineRefusal::LoadsButDoesNotQuantize { format } => format!(
            "vLLM carga checkpoints {0} pero no cuantiza un checkpoint a {0}: carga un checkpoint {0} publicado del modelo",
            format.label()
        ),
    }
}

fn knob_error(e: &EngineError) -> String {
    let what = match e.problem {
        EngineProblem::Empty => "escribe un número".to_string(),
        EngineProblem::NotANumber => "no es un número".to_string(),
        EngineProblem::NotAnInteger => "debe ser un número entero".to_string(),
        EngineProblem::OutOfRange { min, max } => format!(
            "debe estar entre {} y {}",
            format::plain(&NUMBER, min),
            format::plain(&NUMBER, max)
        ),
        EngineProblem::NotABlockSize => "debe ser 1, 8, 16, 32, 64, 128 o 256".to_string(),
        EngineProblem::NotACacheType => "no es un tipo de caché de llama.cpp".to_string(),
    };
    format!("{}: {what}.", e.knob.key())
}

fn knob(field: EngineField) -> FieldText {
    let (label, unit, hint) = match field {
        EngineField::GpuMemoryUtilization => (
            "Utilización de memoria de GPU",
            "",
            "Parte del total de la GPU que vLLM puede usar; vacío: la de la versión (0,92 desde 0.20, 0,9 antes).",
        ),
        EngineField::MaxNumBatchedTokens => (
            "Tokens por lote",
            "tokens",
            "--max-num-batched-tokens; vacío: el valor de vLLM para la GPU.",
        ),
        EngineField::MaxNumSeqs => (
            "Secuencias por paso",
            "",
            "--max-num-seqs; vacío: el valor de vLLM para la GPU.",
        ),
        EngineField::BlockSize => (
            "Tamaño de bloque KV",
            "tokens",
            "--block-size: 16 por defecto.",
        ),
        EngineField::NGpuLayers => (
            "Capas en la GPU",
            "-ngl",
            "Vacío: automático, todas las que quepan.",
        ),
        EngineField::NCpuMoe => (
            "Expertos en la CPU",
            "capas",
            "--n-cpu-moe: expertos de las primeras N capas en la memoria del host.",
        ),
        EngineField::OtherMemoryGib => (
            "Memoria usada por otros",
            "GiB",
            "La que ocupan otros procesos (el sistema y las apps, en memoria unificada) al arrancar vLLM.",
        ),
        EngineField::BiosVramGib => (
            "VRAM de la BIOS",
            "GiB",
            "APU de AMD: la memoria que la BIOS reserva para la GPU (se supone 0,5); el GTT añade la mitad del resto.",
        ),
        EngineField::Ubatch => (
            "Microlote",
            "tokens",
            "-ub: tokens por evaluación del grafo (512).",
        ),
    };
    FieldText { label, unit, hint }
}

/// Why a pasted command was not read, naming the word.
fn command_error(e: &CommandError) -> String {
    let t = crate::i18n::Lang::Es.t();
    let why = match e {
        CommandError::Empty => "el comando está vacío".to_string(),
        CommandError::UnclosedQuote => "unas comillas no se cierran".to_string(),
        CommandError::NotAnEngine { program } => format!("`{program}` no es un comando de motor (conocidos: vllm serve, llama-server, llama-cli)"),
        CommandError::VllmWithoutServe => "`vllm` necesita `serve MODELO`".to_string(),
        CommandError::UnknownOption { engine, option } => format!("opción de {} desconocida: `{option}`", engine.name()),
        CommandError::NotModelled { engine, option, why } => format!("la opción `{option}` de {} no está modelada: {}", engine.name(), unmodelled(*why)),
        CommandError::MissingValue { option } => format!("{option} necesita un valor"),
        CommandError::BadValue { option, value, expected: want } => format!("{option} {value}: se esperaba {}", expected(*want)),
        CommandError::UnexpectedWord { word } => format!("palabra inesperada `{word}`: un solo modelo"),
        CommandError::NoModel { engine } => format!("el comando de {} no nombra ningún modelo", engine.name()),
        CommandError::UnknownModel { word } => format!("ningún modelo del catálogo coincide con `{word}`"),
        CommandError::Field { option, error } => format!("{option}: {}", (t.input_error)(error)),
        CommandError::Knob { option, error } => format!("{option}: {}", knob_error(error)),
    };
    format!("No se leyó el comando: {why}.")
}

/// A figure the core compares a vLLM log on (or names in a missing-line
/// message).
fn calibrate_figure(figure: LogFigure) -> &'static str {
    match figure {
        LogFigure::Weights => "pesos",
        LogFigure::ActivationPeak => "pico de activaciones",
        LogFigure::NonTorch => "memoria fuera de PyTorch",
        LogFigure::GraphsSetAside => "grafos CUDA reservados",
        LogFigure::KvCacheMemory => "memoria de la caché KV",
        LogFigure::KvCacheTokens => "tokens de la caché KV",
        LogFigure::MaxConcurrency => "concurrencia máxima",
        LogFigure::GraphsCaptured => "grafos CUDA capturados",
    }
}

/// Why the command reader does not model an option, in this language.
fn unmodelled(why: Unmodelled) -> &'static str {
    match why {
        Unmodelled::HostOffload => "no se modelan los pesos descargados al host",
        Unmodelled::SwapSpace => "no se modela el espacio de intercambio del host",
        Unmodelled::DataParallel => {
            "no se modelan las copias en paralelo de datos; indica el número de GPUs"
        }
        Unmodelled::DraftModel => "no se modela un modelo borrador",
        Unmodelled::ServingLora => "no se modelan adaptadores LoRA al servir",
        Unmodelled::GpuSplit => "no se modela un reparto entre varias GPUs",
        Unmodelled::TensorOverrides => {
            "no se modelan los cambios de sitio de tensores; usa --n-cpu-moe"
        }
        Unmodelled::HostKvCache => "no se modela una caché KV en el host",
    }
}

/// The value an option expects, in this language: a list keeps the
/// engine's spellings and joins its last two with this language's "or".
fn expected(e: Expected) -> String {
    match e {
        Expected::TokenCount => "un número de tokens".into(),
        Expected::GpuCount => "un número entero de GPUs, al menos 1".into(),
        Expected::BatchTokens => "un número entero de tokens, al menos 1".into(),
        Expected::CacheType
        | Expected::KvCacheDtype
        | Expected::Quantization
        | Expected::Dtype
        | Expected::FlashAttn => e.one_of(" o "),
    }
}
