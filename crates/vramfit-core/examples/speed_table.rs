//! Predicted against measured for every calibration row
//! (`data/speed/calibration.csv`), with the error: `make speed-table`.
//!
//! ```text
//! cargo run -p vramfit-core --example speed_table            # markdown table
//! cargo run -p vramfit-core --example speed_table -- --summary
//! ```

use vramfit_core::methods::speed::calibration::{self, Engine, Metric};
use vramfit_core::methods::speed::Rates;

fn main() {
    let summary_only = std::env::args().any(|a| a == "--summary");
    let rates = Rates::checked_in();
    let (rows, skipped) = calibration::rows();
    let mut errors: Vec<(Engine, Metric, String, f64)> = Vec::new();
    if !summary_only {
        println!("| line | engine | backend | GPU | n | model | type | test | measured | predicted | error |");
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
    }
    for row in &rows {
        let predicted =
            calibration::prepare(row).and_then(|p| calibration::predict(row, &p, rates));
        let (shown, err) = match &predicted {
            Ok(p) => {
                let e = p / row.measured - 1.0;
                errors.push((row.engine, row.metric, row.backend.id().to_string(), e));
                (format!("{p:.1}"), format!("{:+.1} %", 100.0 * e))
            }
            Err(why) => ("—".to_string(), why.clone()),
        };
        if !summary_only {
            println!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} |",
                row.line,
                engine_name(row.engine),
                row.backend.id(),
                row.gpu_label,
                row.gpus,
                row.model_label,
                row.file_type.name(),
                row.test,
                row.measured,
                shown,
                err
            );
        }
    }
    for (line, why) in &skipped {
        if !summary_only {
            println!("| {line} | | | | | | | | | — | {why} |");
        }
    }
    println!();
    summary(&errors, rows.len() + skipped.len());
}

fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Llamacpp => "llama.cpp",
        Engine::Vllm => "vLLM",
    }
}

fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Decode => "decode",
        Metric::Prefill => "prefill",
        Metric::Throughput => "output throughput",
    }
}

fn summary(errors: &[(Engine, Metric, String, f64)], total: usize) {
    let mut keys: Vec<(Engine, Metric, String)> = errors
        .iter()
        .map(|(e, m, b, _)| (*e, *m, b.clone()))
        .collect();
    keys.sort_by_key(|k| format!("{k:?}"));
    keys.dedup();
    println!(
        "| engine | metric | backend | rows | median abs error | worst abs error | within 20 % |"
    );
    println!("|---|---|---|---|---|---|---|");
    let line = |label: (String, String, String), mut errs: Vec<f64>| {
        errs.sort_by(|a, b| a.total_cmp(b));
        let within = errs.iter().filter(|e| **e <= 0.2).count();
        println!(
            "| {} | {} | {} | {} | {:.1} % | {:.1} % | {}/{} |",
            label.0,
            label.1,
            label.2,
            errs.len(),
            100.0 * errs[errs.len() / 2],
            100.0 * errs[errs.len() - 1],
            within,
            errs.len()
        );
    };
    for (e, m, b) in &keys {
        let errs: Vec<f64> = errors
            .iter()
            .filter(|(e2, m2, b2, _)| e2 == e && m2 == m && b2 == b)
            .map(|x| x.3.abs())
            .collect();
        line(
            (
                engine_name(*e).to_string(),
                metric_name(*m).to_string(),
                b.clone(),
            ),
            errs,
        );
    }
    let all: Vec<f64> = errors.iter().map(|x| x.3.abs()).collect();
    line(("all".into(), "".into(), "".into()), all);
    println!("\n{} of {} rows have a figure.", errors.len(), total);
}
