//! vLLM releases and what changes between them: one row per release
//! family ([`FAMILIES`]), read by [`facts`] and nothing else. A new release
//! is a new row.
//!
//! Every fact carries where it comes from. Where the release's own source
//! was read (0.19.0, the method's derivation) the file is named; where a
//! fact is known from what the release itself prints at start-up, the log
//! line and the log it was read in are named (`data/engines/vllm-logs.md`,
//! row N).

use crate::units::GIB;
use serde::Serialize;

pub use crate::scenario::VllmRelease;

impl VllmRelease {
    /// The newest release family this table holds.
    pub const NEWEST: VllmRelease = VllmRelease::new(0, 29, 0);
    /// The release a scenario runs when none is named: 0.19.0, the release
    /// whose source the method is derived from and the 47 H100 logs
    /// validate.
    pub const DEFAULT: VllmRelease = VllmRelease::new(0, 19, 0);
}

/// A fact and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: &'static str,
}

/// What a release family does at start-up, where it differs across
/// releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReleaseFacts {
    /// The first release of the family (`0.10.0`).
    pub first: VllmRelease,
    /// `--gpu-memory-utilization`'s default, in ten-thousandths.
    pub gpu_memory_utilization: Sourced<u32>,
    /// `--block-size`'s default on CUDA.
    pub block_size: Sourced<u64>,
    /// `vllm serve`'s `(max_num_batched_tokens, max_num_seqs)` on a GPU
    /// the family's [`BatchRule`] calls large, and otherwise.
    pub batch_defaults: Sourced<((u64, u64), (u64, u64))>,
    /// Which GPUs get the large batch defaults.
    pub batch_rule: Sourced<BatchRule>,
    /// The CUDA-graph pool is estimated during profiling and set aside
    /// before the KV cache is sized (`Estimated CUDA graph memory`).
    pub graphs_before_kv: Sourced<bool>,
}

/// Which GPUs get `vllm serve`'s large batch defaults (8192 tokens, 1024
/// sequences).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BatchRule {
    /// The device name holds `h100` or `h200` (0.8).
    H100OrH200ByName,
    /// The device holds 70 GiB or more and its name is not an A100's
    /// (0.11, 0.19).
    SeventyGibNotA100,
}

impl BatchRule {
    /// Whether a GPU of `total_bytes` gets the large defaults.
    pub const fn large(self, total_bytes: u64, a100: bool, h100_or_h200: bool) -> bool {
        match self {
            BatchRule::H100OrH200ByName => h100_or_h200,
            BatchRule::SeventyGibNotA100 => total_bytes >= 70 * GIB && !a100,
        }
    }
}

/// Each source below is a release's own file, read at the commit named
/// (`repository@commit path`, the function), or says *assumed* and from
/// which read release it is carried.
const UTIL_READ: &str = "read: vllm-project/vllm@c1d86421 vllm/config/cache.py, CacheConfig: \
                         gpu_memory_utilization Field(default=0.9) (a 0.12-era tree: it has \
                         kv_offloading_size); other families assumed unchanged";
const BLOCK_READ: &str = "read: vllm-project/vllm@c1d86421 vllm/config/cache.py: block_size has \
                          no static default, the platform sets it (16 on CUDA, \
                          check_and_update_config); other families assumed 16";
const BATCH_08: &str = "read: Farrrrland/vllm084@36ca3c65 (a copy of vLLM 0.8.4) \
                        vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1: \
                        OPENAI_API_SERVER 8192 tokens and 1024 sequences when 'h100' or 'h200' \
                        is in the device name, else 2048 and 256";
const BATCH_011: &str = "read: vllm-project/vllm@99d7eb5d (0.11: it deprecates --cuda-graph-sizes \
                         'in v0.13.0') vllm/engine/arg_utils.py, EngineArgs._set_default_args: \
                         OPENAI_API_SERVER 8192 and 1024 when get_device_total_memory() >= 70 \
                         GiB and 'a100' is not in the name (PR #17885), else 2048 and 256; \
                         max_num_seqs = min(default, max_num_batched_tokens)";
const BATCH_019: &str = "read: vLLM 0.19.0 vllm/engine/arg_utils.py (get_batch_defaults): the \
                         0.11 rule";
const BATCH_ASSUMED: &str = "assumed: the rule read at 0.11 and 0.19 (not read in this family); \
                             logs agree: 2048 on an A100 80GB at 0.10.1 (vllm-logs.md rows 1-2), \
                             8192 on an H100 at 0.10.0 (row 8)";
const GRAPHS_BEFORE: &str = "vLLM's own start-up line (gpu_worker.py at 0.27.1): 'CUDA graph \
                             memory profiling is enabled (default since v0.21.0)', quoted in \
                             gpustack/runner#251; 'Estimated CUDA graph memory' before 'Available \
                             KV cache memory' at 0.22.1, 0.25.1, 0.26.1 (vllm-logs.md rows 7, 5, \
                             10); the feature itself: vllm-project/vllm#30515 (off by default)";
const GRAPHS_AFTER: &str = "read: vllm-project/vllm@35d5cda1 vllm/v1/worker/gpu_worker.py, \
                            determine_available_memory: KV = requested_memory − \
                            non_kv_cache_memory, no graph estimate (a pre-0.21 tree); logs: KV \
                            memory = requested − (weights + peak + non-torch) at 0.10–0.19 \
                            (vllm-0.19-h100.csv; vllm-logs.md rows 1, 2, 6, 8, 9)";

const fn family(minor: u32, graphs_before_kv: bool) -> ReleaseFacts {
    let (rule, rule_source) = match minor {
        8 => (BatchRule::H100OrH200ByName, BATCH_08),
        11 => (BatchRule::SeventyGibNotA100, BATCH_011),
        19 => (BatchRule::SeventyGibNotA100, BATCH_019),
        _ => (BatchRule::SeventyGibNotA100, BATCH_ASSUMED),
    };
    ReleaseFacts {
        first: VllmRelease::new(0, minor, 0),
        gpu_memory_utilization: Sourced {
            value: 9000,
            source: UTIL_READ,
        },
        block_size: Sourced {
            value: 16,
            source: BLOCK_READ,
        },
        batch_defaults: Sourced {
            value: ((8192, 1024), (2048, 256)),
            source: rule_source,
        },
        batch_rule: Sourced {
            value: rule,
            source: rule_source,
        },
        graphs_before_kv: Sourced {
            value: graphs_before_kv,
            source: match graphs_before_kv {
                true => GRAPHS_BEFORE,
                false => GRAPHS_AFTER,
            },
        },
    }
}

/// The release families from 0.8 (the first whose default engine is V1)
/// to [`VllmRelease::NEWEST`], oldest first.
pub const FAMILIES: &[ReleaseFacts] = &[
    family(8, false),
    family(9, false),
    family(10, false),
    family(11, false),
    family(12, false),
    family(13, false),
    family(14, false),
    family(15, false),
    family(16, false),
    family(17, false),
    family(18, false),
    family(19, false),
    family(20, false),
    family(21, true),
    family(22, true),
    family(23, true),
    family(24, true),
    family(25, true),
    family(26, true),
    family(27, true),
    family(28, true),
    family(29, true),
];

/// The compute capabilities vLLM treats as sharing the system's memory
/// (Jetson Orin 8.7, Jetson Thor 11.0, DGX Spark GB10 12.1): there its
/// memory snapshot takes the free memory from the operating system
/// (`psutil.virtual_memory().available`) instead of `cudaMemGetInfo`, so
/// the start-up check and the non-torch growth follow the system's memory.
/// The KV cache is still `⌈M_total · u⌉` less weights, peak and non-torch.
/// GH200 (9.0) is not in the list: its GPU memory is its own HBM.
pub const UNIFIED_MEMORY: Sourced<&[(u32, u32)]> = Sourced {
    value: &[(8, 7), (11, 0), (12, 1)],
    source: "read: vllm-project/vllm@a6d5c390 vllm/utils/mem_utils.py, MemorySnapshot.measure \
             (shared_sysmem_device_mem_sms); the release it entered is not read (the Thor log \
             of 0.10.2, vllm-logs.md row 3, starts on 0.85 of the system's memory)",
};

/// Whether vLLM reads this compute capability's free memory from the
/// system ([`UNIFIED_MEMORY`]).
pub fn unified_memory(major: u32, minor: u32) -> bool {
    UNIFIED_MEMORY.value.contains(&(major, minor))
}

/// Why a release is not in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum ReleaseError {
    /// Before 0.8: the V0 engine, which profiles differently.
    BeforeV1 { release: VllmRelease },
    /// After the newest family the table holds.
    Newer { release: VllmRelease },
}

impl std::fmt::Display for ReleaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReleaseError::BeforeV1 { release } => write!(
                f,
                "vLLM {} runs the V0 engine by default, which vramfit does not model (0.8 or later)",
                release.text()
            ),
            ReleaseError::Newer { release } => write!(
                f,
                "vLLM {} is newer than the newest release vramfit knows ({})",
                release.text(),
                VllmRelease::NEWEST.family()
            ),
        }
    }
}

/// The facts of `release`'s family.
///
/// ```
/// use vramfit_core::methods::vllm::{release_facts, VllmRelease};
/// let old = release_facts(VllmRelease::new(0, 19, 0)).unwrap();
/// let new = release_facts(VllmRelease::new(0, 22, 1)).unwrap();
/// assert!(!old.graphs_before_kv.value && new.graphs_before_kv.value);
/// assert!(release_facts(VllmRelease::new(0, 7, 3)).is_err());
/// ```
pub fn facts(release: VllmRelease) -> Result<&'static ReleaseFacts, ReleaseError> {
    let newest = FAMILIES[FAMILIES.len() - 1].first;
    if (release.major, release.minor) > (newest.major, newest.minor) {
        return Err(ReleaseError::Newer { release });
    }
    FAMILIES
        .iter()
        .rev()
        .find(|f| f.first <= release)
        .ok_or(ReleaseError::BeforeV1 { release })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_ordered_and_cover_every_minor() {
        for pair in FAMILIES.windows(2) {
            assert_eq!(pair[1].first.minor, pair[0].first.minor + 1);
        }
        assert_eq!(FAMILIES[0].first, VllmRelease::new(0, 8, 0));
        assert_eq!(
            FAMILIES[FAMILIES.len() - 1].first.family(),
            VllmRelease::NEWEST.family()
        );
    }

    #[test]
    fn the_large_batch_rule_is_by_name_at_0_8_and_by_memory_later() {
        let at = |minor| {
            facts(VllmRelease::new(0, minor, 0))
                .unwrap()
                .batch_rule
                .value
        };
        // An RTX PRO 6000 (95 GiB, not an H100): small at 0.8, large from 0.9.
        let pro6000 = 95 * (1 << 30);
        assert!(!at(8).large(pro6000, false, false));
        assert!(at(11).large(pro6000, false, false));
        // An H100 is large either way; an A100 80GB never.
        assert!(at(8).large(80 << 30, false, true) && at(19).large(80 << 30, false, true));
        assert!(!at(8).large(80 << 30, true, false) && !at(19).large(80 << 30, true, false));
        assert!(facts(VllmRelease::new(0, 11, 2))
            .unwrap()
            .batch_rule
            .source
            .starts_with("read"));
    }

    #[test]
    fn jetson_and_spark_are_unified_gh200_is_not() {
        assert!(unified_memory(12, 1) && unified_memory(11, 0) && unified_memory(8, 7));
        assert!(!unified_memory(9, 0) && !unified_memory(12, 0));
    }

    #[test]
    fn graphs_move_before_the_cache_at_0_21() {
        let at = |minor| facts(VllmRelease::new(0, minor, 0)).unwrap();
        assert!(!at(20).graphs_before_kv.value);
        assert!(at(21).graphs_before_kv.value);
        assert!(matches!(
            facts(VllmRelease::new(0, 30, 0)),
            Err(ReleaseError::Newer { .. })
        ));
    }
}
