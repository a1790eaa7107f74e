//! A GGUF file read in the page by its header only: a file dropped or
//! chosen (`Blob.slice`, never the whole file) or a URL (HTTP range
//! requests, `Range: bytes=a-b`), every shard of a split file. The core
//! decides what to read ([`vramfit_core::gguf::prefix::HeaderRead`]) and
//! reads the headers as a model ([`vramfit_core::gguf::model::read`]), as
//! the CLI does; this module only fetches the bytes. It is reached from
//! the model input only, so it lives in the `model` chunk.

use js_sys::Uint8Array;
use vramfit_core::gguf::model::{read, GgufModel, GgufModelError};
use vramfit_core::gguf::prefix::{shard_names, HeaderRead, PrefixError};
use vramfit_core::gguf::GgufHeader;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A file read: its model and what reading it took.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub model: GgufModel,
    /// Bytes read, all shards.
    pub bytes_read: u64,
    /// Slices or range requests, all shards.
    pub requests: u64,
    /// The files' length, all shards, where known.
    pub file_bytes: Option<u64>,
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GgufLoadError {
    /// No file, or a URL that is not `http(s)://…/….gguf`.
    NotGgufName { name: String },
    /// A split file's shard that was not among the files dropped.
    MissingShard { name: String },
    /// The bytes of `file` are not a header that is read.
    Prefix { file: String, error: PrefixError },
    /// The headers are not a model that is read (an unknown architecture).
    Model { file: String, error: GgufModelError },
    /// The server answered `status`.
    Http { file: String, status: u16 },
    /// The server sent the whole file, not the range asked for.
    NoRanges { file: String },
    /// No answer: offline, or a host the page's policy does not allow.
    Offline { file: String },
    /// The browser could not read the chosen file.
    Unreadable { file: String },
}

/// Reads the dropped or chosen `files`: the first `.gguf` (any shard of a
/// split file, whose other shards must be among `files`).
pub async fn load_files(files: Vec<web_sys::File>) -> Result<Loaded, GgufLoadError> {
    let first = files
        .iter()
        .find(|f| f.name().to_ascii_lowercase().ends_with(".gguf"))
        .ok_or_else(|| GgufLoadError::NotGgufName {
            name: files.first().map(|f| f.name()).unwrap_or_default(),
        })?;
    let mut chosen = Vec::new();
    for name in shard_names(&first.name()) {
        let file = files
            .iter()
            .find(|f| f.name() == name)
            .ok_or(GgufLoadError::MissingShard { name })?;
        chosen.push(file.clone());
    }
    let mut out = Reading::default();
    for file in &chosen {
        out.header(&file.name(), &mut Source::File(file.clone()))
            .await?;
    }
    out.finish(&first.name())
}

/// Whether `url` may name a GGUF file: `http(s)://…` ending in `.gguf`
/// before any `?…`.
pub fn is_gguf_url(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    (url.starts_with("https://") || url.starts_with("http://"))
        && path.to_ascii_lowercase().ends_with(".gguf")
}

/// Reads the file at `url` by range requests, every shard of a split file
/// (their names derived from this one's).
pub async fn load_url(url: &str) -> Result<Loaded, GgufLoadError> {
    let url = url.trim();
    if !is_gguf_url(url) {
        return Err(GgufLoadError::NotGgufName { name: url.into() });
    }
    let mut out = Reading::default();
    for name in shard_names(url) {
        let mut src = Source::Url { len: None };
        out.header(&name, &mut src).await?;
    }
    out.finish(url)
}

/// The headers read so far and what they took.
#[derive(Default)]
struct Reading {
    headers: Vec<GgufHeader>,
    bytes: u64,
    requests: u64,
    file_bytes: Option<u64>,
    unknown_len: bool,
}

impl Reading {
    async fn header(&mut self, name: &str, src: &mut Source) -> Result<(), GgufLoadError> {
        let mut read = HeaderRead::new();
        let header = loop {
            let (start, len) = read.next_range();
            let chunk = src.read_at(name, start, len).await?;
            match read.feed(&chunk) {
                Ok(Some(h)) => break h,
                Ok(None) => continue,
                Err(error) => {
                    return Err(GgufLoadError::Prefix {
                        file: last_part(name),
                        error,
                    })
                }
            }
        };
        self.bytes += read.bytes();
        self.requests += read.requests();
        match src.len() {
            Some(l) => self.file_bytes = Some(self.file_bytes.unwrap_or(0) + l),
            None => self.unknown_len = true,
        }
        self.headers.push(header);
        Ok(())
    }

    fn finish(self, name: &str) -> Result<Loaded, GgufLoadError> {
        let path = name.split(['?', '#']).next().unwrap_or(name);
        let model = read(path, &self.headers).map_err(|error| GgufLoadError::Model {
            file: last_part(path),
            error,
        })?;
        Ok(Loaded {
            model,
            bytes_read: self.bytes,
            requests: self.requests,
            file_bytes: self.file_bytes.filter(|_| !self.unknown_len),
        })
    }
}

/// The file name at the end of a path or URL.
fn last_part(name: &str) -> String {
    let path = name.split(['?', '#']).next().unwrap_or(name);
    path.rsplit('/').next().unwrap_or(path).to_string()
}

/// Where a file's bytes come from.
enum Source {
    File(web_sys::File),
    Url { len: Option<u64> },
}

impl Source {
    fn len(&self) -> Option<u64> {
        match self {
            Source::File(f) => Some(f.size() as u64),
            Source::Url { len } => *len,
        }
    }

    /// Up to `len` bytes of `name` from `start` (fewer at its end).
    async fn read_at(
        &mut self,
        name: &str,
        start: u64,
        len: u64,
    ) -> Result<Vec<u8>, GgufLoadError> {
        match self {
            Source::File(f) => slice(f, start, len).await.ok_or(GgufLoadError::Unreadable {
                file: last_part(name),
            }),
            Source::Url { len: total } => {
                let (bytes, of) = range(name, start, len).await?;
                *total = of.or(*total);
                Ok(bytes)
            }
        }
    }
}

/// `len` bytes of `file` from `start`: a slice, so only these are read.
async fn slice(file: &web_sys::File, start: u64, len: u64) -> Option<Vec<u8>> {
    let size = file.size() as u64;
    let (start, end) = (start.min(size), start.saturating_add(len).min(size));
    let part = file.slice_with_f64_and_f64(start as f64, end as f64).ok()?;
    let buffer = JsFuture::from(part.array_buffer()).await.ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

/// `Range: bytes=start-(start+len-1)` of `url`: the bytes and the file's
/// length from `Content-Range` (where the server lets the page read it).
async fn range(url: &str, start: u64, len: u64) -> Result<(Vec<u8>, Option<u64>), GgufLoadError> {
    let file = last_part(url);
    let offline = || GgufLoadError::Offline { file: file.clone() };
    let window = web_sys::window().ok_or_else(offline)?;
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let headers = web_sys::Headers::new().map_err(|_| offline())?;
    let end = start.saturating_add(len).saturating_sub(1);
    headers
        .set("Range", &format!("bytes={start}-{end}"))
        .map_err(|_| offline())?;
    init.set_headers(&headers);
    let abort = web_sys::AbortController::new().ok();
    if let Some(a) = &abort {
        init.set_signal(Some(&a.signal()));
    }
    let answer = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|_| offline())?;
    let response: web_sys::Response = answer.dyn_into().map_err(|_| offline())?;
    match response.status() {
        206 => {}
        // Past the end of the file: nothing more to read.
        416 => return Ok((Vec::new(), None)),
        200 => {
            // The whole file is coming: stop it, never read it.
            if let Some(a) = abort {
                a.abort();
            }
            return Err(GgufLoadError::NoRanges { file });
        }
        status => return Err(GgufLoadError::Http { file, status }),
    }
    let total = response
        .headers()
        .get("content-range")
        .ok()
        .flatten()
        .and_then(|r| r.rsplit('/').next().and_then(|n| n.trim().parse().ok()));
    let body = response.array_buffer().map_err(|_| offline())?;
    let buffer = JsFuture::from(body).await.map_err(|_| offline())?;
    let mut bytes = Uint8Array::new(&buffer).to_vec();
    bytes.truncate(len as usize);
    Ok((bytes, total))
}
