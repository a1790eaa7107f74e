//! The `llamacpp` method on a scenario: the scenario read as
//! `llama-server` options, where llama.cpp puts each byte, and the ring.
//!
//! # What the ring means
//!
//! llama.cpp splits a model between one GPU and host memory (`-ngl`); the
//! ring is over that GPU:
//!
//! ```text
//! needed = model buffer + K cache + V cache + compute buffer     (GPU side)
//! usable = M − 1 GiB
//! ```
//!
//! `M` the GPU's memory as the engine sees it (what CUDA reports, Metal's
//! wired limit on Apple silicon) and 1 GiB the margin llama.cpp keeps free
//! when it fits a model to a device itself (`common/common.h`,
//! `fit_params_target`). The host side (the output buffer, and the
//! weights, cache and compute buffer of the layers left on the host) is
//! listed outside the total. With `-ngl` on "auto" the estimate takes the
//! most layers that fit, as llama.cpp does.

use super::{estimate, FileType, GgmlType, LlamaCppInputs, LlamaCppRefusal, FIT_MARGIN};
use crate::methods::engine::{engine_gpu, EngineNote, EngineRefusal, EngineReport, LlamacppReport};
use crate::methods::{MethodId, MethodResult, Refusal};
use crate::scenario::{gguf_of, Mode, Scenario, WeightFormat};
use crate::term::Term;
use crate::units::Bytes;

/// llama.cpp serves; it does not train.
pub const fn covers(mode: Mode) -> bool {
    matches!(mode, Mode::Inference)
}

/// The GGUF file type when none is chosen: the most common download.
pub const DEFAULT_FILE_TYPE: FileType = FileType::Q4_K_M;

/// The `llamacpp` method's result for a validated scenario, or why
/// llama.cpp does not take it: a mode other than serving, typed numbers,
/// more than one GPU, a context above the model's trained context (llama.cpp
/// warns and runs it, outside what the model was trained for), a weight
/// format that is not a GGUF type, an
/// architecture whose GGUF layout is not derived, cache types llama.cpp
/// refuses.
pub fn estimate_scenario(s: &Scenario) -> Result<MethodResult, Refusal> {
    let run = run(s)?;
    let e = &run.estimate;
    let (ring_gpu, ring_host) = run.ring();
    let host_part = ring_host.total.saturating_sub(ring_host.output);
    let terms = [
        (Term::Weights, Bytes(ring_gpu.weights)),
        (Term::KCache, Bytes(ring_gpu.k_cache)),
        (Term::VCache, Bytes(ring_gpu.v_cache)),
        (Term::ComputeBuffer, Bytes(ring_gpu.compute)),
        (Term::OutputBuffer, Bytes(ring_host.output)),
        (Term::HostPart, Bytes(host_part)),
    ];
    let report = LlamacppReport {
        model_size_bytes: e.model_size_bytes,
        kv_cache_bytes: e.kv_cache_bytes,
        k_bytes: e.k_bytes,
        v_bytes: e.v_bytes,
        compute_buffer_bytes: e.compute_buffer_bytes,
        output_buffer_bytes: e.output_buffer_bytes,
        gpu_bytes: e.gpu_bytes,
        host_bytes: e.host_bytes,
        gpu_layers: e.gpu_layers,
        layers_total: e.layers_total,
        max_gpu_layers: e.fit.map_or(e.gpu_layers, |f| f.max_gpu_layers),
        max_context: e.fit.and_then(|f| f.max_context),
        file_type: run.inputs.file_type,
        command: super::command::llama_server_named(
            &run.model_id,
            &run.inputs,
            s.context,
            e.gpu_layers,
        ),
        notes: run.notes.clone(),
        speed: crate::methods::speed::scenario::llamacpp(s, &run),
    };
    Ok(MethodResult {
        outside_total: vec![Term::OutputBuffer, Term::HostPart],
        engine: Some(EngineReport::Llamacpp(report)),
        ..MethodResult::new(
            MethodId::Llamacpp,
            &terms,
            Bytes(ring_gpu.total),
            Bytes(run.usable_bytes),
        )
    })
}

/// What the scenario's result is made of: llama.cpp's own estimate for the
/// options the scenario reads as. A front end that explains the terms (the
/// lesson) reads it; the result itself is [`estimate_scenario`]'s.
#[derive(Debug, Clone, PartialEq)]
pub struct LlamacppRun {
    /// Where llama.cpp puts each byte.
    pub estimate: super::LlamaCppEstimate,
    /// The `llama-server` options the scenario reads as.
    pub inputs: LlamaCppInputs,
    /// The GPU's memory less the margin llama.cpp keeps free.
    pub usable_bytes: u64,
    /// The id the command names.
    pub model_id: String,
    /// What the estimate assumed.
    pub notes: Vec<EngineNote>,
}

impl LlamacppRun {
    /// The GPU and host sides the ring is about: `-ngl` as given, else
    /// every layer on the GPU.
    pub fn ring(&self) -> (super::DeviceBytes, super::DeviceBytes) {
        let e = &self.estimate;
        match self.inputs.n_gpu_layers {
            Some(_) => (e.gpu, e.host),
            None => (e.all_layers_gpu, e.all_layers_host),
        }
    }
}

/// The scenario read as `llama-server` options and estimated, or why
/// llama.cpp does not take it (see [`estimate_scenario`]).
pub fn run(s: &Scenario) -> Result<LlamacppRun, Refusal> {
    if !covers(s.mode) {
        return Err(Refusal::Mode(s.mode));
    }
    let spec = s.model.as_deref().ok_or(Refusal::NeedsModel)?;
    if s.layout.gpus > 1 {
        return Err(Refusal::TooManyGpus { max: 1 });
    }
    let mut notes = Vec::new();
    let file_type = match (s.engine.gguf_type, s.weight_format) {
        (Some(t), _) => t,
        (None, Some(f)) => match gguf_of(f) {
            Some(t) => t,
            None if f == WeightFormat::AsPublished => as_published(spec, &mut notes),
            None => return Err(Refusal::Engine(EngineRefusal::Format { format: f })),
        },
        (None, None) => as_published(spec, &mut notes),
    };
    let from_kv = cache_type_of(s.kv_milli_bits);
    if (s.engine.cache_type_k.is_none() || s.engine.cache_type_v.is_none()) && from_kv.is_none() {
        notes.push(EngineNote::CacheTypeDefault);
    }
    let cache = |given: Option<GgmlType>| given.or(from_kv).unwrap_or(GgmlType::F16);
    let defaults = LlamaCppInputs::default();
    if s.sequences > super::MAX_SEQUENCES {
        return Err(Refusal::Engine(EngineRefusal::TooManySequences {
            max: super::MAX_SEQUENCES,
        }));
    }
    let slots = s.sequences;
    let inputs = LlamaCppInputs {
        file_type,
        n_ctx: Some(s.context),
        cache_type_k: cache(s.engine.cache_type_k),
        cache_type_v: cache(s.engine.cache_type_v),
        n_gpu_layers: s.engine.n_gpu_layers,
        n_cpu_moe: s.engine.n_cpu_moe,
        n_ubatch: s.engine.ubatch,
        flash_attn: s.engine.flash_attn,
        // One slot per sequence at once, sharing one cache (as
        // llama-server's automatic slots do).
        n_parallel: slots,
        kv_unified: slots > 1,
        ..defaults
    };
    if let Some(max) = spec.max_context.filter(|max| s.context > *max) {
        return Err(Refusal::Engine(EngineRefusal::ContextAboveModel {
            context: s.context,
            max,
        }));
    }
    let gpu = engine_gpu(s, true);
    notes.extend(gpu.notes.iter().cloned());
    let e = estimate(spec, &inputs, Some(gpu.total_bytes)).map_err(refusal)?;
    Ok(LlamacppRun {
        estimate: e,
        inputs,
        usable_bytes: gpu.total_bytes.saturating_sub(FIT_MARGIN),
        model_id: crate::methods::vllm::model_id(s, spec),
        notes,
    })
}

/// The GGUF file type of a checkpoint "as published": gpt-oss's MXFP4
/// experts convert to `MXFP4_MOE`; every other checkpoint is converted and
/// quantized, to [`DEFAULT_FILE_TYPE`] unless a type is chosen.
fn as_published(spec: &crate::model::ModelSpec, notes: &mut Vec<EngineNote>) -> FileType {
    let mxfp4 = spec
        .quantization
        .as_ref()
        .is_some_and(|q| q.scheme == crate::model::QuantScheme::Mxfp4);
    match mxfp4 {
        true => FileType::MXFP4_MOE,
        false => {
            notes.push(EngineNote::GgufDefault);
            DEFAULT_FILE_TYPE
        }
    }
}

/// The cache type a scenario's bytes per KV value name, where they name
/// one: 4 → f32, 2 → f16 (llama.cpp's default), 1 → q8_0 (8.5 bits), 0.5
/// → q4_0 (4.5 bits).
fn cache_type_of(kv_milli_bits: u64) -> Option<GgmlType> {
    Some(match kv_milli_bits {
        32_000 => GgmlType::F32,
        16_000 => GgmlType::F16,
        8_000 => GgmlType::Q8_0,
        4_000 => GgmlType::Q4_0,
        _ => return None,
    })
}

/// llama.cpp's refusals, in the registry's terms.
fn refusal(r: LlamaCppRefusal) -> Refusal {
    let engine = |e| Refusal::Engine(e);
    match r {
        LlamaCppRefusal::UnsupportedArchitecture { family, .. } => {
            engine(EngineRefusal::Architecture { family })
        }
        LlamaCppRefusal::UnsupportedLayout { what, .. } => {
            engine(EngineRefusal::Layout { problem: what })
        }
        LlamaCppRefusal::QuantizedVNeedsFlashAttention { cache_type_v } => {
            engine(EngineRefusal::QuantizedVNeedsFlashAttention { cache_type_v })
        }
        LlamaCppRefusal::CacheRowNotBlocks {
            cache_type,
            row,
            block,
        } => engine(EngineRefusal::CacheRowNotBlocks {
            cache_type,
            row,
            block,
        }),
        LlamaCppRefusal::NoTypeFallback { row, ggml_type, .. } => {
            engine(EngineRefusal::NoTypeFallback { row, ggml_type })
        }
        LlamaCppRefusal::InvalidInput { .. } => engine(EngineRefusal::Input),
    }
}
