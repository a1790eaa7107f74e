//! `--calibrate LOG`: an engine's load log read for its settings and its
//! machine, which the scenario then starts from (the options after it
//! change the scenario: another context, more sequences), and the figures
//! it printed beside the prediction for the same settings.

use vramfit_core::calibrate::llamacpp::{self, compare, LlamacppLog};
use vramfit_core::calibrate::{detect, LogEngine};
use vramfit_core::methods::llamacpp::{estimate, estimate_file, FileType, LlamaCppInputs};
use vramfit_core::request::Request;
use vramfit_core::scenario::{ConfigText, ScenarioInput};
use vramfit_core::units::{Bytes, DisplayUnit};

/// A log read from the file at `path`.
pub fn load(path: &str) -> Result<LlamacppLog, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    match detect(&text) {
        Some(LogEngine::Llamacpp) => llamacpp::parse(&text).map_err(|e| format!("{path}: {e}")),
        None => Err(format!(
            "{path}: not a load log of an engine vramfit reads (llama.cpp)"
        )),
    }
}

/// The scenario starts from the log's settings and machine: its context,
/// sequences, cache types, micro-batch, flash attention, offloaded layers,
/// and its first GPU's free memory as the memory to fit.
pub fn apply(log: &LlamacppLog, input: &mut ScenarioInput) {
    input.context = log.n_ctx;
    input.sequences = log.n_seq_max.unwrap_or(1).max(1);
    if let Some(kv) = log.kv.first() {
        input.engine.cache_type_k = Some(kv.type_k);
        input.engine.cache_type_v = Some(kv.type_v);
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
        FileType::ALL
            .into_iter()
            .find(|f| f.printed_name().eq_ignore_ascii_case(t.trim()))
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
    let mut out = String::from("calibration: the log's figures and vramfit's for its settings\n");
    if let Some(b) = &log.build {
        out += &format!("  build {b}");
    }
    for d in &log.devices {
        out += &format!("; {} {} ({} MiB free)", d.name, d.description, d.free_mib);
    }
    out += &format!(
        "\n  GGUF {}, n_ctx {}, {} sequence(s), K {} V {}{}\n",
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
