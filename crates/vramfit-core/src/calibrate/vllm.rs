//! A `vllm serve` start-up log read into typed figures ([`parse`]), and
//! this machine's runtime terms fitted on it ([`fit`]).
//!
//! The reader knows the lines vLLM's V1 engine prints from 0.10 to 0.26
//! (and the V0 engine's "Memory profiling results" line): the release, the
//! options it started with, "Model loading took", the profiling figures,
//! "Available KV cache memory", "GPU KV cache size", "Maximum
//! concurrency", the CUDA-graph estimate and capture, and the GPU's total
//! where a line prints it. GiB figures become bytes here, once.

use crate::scenario::VllmRelease;
use crate::units::GIB;
use serde::Serialize;

/// What a start-up log says, each figure `None` where no line prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct VllmLog {
    pub release: Option<VllmRelease>,
    /// The V0 engine's profiling line ("Memory profiling results").
    pub v0: bool,
    /// The model as the engine names it (a hub id or a local path).
    pub model: Option<String>,
    /// A GPU name from a line that prints it (the fused-MoE config path's
    /// `device_name=`).
    pub gpu: Option<String>,
    pub tp: Option<u32>,
    pub max_model_len: Option<u64>,
    pub gpu_memory_utilization: Option<String>,
    pub max_num_batched_tokens: Option<u64>,
    pub max_num_seqs: Option<u64>,
    pub dtype: Option<String>,
    pub quantization: Option<String>,
    pub kv_cache_dtype: Option<String>,
    pub enforce_eager: Option<bool>,
    /// The GPU's total as CUDA reports it.
    pub total_bytes: Option<u64>,
    /// "Model loading took".
    pub weights_bytes: u64,
    /// The profiling peak over the weights.
    pub activation_peak_bytes: Option<u64>,
    /// Memory outside PyTorch's allocator.
    pub non_torch_bytes: Option<u64>,
    /// "Estimated CUDA graph memory" (printed from 0.18, set aside before the
    /// cache from 0.20).
    pub graph_estimate_bytes: Option<u64>,
    /// "Available KV cache memory" (the first worker's).
    pub kv_cache_bytes: u64,
    /// "GPU KV cache size: N tokens".
    pub kv_cache_tokens: Option<u64>,
    pub max_concurrency: Option<f64>,
    /// "Graph capturing finished ..., took X GiB".
    pub cuda_graph_bytes: Option<u64>,
}

/// One figure a start-up log prints and the fit compares
/// ([`Compared::figure`], [`LogError::MissingLine`]). The page words each
/// in its language by this value; [`std::fmt::Display`] is the CLI's
/// English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFigure {
    /// "Model loading took".
    Weights,
    /// "torch peak memory increase" (the profiling run).
    ActivationPeak,
    /// "non-torch memory".
    NonTorch,
    /// "Estimated CUDA graph memory", set aside before the cache.
    GraphsSetAside,
    /// "Available KV cache memory".
    KvCacheMemory,
    /// "GPU KV cache size: N tokens".
    KvCacheTokens,
    /// "Maximum concurrency for N tokens per request".
    MaxConcurrency,
    /// "Graph capturing finished ..., took X GiB".
    GraphsCaptured,
}

/// How a [`LogFigure`] is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FigureUnit {
    /// Bytes, shown in GiB (the value is GiB).
    #[serde(rename = "GiB")]
    Gib,
    #[serde(rename = "tokens")]
    Tokens,
    /// Sequences of the full context at once (vLLM's `N.NNx`).
    #[serde(rename = "x")]
    Times,
}

impl LogFigure {
    /// The stable id (the JSON's `id`, the page's `data-figure`).
    pub const fn id(self) -> &'static str {
        match self {
            LogFigure::Weights => "weights",
            LogFigure::ActivationPeak => "activation_peak",
            LogFigure::NonTorch => "non_torch",
            LogFigure::GraphsSetAside => "cuda_graphs_set_aside",
            LogFigure::KvCacheMemory => "kv_cache_memory",
            LogFigure::KvCacheTokens => "kv_cache_tokens",
            LogFigure::MaxConcurrency => "max_concurrency",
            LogFigure::GraphsCaptured => "cuda_graphs_captured",
        }
    }

    /// What the figure counts.
    pub const fn unit(self) -> FigureUnit {
        match self {
            LogFigure::KvCacheTokens => FigureUnit::Tokens,
            LogFigure::MaxConcurrency => FigureUnit::Times,
            _ => FigureUnit::Gib,
        }
    }
}

impl std::fmt::Display for LogFigure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(match self {
            LogFigure::Weights => "weights",
            LogFigure::ActivationPeak => "activation peak",
            LogFigure::NonTorch => "non-torch memory",
            LogFigure::GraphsSetAside => "CUDA graphs set aside",
            LogFigure::KvCacheMemory => "KV cache memory",
            LogFigure::KvCacheTokens => "KV cache tokens",
            LogFigure::MaxConcurrency => "maximum concurrency",
            LogFigure::GraphsCaptured => "CUDA graphs captured",
        })
    }
}

/// `{"id": …, "text": …}`: the stable id and the English words.
impl Serialize for LogFigure {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("LogFigure", 2)?;
        s.serialize_field("id", self.id())?;
        s.serialize_field("text", &self.to_string())?;
        s.end()
    }
}

/// A log the reader cannot use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum LogError {
    /// A line every start-up prints is not there.
    MissingLine {
        line: &'static str,
        figure: LogFigure,
    },
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::MissingLine { line, figure } => write!(
                f,
                "the log has no \"{line}\" line ({figure}); paste the engine's start-up \
                 from \"Initializing\" to \"Graph capturing finished\""
            ),
        }
    }
}

/// The text after the first `key`.
fn after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.find(key).map(|i| &text[i + key.len()..])
}

/// The number at the start of `text` (after spaces, `=`, `:`, `(`,
/// quotes), with thousands commas dropped.
fn number(text: &str) -> Option<f64> {
    let text = text.trim_start_matches([' ', '=', ':', '(', '\'', '"']);
    let digits: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    let value: f64 = digits.trim_end_matches('.').parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value)
}

/// GiB (as vLLM prints it, 2³⁰ bytes: the V0 engine labels the same
/// figure "GB") to bytes.
fn gib_bytes(value: f64) -> u64 {
    crate::units::saturate((value * GIB as f64).round() as u128)
}

fn figure(text: &str, keys: &[&str]) -> Option<f64> {
    keys.iter().find_map(|k| after(text, k).and_then(number))
}

fn bytes(text: &str, keys: &[&str]) -> Option<u64> {
    figure(text, keys).map(gib_bytes)
}

fn word(text: &str, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| {
        let rest = after(text, k)?.trim_start_matches(['\'', '"', ' ']);
        let w: String = rest
            .chars()
            .take_while(|c| !matches!(c, '\'' | '"' | ',' | ' ' | ')' | '}'))
            .collect();
        (!w.is_empty()).then_some(w)
    })
}

/// The version a line prints (`version 0.25.1`, `V1 LLM engine (v0.10.1.1)`).
fn release(text: &str) -> Option<VllmRelease> {
    let keys = [
        "V1 LLM engine (v",
        "server version ",
        "... version ",
        "] version ",
    ];
    keys.iter()
        .find_map(|k| after(text, k).and_then(VllmRelease::parse))
}

/// Reads a start-up log. The weights and the KV memory are required; a
/// log without either line is refused by name.
///
/// ```
/// use vramfit_core::calibrate::vllm::parse;
/// let log = "Initializing a V1 LLM engine (v0.10.1.1) with config: tensor_parallel_size=2, \
///            enforce_eager=False\n\
///            Model loading took 7.1217 GiB and 2.88 seconds\n\
///            Available KV cache memory: 31.83 GiB\n\
///            GPU KV cache size: 1,192,160 tokens\n";
/// let l = parse(log).unwrap();
/// assert_eq!(l.tp, Some(2));
/// assert_eq!(l.kv_cache_tokens, Some(1_192_160));
/// assert_eq!(l.weights_bytes, 7_646_867_148); // 7.1217 GiB
/// assert!(parse("Available KV cache memory: 1 GiB").is_err());
/// ```
pub fn parse(text: &str) -> Result<VllmLog, LogError> {
    let v0 = text.contains("Memory profiling results");
    let weights = bytes(text, &["Model loading took", "Loading model weights took"]).ok_or(
        LogError::MissingLine {
            line: "Model loading took",
            figure: LogFigure::Weights,
        },
    )?;
    let kv = bytes(text, &["Available KV cache memory", "kv_cache_size"]).ok_or(
        LogError::MissingLine {
            line: "Available KV cache memory",
            figure: LogFigure::KvCacheMemory,
        },
    )?;
    let v0_blocks = figure(text, &["# GPU blocks"]).map(|b| b as u64 * 16);
    let peak = match v0 {
        // V0's peak includes the weights.
        true => bytes(text, &["peak_torch_memory"]).map(|p| p.saturating_sub(weights)),
        false => bytes(text, &["torch peak memory increase", "GiB for weight, "])
            .or_else(|| bytes(text, &["GiB for consumed memory (weights + non-torch), "])),
    };
    let total = figure(text, &["Free memory on device ("])
        .and_then(|_| {
            let rest = after(text, "Free memory on device (")?;
            let slash = rest.find('/')?;
            number(&rest[slash + 1..])
        })
        .or_else(|| figure(text, &["total_gpu_memory"]))
        .map(gib_bytes);
    Ok(VllmLog {
        release: release(text),
        v0,
        model: word(text, &["'model': ", "model='"]),
        gpu: word(text, &["device_name="]),
        tp: figure(text, &["tensor_parallel_size", "'tensor_parallel_size'"]).map(|t| t as u32),
        max_model_len: figure(text, &["Maximum concurrency for ", "max_seq_len="])
            .map(|l| l as u64),
        gpu_memory_utilization: word(
            text,
            &[
                "'gpu_memory_utilization': ",
                "Desired GPU memory utilization is (",
                "gpu_memory_utilization=",
            ],
        ),
        max_num_batched_tokens: figure(text, &["max_num_batched_tokens="]).map(|t| t as u64),
        max_num_seqs: figure(text, &["'max_num_seqs': "]).map(|s| s as u64),
        dtype: word(text, &["dtype=torch."]),
        quantization: word(text, &["quantization=", "'quantization': "]).filter(|q| q != "None"),
        kv_cache_dtype: word(text, &["kv_cache_dtype="]),
        enforce_eager: word(text, &["enforce_eager="]).map(|e| e == "True"),
        total_bytes: total,
        weights_bytes: weights,
        activation_peak_bytes: peak,
        non_torch_bytes: bytes(
            text,
            &[
                "non-torch forward increase memory",
                "GiB for peak activation, ",
                "non_torch_memory",
            ],
        )
        .or_else(|| {
            // 0.26 prints weights and non-torch memory as one figure.
            let consumed = after(text, "Actual usage is ").and_then(number)?;
            text.contains("GiB for consumed memory (weights + non-torch)")
                .then(|| gib_bytes(consumed).saturating_sub(weights))
        }),
        graph_estimate_bytes: bytes(text, &["Estimated CUDA graph memory"]),
        kv_cache_bytes: kv,
        kv_cache_tokens: figure(text, &["GPU KV cache size"])
            .map(|t| t as u64)
            .or(v0_blocks),
        max_concurrency: after(text, "Maximum concurrency for ")
            .and_then(|rest| after(rest, "per request"))
            .and_then(number),
        cuda_graph_bytes: after(text, "Graph capturing finished")
            .and_then(|rest| after(rest, "took"))
            .and_then(number)
            .map(gib_bytes),
    })
}

#[path = "vllm_fit.rs"]
mod fit_impl;
pub use fit_impl::{fit, fit_scenario, Calibration, Compared};

#[cfg(test)]
#[path = "vllm_tests.rs"]
mod tests;
