//! The `llamacpp` method on a scenario: the scenario read as
//! `llama-server` options, where llama.cpp puts each byte, and the ring.
//!
//! # What the ring means
//!
//! llama.cpp splits a model between GPUs and host memory (`-ngl`); with
//! one GPU the ring is over it (with several, over the tightest one:
//! [`super::placement`]):
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
//! listed outside the total. With `-ngl` on "auto" the ring is the split
//! llama.cpp chooses (the most layers that fit), not the whole model: the
//! ring, the verdict and the answers read the plan llama.cpp runs. The
//! plan's host side is checked against the host RAM ([`super::plan`]):
//! where it does not fit, the verdict is "does not fit", short by the
//! host memory missing.

use super::{estimate, FileType, GgmlType, LlamaCppInputs, LlamaCppRefusal, FIT_MARGIN};
use crate::methods::engine::{engine_gpu, EngineNote, EngineRefusal, EngineReport, LlamacppReport};
use crate::methods::{MethodId, MethodResult, Refusal};
use crate::scenario::{gguf_of, ConfigText, Mode, Runner, Scenario, WeightFormat};
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
/// a context above the model's trained context (llama.cpp
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
    let plan = super::plan::LlamacppPlan::new(
        s,
        &ring_host,
        ring_gpu.total,
        e.gpu_layers,
        e.layers_total,
        run.inputs.n_cpu_moe,
    );
    let report = LlamacppReport {
        model_size_bytes: e.model_size_bytes,
        kv_cache_bytes: e.kv_cache_bytes,
        k_bytes: e.k_bytes,
        v_bytes: e.v_bytes,
        compute_buffer_bytes: e.compute_buffer_bytes,
        host_compute_bytes: e.host.compute,
        blas_compute_bytes: e.host.blas_compute,
        compute_calibrated_from_log: run.inputs.calibration.map(Box::new),
        output_buffer_bytes: e.output_buffer_bytes,
        gpu_bytes: e.gpu_bytes,
        host_bytes: e.host_bytes,
        gpu_layers: e.gpu_layers,
        layers_total: e.layers_total,
        max_gpu_layers: e.fit.map_or(e.gpu_layers, |f| f.max_gpu_layers),
        // Ollama's context is per slot: its `-c` is that times the slots.
        max_context: e.fit.and_then(|f| f.max_context).map(|c| {
            match s.engine.runner.preset().ctx_is_per_slot {
                true => c / run.inputs.n_parallel.max(1),
                false => c,
            }
        }),
        file_type: run.inputs.file_type,
        command: match (&run.gguf_file, s.engine.runner) {
            // The file's own line, with its projector.
            (Some(_), Runner::LlamaServer) => e.command.clone(),
            (None, Runner::LlamaServer) => super::command::llama_server_named(
                &run.model_id,
                &run.inputs,
                s.context,
                e.gpu_layers,
            ),
            (_, r @ (Runner::Ollama | Runner::LmStudio)) => {
                let layers = s.engine.n_gpu_layers.map(|n| (n, e.layers_total));
                super::runner::command(r, &run.model_id, s.context, layers)
            }
        },
        notes: run.notes.clone(),
        plan,
        devices: run
            .devices
            .as_ref()
            .map_or(Vec::new(), |d| d.plan.devices.clone()),
        host: run.devices.as_ref().map(|d| d.plan.host.clone()),
        limiting_gpu: run.devices.as_ref().and_then(|d| d.limiting_gpu),
        speed: crate::methods::speed::scenario::llamacpp(s, &run),
        lmstudio_guardrail: run.guardrail,
        projector: s
            .model_config
            .as_ref()
            .and_then(ConfigText::gguf)
            .and_then(|f| f.mmproj.as_ref())
            .map(|p| {
                let clip = super::clip::compute(p, run.inputs.flash_attn);
                Box::new(crate::methods::engine::ProjectorPart {
                    file: p.file.clone(),
                    projector_type: p.projector_type.clone(),
                    device: 0,
                    weights_bytes: p.bytes,
                    compute: clip.as_ref().ok().copied(),
                    not_sized: clip.err().map(|e| e.to_string()),
                })
            }),
    };
    let mut report = report;
    if s.engine.runner == Runner::LlamaServer {
        report
            .command
            .push_str(&super::placement::command_flags(&s.placement));
    }
    if let Some(d) = &run.devices {
        report.max_context =
            d.max_context
                .map(|c| match s.engine.runner.preset().ctx_is_per_slot {
                    true => c / run.inputs.n_parallel.max(1),
                    false => c,
                });
        report.gpu_bytes = d.plan.devices.iter().map(|g| g.total).sum();
        report.host_bytes = d.plan.host.total;
        report.gpu_layers = d.gpu_layers;
        report.max_gpu_layers = d.gpu_layers;
        if s.engine.runner == Runner::LlamaServer && run.gguf_file.is_none() {
            report.command = super::command::llama_server_named(
                &run.model_id,
                &run.inputs,
                s.context,
                d.gpu_layers,
            ) + &super::placement::command_flags(&s.placement);
        }
    }
    let usable = match &run.devices {
        Some(d) => {
            let plan = super::placement::ring_plan(d, run.inputs.n_gpu_layers.is_some());
            plan.devices[super::placement::tightest(plan)]
                .memory
                .saturating_sub(FIT_MARGIN)
        }
        None => run.usable_bytes,
    };
    let mut result = MethodResult {
        outside_total: vec![Term::OutputBuffer, Term::HostPart],
        engine: Some(EngineReport::Llamacpp(report)),
        ..MethodResult::new(
            MethodId::Llamacpp,
            &terms,
            Bytes(ring_gpu.total),
            Bytes(usable),
        )
    };
    if plan.host_short_by_bytes > 0 {
        // The GPU side fits, the host side does not: one verdict, short by
        // the host memory missing.
        let v = &mut result.verdict;
        v.status = crate::verdict::FitStatus::DoesNotFit;
        v.short_by_bytes = v.short_by_bytes.max(plan.host_short_by());
        v.headroom_bytes = Bytes::ZERO;
    }
    Ok(result)
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
    /// The GGUF file the model was read from, whose own tensors were
    /// sized; `None` for a file the recipe rebuilds.
    pub gguf_file: Option<String>,
    /// What the estimate assumed.
    pub notes: Vec<EngineNote>,
    /// The plan per device, with several GPUs or tensor overrides.
    pub devices: Option<super::devices::DevicesEstimate>,
    /// LM Studio's guardrail on the plan (`--runner lmstudio`).
    pub guardrail: Option<super::runner::GuardrailCheck>,
}

impl LlamacppRun {
    /// The GPU and host sides the ring is about: the split llama.cpp runs
    /// (`-ngl` as given, else as many layers as fit, as llama.cpp chooses).
    pub fn ring(&self) -> (super::DeviceBytes, super::DeviceBytes) {
        let e = &self.estimate;
        if let Some(d) = &self.devices {
            let plan = super::placement::ring_plan(d, self.inputs.n_gpu_layers.is_some());
            let g = &plan.devices[super::placement::tightest(plan)];
            let h = &plan.host;
            let gpu = super::DeviceBytes {
                weights: g.weights,
                kv_cache: g.k_cache + g.v_cache,
                k_cache: g.k_cache,
                v_cache: g.v_cache,
                compute: g.compute,
                total: g.total,
                ..super::DeviceBytes::default()
            };
            let host = super::DeviceBytes {
                weights: h.weights,
                kv_cache: h.kv_cache,
                compute: h.compute,
                output: h.output,
                total: h.total,
                ..super::DeviceBytes::default()
            };
            return (gpu, host);
        }
        (e.gpu, e.host)
    }
}

/// The scenario read as `llama-server` options and estimated, or why
/// llama.cpp does not take it (see [`estimate_scenario`]).
pub fn run(s: &Scenario) -> Result<LlamacppRun, Refusal> {
    if !covers(s.mode) {
        return Err(Refusal::Mode(s.mode));
    }
    let spec = s.model.as_deref().ok_or(Refusal::NeedsModel)?;
    let mut notes = Vec::new();
    let file = s.model_config.as_ref().and_then(ConfigText::gguf);
    let file_type = match (file, s.engine.gguf_type, s.weight_format) {
        // A file's types are its own; its file type only names it.
        (Some(f), _, _) => f.file_type.unwrap_or(DEFAULT_FILE_TYPE),
        (None, gguf_type, format) => recipe_type(spec, gguf_type, format, &mut notes)?,
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
    let runner = RunnerSettings::of(s, slots);
    let inputs = LlamaCppInputs {
        file_type,
        n_ctx: Some(runner.n_ctx),
        cache_type_k: cache(s.engine.cache_type_k),
        cache_type_v: cache(s.engine.cache_type_v),
        n_gpu_layers: s.engine.n_gpu_layers,
        n_cpu_moe: s.engine.n_cpu_moe,
        n_batch: s.engine.n_batch.unwrap_or(runner.n_batch),
        n_ubatch: runner.n_ubatch,
        flash_attn: runner.flash_attn,
        n_parallel: slots,
        kv_unified: runner.kv_unified,
        swa_full: runner.swa_full,
        build: scenario_build(s),
        calibration: s.engine.llamacpp_calibration,
        // macOS builds link Accelerate's BLAS by default (`ggml/CMakeLists.txt`:
        // `GGML_BLAS_DEFAULT ON` on Apple, off elsewhere).
        blas: s.gpu.is_some_and(|g| g.vendor == "Apple"),
        ..defaults
    };
    // The model's trained context bounds each slot: the whole `-c` with one
    // cache for every slot, `-c / -np` with one per slot.
    let per_slot = match runner.kv_unified {
        true => runner.n_ctx,
        false => runner.n_ctx / slots.max(1),
    };
    if let Some(max) = spec.max_context.filter(|max| per_slot > *max) {
        return Err(Refusal::Engine(EngineRefusal::ContextAboveModel {
            context: per_slot,
            max,
        }));
    }
    notes.push(build_note(inputs.build, spec));
    let gpu = engine_gpu(s, true);
    notes.extend(gpu.notes.iter().cloned());
    let projector = file.and_then(|f| f.mmproj.as_ref());
    // Its compute buffers at the warm-up image, with the model's `-fa`.
    let clip = projector.map(|p| super::clip::compute(p, inputs.flash_attn));
    let clip_gpu = clip
        .as_ref()
        .and_then(|c| c.as_ref().ok())
        .map_or(0, |c| c.gpu_bytes);
    // The projector takes its GPU memory before the layers are fitted.
    let for_layers = gpu
        .total_bytes
        .saturating_sub(projector.map_or(0, |p| p.bytes))
        .saturating_sub(clip_gpu);
    let mut e = match file {
        Some(f) => super::estimate_file(spec, &f.tensors, &inputs, Some(for_layers)),
        None => estimate(spec, &inputs, Some(gpu.total_bytes)),
    }
    .map_err(refusal)?;
    if let Some(f) = file {
        e.command = super::command::llama_server_file(&f.file, &inputs, s.context, e.gpu_layers);
    }
    if let (Some(p), Some(c)) = (projector, &clip) {
        super::file::with_projector(&mut e, p, c.as_ref().ok(), gpu.total_bytes);
    }
    let model_id = crate::methods::vllm::model_id(s, spec);
    if s.engine.runner != Runner::LlamaServer {
        notes.push(EngineNote::LlamacppRunner {
            runner: s.engine.runner,
            line: super::command::llama_server_named(
                &model_id,
                &inputs,
                runner.n_ctx,
                e.gpu_layers,
            ),
        });
    }
    let devices = match super::placement::devices_of(s, gpu.total_bytes)? {
        Some(d) => Some(super::placement::plan_of(spec, &inputs, &d, &s.placement)?),
        None => None,
    };
    if let Some(note) = super::placement::wired_note(&gpu, e.all_layers_gpu.total) {
        notes.push(note);
    }
    if let Some(note) =
        super::placement::gtt_note(&gpu, e.all_layers_gpu.total, s.engine.bios_vram_bytes)
    {
        notes.push(note);
    }
    let host_total = devices.as_ref().map_or(e.host.total, |d| d.plan.host.total);
    notes.extend(super::placement::host_note(
        s,
        host_total,
        !s.placement.no_mmap,
    ));
    let guardrail = lmstudio_guardrail(s, &e, devices.as_ref(), gpu.total_bytes, host_total)?;
    Ok(LlamacppRun {
        guardrail,
        devices,
        estimate: e,
        inputs,
        usable_bytes: gpu.total_bytes.saturating_sub(FIT_MARGIN),
        model_id,
        gguf_file: file.map(|f| f.file.clone()),
        notes,
    })
}

/// LM Studio's model-loading guardrail on the plan (`--runner lmstudio`):
/// the GPUs' parts and the host's against the GPUs' memory and the host
/// RAM (the plan's, assumed where not given), at the scenario's level.
fn lmstudio_guardrail(
    s: &Scenario,
    e: &super::LlamaCppEstimate,
    devices: Option<&super::devices::DevicesEstimate>,
    gpu_memory: u64,
    host_total: u64,
) -> Result<Option<super::runner::GuardrailCheck>, Refusal> {
    if s.engine.runner != Runner::LmStudio {
        return Ok(None);
    }
    let (gpu_load, gpu_mem) = match devices {
        Some(d) => d.plan.devices.iter().fold((0u64, 0u64), |(l, m), x| {
            (l.saturating_add(x.total), m.saturating_add(x.memory))
        }),
        None => (e.gpu_bytes, gpu_memory),
    };
    let given = s.host_ram_bytes.get();
    let ram = match given {
        0 => super::plan::ASSUMED_HOST_RAM,
        r => r,
    };
    let check = super::runner::guardrail(
        s.engine.lmstudio_guardrail.unwrap_or_default(),
        gpu_load.saturating_add(host_total),
        gpu_mem.saturating_add(ram),
        given == 0,
    );
    match (check.refuses, check.limit_bytes) {
        (true, Some(limit)) => Err(Refusal::Engine(EngineRefusal::LmStudioGuardrail {
            level: check.level,
            load_bytes: check.load_bytes,
            limit_bytes: limit,
            machine_bytes: check.machine_bytes,
        })),
        _ => Ok(Some(check)),
    }
}

/// llama.cpp's options as the runner sets them.
struct RunnerSettings {
    /// `-c`: for Ollama, `num_ctx` × slots.
    n_ctx: u64,
    n_batch: u64,
    n_ubatch: u64,
    flash_attn: bool,
    kv_unified: bool,
    swa_full: bool,
}

impl RunnerSettings {
    /// The scenario's context and knobs through the runner's preset
    /// ([`super::runner`]): what the person left at llama.cpp's default
    /// takes the runner's.
    fn of(s: &Scenario, slots: u64) -> RunnerSettings {
        let preset = s.engine.runner.preset();
        let n_ctx = match preset.ctx_is_per_slot {
            true => s.context.saturating_mul(slots.max(1)),
            false => s.context,
        };
        let (n_batch, n_ubatch) = match (s.engine.runner, s.engine.ubatch) {
            (Runner::Ollama, 512) => {
                let b = super::runner::ollama_batch(n_ctx);
                (b, b)
            }
            (Runner::LlamaServer | Runner::Ollama | Runner::LmStudio, ub) => {
                (preset.n_batch.max(ub), ub)
            }
        };
        RunnerSettings {
            n_ctx,
            n_batch,
            n_ubatch,
            flash_attn: s.engine.flash_attn && preset.flash_attn.unwrap_or(true),
            // llama-server shares one cache between the slots it chooses
            // itself; the others start it with `-np`, one cache per slot.
            kv_unified: s.engine.kv_unified.unwrap_or(match s.engine.runner {
                Runner::LlamaServer => slots > 1,
                Runner::Ollama | Runner::LmStudio => preset.kv_unified,
            }),
            swa_full: s.engine.swa_full || preset.swa_full,
        }
    }
}

/// The build whose cache layouts are taken: `--llamacpp-build`, else the
/// build the calibration log printed (`--calibrate LOG`: the machine's own
/// llama.cpp), else none (the newest layouts).
fn scenario_build(s: &Scenario) -> Option<super::build::Build> {
    s.engine
        .llamacpp_build
        .or_else(|| s.engine.llamacpp_calibration.as_ref().and_then(|c| c.build))
        .map(super::build::Build)
}

/// The build the cache layouts are taken from, as a note.
/// Only the changes that touch the model's layers are named.
fn build_note(build: Option<super::build::Build>, spec: &crate::model::ModelSpec) -> EngineNote {
    use super::build::Change;
    use crate::model::AttentionKind;
    let has = |f: fn(&AttentionKind) -> bool| spec.attention.iter().any(f);
    let mla = has(|a| matches!(a, AttentionKind::Mla { .. }));
    let sliding = has(|a| matches!(a, AttentionKind::SlidingWindow { .. }));
    let touches = |c: &Change| match c {
        Change::MlaLatentCache | Change::MlaVLess => mla,
        Change::SwaCache => sliding,
        // Every cache is written; the inputs size the compute buffers.
        Change::KvSetRows => true,
    };
    let unsure = super::build::layouts(build)
        .map(|l| {
            l.unsure
                .iter()
                .filter(|c| touches(c))
                .map(|c| c.id().to_string())
                .collect()
        })
        .unwrap_or_default();
    EngineNote::LlamacppBuild {
        build: build.map(|b| b.0),
        unsure,
    }
}

/// The file type the recipe rebuilds: the one chosen, else the weight
/// format's, else the checkpoint's as published.
fn recipe_type(
    spec: &crate::model::ModelSpec,
    gguf_type: Option<FileType>,
    format: Option<WeightFormat>,
    notes: &mut Vec<EngineNote>,
) -> Result<FileType, Refusal> {
    Ok(match (gguf_type, format) {
        (Some(t), _) => t,
        (None, Some(f)) => match gguf_of(f) {
            Some(t) => t,
            None if f == WeightFormat::AsPublished => as_published(spec, notes),
            None => return Err(Refusal::Engine(EngineRefusal::Format { format: f })),
        },
        (None, None) => as_published(spec, notes),
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

#[cfg(test)]
mod build_tests {
    use super::*;
    use crate::scenario::{LlamacppCalibration, ModelRef, ScenarioInput};

    fn scenario(named: Option<u32>, logged: Option<u32>) -> Scenario {
        let mut input = ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            ..ScenarioInput::default()
        };
        input.engine.llamacpp_build = named;
        input.engine.llamacpp_calibration = logged.map(|b| LlamacppCalibration {
            gpu_compute_printed_bytes: 0,
            gpu_compute_replayed_bytes: 0,
            host_compute_printed_bytes: None,
            host_compute_replayed_bytes: None,
            free_bytes: None,
            build: Some(b),
        });
        input.validate().unwrap()
    }

    #[test]
    fn a_named_build_wins_over_the_calibration_logs() {
        use super::super::build::Build;
        assert_eq!(
            scenario_build(&scenario(None, Some(4905))),
            Some(Build(4905))
        );
        assert_eq!(
            scenario_build(&scenario(Some(5331), Some(4905))),
            Some(Build(5331))
        );
        assert_eq!(scenario_build(&scenario(None, None)), None);
    }
}
