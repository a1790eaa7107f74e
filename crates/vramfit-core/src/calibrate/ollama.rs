//! Ollama's own load log: the Ollama engine (`ollama runner
//! --ollama-engine`, `runner/ollamarunner`) does not print llama.cpp's
//! `load_tensors:` / `llama_context:` lines but its own summary, read here
//! into the same [`LlamacppLog`] as a llama.cpp log so that the same
//! comparison and settings follow.
//!
//! The lines (Ollama v0.20.0; Go's `log/slog` text handler, a value with a
//! space quoted):
//!
//! ```text
//! … source=types.go:42 msg="inference compute" id=GPU-… library=CUDA compute=8.9 name=CUDA0 description="NVIDIA GeForce RTX 4090" … total="23.6 GiB" available="23.1 GiB"
//! … source=runner.go:1290 msg=load request="{Operation:commit LoraPath:[] Parallel:1 BatchSize:512 FlashAttention:Enabled KvSize:8192 KvCacheType: NumThreads:8 GPULayers:33[ID:GPU-… Layers:33(0..32)] MultiUserCache:false ProjectorPath: MainGPU:0 UseMmap:false}"
//! … source=ggml.go:494 msg="offloaded 33/33 layers to GPU"
//! … source=device.go:240 msg="model weights" device=CUDA0 size="4.3 GiB"
//! … source=device.go:245 msg="model weights" device=CPU size="281.8 MiB"
//! … source=device.go:251 msg="kv cache" device=CUDA0 size="1.0 GiB"
//! … source=device.go:262 msg="compute graph" device=CUDA0 size="560.0 MiB"
//! … source=device.go:267 msg="compute graph" device=CPU size="8.0 MiB"
//! … source=device.go:272 msg="total memory" size="6.1 GiB"
//! ```
//!
//! - `ml/device.go` `BackendMemory.Log`: weights, cache and graph per
//!   device (`gpu.Name`, `m.CPU.Name`), then the total; sizes by
//!   `format.HumanBytes2` (`format/bytes.go`): one decimal of GiB, MiB or
//!   KiB, so a figure is known to ±0.05 of its unit.
//! - `runner/ollamarunner/runner.go` `slog.Info("load", "request", req)`:
//!   the `LoadRequest` of `llm/server.go` printed with `%+v`: `KvSize` is
//!   the context over all `Parallel` sequences (llama.cpp's `n_ctx`),
//!   `BatchSize` the batch the graph is reserved for, `KvCacheType` empty
//!   for f16, `FlashAttention` `Enabled`/`Disabled`/`Auto` (a bool in
//!   older releases). It is printed for each operation (fit, alloc,
//!   commit): the last is read.
//! - `ml/backend/ggml/ggml.go`: `offloaded N/M layers to GPU`, and an
//!   unnamed line with `architecture=` and `file_type=`.
//! - `discover/types.go`: `inference compute` per GPU, its free memory as
//!   `available`.
//!
//! The summary may be printed more than once (each layout tried): a
//! `model weights` line after a `total memory` line starts a new summary,
//! and the last is kept.

use super::llamacpp::{DeviceFigure, LlamacppLog, LogDevice, LogError, Mib, Printer};
use crate::gguf::GgmlType;

/// Whether `text` holds the Ollama engine's memory summary.
pub fn is_ollama(text: &str) -> bool {
    [
        "msg=\"model weights\"",
        "msg=\"kv cache\"",
        "msg=\"total memory\"",
    ]
    .iter()
    .any(|l| text.contains(l))
}

/// The line that states Ollama's context.
pub const LOAD_LINE: &str = "msg=load request=\"{… KvSize:… …}\"";
/// The line that states Ollama's KV cache.
pub const KV_CACHE_LINE: &str = "msg=\"kv cache\" device=… size=\"…\"";

/// Reads an Ollama engine log, or names the line it lacks.
pub fn parse(text: &str) -> Result<LlamacppLog, LogError> {
    let mut log = LlamacppLog::empty(Printer::Ollama);
    let mut n_ctx = None;
    let mut after_total = false;
    for raw in text.lines() {
        let line = raw.trim();
        let unreadable = || LogError::Unreadable {
            line: line.to_string(),
        };
        let Some(msg) = value(line, "msg") else {
            continue;
        };
        let figure = || -> Result<DeviceFigure, LogError> {
            let device = value(line, "device").ok_or_else(unreadable)?;
            let size = value(line, "size").and_then(human).ok_or_else(unreadable)?;
            Ok(DeviceFigure {
                device: device.to_string(),
                size,
            })
        };
        match msg {
            "model weights" => {
                if after_total {
                    log.model_buffers.clear();
                    log.kv_buffers.clear();
                    log.compute_buffers.clear();
                    log.total = None;
                    after_total = false;
                }
                log.model_buffers.push(figure()?);
            }
            "kv cache" => log.kv_buffers.push(figure()?),
            "compute graph" => log.compute_buffers.push(figure()?),
            "total memory" => {
                log.total = value(line, "size").and_then(human);
                after_total = true;
            }
            "load" => {
                let req = value(line, "request").ok_or_else(unreadable)?;
                let field = |k: &str| field(req, k);
                let number = |k: &str| field(k).and_then(|v| v.parse::<u64>().ok());
                n_ctx = number("KvSize").or(n_ctx);
                log.n_seq_max = number("Parallel").or(log.n_seq_max);
                if let Some(b) = number("BatchSize") {
                    log.n_batch = Some(b);
                    log.n_ubatch = Some(b);
                }
                log.flash_attn = match field("FlashAttention") {
                    Some("Enabled" | "true") => Some(true),
                    Some("Disabled" | "false") => Some(false),
                    _ => log.flash_attn,
                };
                log.cache_type = match field("KvCacheType") {
                    Some("") | None => Some(GgmlType::F16),
                    Some(name) => Some(GgmlType::parse(name).ok_or(LogError::CacheType {
                        name: name.to_string(),
                    })?),
                };
            }
            "inference compute" => {
                let name = value(line, "name").unwrap_or_default();
                let free = value(line, "available").and_then(human);
                if let (Some(free), false) = (free, name.is_empty() || name == "cpu") {
                    log.devices.push(LogDevice {
                        name: name.to_string(),
                        description: value(line, "description").unwrap_or_default().to_string(),
                        free_mib: free.0 / 100,
                    });
                }
            }
            "" => {
                if let Some(a) = value(line, "architecture") {
                    log.arch = Some(a.to_string());
                }
                if let Some(f) = value(line, "file_type") {
                    log.file_type = Some(f.to_string());
                }
            }
            m => {
                if let Some(o) = m.strip_prefix("offloaded ") {
                    let (n, rest) = o.split_once('/').ok_or_else(unreadable)?;
                    let total = rest.split_whitespace().next().unwrap_or_default();
                    log.offloaded = n.parse().ok().zip(total.parse().ok());
                }
            }
        }
    }
    log.n_ctx = n_ctx.ok_or(LogError::Missing { line: LOAD_LINE })?;
    if log.kv_buffers.is_empty() {
        return Err(LogError::Missing {
            line: KV_CACHE_LINE,
        });
    }
    Ok(log)
}

/// The value of `key=` in a slog text line: up to the next space, or
/// within quotes (with `\"` inside).
fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=");
    let at = line
        .find(&pat)
        .map(|i| i + pat.len())
        .or_else(|| line.strip_prefix(&pat[1..]).map(|_| pat.len() - 1))?;
    let rest = &line[at..];
    match rest.strip_prefix('"') {
        Some(quoted) => {
            let mut end = 0;
            let bytes = quoted.as_bytes();
            while end < bytes.len() {
                match bytes[end] {
                    b'\\' => end += 2,
                    b'"' => return quoted.get(..end),
                    _ => end += 1,
                }
            }
            None
        }
        None => Some(rest.split(' ').next().unwrap_or(rest)),
    }
}

/// `Key:value` in Go's `%+v` of a struct: the value up to the next space
/// (empty for an empty string).
fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("{key}:");
    let at = s
        .match_indices(&pat)
        .find(|(i, _)| *i == 0 || matches!(s.as_bytes()[i - 1], b' ' | b'{'))?
        .0
        + pat.len();
    let rest = &s[at..];
    Some(rest.split([' ', '}']).next().unwrap_or(rest))
}

/// `format.HumanBytes2`'s `4.3 GiB`, `281.8 MiB`, `512.0 KiB`, `100 B`
/// as hundredths of a MiB.
///
/// # Formula
///
/// `x.y GiB` → `xy · 1024 · 10` hundredths of a MiB (a tenth of a GiB is
/// 102.4 MiB); `x.y MiB` → `xy · 10`; `x.y KiB` → `⌊xy · 10 / 1024⌋`.
/// Example: `4.3 GiB` → 43 · 10240 = 440,320 (4403.20 MiB).
fn human(text: &str) -> Option<Mib> {
    let (num, unit) = text.trim().split_once(' ')?;
    let (whole, frac) = num.split_once('.').unwrap_or((num, "0"));
    let tenths = whole
        .parse::<u64>()
        .ok()?
        .checked_mul(10)?
        .checked_add(frac.get(..1)?.parse::<u64>().ok()?)?;
    let mib_hundredths = match unit {
        "GiB" => tenths.checked_mul(10_240)?,
        "MiB" => tenths.checked_mul(10)?,
        "KiB" => tenths * 10 / 1024,
        "B" => 0,
        _ => return None,
    };
    Some(Mib(mib_hundredths))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines in the format Ollama v0.20.0 prints them (`ml/device.go`
    /// `BackendMemory.Log`, `runner/ollamarunner/runner.go` "load",
    /// `ml/backend/ggml/ggml.go`, `discover/types.go`): a first layout
    /// tried, then the one loaded.
    const LOG: &str = r#"time=2026-01-10T10:00:00.000Z level=INFO source=types.go:42 msg="inference compute" id=GPU-5f0c filter_id="" library=CUDA compute=8.9 name=CUDA0 description="NVIDIA GeForce RTX 4090" libdirs=ollama,cuda_v12 driver=12.8 pci_id=0000:01:00.0 type=discrete total="23.6 GiB" available="23.1 GiB"
time=2026-01-10T10:00:01.000Z level=INFO source=ggml.go:136 msg="" architecture=llama file_type=Q4_K_M name="Llama 3.1 8B Instruct" description="" num_tensors=292 num_key_values=30
time=2026-01-10T10:00:01.100Z level=INFO source=runner.go:1290 msg=load request="{Operation:fit LoraPath:[] Parallel:1 BatchSize:512 FlashAttention:Enabled KvSize:8192 KvCacheType: NumThreads:8 GPULayers:33[ID:GPU-5f0c Layers:33(0..32)] MultiUserCache:false ProjectorPath: MainGPU:0 UseMmap:false}"
time=2026-01-10T10:00:01.200Z level=INFO source=device.go:240 msg="model weights" device=CUDA0 size="3.9 GiB"
time=2026-01-10T10:00:01.200Z level=INFO source=device.go:272 msg="total memory" size="3.9 GiB"
time=2026-01-10T10:00:01.300Z level=INFO source=runner.go:1290 msg=load request="{Operation:commit LoraPath:[] Parallel:2 BatchSize:512 FlashAttention:Enabled KvSize:16384 KvCacheType:q8_0 NumThreads:8 GPULayers:33[ID:GPU-5f0c Layers:33(0..32)] MultiUserCache:false ProjectorPath: MainGPU:0 UseMmap:false}"
time=2026-01-10T10:00:01.400Z level=INFO source=ggml.go:494 msg="offloaded 33/33 layers to GPU"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:240 msg="model weights" device=CUDA0 size="4.3 GiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:245 msg="model weights" device=CPU size="281.8 MiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:251 msg="kv cache" device=CUDA0 size="1.1 GiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:262 msg="compute graph" device=CUDA0 size="560.0 MiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:267 msg="compute graph" device=CPU size="8.0 MiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:272 msg="total memory" size="6.2 GiB"
"#;

    #[test]
    fn the_last_summary_and_load_request_are_read() {
        assert!(is_ollama(LOG));
        let log = parse(LOG).unwrap();
        assert_eq!(log.printed_by, Printer::Ollama);
        assert_eq!(log.n_ctx, 16384);
        assert_eq!(log.n_seq_max, Some(2));
        assert_eq!((log.n_batch, log.n_ubatch), (Some(512), Some(512)));
        assert_eq!(log.flash_attn, Some(true));
        assert_eq!(log.cache_type, Some(GgmlType::Q8_0));
        assert_eq!(log.offloaded, Some((33, 33)));
        assert_eq!(log.arch.as_deref(), Some("llama"));
        assert_eq!(log.file_type.as_deref(), Some("Q4_K_M"));
        // 4.3 GiB on the GPU, 281.8 MiB on the host; the first layout's
        // 3.9 GiB is gone.
        assert_eq!(LlamacppLog::sum(&log.model_buffers, false), Mib(440_320));
        assert_eq!(LlamacppLog::sum(&log.model_buffers, true), Mib(28_180));
        assert_eq!(LlamacppLog::sum(&log.kv_buffers, false), Mib(112_640));
        assert_eq!(LlamacppLog::sum(&log.compute_buffers, false), Mib(56_000));
        assert_eq!(LlamacppLog::sum(&log.compute_buffers, true), Mib(800));
        assert_eq!(log.total, Some(Mib(634_880)));
        assert_eq!(log.devices.len(), 1);
        assert_eq!(log.devices[0].name, "CUDA0");
        assert_eq!(log.devices[0].description, "NVIDIA GeForce RTX 4090");
        assert_eq!(log.devices[0].free_mib, 23_654);
    }

    #[test]
    fn a_log_without_its_load_request_or_cache_names_the_line() {
        let no_load: String = LOG
            .lines()
            .filter(|l| !l.contains("msg=load"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            parse(&no_load).unwrap_err(),
            LogError::Missing { line: LOAD_LINE }
        );
        let no_kv: String = LOG
            .lines()
            .filter(|l| !l.contains("kv cache"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            parse(&no_kv).unwrap_err(),
            LogError::Missing {
                line: KV_CACHE_LINE
            }
        );
        let bad = LOG.replace("size=\"1.1 GiB\"", "size=\"lots\"");
        assert!(matches!(parse(&bad), Err(LogError::Unreadable { .. })));
    }

    #[test]
    fn sizes_read_as_human_bytes2_prints_them() {
        assert_eq!(human("4.3 GiB"), Some(Mib(440_320)));
        assert_eq!(human("281.8 MiB"), Some(Mib(28_180)));
        assert_eq!(human("512.0 KiB"), Some(Mib(50)));
        assert_eq!(human("100 B"), Some(Mib(0)));
        assert_eq!(human("4.3 GB"), None);
    }
}
