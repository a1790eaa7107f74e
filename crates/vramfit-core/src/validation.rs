//! Measured peaks against predictions: the recorded rows in
//! `data/measurements/*.jsonl` (format in `data/measurements/README.md`),
//! run through the same pipeline as any scenario (`ScenarioInput` →
//! `validate` → the `allocator` method), so the comparison checks the
//! method as people use it.
//!
//! Used by the validation test (`tests/allocator_validation.rs`) and by the
//! README table (`cargo run -p vramfit-core --example allocator_table`).

use crate::catalog::models;
use crate::methods::MethodId;
use crate::request::Request;
use crate::scenario::{
    AttnImpl, Mode, ModelRef, Optimizer, Precision, ScenarioInput, WeightFormat,
};
use crate::units::{Bytes, DisplayUnit};
use serde::Deserialize;

/// The recorded measurement files, embedded: the seed's rows, and the
/// rows `make measure` appends (`bench/measure.py --grid`).
pub const FILES: [(&str, &str); 2] = [
    (
        "vramcalc-llama-3.2-1b.jsonl",
        include_str!("../data/measurements/vramcalc-llama-3.2-1b.jsonl"),
    ),
    (
        "measured.jsonl",
        include_str!("../data/measurements/measured.jsonl"),
    ),
];

/// One recorded run, as stored.
#[derive(Debug, Clone, Deserialize)]
pub struct Row {
    pub source: String,
    pub gpu: String,
    pub model: String,
    /// File in `data/configs/` with the model's shapes.
    pub config: String,
    pub scenario: Knobs,
    #[serde(default = "ok")]
    pub status: String,
    pub measured_total_bytes: u64,
    /// The seed's own prediction, where the row comes from seed 003.
    pub vramcalc_predicted_bytes: Option<u64>,
}

fn ok() -> String {
    "ok".into()
}

/// The knobs of a recorded run.
#[derive(Debug, Clone, Deserialize)]
pub struct Knobs {
    pub mode: String,
    pub dtype: String,
    pub batch: u64,
    pub seq_len: u64,
    pub attn_impl: String,
    pub precision: Option<String>,
    pub grad_checkpoint: Option<bool>,
    pub lora_rank: Option<u64>,
    pub lora_dropout: Option<f64>,
    /// Training: the forward ran with `use_cache=True` (a KV cache object).
    pub use_cache: Option<bool>,
    pub optimizer: Option<String>,
}

/// A row with its prediction.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub row: Row,
    /// Short description of the scenario (`train s=2048 sdpa full amp ckpt`).
    pub label: String,
    pub predicted_bytes: u64,
    /// `(predicted − measured) / measured`, in hundredths of a percent.
    pub error_centi_pct: i64,
    /// The same for the seed's prediction, where recorded.
    pub reference_error_centi_pct: Option<i64>,
}

/// Every parsable row of every embedded file (lines that do not parse are
/// reported as errors, not skipped silently).
pub fn rows() -> Result<Vec<Row>, String> {
    FILES
        .iter()
        .flat_map(|(file, text)| {
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(move |(n, l)| {
                    serde_json::from_str::<Row>(l).map_err(|e| format!("{file}:{}: {e}", n + 1))
                })
        })
        .collect()
}

/// The scenario a row describes, as a person would enter it, for the
/// allocator.
pub fn input_of(row: &Row) -> Result<Request, String> {
    let k = &row.scenario;
    let model = models::all()
        .iter()
        .find(|m| m.file == row.config)
        .ok_or_else(|| format!("no catalog config {}", row.config))?;
    let mut input = ScenarioInput {
        model: Some(ModelRef::Catalog(model.id.to_string())),
        mode: match (k.mode.as_str(), k.lora_rank) {
            ("inference", _) => Mode::Inference,
            ("lora", _) | (_, Some(_)) => Mode::Lora,
            _ => Mode::Full,
        },
        sequences: k.batch,
        context: k.seq_len,
        lora_rank: k.lora_rank.unwrap_or(16),
        // What a row does not state is the seed harness's choice, as its
        // measurements imply (docs/allocator-derivation.md, §2 and §10.3):
        // no LoRA dropout and `use_cache=False` in training.
        lora_dropout: k.lora_dropout.is_some_and(|p| p > 0.0),
        use_cache: k.use_cache.unwrap_or(k.mode == "inference"),
        grad_checkpoint: k.grad_checkpoint.unwrap_or(false),
        precision: match k.precision.as_deref() {
            Some("amp") => Precision::Amp,
            _ => Precision::Pure,
        },
        optimizer: match k.optimizer.as_deref() {
            Some("sgd") => Optimizer::Sgd,
            _ => Optimizer::AdamW,
        },
        attn: match k.attn_impl.as_str() {
            "eager" => AttnImpl::Eager,
            "flash" => AttnImpl::Flash,
            _ => AttnImpl::Sdpa,
        },
        ..ScenarioInput::default()
    };
    input.set_weight_format(match k.dtype.as_str() {
        "fp32" => WeightFormat::Fp32,
        "fp16" => WeightFormat::Fp16,
        _ => WeightFormat::Bf16,
    });
    Ok(Request::new(MethodId::Allocator, input))
}

/// A row's scenario in a few words.
fn label(k: &Knobs) -> String {
    let mut parts = vec![
        k.dtype.clone(),
        format!("b={}", k.batch),
        format!("s={}", k.seq_len),
        k.attn_impl.clone(),
    ];
    if k.mode != "inference" {
        parts.push(k.lora_rank.map_or("full".into(), |r| format!("lora={r}")));
        parts.extend(k.precision.clone());
        if k.grad_checkpoint == Some(true) {
            parts.push("ckpt".into());
        }
    }
    let mode = if k.mode == "inference" {
        "inference"
    } else {
        "train"
    };
    format!("{mode} {}", parts.join(" "))
}

/// Signed relative error in hundredths of a percent, rounded half away
/// from zero.
fn error_centi_pct(predicted: u64, measured: u64) -> i64 {
    let (num, den) = (
        (predicted as i128 - measured as i128) * 10_000,
        measured.max(1) as i128,
    );
    ((num + num.signum() * den / 2) / den) as i64
}

/// Every successful row with its prediction.
pub fn compare() -> Result<Vec<Comparison>, String> {
    rows()?
        .into_iter()
        .filter(|r| r.status == "ok")
        .map(|row| {
            let result = input_of(&row)?.run().map_err(|e| e.to_string())?;
            let predicted = result.total_bytes.get();
            Ok(Comparison {
                label: label(&row.scenario),
                predicted_bytes: predicted,
                error_centi_pct: error_centi_pct(predicted, row.measured_total_bytes),
                reference_error_centi_pct: row
                    .vramcalc_predicted_bytes
                    .map(|p| error_centi_pct(p, row.measured_total_bytes)),
                row,
            })
        })
        .collect()
}

/// The comparison as a Markdown table, with max and mean absolute error.
pub fn markdown(rows: &[Comparison]) -> String {
    let gb = |b: u64| Bytes(b).display(DisplayUnit::Gb);
    let pct = |c: i64| format!("{:+.2} %", c as f64 / 100.0);
    let mut out = String::from(
        "| model | scenario | GPU | measured | vramfit | error | seed 003 error (recomputed from its rounded GB) |\n|---|---|---|---|---|---|---|\n",
    );
    for c in rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            c.row.model,
            c.label,
            c.row.gpu.trim_start_matches("NVIDIA "),
            gb(c.row.measured_total_bytes),
            gb(c.predicted_bytes),
            pct(c.error_centi_pct),
            c.reference_error_centi_pct.map_or("–".into(), pct),
        );
    }
    let abs: Vec<i64> = rows.iter().map(|c| c.error_centi_pct.abs()).collect();
    let max = abs.iter().max().copied().unwrap_or(0);
    let mean = abs.iter().sum::<i64>() as f64 / abs.len().max(1) as f64;
    out += &format!(
        "\nmax |error| {:.2} %, mean |error| {:.2} % over {} rows\n",
        max as f64 / 100.0,
        mean / 100.0,
        rows.len()
    );
    out
}
