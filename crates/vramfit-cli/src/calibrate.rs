//! `--calibrate LOG`: an engine's start-up log read, its figures shown
//! beside the prediction, and the machine's runtime terms it gives put in
//! the scenario. The engine is detected from the log's lines.

use vramfit_core::calibrate::{detect, vllm, LogEngine};
use vramfit_core::request::Request;
use vramfit_core::units::{Bytes, DisplayUnit};

/// Reads the log at `path`, fits on it and puts the terms in `request`;
/// the text that shows the fit.
pub fn apply(request: &mut Request, path: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--calibrate {path}: {e}"))?;
    match detect(&text) {
        Some(LogEngine::Vllm) => vllm_log(request, path, &text),
        None => Err(format!(
            "--calibrate {path}: no engine start-up lines vramfit reads (vLLM's \"Model loading \
             took\", \"Available KV cache memory\")"
        )),
    }
}

fn gib(bytes: u64) -> String {
    Bytes(bytes).display(DisplayUnit::Gib)
}

fn vllm_log(request: &mut Request, path: &str, text: &str) -> Result<String, String> {
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
