//! The `vllm` method against vLLM start-up logs of other releases and GPUs
//! (`data/engines/vllm-logs.csv`, each row's log lines in
//! `vllm-logs.md`), with this project's reading of each row in
//! `vllm-logs-runs.csv`: the catalog config it runs through, the GPU's
//! CUDA total (printed, or assumed, and from where), SM count, platform,
//! memory kind, engine, the batch limits the log prints and whether its
//! utilization is the release's default (the log's arguments name none).
//!
//! A row is compared on what it can show: the weights where a config is
//! in the catalog; tokens per GiB of KV cache (the cache layout) where it
//! prints both; the KV memory where the GPU's total is known, the engine
//! is V1 and the memory is the GPU's own (unified-memory machines size
//! from free system memory).

use super::validation::log_bytes;
use super::{
    estimate, KvCacheDtype, ModelDtype, OnlineQuant, Utilization, VllmEstimate, VllmInputs,
    VllmModel, VllmRelease,
};
use crate::catalog::find_model;
use crate::units::GIB;
use serde::Serialize;

/// The logs, as collected.
pub const LOGS_CSV: &str = include_str!("../../../data/engines/vllm-logs.csv");
/// This project's reading of each row.
pub const RUNS_CSV: &str = include_str!("../../../data/engines/vllm-logs-runs.csv");

/// Largest |weights error|, percent.
pub const WEIGHTS_TOLERANCE_PCT: f64 = 2.0;
/// Largest |tokens per GiB error|, percent.
pub const TOKENS_PER_GIB_TOLERANCE_PCT: f64 = 2.0;
/// Largest |KV memory error|: 1 GiB, or 5 % of the logged figure.
pub const KV_TOLERANCE_GIB: f64 = 1.0;
pub const KV_TOLERANCE_PCT: f64 = 5.0;
/// Largest |KV memory per request error| (the cache layout at the logged
/// context: KV memory over concurrency), percent.
pub const PER_REQUEST_TOLERANCE_PCT: f64 = 2.0;

/// One log as the comparison reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogRun {
    /// Row number in `vllm-logs.csv`, from 1.
    pub row: usize,
    pub source: String,
    pub version: String,
    /// `None`: the V0 engine (no release printed).
    pub release: Option<VllmRelease>,
    pub gpu: String,
    pub model: String,
    /// The catalog config run, if any, and its `max_position_embeddings`
    /// where the logged checkpoint's differs (same architecture).
    pub config: Option<String>,
    pub max_position_embeddings: Option<u64>,
    /// Only the cache layout is compared: the config is another checkpoint
    /// of the same architecture, quantized otherwise.
    pub layout_only: bool,
    pub total_gib: Option<f64>,
    pub total_source: String,
    pub sm_count: Option<u32>,
    /// Compute capability major (8 for an A100), where known.
    pub compute_major: Option<u32>,
    pub compute_minor: Option<u32>,
    pub rocm: bool,
    pub unified: bool,
    pub v0: bool,
    pub tp: u32,
    pub max_model_len: u64,
    pub dtype: String,
    pub quantization: String,
    pub kv_cache_dtype: String,
    pub utilization: Utilization,
    pub max_num_seqs: Option<u64>,
    pub max_num_batched_tokens: Option<u64>,
    pub enforce_eager: bool,
    pub weights_gib: f64,
    pub kv_cache_gib: f64,
    pub kv_cache_tokens: Option<u64>,
    pub max_concurrency: Option<f64>,
}

/// Splits one CSV line, with double-quoted cells.
fn cells(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match (c, quoted) {
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().map_or((), |s| s.push(c)),
        }
    }
    out
}

fn table(text: &str) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = cells(lines.next().ok_or("empty CSV")?);
    Ok((header, lines.map(cells).collect()))
}

fn get<'a>(header: &[String], row: &'a [String], name: &str) -> Result<&'a str, String> {
    let i = header
        .iter()
        .position(|h| h == name)
        .ok_or(format!("no column {name}"))?;
    Ok(row.get(i).map_or("", |s| s.trim()))
}

fn opt<T: std::str::FromStr>(text: &str) -> Option<T> {
    match text {
        "" => None,
        t => t.parse().ok(),
    }
}

/// Reads both CSVs, row by row.
pub fn log_runs() -> Result<Vec<LogRun>, String> {
    let (lh, logs) = table(LOGS_CSV)?;
    let (rh, ours) = table(RUNS_CSV)?;
    if logs.len() != ours.len() {
        return Err(format!("{} logs, {} readings", logs.len(), ours.len()));
    }
    logs.iter()
        .zip(&ours)
        .enumerate()
        .map(|(i, (l, r))| {
            let lg = |n: &str| get(&lh, l, n);
            let rg = |n: &str| get(&rh, r, n);
            let version = lg("vllm_version")?.to_string();
            let v0 = rg("engine")? == "v0";
            let release = match v0 {
                true => None,
                false => VllmRelease::parse(&version),
            };
            // The log's non-default arguments name no utilization: the
            // release's own default (0.92 from 0.20), whatever the row says.
            let release_default = release
                .and_then(|r| super::release_facts(r).ok())
                .map(|f| Utilization(f.gpu_memory_utilization.value));
            let utilization = match (rg("gpu_memory_utilization")?, release_default) {
                ("default", Some(u)) => u,
                _ => Utilization::parse(lg("gpu_memory_utilization")?)
                    .ok_or(format!("row {}: utilization", i + 1))?,
            };
            let quantization = lg("quantization")?.to_string();
            Ok(LogRun {
                row: i + 1,
                source: lg("source")?.to_string(),
                release,
                version,
                gpu: lg("gpu")?.to_string(),
                model: lg("model")?.to_string(),
                config: opt(rg("config")?),
                max_position_embeddings: opt(rg("max_position_embeddings")?),
                layout_only: rg("compare")? == "layout",
                total_gib: opt(rg("gpu_total_gib")?),
                total_source: rg("gpu_total_source")?.to_string(),
                sm_count: opt(rg("sm_count")?),
                compute_major: opt(rg("compute_capability")?.split('.').next().unwrap_or("")),
                compute_minor: opt(rg("compute_capability")?.split('.').nth(1).unwrap_or("")),
                rocm: rg("platform")? == "rocm",
                unified: rg("memory")? == "unified",
                v0,
                tp: opt(lg("tp")?).unwrap_or(1),
                max_model_len: opt(lg("max_model_len")?).ok_or("max_model_len")?,
                dtype: lg("dtype")?.to_string(),
                quantization,
                kv_cache_dtype: lg("kv_cache_dtype")?.to_string(),
                utilization,
                max_num_seqs: opt(rg("max_num_seqs")?),
                max_num_batched_tokens: opt(rg("max_num_batched_tokens")?),
                enforce_eager: lg("enforce_eager")? == "True",
                weights_gib: opt(lg("weights_gib")?).ok_or("weights_gib")?,
                kv_cache_gib: opt(lg("kv_cache_gib")?).ok_or("kv_cache_gib")?,
                kv_cache_tokens: opt(lg("kv_cache_tokens")?),
                max_concurrency: opt(lg("max_concurrency")?),
            })
        })
        .collect()
}

impl LogRun {
    /// A short label (`#7 Qwen3-30B-A3B-Instruct-2507 0.22.1 H100`).
    pub fn label(&self) -> String {
        let model = self.model.split(' ').next().unwrap_or(&self.model);
        let name = model.split_once('/').map_or(model, |(_, n)| n);
        let gpu = self.gpu.split(" (").next().unwrap_or(&self.gpu);
        let gpu = gpu
            .trim_start_matches("NVIDIA ")
            .trim_start_matches("GeForce ");
        let release = self.release.map_or("V0".to_string(), |r| r.text());
        let tp = match self.tp {
            1 => String::new(),
            n => format!(" tp{n}"),
        };
        format!("#{} {name}{tp} · {release} · {gpu}", self.row)
    }

    /// The config text to run, with the logged checkpoint's
    /// `max_position_embeddings` where it differs.
    fn config_text(&self) -> Result<Option<String>, String> {
        let Some(id) = &self.config else {
            return Ok(None);
        };
        let entry = find_model(id).map_err(|e| e.to_string())?;
        let Some(p) = self.max_position_embeddings else {
            return Ok(Some(entry.config.to_string()));
        };
        let mut value: serde_json::Value =
            serde_json::from_str(&entry.config).map_err(|e| e.to_string())?;
        value["max_position_embeddings"] = serde_json::json!(p);
        Ok(Some(value.to_string()))
    }

    /// The `vllm serve` options of this run, on the GPU's total (a
    /// placeholder of 1 TiB where it is unknown: then only the weights and
    /// the cache layout are compared).
    pub fn inputs(&self) -> Result<VllmInputs, String> {
        let dtype = match self.dtype.as_str() {
            "" => ModelDtype::Auto,
            d => ModelDtype::parse(d).ok_or(format!("dtype {d}"))?,
        };
        Ok(VllmInputs {
            tp: self.tp,
            max_model_len: Some(self.max_model_len),
            gpu_memory_utilization: self.utilization,
            max_num_batched_tokens: self.max_num_batched_tokens,
            max_num_seqs: self.max_num_seqs,
            dtype,
            quantization: match self.quantization.starts_with("fp8 (online") {
                true => OnlineQuant::Fp8,
                false => OnlineQuant::None,
            },
            kv_cache_dtype: match self.kv_cache_dtype.as_str() {
                "fp8" => KvCacheDtype::Fp8,
                _ => KvCacheDtype::Auto,
            },
            enforce_eager: self.enforce_eager,
            sm_count: self.sm_count.unwrap_or(132),
            a100: self.gpu.contains("A100"),
            h100_or_h200: self.gpu.contains("H100") || self.gpu.contains("H200"),
            gb10: (self.compute_major, self.compute_minor) == (Some(12), Some(1)),
            gemm_workspace_bytes: super::gemm_workspaces(self.compute_major == Some(9)),
            mxfp4_padding: super::Mxfp4Padding::for_gpu(self.compute_major.unwrap_or(9)),
            runtime: self.runtime_row().terms,
            // A V0 log is run as the oldest V1 family: only its weights and
            // cache layout are compared.
            release: self.release.unwrap_or(VllmRelease::new(0, 8, 0)),
            ..VllmInputs::default()
        })
    }

    /// The runtime terms of this log's GPU class (the logs do not name
    /// the link: NVLink taken).
    pub fn runtime_row(&self) -> super::RuntimeRow {
        let class = match (self.rocm, self.compute_major) {
            (true, _) => super::GpuClass::Rocm,
            (false, major) => super::GpuClass::from_compute(major, self.compute_minor),
        };
        // The logs' multi-GPU runs are on SXM boards (row 8: eight H100 80GB
        // HBM3); the A100 row holds for either link.
        super::runtime_terms(class, super::Link::Nvswitch)
    }

    fn total_bytes(&self) -> u64 {
        self.total_gib.map_or(1 << 40, log_bytes)
    }

    /// Whether the KV memory can be compared: V1, the GPU's own memory,
    /// its total known.
    pub fn kv_comparable(&self) -> bool {
        !self.v0 && !self.unified && self.total_gib.is_some()
    }
}

/// One log predicted and compared; `None` where the row cannot show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogComparison {
    pub run: LogRun,
    /// Why the row is not run at all (no config in the catalog, a refusal).
    pub not_run: Option<String>,
    pub estimate: Option<VllmEstimate>,
    pub weights_gib: Option<f64>,
    pub weights_error_pct: Option<f64>,
    pub tokens_per_gib: Option<f64>,
    pub tokens_per_gib_error_pct: Option<f64>,
    pub kv_cache_gib: Option<f64>,
    pub kv_error_gib: Option<f64>,
    /// KV memory one request of the logged context takes (GiB), predicted,
    /// against the log's KV memory over its concurrency.
    pub per_request_gib: Option<f64>,
    pub per_request_error_pct: Option<f64>,
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / GIB as f64
}

impl LogComparison {
    pub fn weights_within(&self) -> Option<bool> {
        self.weights_error_pct
            .map(|e| e.abs() <= WEIGHTS_TOLERANCE_PCT)
    }

    pub fn tokens_within(&self) -> Option<bool> {
        self.tokens_per_gib_error_pct
            .map(|e| e.abs() <= TOKENS_PER_GIB_TOLERANCE_PCT)
    }

    pub fn per_request_within(&self) -> Option<bool> {
        self.per_request_error_pct
            .map(|e| e.abs() <= PER_REQUEST_TOLERANCE_PCT)
    }

    pub fn kv_within(&self) -> Option<bool> {
        let limit = KV_TOLERANCE_GIB.max(self.run.kv_cache_gib * KV_TOLERANCE_PCT / 100.0);
        self.kv_error_gib.map(|e| e.abs() <= limit)
    }
}

fn compare_one(run: LogRun) -> LogComparison {
    let mut c = LogComparison {
        run,
        not_run: None,
        estimate: None,
        weights_gib: None,
        weights_error_pct: None,
        tokens_per_gib: None,
        tokens_per_gib_error_pct: None,
        kv_cache_gib: None,
        kv_error_gib: None,
        per_request_gib: None,
        per_request_error_pct: None,
    };
    let config = match c.run.config_text() {
        Ok(Some(text)) => text,
        Ok(None) => {
            c.not_run = Some("no config of this checkpoint in the catalog".to_string());
            return c;
        }
        Err(e) => {
            c.not_run = Some(e);
            return c;
        }
    };
    let result = VllmModel::from_config(&config)
        .map_err(|e| e.to_string())
        .and_then(|m| {
            let inputs = c.run.inputs()?;
            estimate(&m, c.run.total_bytes(), &inputs).map_err(|e| e.to_string())
        });
    let e = match result {
        Ok(e) => e,
        Err(why) => {
            c.not_run = Some(why);
            return c;
        }
    };
    let r = &c.run;
    let per_request = e.ranks.first().map_or(0, |w| w.kv_per_request_bytes);
    if let (Some(conc), true) = (r.max_concurrency, per_request > 0) {
        let logged = r.kv_cache_gib / conc;
        c.per_request_gib = Some(gib(per_request));
        c.per_request_error_pct = Some((gib(per_request) - logged) / logged * 100.0);
    }
    if r.layout_only {
        c.estimate = Some(e);
        return c;
    }
    let weights = gib(e.weights_bytes);
    c.weights_gib = Some(weights);
    c.weights_error_pct = Some((weights - r.weights_gib) / r.weights_gib * 100.0);
    if let (Some(tokens), true) = (r.kv_cache_tokens, e.kv_cache_bytes > 0) {
        let predicted = e.kv_cache_tokens as f64 / gib(e.kv_cache_bytes);
        let logged = tokens as f64 / r.kv_cache_gib;
        c.tokens_per_gib = Some(predicted);
        c.tokens_per_gib_error_pct = Some((predicted - logged) / logged * 100.0);
    }
    if r.kv_comparable() {
        let kv = gib(e.kv_cache_bytes);
        c.kv_cache_gib = Some(kv);
        c.kv_error_gib = Some(kv - r.kv_cache_gib);
    }
    c.estimate = Some(e);
    c
}

/// Runs every log through the method.
pub fn compare_logs() -> Result<Vec<LogComparison>, String> {
    Ok(log_runs()?.into_iter().map(compare_one).collect())
}

/// `(within, compared)` of one figure over the rows.
pub fn tally(rows: &[LogComparison], within: fn(&LogComparison) -> Option<bool>) -> (usize, usize) {
    let shown: Vec<bool> = rows.iter().filter_map(within).collect();
    (shown.iter().filter(|w| **w).count(), shown.len())
}

fn cell(value: Option<f64>, logged: f64, error: Option<f64>, unit: &str) -> String {
    match (value, error) {
        (Some(v), Some(e)) => format!("{v:.2} / {logged:.2} ({e:+.2}{unit})"),
        _ => format!("— / {logged:.2}"),
    }
}

/// A markdown table of every log: release, GPU, predicted / logged.
pub fn logs_markdown(rows: &[LogComparison]) -> String {
    let mut out = String::from(
        "| log | weights GiB | tokens per GiB | KV GiB per request | KV GiB | not compared |\n|---|---|---|---|---|---|\n",
    );
    for c in rows {
        let r = &c.run;
        let logged_tpg = r.kv_cache_tokens.map(|t| t as f64 / r.kv_cache_gib);
        let tpg = match (c.tokens_per_gib, logged_tpg, c.tokens_per_gib_error_pct) {
            (Some(p), Some(l), Some(e)) => format!("{p:.0} / {l:.0} ({e:+.2} %)"),
            (_, Some(l), _) => format!("— / {l:.0}"),
            _ => "—".to_string(),
        };
        let per_request = match (
            c.per_request_gib,
            r.max_concurrency,
            c.per_request_error_pct,
        ) {
            (Some(p), Some(conc), Some(e)) => {
                format!("{p:.3} / {:.3} ({e:+.2} %)", r.kv_cache_gib / conc)
            }
            (_, Some(conc), _) => format!("— / {:.3}", r.kv_cache_gib / conc),
            _ => "—".to_string(),
        };
        let why = match (&c.not_run, r.kv_comparable()) {
            (Some(w), _) => w.clone(),
            (None, _) if r.layout_only => format!(
                "weights and tokens: {} is another checkpoint of the architecture; KV: unified memory",
                r.config.as_deref().unwrap_or("the config")
            ),
            (None, false) if r.v0 => "KV: the V0 engine".to_string(),
            (None, false) if r.unified => "KV: unified memory".to_string(),
            (None, false) => format!("KV: {}", r.total_source),
            (None, true) => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.label(),
            cell(c.weights_gib, r.weights_gib, c.weights_error_pct, " %"),
            tpg,
            per_request,
            cell(c.kv_cache_gib, r.kv_cache_gib, c.kv_error_gib, " GiB"),
            why,
        ));
    }
    let (w, wn) = tally(rows, LogComparison::weights_within);
    let (t, tn) = tally(rows, LogComparison::tokens_within);
    let (k, kn) = tally(rows, LogComparison::kv_within);
    let (q, qn) = tally(rows, LogComparison::per_request_within);
    out.push_str(&format!(
        "\nOf {} logs: weights within ±{WEIGHTS_TOLERANCE_PCT} % on {w} of {wn}; tokens per GiB \
         within ±{TOKENS_PER_GIB_TOLERANCE_PCT} % on {t} of {tn}; KV memory per request within \
         ±{PER_REQUEST_TOLERANCE_PCT} % on {q} of {qn}; KV memory within \
         {KV_TOLERANCE_GIB} GiB or {KV_TOLERANCE_PCT} % on {k} of {kn}. Cells read predicted / \
         logged (error).\n",
        rows.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_log_row_has_its_reading() {
        let runs = log_runs().unwrap();
        assert_eq!(runs.len(), 12);
        assert_eq!(runs[9].release, Some(VllmRelease::new(0, 26, 1)));
        assert_eq!(runs[10].release, None);
        assert!(runs[2].unified && runs[2].enforce_eager);
    }

    #[test]
    fn quoted_cells_keep_their_commas() {
        assert_eq!(cells(r#"a,"b, c",d"#), vec!["a", "b, c", "d"]);
    }
}
