//! How the scenario's GPUs are used: `GPUs = TP × PP × replicas`.
//!
//! One meaning for every method. A person picks a GPU count; unless they
//! also set the tensor-parallel (TP) or pipeline-parallel (PP) degree, the
//! count is one copy of the model spread over all of them
//! ([`Layout::spread`]): the largest TP that divides the count, fits in
//! one node and splits the heads as vLLM requires, and PP for the rest.
//! Set TP or PP (the other is then 1), and the GPUs left over hold more
//! copies of the model (`replicas`), each serving its share of the
//! sequences.
//!
//! Methods that spread a model (`range`, `planner`) estimate the GPUs of
//! one copy; the single-device methods (`quick`, `lesson`, `allocator`)
//! estimate one GPU holding a whole copy, so they refuse a layout with
//! `TP × PP > 1` and estimate replicas (`TP = PP = 1`) one GPU at a time.

use crate::catalog::gpus::Gpu;
use serde::Serialize;
use std::fmt;

/// GPUs in one node (one server): tensor parallelism stays inside it, as
/// its all-reduces need NVLink-class bandwidth, and pipeline parallelism
/// crosses nodes. Eight is the HGX/DGX board and seed 001's "maximaal
/// 8 GPU's, één server".
pub const GPUS_PER_NODE: u64 = 8;

/// The heads tensor parallelism splits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heads {
    /// Query (attention) heads; `None` for typed numbers that do not say.
    pub attention: Option<u64>,
    /// Key/value heads.
    pub kv: u64,
    /// Decoder layers: at most one pipeline stage per layer.
    pub layers: u64,
}

impl Heads {
    /// Whether `tp` GPUs can split these heads as vLLM requires.
    ///
    /// # Formula
    ///
    /// `H mod TP = 0`, and `K mod TP = 0` when `TP < K`, else
    /// `TP mod K = 0` (each KV head then replicated `TP / K` times), with
    /// `H` the attention heads and `K` the key/value heads.
    ///
    /// Source: vLLM `vllm/config/model.py`, `verify_with_parallel_config`
    /// ("Total number of attention heads (…) must be divisible by tensor
    /// parallel size (…)"), and `vllm/model_executor/layers/linear.py`,
    /// `QKVParallelLinear.__init__` (`divide(total_num_kv_heads, tp_size)`
    /// or `divide(tp_size, total_num_kv_heads)`, `divide` asserting an
    /// exact division).
    ///
    /// ```
    /// use vramfit_core::scenario::Heads;
    /// let llama_70b = Heads { attention: Some(64), kv: 8, layers: 80 };
    /// assert!(llama_70b.splits(8));
    /// assert!(llama_70b.splits(16)); // each KV head on 2 GPUs
    /// assert!(!llama_70b.splits(3));
    /// assert!(!llama_70b.splits(6)); // 64 heads do not split 6 ways
    /// ```
    pub fn splits(&self, tp: u64) -> bool {
        if tp == 0 {
            return false;
        }
        let attention = self.attention.is_none_or(|h| h.is_multiple_of(tp));
        let kv = self.kv.max(1);
        let kv_ok = if tp < kv {
            kv.is_multiple_of(tp)
        } else {
            tp.is_multiple_of(kv)
        };
        attention && kv_ok
    }
}

/// How the GPUs are used: `gpus = tp × pp × replicas`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Every GPU of the deployment.
    pub gpus: u64,
    /// Tensor-parallel degree: GPUs that split each layer.
    pub tp: u64,
    /// Pipeline-parallel degree: stages of consecutive layers.
    pub pp: u64,
    /// Copies of the model, each on `tp × pp` GPUs.
    pub replicas: u64,
    /// Derived from the GPU count ([`Layout::spread`]) rather than set.
    pub derived: bool,
}

/// Why the GPUs cannot be used as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LayoutError {
    /// `TP × PP` does not divide the GPU count.
    NotDivisible { gpus: u64, tp: u64, pp: u64 },
    /// TP does not split the attention or KV heads.
    Heads {
        tp: u64,
        attention: Option<u64>,
        kv: u64,
    },
    /// More pipeline stages than layers.
    Stages { pp: u64, layers: u64 },
    /// No TP and PP spread this many GPUs over the model (more GPUs than
    /// stages and head splits allow).
    NoSpread { gpus: u64 },
    /// More than one of a GPU that is one per machine and that several of
    /// cannot hold a model as one deployment
    /// ([`crate::catalog::gpus::Gpu::gangs`]: a Mac's).
    OneDevice { gpus: u64 },
}

/// A GPU count in words: "1 GPU", "2 GPUs".
///
/// ```
/// use vramfit_core::scenario::gpu_count;
/// assert_eq!(gpu_count(1), "1 GPU");
/// assert_eq!(gpu_count(8), "8 GPUs");
/// ```
pub fn gpu_count(n: u64) -> String {
    match n {
        1 => "1 GPU".to_string(),
        n => format!("{n} GPUs"),
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LayoutError::NotDivisible { gpus, tp, pp } => write!(
                f,
                "TP {tp} × PP {pp} = {} per copy of the model does not divide {}",
                gpu_count(tp.saturating_mul(pp)),
                gpu_count(gpus)
            ),
            LayoutError::Heads { tp, attention, kv } => match attention {
                Some(h) => write!(
                    f,
                    "TP {tp} does not split {h} attention heads and {kv} KV heads"
                ),
                None => write!(f, "TP {tp} does not split {kv} KV heads"),
            },
            LayoutError::Stages { pp, layers } => {
                write!(
                    f,
                    "PP {pp} is more pipeline stages than the {layers} layers"
                )
            }
            LayoutError::NoSpread { gpus } => {
                write!(f, "no TP × PP spreads the model over {}", gpu_count(gpus))
            }
            LayoutError::OneDevice { gpus } => write!(
                f,
                "a Mac has one GPU: {} would be a cluster of Macs over the \
                 network, which vramfit does not model; use 1",
                gpu_count(gpus)
            ),
        }
    }
}

impl Layout {
    /// One GPU, one copy.
    pub const SINGLE: Layout = Layout {
        gpus: 1,
        tp: 1,
        pp: 1,
        replicas: 1,
        derived: true,
    };

    /// GPUs per copy of the model, `tp × pp`.
    pub const fn per_replica(&self) -> u64 {
        self.tp.saturating_mul(self.pp)
    }

    /// Whether one copy of the model spans more than one GPU.
    pub const fn spreads(&self) -> bool {
        self.per_replica() > 1
    }

    /// Refuses more than one of a GPU that several of cannot hold a model
    /// ([`crate::catalog::gpus::Gpu::gangs`]: a Mac's); `gpu` is `None` for
    /// typed memory, which gangs.
    pub fn on_one_device(gpus: u64, gpu: Option<&Gpu>) -> Result<(), LayoutError> {
        match gpu {
            Some(g) if gpus > 1 && !g.gangs() => Err(LayoutError::OneDevice { gpus }),
            _ => Ok(()),
        }
    }

    /// `gpus` GPUs holding one copy of the model: the largest `TP` that
    /// divides `gpus`, is at most [`GPUS_PER_NODE`] and splits the heads
    /// ([`Heads::splits`]), and `PP = gpus / TP` (at most one stage per
    /// layer).
    ///
    /// ```
    /// use vramfit_core::scenario::{Heads, Layout};
    /// let h = Heads { attention: Some(64), kv: 8, layers: 80 };
    /// let four = Layout::spread(4, h).unwrap();
    /// assert_eq!((four.tp, four.pp, four.replicas), (4, 1, 1));
    /// let three = Layout::spread(3, h).unwrap(); // 64 heads do not split 3 ways
    /// assert_eq!((three.tp, three.pp), (1, 3));
    /// let sixteen = Layout::spread(16, h).unwrap(); // two nodes of 8
    /// assert_eq!((sixteen.tp, sixteen.pp), (8, 2));
    /// ```
    pub fn spread(gpus: u64, heads: Heads) -> Result<Layout, LayoutError> {
        let gpus = gpus.max(1);
        (1..=gpus.min(GPUS_PER_NODE))
            .rev()
            .filter(|tp| gpus.is_multiple_of(*tp) && heads.splits(*tp))
            .map(|tp| Layout {
                gpus,
                tp,
                pp: gpus / tp,
                replicas: 1,
                derived: true,
            })
            .find(|l| l.pp <= heads.layers.max(1))
            .ok_or(LayoutError::NoSpread { gpus })
    }

    /// `gpus` GPUs with `tp` and `pp` as set: `replicas = gpus / (tp ×
    /// pp)`, which must be whole; `tp` must split the heads and `pp` be
    /// at most the layers.
    pub fn chosen(gpus: u64, tp: u64, pp: u64, heads: Heads) -> Result<Layout, LayoutError> {
        let (tp, pp) = (tp.max(1), pp.max(1));
        let per_replica = tp.saturating_mul(pp);
        if !gpus.is_multiple_of(per_replica) || gpus < per_replica {
            return Err(LayoutError::NotDivisible { gpus, tp, pp });
        }
        if !heads.splits(tp) {
            return Err(LayoutError::Heads {
                tp,
                attention: heads.attention,
                kv: heads.kv,
            });
        }
        if pp > heads.layers.max(1) {
            return Err(LayoutError::Stages {
                pp,
                layers: heads.layers,
            });
        }
        Ok(Layout {
            gpus,
            tp,
            pp,
            replicas: gpus / per_replica,
            derived: false,
        })
    }

    /// The GPU counts worth suggesting, up to `max`: those whose spread
    /// keeps TP within a node at its fullest (`TP = min(n, 8)`, PP only
    /// across whole nodes), so a suggestion never asks for a split vLLM
    /// would refuse or a pipeline inside a node (never 3 GPUs for 32 or
    /// 64 heads).
    ///
    /// ```
    /// use vramfit_core::scenario::{Heads, Layout};
    /// let h = Heads { attention: Some(32), kv: 8, layers: 32 };
    /// assert_eq!(Layout::suggested_counts(h, 32), [1, 2, 4, 8, 16, 24, 32]);
    /// ```
    pub fn suggested_counts(heads: Heads, max: u64) -> Vec<u64> {
        (1..=max)
            .filter(|n| Layout::spread(*n, heads).is_ok_and(|l| l.tp == (*n).min(GPUS_PER_NODE)))
            .collect()
    }

    /// Sequences each copy of the model serves: `⌈sequences / replicas⌉`.
    pub fn per_replica_sequences(&self, sequences: u64) -> u64 {
        sequences.div_ceil(self.replicas.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLAMA_8B: Heads = Heads {
        attention: Some(32),
        kv: 8,
        layers: 32,
    };

    #[test]
    fn spreading_never_splits_heads_vllm_would_refuse() {
        for n in 1..=64 {
            match Layout::spread(n, LLAMA_8B) {
                Ok(l) => {
                    assert_eq!(l.per_replica() * l.replicas, n);
                    assert!(LLAMA_8B.splits(l.tp) && l.tp <= GPUS_PER_NODE, "{n}: {l:?}");
                    assert!(l.pp <= LLAMA_8B.layers, "{n}: {l:?}");
                }
                // 33 GPUs: TP 1 (no larger divisor splits the heads) and 33
                // stages for 32 layers.
                Err(e) => assert!(n > 32 && e == LayoutError::NoSpread { gpus: n }, "{n}"),
            }
        }
        // 40 query heads and 8 KV heads (Qwen2.5-14B): 8 divides both.
        let qwen = Heads {
            attention: Some(40),
            kv: 8,
            layers: 48,
        };
        assert_eq!(Layout::spread(8, qwen).unwrap().tp, 8);
        let odd = Heads {
            attention: Some(28),
            kv: 4,
            layers: 28,
        };
        let six = Layout::spread(6, odd).unwrap();
        assert_eq!((six.tp, six.pp), (2, 3));
    }

    #[test]
    fn a_chosen_layout_is_checked() {
        assert_eq!(
            Layout::chosen(3, 2, 1, LLAMA_8B),
            Err(LayoutError::NotDivisible {
                gpus: 3,
                tp: 2,
                pp: 1
            })
        );
        assert_eq!(
            Layout::chosen(3, 3, 1, LLAMA_8B),
            Err(LayoutError::Heads {
                tp: 3,
                attention: Some(32),
                kv: 8
            })
        );
        let replicas = Layout::chosen(8, 2, 1, LLAMA_8B).unwrap();
        assert_eq!((replicas.replicas, replicas.derived), (4, false));
        assert_eq!(replicas.per_replica_sequences(10), 3);
        let tiny = Heads {
            attention: Some(4),
            kv: 4,
            layers: 2,
        };
        assert_eq!(
            Layout::chosen(4, 1, 4, tiny),
            Err(LayoutError::Stages { pp: 4, layers: 2 })
        );
        assert_eq!(
            Layout::spread(64, tiny),
            Err(LayoutError::NoSpread { gpus: 64 })
        );
    }

    #[test]
    fn suggested_counts_are_whole_nodes_beyond_eight() {
        let gpt_oss = Heads {
            attention: Some(64),
            kv: 8,
            layers: 24,
        };
        let counts = Layout::suggested_counts(gpt_oss, 64);
        assert!(!counts.contains(&3) && !counts.contains(&6) && !counts.contains(&12));
        assert_eq!(&counts[..5], &[1, 2, 4, 8, 16]);
    }
}
