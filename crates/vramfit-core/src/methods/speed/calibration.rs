//! The calibration rows (`data/speed/calibration.csv`: published
//! `llama-bench` and vLLM benchmark measurements, sources in the file) and
//! the speed model's prediction for each: what the fit
//! (`examples/speed_fit.rs`), the table (`examples/speed_table.rs`,
//! `make speed-table`) and the tolerance test read.

use super::rates::Rates;
use super::{llamacpp, vllm, Device};
use crate::catalog::gpus::{find_gpu, Gpu};
use crate::gguf::FileType;
use crate::scenario::{Backend, ModelRef, ScenarioInput, SpeedKnobs};

/// The rows as checked in.
pub const CSV: &str = include_str!("../../../data/speed/calibration.csv");

/// What a row measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// One sequence's reply tokens per second (`tgN`, vLLM at batch 1).
    Decode,
    /// Prompt tokens per second (`ppN`).
    Prefill,
    /// Output tokens per second of all sequences (vLLM at a concurrency).
    Throughput,
}

/// The engine a row ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    Llamacpp,
    Vllm,
}

/// One measurement, read into the model's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub line: usize,
    pub engine: Engine,
    pub backend: Backend,
    /// The GPU as the source names it, and the catalog's.
    pub gpu_label: String,
    pub gpu: &'static Gpu,
    pub gpus: u64,
    pub model_label: String,
    /// The catalog model the row's model is (same tensors).
    pub model_id: &'static str,
    pub file_type: FileType,
    pub metric: Metric,
    pub test: String,
    pub concurrency: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub measured: f64,
}

/// The catalog model a source's model name is (gemma-3-4b-it-qat: the
/// QAT export of gemma-3-4b-it, the same tensors).
pub fn model_id(label: &str) -> Option<&'static str> {
    let l = label.to_ascii_lowercase();
    let pairs: [(&str, &str); 13] = [
        (
            "meta-llama-3-8b-instruct",
            "meta-llama/Meta-Llama-3-8B-Instruct",
        ),
        ("meta-llama-3-8b", "meta-llama/Meta-Llama-3-8B"),
        ("meta-llama-3-70b", "meta-llama/Meta-Llama-3-70B"),
        ("llama-2-7b", "meta-llama/Llama-2-7b-hf"),
        ("codellama-7b", "codellama/CodeLlama-7b-hf"),
        ("llama-3.2-3b-instruct", "meta-llama/Llama-3.2-3B-Instruct"),
        ("gpt-oss-20b", "openai/gpt-oss-20b"),
        ("gpt-oss-120b", "openai/gpt-oss-120b"),
        ("qwen3-coder-30b-a3b", "Qwen/Qwen3-Coder-30B-A3B-Instruct"),
        ("qwen2.5-coder-7b", "Qwen/Qwen2.5-Coder-7B"),
        ("gemma-3-4b", "google/gemma-3-4b-it"),
        ("qwen/qwen3-8b", "Qwen/Qwen3-8B"),
        ("qwen3-8b", "Qwen/Qwen3-8B"),
    ];
    pairs.iter().find(|(k, _)| l.contains(k)).map(|(_, id)| *id)
}

/// The catalog GPU a source's GPU name is.
fn gpu_of(label: &str) -> Option<&'static Gpu> {
    let query = match label {
        l if l.starts_with("Apple M2 Ultra") => "M2 Ultra",
        l if l.starts_with("Apple M3 Max") => "M3 Max",
        l if l.starts_with("AMD Ryzen AI Max+ 395") => "Ryzen AI Max+ 395",
        "H100 SXM 80GB" => "H100 SXM5",
        "H100 PCIe 80GB" => "H100 PCIe",
        l => l.trim_end_matches(" 24GB").trim_end_matches(" 48GB"),
    };
    find_gpu(query).ok()
}

fn backend_of(text: &str) -> Option<Backend> {
    let first = text.split([' ', '(']).next()?;
    Backend::from_name(first)
}

fn file_type_of(quant: &str) -> Option<FileType> {
    match quant {
        q if q.starts_with("BF16") => Some(FileType::BF16),
        "MXFP4 MoE" => Some(FileType::MXFP4_MOE),
        q => FileType::ALL.into_iter().find(|t| t.name() == q),
    }
}

/// A number at the start of a cell ("550 (mean)" → 550).
fn leading(cell: &str) -> Option<f64> {
    cell.split_whitespace().next()?.parse().ok()
}

/// Splits one CSV line (quoted cells may hold commas; `""` is a quote).
fn cells(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// The rows the model covers, and the lines it cannot read (a model or
/// GPU not in the catalog) with the reason.
pub fn rows() -> (Vec<Row>, Vec<(usize, String)>) {
    let (mut rows, mut skipped) = (Vec::new(), Vec::new());
    for (i, line) in CSV.lines().enumerate().skip(1) {
        let c = cells(line);
        if c.len() < 17 {
            continue;
        }
        match read_row(i + 1, &c) {
            Ok(r) => rows.push(r),
            Err(why) => skipped.push((i + 1, why)),
        }
    }
    (rows, skipped)
}

fn read_row(line: usize, c: &[String]) -> Result<Row, String> {
    let engine = match c[2].as_str() {
        e if e.starts_with("llama.cpp") => Engine::Llamacpp,
        e if e.starts_with("vLLM") => Engine::Vllm,
        e => return Err(format!("engine {e}")),
    };
    let backend = backend_of(&c[4]).ok_or_else(|| format!("backend {}", c[4]))?;
    let gpu = gpu_of(&c[5]).ok_or_else(|| format!("GPU {} not in the catalog", c[5]))?;
    let model_id = model_id(&c[7]).ok_or_else(|| format!("model {} not in the catalog", c[7]))?;
    let file_type = file_type_of(&c[8]).ok_or_else(|| format!("type {}", c[8]))?;
    let test = c[11].clone();
    let metric = match test.as_str() {
        t if t.starts_with("pp") => Metric::Prefill,
        t if t.starts_with("tg") || t == "decode_bs1" => Metric::Decode,
        "throughput" => Metric::Throughput,
        t => return Err(format!("test {t}")),
    };
    let num = |i: usize| leading(&c[i]).ok_or_else(|| format!("column {i}: {}", c[i]));
    Ok(Row {
        line,
        engine,
        backend,
        gpu_label: c[5].clone(),
        gpu,
        gpus: num(6)? as u64,
        model_label: c[7].clone(),
        model_id,
        file_type,
        metric,
        test,
        concurrency: num(12)? as u64,
        input_tokens: num(13)? as u64,
        output_tokens: num(14)? as u64,
        measured: num(16)?,
    })
}

/// What a row's figure is computed from, prepared once (the engine's
/// plan), so that any rates give it cheaply.
#[derive(Debug, Clone)]
pub enum Prepared {
    Llamacpp(llamacpp::Planned, llamacpp::Setting),
    Vllm(std::sync::Arc<crate::model::ModelSpec>, vllm::Setting),
}

/// The row's plan, or why none.
pub fn prepare(row: &Row) -> Result<Prepared, String> {
    match row.engine {
        Engine::Llamacpp => prepare_llamacpp(row),
        Engine::Vllm => prepare_vllm(row),
    }
}

/// The model's figure for a prepared row with these rates, or why none.
pub fn predict(row: &Row, prepared: &Prepared, rates: &Rates) -> Result<f64, String> {
    match prepared {
        Prepared::Llamacpp(plan, setting) => {
            let e = llamacpp::figures(plan, *setting, rates, Vec::new()).ok_or("no rates")?;
            match row.metric {
                Metric::Prefill => e
                    .prefill_tokens_per_s
                    .map(|b| b.point)
                    .ok_or_else(|| "no tensor throughput for this GPU".to_string()),
                Metric::Decode | Metric::Throughput => Ok(e.decode_tokens_per_s.point),
            }
        }
        Prepared::Vllm(spec, setting) => {
            let e = vllm::estimate(spec, *setting, rates, Vec::new()).ok_or("no rates")?;
            match row.metric {
                Metric::Decode => Ok(e.decode_tokens_per_s.point),
                Metric::Throughput => e
                    .output_tokens_per_s
                    .map(|b| b.point)
                    .ok_or_else(|| "no tensor throughput".to_string()),
                Metric::Prefill => Err("no vLLM prefill rows".to_string()),
            }
        }
    }
}

fn scenario(row: &Row, context: u64, sequences: u64) -> ScenarioInput {
    let mut s = ScenarioInput {
        model: Some(ModelRef::Catalog(row.model_id.to_string())),
        context,
        sequences,
        speed: Box::new(SpeedKnobs {
            backend: Some(row.backend),
            ..SpeedKnobs::default()
        }),
        ..ScenarioInput::default()
    };
    s.set_gpu(&row.gpu.name);
    s
}

fn prepare_llamacpp(row: &Row) -> Result<Prepared, String> {
    // llama-bench's context holds the prompt and the generated tokens.
    let context = (row.input_tokens + row.output_tokens).max(256);
    let mut input = scenario(row, context, 1);
    input.engine.gguf_type = Some(row.file_type);
    input.engine.n_gpu_layers = Some(9_999);
    let s = input.validate().map_err(|e| format!("{e:?}"))?;
    let run = crate::methods::llamacpp::run(&s).map_err(|e| format!("{e:?}"))?;
    let spec = s.model.as_deref().ok_or("no model")?;
    let prompt = match row.metric {
        Metric::Prefill => row.input_tokens,
        // tgN from an empty context: the mean cells read is N / 2.
        Metric::Decode | Metric::Throughput => (row.output_tokens / 2).max(1),
    };
    let setting = llamacpp::Setting {
        device: Device::of(row.gpu),
        gpus: row.gpus,
        backend: row.backend,
        host_bytes_per_s: row.gpu.bandwidth_gb_s * 1e9,
        prompt_tokens: prompt,
        context,
    };
    let plan = llamacpp::plan(&run, spec).ok_or("no plan")?;
    Ok(Prepared::Llamacpp(plan, setting))
}

fn prepare_vllm(row: &Row) -> Result<Prepared, String> {
    let context = (row.input_tokens + row.output_tokens).max(256);
    let s = scenario(row, context, row.concurrency.max(1))
        .validate()
        .map_err(|e| format!("{e:?}"))?;
    let run = crate::methods::vllm::run(&s).map_err(|e| format!("{e:?}"))?;
    let spec = s.model.clone().ok_or("no model")?;
    let setting = vllm_setting(
        &run,
        row.gpu,
        s.layout.tp,
        row.concurrency,
        row.input_tokens,
    )
    .ok_or("no vLLM figures")?;
    let setting = vllm::Setting {
        output_tokens: row.output_tokens,
        ..setting
    };
    Ok(Prepared::Vllm(spec, setting))
}

/// vLLM's speed setting from its start-up plan.
pub fn vllm_setting(
    run: &crate::methods::vllm::VllmRun,
    gpu: &Gpu,
    tp: u64,
    concurrency: u64,
    prompt: u64,
) -> Option<vllm::Setting> {
    let w = run.estimate.ranks.get(run.worker)?;
    let len = run.estimate.max_model_len.max(1);
    Some(vllm::Setting {
        device: Device::of(gpu),
        weights_bytes: w.weights_bytes,
        kv_bytes_per_token: w.kv_per_request_bytes as f64 / len as f64,
        tp,
        concurrency,
        prompt_tokens: prompt,
        output_tokens: vllm::DEFAULT_OUTPUT_TOKENS,
        context: len,
        kv_tokens: run.estimate.kv_cache_tokens,
    })
}
