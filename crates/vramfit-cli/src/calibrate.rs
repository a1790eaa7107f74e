//! `--calibrate LOG`: an engine's log read, the engine detected from its
//! lines. A vLLM start-up log: its figures beside the prediction, and the
//! machine's runtime terms it gives put in the scenario. A llama.cpp load
//! log: its settings and machine, which the scenario then starts from (the
//! options after it change the scenario: another context, more sequences),
//! and the figures it printed beside the prediction for the same settings.

use vramfit_core::calibrate::llamacpp::{self, compare, LlamacppLog, Printer};
use vramfit_core::calibrate::llamacpp_fit::fit;
use vramfit_core::calibrate::vllm::FigureUnit;
use vramfit_core::calibrate::{detect, vllm, LogEngine};
use vramfit_core::methods::llamacpp::{estimate, estimate_file, FileType, LlamaCppInputs};
use vramfit_core::request::Request;
use vramfit_core::scenario::{ConfigText, LlamacppCalibration, ScenarioInput};
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
            FigureUnit::Gib => format!("{v:.2} GiB"),
            FigureUnit::Tokens => format!("{v:.0}"),
            FigureUnit::Times => format!("{v:.2}x"),
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

/// The scenario starts from the log's settings and machine
/// ([`vramfit_core::calibrate::llamacpp_fit::start_from`]).
pub fn apply(log: &LlamacppLog, input: &mut ScenarioInput) {
    vramfit_core::calibrate::llamacpp_fit::start_from(log, input);
}

/// Fits what the log measured (its compute buffers over the replay of its
/// own settings, its GPU's free memory, its build) and puts it in
/// `request`'s engine settings, so that every scenario after it on that
/// machine takes it; the text that shows the log beside the prediction
/// and the fit.
pub fn apply_llamacpp(log: &LlamacppLog, request: &mut Request) -> Result<String, String> {
    let (text, fitted) = report(log, request)?;
    request.scenario.engine.llamacpp_calibration = Some(fitted);
    Ok(text)
}

/// The log's figures beside the `llamacpp` method's for the log's own
/// settings, with the machine it names, and the terms fitted on it.
pub fn report(
    log: &LlamacppLog,
    request: &Request,
) -> Result<(String, LlamacppCalibration), String> {
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
    // The replay without a calibration: the log's own settings.
    let inputs = LlamaCppInputs {
        calibration: None,
        ..llamacpp::inputs(log, base)
    };
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
    let fitted = fit(log, &e);
    let pct = |p: u64, r: u64| (p as f64 / r as f64 - 1.0) * 100.0;
    let mut terms = Vec::new();
    if fitted.gpu_compute_replayed_bytes > 0 {
        terms.push(format!(
            "GPU compute buffers {:+.2}% of the replay ({} printed / {} replayed)",
            pct(
                fitted.gpu_compute_printed_bytes,
                fitted.gpu_compute_replayed_bytes
            ),
            mib(fitted.gpu_compute_printed_bytes),
            mib(fitted.gpu_compute_replayed_bytes)
        ));
    }
    if let (Some(p), Some(r)) = (
        fitted.host_compute_printed_bytes,
        fitted.host_compute_replayed_bytes,
    ) {
        terms.push(format!("host compute buffers {:+.2}%", pct(p, r)));
    }
    if let Some(f) = fitted.free_bytes {
        terms.push(format!("{} MiB free on the GPU", f >> 20));
    }
    if let Some(b) = fitted.build {
        terms.push(format!("build {b}"));
    }
    if fitted.gpu_compute_replayed_bytes == 0 {
        terms.push("compute buffers as replayed (they round to the print)".to_string());
    }
    if terms.is_empty() {
        terms.push("nothing beyond the settings".to_string());
    }
    out += &format!(
        "  fitted: {}; every estimate below on this machine uses them (compute buffers: \
         calibrated from your log)\n",
        terms.join(", ")
    );
    out += "the estimate below starts from the log's settings and machine\n\n";
    Ok((out, fitted))
}
