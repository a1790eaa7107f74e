//! `vramfit`: the command-line face of the estimator core. It prints the
//! same `vramfit/1` JSON document as the web app's export (`--json`), or a
//! readable breakdown.

mod args;
mod calibrate;
mod check;
mod engine_words;
mod gguf_file;
mod llamacpp_args;
mod render;
mod speed_line;

use args::{Command, USAGE};
use std::process::ExitCode;
use vramfit_core::methods::engine::EngineRefusal;
use vramfit_core::methods::{vllm, Refusal};
use vramfit_core::report;
use vramfit_core::request::{Request, RequestError};
use vramfit_core::scenario::{ModelRef, ScenarioInput};

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match args::parse(&argv).and_then(run) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("vramfit: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command; the text to print, or one line of error.
fn run(command: Command) -> Result<String, String> {
    match command {
        Command::Help => Ok(format!("{USAGE}\n")),
        Command::Version => Ok(format!("vramfit {}\n", report::APP_VERSION)),
        Command::Gpus { json } => Ok(render::gpus(json)),
        Command::Models { json } => Ok(render::models(json)),
        Command::Estimate {
            input,
            json,
            calibration,
            calibrate: _,
        } => {
            let doc = build(&input)?;
            // A log's figures beside the prediction for its own settings
            // and the fit on it (`calibration`), made with the request.
            Ok(match (json, calibration) {
                (true, Some(fit)) => {
                    // The document stays the only thing on stdout.
                    eprint!("{fit}");
                    doc.to_json()
                }
                (true, None) => doc.to_json(),
                (false, fit) => format!("{}{}", fit.unwrap_or_default(), render::estimate(&doc)),
            })
        }
        Command::Inspect { model, json } => inspect(model, json),
        Command::Kit => Ok(check::print_kit()),
        Command::Check { path } => check::run(&path),
    }
}

/// The report, or the first reason it cannot be built.
fn build(request: &Request) -> Result<report::Report, String> {
    report::build(request).map_err(|e| match e {
        RequestError::Invalid(errors) => errors
            .first()
            .map_or_else(|| "invalid scenario".to_string(), |e| e.to_string()),
        RequestError::Refused(e) => match (&e.reason, request.scenario.validate()) {
            (Refusal::Engine(EngineRefusal::LoadsButDoesNotQuantize { format }), Ok(s)) => {
                let offered = vllm::published_checkpoints(&s, *format);
                match offered.is_empty() {
                    true => format!("{e}; the catalog has none of this model"),
                    false => format!(
                        "{e}; in the catalog: {}",
                        offered
                            .iter()
                            .map(|id| with_weights(id))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            }
            _ => e.to_string(),
        },
    })
}

/// A published checkpoint of the catalog with its weights as published
/// (`Qwen/Qwen3-30B-A3B-GPTQ-Int4 (16.97 GB of weights)`), so the offer
/// says what loading it would cost.
fn with_weights(id: &str) -> String {
    let weights = vramfit_core::catalog::find_model(id)
        .ok()
        .and_then(|e| e.spec().ok())
        .map(|spec| spec.published_format().bytes);
    match weights {
        Some(bytes) => format!(
            "{id} ({} of weights)",
            vramfit_core::units::Bytes(bytes).display(render::UNIT)
        ),
        None => id.to_string(),
    }
}

/// `vramfit inspect MODEL`: the parsed architecture.
fn inspect(model: ModelRef, json: bool) -> Result<String, String> {
    // A catalog model is named by its catalog id (its config's
    // `_name_or_path` may be a local path of whoever exported it).
    let catalog_id = match &model {
        ModelRef::Catalog(id) => vramfit_core::catalog::find_model(id)
            .ok()
            .map(|e| e.id.to_string()),
        ModelRef::Config(_) | ModelRef::ConfigWithQuant { .. } | ModelRef::Gguf(_) => None,
    };
    let scenario_model = Some(model.clone());
    let scenario = ScenarioInput {
        model: Some(model),
        ..ScenarioInput::default()
    };
    let doc = build(&Request {
        scenario,
        ..Request::default()
    })?;
    let gguf = scenario_model.as_ref().and_then(|m| {
        if let ModelRef::Gguf(file) = m {
            return Some(file);
        }
        None
    });
    let file = gguf.map(|f| gguf_file::summary(f)).unwrap_or_default();
    if json {
        let mut value = serde_json::to_value(&doc.model).map_err(|e| e.to_string())?;
        if let (Some(f), Some(object)) = (gguf, value.as_object_mut()) {
            object.insert("gguf".into(), gguf_file::facts(f));
        }
        let mut text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
        text.push('\n');
        Ok(text)
    } else {
        Ok(file + &render::model(&doc.model, catalog_id.as_deref()))
    }
}
