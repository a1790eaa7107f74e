//! The GPU catalog: `data/gpus.json`, embedded with `include_str!` and
//! parsed once (with the feature `embedded`), or a table installed at run
//! time ([`install`], [`checked_in`]).
//!
//! # Memory
//!
//! Three figures, never mixed:
//!
//! - `memory_gb` is the size as marketed, in the vendor's "GB", and
//!   [`Gpu::memory_bytes`] is exactly `memory_gb × 10⁹`. That is the figure
//!   every seed compares against ("cabe en una GPU de 24 GB"), the one a
//!   person types, and the one the estimator fits against.
//! - [`Gpu::capacity_bytes`] is the exact size the marketed number denotes:
//!   memory chips come in binary sizes, so an "80 GB" H100 holds 80 GiB
//!   (85,899,345,920 bytes), 7.4 % more than `memory_bytes`.
//! - [`Gpu::driver_total_bytes`] is what a driver reports as the total
//!   (nvidia-smi's MiB, NVML, DRM), where a public log shows it, with its
//!   source in [`Gpu::driver_total_source`]: an H100 SXM reports 81,559 MiB
//!   (what CUDA leaves to a process is less again: 79.19 GiB in vLLM's logs).
//!
//! Apple silicon shares the system's memory with the GPU
//! ([`Gpu::unified_memory`]); macOS lets the GPU wire only part of it by
//! default, [`Gpu::wired_limit_bytes`] ([`default_wired_limit`]).
//!
//! # Name resolution
//!
//! [`find_gpu`] accepts the short names people use (`RTX 4090`, `rtx4090`,
//! `H100`, `A100 80GB`, `h100 sxm`, `MI300X`, `M3 Max`). Case, spaces,
//! dashes and other separators are ignored, and so are vendor and brand
//! words (`NVIDIA`, `GeForce`, `AMD`, `Instinct`, `Radeon`, `Intel`, `Arc`,
//! `Apple`, `Tesla`, `GPU`). In order:
//!
//! 1. **Exact**: the query's key equals a name's key, with or without the
//!    parenthesised part (`B200` is `NVIDIA B200 (HGX/DGX B200, per GPU)`).
//! 2. **Tokens**: names are cut into atoms, runs of letters or of digits
//!    (`h100 sxm5` → `h`, `100`, `sxm`, `5`). A name matches when every
//!    query atom is one of its atoms (any order) and every atom of its
//!    *identity* is in the query. The identity is the name outside
//!    parentheses less its qualifiers: memory sizes (`80GB`), form factors
//!    (`SXM*`, `PCIe`, `NVL`) and the words `RTX`, `RX`, `Generation`, `Edition`,
//!    `Server`, `Workstation`, `Blackwell`. So `4090` finds the RTX 4090 and
//!    `h100 sxm` the H100 SXM5, but `RTX 4060` does not silently become the
//!    16 GB `RTX 4060 Ti`, nor `MI300` the `MI300X`: those are other cards.
//! 3. **Default variant**: when every match is a variant of the same chip
//!    (same identity: `H100` → PCIe, SXM5, NVL), the default is the SXM
//!    module if there is one, then the variant with the most memory. This
//!    is the part cloud instances and most published figures mean by the
//!    bare name: `H100` → H100 SXM5, `A100` → A100 80GB SXM4, `A100 40GB`
//!    → A100 40GB SXM4, `A100 PCIe` → A100 80GB PCIe, `V100` → V100 32GB.
//! 4. Otherwise a [`NotFound`]: for several matches of different chips,
//!    the matches; for none, up to three names by edit distance
//!    ([`fuzzy::suggest`]).

pub mod apu;
mod interconnect;
pub use interconnect::Interconnect;

use super::NotFound;
use crate::units::{Bytes, DisplayUnit, GIB};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The checked-in catalog.
const GPUS_JSON: &str = include_str!("../../../data/gpus.json");

/// Market segment of an accelerator, as the data file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GpuCategory {
    /// Gaming cards (GeForce).
    Consumer,
    /// Professional desktop and server cards (RTX A6000, RTX 6000 Ada).
    Workstation,
    /// Training-class data-center accelerators (A100, H100, MI300X).
    Datacenter,
    /// Inference-class data-center cards (L4, L40S, T4, A10).
    DatacenterInference,
    /// Apple silicon, whose GPU shares the system's unified memory.
    AppleUnified,
    /// Laptop GPUs (GeForce Laptop GPU): the laptop maker sets the power
    /// limit, so speed varies between laptops.
    Laptop,
}

/// One accelerator of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gpu {
    /// Full name, unique in the catalog (`NVIDIA GeForce RTX 4090`).
    pub name: String,
    /// `NVIDIA`, `AMD`, `Apple`, `Intel`.
    pub vendor: String,
    pub category: GpuCategory,
    /// Memory as marketed, in decimal GB (10⁹ bytes).
    pub memory_gb: f64,
    /// `memory_gb × 10⁹`, rounded to the byte: the marketed size in bytes.
    pub memory_bytes: Bytes,
    /// `GDDR6X`, `HBM3e`, `LPDDR5X unified`, ...
    pub memory_type: Option<String>,
    /// The exact size the marketed number denotes, in bytes (80 GiB for an
    /// "80 GB" H100).
    pub capacity_bytes: u64,
    /// The total a driver reports, in bytes, where a public log shows it.
    pub driver_total_bytes: Option<u64>,
    /// What reports [`Gpu::driver_total_bytes`] and where it is shown.
    pub driver_total_source: Option<String>,
    /// The total CUDA reports to a process (`cudaMemGetInfo`,
    /// `torch.cuda.mem_get_info()[1]`), in bytes, where a public log shows
    /// it: what vLLM multiplies by `gpu_memory_utilization`, a few hundred
    /// MiB below the driver's total.
    pub cuda_total_bytes: Option<u64>,
    /// Where [`Gpu::cuda_total_bytes`] is shown.
    pub cuda_total_source: Option<String>,
    /// CUDA compute capability (NVIDIA GPUs).
    pub compute_capability: Option<ComputeCapability>,
    /// Streaming multiprocessors (NVIDIA GPUs), where known.
    pub sm_count: Option<u32>,
    /// How several of these GPUs are usually linked (PCIe cards, NVLink
    /// bridges, SXM modules on an NVSwitch board); its source under
    /// `verification["interconnect"]`. `None`: not stated.
    pub interconnect: Option<Interconnect>,
    /// The GPU shares the system's memory (Apple silicon).
    pub unified_memory: bool,
    /// For unified memory, how much of it macOS lets the GPU wire by
    /// default ([`default_wired_limit`] of [`Gpu::capacity_bytes`]).
    pub wired_limit_bytes: Option<u64>,
    /// Memory bandwidth, in decimal GB/s (10⁹ bytes per second).
    pub bandwidth_gb_s: f64,
    /// Dense (no structured sparsity) BF16 tensor throughput, TFLOPS.
    pub bf16_dense_tflops: Option<f64>,
    /// Dense FP16 tensor throughput with FP32 accumulate, TFLOPS (the
    /// datasheets' figure; GeForce: half the FP16-accumulate rate).
    pub fp16_dense_tflops: Option<f64>,
    /// Dense FP16 tensor throughput with FP16 accumulate, TFLOPS: what
    /// llama.cpp's cuBLAS path computes in (`CUBLAS_COMPUTE_16F`); the
    /// same as [`Gpu::fp16_dense_tflops`] except on GeForce cards, twice it.
    pub fp16_acc16_dense_tflops: Option<f64>,
    /// Dense INT8 tensor throughput, TOPS.
    pub int8_dense_tops: Option<f64>,
    /// Native FP8 tensor support.
    pub fp8_support: bool,
    /// Dense FP8 tensor throughput, TFLOPS.
    pub fp8_dense_tflops: Option<f64>,
    /// Native FP4 tensor support.
    pub fp4_support: bool,
    /// Dense FP4 tensor throughput, TFLOPS.
    pub fp4_dense_tflops: Option<f64>,
    /// Native INT4 tensor support; `None` where not verified.
    pub int4_support: Option<bool>,
    /// Field → where it was checked (or `unverified`).
    pub verification: BTreeMap<String, String>,
    /// Full source strings.
    pub sources: Vec<String>,
    pub notes: Option<String>,
}

/// A CUDA compute capability, `major.minor` (`9.0` for Hopper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ComputeCapability {
    pub major: u32,
    pub minor: u32,
}

impl ComputeCapability {
    /// From the file's `"9.0"`.
    ///
    /// ```
    /// use vramfit_core::catalog::gpus::ComputeCapability;
    /// assert_eq!(ComputeCapability::parse("12.0"), Some(ComputeCapability { major: 12, minor: 0 }));
    /// assert_eq!(ComputeCapability::parse("9"), None);
    /// ```
    pub fn parse(text: &str) -> Option<ComputeCapability> {
        let (major, minor) = text.trim().split_once('.')?;
        Some(ComputeCapability {
            major: major.parse().ok()?,
            minor: minor.parse().ok()?,
        })
    }
}

/// One row exactly as the file spells it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GpuRow {
    name: String,
    vendor: String,
    category: GpuCategory,
    memory_gb: f64,
    memory_type: Option<String>,
    capacity_bytes: u64,
    #[serde(default)]
    driver_total_bytes: Option<u64>,
    #[serde(default)]
    driver_total_source: Option<String>,
    #[serde(default)]
    cuda_total_bytes: Option<u64>,
    #[serde(default)]
    cuda_total_source: Option<String>,
    #[serde(default)]
    compute_capability: Option<String>,
    #[serde(default)]
    sm_count: Option<u32>,
    #[serde(default)]
    interconnect: Option<Interconnect>,
    #[serde(default)]
    unified_memory: bool,
    bandwidth_gb_s: f64,
    bf16_dense_tflops: Option<f64>,
    fp16_dense_tflops: Option<f64>,
    #[serde(default)]
    fp16_acc16_dense_tflops: Option<f64>,
    #[serde(default)]
    int8_dense_tops: Option<f64>,
    fp8_support: bool,
    fp8_dense_tflops: Option<f64>,
    int4_support: Option<bool>,
    fp4_support: bool,
    fp4_dense_tflops: Option<f64>,
    #[serde(default)]
    verification: BTreeMap<String, String>,
    #[serde(default)]
    sources: Vec<String>,
    notes: Option<String>,
}

impl Gpu {
    /// Whether several of this accelerator can hold one model between them,
    /// as the methods' `gpus` count means (cards or modules in one machine,
    /// or machines on a fast fabric). Apple silicon cannot: its GPU is part
    /// of a Mac, and several Macs are a cluster over Thunderbolt or Ethernet
    /// (llama.cpp's RPC backend, exo), which no method here models.
    pub fn gangs(&self) -> bool {
        self.category != GpuCategory::AppleUnified
    }
}

/// The whole file: a readme and the rows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    #[serde(rename = "_readme")]
    _readme: Option<String>,
    gpus: Vec<GpuRow>,
}

/// How much of a Mac's unified memory the GPU may wire by default: Metal's
/// `MTLDevice.recommendedMaxWorkingSetSize` on a machine nobody has tuned
/// (`sysctl iogpu.wired_limit_mb` raises it).
///
/// # Formula
///
/// `limit = ⌊capacity × 2 / 3⌋` for `capacity ≤ 36 GiB`, else
/// `⌊capacity × 3 / 4⌋`, with `capacity` the unified memory in bytes.
///
/// Source: the values Metal reports, printed by llama.cpp's Metal backend
/// (`ggml_metal_init: recommendedMaxWorkingSetSize`, in MiB) in public
/// issues: 16 GiB → 10922.67 (abetlen/llama-cpp-python#687),
/// 32 GiB → 21845.34 (ollama/ollama#434, ggml-org/llama.cpp#2011),
/// 64 GiB → 49152.00 (ggml-org/llama.cpp#1870), 96 GiB → 73728.00
/// (ggml-org/llama.cpp#3213); 16 GB M4 10.67 GB (exo-explore/exo#1672).
/// The 36 GiB boundary (the M3 Pro's largest size) is not covered by those
/// logs. Newer macOS can allow more: 107.52 GiB was measured on a 128 GiB
/// machine under macOS 26 (antirez/ds4#893), against 96 GiB by this rule.
///
/// ```
/// use vramfit_core::catalog::gpus::default_wired_limit;
/// const GIB: u64 = 1 << 30;
/// assert_eq!(default_wired_limit(64 * GIB), 48 * GIB);
/// assert_eq!(default_wired_limit(32 * GIB), 22_906_492_245); // 21845.33 MiB
/// ```
pub fn default_wired_limit(capacity_bytes: u64) -> u64 {
    let c = u128::from(capacity_bytes);
    let limit = if c <= 36 * u128::from(GIB) {
        c * 2 / 3
    } else {
        c * 3 / 4
    };
    crate::units::saturate(limit)
}

impl From<GpuRow> for Gpu {
    fn from(row: GpuRow) -> Gpu {
        Gpu {
            memory_bytes: Bytes::from_unit(row.memory_gb, DisplayUnit::Gb),
            name: row.name,
            vendor: row.vendor,
            category: row.category,
            memory_gb: row.memory_gb,
            memory_type: row.memory_type,
            capacity_bytes: row.capacity_bytes,
            driver_total_bytes: row.driver_total_bytes,
            driver_total_source: row.driver_total_source,
            cuda_total_bytes: row.cuda_total_bytes,
            cuda_total_source: row.cuda_total_source,
            compute_capability: row
                .compute_capability
                .as_deref()
                .and_then(ComputeCapability::parse),
            sm_count: row.sm_count,
            interconnect: row.interconnect,
            unified_memory: row.unified_memory,
            wired_limit_bytes: row
                .unified_memory
                .then(|| default_wired_limit(row.capacity_bytes)),
            bandwidth_gb_s: row.bandwidth_gb_s,
            bf16_dense_tflops: row.bf16_dense_tflops,
            fp16_dense_tflops: row.fp16_dense_tflops,
            fp16_acc16_dense_tflops: row.fp16_acc16_dense_tflops,
            int8_dense_tops: row.int8_dense_tops,
            fp8_support: row.fp8_support,
            fp8_dense_tflops: row.fp8_dense_tflops,
            fp4_support: row.fp4_support,
            fp4_dense_tflops: row.fp4_dense_tflops,
            int4_support: row.int4_support,
            verification: row.verification,
            sources: row.sources,
            notes: row.notes,
        }
    }
}

/// Parses a catalog document.
fn parse(text: &str) -> Result<Vec<Gpu>, serde_json::Error> {
    let file: CatalogFile = serde_json::from_str(text)?;
    Ok(file.gpus.into_iter().map(Gpu::from).collect())
}

/// The table [`install`] was given, if any.
static INSTALLED: OnceLock<Vec<Gpu>> = OnceLock::new();

/// Every GPU of the catalog in use, in file order: the table given to
/// [`install`], else (feature `embedded`) the checked-in one, parsed on
/// first use, else none.
///
/// The checked-in file is guaranteed to parse by this module's tests; if
/// it ever could not, this returns an empty list rather than panicking.
pub fn all() -> &'static [Gpu] {
    match INSTALLED.get() {
        Some(installed) => installed,
        None => compiled_in(),
    }
}

#[cfg(feature = "embedded")]
fn compiled_in() -> &'static [Gpu] {
    static CATALOG: OnceLock<Vec<Gpu>> = OnceLock::new();
    CATALOG.get_or_init(checked_in)
}

#[cfg(not(feature = "embedded"))]
fn compiled_in() -> &'static [Gpu] {
    &[]
}

/// The checked-in table (`data/gpus.json`), parsed: what a front end built
/// without the feature `embedded` gives to [`install`] once it has loaded
/// the code that calls this (the web app: with its `details` chunk, so that
/// the table is not part of the first load). Empty if the file could not
/// be parsed, which this module's tests rule out.
pub fn checked_in() -> Vec<Gpu> {
    parse(GPUS_JSON).unwrap_or_default()
}

/// Makes `gpus` the catalog of [`all`], [`find_gpu`] and everything that
/// uses them, for the rest of the process. Only the first call counts: a
/// later one gives its table back as the error. Install before the first
/// lookup: a lookup made earlier found the checked-in table (feature
/// `embedded`) or nothing.
pub fn install(gpus: Vec<Gpu>) -> Result<(), Vec<Gpu>> {
    INSTALLED.set(gpus)
}

/// The full names of every GPU, in file order.
pub fn names() -> impl Iterator<Item = &'static str> {
    all().iter().map(|g| g.name.as_str())
}

/// Resolves a GPU name as people write it; see the module documentation
/// for the rules.
///
/// ```
/// use vramfit_core::catalog::find_gpu;
/// assert_eq!(find_gpu("rtx4090").unwrap().name, "NVIDIA GeForce RTX 4090");
/// assert_eq!(find_gpu("H100").unwrap().name, "NVIDIA H100 SXM5");
/// assert_eq!(find_gpu("A100 80GB").unwrap().memory_bytes.get(), 80_000_000_000);
/// let miss = find_gpu("RTX 4909").unwrap_err();
/// assert_eq!(miss.suggestions[0], "NVIDIA GeForce RTX 4090");
/// ```
pub fn find_gpu(query: &str) -> Result<&'static Gpu, NotFound> {
    resolve(all(), query)
}

mod resolve;
#[cfg(test)]
mod tests;

use resolve::resolve;
