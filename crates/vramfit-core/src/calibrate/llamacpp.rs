//! A llama.cpp load log (`llama-server`, `llama-cli`, LM Studio's and
//! Ollama's runtimes): the buffers it prints per device, the context it
//! made, and the settings that made them; then the `llamacpp` method's
//! prediction for the same settings beside each printed figure.
//!
//! The lines read (llama.cpp `src/llama-model.cpp` `load_tensors`,
//! `src/llama-context.cpp`, `src/llama-kv-cache.cpp`; older builds print
//! `llama_kv_cache_unified`, `llama_new_context_with_model`, `KV self
//! size`):
//!
//! ```text
//! build: 5274 (d541533a) with cc …
//! llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 3090 Ti) - 23041 MiB free
//! load_tensors: offloaded 62/62 layers to GPU
//! load_tensors:        CUDA0 model buffer size = 16303.48 MiB
//! llama_context: n_ctx         = 32768
//! llama_kv_cache: size = 3072.00 MiB (131072 cells,  12 layers,  1/1 seqs), K (f16): 1536.00 MiB, V (f16): 1536.00 MiB
//! llama_context:      CUDA0 compute buffer size =   353.00 MiB
//! llama_context:  CUDA_Host  output buffer size =     0.58 MiB
//! ```
//!
//! Figures are printed in MiB (2^20 bytes) to two decimals; they are kept
//! as printed, in hundredths of a MiB ([`Mib`]).

use crate::gguf::GgmlType;
use crate::methods::llamacpp::{LlamaCppEstimate, LlamaCppInputs};
use serde::Serialize;

/// A figure as printed: hundredths of a MiB (2^20 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
pub struct Mib(pub u64);

impl Mib {
    /// The bytes a printed figure stands for (to within 0.005 MiB).
    pub const fn bytes(self) -> u64 {
        ((self.0 as u128 * (1 << 20)) / 100) as u64
    }

    /// A figure in MiB read from `"16303.48"`.
    fn parse(text: &str) -> Option<Mib> {
        let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), "0"));
        let frac = format!("{frac:0<2}");
        let whole: u64 = whole.parse().ok()?;
        let frac: u64 = frac.get(..2)?.parse().ok()?;
        whole.checked_mul(100)?.checked_add(frac).map(Mib)
    }
}

impl std::fmt::Display for Mib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{:02} MiB", self.0 / 100, self.0 % 100)
    }
}

/// One device's figure of a kind of buffer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceFigure {
    /// As printed: `CUDA0`, `CPU_Mapped`, `CUDA_Host`, `Metal`, `MTL0_Mapped`, …
    pub device: String,
    pub size: Mib,
}

impl DeviceFigure {
    /// Host memory: the CPU's buffers (`CPU`, `CPU_Mapped`, `AMX`) and the
    /// pinned host buffers of a GPU backend (`CUDA_Host`, `ROCm_Host`).
    pub fn on_host(&self) -> bool {
        let d = self.device.as_str();
        d.starts_with("CPU") || d.ends_with("_Host") || d == "AMX"
    }
}

/// A GPU the log says it uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogDevice {
    pub name: String,
    pub description: String,
    /// Free memory when the model was loaded, whole MiB.
    pub free_mib: u64,
}

/// One KV cache's size line (a sliding-window model prints two).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KvLine {
    pub size: Mib,
    pub k: Mib,
    pub v: Mib,
    pub type_k: GgmlType,
    pub type_v: GgmlType,
}

/// What a llama.cpp load log states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LlamacppLog {
    /// `build: 5274 (d541533a)`: the build number and commit.
    pub build: Option<String>,
    pub devices: Vec<LogDevice>,
    pub model_buffers: Vec<DeviceFigure>,
    pub kv_buffers: Vec<DeviceFigure>,
    pub compute_buffers: Vec<DeviceFigure>,
    pub output_buffers: Vec<DeviceFigure>,
    pub kv: Vec<KvLine>,
    pub n_ctx: u64,
    pub n_seq_max: Option<u64>,
    pub n_batch: Option<u64>,
    pub n_ubatch: Option<u64>,
    /// `None` for "auto" without the line saying what it became.
    pub flash_attn: Option<bool>,
    pub kv_unified: Option<bool>,
    /// `offloaded N/M layers to GPU`.
    pub offloaded: Option<(u64, u64)>,
    /// `using full-size SWA cache` (`--swa-full`; LM Studio's default).
    pub swa_full: bool,
    pub arch: Option<String>,
    pub file_type: Option<String>,
    /// Who printed the figures: llama.cpp's own lines, or the Ollama
    /// engine's summary ([`super::ollama`]).
    pub printed_by: Printer,
    /// The cache type where the log states one type for K and V without
    /// a K/V line (Ollama's `KvCacheType`).
    pub cache_type: Option<GgmlType>,
    /// The total the log prints (Ollama's `total memory`).
    pub total: Option<Mib>,
}

/// Who printed a load log's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Printer {
    /// llama.cpp's lines (`llama-server`, `llama-cli`, LM Studio, Ollama's
    /// llama.cpp runner): MiB to two decimals.
    Llamacpp,
    /// The Ollama engine's summary: GiB or MiB to one decimal.
    Ollama,
}

impl Printer {
    /// Half the last printed digit of a figure of `bytes`, in bytes: how
    /// far a prediction may be from the print and still round to it.
    pub fn half_digit(self, bytes: u64) -> u64 {
        match self {
            Printer::Llamacpp => (1 << 20) / 200 + 1,
            Printer::Ollama if bytes >= 1 << 30 => (1 << 30) / 20 + 1,
            Printer::Ollama => (1 << 20) / 20 + 1,
        }
    }
}

impl LlamacppLog {
    /// A log with nothing read yet.
    pub fn empty(printed_by: Printer) -> LlamacppLog {
        LlamacppLog {
            build: None,
            devices: Vec::new(),
            model_buffers: Vec::new(),
            kv_buffers: Vec::new(),
            compute_buffers: Vec::new(),
            output_buffers: Vec::new(),
            kv: Vec::new(),
            n_ctx: 0,
            n_seq_max: None,
            n_batch: None,
            n_ubatch: None,
            flash_attn: None,
            kv_unified: None,
            offloaded: None,
            swa_full: false,
            arch: None,
            file_type: None,
            printed_by,
            cache_type: None,
            total: None,
        }
    }

    /// The K and V cache types the log states.
    pub fn cache_types(&self) -> Option<(GgmlType, GgmlType)> {
        match self.kv.first() {
            Some(l) => Some((l.type_k, l.type_v)),
            None => self.cache_type.map(|t| (t, t)),
        }
    }

    /// The sum of the figures of `list` on the GPUs (`host` false) or on
    /// the host (`host` true).
    pub fn sum(list: &[DeviceFigure], host: bool) -> Mib {
        Mib(list
            .iter()
            .filter(|f| f.on_host() == host)
            .map(|f| f.size.0)
            .sum())
    }

    /// The build has a BLAS backend: a `CPU` compute buffer printed beside
    /// a GPU's host buffer type (`CUDA_Host`), which the CPU backend's own
    /// buffer is whenever the GPU has one (`llama_context`: the GPUs, the
    /// ACCEL devices such as BLAS, then the CPU; each prints its buffer).
    pub fn has_blas(&self) -> bool {
        let has = |f: &dyn Fn(&str) -> bool| self.compute_buffers.iter().any(|b| f(&b.device));
        has(&|d| d == "CPU") && has(&|d| d.ends_with("_Host"))
    }

    /// K and V of every cache line together.
    pub fn kv_sum(&self) -> (Mib, Mib) {
        let k = self.kv.iter().map(|l| l.k.0).sum();
        let v = self.kv.iter().map(|l| l.v.0).sum();
        (Mib(k), Mib(v))
    }
}

/// Why a text is not read as a llama.cpp load log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum LogError {
    /// A line every load prints is not in the text.
    Missing { line: &'static str },
    /// A line of the kind is there but its figures do not read.
    Unreadable { line: String },
    /// A cache type outside ggml's table.
    CacheType { name: String },
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::Missing { line } => write!(f, "the log has no `{line}` line"),
            LogError::Unreadable { line } => write!(f, "this line does not read: `{line}`"),
            LogError::CacheType { name } => write!(f, "cache type `{name}` is not a ggml type"),
        }
    }
}

impl std::error::Error for LogError {}

/// The line that states the context.
pub const N_CTX_LINE: &str = "llama_context: n_ctx = …";
/// The line that states the KV cache.
pub const KV_LINE: &str = "llama_kv_cache: size = … MiB (…), K (…): … MiB, V (…): … MiB";

/// Reads a pasted load log, or names the line it lacks: llama.cpp's own
/// lines, or, where there are none, the Ollama engine's summary
/// ([`super::ollama`]).
pub fn parse(text: &str) -> Result<LlamacppLog, LogError> {
    let llamacpp = SOURCES[..7].iter().any(|s| text.contains(s));
    if !llamacpp && super::ollama::is_ollama(text) {
        return super::ollama::parse(text);
    }
    let mut log = LlamacppLog::empty(Printer::Llamacpp);
    let mut n_ctx = None;
    let mut n_ctx_seq: Option<u64> = None;
    for raw in text.lines() {
        let line = strip_line_number(raw.trim());
        let unreadable = || LogError::Unreadable {
            line: line.to_string(),
        };
        let Some((prefix, rest)) = line.split_once(':') else {
            continue;
        };
        let rest = rest.trim();
        if prefix == "build" {
            log.build = Some(rest.split(" with ").next().unwrap_or(rest).to_string());
            continue;
        }
        if let Some((device, size)) = buffer(rest, "model buffer size") {
            log.model_buffers
                .push(figure(device, size).ok_or_else(unreadable)?);
        } else if let Some((device, size)) = buffer(rest, "KV buffer size") {
            log.kv_buffers
                .push(figure(device, size).ok_or_else(unreadable)?);
        } else if let Some((device, size)) = buffer(rest, "compute buffer size") {
            log.compute_buffers
                .push(figure(device, size).ok_or_else(unreadable)?);
        } else if let Some((device, size)) = buffer(rest, "output buffer size") {
            log.output_buffers
                .push(figure(device, size).ok_or_else(unreadable)?);
        } else if rest.starts_with("size =") || rest.starts_with("KV self size") {
            log.kv.push(kv_line(rest).ok_or_else(unreadable)??);
        } else if let Some(d) = rest.strip_prefix("using device ") {
            log.devices.push(device(d).ok_or_else(unreadable)?);
        } else if let Some(o) = rest.strip_prefix("offloaded ") {
            log.offloaded = offloaded(o);
        } else if rest.contains("using full-size SWA cache") {
            log.swa_full = true;
        } else if let Some(n) = rest.strip_prefix("n_ctx_seq (") {
            // `n_ctx_seq (11520) < n_ctx_train (131072) -- …`
            n_ctx_seq = n.split(')').next().and_then(|n| n.parse().ok());
        } else if rest.contains("Flash Attention was auto, set to enabled") {
            log.flash_attn = Some(true);
        } else if let Some((key, value)) = rest.split_once('=') {
            setting(&mut log, &mut n_ctx, key.trim(), value.trim());
        }
    }
    // A log that prints only the context per sequence (LM Studio's) states
    // the whole as that times the sequences.
    let from_seq = n_ctx_seq.map(|c| c.saturating_mul(log.n_seq_max.unwrap_or(1)));
    log.n_ctx = n_ctx
        .or(from_seq)
        .ok_or(LogError::Missing { line: N_CTX_LINE })?;
    if log.kv.is_empty() {
        return Err(LogError::Missing { line: KV_LINE });
    }
    Ok(log)
}

/// The functions whose lines are read; a line is read from the first of
/// them, so what a runner puts before it (a time stamp, a level, Ollama's
/// or LM Studio's own prefix, an excerpt's `L123: `) does not matter.
const SOURCES: [&str; 12] = [
    "llama_model_load_from_file_impl:",
    "llama_new_context_with_model:",
    "llama_model_loader:",
    "llama_kv_cache",
    "llama_context:",
    "load_tensors:",
    "sched_reserve:",
    "print_info:",
    "build:",
    "init:",
    "main:",
    "llm_load_print_meta:",
];

/// A pasted line from the first function name it holds.
fn strip_line_number(line: &str) -> &str {
    let at = SOURCES.iter().filter_map(|s| line.find(s)).min();
    match at {
        Some(at) => &line[at..],
        None => line,
    }
}

/// `CUDA0 model buffer size = 16303.48 MiB` → (`CUDA0`, `16303.48`).
fn buffer<'a>(rest: &'a str, kind: &str) -> Option<(&'a str, &'a str)> {
    let (device, after) = rest.split_once(kind)?;
    let size = after.trim().strip_prefix('=')?.trim().strip_suffix("MiB")?;
    Some((device.trim(), size))
}

fn figure(device: &str, size: &str) -> Option<DeviceFigure> {
    Some(DeviceFigure {
        device: device.to_string(),
        size: Mib::parse(size)?,
    })
}

/// `KV self size = 1952.00 MiB, K (f16): 976.00 MiB, V (f16): 976.00 MiB`, or
/// `size = 3072.00 MiB (131072 cells, …), K (f16): 1536.00 MiB, V (f16): …`.
fn kv_line(rest: &str) -> Option<Result<KvLine, LogError>> {
    let mib_after = |s: &str| -> Option<Mib> {
        let s = s.trim_start();
        Mib::parse(s.split("MiB").next()?)
    };
    let size = mib_after(rest.split_once('=')?.1)?;
    let part = |tag: &str| -> Option<(String, Mib)> {
        let (_, after) = rest.split_once(tag)?;
        let (ty, after) = after.split_once(')')?;
        Some((ty.trim().to_string(), mib_after(after.strip_prefix(':')?)?))
    };
    let (tk, k) = part(" K (")?;
    let (tv, v) = part(" V (")?;
    let ty = |name: String| GgmlType::parse(&name).ok_or(LogError::CacheType { name });
    Some((|| {
        Ok(KvLine {
            size,
            k,
            v,
            type_k: ty(tk)?,
            type_v: ty(tv)?,
        })
    })())
}

/// `CUDA0 (NVIDIA GeForce RTX 3090 Ti) - 23041 MiB free`.
fn device(text: &str) -> Option<LogDevice> {
    let (name, rest) = text.split_once(" (")?;
    let (description, rest) = rest.split_once(')')?;
    let free = rest.rsplit_once(" - ")?.1.trim().strip_suffix("MiB free")?;
    Some(LogDevice {
        name: name.trim().to_string(),
        description: description.to_string(),
        free_mib: free.trim().parse().ok()?,
    })
}

/// `62/62 layers to GPU`.
fn offloaded(text: &str) -> Option<(u64, u64)> {
    let (n, rest) = text.split_once('/')?;
    let total = rest.split_whitespace().next()?;
    Some((n.trim().parse().ok()?, total.parse().ok()?))
}

/// `n_ctx = 32768`, `flash_attn = 1`, `file type = Q4_K - Medium`, …
fn setting(log: &mut LlamacppLog, n_ctx: &mut Option<u64>, key: &str, value: &str) {
    let number = value.split_whitespace().next().and_then(|v| v.parse().ok());
    match key {
        "n_ctx" => *n_ctx = number.or(*n_ctx),
        "n_seq_max" => log.n_seq_max = number,
        "n_batch" => log.n_batch = number,
        "n_ubatch" => log.n_ubatch = number,
        "flash_attn" => {
            log.flash_attn = match value {
                "1" | "enabled" | "true" | "on" => Some(true),
                "0" | "disabled" | "false" | "off" => Some(false),
                _ => log.flash_attn,
            }
        }
        "kv_unified" => log.kv_unified = Some(value == "true" || value == "1"),
        "arch" => log.arch = Some(value.to_string()),
        "file type" => log.file_type = Some(value.to_string()),
        _ => {}
    }
}

/// The `llama-server` settings the log was loaded with, over `base` for
/// what it does not print: its context, sequences, cache types, batch
/// sizes, flash attention, offloaded layers, full-size SWA cache and the
/// build it prints (whose cache layouts it had: [`crate::methods::llamacpp::build`]).
pub fn inputs(log: &LlamacppLog, base: LlamaCppInputs) -> LlamaCppInputs {
    let seqs = log.n_seq_max.unwrap_or(1).max(1);
    LlamaCppInputs {
        n_ctx: Some(log.n_ctx),
        n_parallel: seqs,
        kv_unified: log.kv_unified.unwrap_or(false),
        cache_type_k: log.cache_types().map_or(base.cache_type_k, |t| t.0),
        cache_type_v: log.cache_types().map_or(base.cache_type_v, |t| t.1),
        n_batch: log.n_batch.unwrap_or(base.n_batch),
        n_ubatch: log.n_ubatch.unwrap_or(base.n_ubatch),
        flash_attn: log.flash_attn.unwrap_or(base.flash_attn),
        n_gpu_layers: log.offloaded.map(|(n, _)| n).or(base.n_gpu_layers),
        swa_full: log.swa_full,
        blas: base.blas || log.has_blas(),
        build: super::llamacpp_fit::build_number(log)
            .map(crate::methods::llamacpp::build::Build)
            .or(base.build),
        ..base
    }
}

/// A printed figure and the prediction for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// What the log calls it.
    pub figure: &'static str,
    /// The log's figure, in bytes.
    pub logged: u64,
    /// The `llamacpp` method's, in bytes.
    pub predicted: u64,
}

impl Comparison {
    /// `(predicted − logged) / logged` in hundredths of a percent, 0 when
    /// both are 0.
    pub fn error_centi_pct(&self) -> i64 {
        match self.logged {
            0 => 0,
            l => ((self.predicted as i128 - l as i128) * 10_000 / l as i128) as i64,
        }
    }
}

impl Comparison {
    /// The prediction rounds to the printed figure: within half a
    /// hundredth of a MiB (5,243 bytes), the precision llama.cpp prints.
    pub fn within_print(&self) -> bool {
        self.within(Printer::Llamacpp)
    }

    /// The prediction rounds to the figure as `printer` prints it
    /// ([`Printer::half_digit`]).
    pub fn within(&self, printer: Printer) -> bool {
        self.predicted.abs_diff(self.logged) <= printer.half_digit(self.logged)
    }
}

/// Each figure the log prints beside the estimate's for it: the model,
/// KV, compute and output buffers, on the GPUs and on the host.
pub fn compare(log: &LlamacppLog, e: &LlamaCppEstimate) -> Vec<Comparison> {
    let mut rows = Vec::new();
    let mut row = |figure: &'static str, list: &[DeviceFigure], host: Option<bool>, predicted| {
        if list.is_empty() || host.is_some_and(|h| !list.iter().any(|f| f.on_host() == h)) {
            return;
        }
        let logged = match host {
            Some(h) => LlamacppLog::sum(list, h),
            None => Mib(list.iter().map(|f| f.size.0).sum()),
        };
        rows.push(Comparison {
            figure,
            logged: logged.bytes(),
            predicted,
        });
    };
    row(
        "model buffer, GPU",
        &log.model_buffers,
        Some(false),
        e.gpu.weights,
    );
    row(
        "model buffer, host",
        &log.model_buffers,
        Some(true),
        e.host.weights,
    );
    row(
        "KV buffer, GPU",
        &log.kv_buffers,
        Some(false),
        e.gpu.kv_cache,
    );
    row(
        "KV buffer, host",
        &log.kv_buffers,
        Some(true),
        e.host.kv_cache,
    );
    row(
        "compute buffer, GPU",
        &log.compute_buffers,
        Some(false),
        e.gpu.compute,
    );
    row(
        "compute buffer, host",
        &log.compute_buffers,
        Some(true),
        e.host.compute + e.host.blas_compute,
    );
    row(
        "output buffer",
        &log.output_buffers,
        None,
        e.output_buffer_bytes,
    );
    // The Ollama engine prints no K/V line.
    if log.kv.is_empty() {
        return rows;
    }
    let (k, v) = log.kv_sum();
    rows.push(Comparison {
        figure: "K cache",
        logged: k.bytes(),
        predicted: e.k_bytes,
    });
    rows.push(Comparison {
        figure: "V cache",
        logged: v.bytes(),
        predicted: e.v_bytes,
    });
    rows
}

#[cfg(test)]
#[path = "llamacpp_tests.rs"]
mod tests;
