//! A GGUF file named on the command line, a local path or a URL (a Hub
//! `…/resolve/main/….gguf` link), read by its header only: the first
//! megabyte, then as much more as the header reader asks for (a URL by
//! HTTP range requests), shard by shard for a split file; the core's
//! [`vramfit_core::gguf::prefix`] decides what to read.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::Duration;
use vramfit_core::gguf::model::{projector, read, GgufModel, Projector};
use vramfit_core::gguf::prefix::{shard_names, HeaderRead};
use vramfit_core::gguf::GgufHeader;
use vramfit_core::units::{Bytes, DisplayUnit};

/// What reading the header took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reads {
    /// Bytes read, all shards.
    pub bytes: u64,
    /// Reads (HTTP requests for a URL).
    pub requests: u64,
    /// The files' length, all shards, where known.
    pub file_bytes: Option<u64>,
}

impl Reads {
    /// `header read: 4194304 bytes of 4.92 GB (0.09 %) in 3 range requests`.
    pub fn line(&self, url: bool) -> String {
        let gb = |b: u64| Bytes(b).display(DisplayUnit::Gb);
        let of = match self.file_bytes {
            Some(total) if total > 0 => format!(
                " of {} ({:.2} %)",
                gb(total),
                self.bytes as f64 * 100.0 / total as f64
            ),
            _ => String::new(),
        };
        let unit = if url { "range requests" } else { "reads" };
        format!(
            "header read: {} bytes{of} in {} {unit}",
            self.bytes, self.requests
        )
    }
}

/// Whether a command-line model names a GGUF file.
pub fn is_gguf(arg: &str) -> bool {
    without_query(arg).to_ascii_lowercase().ends_with(".gguf")
}

/// A URL without its `?download=true` or `#…` part.
fn without_query(arg: &str) -> &str {
    arg.split(['?', '#']).next().unwrap_or(arg)
}

fn is_url(arg: &str) -> bool {
    arg.starts_with("https://") || arg.starts_with("http://")
}

/// The model of the GGUF file `arg` and what reading it took.
pub fn load(arg: &str) -> Result<(GgufModel, Reads), String> {
    let names = shard_names(arg);
    let mut reads = Reads::default();
    let mut headers = Vec::with_capacity(names.len());
    let mut total = Some(0u64);
    for name in &names {
        let (header, r) = match is_url(name) {
            true => header_of(name, &mut Http::new(name)),
            false => header_of(name, &mut Local::open(name)?),
        }?;
        reads.bytes += r.bytes;
        reads.requests += r.requests;
        total = total.zip(r.file_bytes).map(|(a, b)| a + b);
        headers.push(header);
    }
    reads.file_bytes = total;
    let model = read(without_query(arg), &headers).map_err(|e| format!("{arg}: {e}"))?;
    Ok((model, reads))
}

/// The vision projector of the `mmproj` GGUF file `arg` (a path or URL).
pub fn load_projector(arg: &str) -> Result<Projector, String> {
    let (header, reads) = match is_url(arg) {
        true => header_of(arg, &mut Http::new(arg)),
        false => header_of(arg, &mut Local::open(arg)?),
    }?;
    eprintln!("vramfit: {arg}: {}", reads.line(is_url(arg)));
    projector(without_query(arg), &[header]).map_err(|e| format!("{arg}: {e}"))
}

/// Somewhere the file's bytes come from.
trait Source {
    /// Up to `len` bytes from `start` (fewer at the end of the file).
    fn read_at(&mut self, start: u64, len: u64) -> Result<Vec<u8>, String>;
    /// The file's length, once known.
    fn file_len(&self) -> Option<u64>;
}

/// Reads the header of `name`, a prefix at a time as the core's
/// [`HeaderRead`] asks.
fn header_of(name: &str, src: &mut dyn Source) -> Result<(GgufHeader, Reads), String> {
    let mut read = HeaderRead::new();
    loop {
        let (start, len) = read.next_range();
        let chunk = src.read_at(start, len)?;
        if let Some(h) = read.feed(&chunk).map_err(|e| format!("{name}: {e}"))? {
            let reads = Reads {
                bytes: read.bytes(),
                requests: read.requests(),
                file_bytes: src.file_len(),
            };
            return Ok((h, reads));
        }
    }
}

/// A file on disk.
struct Local {
    file: std::fs::File,
    len: u64,
}

impl Local {
    fn open(name: &str) -> Result<Local, String> {
        let file =
            std::fs::File::open(Path::new(name)).map_err(|e| format!("cannot read {name}: {e}"))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(Local { file, len })
    }
}

impl Source for Local {
    fn read_at(&mut self, start: u64, len: u64) -> Result<Vec<u8>, String> {
        self.file
            .seek(SeekFrom::Start(start))
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        (&mut self.file)
            .take(len)
            .read_to_end(&mut out)
            .map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn file_len(&self) -> Option<u64> {
        Some(self.len)
    }
}

/// A file behind a URL, read by `Range: bytes=` requests.
struct Http {
    url: String,
    agent: ureq::Agent,
    len: Option<u64>,
}

impl Http {
    fn new(url: &str) -> Http {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Http {
            url: url.to_string(),
            agent,
            len: None,
        }
    }
}

impl Source for Http {
    fn read_at(&mut self, start: u64, len: u64) -> Result<Vec<u8>, String> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let end = start + len - 1;
        let mut response = self
            .agent
            .get(&self.url)
            .header("Range", &format!("bytes={start}-{end}"))
            .call()
            .map_err(|e| format!("{}: {e}", self.url))?;
        let range = response
            .headers()
            .get("content-range")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let partial = response.status().as_u16() == 206;
        let body = response.body_mut().with_config().limit(u64::MAX).reader();
        let mut out = Vec::new();
        match partial {
            true => {
                // `bytes 0-1048575/4920000000`: the file's length.
                self.len = range
                    .as_deref()
                    .and_then(|r| r.rsplit('/').next())
                    .and_then(|n| n.parse().ok());
                body.take(len).read_to_end(&mut out)
            }
            // A server that ignores ranges sends the file from its start:
            // only the bytes asked for are read, the rest never is.
            false => {
                let mut skip = Vec::new();
                let mut body = body;
                (&mut body)
                    .take(start)
                    .read_to_end(&mut skip)
                    .and_then(|_| body.take(len).read_to_end(&mut out))
            }
        }
        .map_err(|e| format!("{}: {e}", self.url))?;
        Ok(out)
    }

    fn file_len(&self) -> Option<u64> {
        self.len
    }
}

/// A GGUF file's own facts, as llama.cpp prints them when it loads one
/// (`print_info: file type`, `model size`, `llama_model_loader: - type …`).
pub fn summary(f: &GgufModel) -> String {
    let gib = |b: u64| Bytes(b).display(DisplayUnit::Gib);
    let mut out = format!("file              {}", f.file);
    if f.shards > 1 {
        out += &format!(" ({} shards)", f.shards);
    }
    out += &format!("\narchitecture      {}\n", f.architecture);
    if let Some(t) = f.file_type {
        out += &format!("file type         {}\n", t.printed_name());
    }
    out += &format!(
        "model size        {} ({} bytes, {} tensors)\n",
        gib(f.tensor_bytes()),
        f.tensor_bytes(),
        f.tensors.len()
    );
    for (t, n, bytes) in f.type_counts() {
        out += &format!("  type {:<8} {:>5} tensors  {}\n", t.name(), n, gib(bytes));
    }
    out
}

/// The file's facts for `inspect --json`: name, architecture, file type,
/// model size and the tensors per type (the tensor list itself is left
/// out: a few thousand rows).
pub fn facts(f: &GgufModel) -> serde_json::Value {
    let types: Vec<serde_json::Value> = f
        .type_counts()
        .into_iter()
        .map(|(t, n, bytes)| serde_json::json!({"type": t.name(), "tensors": n, "bytes": bytes}))
        .collect();
    serde_json::json!({
        "file": f.file,
        "architecture": f.architecture,
        "file_type": f.file_type.map(|t| t.name()),
        "shards": f.shards,
        "model_size_bytes": f.tensor_bytes(),
        "tensors": f.tensors.len(),
        "tensor_types": types,
    })
}
