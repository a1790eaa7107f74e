//! The `vllm` method: what vLLM (V1 engine, 0.19) itself reports at
//! start-up for a model, GPU and `vllm serve` options.
//!
//! vLLM sizes its KV cache from a measurement (`determine_available_memory`
//! in `vllm/v1/worker/gpu_worker.py`):
//!
//! ```text
//! requested  = ⌈M_total · gpu_memory_utilization⌉
//! non_kv     = weights + torch peak increase + non-torch increase
//! kv_memory  = requested − non_kv                 ("Available KV cache memory")
//! blocks     = ⌊⌊kv_memory / page⌋ / layers per group⌋, the least over workers
//! kv_tokens  = ⌊blocks / groups⌋ · block size     ("GPU KV cache size")
//! ```
//!
//! This module predicts each term from the model's config
//! ([`weights`], [`profile`], [`runtime`], [`kv`]) per worker (pipeline
//! stage; tensor-parallel ranks of a stage are alike), and the error vLLM
//! prints when it would not start. The derivation, term by term, with the
//! places that are measured rather than derived, is in
//! `docs/methods/vllm.md`; the 47 logs it is checked against are in
//! `data/engines/vllm-0.19-h100.csv` ([`validation`]).
//!
//! ```
//! use vramfit_core::methods::vllm::{estimate, Utilization, VllmInputs, VllmModel};
//! let model = VllmModel::from_config(r#"{
//!     "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
//!     "num_attention_heads": 32, "num_key_value_heads": 8,
//!     "intermediate_size": 14336, "vocab_size": 128256,
//!     "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
//!     "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0,
//!         "high_freq_factor": 4.0, "original_max_position_embeddings": 8192,
//!         "rope_type": "llama3"}
//! }"#).unwrap();
//! let h100 = 7919 * (1u64 << 30) / 100; // 79.19 GiB as CUDA reports it
//! let inputs = VllmInputs {
//!     max_model_len: Some(8192),
//!     gpu_memory_utilization: Utilization(9500),
//!     ..VllmInputs::default()
//! };
//! let e = estimate(&model, h100, &inputs).unwrap();
//! // vLLM 0.19's log: 476,016 tokens (29,751 blocks).
//! assert!((e.kv_cache_tokens as i64 - 476_016).abs() < 476_016 * 3 / 100);
//! assert!(e.start_error.is_none());
//! ```

mod allocator;
mod exports;
mod extras;
mod inputs;
mod kv;
pub mod logs;
mod padding;
mod profile;
mod release;
mod runtime;
mod runtime_table;
mod scenario;
mod start;
pub mod validation;
mod vision;
mod weights;

#[cfg(test)]
mod tests;

pub use allocator::allocated_block;
pub use exports::published_checkpoints;
pub use extras::{ConfigExtras, Kept, LoadedFormat, LoadedQuant, RopeCache};
pub use inputs::{
    batch_defaults, serve_command, KvCacheDtype, ModelDtype, OnlineQuant, Resolved, Utilization,
    VllmInputs,
};
pub use kv::LayerSpec;
pub use padding::Mxfp4Padding;
pub use profile::{gemm_workspaces, ProfileParts};
pub use release::{
    facts as release_facts, unified_memory, BatchGpu, BatchRule, GraphEstimate, KvBudget,
    ReleaseError, ReleaseFacts, Sourced, VllmRelease, FAMILIES, PATCHES, UNIFIED_MEMORY,
};
pub use runtime::{Provenance, RuntimeTerms};
pub use runtime_table::{runtime_terms, GpuClass, Link, RuntimeRow};
pub use scenario::{covers, estimate_scenario, model_id, run, VllmRun};
pub use start::{StartError, StartErrorKind};
pub use vision::{VisionKind, VisionTower};
pub use weights::{padded_vocab, WeightParts};

use crate::methods::Feature;
use crate::model::{parse_config, AttentionKind, ConfigError, Dtype, ModelSpec};
use serde::Serialize;
use std::sync::Arc;

/// A model as vLLM sees it: the reader's spec and the vLLM-specific
/// extras read from the same config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VllmModel {
    pub spec: Arc<ModelSpec>,
    pub extras: ConfigExtras,
}

impl VllmModel {
    /// Reads a `config.json` text.
    pub fn from_config(text: &str) -> Result<VllmModel, ConfigError> {
        let spec = parse_config(text)?;
        let extras = ConfigExtras::read(text, &spec);
        Ok(VllmModel {
            spec: Arc::new(spec),
            extras,
        })
    }

    /// A model known only by its spec (no vision tower, plain rotary
    /// table, no checkpoint quantization layout).
    pub fn from_spec(spec: ModelSpec) -> VllmModel {
        let extras = ConfigExtras::from_spec(&spec);
        VllmModel {
            spec: Arc::new(spec),
            extras,
        }
    }

    /// A parsed model shared with its scenario, with the extras read from
    /// its config's text (`None`: from the spec alone).
    pub fn shared(spec: Arc<ModelSpec>, config: Option<&str>) -> VllmModel {
        let extras = match config {
            Some(text) => ConfigExtras::read(text, &spec),
            None => ConfigExtras::from_spec(&spec),
        };
        VllmModel { spec, extras }
    }
}

/// One worker (a pipeline stage; its tensor-parallel ranks are alike).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankEstimate {
    /// Pipeline stage, from 0.
    pub stage: u32,
    /// Decoder layers `start..end` of this stage.
    pub layers: (u64, u64),
    /// "Model loading took": weights by part.
    pub weights: WeightParts,
    pub weights_bytes: u64,
    /// "torch peak memory increase", by part.
    pub profile: ProfileParts,
    pub activation_peak_bytes: u64,
    /// "non-torch forward increase memory".
    pub non_torch_bytes: u64,
    /// "Estimated CUDA graph memory" set aside before the KV cache (0
    /// before 0.20 and with `--enforce-eager`).
    pub graph_reserve_bytes: u64,
    /// "Total non KV cache memory" (with the graph reserve).
    pub non_kv_bytes: u64,
    /// "Available KV cache memory" (0 when negative; see `kv_shortfall_bytes`).
    pub kv_cache_bytes: u64,
    /// How far `non_kv` exceeds the requested memory, else 0.
    pub kv_shortfall_bytes: u64,
    /// Blocks this worker alone could hold.
    pub num_blocks: u64,
    /// KV memory one request of `max_model_len` tokens needs on this
    /// worker (vLLM's `max_memory_usage_bytes` over its groups); 0 on a
    /// worker without a cache.
    pub kv_per_request_bytes: u64,
    /// CUDA-graph capture memory (after the KV cache).
    pub cuda_graph_bytes: u64,
}

/// What does not divide over the GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum Parallel {
    /// Attention heads over tensor-parallel GPUs.
    Heads { heads: u64, tp: u64 },
    /// The padded vocabulary over tensor-parallel GPUs.
    Vocab { vocab: u64, tp: u64 },
    /// More pipeline stages than layers.
    Stages { pp: u64, layers: u64 },
}

/// What the estimate leaves out for this model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum VllmNote {
    /// A quantization method whose loaded layout is not modelled: its
    /// layers are counted at the model dtype.
    QuantizationNotModelled { method: String },
    /// A multimodal config whose vision tower is not known: its weights
    /// and dummy images are not counted.
    VisionTowerNotCounted,
    /// A vision tower the reader counts (its weights, whole on every rank)
    /// but whose vLLM dummy-input rules vramfit does not know: the
    /// profile's encoder activations are not counted.
    VisionProfileNotCounted,
}

impl std::fmt::Display for VllmNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VllmNote::QuantizationNotModelled { method } => write!(
                f,
                "quantization '{method}' is not modelled: its layers are counted at the model dtype"
            ),
            VllmNote::VisionTowerNotCounted => f.write_str(
                "multimodal config whose vision tower vramfit does not know: its weights and \
                 dummy images are not counted",
            ),
            VllmNote::VisionProfileNotCounted => f.write_str(
                "the vision tower's weights are counted, whole on every GPU; the dummy images \
                 vLLM encodes while profiling it are not",
            ),
        }
    }
}

/// Inputs the method cannot evaluate (vLLM itself refuses most of them
/// before loading anything; its message is given where it has one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum VllmRefusal {
    /// A number out of its range.
    InvalidInput {
        field: &'static str,
        message: String,
    },
    /// Heads or layers do not divide over the GPUs.
    Parallelism { problem: Parallel, message: String },
    /// `--quantization` conflicts with the checkpoint's own.
    Quantization { message: String },
    /// Layers whose cache vramfit does not lay out (linear attention,
    /// Mamba).
    UnsupportedLayers { feature: Feature, message: String },
}

impl std::fmt::Display for VllmRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VllmRefusal::InvalidInput { field, message } => write!(f, "{field}: {message}"),
            VllmRefusal::Parallelism { message, .. }
            | VllmRefusal::Quantization { message }
            | VllmRefusal::UnsupportedLayers { message, .. } => f.write_str(message),
        }
    }
}

/// What vLLM reports at start-up. Headline figures are those of the
/// limiting worker (the one with the fewest blocks); `ranks` has each.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VllmEstimate {
    /// Total memory of one GPU, as CUDA reports it.
    pub gpu_total_bytes: u64,
    /// `⌈total × gpu_memory_utilization⌉`.
    pub requested_bytes: u64,
    pub weights_bytes: u64,
    pub activation_peak_bytes: u64,
    pub non_torch_bytes: u64,
    /// Available KV cache memory of the limiting worker (0 if negative).
    pub kv_cache_bytes: u64,
    /// "GPU KV cache size: N tokens".
    pub kv_cache_tokens: u64,
    /// Blocks allocated on every worker.
    pub num_gpu_blocks: u64,
    /// KV cache groups (1 unless the model mixes attention types).
    pub kv_cache_groups: u64,
    /// CUDA-graph memory of the largest worker (taken after the KV cache).
    pub cuda_graph_bytes: u64,
    /// The context the engine runs with.
    pub max_model_len: u64,
    /// The largest `--max-model-len` that starts with this memory (at most
    /// what the config allows).
    pub max_model_len_fits: u64,
    /// "Maximum concurrency for `max_model_len` tokens per request".
    pub max_concurrency: f64,
    /// Defaults as resolved.
    pub resolved: Resolved,
    /// The release modelled and the runtime terms used.
    pub release: VllmRelease,
    pub runtime: RuntimeTerms,
    /// The quantization method vLLM runs (`fp8`, `gptq_marlin`, ...).
    pub quantization: Option<&'static str>,
    /// Dummy images the profile encodes (multimodal models).
    pub profiled_images: u64,
    /// Each worker.
    pub ranks: Vec<RankEstimate>,
    /// The error vLLM would print, if it would not start.
    pub start_error: Option<StartError>,
    /// Parts of this model the estimate does not cover.
    pub notes: Vec<VllmNote>,
}

/// Layers per pipeline stage.
///
/// # Formula
///
/// Each stage gets `⌊L/pp⌋` layers; the `L mod pp` left over go one each
/// to the stages before the last, from the second-to-last backwards.
/// Source: vLLM `vllm/distributed/utils.py`, `get_pp_indices`.
pub fn pipeline_stages(layers: u64, pp: u64) -> Vec<(u64, u64)> {
    let pp = pp.max(1);
    let mut sizes = vec![layers / pp; pp as usize];
    let rest = (layers % pp) as usize;
    for i in 2..rest + 2 {
        let idx = sizes.len() - i;
        sizes[idx] += 1;
    }
    let mut start = 0;
    sizes
        .into_iter()
        .map(|n| {
            let range = (start, start + n);
            start += n;
            range
        })
        .collect()
}

/// Predicts vLLM's start-up report for `model` on GPUs of
/// `gpu_total_bytes` each (the memory CUDA reports, e.g. 79.19 GiB for an
/// H100 80GB).
pub fn estimate(
    model: &VllmModel,
    gpu_total_bytes: u64,
    inputs: &VllmInputs,
) -> Result<VllmEstimate, VllmRefusal> {
    let spec = &model.spec;
    let extras = &model.extras;
    validate(spec, gpu_total_bytes, inputs)?;
    let release = release_facts(inputs.release).map_err(|e| VllmRefusal::InvalidInput {
        field: "vllm_version",
        message: e.to_string(),
    })?;
    let graph_reserve = inputs
        .runtime
        .graph_reserve(release.graphs_before_kv(), inputs.enforce_eager);
    let (tp, pp) = (inputs.tp as u64, inputs.pp as u64);
    let mut notes = Vec::new();

    let derived = extras
        .derived_max_model_len
        .or(spec.max_context)
        .unwrap_or(2048);
    let max_model_len = inputs.max_model_len.unwrap_or(derived);
    let (tokens, seqs) = batch_defaults(gpu_total_bytes, inputs.a100, max_model_len, inputs);
    let dtype_bytes = dtype_bytes(spec.dtype, inputs.dtype);
    let kv_bytes = match inputs.kv_cache_dtype {
        KvCacheDtype::Auto if checkpoint_kv_fp8(spec) => 1,
        KvCacheDtype::Auto => dtype_bytes,
        KvCacheDtype::Fp8 => 1,
    };
    let resolved = Resolved {
        max_model_len,
        max_num_batched_tokens: tokens,
        max_num_seqs: seqs,
        dtype_bytes,
        kv_bytes,
    };
    let quant = loaded_quant(spec, extras, inputs, &mut notes)?;

    let specs = kv::layer_specs(spec, tp, inputs.block_size, kv_bytes).map_err(|kind| {
        let what = match kind {
            AttentionKind::Linear { .. } => {
                "keep a recurrent state; vramfit does not lay out vLLM's Mamba / \
                 linear-attention cache"
            }
            _ => {
                "keep a cache vramfit does not lay out in vLLM's terms (a sparse-attention \
                  indexer's keys, compressed attention)"
            }
        };
        let feature = match kind {
            AttentionKind::Linear { .. } => Feature::LinearLayers,
            AttentionKind::Compressed { .. } => Feature::CompressedAttention,
            AttentionKind::Indexed { .. } => Feature::SparseIndexer,
            _ => Feature::LatentAttention,
        };
        VllmRefusal::UnsupportedLayers {
            feature,
            message: format!("layers of kind {kind:?} {what}"),
        }
    })?;
    let grouping = kv::group_layers(&specs, inputs.block_size);
    let requested = inputs.gpu_memory_utilization.requested(gpu_total_bytes);

    let stages = pipeline_stages(spec.num_layers, pp);
    let mut ranks = Vec::with_capacity(stages.len());
    let mut availability = Vec::with_capacity(stages.len());
    for (index, &layers) in stages.iter().enumerate() {
        let first = index == 0;
        let last = index + 1 == stages.len();
        let shard = weights::Shard {
            tp,
            layers,
            first,
            last,
            dtype_bytes,
            quant: quant.as_ref(),
            mxfp4: inputs.mxfp4_padding,
        };
        let weight_parts = weights::rank_weights(spec, extras, &shard);
        let run = profile::ProfileRun {
            tp,
            layers,
            first,
            last,
            dtype_bytes,
            tokens,
            seqs,
            max_model_len,
            block_size: inputs.block_size,
            sm_count: inputs.sm_count as u64,
            gemm_workspaces: inputs.gemm_workspace_bytes,
        };
        let prof = profile::rank_profile(spec, extras, &run);
        let non_torch = inputs.runtime.non_torch(tp, last);
        let non_kv = crate::units::sum([weight_parts.total(), prof.peak, non_torch, graph_reserve]);
        let available = requested as i128 - non_kv as i128;
        let worker = kv::WorkerGroups::project(&grouping, layers.0, layers.1);
        let blocks = worker.blocks(available);
        availability.push(available);
        ranks.push(RankEstimate {
            stage: index as u32,
            layers,
            weights_bytes: weight_parts.total(),
            weights: weight_parts,
            activation_peak_bytes: prof.peak,
            profile: prof,
            non_torch_bytes: non_torch,
            graph_reserve_bytes: graph_reserve,
            non_kv_bytes: non_kv,
            kv_cache_bytes: available.max(0) as u64,
            kv_shortfall_bytes: (-available).max(0) as u64,
            num_blocks: blocks,
            kv_per_request_bytes: match worker.group_size() {
                0 => 0,
                _ => {
                    crate::units::saturate(worker.needed(max_model_len, inputs.block_size, tokens))
                }
            },
            cuda_graph_bytes: runtime::cuda_graphs(layers.1 - layers.0, inputs.enforce_eager),
        });
    }

    let workers: Vec<kv::WorkerGroups> = stages
        .iter()
        .map(|&(s, e)| kv::WorkerGroups::project(&grouping, s, e))
        .collect();
    let with_cache: Vec<usize> = (0..ranks.len())
        .filter(|&i| workers[i].group_size() > 0)
        .collect();
    let limiting = with_cache
        .iter()
        .copied()
        .min_by_key(|&i| ranks[i].num_blocks)
        .unwrap_or(0);
    let num_blocks = with_cache
        .iter()
        .map(|&i| ranks[i].num_blocks)
        .min()
        .unwrap_or(0);
    let kv_tokens = kv::tokens(&grouping, num_blocks);
    let concurrency = workers.first().map_or(0.0, |w| {
        w.concurrency(num_blocks, max_model_len, inputs.block_size, tokens)
    });
    let fits = |len: u64| -> bool {
        with_cache.iter().all(|&i| {
            availability[i] > 0
                && workers[i].needed(len, inputs.block_size, tokens) <= availability[i] as u128
        })
    };
    let max_model_len_fits = start::largest_fitting(derived, &fits);

    let start_error = start::start_error(start::StartCheck {
        ranks: &ranks,
        workers: &workers,
        with_cache: &with_cache,
        availability: &availability,
        max_model_len,
        derived,
        given: inputs.max_model_len,
        gpu_total_bytes,
        other_bytes: inputs.other_memory_bytes,
        requested,
        utilization: inputs.gpu_memory_utilization,
        block: inputs.block_size,
        batch_tokens: tokens,
    });

    let head = &ranks[limiting];
    if extras.vision.is_none() && spec.nested_text_config {
        notes.push(match spec.vision {
            Some(_) => VllmNote::VisionProfileNotCounted,
            None => VllmNote::VisionTowerNotCounted,
        });
    }
    Ok(VllmEstimate {
        gpu_total_bytes,
        requested_bytes: requested,
        weights_bytes: head.weights_bytes,
        activation_peak_bytes: head.activation_peak_bytes,
        non_torch_bytes: head.non_torch_bytes,
        kv_cache_bytes: head.kv_cache_bytes,
        kv_cache_tokens: kv_tokens,
        num_gpu_blocks: num_blocks,
        kv_cache_groups: grouping.groups.len() as u64,
        cuda_graph_bytes: ranks.iter().map(|r| r.cuda_graph_bytes).max().unwrap_or(0),
        max_model_len,
        max_model_len_fits,
        max_concurrency: concurrency,
        resolved,
        release: inputs.release,
        runtime: inputs.runtime,
        quantization: quant.as_ref().map(|q| q.method),
        profiled_images: ranks.first().map_or(0, |r| r.profile.images),
        ranks,
        start_error,
        notes,
    })
}

/// Bytes per element of the dtype vLLM runs in.
/// Whether vLLM caches keys and values in FP8 for this checkpoint without
/// being asked: a ModelOpt checkpoint (`quant_method` `modelopt…`, in
/// config.json or its `hf_quant_config.json`) whose `kv_cache_quant_algo`
/// is FP8 (or whose `kv_cache_scheme` is an 8-bit float) turns the
/// default `--kv-cache-dtype auto` into `fp8_e4m3` when vLLM builds its
/// cache config. Other methods keep the model dtype (compressed-tensors'
/// `kv_cache_scheme` only sizes the scales).
///
/// Source: vLLM `vllm/utils/torch_utils.py`
/// (`resolve_kv_cache_dtype_string`, `get_kv_cache_quant_algo_string`:
/// only `quant_method` starting with `modelopt` is read), called from
/// `engine/arg_utils.py` when the cache config is created.
pub fn checkpoint_kv_fp8(spec: &ModelSpec) -> bool {
    spec.quantization
        .as_ref()
        .is_some_and(|q| q.method.starts_with("modelopt") && q.kv_scale_bytes > 0)
}

fn dtype_bytes(checkpoint: Dtype, asked: ModelDtype) -> u64 {
    match asked {
        ModelDtype::Bfloat16 | ModelDtype::Float16 => 2,
        ModelDtype::Float32 => 4,
        ModelDtype::Auto => match checkpoint {
            Dtype::F16 | Dtype::Bf16 => 2,
            // float32 checkpoints are downcast to bfloat16; FP8-typed
            // checkpoints keep 16-bit activations.
            _ => 2,
        },
    }
}

fn validate(spec: &ModelSpec, total: u64, inputs: &VllmInputs) -> Result<(), VllmRefusal> {
    let invalid = |field: &'static str, message: &str| VllmRefusal::InvalidInput {
        field,
        message: message.to_string(),
    };
    if total == 0 {
        return Err(invalid("gpu_total_bytes", "must be positive"));
    }
    if inputs.tp == 0 || inputs.pp == 0 {
        return Err(invalid("tp/pp", "must be at least 1"));
    }
    if inputs.block_size == 0 || inputs.block_size > 1 << 20 {
        return Err(invalid("block_size", "must be between 1 and 2^20"));
    }
    if inputs.sm_count == 0 {
        return Err(invalid("sm_count", "must be at least 1"));
    }
    if inputs.max_model_len == Some(0) {
        return Err(invalid("max_model_len", "must be at least 1"));
    }
    if inputs.max_num_batched_tokens == Some(0) || inputs.max_num_seqs == Some(0) {
        return Err(invalid(
            "max_num_batched_tokens/max_num_seqs",
            "must be at least 1",
        ));
    }
    let tp = inputs.tp as u64;
    if spec.num_attention_heads > 0 && !spec.num_attention_heads.is_multiple_of(tp) {
        return Err(VllmRefusal::Parallelism {
            problem: Parallel::Heads {
                heads: spec.num_attention_heads,
                tp,
            },
            message: format!(
                "Total number of attention heads ({}) must be divisible by tensor parallel \
                 size ({}).",
                spec.num_attention_heads, tp
            ),
        });
    }
    if !padded_vocab(spec.vocab_size).is_multiple_of(tp) {
        return Err(VllmRefusal::Parallelism {
            problem: Parallel::Vocab {
                vocab: padded_vocab(spec.vocab_size),
                tp,
            },
            message: format!(
                "the padded vocabulary ({}) does not divide over {} GPUs",
                padded_vocab(spec.vocab_size),
                tp
            ),
        });
    }
    if inputs.pp as u64 > spec.num_layers {
        return Err(VllmRefusal::Parallelism {
            problem: Parallel::Stages {
                pp: inputs.pp as u64,
                layers: spec.num_layers,
            },
            message: format!(
                "{} pipeline stages for {} layers: a stage would hold no layer",
                inputs.pp, spec.num_layers
            ),
        });
    }
    Ok(())
}

/// The quantization as loaded: the checkpoint's own, or `--quantization
/// fp8` on an unquantized checkpoint.
fn loaded_quant(
    spec: &ModelSpec,
    extras: &ConfigExtras,
    inputs: &VllmInputs,
    notes: &mut Vec<VllmNote>,
) -> Result<Option<LoadedQuant>, VllmRefusal> {
    let own = spec.quantization.as_ref();
    if inputs.quantization == OnlineQuant::Fp8 {
        if let Some(q) = own.filter(|q| q.method != "fp8") {
            return Err(VllmRefusal::Quantization {
                message: format!(
                    "Quantization method specified in the model config ({}) does not match \
                     the quantization method specified in the `quantization` argument (fp8).",
                    q.method
                ),
            });
        }
        if own.is_none() {
            return Ok(Some(LoadedQuant {
                format: LoadedFormat::Fp8Tensor,
                experts_only: false,
                kept: Kept::default(),
                static_input_scale: false,
                method: "fp8",
            }));
        }
    }
    if let (Some(q), None) = (own, extras.quant.as_ref()) {
        notes.push(VllmNote::QuantizationNotModelled {
            method: q.method.clone(),
        });
    }
    Ok(extras.quant)
}
