//! `vramfit`: the command-line face of the estimator core. It prints the
//! same `vramfit/1` JSON document as the web app's export (`--json`), or a
//! readable breakdown.

mod args;
mod check;
mod render;
mod speed_line;

use args::{Command, USAGE};
use std::process::ExitCode;
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
        Command::Estimate { input, json } => {
            let doc = build(&input)?;
            Ok(if json {
                doc.to_json()
            } else {
                render::estimate(&doc)
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
        RequestError::Refused(e) => e.to_string(),
    })
}

/// `vramfit inspect MODEL`: the parsed architecture.
fn inspect(model: ModelRef, json: bool) -> Result<String, String> {
    // A catalog model is named by its catalog id (its config's
    // `_name_or_path` may be a local path of whoever exported it).
    let catalog_id = match &model {
        ModelRef::Catalog(id) => vramfit_core::catalog::find_model(id)
            .ok()
            .map(|e| e.id.to_string()),
        ModelRef::Config(_) | ModelRef::ConfigWithQuant { .. } => None,
    };
    let scenario = ScenarioInput {
        model: Some(model),
        ..ScenarioInput::default()
    };
    let doc = build(&Request {
        scenario,
        ..Request::default()
    })?;
    if json {
        let mut text = serde_json::to_string_pretty(&doc.model).map_err(|e| e.to_string())?;
        text.push('\n');
        Ok(text)
    } else {
        Ok(render::model(&doc.model, catalog_id.as_deref()))
    }
}
