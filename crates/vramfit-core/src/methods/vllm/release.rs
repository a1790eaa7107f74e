//! vLLM releases and what changes between them: one row per release
//! family ([`FAMILIES`]) and a row where a fact changes inside a family
//! ([`PATCHES`]: 0.8.5, 0.9.1), read by [`facts`] and nothing else. A new
//! release is a new row.
//!
//! Every fact names the release's own file and line it was read at
//! (`read: vLLM 0.20.0 vllm/config/cache.py:66`): each release's Python
//! source as published on PyPI (the wheel of that version), one release
//! per row (the row's first release where it was published, else the
//! first patch release: 0.14.0 read, 0.15.1, 0.22.1, 0.25.1 for 0.15,
//! 0.22, 0.25).

use crate::units::GIB;
use serde::Serialize;

pub use crate::scenario::VllmRelease;

impl VllmRelease {
    /// The newest release family this table holds.
    pub const NEWEST: VllmRelease = VllmRelease::new(0, 33, 0);
    /// The release a scenario runs when none is named: the newest one read,
    /// as `pip install vllm` gives it; a utilization not typed is its
    /// default ([`ReleaseFacts::gpu_memory_utilization`]).
    pub const DEFAULT: VllmRelease = VllmRelease::NEWEST;
    /// The release the method's runtime terms were measured on (the 47
    /// H100 start-up logs), and [`super::VllmInputs`]'s default.
    pub const MEASURED: VllmRelease = VllmRelease::new(0, 19, 0);
}

/// A fact and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: &'static str,
}

/// What a release does at start-up, where it differs across releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReleaseFacts {
    /// The first release the row holds for (`0.10.0`, `0.8.5`).
    pub first: VllmRelease,
    /// `--gpu-memory-utilization`'s default, in ten-thousandths.
    pub gpu_memory_utilization: Sourced<u32>,
    /// `--block-size`'s default on CUDA.
    pub block_size: Sourced<u64>,
    /// `vllm serve`'s batch defaults by GPU ([`BatchRule::defaults`]).
    pub batch_rule: Sourced<BatchRule>,
    /// What the profile counts as not for the KV cache.
    pub kv_budget: Sourced<KvBudget>,
    /// Whether the CUDA-graph pool is estimated during profiling and set
    /// aside before the KV cache is sized.
    pub graph_estimate: Sourced<GraphEstimate>,
}

impl ReleaseFacts {
    /// The estimated CUDA-graph pool is taken off the KV cache by default
    /// (`Estimated CUDA graph memory` before `Available KV cache memory`).
    pub const fn graphs_before_kv(&self) -> bool {
        matches!(self.graph_estimate.value, GraphEstimate::SetAside)
    }
}

/// `vllm serve`'s `(max_num_batched_tokens, max_num_seqs)` defaults
/// (usage context `OPENAI_API_SERVER`) by GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BatchRule {
    /// (8192, 1024) when the device name holds `h100` or `h200`, else
    /// (2048, 256) (0.8.0–0.8.4).
    H100OrH200ByName,
    /// (8192, 1024) on 70 GiB or more, else (2048, 256) (0.8.5).
    SeventyGib,
    /// (8192, 1024) on 70 GiB or more unless the name holds `a100`
    /// (PR #17885), else (2048, 256) (0.9–0.27).
    SeventyGibNotA100,
    /// (16384, 1024) on 160 GiB or more (B200, B300), else the 0.9 rule
    /// (0.28–0.32).
    Tiers160,
    /// The 0.28 tiers, with compute capability 12.1 (GB10) kept on the
    /// small defaults (0.33).
    Tiers160Gb10Small,
}

/// The GPU as `get_batch_defaults` sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BatchGpu {
    /// `get_device_total_memory()`: the memory CUDA reports.
    pub total_bytes: u64,
    /// The device name holds `a100`.
    pub a100: bool,
    /// The device name holds `h100` or `h200`.
    pub h100_or_h200: bool,
    /// Compute capability 12.1 (DGX Spark GB10).
    pub gb10: bool,
}

impl BatchRule {
    /// `(max_num_batched_tokens, max_num_seqs)` for `vllm serve` on `gpu`.
    ///
    /// ```
    /// use vramfit_core::methods::vllm::{BatchGpu, BatchRule};
    /// let b200 = BatchGpu { total_bytes: 178 << 30, ..BatchGpu::default() };
    /// assert_eq!(BatchRule::SeventyGibNotA100.defaults(b200), (8192, 1024));
    /// assert_eq!(BatchRule::Tiers160.defaults(b200), (16384, 1024));
    /// ```
    pub const fn defaults(self, gpu: BatchGpu) -> (u64, u64) {
        const HUGE: (u64, u64) = (16384, 1024);
        const LARGE: (u64, u64) = (8192, 1024);
        const SMALL: (u64, u64) = (2048, 256);
        let seventy = gpu.total_bytes >= 70 * GIB;
        let large = match self {
            BatchRule::H100OrH200ByName => gpu.h100_or_h200,
            BatchRule::SeventyGib => seventy,
            BatchRule::SeventyGibNotA100 | BatchRule::Tiers160 => seventy && !gpu.a100,
            BatchRule::Tiers160Gb10Small => seventy && !gpu.a100 && !gpu.gb10,
        };
        let huge = gpu.total_bytes >= 160 * GIB
            && matches!(self, BatchRule::Tiers160 | BatchRule::Tiers160Gb10Small);
        match (huge, large) {
            (true, _) => HUGE,
            (false, true) => LARGE,
            (false, false) => SMALL,
        }
    }
}

/// What a release's profile counts as memory not for the KV cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KvBudget {
    /// `KV = M_total · u − (torch peak + non-torch)`, the non-torch memory
    /// being all the device's memory outside PyTorch after profiling (the
    /// CUDA context and other processes included) (0.8.0–0.9.0).
    WholeDevice,
    /// `KV = ⌈M_total · u⌉ − (weights + torch peak growth + non-torch
    /// growth since the start-up snapshot)` (0.9.1–0.26).
    GrowthSinceStart,
    /// `KV = ⌈M_total · u⌉ − (free memory consumed since the start-up
    /// snapshot + torch peak above what stays allocated)`: PyTorch's
    /// cached blocks count (0.27 on). Read, not modelled: the estimate
    /// applies [`KvBudget::GrowthSinceStart`] and says so
    /// (`EngineNote::VllmConsumedMemoryNotModelled`).
    ///
    /// # Formula
    ///
    /// ```text
    /// non-KV(0.26) = W + (P − A₁) + (N₂ − N₀)
    /// non-KV(0.27) = (F₀ − F₂) + (P − A₂)
    ///              = non-KV(0.26) + Δ
    /// Δ            = B + (R₂ − A₂) − (R₀ − A₀),   B = A₁ − A₀ − W
    /// ```
    ///
    /// Symbols, at the start-up snapshot (0), the start of the profile (1)
    /// and after it (2): `F` free memory (`mem_get_info`), `A` PyTorch's
    /// allocated bytes, `R` its reserved bytes, `N = (M_total − F) − R`
    /// memory outside PyTorch, `P` the allocated peak of the profile run,
    /// `W` the weights ("Model loading took"). `B` is the tensors made
    /// after the snapshot outside model loading (the model runner's
    /// persistent buffers, the workspace manager); `R₂ − A₂` the free
    /// blocks PyTorch cannot give back after the profile run, because
    /// their segment holds a live block (`gc.collect()` and
    /// `empty_cache()` run before the measure); `R₀ − A₀` the same at the
    /// snapshot.
    ///
    /// Source: vLLM 0.27.0 `vllm/utils/mem_utils.py:303-306` (collect,
    /// empty the cache, measure), `:317-326` (consumed, headroom, sum),
    /// `vllm/v1/worker/gpu_worker.py:395` (the snapshot, before the
    /// workspace manager `:406` and the runner `:415-423`), `:500` (the
    /// profile), `:544` (the KV budget); the same at 0.33.0
    /// (`mem_utils.py:298-321`, `gpu_worker.py:686`, `:753`). From 0.31
    /// the profile run is under `max_split_size_mb=20` (`gpu_worker.py:624`
    /// at 0.31.0): blocks of 20 MiB or more are no longer split, so a
    /// segment a live block pins is at most 20 MiB; before, a small
    /// tensor carved from a freed multi-GiB activation pins all of it.
    /// `R₂ − A₂` follows the allocation order of the whole profile run
    /// (compiled kernels, libraries' workspaces), which vLLM's source does
    /// not give: Δ is not derived.
    ///
    /// Worked example: row 10 of `vllm-logs.csv` (Qwen3-Coder-30B-A3B on
    /// an A100 80GB, a 0.26.1 development build that prints 0.27's "consumed
    /// memory (weights + non-torch)"): `⌈79.25 · 0.9⌉ = 71.33` GiB, consumed
    /// 57.26, headroom 0.08 (its "peak activation" 0.23 less the graph
    /// estimate 0.15), KV 71.33 − 57.26 − 0.08 − 0.15 = 13.84 GiB as
    /// printed; the 0.26 accounting of the estimate gives 13.82.
    FreeMemoryConsumed,
}

/// Whether the CUDA-graph pool is profiled and set aside before the KV
/// cache (`VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphEstimate {
    /// No estimate (0.8–0.17).
    NotProfiled,
    /// Estimated and printed, not taken off by default (0.18–0.19).
    ProfiledOnly,
    /// Estimated and taken off the KV cache by default (0.20 on; the
    /// release's own start-up line says "default since v0.21.0", its
    /// `envs.py` sets it from 0.20.0).
    SetAside,
}

type Src<T> = (T, &'static str);

const fn row(
    (major, minor, patch): (u32, u32, u32),
    util: Src<u32>,
    block: &'static str,
    batch: Src<BatchRule>,
    budget: Src<KvBudget>,
    graphs: Src<GraphEstimate>,
) -> ReleaseFacts {
    ReleaseFacts {
        first: VllmRelease::new(major, minor, patch),
        gpu_memory_utilization: Sourced {
            value: util.0,
            source: util.1,
        },
        block_size: Sourced {
            value: 16,
            source: block,
        },
        batch_rule: Sourced {
            value: batch.0,
            source: batch.1,
        },
        kv_budget: Sourced {
            value: budget.0,
            source: budget.1,
        },
        graph_estimate: Sourced {
            value: graphs.0,
            source: graphs.1,
        },
    }
}

/// The release families from 0.8 (the first whose default engine is V1)
/// to [`VllmRelease::NEWEST`], oldest first, one per minor release.
pub const FAMILIES: &[ReleaseFacts] = &[
    row(
        (0, 8, 0),
        (9000, "read: vLLM 0.8.0 vllm/engine/arg_utils.py:126: default 0.90"),
        "read: vLLM 0.8.0 vllm/platforms/cuda.py:145: 16 on CUDA",
        (BatchRule::H100OrH200ByName, "read: vLLM 0.8.0 vllm/engine/arg_utils.py:1693: the large batch defaults when the device name holds h100 or h200"),
        (KvBudget::WholeDevice, "read: vLLM 0.8.0 vllm/v1/worker/gpu_worker.py:182: non-KV = torch peak since the profile began + all non-torch memory of the device after it"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.8.0 vllm/v1/worker/gpu_worker.py:182 (KV = total * u - (torch peak + non-torch now), no graph estimate)"),
    ),
    row(
        (0, 9, 0),
        (9000, "read: vLLM 0.9.0 vllm/config.py:1408: default 0.90"),
        "read: vLLM 0.9.0 vllm/platforms/cuda.py:137: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.9.0 vllm/engine/arg_utils.py:1495: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::WholeDevice, "read: vLLM 0.9.0 vllm/v1/worker/gpu_worker.py:210: non-KV = torch peak since the profile began + all non-torch memory of the device after it"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.9.0 vllm/v1/worker/gpu_worker.py:210 (KV = total * u - (torch peak + non-torch now), no graph estimate)"),
    ),
    row(
        (0, 10, 0),
        (9000, "read: vLLM 0.10.0 vllm/config.py:1626: default 0.90"),
        "read: vLLM 0.10.0 vllm/platforms/cuda.py:148: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.10.0 vllm/engine/arg_utils.py:1584: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.10.0 vllm/v1/worker/gpu_worker.py:246: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.10.0 vllm/v1/worker/gpu_worker.py:246 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 11, 0),
        (9000, "read: vLLM 0.11.0 vllm/config/cache.py:43: default 0.90"),
        "read: vLLM 0.11.0 vllm/platforms/cuda.py:127: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.11.0 vllm/engine/arg_utils.py:1605: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.11.0 vllm/v1/worker/gpu_worker.py:279: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.11.0 vllm/v1/worker/gpu_worker.py:279 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 12, 0),
        (9000, "read: vLLM 0.12.0 vllm/config/cache.py:49: default 0.90"),
        "read: vLLM 0.12.0 vllm/platforms/cuda.py:160: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.12.0 vllm/engine/arg_utils.py:1827: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.12.0 vllm/v1/worker/gpu_worker.py:341: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.12.0 vllm/v1/worker/gpu_worker.py:341 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 13, 0),
        (9000, "read: vLLM 0.13.0 vllm/config/cache.py:49: default 0.90"),
        "read: vLLM 0.13.0 vllm/platforms/cuda.py:161: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.13.0 vllm/engine/arg_utils.py:1797: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.13.0 vllm/v1/worker/gpu_worker.py:357: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.13.0 vllm/v1/worker/gpu_worker.py:357 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 14, 0),
        (9000, "read: vLLM 0.14.0 vllm/config/cache.py:50: default 0.90"),
        "read: vLLM 0.14.0 vllm/platforms/cuda.py:161: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.14.0 vllm/engine/arg_utils.py:1846: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.14.0 vllm/v1/worker/gpu_worker.py:341: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.14.0 vllm/v1/worker/gpu_worker.py:341 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 15, 0),
        (9000, "read: vLLM 0.15.1 vllm/config/cache.py:51: default 0.90"),
        "read: vLLM 0.15.1 vllm/platforms/cuda.py:161: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.15.1 vllm/engine/arg_utils.py:1837: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.15.1 vllm/v1/worker/gpu_worker.py:339: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.15.1 vllm/v1/worker/gpu_worker.py:339 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 16, 0),
        (9000, "read: vLLM 0.16.0 vllm/config/cache.py:49: default 0.90"),
        "read: vLLM 0.16.0 vllm/platforms/cuda.py:164: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.16.0 vllm/engine/arg_utils.py:1877: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.16.0 vllm/v1/worker/gpu_worker.py:356: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.16.0 vllm/v1/worker/gpu_worker.py:356 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 17, 0),
        (9000, "read: vLLM 0.17.0 vllm/config/cache.py:49: default 0.90"),
        "read: vLLM 0.17.0 vllm/platforms/cuda.py:179: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.17.0 vllm/engine/arg_utils.py:1974: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.17.0 vllm/v1/worker/gpu_worker.py:407: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.17.0 vllm/v1/worker/gpu_worker.py:407 (KV = requested - non-KV, no graph estimate)"),
    ),
    row(
        (0, 18, 0),
        (9000, "read: vLLM 0.18.0 vllm/config/cache.py:41: default 0.90"),
        "read: vLLM 0.18.0 vllm/config/cache.py:34: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.18.0 vllm/engine/arg_utils.py:2008: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.18.0 vllm/v1/worker/gpu_worker.py:437: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::ProfiledOnly, "read: vLLM 0.18.0 vllm/v1/worker/gpu_worker.py:437 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1636: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0"),
    ),
    row(
        (0, 19, 0),
        (9000, "read: vLLM 0.19.0 vllm/config/cache.py:41: default 0.90"),
        "read: vLLM 0.19.0 vllm/config/cache.py:34: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.19.0 vllm/engine/arg_utils.py:2053: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.19.0 vllm/v1/worker/gpu_worker.py:417: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::ProfiledOnly, "read: vLLM 0.19.0 vllm/v1/worker/gpu_worker.py:417 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1655: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 0"),
    ),
    row(
        (0, 20, 0),
        (9200, "read: vLLM 0.20.0 vllm/config/cache.py:66: default 0.92"),
        "read: vLLM 0.20.0 vllm/config/cache.py:45: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.20.0 vllm/engine/arg_utils.py:2208: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.20.0 vllm/v1/worker/gpu_worker.py:421: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.20.0 vllm/v1/worker/gpu_worker.py:421 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1725: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 21, 0),
        (9200, "read: vLLM 0.21.0 vllm/config/cache.py:66: default 0.92"),
        "read: vLLM 0.21.0 vllm/config/cache.py:45: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.21.0 vllm/engine/arg_utils.py:2246: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.21.0 vllm/v1/worker/gpu_worker.py:443: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.21.0 vllm/v1/worker/gpu_worker.py:443 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1769: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 22, 0),
        (9200, "read: vLLM 0.22.1 vllm/config/cache.py:66: default 0.92"),
        "read: vLLM 0.22.1 vllm/config/cache.py:45: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.22.1 vllm/engine/arg_utils.py:2311: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.22.1 vllm/v1/worker/gpu_worker.py:447: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.22.1 vllm/v1/worker/gpu_worker.py:447 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1955: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 23, 0),
        (9200, "read: vLLM 0.23.0 vllm/config/cache.py:67: default 0.92"),
        "read: vLLM 0.23.0 vllm/config/cache.py:46: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.23.0 vllm/engine/arg_utils.py:2316: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.23.0 vllm/v1/worker/gpu_worker.py:461: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.23.0 vllm/v1/worker/gpu_worker.py:461 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1979: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 24, 0),
        (9200, "read: vLLM 0.24.0 vllm/config/cache.py:67: default 0.92"),
        "read: vLLM 0.24.0 vllm/config/cache.py:46: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.24.0 vllm/engine/arg_utils.py:2404: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.24.0 vllm/v1/worker/gpu_worker.py:489: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.24.0 vllm/v1/worker/gpu_worker.py:489 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1895: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 25, 0),
        (9200, "read: vLLM 0.25.1 vllm/config/cache.py:68: default 0.92"),
        "read: vLLM 0.25.1 vllm/config/cache.py:47: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.25.1 vllm/engine/arg_utils.py:2426: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.25.1 vllm/v1/worker/gpu_worker.py:519: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.25.1 vllm/v1/worker/gpu_worker.py:519 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1932: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 26, 0),
        (9200, "read: vLLM 0.26.0 vllm/config/cache.py:68: default 0.92"),
        "read: vLLM 0.26.0 vllm/config/cache.py:47: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.26.0 vllm/engine/arg_utils.py:2460: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.26.0 vllm/v1/worker/gpu_worker.py:541: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::SetAside, "read: vLLM 0.26.0 vllm/v1/worker/gpu_worker.py:541 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:1987: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 27, 0),
        (9200, "read: vLLM 0.27.0 vllm/config/cache.py:68: default 0.92"),
        "read: vLLM 0.27.0 vllm/config/cache.py:47: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.27.0 vllm/engine/arg_utils.py:2544: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.27.0 vllm/v1/worker/gpu_worker.py:544; vllm/utils/mem_utils.py:317: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.27.0 vllm/v1/worker/gpu_worker.py:544 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2019: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 28, 0),
        (9200, "read: vLLM 0.28.0 vllm/config/cache.py:69: default 0.92"),
        "read: vLLM 0.28.0 vllm/config/cache.py:48: 16 on CUDA",
        (BatchRule::Tiers160, "read: vLLM 0.28.0 vllm/engine/arg_utils.py:2582: 16384 tokens on 160 GiB or more, else the 70 GiB, not-A100 rule"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.28.0 vllm/v1/worker/gpu_worker.py:559; vllm/utils/mem_utils.py:317: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.28.0 vllm/v1/worker/gpu_worker.py:559 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2094: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 29, 0),
        (9200, "read: vLLM 0.29.0 vllm/config/cache.py:111: default 0.92"),
        "read: vLLM 0.29.0 vllm/config/cache.py:79: 16 on CUDA",
        (BatchRule::Tiers160, "read: vLLM 0.29.0 vllm/engine/arg_utils.py:2698: 16384 tokens on 160 GiB or more, else the 70 GiB, not-A100 rule"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.29.0 vllm/v1/worker/gpu_worker.py:606; vllm/utils/mem_utils.py:317: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.29.0 vllm/v1/worker/gpu_worker.py:606 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2106: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 30, 0),
        (9200, "read: vLLM 0.30.0 vllm/config/cache.py:103: default 0.92"),
        "read: vLLM 0.30.0 vllm/config/cache.py:71: 16 on CUDA",
        (BatchRule::Tiers160, "read: vLLM 0.30.0 vllm/engine/arg_utils.py:2730: 16384 tokens on 160 GiB or more, else the 70 GiB, not-A100 rule"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.30.0 vllm/v1/worker/gpu_worker.py:621; vllm/utils/mem_utils.py:312: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.30.0 vllm/v1/worker/gpu_worker.py:621 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2110: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 31, 0),
        (9200, "read: vLLM 0.31.0 vllm/config/cache.py:103: default 0.92"),
        "read: vLLM 0.31.0 vllm/config/cache.py:71: 16 on CUDA",
        (BatchRule::Tiers160, "read: vLLM 0.31.0 vllm/engine/arg_utils.py:2858: 16384 tokens on 160 GiB or more, else the 70 GiB, not-A100 rule"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.31.0 vllm/v1/worker/gpu_worker.py:673; vllm/utils/mem_utils.py:312: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.31.0 vllm/v1/worker/gpu_worker.py:673 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2163: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 32, 0),
        (9200, "read: vLLM 0.32.0 vllm/config/cache.py:102: default 0.92"),
        "read: vLLM 0.32.0 vllm/config/cache.py:72: 16 on CUDA",
        (BatchRule::Tiers160, "read: vLLM 0.32.0 vllm/engine/arg_utils.py:2923: 16384 tokens on 160 GiB or more, else the 70 GiB, not-A100 rule"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.32.0 vllm/v1/worker/gpu_worker.py:740; vllm/utils/mem_utils.py:312: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.32.0 vllm/v1/worker/gpu_worker.py:740 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2222: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
    row(
        (0, 33, 0),
        (9200, "read: vLLM 0.33.0 vllm/config/cache.py:215: default 0.92"),
        "read: vLLM 0.33.0 vllm/config/cache.py:185: 16 on CUDA",
        (BatchRule::Tiers160Gb10Small, "read: vLLM 0.33.0 vllm/engine/arg_utils.py:2963: the 160 GiB tier, then the 70 GiB rule, neither A100 nor compute capability 12.1 (GB10)"),
        (KvBudget::FreeMemoryConsumed, "read: vLLM 0.33.0 vllm/v1/worker/gpu_worker.py:753; vllm/utils/mem_utils.py:312: non-KV = free memory consumed since the start-up snapshot + transient torch peak"),
        (GraphEstimate::SetAside, "read: vLLM 0.33.0 vllm/v1/worker/gpu_worker.py:753 (KV = requested - non-KV - the estimate where the flag is set); vllm/envs.py:2220: VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to 1"),
    ),
];

/// Rows where a fact changes inside a family, from the patch release
/// named.
pub const PATCHES: &[ReleaseFacts] = &[
    row(
        (0, 8, 5),
        (9000, "read: vLLM 0.8.5.post1 vllm/config.py:1308: default 0.90"),
        "read: vLLM 0.8.5.post1 vllm/platforms/cuda.py:143: 16 on CUDA",
        (BatchRule::SeventyGib, "read: vLLM 0.8.5.post1 vllm/engine/arg_utils.py:1596: the large batch defaults on 70 GiB or more"),
        (KvBudget::WholeDevice, "read: vLLM 0.8.5.post1 vllm/v1/worker/gpu_worker.py:208: non-KV = torch peak since the profile began + all non-torch memory of the device after it"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.8.5.post1 vllm/v1/worker/gpu_worker.py:208 (KV = total * u - (torch peak + non-torch now), no graph estimate)"),
    ),
    row(
        (0, 9, 1),
        (9000, "read: vLLM 0.9.1 vllm/config.py:1464: default 0.90"),
        "read: vLLM 0.9.1 vllm/platforms/cuda.py:140: 16 on CUDA",
        (BatchRule::SeventyGibNotA100, "read: vLLM 0.9.1 vllm/engine/arg_utils.py:1554: the large batch defaults on 70 GiB or more unless the name holds a100"),
        (KvBudget::GrowthSinceStart, "read: vLLM 0.9.1 vllm/v1/worker/gpu_worker.py:218: non-KV = weights + torch peak growth + non-torch growth since the start-up snapshot"),
        (GraphEstimate::NotProfiled, "read: vLLM 0.9.1 vllm/v1/worker/gpu_worker.py:218 (KV = requested - non-KV, no graph estimate)"),
    ),
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
    source: "read: vLLM 0.11.1 vllm/utils/mem_utils.py:86 and 0.19.0 vllm/utils/mem_utils.py:105 \
             (MemorySnapshot.measure: these three capabilities take psutil's available memory); \
             0.20.0 vllm/utils/mem_utils.py:109 asks the device instead (is_integrated_gpu, \
             vllm/platforms/cuda.py:552: CUDA's is_integrated property, the same three boards, \
             GH200 not); before 0.11.1 nothing (the Thor log of 0.10.2, vllm-logs.md row 3, \
             starts on 0.85 of the system's memory)",
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
/// assert!(!old.graphs_before_kv() && new.graphs_before_kv());
/// assert_eq!(new.gpu_memory_utilization.value, 9200);
/// assert!(release_facts(VllmRelease::new(0, 7, 3)).is_err());
/// ```
pub fn facts(release: VllmRelease) -> Result<&'static ReleaseFacts, ReleaseError> {
    let newest = FAMILIES[FAMILIES.len() - 1].first;
    if (release.major, release.minor) > (newest.major, newest.minor) {
        return Err(ReleaseError::Newer { release });
    }
    FAMILIES
        .iter()
        .chain(PATCHES)
        .filter(|f| f.first <= release)
        .max_by_key(|f| f.first)
        .ok_or(ReleaseError::BeforeV1 { release })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(major: u32, minor: u32, patch: u32) -> &'static ReleaseFacts {
        facts(VllmRelease::new(major, minor, patch)).unwrap()
    }

    #[test]
    fn families_are_ordered_and_cover_every_minor() {
        for pair in FAMILIES.windows(2) {
            assert_eq!(pair[1].first.minor, pair[0].first.minor + 1);
            assert_eq!(pair[1].first.patch, 0);
        }
        assert_eq!(FAMILIES[0].first, VllmRelease::new(0, 8, 0));
        assert_eq!(
            FAMILIES[FAMILIES.len() - 1].first.family(),
            VllmRelease::NEWEST.family()
        );
        // Every fact names the release file and line it was read at.
        for f in FAMILIES.iter().chain(PATCHES) {
            for source in [
                f.gpu_memory_utilization.source,
                f.block_size.source,
                f.batch_rule.source,
                f.kv_budget.source,
                f.graph_estimate.source,
            ] {
                assert!(source.starts_with("read: vLLM 0."), "{source}");
                assert!(source.contains(".py:"), "{source}");
            }
        }
    }

    #[test]
    fn a_patch_row_holds_from_its_patch_inside_the_family() {
        assert_eq!(at(0, 8, 4).batch_rule.value, BatchRule::H100OrH200ByName);
        assert_eq!(at(0, 8, 5).batch_rule.value, BatchRule::SeventyGib);
        assert_eq!(at(0, 9, 0).kv_budget.value, KvBudget::WholeDevice);
        assert_eq!(at(0, 9, 1).kv_budget.value, KvBudget::GrowthSinceStart);
        assert_eq!(at(0, 9, 2).kv_budget.value, KvBudget::GrowthSinceStart);
        assert_eq!(at(0, 10, 0).first, VllmRelease::new(0, 10, 0));
    }

    #[test]
    fn the_batch_rule_by_release() {
        let gpu = |gib: u64, a100, h100| BatchGpu {
            total_bytes: gib << 30,
            a100,
            h100_or_h200: h100,
            gb10: false,
        };
        let rule = |minor, patch| at(0, minor, patch).batch_rule.value;
        // An RTX PRO 6000 (95 GiB, not an H100): small at 0.8.0, large at 0.8.5.
        assert_eq!(rule(8, 0).defaults(gpu(95, false, false)), (2048, 256));
        assert_eq!(rule(8, 5).defaults(gpu(95, false, false)), (8192, 1024));
        // An A100 80GB: large at 0.8.5 only.
        assert_eq!(rule(8, 5).defaults(gpu(79, true, false)), (8192, 1024));
        assert_eq!(rule(19, 0).defaults(gpu(79, true, false)), (2048, 256));
        // A B200 (178 GiB): 16384 tokens from 0.28.
        assert_eq!(rule(27, 0).defaults(gpu(178, false, false)), (8192, 1024));
        assert_eq!(rule(28, 0).defaults(gpu(178, false, false)), (16384, 1024));
        // A GB10 (119.7 GiB, compute capability 12.1): small only at 0.33.
        let gb10 = BatchGpu {
            gb10: true,
            ..gpu(119, false, false)
        };
        assert_eq!(rule(32, 0).defaults(gb10), (8192, 1024));
        assert_eq!(rule(33, 0).defaults(gb10), (2048, 256));
    }

    #[test]
    fn utilization_is_0_92_from_0_20() {
        assert_eq!(at(0, 19, 1).gpu_memory_utilization.value, 9000);
        assert_eq!(at(0, 20, 0).gpu_memory_utilization.value, 9200);
        assert_eq!(at(0, 33, 0).gpu_memory_utilization.value, 9200);
    }

    #[test]
    fn jetson_and_spark_are_unified_gh200_is_not() {
        assert!(unified_memory(12, 1) && unified_memory(11, 0) && unified_memory(8, 7));
        assert!(!unified_memory(9, 0) && !unified_memory(12, 0));
    }

    #[test]
    fn graphs_move_before_the_cache_at_0_20() {
        assert_eq!(
            at(0, 17, 1).graph_estimate.value,
            GraphEstimate::NotProfiled
        );
        assert_eq!(
            at(0, 18, 0).graph_estimate.value,
            GraphEstimate::ProfiledOnly
        );
        assert!(!at(0, 19, 1).graphs_before_kv());
        assert!(at(0, 20, 0).graphs_before_kv());
        assert_eq!(at(0, 27, 0).kv_budget.value, KvBudget::FreeMemoryConsumed);
        assert!(matches!(
            facts(VllmRelease::new(0, 34, 0)),
            Err(ReleaseError::Newer { .. })
        ));
    }
}
