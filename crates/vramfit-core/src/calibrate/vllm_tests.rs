//! The reader on every log excerpt that ships (`data/engines/vllm-logs.md`)
//! against the figures transcribed from it (`vllm-logs.csv`), and the fit.

use super::*;
use crate::methods::vllm::logs::{log_runs, LogRun};
use crate::methods::vllm::validation::log_bytes;
use crate::methods::vllm::VllmModel;

const MD: &str = include_str!("../../data/engines/vllm-logs.md");

/// Each row's verbatim log lines (the ```text block under "## Row N").
fn excerpts() -> Vec<String> {
    MD.split("\n## Row ")
        .skip(1)
        .map(|section| {
            let start = section.find("```text\n").map_or(0, |i| i + 8);
            let end = section[start..]
                .find("```")
                .map_or(section.len(), |i| start + i);
            section[start..end].to_string()
        })
        .collect()
}

#[test]
fn every_excerpt_reads_as_its_row() {
    let runs = log_runs().unwrap();
    let texts = excerpts();
    assert_eq!(texts.len(), runs.len());
    for (text, run) in texts.iter().zip(&runs) {
        let log = parse(text).unwrap_or_else(|e| panic!("row {}: {e}", run.row));
        let near = |a: u64, gib: f64| (a as f64 / (1u64 << 30) as f64 - gib).abs() < 1e-4;
        assert!(
            near(log.weights_bytes, run.weights_gib),
            "row {} weights",
            run.row
        );
        assert!(
            near(log.kv_cache_bytes, run.kv_cache_gib),
            "row {} kv",
            run.row
        );
        assert_eq!(log.kv_cache_tokens, run.kv_cache_tokens, "row {}", run.row);
        assert_eq!(log.v0, run.v0, "row {}", run.row);
        // Rows 2 and 8 print no version line (the CSV has it from the
        // file's name and its sibling log).
        if let Some(release) = log.release {
            assert_eq!(Some(release), run.release, "row {} release", run.row);
        }
        if run.tp > 1 {
            assert_eq!(log.tp, Some(run.tp), "row {}", run.row);
        }
    }
}

#[test]
fn printed_totals_and_profiling_figures_are_read() {
    let texts = excerpts();
    let gib = |b: Option<u64>| (b.unwrap() as f64 / (1u64 << 30) as f64 * 100.0).round() / 100.0;
    let row6 = parse(&texts[5]).unwrap();
    assert_eq!(gib(row6.total_bytes), 15.99);
    assert_eq!(gib(row6.activation_peak_bytes), 0.34);
    assert_eq!(gib(row6.non_torch_bytes), 0.02);
    assert_eq!(gib(row6.cuda_graph_bytes), 1.27);
    let row10 = parse(&texts[9]).unwrap();
    assert_eq!(gib(row10.total_bytes), 79.25);
    assert_eq!(gib(row10.graph_estimate_bytes), 0.15);
    assert_eq!(gib(row10.non_torch_bytes), 0.33);
    assert_eq!(row10.max_num_seqs, Some(16));
    let v0 = parse(&texts[10]).unwrap();
    assert_eq!(gib(v0.total_bytes), 23.58);
    assert_eq!(v0.kv_cache_tokens, Some(1478 * 16));
}

#[test]
fn a_log_without_its_kv_line_is_named() {
    let err = parse("Model loading took 14.99 GiB and 3 seconds").unwrap_err();
    assert!(
        err.to_string().contains("Available KV cache memory"),
        "{err}"
    );
    assert_eq!(
        err,
        LogError::MissingLine {
            line: "Available KV cache memory",
            figure: LogFigure::KvCacheMemory,
        }
    );
    let err = parse("Available KV cache memory: 3 GiB").unwrap_err();
    assert!(err.to_string().contains("Model loading took"), "{err}");
    assert!(err.to_string().contains("(weights)"), "{err}");
    let json = serde_json::to_value(&err).unwrap();
    assert_eq!(json["figure"]["id"], "weights");
    assert_eq!(json["figure"]["text"], "weights");
}

#[test]
fn the_comparison_names_each_figure_by_its_id_and_unit() {
    let runs = log_runs().unwrap();
    let c = fitted(&runs[0], &excerpts()[0]);
    let ids: Vec<&str> = c.compared.iter().map(|f| f.figure.id()).collect();
    assert_eq!(
        ids,
        [
            "weights",
            "activation_peak",
            "non_torch",
            "cuda_graphs_set_aside",
            "kv_cache_memory",
            "kv_cache_tokens",
            "max_concurrency",
            "cuda_graphs_captured",
        ]
    );
    assert!(c.compared.iter().all(|f| f.unit == f.figure.unit()));
    assert_eq!(LogFigure::KvCacheTokens.unit(), FigureUnit::Tokens);
    assert_eq!(LogFigure::MaxConcurrency.unit(), FigureUnit::Times);
    // The CLI's column pads the English words.
    assert_eq!(
        format!("{:<18}|", LogFigure::NonTorch),
        "non-torch memory  |"
    );
    let json = serde_json::to_value(&c.compared[2]).unwrap();
    assert_eq!(json["figure"]["id"], "non_torch");
    assert_eq!(json["figure"]["text"], "non-torch memory");
    assert_eq!(json["unit"], "GiB");
}

fn fitted(run: &LogRun, text: &str) -> Calibration {
    let entry = crate::catalog::find_model(run.config.as_deref().unwrap()).unwrap();
    let model = VllmModel::from_config(&entry.config).unwrap();
    let log = parse(text).unwrap();
    let total = log_bytes(run.total_gib.unwrap());
    fit(&log, &model, &run.inputs().unwrap(), total).unwrap()
}

#[test]
fn the_fit_reproduces_its_own_log_and_carries_to_the_same_machine() {
    let runs = log_runs().unwrap();
    let texts = excerpts();
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    // Row 7 (online FP8 of a MoE at 0.22.1) runs at its release's default
    // utilization, 0.92: fitted, it reproduces its own log too.
    for i in [0, 1, 6, 7, 9, 11] {
        let c = fitted(&runs[i], &texts[i]);
        let kv = gib(c.refit.kv_cache_bytes);
        // A residual below minus the non-torch memory clamps it at 0 (row
        // 1: 0.04 GiB short).
        assert!(
            (kv - runs[i].kv_cache_gib).abs() < 0.05,
            "row {}: {kv}",
            i + 1
        );
    }
    // Rows 1 and 2 are one machine: fitted on the TP 1 log, the TP 2 run
    // (another utilization, twice the GPUs) comes within 0.05 GiB.
    let c = fitted(&runs[0], &texts[0]);
    let entry = crate::catalog::find_model("Qwen/Qwen2-7B-Instruct").unwrap();
    let model = VllmModel::from_config(&entry.config).unwrap();
    let base = runs[1].inputs().unwrap();
    let inputs = crate::methods::vllm::VllmInputs {
        runtime: base.runtime.calibrated(&c.calibration),
        ..base
    };
    let e = crate::methods::vllm::estimate(&model, log_bytes(79.25), &inputs).unwrap();
    let kv = e.kv_cache_bytes as f64 / (1u64 << 30) as f64;
    assert!((kv - 31.83).abs() < 0.05, "{kv}");
}
