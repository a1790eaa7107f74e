//! Split GGUF files (`llama-gguf-split`): `NAME-00001-of-00003.gguf`, each
//! shard a GGUF file of its own with a header listing its own tensors; the
//! first holds the model's metadata, every shard `split.no`,
//! `split.count` and `split.tensors.count` (`examples/gguf-split`,
//! `src/llama-model-loader.cpp`).

use super::header::{GgufHeader, TensorInfo};
use serde::Serialize;

/// The parts of a shard's file name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardName {
    /// Everything before `-00001-of-00003.gguf`.
    pub prefix: String,
    /// 1-based.
    pub number: u32,
    pub count: u32,
}

impl ShardName {
    /// The shard parts of a file name or URL, `None` for a file that is
    /// not one shard of several.
    ///
    /// ```
    /// use vramfit_core::gguf::split::ShardName;
    /// let s = ShardName::parse("Q4_K_M/Model-Q4_K_M-00002-of-00003.gguf").unwrap();
    /// assert_eq!((s.number, s.count), (2, 3));
    /// assert_eq!(s.name(3), "Q4_K_M/Model-Q4_K_M-00003-of-00003.gguf");
    /// assert!(ShardName::parse("model.gguf").is_none());
    /// ```
    pub fn parse(name: &str) -> Option<ShardName> {
        let stem = name.strip_suffix(".gguf")?;
        let (rest, count) = stem.rsplit_once("-of-")?;
        let (prefix, number) = rest.rsplit_once('-')?;
        let digits = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(count) || !digits(number) {
            return None;
        }
        let (number, count) = (number.parse().ok()?, count.parse().ok()?);
        if number == 0 || number > count || count < 2 {
            return None;
        }
        Some(ShardName {
            prefix: prefix.to_string(),
            number,
            count,
        })
    }

    /// The name of shard `number` (1-based) of the same file.
    pub fn name(&self, number: u32) -> String {
        format!("{}-{number:05}-of-{:05}.gguf", self.prefix, self.count)
    }
}

/// Why shards do not make one model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum SplitError {
    /// Shard `index` (0-based, as given) states another `split.no`.
    ShardNumber { index: u64, states: Option<u64> },
    /// The shards state another `split.count` than were given.
    ShardCount { given: u64, states: Option<u64> },
    /// `split.tensors.count` differs from the tensors the shards list.
    TensorCount { listed: u64, states: u64 },
    /// A tensor in two shards.
    DuplicateTensor { tensor: String },
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let or_none = |v: &Option<u64>| v.map_or("nothing".to_string(), |v| v.to_string());
        match self {
            SplitError::ShardNumber { index, states } => {
                write!(f, "shard {} states split.no {}", index + 1, or_none(states))
            }
            SplitError::ShardCount { given, states } => write!(
                f,
                "{given} shards given, split.count states {}",
                or_none(states)
            ),
            SplitError::TensorCount { listed, states } => write!(
                f,
                "the shards list {listed} tensors, split.tensors.count states {states}"
            ),
            SplitError::DuplicateTensor { tensor } => {
                write!(f, "tensor `{tensor}` is in two shards")
            }
        }
    }
}

impl std::error::Error for SplitError {}

/// Every tensor of a model from its shards' headers, in shard order; the
/// first header's metadata is the model's. One header without `split.*`
/// keys is a whole file.
pub fn merge(shards: &[GgufHeader]) -> Result<Vec<TensorInfo>, SplitError> {
    let key = |h: &GgufHeader, k: &str| h.get(k).and_then(|v| v.as_u64());
    let given = shards.len() as u64;
    let mut tensors: Vec<TensorInfo> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, h) in shards.iter().enumerate() {
        let states = key(h, "split.count");
        let whole = given == 1 && states.is_none_or(|c| c <= 1);
        if !whole && states != Some(given) {
            return Err(SplitError::ShardCount { given, states });
        }
        let no = key(h, "split.no");
        if !whole && no != Some(i as u64) {
            return Err(SplitError::ShardNumber {
                index: i as u64,
                states: no,
            });
        }
        for t in &h.tensors {
            if !seen.insert(t.name.as_str()) {
                return Err(SplitError::DuplicateTensor {
                    tensor: t.name.clone(),
                });
            }
            tensors.push(t.clone());
        }
    }
    let states = shards.first().and_then(|h| key(h, "split.tensors.count"));
    match states {
        Some(states) if states != tensors.len() as u64 => Err(SplitError::TensorCount {
            listed: tensors.len() as u64,
            states,
        }),
        _ => Ok(tensors),
    }
}
