//! The `llamacpp` method: memory as llama.cpp allocates it for a GGUF file.
//!
//! From a parsed `config.json` it rebuilds the GGUF file llama.cpp's tools
//! would write ([`tensors`]: the converter's tensors; [`quant`]: the type
//! `llama-quantize` gives each for a file type; [`ggml_type`]: exact block
//! sizes), then the context llama.cpp would create for it ([`kv`]: padded
//! context, K and V caches apart, sliding-window and MLA caches;
//! [`buffers`]: output and compute buffers), where each byte goes for
//! `-ngl` / `--n-cpu-moe` ([`offload`]), what fits a GPU, and the
//! `llama-server` line that reproduces the estimate.
//!
//! What is exact and what is not:
//! - model size, tensor types, KV cache and output buffer follow
//!   llama.cpp's source to the byte (for the supported architectures);
//! - compute buffers are an approximation of ggml's graph allocator
//!   ([`buffers`]);
//! - the derivation, term by term, is `docs/methods/llamacpp.md`.
//!
//! ```
//! use vramfit_core::methods::llamacpp::{estimate, FileType, LlamaCppInputs};
//! use vramfit_core::model::parse_config;
//! let spec = parse_config(r#"{
//!     "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
//!     "num_attention_heads": 32, "num_key_value_heads": 8,
//!     "intermediate_size": 14336, "vocab_size": 128256,
//!     "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
//!     "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
//!         "original_max_position_embeddings": 8192, "rope_type": "llama3"}
//! }"#).unwrap();
//! let inputs = LlamaCppInputs { n_ctx: Some(8192), ..LlamaCppInputs::default() };
//! let e = estimate(&spec, &inputs, None).unwrap();
//! assert_eq!(e.model_size_bytes, 4_912_898_304); // "4.58 GiB", Q4_K_M
//! assert_eq!(e.k_bytes, 8192 * 32 * 8 * 128 * 2); // f16 K
//! assert!(e.command.starts_with("llama-server -m "));
//! ```

pub mod arch;
pub mod buffers;
pub mod build;
pub mod clip;
pub mod devices;
pub mod file;
pub mod ggml_alloc;
mod graph;
pub use crate::gguf::{ftype, ggml_type};
pub mod kv;
pub mod logs;
pub mod offload;
pub mod overrides;
pub mod quant;
pub mod refusal;
pub mod runner;
pub mod tensors;
pub mod validation;

mod command;
mod fit;
mod placement;
pub mod plan;
mod scenario;

#[cfg(test)]
mod tests;

pub use arch::{Arch, LayoutProblem};
pub use buffers::{output_buffer_bytes, Buffers, ComputePhases};
pub use fit::FIT_MARGIN;
pub use ftype::FileType;
pub use ggml_type::{GgmlType, CACHE_TYPES};
pub use kv::{context_size, ContextSize, KvCache};
pub use offload::layer_split;
pub use quant::{use_more_bits, QuantOptions};
pub use refusal::LlamaCppRefusal;
pub use scenario::{covers, estimate_scenario, run, LlamacppRun, DEFAULT_FILE_TYPE};
pub use tensors::{GgufTensor, Role};

use crate::model::ModelSpec;
use arch::Layout;
use serde::Serialize;

/// Sequences llama.cpp accepts at most (`LLAMA_MAX_SEQ`).
pub const MAX_SEQUENCES: u64 = 256;

/// What a person sets on the `llama-server` command line. The defaults
/// are llama.cpp's (`common/common.h`, `common_params`; `llama-server`'s
/// automatic slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LlamaCppInputs {
    /// The GGUF file type (default Q4_K_M, the most common download).
    pub file_type: FileType,
    /// `-c`: context cells; `None` (llama.cpp's 0) takes the model's
    /// trained context.
    pub n_ctx: Option<u64>,
    /// `-ctk` (default f16).
    pub cache_type_k: GgmlType,
    /// `-ctv` (default f16).
    pub cache_type_v: GgmlType,
    /// `-ngl`: layers on the GPU, the output layer counted first; `None`
    /// ("auto") takes as many as fit the GPU given to [`estimate`], all of
    /// them when none is given.
    pub n_gpu_layers: Option<u64>,
    /// `--n-cpu-moe`: keep the experts of the first N blocks on the host.
    pub n_cpu_moe: u64,
    /// `-b` (default 2048).
    pub n_batch: u64,
    /// `-ub` (default 512): tokens per graph evaluation.
    pub n_ubatch: u64,
    /// `-fa`: flash attention (default "auto", which is on where the
    /// backend supports it: CUDA, Metal, Vulkan, CPU).
    pub flash_attn: bool,
    /// `-np`: sequences (default: `llama-server`'s automatic 4 slots).
    pub n_parallel: u64,
    /// `-kvu`: one KV buffer shared by all sequences (default on with the
    /// automatic slots).
    pub kv_unified: bool,
    /// `--swa-full`: full-size sliding-window cache.
    pub swa_full: bool,
    /// Large-batch products on host weights run on the GPU (default on;
    /// `--no-op-offload` turns it off).
    pub op_offload: bool,
    /// The file was quantized with an importance matrix (`--imatrix`),
    /// which changes the IQ4_XS, Q4_0 and Q5_0 recipes.
    pub imatrix: bool,
    /// `-ngl` offloads the output layer first (llama.cpp since December
    /// 2025, PR #18148); `false` reproduces earlier releases, where the
    /// output layer moved last ([`layer_split`]).
    pub output_layer_first: bool,
    /// The build has a BLAS backend (`GGML_BLAS`: on by default on macOS,
    /// off elsewhere): large products on host weights run on it, in a
    /// compute buffer of its own ([`graph::Placement::blas`]).
    pub blas: bool,
    /// `bNNNN`: the llama.cpp build, for the cache layouts that changed
    /// between builds ([`build`]); `None` takes the newest.
    pub build: Option<build::Build>,
    /// The compute buffers as this machine's own load log measured them
    /// (`--calibrate LOG`): the replay scaled by the log's print over the
    /// replay of the log's settings ([`crate::scenario::LlamacppCalibration`]);
    /// `None`: the replay as it is.
    pub calibration: Option<crate::scenario::LlamacppCalibration>,
}

impl Default for LlamaCppInputs {
    fn default() -> Self {
        LlamaCppInputs {
            file_type: FileType::Q4_K_M,
            n_ctx: None,
            cache_type_k: GgmlType::F16,
            cache_type_v: GgmlType::F16,
            n_gpu_layers: None,
            n_cpu_moe: 0,
            n_batch: 2048,
            n_ubatch: 512,
            flash_attn: true,
            n_parallel: 4,
            kv_unified: true,
            swa_full: false,
            op_offload: true,
            imatrix: false,
            output_layer_first: true,
            blas: false,
            build: None,
            calibration: None,
        }
    }
}

/// Bytes of one tensor type in the file, as llama.cpp lists them when
/// loading (`llama_model_loader: - type q4_K: 193 tensors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TypeCount {
    pub ggml_type: GgmlType,
    pub tensors: u64,
    pub bytes: u64,
}

/// Bytes on one side of the split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct DeviceBytes {
    /// Model buffer (`CUDA0` / `CPU_Mapped model buffer size`).
    pub weights: u64,
    /// KV buffer (`k_cache + v_cache`).
    pub kv_cache: u64,
    /// Its K part.
    pub k_cache: u64,
    /// Its V part.
    pub v_cache: u64,
    /// Compute buffer (on the host side: the CPU backend's, `CUDA_Host`,
    /// or `CPU` where the GPU has no host buffer type).
    pub compute: u64,
    /// The BLAS backend's compute buffer (host side only; `CPU compute
    /// buffer size` beside `CUDA_Host`), 0 without one.
    pub blas_compute: u64,
    /// The phases the GPU's compute buffer is the largest of (zero on the
    /// host side).
    #[serde(skip)]
    pub compute_phases: buffers::ComputePhases,
    /// Output buffer (host only).
    pub output: u64,
    /// The sum.
    pub total: u64,
    /// A backend that maps the file into its own buffer (Metal:
    /// `MTL0_Mapped`, `Metal_Mapped`) prints this as its model buffer: the
    /// bytes from its first tensor to its last in the file's order, host
    /// tensors between them included ([`offload::mapped_span`]). Not
    /// memory of its own: the pages are the host mapping's.
    #[serde(skip)]
    pub mapped: u64,
}

/// What fits a GPU of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fit {
    /// The GPU memory given.
    pub gpu_memory_bytes: u64,
    /// Kept free: llama.cpp's own target when it fits parameters
    /// (`common_params::fit_params_target`, 1 GiB per device).
    pub margin_bytes: u64,
    /// GPU bytes of this estimate within memory less margin.
    pub fits: bool,
    /// The largest `-ngl` whose GPU bytes fit, at this context.
    pub max_gpu_layers: u64,
    /// The longest context (a multiple of 256, at most the model's
    /// trained context) that fits at this `-ngl`; `None` if not even 256.
    pub max_context: Option<u64>,
}

/// The estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LlamaCppEstimate {
    /// The tensors the estimate sized, each with its bytes, the counts
    /// `[n_layer, n_expert, n_expert_used]` and whether the head is tied:
    /// what the speed model reads, shared rather than rebuilt.
    #[serde(skip)]
    pub(crate) tensors: SizedTensors,
    /// GGUF architecture (`general.architecture`).
    pub arch: Arch,
    pub file_type: FileType,
    /// Sum of the tensors' bytes: what llama.cpp prints as `model size`.
    pub model_size_bytes: u64,
    /// Values in all tensors (`model params`).
    pub n_elements: u64,
    /// Tensors and bytes per type.
    pub tensor_types: Vec<TypeCount>,
    /// The context llama.cpp creates.
    pub context: ContextSize,
    /// KV cells of the full-attention cache and of the sliding-window one.
    pub kv_cells: u64,
    pub swa_cells: u64,
    pub kv_cache_bytes: u64,
    pub k_bytes: u64,
    pub v_bytes: u64,
    /// GPU and host compute buffers together (approximation).
    pub compute_buffer_bytes: u64,
    pub output_buffer_bytes: u64,
    pub gpu: DeviceBytes,
    pub host: DeviceBytes,
    /// `gpu.total`.
    pub gpu_bytes: u64,
    /// `host.total`.
    pub host_bytes: u64,
    /// Layers offloaded, as printed: `offloaded {gpu_layers}/{layers_total}`
    /// (the output layer counts as one).
    pub gpu_layers: u64,
    pub layers_total: u64,
    pub fit: Option<Fit>,
    /// The GPU and host sides with every layer offloaded (`-ngl` = all):
    /// what the whole model needs on the GPU. Equal to `gpu` / `host` when
    /// every layer is already there.
    pub all_layers_gpu: DeviceBytes,
    pub all_layers_host: DeviceBytes,
    /// The `llama-server` line with these settings.
    pub command: String,
}

/// A model's GGUF tensors with the type each gets in a file type.
pub fn gguf_tensors(
    model: &ModelSpec,
    file_type: FileType,
    options: QuantOptions,
) -> Result<Vec<(GgufTensor, GgmlType)>, LlamaCppRefusal> {
    let layout = Layout::of(model)?;
    let tensors = tensors::inventory(&layout);
    let elements = tensors.iter().map(GgufTensor::elements).sum();
    arch::check_inventory(model, &layout, elements)?;
    let types = quant::choose_types(&layout, &tensors, file_type, options)?;
    Ok(tensors.into_iter().zip(types).collect())
}

/// The model's file, prepared once for every context and split.
pub(crate) struct Prepared {
    pub layout: Layout,
    /// Each tensor with its bytes (shared with the estimate, which the
    /// speed model reads).
    pub tensors: std::sync::Arc<Vec<(GgufTensor, u64)>>,
    pub model_size: u64,
    pub n_elements: u64,
    pub tensor_types: Vec<TypeCount>,
    /// The cache layouts of the build.
    pub layouts: build::Layouts,
}

impl Prepared {
    fn new(model: &ModelSpec, inputs: &LlamaCppInputs) -> Result<Prepared, LlamaCppRefusal> {
        let layout = Layout::of(model)?;
        let listed = tensors::inventory(&layout);
        let elements = listed.iter().map(GgufTensor::elements).sum();
        arch::check_inventory(model, &layout, elements)?;
        let options = QuantOptions {
            imatrix: inputs.imatrix,
        };
        let types = quant::choose_types(&layout, &listed, inputs.file_type, options)?;
        let mut counts: Vec<TypeCount> = Vec::new();
        let mut tensors = Vec::with_capacity(listed.len());
        let (mut size, mut elements) = (0u64, 0u64);
        for (t, ty) in listed.into_iter().zip(types) {
            let bytes = match (ty.row_bytes(t.ne[0]), ty.tensor_bytes(t.ne)) {
                (_, Some(bytes)) => bytes,
                (None, None) => {
                    return Err(LlamaCppRefusal::NoTypeFallback {
                        tensor: t.name.clone(),
                        row: t.ne[0],
                        ggml_type: ty,
                    })
                }
                (Some(_), None) => {
                    return Err(LlamaCppRefusal::InvalidInput {
                        field: "model",
                        reason: format!("{} would exceed 2^64 bytes", t.name),
                    })
                }
            };
            size = size.saturating_add(bytes);
            elements = elements.saturating_add(t.elements());
            match counts.iter_mut().find(|c| c.ggml_type == ty) {
                Some(c) => {
                    c.tensors += 1;
                    c.bytes = c.bytes.saturating_add(bytes);
                }
                None => counts.push(TypeCount {
                    ggml_type: ty,
                    tensors: 1,
                    bytes,
                }),
            }
            tensors.push((t, bytes));
        }
        Prepared::of(layout, tensors, (size, elements), counts, inputs)
    }

    /// The prepared file from its tensors, whichever made them (the recipe
    /// or a file's header), with the cache layouts of the build `inputs`
    /// name and the tensor types counted in type order.
    pub(crate) fn of(
        layout: Layout,
        tensors: Vec<(GgufTensor, u64)>,
        (model_size, n_elements): (u64, u64),
        mut tensor_types: Vec<TypeCount>,
        inputs: &LlamaCppInputs,
    ) -> Result<Prepared, LlamaCppRefusal> {
        tensor_types.sort_by_key(|c| c.ggml_type);
        let layouts =
            build::layouts(inputs.build).map_err(|reason| LlamaCppRefusal::InvalidInput {
                field: "build",
                reason,
            })?;
        Ok(Prepared {
            layouts,
            layout,
            tensors: std::sync::Arc::new(tensors),
            model_size,
            n_elements,
            tensor_types,
        })
    }
}

/// The file's tensors with their bytes, and what the speed model needs of
/// the layout: `[repeating layers, routed experts, experts per token]` and
/// whether the head is tied.
/// An estimate's tensors ([`LlamaCppEstimate::tensors`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SizedTensors {
    pub tensors: std::sync::Arc<Vec<(GgufTensor, u64)>>,
    pub counts: [u64; 3],
    pub tied: bool,
}

/// One evaluation: a context and a split.
#[derive(Debug, Clone)]
pub(crate) struct Footprint {
    pub context: ContextSize,
    pub kv: KvCache,
    pub buffers: Buffers,
    pub gpu: DeviceBytes,
    pub host: DeviceBytes,
    pub gpu_layers: u64,
}

/// The cache's types and layouts for these inputs and the file's build.
pub(crate) fn cache_types(inputs: &LlamaCppInputs, p: &Prepared) -> kv::CacheTypes {
    kv::CacheTypes {
        k: inputs.cache_type_k,
        v: inputs.cache_type_v,
        unified: inputs.kv_unified,
        swa_full: inputs.swa_full,
        mla: p.layouts.mla,
        swa_cache: p.layouts.swa_cache,
    }
}

/// Evaluates a context of `n_ctx` cells with `n_gpu_layers` offloaded.
pub(crate) fn footprint(
    p: &Prepared,
    inputs: &LlamaCppInputs,
    n_ctx: u64,
    n_gpu_layers: u64,
) -> Result<Footprint, LlamaCppRefusal> {
    let l = &p.layout;
    let context = kv::context_size(
        n_ctx,
        inputs.n_batch,
        inputs.n_ubatch,
        inputs.n_parallel,
        inputs.kv_unified,
    );
    let kv = kv::kv_cache(l, &context, cache_types(inputs, p))?;
    let (gpu_layer, output_on_gpu) =
        offload::layer_split(l.n_layer, n_gpu_layers, inputs.output_layer_first);
    let weights = offload::split_weights(
        &p.tensors,
        &gpu_layer,
        output_on_gpu,
        inputs.n_cpu_moe,
        l.tied,
        l.n_expert_used,
    );
    let n_cpu_moe = inputs.n_cpu_moe;
    let device = |t: &GgufTensor| -> Option<usize> {
        let on = match (t.layer, t.role) {
            (Some(i), _) => {
                gpu_layer.get(i as usize).copied().unwrap_or(false) && !(t.expert && i < n_cpu_moe)
            }
            (None, tensors::Role::TokenEmbd | tensors::Role::PosEmbd) => false,
            (None, _) => output_on_gpu,
        };
        on.then_some(0)
    };
    let names = buffers::weight_map(&p.tensors, &device, l.tied, output_on_gpu.then_some(0));
    let layer_dev: Vec<Option<usize>> = gpu_layer.iter().map(|g| g.then_some(0)).collect();
    let (gpus, _, _) = buffers::reserve(
        l,
        &context,
        kv.swa_cells,
        &graph::Placement {
            n_gpu: 1,
            layer_dev: &layer_dev,
            weights: &names,
            op_offload: inputs.op_offload,
            flash_attn: inputs.flash_attn,
            mla_per_head: p.layouts.mla == build::MlaCache::PerHead,
            n_copies: 1,
            blas: inputs.blas,
            set_rows: p.layouts.set_rows,
            v_less: p.layouts.mla == build::MlaCache::Latent,
        },
        inputs.calibration.as_ref(),
    );
    let buffers = gpus.into_iter().next().unwrap_or_default();
    // (K, V) on the GPU and on the host.
    let (mut kv_gpu, mut kv_host) = ((0u64, 0u64), (0u64, 0u64));
    for (layer, on_gpu) in kv.layers.iter().zip(&gpu_layer) {
        let side = match on_gpu {
            true => &mut kv_gpu,
            false => &mut kv_host,
        };
        side.0 = side.0.saturating_add(layer.k_bytes);
        side.1 = side.1.saturating_add(layer.v_bytes);
    }
    let side = |weights: u64, (k, v): (u64, u64), compute: u64, output: u64| DeviceBytes {
        compute_phases: buffers::ComputePhases::default(),
        weights,
        kv_cache: k.saturating_add(v),
        k_cache: k,
        v_cache: v,
        compute,
        blas_compute: 0,
        output,
        total: crate::units::sum([weights, k, v, compute, output]),
        mapped: 0,
    };
    Ok(Footprint {
        gpu: DeviceBytes {
            compute_phases: buffers.gpu_phases,
            mapped: offload::mapped_span(&p.tensors, &|t| device(t).is_some()),
            ..side(weights.gpu, kv_gpu, buffers.gpu_compute_bytes, 0)
        },
        host: {
            let h = side(
                weights.host,
                kv_host,
                buffers.host_compute_bytes,
                buffers.output_bytes,
            );
            DeviceBytes {
                blas_compute: buffers.blas_compute_bytes,
                total: h.total.saturating_add(buffers.blas_compute_bytes),
                ..h
            }
        },
        gpu_layers: n_gpu_layers.min(l.n_layer.saturating_add(1)),
        context,
        kv,
        buffers,
    })
}

/// Checks the inputs once, as llama.cpp would refuse them.
fn validate(inputs: &LlamaCppInputs) -> Result<(), LlamaCppRefusal> {
    let bad = |field: &'static str, reason: &str| {
        Err(LlamaCppRefusal::InvalidInput {
            field,
            reason: reason.to_string(),
        })
    };
    if inputs.n_ctx.is_some_and(|c| c > u64::from(u32::MAX)) {
        return bad("n_ctx", "llama.cpp counts cells in 32 bits");
    }
    if inputs.n_batch == 0 || inputs.n_ubatch == 0 {
        return bad("n_batch", "batch sizes must be at least 1");
    }
    if inputs.n_parallel == 0 || inputs.n_parallel > MAX_SEQUENCES {
        return bad("n_parallel", "between 1 and 256 sequences");
    }
    for (field, t) in [
        ("cache_type_k", inputs.cache_type_k),
        ("cache_type_v", inputs.cache_type_v),
    ] {
        if !CACHE_TYPES.contains(&t) {
            return bad(
                field,
                "not a KV cache type (f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1)",
            );
        }
    }
    if inputs.cache_type_v.is_quantized() && !inputs.flash_attn {
        return Err(LlamaCppRefusal::QuantizedVNeedsFlashAttention {
            cache_type_v: inputs.cache_type_v,
        });
    }
    Ok(())
}

/// The estimate for a model, llama.cpp settings and, optionally, the GPU's
/// memory in bytes (for what fits and for `-ngl auto`).
pub fn estimate(
    model: &ModelSpec,
    inputs: &LlamaCppInputs,
    gpu_bytes: Option<u64>,
) -> Result<LlamaCppEstimate, LlamaCppRefusal> {
    validate(inputs)?;
    let prepared = Prepared::new(model, inputs)?;
    estimate_prepared(model, inputs, &prepared, gpu_bytes)
}

/// The estimate for a GGUF file's own tensors (each with the type the file
/// gives it) in place of the recipe of `inputs.file_type`; `model` is the
/// shape the file's metadata describes ([`crate::gguf::model`]).
pub fn estimate_file(
    model: &ModelSpec,
    file: &[crate::gguf::model::FileTensor],
    inputs: &LlamaCppInputs,
    gpu_bytes: Option<u64>,
) -> Result<LlamaCppEstimate, LlamaCppRefusal> {
    validate(inputs)?;
    let prepared = Prepared::from_file(model, file, inputs)?;
    estimate_prepared(model, inputs, &prepared, gpu_bytes)
}

/// The estimate once the file is prepared.
fn estimate_prepared(
    model: &ModelSpec,
    inputs: &LlamaCppInputs,
    prepared: &Prepared,
    gpu_bytes: Option<u64>,
) -> Result<LlamaCppEstimate, LlamaCppRefusal> {
    let trained = model.max_context;
    let n_ctx = match inputs.n_ctx {
        Some(c) if c > 0 => c,
        _ => trained.ok_or(LlamaCppRefusal::InvalidInput {
            field: "n_ctx",
            reason: "the model states no trained context; give one".to_string(),
        })?,
    };
    let all_layers = prepared.layout.n_layer.saturating_add(1);
    let most = match gpu_bytes {
        Some(memory) => Some(fit::max_gpu_layers(prepared, inputs, n_ctx, memory)?),
        None => None,
    };
    let ngl = match (inputs.n_gpu_layers, most) {
        (Some(n), _) => n,
        (None, Some(most)) => most,
        (None, None) => all_layers,
    };
    let f = footprint(prepared, inputs, n_ctx, ngl)?;
    let fit = match (gpu_bytes, most) {
        (Some(memory), Some(most)) => Some(fit::fit(
            prepared,
            inputs,
            &f,
            fit::Layers {
                n_ctx,
                ngl,
                most,
                trained,
            },
            memory,
        )?),
        _ => None,
    };
    let all = match ngl >= all_layers {
        true => None,
        false => Some(footprint(prepared, inputs, n_ctx, all_layers)?),
    };
    let (all_layers_gpu, all_layers_host) = all.map_or((f.gpu, f.host), |a| (a.gpu, a.host));
    let command = command::llama_server(model, inputs, n_ctx, ngl);
    let l = &prepared.layout;
    Ok(LlamaCppEstimate {
        tensors: SizedTensors {
            tensors: prepared.tensors.clone(),
            counts: [l.n_layer, l.n_expert, l.n_expert_used],
            tied: l.tied,
        },
        arch: prepared.layout.arch,
        file_type: inputs.file_type,
        model_size_bytes: prepared.model_size,
        n_elements: prepared.n_elements,
        tensor_types: prepared.tensor_types.clone(),
        context: f.context,
        kv_cells: f.kv.cells,
        swa_cells: f.kv.swa_cells,
        kv_cache_bytes: f.kv.k_bytes.saturating_add(f.kv.v_bytes),
        k_bytes: f.kv.k_bytes,
        v_bytes: f.kv.v_bytes,
        compute_buffer_bytes: f
            .buffers
            .gpu_compute_bytes
            .saturating_add(f.buffers.host_compute_bytes)
            .saturating_add(f.buffers.blas_compute_bytes),
        output_buffer_bytes: f.buffers.output_bytes,
        gpu_bytes: f.gpu.total,
        host_bytes: f.host.total,
        gpu: f.gpu,
        host: f.host,
        gpu_layers: f.gpu_layers,
        layers_total: all_layers,
        fit,
        all_layers_gpu,
        all_layers_host,
        command,
    })
}
