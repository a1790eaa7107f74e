//! Nederlands: de enginemethoden.

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
pub(super) const VLLM_SUMMARY: &str = "Wat vLLM bij het opstarten meldt: gewichten, profileringspiek, KV-cachetokens en gelijktijdigheid, en of het opstart (GiB).";
/// The llamacpp method in one line.
pub(super) const LLAMACPP_SUMMARY: &str = "Waar llama.cpp een GGUF-bestand neerzet: modelbuffer, K- en V-cache, rekenbuffer, verdeeld over de GPU en het hostgeheugen met -ngl (GiB).";
/// How to read the vllm method's figures.
pub(super) const VLLM_INTERPRETATION: Interpretation = Interpretation {
    summary: "Wat vLLM (V1-engine, de gekozen versie: standaard de nieuwste) bij het opstarten van `vllm serve` met deze opties afdrukt, en de fout waarmee het zou stoppen.",
    assumptions: &[
        "vLLM vraagt totaal × gpu_memory_utilization van elke GPU; de KV-cache krijgt wat de gewichten, de profileringspiek en het geheugen buiten PyTorch ervan overlaten.",
        "De ring vergelijkt dat gevraagde geheugen met wat het scenario ervan nodig heeft: gewichten + piek + geheugen buiten torch + de KV-cache van de gelijktijdige sequenties, elk met de volle context (--max-model-len). Het past precies als vLLM opstart en ze allemaal kwijt kan.",
        "De KV-cache, zijn tokens en de gelijktijdigheid zijn wat vLLM volledig reserveert; CUDA-graphs worden daarna vastgelegd, buiten het gevraagde geheugen.",
        "Het totaal van de GPU is wat CUDA meldt waar de catalogus het heeft (79,19 GiB voor een H100 80GB), anders dat van de driver of het nominale, zoals hieronder vermeld.",
        "Getoetst aan 47 echte opstartlogs van vLLM 0.19 op een H100: gewichten binnen 1 %, KV-geheugen binnen 0,21 GiB, KV-tokens binnen 0,34 %.",
    ],
    units: "GiB (2³⁰ bytes), zoals vLLM ze afdrukt; de cijfers zijn per GPU, de zwaarst belaste.",
    leaves_out: &[
        "Geheugen buiten torch en CUDA-graphs zijn constanten gemeten op een H100; andere GPU's, NCCL zonder NVLink en ROCm wijken af.",
        "Hybrides met Mamba of lineaire attention, speculatieve decodering, LoRA, expert- en dataparallellisme.",
        "Snelheid: naast de ring staan genereren, prompt inlezen en het eerste token, met het genereren per verzoek en de totale uitvoer van vLLM bij de reeksen tegelijk; de grafiek onder de resultaten is het genereren van één reeks tegen de context.",
    ],
};
/// How to read the llamacpp method's figures.
pub(super) const LLAMACPP_INTERPRETATION: Interpretation = Interpretation {
    summary: "Het GGUF-bestand dat de tools van llama.cpp voor het model en het gekozen type zouden schrijven, en waar llama.cpp elke byte ervan neerzet.",
    assumptions: &[
        "Modelgrootte: het type dat llama-quantize elke tensor geeft (Q4_K_M houdt er enkele in Q6_K, de normen in F32), exact tot op de byte.",
        "K- en V-cache: n_ctx cellen (de context, afgerond op 256) per laag, elk met een eigen type (-ctk, -ctv); lagen met een schuivend venster houden hun venster.",
        "De ring is de GPU: modelbuffer + K + V + rekenbuffer tegen het GPU-geheugen min de 1 GiB die llama.cpp vrijhoudt. Met -ngl op automatisch is de ring het hele model op de GPU, en toont het paneel de verdeling die llama.cpp zou kiezen.",
        "Eén slot per gelijktijdige sequentie (-np), met één gedeelde cache.",
    ],
    units: "GiB (2³⁰ bytes), zoals llama.cpp ze afdrukt.",
    leaves_out: &[
        "Rekenbuffers zijn een benadering van de grafallocator van ggml, niet gemeten.",
        "Meerdere GPU's (--tensor-split), multimodale projectoren, LoRA-adapters, speculatieve decodering.",
        "De CUDA-context en cuBLAS-werkruimten buiten de buffers van llama.cpp (de marge van 1 GiB dekt ze).",
    ],
};

pub static ENGINE: EngineTexts = EngineTexts {
    vllm_summary: VLLM_SUMMARY,
    llamacpp_summary: LLAMACPP_SUMMARY,
    vllm_interpretation: VLLM_INTERPRETATION,
    llamacpp_interpretation: LLAMACPP_INTERPRETATION,

    vllm_title: "Wat vLLM bij het opstarten meldt",
    llamacpp_title: "Waar llama.cpp het model neerzet",
    kv_pool: "KV-cache die vLLM reserveert",
    kv_tokens: "KV-cachetokens",
    concurrency: |x, n| format!("{x}× verzoeken van {n} tokens"),
    concurrency_label: "Maximale gelijktijdigheid",
    longest_start: "Langste context waarmee het opstart",
    cuda_graphs: "CUDA-graphs (na de KV-cache, buiten het gevraagde geheugen)",
    gpu_total: "GPU-geheugen volgens CUDA",
    starts: "vLLM start op met deze instellingen.",
    would_not_start: "vLLM zou niet opstarten:",
    model_size: "Modelgrootte (GGUF)",
    k_cache: "K-cache",
    v_cache: "V-cache",
    compute_buffers: "Rekenbuffers",
    output_buffer: "Uitvoerbuffer (host)",
    on_gpu: "Op de GPU",
    in_host: "In het hostgeheugen",
    layers_label: "Lagen op de GPU",
    layers: |n, of| format!("{n} van {of}"),
    offloaded: |n, of, bytes| {
        format!("Deels uitbesteed: {n} van {of} lagen draaien vanuit het hostgeheugen ({bytes}), trager dan op de GPU.")
    },
    all_on_gpu: "Alle lagen op de GPU.",
    most_layers: "Meeste lagen die passen",
    longest_fit: "Langste context die past met deze lagen",
    none: "geen",
    command_label: "Opdracht",
    copy: "Kopiëren",
    copied: "Gekopieerd.",
    copy_failed: "Kopiëren lukte niet; selecteer de regel en kopieer hem.",
    note,
    refusal,
    knob_error,

    knob,
    auto: "auto",
    gguf_label: "GGUF-type",
    cache_type_k: "Type van de K-cache (-ctk)",
    cache_type_v: "Type van de V-cache (-ctv)",
    cache_follows: "volgens KV-bytes",
    flash_attn: "Flash attention (-fa)",
    enforce_eager: "Geen CUDA-graphs (--enforce-eager)",
    speed_label: "Snelheid",
    decode: "Genereren",
    prefill: "Prompt inlezen",
    first_token: "Tijd tot het eerste token",
    limited_by: |l| {
        let what = match l {
            Limit::Bandwidth => "de geheugenbandbreedte van de GPU",
            Limit::Compute => "de rekenkracht van de GPU",
            Limit::HostMemory => "het hostgeheugen",
            Limit::Overhead => "vaste kosten per stap",
        };
        format!("Begrensd door {what}")
    },
    slower_host: |n| {
        if n == 1 {
            "Trager omdat 1 laag vanuit het hostgeheugen draait".to_string()
        } else {
            format!("Trager omdat {n} lagen vanuit het hostgeheugen draaien")
        }
    },
    decode_at_context: "Genereren aan het eind van de context",
    decode_alone: "Genereren, één verzoek alleen",
    decode_each: |n| format!("Genereren per verzoek, {n} tegelijk"),
    output_all: |n| format!("Uitvoer, alle {n} verzoeken samen"),
    speed_chart_title: "Generatiesnelheid tegen de context",
    speed_chart_sentence: |a, lo, b, hi| format!("Eén reeks genereert {a} tokens/s met {lo} tokens in de cache en {b} tokens/s bij {hi}, de gekozen context: elk token leest de hele cache."),
    speed_chart_band: "Bereik (tokens/s)",
    checkpoint_default: "Gradient checkpointing staat aan zodra je voor trainen kiest, zoals TRL's SFTTrainer (SFTConfig) het instelt voor volledig fine-tunen, LoRA en QLoRA: het kost ongeveer een derde meer rekenwerk en bewaart veel minder activaties. De gewone Trainer van transformers laat het uit; vink het uit om dat te schatten.",
    paste_label: "Plak je commando",
    paste_hint: "vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2",
    paste_apply: "Lees het commando",
    paste_applied: |e| format!("Gelezen als {e}-commando: de invoer en de methode volgen het."),
    command_error,
    vllm_version_label: "vLLM-versie",
    vllm_version_default: |d| format!("{} (standaard)", d),
    interconnect_label: "Verbinding tussen de GPU's",
    interconnect_usual: |l| format!("zoals de catalogus hem heeft: {}", l),
    calibrate_label: "Plak je vLLM-opstartlog",
    calibrate_figure,
    calibrate_figure_col: "Cijfer",
    calibrate_logged: "vLLM drukte af",
    calibrate_predicted: "vramfit voorspelt",
    calibrate_applied: |o| {
        format!(
            "Gekalibreerd op je log (geheugen buiten PyTorch {} per GPU).",
            o
        )
    },
    calibrate_clear: "Kalibratie verwijderen",
    calibrate_missing: |line, figure| {
        format!(
            "Het log heeft geen regel „{}” ({}).",
            line,
            calibrate_figure(figure)
        )
    },
    calibrate_refused: |why| format!("Niet gekalibreerd: {}", why),
};

fn note(n: &EngineNote) -> String {
    match n {
        EngineNote::DriverTotalUsed => "Het totaal dat CUDA voor deze GPU meldt is niet bekend: het totaal van de driver wordt gebruikt (CUDA meldt een paar honderd MiB minder).".into(),
        EngineNote::NominalCapacityUsed => "Noch het totaal van CUDA noch dat van de driver is bekend voor deze GPU: de nominale capaciteit wordt gebruikt.".into(),
        EngineNote::SmCountAssumed => "Het aantal SM's van de GPU is niet bekend: de 132 van een H100 worden aangenomen.".into(),
        EngineNote::ArchitectureAssumed => "De architectuur van de GPU is niet bekend: de 33 MiB cuBLAS-werkruimte van Hopper wordt aangenomen.".into(),
        EngineNote::NotCuda => "Geen NVIDIA-GPU: de rekening is die van CUDA.".into(),
        EngineNote::KvFollowsModelDtype { bytes } => format!("vLLM bewaart keys en values in het type van het model ({bytes} bytes), tenzij FP8 gekozen is."),
        EngineNote::KvFp8FromCheckpoint => "Het checkpoint vraagt een KV-cache in FP8 (kv_cache_quant_algo): vLLM bewaart keys en values in FP8 (1 byte), tenzij --kv-cache-dtype iets anders zegt.".into(),
        EngineNote::QuantizationNotModelled { method } => format!("Kwantisatie „{method}” is niet gemodelleerd: de lagen worden geteld in het type van het model."),
        EngineNote::VisionTowerNotCounted => "De vision tower van dit multimodale model wordt niet meegeteld.".into(),
        EngineNote::VisionProfileNotCounted => "De gewichten van de vision tower worden meegeteld, volledig op elke GPU; de dummyafbeeldingen die vLLM bij het profileren codeert niet.".into(),
        EngineNote::VllmUnifiedMemory => "Gedeeld geheugen: vLLM start alleen als het beschikbare geheugen van het systeem dekt wat het vraagt; geef op wat het systeem en andere programma’s innemen (--other-memory-gib).".into(),
        EngineNote::CudaGraphsBeyondMemory => "De CUDA-graphs passen niet in wat de benutting overlaat: vLLM kan zonder geheugen komen te zitten bij het vastleggen.".into(),
        EngineNote::GgufDefault => "Geen GGUF-type gekozen: Q4_K_M, de meest gedownloade.".into(),
        EngineNote::RaiseWiredLimit { mb } => format!("Het past in het gedeelde geheugen als de wired-limiet omhoog gaat: sudo sysctl iogpu.wired_limit_mb={mb} (tot de volgende herstart)."),
        EngineNote::HostMemoryAbove { host_bytes, host_ram_bytes, mapped } => format!(
            "Het hostdeel van llama.cpp ({} GiB) is groter dan het hostgeheugen ({} GiB): {}",
            vramfit_core::units::Bytes(*host_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            vramfit_core::units::Bytes(*host_ram_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            if *mapped { "de pagina's van het gemapte bestand worden steeds opnieuw van schijf gelezen" } else { "met --no-mmap mislukt het laden" }
        ),
        EngineNote::LlamacppRunner { runner, line } => format!("Runner-voorinstelling: {}; de llama.cpp-opties die hij zet: {line}", runner.name()),
        EngineNote::LlamacppBuild { build: None, .. } => "llama.cpp-build: de nieuwste cache-indelingen.".into(),
        EngineNote::LlamacppBuild { build: Some(b), unsure } => format!(
            "llama.cpp-build b{b}: zijn cache-indelingen{}.",
            match unsure.is_empty() {
                true => String::new(),
                false => format!(" (onbekend voor: {})", unsure.join(", ")),
            }
        ),
        EngineNote::CacheTypeDefault => "De KV-bytes komen met geen cachetype van llama.cpp overeen: f16, de standaard, wordt gebruikt.".into(),
        EngineNote::GttLimitUsed { vram_bytes, gtt_bytes } => format!(
            "AMD-APU: de GPU mag het VRAM uit de BIOS ({} GiB aangenomen) plus de standaard-GTT van Linux ({} GiB, de helft van de rest) gebruiken.",
            vramfit_core::units::Bytes(*vram_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            vramfit_core::units::Bytes(*gtt_bytes).display(vramfit_core::units::DisplayUnit::Gib)
        ),
        EngineNote::RaiseGttLimit { pages_limit, gttsize_mb } => format!("Het past in het geheugen als de GTT omhoog gaat: start met de kerneloptie ttm.pages_limit={pages_limit} amdgpu.gttsize={gttsize_mb}."),
        EngineNote::UnifiedTotalUsed => "Gedeeld geheugen: CUDA meldt al het systeemgeheugen als dat van de GPU, en alles wordt gebruikt.".into(),
        EngineNote::VllmConsumedMemoryNotModelled => "vLLM 0.27 en later rekenen al het geheugen dat sinds het opstarten is verbruikt af van de KV-cache, ook de blokken die PyTorch in zijn cache houdt; vramfit rekent zoals 0.26, zonder de buffers van de model runner en de blokken die de profileerrun in de cache laat, dus de KV-cache van vLLM kan iets kleiner zijn (het enige gecontroleerde log met deze boekhouding zit er 0,02 GiB naast).".into(),
        EngineNote::WiredLimitUsed => "Apple silicon: het deel van het gedeelde geheugen dat de GPU standaard mag gebruiken, wordt gebruikt.".into(),
    }
}

fn refusal(r: &EngineRefusal) -> String {
    let n = |v: u64| format::integer(&NUMBER, v);
    match r {
        EngineRefusal::LmStudioGuardrail { level, load_bytes, limit_bytes, machine_bytes } => {
            let gb = |b: u64| vramfit_core::units::Bytes(b).display(vramfit_core::units::DisplayUnit::Gb);
            format!("de laadbeveiliging van LM Studio ({}) stopt het laden: het neemt {} van de {} die het niveau toestaat (GPU-geheugen + RAM: {})", level.arg(), gb(*load_bytes), gb(*limit_bytes), gb(*machine_bytes))
        }
        EngineRefusal::Format { format } => format!("de engine laadt geen gewichten in {}", format.label()),
        EngineRefusal::ContextAboveModel { context, max } => format!("een context van {} tokens ligt boven het maximum van het model ({} tokens)", n(*context), n(*max)),
        EngineRefusal::HeadsNotDivisible { heads, tp } => format!("de {heads} attention-heads laten zich niet over {tp} GPU's verdelen (tensorparallellisme)"),
        EngineRefusal::VocabNotDivisible { vocab, tp } => format!("het vocabulaire ({}) laat zich niet over {tp} GPU's verdelen", n(*vocab)),
        EngineRefusal::StagesOverLayers { pp, layers } => format!("{pp} pipelinefasen voor {layers} lagen laten een fase zonder lagen"),
        EngineRefusal::QuantizationConflict => "het checkpoint is al gekwantiseerd met een andere methode dan FP8".into(),
        EngineRefusal::Architecture { .. } => "de tensorindeling van llama.cpp voor deze architectuur is hier niet afgeleid".into(),
        EngineRefusal::Layout { problem } => format!("het model heeft iets wat de llama.cpp-indeling niet bevat ({problem})"),
        EngineRefusal::QuantizedVNeedsFlashAttention { cache_type_v } => format!("een V-cache in {cache_type_v} vraagt flash attention"),
        EngineRefusal::CacheRowNotBlocks { cache_type, row, block } => format!("een cacherij van {row} waarden is geen geheel aantal {cache_type}-blokken van {block}"),
        EngineRefusal::NoTypeFallback { row, ggml_type } => format!("rijen van {row} waarden passen in geen {ggml_type}-blok: llama-quantize stopt"),
        EngineRefusal::TooManySequences { max } => format!("llama.cpp bedient hoogstens {max} sequenties tegelijk"),
        EngineRefusal::VllmRelease { release, newest } => format!("vLLM {} is niet gemodelleerd: alleen de versies 0.8 tot {} (de V1-engine)", release.text(), newest.family()),
        EngineRefusal::Input => "een waarde die de engine niet aanvaardt".into(),
        EngineRefusal::NoMetalBackend => "vLLM heeft geen Metal-backend: het draait niet op de GPU van Apple silicon. llama.cpp wel (en Ollama en LM Studio, die llama.cpp gebruiken).".into(),
        EngineRefusal::LoadsButDoesNotQuantize { format } => format!(
            "vLLM laadt {0}-checkpoints maar kwantiseert een checkpoint niet naar {0}: laad een gepubliceerd {0}-checkpoint van het model",
            format.label()
        ),
    }
}

fn knob_error(e: &EngineError) -> String {
    let what = match e.problem {
        EngineProblem::Empty => "typ een getal".to_string(),
        EngineProblem::NotANumber => "geen getal".to_string(),
        EngineProblem::NotAnInteger => "moet een geheel getal zijn".to_string(),
        EngineProblem::OutOfRange { min, max } => format!(
            "moet tussen {} en {} liggen",
            format::plain(&NUMBER, min),
            format::plain(&NUMBER, max)
        ),
        EngineProblem::NotABlockSize => "moet 1, 8, 16, 32, 64, 128 of 256 zijn".to_string(),
        EngineProblem::NotACacheType => "geen cachetype van llama.cpp".to_string(),
    };
    format!("{}: {what}.", e.knob.key())
}

fn knob(field: EngineField) -> FieldText {
    let (label, unit, hint) = match field {
        EngineField::GpuMemoryUtilization => (
            "Benutting van GPU-geheugen",
            "",
            "Deel van het GPU-totaal dat vLLM mag gebruiken; leeg: die van de versie (0,92 vanaf 0.20, 0,9 daarvoor).",
        ),
        EngineField::MaxNumBatchedTokens => (
            "Tokens per batch",
            "tokens",
            "--max-num-batched-tokens; leeg: de standaard van vLLM voor de GPU.",
        ),
        EngineField::MaxNumSeqs => (
            "Sequenties per stap",
            "",
            "--max-num-seqs; leeg: de standaard van vLLM voor de GPU.",
        ),
        EngineField::BlockSize => ("KV-blokgrootte", "tokens", "--block-size: standaard 16."),
        EngineField::NGpuLayers => (
            "Lagen op de GPU",
            "-ngl",
            "Leeg: automatisch, zoveel als passen.",
        ),
        EngineField::NCpuMoe => (
            "Experts op de CPU",
            "lagen",
            "--n-cpu-moe: experts van de eerste N lagen in het hostgeheugen.",
        ),
        EngineField::OtherMemoryGib => (
            "Geheugen van anderen",
            "GiB",
            "Wat andere processen (het systeem en apps, bij gedeeld geheugen) vasthouden als vLLM start.",
        ),
        EngineField::BiosVramGib => (
            "BIOS-VRAM",
            "GiB",
            "AMD-APU: het geheugen dat het BIOS voor de GPU reserveert (0,5 aangenomen); de GTT voegt de helft van de rest toe.",
        ),
        EngineField::Ubatch => (
            "Microbatch",
            "tokens",
            "-ub: tokens per grafevaluatie (512).",
        ),
    };
    FieldText { label, unit, hint }
}

/// Why a pasted command was not read, naming the word.
fn command_error(e: &CommandError) -> String {
    let t = crate::i18n::Lang::Nl.t();
    let why = match e {
        CommandError::Empty => "het commando is leeg".to_string(),
        CommandError::UnclosedQuote => "een aanhalingsteken wordt niet gesloten".to_string(),
        CommandError::NotAnEngine { program } => format!(
            "`{program}` is geen engine-commando (bekend: vllm serve, llama-server, llama-cli)"
        ),
        CommandError::VllmWithoutServe => "`vllm` heeft `serve MODEL` nodig".to_string(),
        CommandError::UnknownOption { engine, option } => {
            format!("onbekende {}-optie `{option}`", engine.name())
        }
        CommandError::NotModelled {
            engine,
            option,
            why,
        } => format!(
            "{}-optie `{option}` wordt niet gemodelleerd: {}",
            engine.name(),
            unmodelled(*why)
        ),
        CommandError::MissingValue { option } => format!("{option} heeft een waarde nodig"),
        CommandError::BadValue {
            option,
            value,
            expected: want,
        } => format!("{option} {value}: verwacht {}", expected(*want)),
        CommandError::UnexpectedWord { word } => format!("onverwacht woord `{word}`: één model"),
        CommandError::NoModel { engine } => {
            format!("het {}-commando noemt geen model", engine.name())
        }
        CommandError::UnknownModel { word } => format!("geen catalogusmodel past bij `{word}`"),
        CommandError::Field { option, error } => format!("{option}: {}", (t.input_error)(error)),
        CommandError::Knob { option, error } => format!("{option}: {}", knob_error(error)),
    };
    format!("Het commando is niet gelezen: {why}.")
}

/// A figure the core compares a vLLM log on (or names in a missing-line
/// message).
fn calibrate_figure(figure: LogFigure) -> &'static str {
    match figure {
        LogFigure::Weights => "gewichten",
        LogFigure::ActivationPeak => "activatiepiek",
        LogFigure::NonTorch => "geheugen buiten PyTorch",
        LogFigure::GraphsSetAside => "gereserveerde CUDA-grafen",
        LogFigure::KvCacheMemory => "KV-cachegeheugen",
        LogFigure::KvCacheTokens => "KV-cachetokens",
        LogFigure::MaxConcurrency => "maximale gelijktijdigheid",
        LogFigure::GraphsCaptured => "vastgelegde CUDA-grafen",
    }
}

/// Why the command reader does not model an option, in this language.
fn unmodelled(why: Unmodelled) -> &'static str {
    match why {
        Unmodelled::HostOffload => {
            "gewichten die naar de host zijn uitbesteed worden niet gemodelleerd"
        }
        Unmodelled::SwapSpace => "de swapruimte van de host wordt niet gemodelleerd",
        Unmodelled::DataParallel => {
            "dataparallelle kopieën worden niet gemodelleerd; geef het aantal GPU's"
        }
        Unmodelled::DraftModel => "een draftmodel wordt niet gemodelleerd",
        Unmodelled::ServingLora => "LoRA-adapters tijdens het serveren worden niet gemodelleerd",
        Unmodelled::GpuSplit => "een verdeling over meerdere GPU's wordt niet gemodelleerd",
        Unmodelled::TensorOverrides => {
            "tensor-overrides worden niet gemodelleerd; gebruik --n-cpu-moe"
        }
        Unmodelled::HostKvCache => "een KV-cache op de host wordt niet gemodelleerd",
    }
}

/// The value an option expects, in this language: a list keeps the
/// engine's spellings and joins its last two with this language's "or".
fn expected(e: Expected) -> String {
    match e {
        Expected::TokenCount => "een aantal tokens".into(),
        Expected::GpuCount => "een geheel aantal GPU's, minstens 1".into(),
        Expected::BatchTokens => "een geheel aantal tokens, minstens 1".into(),
        Expected::CacheType
        | Expected::KvCacheDtype
        | Expected::Quantization
        | Expected::Dtype
        | Expected::FlashAttn => e.one_of(" of "),
    }
}
