//! llama.cpp's own load logs against this method: every row of
//! `data/engines/llamacpp-logs.csv` (its lines and sources in
//! `llamacpp-logs.md`), read as the options it was run with, and the
//! printed file size, KV cache, compute, host and per-device buffers beside
//! the prediction.
//!
//! A log is read through a setup ([`SETUPS`]): the model's `config.json`
//! (from `data/configs/`), the runner, the build where the log prints
//! none, and what of the log the method cannot express yet (say, `-ot`
//! overrides or several GPUs), so that only the figures it can express are
//! compared.

use super::build::Build;
use super::runner::Runner;
use super::{estimate, FileType, GgmlType, LlamaCppEstimate, LlamaCppInputs};
use crate::model::parse_config;
use serde::Serialize;

/// The logs (embedded).
pub const CSV: &str = include_str!("../../../data/engines/llamacpp-logs.csv");

/// Splits CSV text into rows of fields (double quotes, `""` inside).
pub fn csv_rows(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let (mut row, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    if quoted {
        return Err("unterminated quote".to_string());
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    Ok(rows)
}

/// A figure printed in MiB (to 0.01), in bytes: `1952.00` → 2,046,820,352.
pub fn mib_bytes(text: &str) -> Option<u64> {
    let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), "0"));
    let whole: u64 = whole.parse().ok()?;
    let frac = format!("{frac:0<2}");
    let hundredths: u64 = frac.get(..2)?.parse().ok()?;
    Some((whole * 100 + hundredths) * (1 << 20) / 100)
}

/// A figure printed in GiB (to 0.01), in bytes.
fn gib_bytes(text: &str) -> Option<u64> {
    mib_bytes(text).map(|b| b.saturating_mul(1 << 10))
}

/// How a log is read.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    /// The log's id (`A1`, as in the notes column).
    pub id: &'static str,
    /// The model's config, `None` where the architecture is not derived.
    pub config: Option<&'static str>,
    pub runner: Runner,
    /// The build where the log prints none (from its date).
    pub build: Option<Build>,
    /// The GGUF file is not llama.cpp's recipe (a dynamic quant): its size
    /// needs the file's own header.
    pub own_tensor_types: bool,
    /// Why the compute buffers cannot be expressed yet, if not.
    pub compute_not_expressed: Option<&'static str>,
    /// Layers offloaded where the log does not print them.
    pub gpu_layers: Option<u64>,
    /// No GPU at all.
    pub cpu_only: bool,
    /// `-ngl` counted the output layer last (builds before PR #18148).
    pub output_layer_last: bool,
    /// Each GPU's free memory as the log prints it, MiB, where the plan
    /// is per device.
    pub gpus_mib: &'static [u64],
    /// The `-ot` values, in order.
    pub overrides: &'static [&'static str],
    /// The file was quantized with an importance matrix (its
    /// `quantize.imatrix.*` keys).
    pub imatrix: bool,
    /// The build has a BLAS backend: the log prints a `CPU` compute buffer
    /// beside the CPU backend's `CUDA_Host` one (the backends' list in
    /// `llama_context`: the GPUs, the ACCEL devices such as BLAS, then the
    /// CPU, whose compute buffer is the first GPU's host buffer type).
    pub blas: bool,
}

const fn setup(id: &'static str, config: Option<&'static str>) -> Setup {
    Setup {
        id,
        config,
        runner: Runner::LlamaServer,
        build: None,
        own_tensor_types: false,
        compute_not_expressed: None,
        gpu_layers: None,
        cpu_only: false,
        output_layer_last: true,
        gpus_mib: &[],
        overrides: &[],
        imatrix: false,
        blas: false,
    }
}

/// GLM-Z1-32B-0414 as the `config.json` its GGUF metadata describes (log
/// A1's `glm4.*` keys: 61 blocks, 6144 wide, MLP 23040, 48 heads, 2 KV
/// heads of 128, 64 rotary dimensions, 32768 positions, a 151,552-token
/// vocabulary; 4 f32 tensors a block and no q/k/v biases, from its type
/// counts: 245 f32 = 4 × 61 + `output_norm`).
pub const GLM_Z1_32B: &str = r#"{
  "_name_or_path": "THUDM/GLM-Z1-32B-0414 (from its GGUF metadata)",
  "model_type": "glm4",
  "architectures": ["Glm4ForCausalLM"],
  "hidden_size": 6144,
  "intermediate_size": 23040,
  "num_hidden_layers": 61,
  "num_attention_heads": 48,
  "num_key_value_heads": 2,
  "head_dim": 128,
  "partial_rotary_factor": 0.5,
  "attention_bias": false,
  "max_position_embeddings": 32768,
  "vocab_size": 151552,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16"
}"#;

const QWEN3_235B: &str = include_str!("../../../data/configs/Qwen__Qwen3-235B-A22B.json");
const LLAMA_3_1_8B: &str =
    include_str!("../../../data/configs/meta-llama__Llama-3.1-8B-Instruct.json");
const DEEPSEEK_V3: &str = include_str!("../../../data/configs/deepseek-ai__DeepSeek-V3.json");
const DEEPSEEK_R1: &str = include_str!("../../../data/configs/deepseek-ai__DeepSeek-R1.json");
const GEMMA_3_12B: &str = include_str!("../../../data/configs/google__gemma-3-12b-it.json");
const GEMMA_2_27B: &str = include_str!("../../../data/configs/google__gemma-2-27b-it.json");
const GPT_OSS_120B: &str = include_str!("../../../data/configs/openai__gpt-oss-120b.json");
const GPT_OSS_20B: &str = include_str!("../../../data/configs/openai__gpt-oss-20b.json");

/// Every log's setup.
pub const SETUPS: [Setup; 10] = [
    // bartowski's imatrix quant (`quantize.imatrix.file`).
    Setup {
        imatrix: true,
        ..setup("A1", Some(GLM_Z1_32B))
    },
    Setup {
        gpus_mib: &[48267],
        overrides: &[r"blk\.1[4-9]\.ffn.*=CPU", r"blk\.[2-9][0-9]\.ffn.*=CPU"],
        ..setup("A3", Some(QWEN3_235B))
    },
    // CUDA0 742.00, CPU 304.75, CUDA_Host 65.01 MiB: a BLAS build.
    Setup {
        blas: true,
        ..setup("A5", Some(QWEN3_235B))
    },
    setup("A7", Some(LLAMA_3_1_8B)),
    Setup {
        own_tensor_types: true,
        gpus_mib: &[29249, 23633, 23698, 48280],
        overrides: &[
            r"blk\.([0-7])\..*_exps\.=CUDA0",
            r"blk\.([8-9]|1[0-1])\..*_exps\.=CUDA1",
            r"blk\.(1[2-6])\..*_exps\.=CUDA2",
            r"blk\.(1[7-9]|2[0-6])\..*_exps\.=CUDA3",
            r"blk\..*_exps\.=CPU",
        ],
        ..setup("A9", Some(DEEPSEEK_V3))
    },
    Setup {
        cpu_only: true,
        gpu_layers: Some(0),
        ..setup("C1", Some(DEEPSEEK_R1))
    },
    Setup {
        runner: Runner::LmStudio,
        ..setup("I3", Some(GEMMA_3_12B))
    },
    // Dated 2024-08-24: before b4905 (March 2025), the first build of the
    // table; 704 of 2944 MiB of KV on the host is 11 of 46 layers.
    Setup {
        build: Some(Build(4905)),
        gpu_layers: Some(35),
        compute_not_expressed: Some("compute buffers not in the excerpt"),
        ..setup("I5", Some(GEMMA_2_27B))
    },
    Setup {
        runner: Runner::LmStudio,
        ..setup("U1", Some(GPT_OSS_120B))
    },
    setup("U3", Some(GPT_OSS_20B)),
];

/// One log, as printed (bytes; `None` where the log does not print it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadLog {
    pub id: String,
    pub build: Option<Build>,
    pub backend: String,
    pub model: String,
    pub file_type: Option<FileType>,
    pub n_ctx: u64,
    pub n_seq_max: u64,
    pub n_batch: Option<u64>,
    pub n_ubatch: Option<u64>,
    pub flash_attn: bool,
    pub type_k: GgmlType,
    pub type_v: GgmlType,
    pub layers_offloaded: Option<u64>,
    pub model_size: Option<u64>,
    pub gpu_model: Option<u64>,
    pub host_model: Option<u64>,
    pub kv: u64,
    pub k: Option<u64>,
    pub v: Option<u64>,
    pub gpu_kv: Option<u64>,
    pub host_kv: Option<u64>,
    pub gpu_compute: Option<u64>,
    pub host_compute: Option<u64>,
    pub output: Option<u64>,
    /// The per-device KV and compute buffers as printed (`CUDA0`, bytes).
    pub device_kv: Vec<(String, u64)>,
    pub device_compute: Vec<(String, u64)>,
}

/// The `name size; name size` list of one part of the notes' "Per-device
/// as printed (MiB)" (`KV buffers`, `compute buffers`).
fn per_device(notes: &str, part: &str) -> Vec<(String, u64)> {
    let Some(rest) = notes
        .split_once("Per-device as printed (MiB) - ")
        .map(|(_, r)| r)
    else {
        return Vec::new();
    };
    rest.split(" | ")
        .find_map(|p| p.strip_prefix(part).and_then(|p| p.strip_prefix(": ")))
        .map(|list| {
            list.split("; ")
                .filter_map(|item| {
                    let (name, size) = item.trim().rsplit_once(' ')?;
                    Some((name.to_string(), mib_bytes(size)?))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Every log in [`CSV`].
pub fn logs() -> Result<Vec<LoadLog>, String> {
    let mut rows = csv_rows(CSV)?.into_iter();
    let header = rows.next().ok_or("empty log table")?;
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or(format!("no column {name}"))
    };
    let names = [
        "build",
        "backend",
        "model",
        "file_type",
        "n_ctx",
        "n_seq_max",
        "n_batch",
        "n_ubatch",
        "flash_attn",
        "type_k",
        "type_v",
        "layers_offloaded",
        "model_size_gib",
        "gpu_model_buffer_mib",
        "host_model_buffer_mib",
        "kv_total_mib",
        "k_mib",
        "v_mib",
        "gpu_kv_buffer_mib",
        "host_kv_buffer_mib",
        "gpu_compute_buffer_mib",
        "host_compute_buffer_mib",
        "output_buffer_mib",
        "notes",
    ];
    let cols: Vec<usize> = names.iter().map(|n| col(n)).collect::<Result<_, _>>()?;
    rows.filter(|r| r.len() > 1)
        .map(|r| {
            let f: Vec<&str> = cols
                .iter()
                .map(|c| r.get(*c).map_or("", |s| s.trim()))
                .collect();
            read_log(&f)
        })
        .collect()
}

/// One row, its fields in the order of `logs`' names.
fn read_log(f: &[&str]) -> Result<LoadLog, String> {
    let id = f[23]
        .strip_prefix('[')
        .and_then(|n| n.split_once(']'))
        .map(|(id, _)| id.to_string())
        .ok_or_else(|| format!("no id in {}", f[23]))?;
    let bad = |what: &str| format!("{id}: {what}");
    let int = |t: &str| -> Result<Option<u64>, String> {
        match t {
            "" => Ok(None),
            t => t.parse().map(Some).map_err(|_| bad(t)),
        }
    };
    let mib = |t: &str| -> Result<Option<u64>, String> {
        match t {
            "" => Ok(None),
            t => mib_bytes(t).map(Some).ok_or_else(|| bad(t)),
        }
    };
    let cache = |t: &str| GgmlType::parse_cache(t).ok_or_else(|| bad(t));
    let file_type = FileType::ALL
        .into_iter()
        .find(|t| f[3] == t.printed_name() || f[3].split_whitespace().next() == Some(t.name()));
    Ok(LoadLog {
        build: f[0].split_whitespace().next().and_then(Build::parse),
        backend: f[1].to_string(),
        model: f[2].to_string(),
        file_type,
        n_ctx: int(f[4])?.ok_or_else(|| bad("n_ctx"))?,
        n_seq_max: int(f[5])?.unwrap_or(1),
        n_batch: int(f[6])?,
        n_ubatch: int(f[7])?,
        flash_attn: matches!(f[8], "1" | "auto -> enabled" | "enabled" | "on"),
        type_k: cache(f[9])?,
        type_v: cache(f[10])?,
        layers_offloaded: int(f[11])?,
        model_size: match f[12] {
            "" => None,
            t => Some(gib_bytes(t).ok_or_else(|| bad(t))?),
        },
        gpu_model: mib(f[13])?,
        host_model: mib(f[14])?,
        kv: mib(f[15])?.ok_or_else(|| bad("kv"))?,
        k: mib(f[16])?,
        v: mib(f[17])?,
        gpu_kv: mib(f[18])?,
        host_kv: mib(f[19])?,
        gpu_compute: mib(f[20])?,
        host_compute: mib(f[21])?,
        output: mib(f[22])?,
        device_kv: per_device(f[23], "KV buffers"),
        device_compute: per_device(f[23], "compute buffers"),
        id,
    })
}

impl LoadLog {
    /// The options the log was run with, as the setup reads them.
    pub fn inputs(&self, s: &Setup) -> LlamaCppInputs {
        let runner = s.runner.preset();
        let defaults = LlamaCppInputs::default();
        let ngl = s.gpu_layers.or(self.layers_offloaded);
        LlamaCppInputs {
            file_type: self.file_type.unwrap_or(defaults.file_type),
            n_ctx: Some(self.n_ctx),
            cache_type_k: self.type_k,
            cache_type_v: self.type_v,
            n_gpu_layers: ngl.or(Some(u64::MAX)),
            n_batch: self.n_batch.unwrap_or(runner.n_batch),
            n_ubatch: self.n_ubatch.unwrap_or(runner.n_ubatch),
            flash_attn: self.flash_attn,
            n_parallel: self.n_seq_max,
            // One cache for every sequence (the builds before streams,
            // and every log here with one sequence).
            kv_unified: true,
            swa_full: runner.swa_full,
            op_offload: !s.cpu_only,
            output_layer_first: !s.output_layer_last,
            build: self.build.or(s.build),
            imatrix: s.imatrix,
            blas: s.blas,
            ..defaults
        }
    }
}

/// A printed figure beside the prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pair {
    pub printed: u64,
    pub predicted: u64,
}

impl Pair {
    /// (predicted − printed) / printed, in millionths.
    pub fn error_ppm(&self) -> i64 {
        let diff = self.predicted as i128 - self.printed as i128;
        (diff * 1_000_000 / (self.printed as i128).max(1)) as i64
    }
}

/// One log against the method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogComparison {
    pub log: LoadLog,
    /// Why the log cannot be estimated at all, if not.
    pub not_expressed: Option<String>,
    pub size: Option<Pair>,
    pub kv: Option<Pair>,
    pub gpu_kv: Option<Pair>,
    pub host_kv: Option<Pair>,
    pub gpu_model: Option<Pair>,
    pub host_model: Option<Pair>,
    pub gpu_compute: Option<Pair>,
    /// Both host compute buffers together.
    pub host_compute: Option<Pair>,
    /// Where the log prints two host compute buffers: the CPU backend's
    /// (`CUDA_Host`) and the BLAS backend's (`CPU`), each.
    pub host_buffers: Option<(Pair, Pair)>,
    pub output: Option<Pair>,
    /// Why the compute buffers are not compared, if not.
    pub compute_not_expressed: Option<&'static str>,
    /// The runner preset the log was read with.
    pub runner: Runner,
    /// Per GPU, where the plan is per device: KV and compute buffers.
    pub device_kv: Vec<Pair>,
    pub device_compute: Vec<Pair>,
}

/// Every log with the method's prediction.
pub fn compare() -> Result<Vec<LogComparison>, String> {
    logs()?.into_iter().map(compare_one).collect()
}

fn compare_one(log: LoadLog) -> Result<LogComparison, String> {
    let s = SETUPS
        .iter()
        .find(|s| s.id == log.id)
        .ok_or_else(|| format!("no setup for log {}", log.id))?;
    let mut out = LogComparison {
        not_expressed: None,
        size: None,
        kv: None,
        gpu_kv: None,
        host_kv: None,
        gpu_model: None,
        host_model: None,
        gpu_compute: None,
        host_compute: None,
        host_buffers: None,
        output: None,
        compute_not_expressed: s.compute_not_expressed,
        runner: s.runner,
        device_kv: Vec::new(),
        device_compute: Vec::new(),
        log,
    };
    let Some(config) = s.config else {
        out.not_expressed = Some("architecture not derived".to_string());
        return Ok(out);
    };
    let spec = parse_config(config).map_err(|e| format!("{}: {e}", out.log.id))?;
    let inputs = out.log.inputs(s);
    let id = out.log.id.clone();
    let e = estimate(&spec, &inputs, None).map_err(|e| format!("{id}: {e}"))?;
    fill(&mut out, s, &e);
    if !s.gpus_mib.is_empty() {
        let overrides = super::overrides::parse(s.overrides).map_err(|e| format!("{id}: {e}"))?;
        let devices = super::devices::Devices {
            gpus: s.gpus_mib.iter().map(|m| m << 20).collect(),
            overrides,
            ..super::devices::Devices::default()
        };
        let d = super::devices::estimate_devices(&spec, &inputs, &devices)
            .map_err(|e| format!("{id}: {e}"))?;
        fill_devices(&mut out, s, &d.plan);
    }
    Ok(out)
}

/// The per-device figures of a plan beside the log's (GPUs in order).
fn fill_devices(out: &mut LogComparison, s: &Setup, plan: &super::devices::Plan) {
    type Of = dyn Fn(&super::devices::DevicePlan) -> u64;
    let gpu = |name: &str| !name.starts_with("CPU") && !name.ends_with("_Host");
    let pairs = |printed: &[(String, u64)], f: &Of| {
        printed
            .iter()
            .filter(|(n, _)| gpu(n))
            .zip(&plan.devices)
            .map(|((_, b), d)| Pair {
                printed: *b,
                predicted: f(d),
            })
            .collect::<Vec<_>>()
    };
    let total = |f: &Of| plan.devices.iter().map(f).sum::<u64>();
    let pair =
        |printed: Option<u64>, predicted: u64| printed.map(|printed| Pair { printed, predicted });
    out.device_kv = pairs(&out.log.device_kv, &|d| d.k_cache + d.v_cache);
    out.gpu_kv = pair(out.log.gpu_kv, total(&|d| d.k_cache + d.v_cache));
    out.host_kv = pair(out.log.host_kv, plan.host.kv_cache);
    if s.compute_not_expressed.is_none() {
        out.device_compute = pairs(&out.log.device_compute, &|d| d.compute);
        out.gpu_compute = pair(out.log.gpu_compute, total(&|d| d.compute));
        out.host_compute = pair(
            out.log.host_compute,
            plan.host.compute + plan.host.blas_compute,
        );
        out.host_buffers = host_buffers(&out.log, plan.host.compute, plan.host.blas_compute);
        if !s.own_tensor_types {
            out.gpu_model = pair(out.log.gpu_model, total(&|d| d.weights));
            out.host_model = pair(out.log.host_model, plan.host.weights);
        }
    }
}

fn fill(out: &mut LogComparison, s: &Setup, e: &LlamaCppEstimate) {
    let l = &out.log;
    let pair =
        |printed: Option<u64>, predicted: u64| printed.map(|printed| Pair { printed, predicted });
    if !s.own_tensor_types {
        out.size = pair(l.model_size, e.model_size_bytes);
    }
    out.kv = pair(Some(l.kv), e.kv_cache_bytes);
    out.gpu_kv = pair(l.gpu_kv, e.gpu.kv_cache);
    out.host_kv = pair(l.host_kv, e.host.kv_cache);
    out.output = pair(l.output, e.output_buffer_bytes);
    // Metal maps the file: its model buffer is the mapped span.
    let gpu_model = match l.backend.contains("Metal") {
        true => e.gpu.mapped,
        false => e.gpu.weights,
    };
    if s.compute_not_expressed.is_none() {
        if !s.own_tensor_types {
            out.gpu_model = pair(l.gpu_model, gpu_model);
            out.host_model = pair(l.host_model, e.host.weights);
        }
        out.gpu_compute = pair(l.gpu_compute, e.gpu.compute);
        out.host_compute = pair(l.host_compute, e.host.compute + e.host.blas_compute);
        out.host_buffers = host_buffers(l, e.host.compute, e.host.blas_compute);
    }
}

/// The log's two host compute buffers, where it prints two (a `*_Host`
/// one: the CPU backend's; a `CPU` one: BLAS's), beside the prediction.
fn host_buffers(l: &LoadLog, cpu: u64, blas: u64) -> Option<(Pair, Pair)> {
    let find =
        |f: &dyn Fn(&str) -> bool| l.device_compute.iter().find(|(n, _)| f(n)).map(|(_, b)| *b);
    let host = find(&|n| n.ends_with("_Host"))?;
    let own = find(&|n| n == "CPU")?;
    Some((
        Pair {
            printed: host,
            predicted: cpu,
        },
        Pair {
            printed: own,
            predicted: blas,
        },
    ))
}

/// The host compute cell: both buffers together, then each where the log
/// prints two.
fn host_cell(r: &LogComparison) -> String {
    match r.host_buffers {
        Some((host, blas)) => format!(
            "{} = host buffer type {} + BLAS (`CPU`) {}",
            cell(r.host_compute),
            cell(Some(host)),
            cell(Some(blas))
        ),
        None => cell(r.host_compute),
    }
}

/// `printed → predicted (error)` in MiB, or `–`.
fn cell(p: Option<Pair>) -> String {
    let Some(p) = p else {
        return "–".to_string();
    };
    let mib = |b: u64| b as f64 / f64::from(1u32 << 20);
    let e = p.error_ppm();
    format!(
        "{:.2} / {:.2} ({}{}.{:02} %)",
        mib(p.printed),
        mib(p.predicted),
        if e < 0 { "−" } else { "+" },
        e.unsigned_abs() / 10_000,
        (e.unsigned_abs() % 10_000) / 100
    )
}

/// The per-GPU KV and compute pairs, `–` without a per-device plan.
fn devices(r: &LogComparison) -> String {
    let list = |pairs: &[Pair]| {
        pairs
            .iter()
            .map(|p| cell(Some(*p)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (r.device_kv.is_empty(), r.device_compute.is_empty()) {
        (true, true) => "–".to_string(),
        (_, true) => list(&r.device_kv),
        _ => format!("{}; {}", list(&r.device_kv), list(&r.device_compute)),
    }
}

/// The comparison as a Markdown table (for the README): every figure in
/// MiB, printed / predicted (error).
pub fn markdown(rows: &[LogComparison]) -> String {
    let mut out = String::from(
        "| log | model | runner, build | file size | KV | KV on GPU / host | GPU compute | host compute | model on GPU / host | output | per GPU: KV; compute | not expressed |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let build = r.log.build.map_or("–".to_string(), |b| b.to_string());
        let missing = [r.not_expressed.as_deref(), r.compute_not_expressed]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ");
        out.push_str(&format!(
            "| {} | {} | {}, {} | {} | {} | {} · {} | {} | {} | {} · {} | {} | {} | {} |\n",
            r.log.id,
            r.log.model,
            r.runner,
            build,
            cell(r.size),
            cell(r.kv),
            cell(r.gpu_kv),
            cell(r.host_kv),
            cell(r.gpu_compute),
            host_cell(r),
            cell(r.gpu_model),
            cell(r.host_model),
            cell(r.output),
            devices(r),
            if missing.is_empty() { "–" } else { &missing },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mib_figures_read_to_the_byte() {
        assert_eq!(mib_bytes("1952.00"), Some(1952 << 20));
        assert_eq!(mib_bytes("0.5"), Some(1 << 19));
        assert_eq!(mib_bytes("x"), None);
    }

    #[test]
    fn the_csv_reads_quotes_and_every_log() {
        let rows = csv_rows("a,\"b,\"\"c\"\"\"\n1,2\n").unwrap();
        assert_eq!(rows, vec![vec!["a", "b,\"c\""], vec!["1", "2"]]);
        let logs = logs().unwrap();
        assert_eq!(logs.len(), 10);
        let a9 = logs.iter().find(|l| l.id == "A9").unwrap();
        assert_eq!(a9.build, Some(Build(5331)));
        assert_eq!(a9.k, Some(1098 << 20));
        assert!(SETUPS.iter().all(|s| logs.iter().any(|l| l.id == s.id)));
    }
}
