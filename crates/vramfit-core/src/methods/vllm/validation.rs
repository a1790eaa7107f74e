//! The `vllm` method against real vLLM 0.19 start-up logs
//! (`data/engines/vllm-0.19-h100.csv`, 47 runs on an H100 80GB).
//!
//! Each row is run through the catalog model of the same id and the
//! method, and compared with the log's own figures. A pipeline-parallel
//! log prints one line per worker and the transcription kept one; the
//! weights, peak and non-torch figures are compared with the predicted
//! stage whose weights are nearest, the KV memory with the stage whose KV
//! memory is nearest (the PP = 4 row's KV memory, 69.8 GiB, is not
//! `requested − total non-KV` of its own line: it comes from another
//! worker). Token counts are global.

use super::{
    estimate, KvCacheDtype, ModelDtype, OnlineQuant, Utilization, VllmEstimate, VllmInputs,
    VllmModel,
};
use crate::catalog::find_model;
use crate::units::GIB;
use serde::Serialize;

/// The logs, as shipped.
pub const CSV: &str = include_str!("../../../data/engines/vllm-0.19-h100.csv");

/// Largest |weights error|, percent.
pub const WEIGHTS_TOLERANCE_PCT: f64 = 1.5;
/// Largest |KV memory error|, GiB.
pub const KV_MEMORY_TOLERANCE_GIB: f64 = 0.5;
/// Largest |KV tokens error|, percent, where the KV cache is 10 GiB or more.
pub const KV_TOKENS_TOLERANCE_PCT: f64 = 3.0;
/// KV caches below this (GiB) are not held to the token tolerance.
pub const KV_TOKENS_FLOOR_GIB: f64 = 10.0;

/// One log row: the inputs and the log's figures (GiB to two decimals).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    pub model: String,
    pub tp: u32,
    pub pp: u32,
    pub max_model_len: u64,
    pub dtype: String,
    pub quantization: String,
    pub kv_cache_dtype: String,
    pub utilization: Utilization,
    pub total_gib: f64,
    pub weights_gib: f64,
    pub activation_peak_gib: f64,
    pub non_torch_gib: f64,
    pub kv_cache_gib: f64,
    pub kv_cache_tokens: u64,
    pub kv_cache_blocks: u64,
    pub max_concurrency: f64,
    pub cuda_graph_gib: f64,
}

/// A figure vLLM prints in GiB to two decimals, in bytes.
pub fn log_bytes(gib: f64) -> u64 {
    crate::units::saturate((gib * 100.0).round() as u128 * GIB as u128 / 100)
}

impl Run {
    /// Total GPU memory in bytes: the log's GiB figure, to the byte.
    pub fn total_bytes(&self) -> u64 {
        log_bytes(self.total_gib)
    }

    /// The `vllm serve` options of this run.
    pub fn inputs(&self) -> Result<VllmInputs, String> {
        let dtype = ModelDtype::parse(&self.dtype).ok_or(format!("dtype {}", self.dtype))?;
        Ok(VllmInputs {
            tp: self.tp,
            pp: self.pp,
            max_model_len: Some(self.max_model_len),
            gpu_memory_utilization: self.utilization,
            max_num_batched_tokens: Some(8192),
            max_num_seqs: Some(1024),
            dtype,
            quantization: match self.quantization.as_str() {
                "fp8" => OnlineQuant::Fp8,
                _ => OnlineQuant::None,
            },
            kv_cache_dtype: match self.kv_cache_dtype.as_str() {
                "fp8" => KvCacheDtype::Fp8,
                _ => KvCacheDtype::Auto,
            },
            release: super::VllmRelease::new(0, 19, 0),
            ..VllmInputs::default()
        })
    }
}

/// Parses the shipped CSV.
pub fn runs() -> Result<Vec<Run>, String> {
    let mut lines = CSV.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().ok_or("empty CSV")?.split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or(format!("no column {name}"))
    };
    let idx = [
        "model",
        "tp",
        "pp",
        "max_model_len",
        "dtype",
        "quantization",
        "kv_cache_dtype",
        "gpu_memory_utilization",
        "total_memory_gib",
        "weights_gib",
        "activation_peak_gib",
        "non_torch_gib",
        "kv_cache_gib",
        "kv_cache_tokens",
        "kv_cache_blocks",
        "max_concurrency",
        "cuda_graph_gib",
    ]
    .iter()
    .map(|n| col(n))
    .collect::<Result<Vec<_>, _>>()?;
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let get = |i: usize| {
                cells
                    .get(idx[i])
                    .copied()
                    .ok_or(format!("short row: {line}"))
            };
            let num = |i: usize| -> Result<f64, String> {
                get(i)?.parse::<f64>().map_err(|e| format!("{e}: {line}"))
            };
            let int = |i: usize| -> Result<u64, String> {
                get(i)?.parse::<u64>().map_err(|e| format!("{e}: {line}"))
            };
            Ok(Run {
                model: get(0)?.to_string(),
                tp: int(1)? as u32,
                pp: int(2)? as u32,
                max_model_len: int(3)?,
                dtype: get(4)?.to_string(),
                quantization: get(5)?.to_string(),
                kv_cache_dtype: get(6)?.to_string(),
                utilization: Utilization::parse(get(7)?).ok_or(format!("utilization: {line}"))?,
                total_gib: num(8)?,
                weights_gib: num(9)?,
                activation_peak_gib: num(10)?,
                non_torch_gib: num(11)?,
                kv_cache_gib: num(12)?,
                kv_cache_tokens: int(13)?,
                kv_cache_blocks: int(14)?,
                max_concurrency: num(15)?,
                cuda_graph_gib: num(16)?,
            })
        })
        .collect()
}

/// One run predicted and compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub run: Run,
    pub estimate: VllmEstimate,
    /// Predicted figures of the compared worker (GiB).
    pub weights_gib: f64,
    pub activation_peak_gib: f64,
    pub non_torch_gib: f64,
    pub kv_cache_gib: f64,
    pub cuda_graph_gib: f64,
    /// `(predicted − measured) / measured`, percent.
    pub weights_error_pct: f64,
    /// `predicted − measured`, GiB.
    pub kv_cache_error_gib: f64,
    /// `(predicted − measured) / measured`, percent.
    pub tokens_error_pct: f64,
}

impl Comparison {
    /// Whether the run is inside every tolerance.
    pub fn within(&self) -> bool {
        self.weights_error_pct.abs() <= WEIGHTS_TOLERANCE_PCT
            && self.kv_cache_error_gib.abs() <= KV_MEMORY_TOLERANCE_GIB
            && (self.run.kv_cache_gib < KV_TOKENS_FLOOR_GIB
                || self.tokens_error_pct.abs() <= KV_TOKENS_TOLERANCE_PCT)
    }

    /// A short label (`Llama-3.1-8B-Instruct tp2 pp1 bfloat16`).
    pub fn label(&self) -> String {
        let r = &self.run;
        let name = r.model.split_once('/').map_or(r.model.as_str(), |(_, n)| n);
        let mut label = format!("{name} tp{} pp{} {}", r.tp, r.pp, r.dtype);
        if r.quantization != "None" {
            label.push_str(&format!(" {}", r.quantization));
        }
        if r.kv_cache_dtype != "auto" {
            label.push_str(&format!(" kv {}", r.kv_cache_dtype));
        }
        if r.max_model_len != 8192 {
            label.push_str(&format!(" ctx {}", r.max_model_len));
        }
        label
    }
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / GIB as f64
}

/// Runs every logged start-up through the method.
pub fn compare() -> Result<Vec<Comparison>, String> {
    runs()?
        .into_iter()
        .map(|run| {
            let entry = find_model(&run.model).map_err(|e| e.to_string())?;
            let model = VllmModel::from_config(&entry.config).map_err(|e| e.to_string())?;
            let e = estimate(&model, run.total_bytes(), &run.inputs()?)
                .map_err(|e| format!("{}: {e}", run.model))?;
            let by_weights = e
                .ranks
                .iter()
                .min_by(|a, b| {
                    let da = (gib(a.weights_bytes) - run.weights_gib).abs();
                    let db = (gib(b.weights_bytes) - run.weights_gib).abs();
                    da.total_cmp(&db)
                })
                .ok_or("no worker")?;
            let by_kv = e
                .ranks
                .iter()
                .min_by(|a, b| {
                    let da = (gib(a.kv_cache_bytes) - run.kv_cache_gib).abs();
                    let db = (gib(b.kv_cache_bytes) - run.kv_cache_gib).abs();
                    da.total_cmp(&db)
                })
                .ok_or("no worker")?;
            let weights = gib(by_weights.weights_bytes);
            let kv = gib(by_kv.kv_cache_bytes);
            Ok(Comparison {
                weights_gib: weights,
                activation_peak_gib: gib(by_weights.activation_peak_bytes),
                non_torch_gib: gib(by_weights.non_torch_bytes),
                kv_cache_gib: kv,
                cuda_graph_gib: gib(by_weights.cuda_graph_bytes),
                weights_error_pct: (weights - run.weights_gib) / run.weights_gib * 100.0,
                kv_cache_error_gib: kv - run.kv_cache_gib,
                tokens_error_pct: (e.kv_cache_tokens as f64 - run.kv_cache_tokens as f64)
                    / run.kv_cache_tokens as f64
                    * 100.0,
                estimate: e,
                run,
            })
        })
        .collect()
}

/// The worst |error| of each compared figure over `rows`:
/// `(weights %, KV GiB, tokens % where KV ≥ 10 GiB, peak GiB, non-torch GiB)`.
pub fn worst(rows: &[Comparison]) -> (f64, f64, f64, f64, f64) {
    let max = |f: &dyn Fn(&Comparison) -> f64| rows.iter().map(f).fold(0.0, f64::max);
    (
        max(&|c| c.weights_error_pct.abs()),
        max(&|c| c.kv_cache_error_gib.abs()),
        max(&|c| match c.run.kv_cache_gib >= KV_TOKENS_FLOOR_GIB {
            true => c.tokens_error_pct.abs(),
            false => 0.0,
        }),
        max(&|c| (c.activation_peak_gib - c.run.activation_peak_gib).abs()),
        max(&|c| (c.non_torch_gib - c.run.non_torch_gib).abs()),
    )
}

/// A markdown table: predicted / measured per run, then the worst errors.
pub fn markdown(rows: &[Comparison]) -> String {
    let mut out = String::from(
        "| run | weights GiB | peak GiB | non-torch GiB | KV GiB | KV tokens | concurrency | err weights | err KV | err tokens |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in rows {
        let r = &c.run;
        out.push_str(&format!(
            "| {} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {} / {} | {:.2} / {:.2} | {:+.2} % | {:+.2} GiB | {:+.2} %{} |\n",
            c.label(),
            c.weights_gib,
            r.weights_gib,
            c.activation_peak_gib,
            r.activation_peak_gib,
            c.non_torch_gib,
            r.non_torch_gib,
            c.kv_cache_gib,
            r.kv_cache_gib,
            c.estimate.kv_cache_tokens,
            r.kv_cache_tokens,
            c.estimate.max_concurrency,
            r.max_concurrency,
            c.weights_error_pct,
            c.kv_cache_error_gib,
            c.tokens_error_pct,
            match r.kv_cache_gib < KV_TOKENS_FLOOR_GIB {
                true => " (KV < 10 GiB)",
                false => "",
            },
        ));
    }
    let (w, kv, t, p, n) = worst(rows);
    out.push_str(&format!(
        "\nWorst of {} runs: weights {w:.2} %, KV memory {kv:.2} GiB, KV tokens {t:.2} % \
         (KV ≥ 10 GiB); activation peak {p:.2} GiB, non-torch {n:.2} GiB. Cells read \
         predicted / measured.\n",
        rows.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_has_47_runs_of_24_models() {
        let runs = runs().unwrap();
        assert_eq!(runs.len(), 47);
        let mut models: Vec<&str> = runs.iter().map(|r| r.model.as_str()).collect();
        models.sort();
        models.dedup();
        assert_eq!(models.len(), 24);
        let llama = &runs[0];
        assert_eq!(llama.total_bytes(), 7919 * GIB / 100);
    }
}
