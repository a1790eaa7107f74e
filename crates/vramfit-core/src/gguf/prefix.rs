//! Reading a file's header from its first bytes, a prefix at a time, for
//! any front end that fetches bytes (the CLI from a path or by HTTP range
//! requests, the page by `File.slice` or range requests): [`HeaderRead`]
//! says which bytes to ask for next and takes what came, without doing any
//! input itself, and [`shard_names`] names every shard of a split file.
//!
//! # Formula
//!
//! The first request asks for `F = 1 MiB`; while the header parser needs
//! more ([`GgufError::NeedMore`]), the prefix grows to
//! `min(max(need, 2 · have), MAX_HEADER_BYTES)`, so a header of `H` bytes
//! takes `1 + ⌈log₂(H / F)⌉` requests and at most `max(F, 2H)` bytes are
//! read. Example: a 150k-token vocabulary, a 4.3 MB header: 1 MiB, 2 MiB,
//! 4 MiB, 8 MiB: four requests, 8 MiB read of a 5 GB file (0.17 %).

use super::header::{parse, GgufError, GgufHeader, MAX_HEADER_BYTES};
use super::split::ShardName;

/// The first request's length: most headers end within it.
pub const FIRST_READ: u64 = 1 << 20;

/// One file's header, read a prefix at a time.
#[derive(Debug, Default)]
pub struct HeaderRead {
    buf: Vec<u8>,
    want: u64,
    requests: u64,
}

/// Why a prefix read stopped without a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrefixError {
    /// The file ended inside its header (`len` bytes in all).
    Truncated { len: u64 },
    /// The bytes are not a header that is read.
    Header(GgufError),
}

impl std::fmt::Display for PrefixError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrefixError::Truncated { len } => {
                write!(f, "the file ends inside its header (after {len} bytes)")
            }
            PrefixError::Header(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PrefixError {}

impl HeaderRead {
    /// A read that has asked for nothing yet.
    pub fn new() -> HeaderRead {
        HeaderRead {
            buf: Vec::new(),
            want: FIRST_READ,
            requests: 0,
        }
    }

    /// The bytes to ask for next: `(start, len)`, from the end of what was
    /// read (a range request `bytes=start-(start+len-1)`).
    pub fn next_range(&self) -> (u64, u64) {
        let have = self.buf.len() as u64;
        (have, self.want.saturating_sub(have).max(1))
    }

    /// Takes the bytes that came for [`HeaderRead::next_range`] (fewer at
    /// the end of the file): the header once it is whole, `None` when more
    /// is needed (ask [`HeaderRead::next_range`] again), or why not.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Option<GgufHeader>, PrefixError> {
        let (_, asked) = self.next_range();
        self.requests += 1;
        let short = (chunk.len() as u64) < asked;
        self.buf.extend_from_slice(chunk);
        match parse(&self.buf) {
            Ok(h) => Ok(Some(h)),
            Err(e) => match e.needed() {
                Some(_) if short => Err(PrefixError::Truncated {
                    len: self.buf.len() as u64,
                }),
                Some(need) => {
                    self.want = need.max(self.want.saturating_mul(2)).min(MAX_HEADER_BYTES);
                    Ok(None)
                }
                None => Err(PrefixError::Header(e)),
            },
        }
    }

    /// Bytes taken so far.
    pub fn bytes(&self) -> u64 {
        self.buf.len() as u64
    }

    /// Chunks taken so far (requests, for a URL).
    pub fn requests(&self) -> u64 {
        self.requests
    }
}

/// Every file to read for `name`: its shards in order for a split file's
/// name (`…-00001-of-00003.gguf`, any of them), else `name` alone. A URL's
/// `?…` or `#…` part is kept on each.
pub fn shard_names(name: &str) -> Vec<String> {
    let cut = name.find(['?', '#']).unwrap_or(name.len());
    let (path, tail) = name.split_at(cut);
    match ShardName::parse(path) {
        Some(s) => (1..=s.count)
            .map(|n| format!("{}{tail}", s.name(n)))
            .collect(),
        None => vec![name.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gguf::writer::Writer;
    use crate::gguf::{GgmlType, Value};

    /// A header of about `tokens × 12` bytes.
    fn file(tokens: usize) -> Vec<u8> {
        let mut w = Writer::new();
        w.kv("general.architecture", Value::String("llama".into()));
        let vocab = (0..tokens)
            .map(|i| Value::String(format!("t{i:07}")))
            .collect();
        w.kv(
            "tokenizer.ggml.tokens",
            Value::Array {
                item: crate::gguf::ValueType::String,
                values: vocab,
            },
        );
        w.tensor("token_embd.weight", &[256, 64], GgmlType::Q8_0)
            .unwrap();
        w.file()
    }

    fn read_all(bytes: &[u8]) -> (Result<GgufHeader, PrefixError>, HeaderRead) {
        let mut r = HeaderRead::new();
        loop {
            let (start, len) = r.next_range();
            let s = (start as usize).min(bytes.len());
            let e = (start.saturating_add(len) as usize).min(bytes.len());
            match r.feed(&bytes[s..e]) {
                Ok(Some(h)) => return (Ok(h), r),
                Ok(None) => continue,
                Err(e) => return (Err(e), r),
            }
        }
    }

    #[test]
    fn a_small_header_takes_one_read() {
        let bytes = file(10);
        let (h, r) = read_all(&bytes);
        assert_eq!(h.unwrap().tensors.len(), 1);
        assert_eq!((r.requests(), r.bytes()), (1, bytes.len() as u64));
    }

    #[test]
    fn a_long_header_doubles_the_prefix() {
        // 200k tokens of 12 bytes each: a 2.4 MB header, data after it.
        let mut bytes = file(200_000);
        let header_len = bytes.len() as u64;
        bytes.resize(bytes.len() + (8 << 20), 0);
        let (h, r) = read_all(&bytes);
        assert!(h.is_ok());
        // 1 MiB, 2 MiB, 4 MiB: three reads, under twice the header.
        assert_eq!(r.requests(), 3);
        assert_eq!(r.bytes(), 4 << 20);
        assert!(r.bytes() < 2 * header_len);
    }

    #[test]
    fn a_file_cut_inside_its_header_is_truncated() {
        let bytes = file(200_000);
        let cut = &bytes[..1_500_000];
        let (h, _) = read_all(cut);
        assert_eq!(h.unwrap_err(), PrefixError::Truncated { len: 1_500_000 });
        let (h, _) = read_all(b"GGML not a gguf file at all");
        assert!(matches!(
            h,
            Err(PrefixError::Header(GgufError::NotGguf { .. }))
        ));
    }

    #[test]
    fn shards_are_named_from_any_of_them() {
        assert_eq!(
            shard_names("https://h/x/resolve/main/M-Q4_K_M-00002-of-00003.gguf?download=true"),
            [1, 2, 3].map(|n| format!(
                "https://h/x/resolve/main/M-Q4_K_M-0000{n}-of-00003.gguf?download=true"
            ))
        );
        assert_eq!(shard_names("model.gguf"), ["model.gguf"]);
    }
}
