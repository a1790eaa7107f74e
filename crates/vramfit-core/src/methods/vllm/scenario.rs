//! The `vllm` method on a scenario: the scenario read as `vllm serve`
//! options, the engine's start-up report, and the ring.
//!
//! # What the ring means
//!
//! vLLM takes `requested = total × gpu_memory_utilization` of each GPU and
//! gives the KV cache whatever its weights, profiling peak and non-torch
//! memory leave of it, so the whole of `requested` is always in use. The
//! question a person brings is whether it starts and serves what they
//! ask: the scenario's sequences at once, each of the scenario's context
//! (`--max-model-len`). The ring therefore compares, on the most loaded
//! GPU,
//!
//! ```text
//! needed = weights + activation peak + non-torch + B · kv(L)
//! usable = requested
//! ```
//!
//! with `kv(L)` the KV memory one request of `L` tokens takes in vLLM's
//! blocks on that worker (`max_memory_usage_bytes` over its KV cache
//! groups). It fits exactly when vLLM starts (one request of `L` fits the
//! KV cache) and its KV cache holds the `B` requests at once; the
//! utilization is that demand's share of the requested memory. What vLLM
//! allocates in full — the KV cache's bytes and tokens, the concurrency at
//! `L`, the longest `L` that starts — is in the engine's figures
//! ([`super::super::engine::VllmReport`]); the CUDA-graph pool, captured
//! after the KV cache out of the memory the utilization leaves, is listed
//! outside the total.

use super::{
    estimate, serve_command, KvCacheDtype, ModelDtype, OnlineQuant, Parallel, StartErrorKind,
    Utilization, VllmInputs, VllmModel, VllmNote, VllmRefusal,
};
use crate::methods::engine::{engine_gpu, EngineNote, EngineRefusal, EngineReport, VllmReport};
use crate::methods::{MethodId, MethodResult, Refusal};
use crate::model::{ModelSpec, QuantScheme};
use crate::scenario::{ComputeDtype, ConfigText, Mode, Scenario, WeightFormat};
use crate::term::Term;
use crate::units::Bytes;

/// vLLM serves; it does not train.
pub const fn covers(mode: Mode) -> bool {
    matches!(mode, Mode::Inference)
}

/// The `vllm` method's result for a validated scenario, or why vLLM does
/// not take it: a mode other than serving, typed numbers (it needs the
/// model's config), GPUs that are not a multiple of TP × PP, a weight
/// format vLLM does not load, a context above the model's, heads that do
/// not divide, layers whose cache is not laid out.
pub fn estimate_scenario(s: &Scenario) -> Result<MethodResult, Refusal> {
    let run = run(s)?;
    let worker = &run.estimate.ranks[run.worker];
    let kv = worker
        .kv_per_request_bytes
        .saturating_mul(s.replica_sequences());
    // From 0.21 on vLLM sets its graph estimate aside inside the requested
    // memory; before, the graphs are captured after the cache, outside it.
    let reserved = worker.graph_reserve_bytes > 0;
    let graphs = match reserved {
        true => worker.graph_reserve_bytes,
        false => worker.cuda_graph_bytes,
    };
    let terms = [
        (Term::Weights, Bytes(worker.weights_bytes)),
        (Term::ActivationPeak, Bytes(worker.activation_peak_bytes)),
        (Term::NonTorch, Bytes(worker.non_torch_bytes)),
        (Term::KvCache, Bytes(kv)),
        (Term::CudaGraphs, Bytes(graphs)),
    ];
    let est = &run.estimate;
    let report = VllmReport {
        weights_bytes: est.weights_bytes,
        activation_peak_bytes: est.activation_peak_bytes,
        non_torch_bytes: est.non_torch_bytes,
        kv_cache_bytes: est.kv_cache_bytes,
        kv_cache_tokens: est.kv_cache_tokens,
        cuda_graph_bytes: est.cuda_graph_bytes,
        max_model_len_fits: est.max_model_len_fits,
        max_concurrency: est.max_concurrency,
        command: serve_command(&run.model_id, &run.inputs),
        gpu_total_bytes: run.gpu_total_bytes,
        start_error: est.start_error.clone(),
        notes: run.notes.clone(),
        vllm_version: run.inputs.release,
        gpu_memory_utilization: f64::from(run.inputs.gpu_memory_utilization.0) / 10_000.0,
        max_num_batched_tokens: est.resolved.max_num_batched_tokens,
        max_num_seqs: est.resolved.max_num_seqs,
        graph_reserve_bytes: worker.graph_reserve_bytes,
        runtime: run.runtime,
        speed: crate::methods::speed::scenario::vllm(s, &run),
    };
    Ok(MethodResult {
        gpus: s.layout.gpus,
        outside_total: match reserved {
            true => vec![],
            false => vec![Term::CudaGraphs],
        },
        engine: Some(EngineReport::Vllm(report)),
        ..MethodResult::new(
            MethodId::Vllm,
            &terms,
            Bytes(run.demand(worker, s.replica_sequences())),
            Bytes(est.requested_bytes),
        )
    })
}

/// What the scenario's result is made of: vLLM's own estimate for the
/// options the scenario reads as, and the worker the ring is about. A
/// front end that explains the terms (the lesson) reads it; the result
/// itself is [`estimate_scenario`]'s.
#[derive(Debug, Clone, PartialEq)]
pub struct VllmRun {
    /// vLLM's start-up figures, every worker's.
    pub estimate: super::VllmEstimate,
    /// The `vllm serve` options the scenario reads as.
    pub inputs: VllmInputs,
    /// Index in `estimate.ranks` of the most loaded worker: the largest
    /// `non_kv + B × kv(L)`.
    pub worker: usize,
    /// The GPU's total memory the estimate starts from.
    pub gpu_total_bytes: u64,
    /// The id the command names.
    pub model_id: String,
    /// What the estimate assumed or left out.
    pub notes: Vec<EngineNote>,
    /// The runtime terms' row (GPU class and link).
    pub runtime: super::RuntimeRow,
}

impl VllmRun {
    /// What a worker needs for `batch` requests of the context: its memory
    /// outside the KV cache and `batch` requests' KV blocks.
    pub fn demand(&self, rank: &super::RankEstimate, batch: u64) -> u64 {
        crate::units::sum([
            rank.non_kv_bytes,
            rank.kv_per_request_bytes.saturating_mul(batch),
        ])
    }
}

/// The scenario read as `vllm serve` options and estimated, or why vLLM
/// does not take it (see [`estimate_scenario`]).
pub fn run(s: &Scenario) -> Result<VllmRun, Refusal> {
    if !covers(s.mode) {
        return Err(Refusal::Mode(s.mode));
    }
    let spec = s.model.clone().ok_or(Refusal::NeedsModel)?;
    let model = VllmModel::shared(
        spec.clone(),
        s.model_config.as_ref().map(ConfigText::as_str),
    );
    let derived = model
        .extras
        .derived_max_model_len
        .or(spec.max_context)
        .unwrap_or(2048);
    if s.context > derived {
        return Err(engine(EngineRefusal::ContextAboveModel {
            context: s.context,
            max: derived,
        }));
    }
    if s.gpu
        .is_some_and(|g| g.category == crate::catalog::GpuCategory::AppleUnified)
    {
        return Err(engine(EngineRefusal::NoMetalBackend));
    }
    let mut gpu = engine_gpu(s, false);
    let e = &s.engine;
    // A calibrating log that prints the GPU's total gives the machine's own
    // figure, where the GPU is a catalog entry (typed memory stays typed).
    if let (Some(total), Some(_)) = (
        e.vllm_calibration.and_then(|c| c.cuda_total_bytes),
        gpu.catalog,
    ) {
        gpu.total_bytes = total;
        gpu.notes.retain(|n| {
            !matches!(
                n,
                EngineNote::DriverTotalUsed | EngineNote::NominalCapacityUsed
            )
        });
    }
    let mut notes = gpu.notes.clone();
    if gpu.catalog.and_then(|g| g.sm_count).is_none() {
        notes.push(EngineNote::SmCountAssumed);
    }
    if gpu.compute_capability.is_none() {
        notes.push(EngineNote::ArchitectureAssumed);
    }
    if gpu
        .compute_capability
        .is_some_and(|c| super::unified_memory(c.major, c.minor))
    {
        notes.push(EngineNote::VllmUnifiedMemory);
    }
    let (dtype, quantization) = loading(s.weight_format, &spec)?;
    // `--dtype` typed apart from the weight format is vLLM's own knob.
    let dtype = s.engine.dtype.map_or(dtype, model_dtype);
    let kv_cache_dtype = match s.kv_milli_bits {
        8_000 => KvCacheDtype::Fp8,
        _ => KvCacheDtype::Auto,
    };
    let hopper = gpu
        .compute_capability
        .is_none_or(|c| (c.major, c.minor) == (9, 0));
    let mut runtime = runtime_row(&gpu, e.interconnect);
    if let Some(c) = e.vllm_calibration {
        runtime.terms = runtime.terms.calibrated(&c);
        runtime.source = "calibrated: fitted on this machine's vLLM start-up log (--calibrate)";
    }
    let release = e.vllm_version.unwrap_or(super::VllmRelease::DEFAULT);
    let facts = super::release_facts(release).map_err(|_| {
        engine(EngineRefusal::VllmRelease {
            release,
            newest: super::VllmRelease::NEWEST,
        })
    })?;
    let inputs = VllmInputs {
        tp: s.layout.tp.min(u64::from(u32::MAX)) as u32,
        pp: s.layout.pp.min(u64::from(u32::MAX)) as u32,
        max_model_len: Some(s.context),
        // Not typed: the release's own default.
        gpu_memory_utilization: Utilization(
            e.utilization_ten_thousandths
                .unwrap_or(facts.gpu_memory_utilization.value),
        ),
        max_num_batched_tokens: e.max_num_batched_tokens,
        max_num_seqs: e.max_num_seqs,
        block_size: e.block_size,
        dtype,
        quantization,
        kv_cache_dtype,
        enforce_eager: e.enforce_eager,
        sm_count: gpu.sm_count.max(1),
        a100: gpu.a100,
        h100_or_h200: gpu.h100_or_h200,
        gb10: gpu
            .compute_capability
            .is_some_and(|c| (c.major, c.minor) == (12, 1)),
        gemm_workspace_bytes: super::gemm_workspaces(hopper),
        release,
        runtime: runtime.terms,
        other_memory_bytes: e.other_memory_bytes,
        mxfp4_padding: super::Mxfp4Padding::for_gpu(gpu.compute_capability.map_or(9, |c| c.major)),
    };
    if facts.kv_budget.value == super::KvBudget::FreeMemoryConsumed {
        notes.push(EngineNote::VllmConsumedMemoryNotModelled);
    }
    let est = estimate(&model, gpu.total_bytes, &inputs).map_err(refusal)?;
    if kv_cache_dtype == KvCacheDtype::Auto
        && est.resolved.kv_bytes.saturating_mul(8_000) != s.kv_milli_bits
    {
        notes.push(match super::checkpoint_kv_fp8(&spec) {
            true => EngineNote::KvFp8FromCheckpoint,
            false => EngineNote::KvFollowsModelDtype {
                bytes: est.resolved.kv_bytes,
            },
        });
    }
    notes.extend(est.notes.iter().map(|n| match n {
        VllmNote::QuantizationNotModelled { method } => EngineNote::QuantizationNotModelled {
            method: method.clone(),
        },
        VllmNote::VisionTowerNotCounted => EngineNote::VisionTowerNotCounted,
        VllmNote::VisionProfileNotCounted => EngineNote::VisionProfileNotCounted,
    }));
    if est
        .start_error
        .as_ref()
        .is_some_and(|e| e.kind == StartErrorKind::ContextBeyondModel)
    {
        return Err(engine(EngineRefusal::ContextAboveModel {
            context: s.context,
            max: derived,
        }));
    }
    let leftover = gpu.total_bytes.saturating_sub(est.requested_bytes);
    if est.cuda_graph_bytes > leftover {
        notes.push(EngineNote::CudaGraphsBeyondMemory);
    }
    let mut run = VllmRun {
        estimate: est,
        inputs,
        worker: 0,
        gpu_total_bytes: gpu.total_bytes,
        model_id: model_id(s, &spec),
        notes,
        runtime,
    };
    // The most loaded worker: the largest demand.
    run.worker = (0..run.estimate.ranks.len())
        .max_by_key(|i| run.demand(&run.estimate.ranks[*i], s.replica_sequences()))
        .ok_or(engine(EngineRefusal::Input))?;
    Ok(run)
}

/// The runtime terms of the scenario's GPU class and link: the link
/// asked for, else what the catalog entry implies (PCIe for consumer,
/// workstation, laptop and inference cards and models named "PCIe", else
/// NVLink).
fn runtime_row(
    gpu: &crate::methods::engine::EngineGpu,
    asked: Option<super::Link>,
) -> super::RuntimeRow {
    use crate::catalog::gpus::GpuCategory;
    let class = match (
        gpu.catalog.map(|g| g.vendor.as_str()),
        gpu.compute_capability,
    ) {
        (Some("AMD"), _) => super::GpuClass::Rocm,
        (_, Some(c)) => super::GpuClass::from_compute(Some(c.major), Some(c.minor)),
        (_, None) => super::GpuClass::Other,
    };
    // The catalog's link where it states one, else what its category and
    // name imply.
    let implied = match gpu.catalog {
        Some(g) if g.interconnect.is_some() => g.interconnect.unwrap_or_default(),
        Some(g) if g.name.contains("PCIe") => super::Link::Pcie,
        Some(g) => match g.category {
            GpuCategory::Datacenter => super::Link::Nvlink,
            GpuCategory::Consumer
            | GpuCategory::Workstation
            | GpuCategory::DatacenterInference
            | GpuCategory::AppleUnified
            | GpuCategory::Laptop => super::Link::Pcie,
        },
        None => super::Link::Nvlink,
    };
    super::runtime_terms(class, asked.unwrap_or(implied))
}

fn engine(refusal: EngineRefusal) -> Refusal {
    Refusal::Engine(refusal)
}

/// How vLLM loads the weights for the scenario's format: the checkpoint as
/// published (no format, typed bits, "as published", or the checkpoint's
/// own format named), a dtype (`--dtype`), or FP8 online (`--quantization
/// fp8`); any other format is not something `vllm serve` makes of a
/// checkpoint.
fn loading(
    format: Option<WeightFormat>,
    spec: &ModelSpec,
) -> Result<(ModelDtype, OnlineQuant), Refusal> {
    use WeightFormat as W;
    match format {
        None | Some(W::AsPublished) => Ok((ModelDtype::Auto, OnlineQuant::None)),
        Some(W::Bf16) => Ok((ModelDtype::Bfloat16, OnlineQuant::None)),
        Some(W::Fp16) => Ok((ModelDtype::Float16, OnlineQuant::None)),
        Some(W::Fp32) => Ok((ModelDtype::Float32, OnlineQuant::None)),
        Some(f) if published_in(spec) == Some(f) => Ok((ModelDtype::Auto, OnlineQuant::None)),
        Some(W::Fp8) => Ok((ModelDtype::Auto, OnlineQuant::Fp8)),
        // Formats vLLM loads from a published checkpoint, never makes.
        Some(format @ (W::Awq | W::Gptq | W::Int8 | W::Mxfp4)) => {
            Err(engine(EngineRefusal::LoadsButDoesNotQuantize { format }))
        }
        Some(format) => Err(engine(EngineRefusal::Format { format })),
    }
}

/// vLLM's `--dtype` for the scenario's compute dtype.
const fn model_dtype(dtype: ComputeDtype) -> ModelDtype {
    match dtype {
        ComputeDtype::Bf16 => ModelDtype::Bfloat16,
        ComputeDtype::Fp16 => ModelDtype::Float16,
        ComputeDtype::Fp32 => ModelDtype::Float32,
    }
}

/// The weight format a quantized checkpoint is published in, where it is
/// one of the scenario's formats.
pub(super) fn published_in(spec: &ModelSpec) -> Option<WeightFormat> {
    use QuantScheme as Q;
    Some(match spec.quantization.as_ref()?.scheme {
        Q::Fp8Block { .. } | Q::Fp8Tensor | Q::Fp8Channel => WeightFormat::Fp8,
        Q::Mxfp4 => WeightFormat::Mxfp4,
        Q::Gptq { .. } => WeightFormat::Gptq,
        Q::AwqGemm { .. } | Q::AwqGemv { .. } | Q::AwqGemvFast { .. } => WeightFormat::Awq,
        Q::Bnb4 { .. } => WeightFormat::Nf4,
        Q::Bnb8 | Q::Int8Channel => WeightFormat::Int8,
        Q::CompressedTensors(w) => match (w.num_bits, w.float) {
            (8, true) => WeightFormat::Fp8,
            (8, false) => WeightFormat::Int8,
            (4, false) => WeightFormat::Gptq,
            _ => return None,
        },
        Q::Nvfp4 { .. } => return None,
    })
}

/// The id `vllm serve` takes: the catalog id, else the config's
/// `_name_or_path`, else `MODEL` (a pasted config without a name: the
/// folder that holds it and its weights).
pub fn model_id(s: &Scenario, spec: &ModelSpec) -> String {
    let named = spec.name.as_deref().filter(|n| !n.is_empty());
    match (&s.model_config, named) {
        (Some(ConfigText::Catalog { id, .. }), _) => id.to_string(),
        (_, Some(name)) => name.to_string(),
        _ => "MODEL".into(),
    }
}

/// vLLM's own refusals, in the registry's terms.
fn refusal(r: VllmRefusal) -> Refusal {
    match r {
        VllmRefusal::InvalidInput { .. } => engine(EngineRefusal::Input),
        VllmRefusal::Parallelism { problem, .. } => engine(match problem {
            Parallel::Heads { heads, tp } => EngineRefusal::HeadsNotDivisible { heads, tp },
            Parallel::Vocab { vocab, tp } => EngineRefusal::VocabNotDivisible { vocab, tp },
            Parallel::Stages { pp, layers } => EngineRefusal::StagesOverLayers { pp, layers },
        }),
        VllmRefusal::Quantization { .. } => engine(EngineRefusal::QuantizationConflict),
        VllmRefusal::UnsupportedLayers { feature, .. } => Refusal::Feature(feature),
    }
}
