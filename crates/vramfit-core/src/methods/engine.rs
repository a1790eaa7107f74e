//! What the two engine methods (`vllm`, `llamacpp`) share above their own
//! modules: the engine's own figures in the report (`estimate.engine`),
//! why an engine does not take a scenario, what an estimate assumes, and
//! the GPU as the engine sees it.

use crate::catalog::gpus::{ComputeCapability, Gpu};
use crate::gguf::{FileType, GgmlType};
use crate::methods::llamacpp::LayoutProblem;
use crate::methods::vllm::StartError;
use crate::model::Family;
use crate::scenario::{Scenario, WeightFormat};
use serde::Serialize;

/// The engine's own figures: `estimate.engine` in the `vramfit/1`
/// document, absent for the other methods.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum EngineReport {
    Vllm(VllmReport),
    Llamacpp(LlamacppReport),
}

impl EngineReport {
    /// The value a knob left empty ran at: the engine's own default as
    /// resolved for this scenario (the release, the GPU, the model), for a
    /// page to show beside "auto"; `None` where the report does not say.
    ///
    /// ```
    /// use vramfit_core::methods::{run, MethodId};
    /// use vramfit_core::scenario::{EngineField, ModelRef, ScenarioInput};
    /// let mut input = ScenarioInput {
    ///     model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B-Instruct".into())),
    ///     ..ScenarioInput::default()
    /// };
    /// input.set_gpu("H100 SXM");
    /// let r = run(MethodId::Vllm, &input.validate().unwrap()).unwrap();
    /// let e = r.engine.unwrap();
    /// assert_eq!(e.as_run(EngineField::GpuMemoryUtilization), Some(0.92));
    /// assert_eq!(e.as_run(EngineField::MaxNumSeqs), Some(1024.0));
    /// assert_eq!(e.as_run(EngineField::NGpuLayers), None);
    /// ```
    pub fn as_run(&self, field: crate::scenario::EngineField) -> Option<f64> {
        use crate::scenario::EngineField as F;
        match (self, field) {
            (EngineReport::Vllm(v), F::GpuMemoryUtilization) => Some(v.gpu_memory_utilization),
            (EngineReport::Vllm(v), F::MaxNumBatchedTokens) => {
                Some(v.max_num_batched_tokens as f64)
            }
            (EngineReport::Vllm(v), F::MaxNumSeqs) => Some(v.max_num_seqs as f64),
            (EngineReport::Llamacpp(l), F::NGpuLayers) => Some(l.gpu_layers as f64),
            (
                _,
                F::GpuMemoryUtilization
                | F::MaxNumBatchedTokens
                | F::MaxNumSeqs
                | F::BlockSize
                | F::NGpuLayers
                | F::NCpuMoe
                | F::Ubatch
                | F::OtherMemoryGib
                | F::BiosVramGib,
            ) => None,
        }
    }
}

/// What `vllm serve` reports at start-up (bytes are the limiting worker's).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VllmReport {
    /// "Model loading took".
    pub weights_bytes: u64,
    /// "torch peak memory increase".
    pub activation_peak_bytes: u64,
    /// "non-torch forward increase memory".
    pub non_torch_bytes: u64,
    /// "Available KV cache memory".
    pub kv_cache_bytes: u64,
    /// "GPU KV cache size: N tokens".
    pub kv_cache_tokens: u64,
    /// "Graph capturing finished ..., took X GiB" (after the KV cache).
    pub cuda_graph_bytes: u64,
    /// The largest `--max-model-len` that starts with this memory.
    pub max_model_len_fits: u64,
    /// "Maximum concurrency for N tokens per request".
    pub max_concurrency: f64,
    /// The `vllm serve` line.
    pub command: String,
    /// The total memory of one GPU the estimate starts from (what CUDA
    /// reports, or the closest figure known: see `notes`).
    pub gpu_total_bytes: u64,
    /// The error vLLM would print, if it would not start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_error: Option<StartError>,
    /// What the estimate assumed or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<EngineNote>,
    /// The vLLM release modelled (`--vllm-version`; default the newest).
    pub vllm_version: crate::scenario::VllmRelease,
    /// `--gpu-memory-utilization` as run: the one typed, else the
    /// release's default (0.9 to 0.19, 0.92 from 0.20).
    pub gpu_memory_utilization: f64,
    /// `--max-num-batched-tokens` as run: the one typed, else the
    /// release's default for the GPU ([`crate::methods::vllm::batch_defaults`]).
    pub max_num_batched_tokens: u64,
    /// `--max-num-seqs` as run, likewise.
    pub max_num_seqs: u64,
    /// "Estimated CUDA graph memory" set aside before the KV cache (0.20
    /// on; 0 before and with `--enforce-eager`).
    pub graph_reserve_bytes: u64,
    /// The runtime terms (non-torch memory, NCCL, the graph estimate),
    /// whether measured on this GPU class or assumed, and from where.
    pub runtime: crate::methods::vllm::RuntimeRow,
    /// How fast the plan runs (`None` without a catalog GPU's figures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<crate::methods::speed::SpeedEstimate>,
}

/// A vision projector's part of the plan (`llama-server --mmproj FILE`).
///
/// `tools/mtmd/clip.cpp` (`clip_ctx`) runs the projector on the default
/// GPU backend (`ggml_backend_init_by_type(GPU)`: the first GPU, device 0,
/// unless `MTMD_BACKEND_DEVICE` names another) and loads its weights into
/// that backend's buffer unless `--no-mmproj-offload`. Its compute buffers
/// are what `ggml_backend_sched_reserve` takes for the clip graph of one
/// image of `warmup_image_size` (`alloc_compute_meta`), replayed by
/// [`crate::methods::llamacpp::clip`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProjectorPart {
    /// The file's name.
    pub file: String,
    /// `clip.projector_type`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projector_type: Option<String>,
    /// The GPU that holds it (its index in the plan's devices).
    pub device: usize,
    /// Its tensors' bytes, in that GPU's model buffer.
    pub weights_bytes: u64,
    /// Its compute buffers for the warm-up image (in the plan's GPU and
    /// host compute buffers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute: Option<crate::methods::llamacpp::clip::ClipCompute>,
    /// Why its compute buffers are not sized (a projector type whose graph
    /// is not replayed), where they are not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_sized: Option<String>,
}

/// Where llama.cpp puts each byte for a GGUF file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlamacppReport {
    /// "model size": the GGUF file's tensors.
    pub model_size_bytes: u64,
    /// K and V caches together, all layers.
    pub kv_cache_bytes: u64,
    pub k_bytes: u64,
    pub v_bytes: u64,
    /// GPU and host compute buffers together.
    pub compute_buffer_bytes: u64,
    /// The CPU backend's compute buffer (host memory: `CUDA_Host`, or `CPU`
    /// on Metal).
    pub host_compute_bytes: u64,
    /// The BLAS backend's compute buffer (host memory, `CPU`; 0 without a
    /// BLAS backend: macOS builds have one by default).
    pub blas_compute_bytes: u64,
    /// Where the compute buffers are calibrated from the user's own load
    /// log (`--calibrate LOG`): the terms fitted on it, which scaled the
    /// replay; absent: ggml's allocator replayed as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_calibrated_from_log: Option<Box<crate::scenario::LlamacppCalibration>>,
    /// The logits buffer (host).
    pub output_buffer_bytes: u64,
    /// Everything on the GPU.
    pub gpu_bytes: u64,
    /// Everything in host memory.
    pub host_bytes: u64,
    /// "offloaded N/M layers to GPU": N.
    pub gpu_layers: u64,
    /// M (the repeating layers and the output layer).
    pub layers_total: u64,
    /// The most layers whose GPU side fits the GPU, at this context.
    pub max_gpu_layers: u64,
    /// The longest context (a multiple of 256, at most the model's) that
    /// fits at these layers; `None` if not even 256 cells.
    pub max_context: Option<u64>,
    /// The GGUF file type.
    pub file_type: FileType,
    /// The `llama-server` line.
    pub command: String,
    /// What the estimate assumed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<EngineNote>,
    /// Where the plan puts the model: layers and experts on the host, and
    /// the host memory checked.
    pub plan: super::llamacpp::plan::LlamacppPlan,
    /// Each GPU's part, with several GPUs or tensor overrides (its model,
    /// KV and compute buffers, the layers whose cache it holds).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<crate::methods::llamacpp::devices::DevicePlan>,
    /// The host's part with them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<crate::methods::llamacpp::devices::HostPlan>,
    /// The GPU that runs out first as the context grows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limiting_gpu: Option<usize>,
    /// The vision projector loaded beside the model (`--mmproj`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projector: Option<Box<ProjectorPart>>,
    /// LM Studio's guardrail on this plan (`--runner lmstudio`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lmstudio_guardrail: Option<crate::methods::llamacpp::runner::GuardrailCheck>,
    /// How fast the plan runs (`None` without a catalog GPU's figures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<crate::methods::speed::SpeedEstimate>,
}

/// Something an engine estimate assumed or left out, for every front end
/// to say in its own words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum EngineNote {
    /// The catalog has no figure of what CUDA reports for this GPU; the
    /// driver's total is used (CUDA reports a few hundred MiB less).
    DriverTotalUsed,
    /// Neither CUDA's nor the driver's total is known for this GPU; its
    /// nominal capacity is used.
    NominalCapacityUsed,
    /// The GPU's SM count is not known: an H100's 132 is assumed.
    SmCountAssumed,
    /// The GPU's compute capability is not known: Hopper's 33 MiB of GEMM
    /// workspaces are assumed.
    ArchitectureAssumed,
    /// Not an NVIDIA GPU: the accounting is CUDA's.
    NotCuda,
    /// vLLM caches keys and values in the model dtype unless FP8 is asked:
    /// the KV bytes of the scenario are not used.
    KvFollowsModelDtype { bytes: u64 },
    /// The checkpoint asks for an FP8 KV cache (ModelOpt's
    /// `kv_cache_quant_algo`), which vLLM uses unless told otherwise.
    KvFp8FromCheckpoint,
    /// The checkpoint's quantization method is not modelled: its layers
    /// are counted at the model dtype.
    QuantizationNotModelled { method: String },
    /// A multimodal model whose vision tower is not known: not counted.
    VisionTowerNotCounted,
    /// A vision tower the reader counts but the engine's own tower rules
    /// do not know: its weights counted whole on every GPU, its dummy
    /// images not profiled.
    VisionProfileNotCounted,
    /// The CUDA graphs do not fit in what the utilization leaves: vLLM may
    /// run out of memory while capturing them.
    CudaGraphsBeyondMemory,
    /// The GPU shares the system's memory as vLLM reads it (Jetson Orin,
    /// Jetson Thor, DGX Spark: [`crate::methods::vllm::UNIFIED_MEMORY`]): its
    /// start-up check compares the system's available memory, less what
    /// the system and other programs hold (`--other-memory-gib`), with
    /// what it requests.
    VllmUnifiedMemory,
    /// No GGUF type was chosen: Q4_K_M, the most common download.
    GgufDefault,
    /// llama.cpp was read through a runner's preset (Ollama, LM Studio):
    /// the `llama-server` options it sets.
    LlamacppRunner {
        runner: crate::scenario::Runner,
        line: String,
    },
    /// The llama.cpp build whose cache layouts were taken (`None`: the
    /// newest), and the layout changes it lies between the known builds
    /// of (taken as before them).
    LlamacppBuild {
        build: Option<u32>,
        unsure: Vec<String>,
    },
    /// llama.cpp's host part is above the host memory given; with the file
    /// mapped (`mmap`, the default) its pages are read from disk again,
    /// without it the load fails.
    HostMemoryAbove {
        host_bytes: u64,
        host_ram_bytes: u64,
        mapped: bool,
    },
    /// The scenario's KV bytes name no llama.cpp cache type: f16, its
    /// default, is used.
    CacheTypeDefault,
    /// Apple silicon: Metal lets the GPU wire only part of the unified
    /// memory by default; that limit is used.
    WiredLimitUsed,
    /// Apple silicon: the model fits the unified memory but not the
    /// default wired limit; `sudo sysctl iogpu.wired_limit_mb=N` raises it.
    RaiseWiredLimit { mb: u64 },
    /// AMD APU on Linux: the GPU may use the BIOS's dedicated VRAM plus
    /// GTT (by default half of the rest of the memory); that sum is used.
    GttLimitUsed { vram_bytes: u64, gtt_bytes: u64 },
    /// AMD APU: the model fits the memory but not the default GTT; these
    /// kernel options raise it (`ttm.pages_limit` in 4 KiB pages,
    /// `amdgpu.gttsize` in MiB).
    RaiseGttLimit { pages_limit: u64, gttsize_mb: u64 },
    /// Unified memory that CUDA reports whole (DGX Spark): all of it is
    /// used.
    UnifiedTotalUsed,
    /// vLLM 0.27 on counts everything consumed since start-up against the
    /// KV cache (PyTorch's cached blocks included); the estimate counts as
    /// 0.26 does ([`crate::methods::vllm::KvBudget::FreeMemoryConsumed`]:
    /// the runner's buffers and the blocks the profile run leaves cached
    /// are not modelled).
    VllmConsumedMemoryNotModelled,
}

/// A GiB as a float, for notes.
const GIB_F: f64 = (1u64 << 30) as f64;

impl std::fmt::Display for EngineNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineNote::DriverTotalUsed => f.write_str(
                "the total CUDA reports for this GPU is not known: the driver's total is used \
                 (CUDA reports a few hundred MiB less)",
            ),
            EngineNote::NominalCapacityUsed => f.write_str(
                "neither CUDA's nor the driver's total is known for this GPU: its nominal \
                 capacity is used",
            ),
            EngineNote::SmCountAssumed => {
                f.write_str("the GPU's SM count is not known: an H100's 132 is assumed")
            }
            EngineNote::ArchitectureAssumed => f.write_str(
                "the GPU's compute capability is not known: Hopper's 33 MiB of cuBLAS \
                 workspaces are assumed",
            ),
            EngineNote::NotCuda => f.write_str("not an NVIDIA GPU: the accounting is CUDA's"),
            EngineNote::KvFollowsModelDtype { bytes } => write!(
                f,
                "vLLM caches keys and values in the model dtype ({bytes} bytes) unless FP8 is asked"
            ),
            EngineNote::KvFp8FromCheckpoint => f.write_str(
                "the checkpoint's kv_cache_quant_algo is FP8: vLLM caches keys and values in FP8 \
                 (1 byte) unless --kv-cache-dtype says otherwise",
            ),
            EngineNote::QuantizationNotModelled { method } => write!(
                f,
                "quantization '{method}' is not modelled: its layers are counted at the model dtype"
            ),
            EngineNote::VisionTowerNotCounted => {
                f.write_str("the vision tower of this multimodal model is not counted")
            }
            EngineNote::VisionProfileNotCounted => f.write_str(
                "the vision tower's weights are counted, whole on every GPU; the dummy images \
                 vLLM encodes while profiling it are not",
            ),
            EngineNote::VllmUnifiedMemory => f.write_str(
                "unified memory: vLLM starts only if the system's available memory covers what \
                 it requests; what the system and other programs hold is --other-memory-gib",
            ),
            EngineNote::CudaGraphsBeyondMemory => f.write_str(
                "the CUDA graphs do not fit in what the utilization leaves: vLLM may run out \
                 of memory while capturing them",
            ),
            EngineNote::GgufDefault => {
                f.write_str("no GGUF type chosen: Q4_K_M, the most common download")
            }
            EngineNote::LlamacppRunner { runner, line } => write!(
                f,
                "runner preset: {} (data/engines/llamacpp-runners.csv); the llama.cpp options \
                 it sets: {line}",
                runner.name()
            ),
            EngineNote::HostMemoryAbove {
                host_bytes,
                host_ram_bytes,
                mapped,
            } => write!(
                f,
                "llama.cpp's host part ({:.2} GiB) is above the host memory ({:.2} GiB): {}",
                *host_bytes as f64 / GIB_F,
                *host_ram_bytes as f64 / GIB_F,
                match mapped {
                    true => "the mapped file's pages would be read from disk again and again",
                    false => "with --no-mmap the load fails",
                }
            ),
            EngineNote::LlamacppBuild { build: None, .. } => f.write_str(
                "llama.cpp build: the newest cache layouts (MLA without a V cache, PR #19067); \
                 --llamacpp-build bNNNN for an older build",
            ),
            EngineNote::LlamacppBuild {
                build: Some(b),
                unsure,
            } => match unsure.is_empty() {
                true => write!(f, "llama.cpp build b{b}: its cache layouts"),
                false => write!(
                    f,
                    "llama.cpp build b{b}: its cache layouts; not known either way for {}, \
                     taken as before the change",
                    unsure.join(", ")
                ),
            },
            EngineNote::CacheTypeDefault => {
                f.write_str("the KV bytes name no llama.cpp cache type: f16, its default, is used")
            }
            EngineNote::WiredLimitUsed => f.write_str(
                "Apple silicon: the GPU's default share of the unified memory (Metal's wired \
                 limit) is used",
            ),
            EngineNote::RaiseWiredLimit { mb } => write!(
                f,
                "it fits the unified memory once the wired limit is raised: \
                 sudo sysctl iogpu.wired_limit_mb={mb} (until the next restart)"
            ),
            EngineNote::GttLimitUsed {
                vram_bytes,
                gtt_bytes,
            } => write!(
                f,
                "AMD APU: the GPU's limit is the BIOS's VRAM ({:.2} GiB; --bios-vram-gib, 0.50 \
                 assumed) plus Linux's default GTT ({:.2} GiB, half of the rest)",
                *vram_bytes as f64 / GIB_F,
                *gtt_bytes as f64 / GIB_F
            ),
            EngineNote::RaiseGttLimit {
                pages_limit,
                gttsize_mb,
            } => write!(
                f,
                "it fits the memory once GTT is raised: boot with the kernel options \
                 ttm.pages_limit={pages_limit} amdgpu.gttsize={gttsize_mb}"
            ),
            EngineNote::UnifiedTotalUsed => f.write_str(
                "unified memory: CUDA reports the whole system memory as the GPU's, which is used",
            ),
            EngineNote::VllmConsumedMemoryNotModelled => f.write_str(
                "vLLM 0.27 and later count everything consumed since start-up against the KV \
                 cache, PyTorch's cached blocks included; vramfit counts as 0.26 does, without \
                 the model runner's buffers and the blocks the profile run leaves cached, so \
                 vLLM's KV cache may be somewhat smaller (the one log of this accounting \
                 checked is within 0.02 GiB)",
            ),
        }
    }
}

/// Why an engine method does not estimate a scenario. Carried by
/// [`super::Refusal::Engine`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "engine_refusal")]
pub enum EngineRefusal {
    /// The engine does not load weights in this format (vLLM: only the
    /// checkpoint as published, a 16- or 32-bit dtype or FP8 online;
    /// llama.cpp: GGUF types).
    Format { format: WeightFormat },
    /// A context above the model's: vLLM stops ("User-specified
    /// max_model_len ... is greater than the derived max_model_len");
    /// llama.cpp runs it past the trained context, which the model was not
    /// trained for.
    ContextAboveModel { context: u64, max: u64 },
    /// vLLM: the attention heads do not divide over the tensor-parallel
    /// GPUs.
    HeadsNotDivisible { heads: u64, tp: u64 },
    /// vLLM: the padded vocabulary does not divide over the GPUs.
    VocabNotDivisible { vocab: u64, tp: u64 },
    /// vLLM: more pipeline stages than layers.
    StagesOverLayers { pp: u64, layers: u64 },
    /// vLLM: `--quantization fp8` on a checkpoint quantized otherwise.
    QuantizationConflict,
    /// llama.cpp: an architecture whose GGUF layout is not derived.
    Architecture { family: Family },
    /// llama.cpp: a part of the model its architecture's layout does not
    /// hold.
    Layout { problem: LayoutProblem },
    /// llama.cpp: a quantized V cache without flash attention.
    QuantizedVNeedsFlashAttention { cache_type_v: GgmlType },
    /// llama.cpp: a cache row that is not a whole number of blocks.
    CacheRowNotBlocks {
        cache_type: GgmlType,
        row: u64,
        block: u64,
    },
    /// llama.cpp: a tensor no type fallback fits (`llama-quantize` stops).
    NoTypeFallback { row: u64, ggml_type: GgmlType },
    /// llama.cpp: more sequences at once than it has slots for
    /// (`LLAMA_MAX_SEQ`).
    TooManySequences { max: u64 },
    /// vLLM: a release vramfit does not model (before 0.8, the V0
    /// engine; or newer than `newest`).
    VllmRelease {
        release: crate::scenario::VllmRelease,
        newest: crate::scenario::VllmRelease,
    },
    /// An input the engine refuses outright (a value out of its range).
    Input,
    /// vLLM has no Metal backend: it does not run on Apple silicon's GPU
    /// (`vllm/platforms/`: CUDA, ROCm, TPU, XPU, CPU). llama.cpp runs there
    /// (its Metal backend), and so do Ollama and LM Studio, which run it.
    NoMetalBackend,
    /// vLLM loads checkpoints published in this format (AWQ, GPTQ, INT8,
    /// MXFP4) but does not quantize a checkpoint to it: the published
    /// checkpoints of the model in that format are what to load
    /// (`vllm::published_checkpoints`).
    LoadsButDoesNotQuantize { format: WeightFormat },
    /// LM Studio's model-loading guardrail stops the load: the plan takes
    /// more than the level lets a load take of the GPUs' memory and the
    /// host RAM ([`crate::methods::llamacpp::runner::guardrail`]).
    LmStudioGuardrail {
        level: crate::scenario::LmStudioGuardrail,
        load_bytes: u64,
        limit_bytes: u64,
        machine_bytes: u64,
    },
}

impl std::fmt::Display for EngineRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineRefusal::Format { format } => {
                write!(f, "the engine does not load weights in {}", format.label())
            }
            EngineRefusal::LmStudioGuardrail {
                level,
                load_bytes,
                limit_bytes,
                machine_bytes,
            } => write!(
                f,
                "LM Studio's guardrail ({}) stops the load: it takes {} of the {} its level allows \
                 (GPU memory + RAM: {}); --lmstudio-guardrail relaxed, off or custom:GIB to load it",
                level.arg(),
                crate::units::Bytes(*load_bytes).display(crate::units::DisplayUnit::Gb),
                crate::units::Bytes(*limit_bytes).display(crate::units::DisplayUnit::Gb),
                crate::units::Bytes(*machine_bytes).display(crate::units::DisplayUnit::Gb)
            ),
            EngineRefusal::ContextAboveModel { context, max } => write!(
                f,
                "a context of {context} tokens is above the model's maximum ({max} tokens)"
            ),
            EngineRefusal::HeadsNotDivisible { heads, tp } => write!(
                f,
                "Total number of attention heads ({heads}) must be divisible by tensor \
                 parallel size ({tp})"
            ),
            EngineRefusal::VocabNotDivisible { vocab, tp } => write!(
                f,
                "the padded vocabulary ({vocab}) does not divide over {tp} GPUs"
            ),
            EngineRefusal::StagesOverLayers { pp, layers } => write!(
                f,
                "{pp} pipeline stages for {layers} layers: a stage would hold no layer"
            ),
            EngineRefusal::QuantizationConflict => f.write_str(
                "the checkpoint is quantized with another method than --quantization fp8",
            ),
            EngineRefusal::Architecture { family } => write!(
                f,
                "the llama.cpp tensor layout of the {family:?} family is not derived"
            ),
            EngineRefusal::Layout { problem } => {
                write!(f, "the model has {problem}, which its llama.cpp layout does not hold")
            }
            EngineRefusal::QuantizedVNeedsFlashAttention { cache_type_v } => write!(
                f,
                "a {cache_type_v} V cache needs flash attention; llama.cpp refuses it without"
            ),
            EngineRefusal::CacheRowNotBlocks {
                cache_type,
                row,
                block,
            } => write!(
                f,
                "a cache row of {row} values is not a whole number of {cache_type} blocks of {block}"
            ),
            EngineRefusal::NoTypeFallback { row, ggml_type } => write!(
                f,
                "rows of {row} values fit no block of {ggml_type}; llama-quantize stops"
            ),
            EngineRefusal::TooManySequences { max } => {
                write!(f, "llama.cpp serves at most {max} sequences at once")
            }
            EngineRefusal::VllmRelease { release, newest } => write!(
                f,
                "vLLM {} is not modelled: vramfit knows the V1 engine's releases 0.8 to {}",
                release.text(),
                newest.family()
            ),
            EngineRefusal::Input => f.write_str("an input the engine does not accept"),
            EngineRefusal::NoMetalBackend => f.write_str(
                "vLLM has no Metal backend: it does not run on Apple silicon's GPU; \
                 llama.cpp runs there (and Ollama and LM Studio, which run llama.cpp)",
            ),
            EngineRefusal::LoadsButDoesNotQuantize { format } => write!(
                f,
                "vLLM loads {0} checkpoints but does not quantize a checkpoint to {0}: \
                 load a published {0} checkpoint of the model",
                format.label()
            ),
        }
    }
}

/// A GPU as an engine sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineGpu {
    /// The memory the engine starts from (see [`engine_gpu`]).
    pub total_bytes: u64,
    /// Streaming multiprocessors (132 where not known).
    pub sm_count: u32,
    /// Compute capability, where known.
    pub compute_capability: Option<ComputeCapability>,
    /// An A100 (vLLM keeps its small batch defaults there).
    pub a100: bool,
    /// An H100 or H200 by name (vLLM 0.8's rule for the large batch
    /// defaults).
    pub h100_or_h200: bool,
    /// The catalog GPU.
    pub catalog: Option<&'static Gpu>,
    /// What was assumed.
    pub notes: Vec<EngineNote>,
}

/// Whether `bytes` is one of the figures the catalog gives for `gpu` (the
/// scenario's memory is still that GPU's, whichever figure it carries).
fn is_that_gpus(gpu: &Gpu, bytes: u64) -> bool {
    [
        Some(gpu.memory_bytes.get()),
        Some(gpu.capacity_bytes),
        gpu.driver_total_bytes,
        gpu.cuda_total_bytes,
        gpu.wired_limit_bytes,
    ]
    .contains(&Some(bytes))
}

/// An H100's SM count, assumed where a GPU's is not known.
pub const ASSUMED_SM_COUNT: u32 = 132;

/// The GPU of a scenario as an engine sees it.
///
/// # Formula
///
/// For a catalog GPU: `total` = the memory CUDA reports
/// (`cuda_total_bytes`), else the driver's total (`driver_total_bytes`,
/// with a note: CUDA reports a few hundred MiB less, 81,089 against 81,559
/// MiB on an H100), else the capacity the marketed size denotes (with a
/// note); on Apple silicon, for llama.cpp, the GPU's default wired limit.
/// For memory typed by hand (`--capacity-gib X`, `--capacity-gb X`), the
/// figure typed is taken as what CUDA reports. A catalog GPU is used only
/// while the scenario's memory is still that GPU's (the answers try other
/// sizes on the same scenario).
pub fn engine_gpu(s: &Scenario, unified_limit: bool) -> EngineGpu {
    use crate::catalog::gpus::apu;
    let gpu = s.gpu.filter(|g| is_that_gpus(g, s.gpu_bytes().get()));
    let mut notes = Vec::new();
    let total = match gpu {
        Some(g) if unified_limit && g.wired_limit_bytes.is_some() => {
            notes.push(EngineNote::WiredLimitUsed);
            g.wired_limit_bytes.unwrap_or(g.capacity_bytes)
        }
        Some(g) if unified_limit && apu::shared_row(&g.name).is_some() => {
            match apu::shared_row(&g.name).map(|r| r.limit) {
                Some(apu::SharedLimit::AmdGtt) => {
                    let vram = apu::bios_vram(s.engine.bios_vram_bytes);
                    let total = apu::amd_gpu_visible(g.capacity_bytes, vram);
                    notes.push(EngineNote::GttLimitUsed {
                        vram_bytes: vram,
                        gtt_bytes: total - vram.min(total),
                    });
                    total
                }
                _ => {
                    notes.push(EngineNote::UnifiedTotalUsed);
                    g.capacity_bytes
                }
            }
        }
        Some(g) => match (g.cuda_total_bytes, g.driver_total_bytes) {
            (Some(cuda), _) => cuda,
            (None, Some(driver)) => {
                notes.push(EngineNote::DriverTotalUsed);
                driver
            }
            (None, None) => {
                notes.push(EngineNote::NominalCapacityUsed);
                g.capacity_bytes
            }
        },
        None => s.gpu_bytes().get(),
    };
    if gpu.is_some_and(|g| g.vendor != "NVIDIA") && !unified_limit {
        notes.push(EngineNote::NotCuda);
    }
    EngineGpu {
        total_bytes: total,
        sm_count: gpu.and_then(|g| g.sm_count).unwrap_or(ASSUMED_SM_COUNT),
        compute_capability: gpu.and_then(|g| g.compute_capability),
        a100: gpu.is_some_and(|g| g.name.contains("A100")),
        h100_or_h200: gpu.is_some_and(|g| g.name.contains("H100") || g.name.contains("H200")),
        catalog: gpu,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ScenarioInput;

    fn on(gpu: &str) -> EngineGpu {
        let mut input = ScenarioInput::default();
        input.set_gpu(gpu);
        engine_gpu(&input.validate().unwrap(), false)
    }

    #[test]
    fn cuda_total_then_driver_total_then_capacity() {
        let h100 = on("H100 SXM");
        assert_eq!(h100.total_bytes, 85_029_158_912);
        assert!(h100.notes.is_empty());
        assert_eq!((h100.sm_count, h100.a100), (132, false));
        let rtx = on("RTX 4090");
        assert_eq!(rtx.total_bytes, 24_564 << 20);
        assert_eq!(rtx.notes, [EngineNote::DriverTotalUsed]);
        assert_eq!(rtx.sm_count, 128);
        let h200 = on("H200");
        assert_eq!(h200.total_bytes, 141 << 30);
        assert_eq!(h200.notes, [EngineNote::NominalCapacityUsed]);
        assert!(on("A100 80GB").a100);
    }

    #[test]
    fn a_mac_is_recognised_by_its_wired_limit() {
        // The scenario's memory on Apple silicon is the GPU's wired limit;
        // the catalog card stays the engine's GPU.
        let mut input = ScenarioInput::default();
        input.set_gpu("M4 Max 128GB");
        let s = input.validate().unwrap();
        assert_eq!(s.gpu_bytes().get(), 96 << 30);
        let gpu = engine_gpu(&s, true);
        assert!(gpu.catalog.is_some());
        assert_eq!(gpu.total_bytes, 96 << 30);
        assert_eq!(gpu.notes, [EngineNote::WiredLimitUsed]);
    }

    #[test]
    fn typed_memory_is_what_cuda_reports() {
        let mut input = ScenarioInput::default();
        input.set_capacity_gib(79.19);
        let gpu = engine_gpu(&input.validate().unwrap(), false);
        assert_eq!(gpu.total_bytes, 85_029_615_043);
        assert!(gpu.catalog.is_none());
        // A catalog GPU whose memory the answers changed is not used.
        let mut s = {
            let mut i = ScenarioInput::default();
            i.set_gpu("H100");
            i.validate().unwrap()
        };
        s.gpu_memory = crate::scenario::GpuMemory::typed(crate::units::Bytes(48_000_000_000));
        assert_eq!(engine_gpu(&s, false).total_bytes, 48_000_000_000);
    }
}
