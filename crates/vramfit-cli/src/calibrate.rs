//! `--calibrate LOG`: an engine's log read, the engine detected from its
//! lines. A vLLM start-up log: its figures beside the prediction, and the
//! machine's runtime terms it gives put in the scenario. A llama.cpp load
//! log: its settings and machine, which the scenario then starts from (the
//! options after it change the scenario: another context, more sequences),
//! and the figures it printed beside the prediction for the same settings.

use vramfit_core::calibrate::llamacpp::{self, compare, LlamacppLog, Printer};
use vramfit_core::calibrate::{detect, vllm, LogEngine};
use vramfit_core::methods::llamacpp::{estimate, estimate_file, FileType, LlamaCppInputs};
use vramfit_core::request::Request;
use vramfit_core::scenario::{ConfigText, ScenarioInput};
use vramfit_core::units::{Bytes, DisplayUnit};

/// A log read from a file, by the engine that printed it.
pub enum Log {
    /// A vLLM start-up log: its path and text, fitted once the scenario is
    /// complete ([`apply_vllm`]).
    Vllm { path: String, text: String },
    /// A llama.cpp load log, read.
    Llamacpp(Box<LlamacppLog>),
}

/// The log at `path`, read by the reader of the engine its lines name.
pub fn read(path: &str) -> Result<Log, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("--calibrate {path}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    match detect(&text) {
        Some(LogEngine::Vllm) => Ok(Log::Vllm {
            path: path.to_string(),
            text,
        }),
        Some(LogEngine::Llamacpp) => llamacpp::parse(&text)
            .map(|l| Log::Llamacpp(Box::new(l)))
            .map_err(|e| format!("--calibrate {path}: {e}")),
        None => Err(format!(
            "--calibrate {path}: not a load log or start-up log vramfit reads (vLLM's \"Model loading \
             took\", \"Available KV cache memory\"; llama.cpp's \"load_tensors:\", \
             \"llama_context:\"; the Ollama engine's msg=\"model weights\", msg=\"kv cache\")"
        )),
    }
}

fn gib(bytes: u64) -> String {
    Bytes(bytes).display(DisplayUnit::Gib)
}

/// Fits the machine's runtime terms on a vLLM log and puts them in
/// `request`; the text that shows the fit.
pub fn apply_vllm(request: &mut Request, path: &str, text: &str) -> Result<String, String> {
    let log = vllm::parse(text).map_err(|e| format!("--calibrate {path}: {e}"))?;
    let scenario = request.scenario.validate().map_err(|e| {
        e.first()
            .map_or("invalid scenario".to_string(), |e| e.to_string())
    })?;
    let c = vllm::fit_scenario(&log, &scenario).map_err(|e| format!("--calibrate {path}: {e}"))?;
    request.scenario.engine.vllm_calibration = Some(c.calibration);
    // The machine runs the release its log prints, unless one is named.
    if request.scenario.engine.vllm_version.is_none() {
        request.scenario.engine.vllm_version = log.release;
    }
    let release = log
        .release
        .map_or("(release not printed)".to_string(), |r| r.text());
    let mut out = format!("calibration on {path}: vLLM {release}\n");
    out += &format!("  {:<24}{:>14}{:>14}\n", "figure", "predicted", "logged");
    for f in &c.compared {
        let show = |v: f64| match f.unit {
            "GiB" => format!("{v:.2} GiB"),
            "tokens" => format!("{v:.0}"),
            _ => format!("{v:.2}x"),
        };
        let logged = f.logged.map_or("—".to_string(), show);
        out += &format!(
            "  {:<24}{:>14}{:>14}\n",
            f.figure,
            show(f.predicted),
            logged
        );
    }
    let offset = c.calibration.non_torch_offset_bytes;
    let sign = if offset < 0 { "−" } else { "+" };
    out += &format!(
        "  fitted: non-torch memory {sign}{} on every GPU{}; the estimate below uses it \
         (runtime terms: calibrated)\n\n",
        gib(offset.unsigned_abs()),
        c.calibration
            .graph_estimate_bytes
            .map_or(String::new(), |g| format!(
                ", CUDA-graph estimate {}",
                gib(g)
            )),
    );
    Ok(out)
}

/// The scenario starts from the log's settings and machine: its context,
/// sequences, cache types, micro-batch, flash attention, offloaded layers,
/// and its first GPU's free memory as the memory to fit.
pub fn apply(log: &LlamacppLog, input: &mut ScenarioInput) {
    input.context = log.n_ctx;
    input.sequences = log.n_seq_max.unwrap_or(1).max(1);
    if let Some((k, v)) = log.cache_types() {
        input.engine.cache_type_k = Some(k);
        input.engine.cache_type_v = Some(v);
    }
    if let Some(ub) = log.n_ubatch {
        input.engine.ubatch = ub;
    }
    if let Some(fa) = log.flash_attn {
        input.engine.flash_attn = fa;
    }
    if let Some((n, _)) = log.offloaded {
        input.engine.n_gpu_layers = Some(n);
    }
    if let Some(d) = log.devices.first() {
        input.gpu = None;
        input.gpu_memory_gb = Bytes(d.free_mib << 20).in_unit(DisplayUnit::Gb);
    }
}

/// The log's figures beside the `llamacpp` method's for the log's own
/// settings, with the machine it names.
pub fn report(log: &LlamacppLog, request: &Request) -> Result<String, String> {
    let s = ScenarioInput {
        model: request.scenario.model.clone(),
        ..ScenarioInput::default()
    }
    .validate()
    .map_err(|e| e.first().map_or("invalid model".into(), |e| e.to_string()))?;
    let spec = s
        .model
        .as_deref()
        .ok_or("--calibrate compares a model's prediction: name MODEL")?;
    let file = s.model_config.as_ref().and_then(ConfigText::gguf);
    // The file type: the GGUF file's own, else the one asked for, else the
    // one the log printed (`print_info: file type = Q4_K - Medium`), else
    // the scenario's (a checkpoint as published).
    let printed = log.file_type.as_deref().and_then(|t| {
        FileType::ALL.into_iter().find(|f| {
            // llama.cpp prints `Q4_K - Medium`, Ollama `Q4_K_M`.
            f.printed_name().eq_ignore_ascii_case(t.trim())
                || f.name().eq_ignore_ascii_case(t.trim())
        })
    });
    let resolved = request
        .scenario
        .validate()
        .ok()
        .and_then(|s| vramfit_core::methods::llamacpp::run(&s).ok())
        .map(|r| r.inputs.file_type);
    let base = LlamaCppInputs {
        file_type: file
            .and_then(|f| f.file_type)
            .or(request.scenario.engine.gguf_type)
            .or(printed)
            .or(resolved)
            .unwrap_or(LlamaCppInputs::default().file_type),
        ..LlamaCppInputs::default()
    };
    let inputs = llamacpp::inputs(log, base);
    let e = match file {
        Some(f) => estimate_file(spec, &f.tensors, &inputs, None),
        None => estimate(spec, &inputs, None),
    }
    .map_err(|e| format!("--calibrate: {e}"))?;
    let mib = |b: u64| format!("{:.2} MiB", b as f64 / f64::from(1 << 20));
    let mut out = String::from(match log.printed_by {
        Printer::Llamacpp => "calibration: the log's figures and vramfit's for its settings\n",
        Printer::Ollama => {
            "calibration: the Ollama engine's figures (printed to 0.1 GiB or MiB) and vramfit's for its settings\n"
        }
    });
    // `build 5781 (ba3ef86c5); Vulkan0 NVIDIA GeForce RTX 4080 (16376 MiB free)`
    let machine: Vec<String> = log
        .build
        .iter()
        .map(|b| format!("build {b}"))
        .chain(
            log.devices
                .iter()
                .map(|d| format!("{} {} ({} MiB free)", d.name, d.description, d.free_mib)),
        )
        .collect();
    if !machine.is_empty() {
        out += &format!("  {}\n", machine.join("; "));
    }
    out += &format!(
        "  GGUF {}, n_ctx {}, {} sequence(s), K {} V {}{}\n",
        inputs.file_type,
        log.n_ctx,
        inputs.n_parallel,
        inputs.cache_type_k,
        inputs.cache_type_v,
        if log.swa_full {
            ", full-size SWA cache"
        } else {
            ""
        }
    );
    out += &format!(
        "  {:<22}{:>14}{:>14}{:>10}\n",
        "figure", "log", "vramfit", "error"
    );
    for c in compare(log, &e) {
        let err = c.error_centi_pct();
        out += &format!(
            "  {:<22}{:>14}{:>14}{:>9.2}%\n",
            c.figure,
            mib(c.logged),
            mib(c.predicted),
            err as f64 / 100.0
        );
    }
    out += "the estimate below starts from the log's settings and machine\n\n";
    Ok(out)
}
