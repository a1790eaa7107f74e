//! `vramfit estimate`: vramfit's options and the engines', in the order
//! given, then the engine command after `--`; the method their knobs
//! choose.

use super::apply::{apply, compute_dtype, method};
use super::{model_ref, Command, EstimateArgs, Options};
use vramfit_cli::line::Opt;
use vramfit_core::command::{self, Setting};
use vramfit_core::methods::MethodId;
use vramfit_core::request::{Request, TRAINER_GRAD_CHECKPOINT};
use vramfit_core::scenario::{ComputeDtype, EngineField, Field, ModelRef, ScenarioInput};

/// One option of `estimate`: vramfit's (its flag and value) or an
/// engine's, read by the core.
enum Given {
    Vramfit(&'static str, Option<String>),
    Engine(Setting),
}

/// `vramfit estimate`: the request, every option applied in order, then
/// the engine command after `--`, if any.
pub(super) fn estimate(
    args: EstimateArgs,
    engine: Vec<(usize, Setting)>,
    tail: Option<Vec<String>>,
) -> Result<Command, String> {
    let mut input = ScenarioInput::default();
    if let Some(model) = &args.model {
        // Weighed as published unless --quant, --dtype or --weight-bits
        // (applied after, in order) say otherwise.
        input.set_model_following_checkpoint(Some(model_ref(model)?));
    }
    if let Some((_, _, path)) = args
        .options
        .0
        .iter()
        .find(|(_, f, _)| *f == Opt::Mmproj.flag())
    {
        let Some(ModelRef::Gguf(file)) = input.model.as_mut() else {
            return Err("--mmproj goes with a GGUF MODEL".into());
        };
        let path = path.as_deref().unwrap_or_default();
        file.mmproj = Some(crate::gguf_file::load_projector(path)?);
    }
    // A llama.cpp log's settings and machine come first; the options
    // change them. A vLLM log is fitted once the scenario is complete.
    let mut vllm_log = None;
    let mut llamacpp_log = None;
    if let Some((_, _, path)) = args
        .options
        .0
        .iter()
        .find(|(_, f, _)| *f == Opt::Calibrate.flag())
    {
        match crate::calibrate::read(path.as_deref().unwrap_or_default())? {
            crate::calibrate::Log::Vllm { path, text } => vllm_log = Some((path, text)),
            crate::calibrate::Log::Llamacpp(log) => {
                crate::calibrate::apply(&log, &mut input);
                llamacpp_log = Some(log);
            }
        }
    }
    let given = in_order(&args.options, engine);
    let named = |flags: &[&str]| {
        given.iter().any(|g| match g {
            Given::Vramfit(f, _) => flags.contains(f),
            Given::Engine(_) => false,
        })
    };
    // The weight format and the compute dtype are two knobs: `--dtype`
    // sets the weights only where no format is named, in any order.
    let mut quantized = named(&[Opt::Quant.flag(), Field::WeightBits.flag()]);
    let mut dtype: Option<Option<ComputeDtype>> = None;
    let gpus_given = named(&[Field::Gpus.flag()]);
    let mut chosen = None;
    let mut json = false;
    for g in &given {
        match g {
            Given::Vramfit(f, _) if *f == Opt::Json.flag() => json = true,
            // Read above, before the options that change its settings.
            Given::Vramfit(f, _) if *f == Opt::Calibrate.flag() => {}
            Given::Vramfit(f, v) if *f == Opt::Method.flag() => {
                chosen = Some(method(v.as_deref().unwrap_or_default())?)
            }
            Given::Vramfit(f, v) if *f == Opt::Dtype.flag() => {
                dtype = Some(compute_dtype(v.as_deref().unwrap_or_default())?)
            }
            Given::Vramfit(f, v) => apply(&mut input, f, v.as_deref().unwrap_or_default())?,
            Given::Engine(Setting::Model(word) | Setting::HfRepo(word)) => {
                if args.model.is_some() {
                    return Err(format!("`{word}`: one MODEL only"));
                }
                input.set_model_following_checkpoint(Some(model_ref(word)?));
            }
            Given::Engine(Setting::Dtype(d)) => dtype = Some(*d),
            Given::Engine(s) => {
                quantized |= matches!(s, Setting::Quantization(_));
                s.apply(&mut input);
            }
        }
    }
    if let Some(d) = dtype {
        command::apply_dtype(&mut input, d, quantized);
    }
    if input.mode.trains() && !named(&[Opt::GradCheckpoint.flag(), Opt::NoGradCheckpoint.flag()]) {
        // Training: the common trainer's default (TRL's SFTConfig).
        input.grad_checkpoint = TRAINER_GRAD_CHECKPOINT;
    }
    if !gpus_given && (input.tp.is_some() || input.pp.is_some()) {
        // `-tp 2` alone is two GPUs, one copy.
        input.gpus = input.tp.unwrap_or(1).saturating_mul(input.pp.unwrap_or(1));
    }
    if input.model.is_some() {
        // A real model gives its own shape: a typed one would be ignored.
        if let Some(f) = Field::SHAPE.iter().find(|f| named(&[f.flag()])) {
            return Err(format!(
                "{} comes from MODEL's config; drop it, or drop MODEL to type the shape",
                f.flag()
            ));
        }
    }
    if let Some(words) = tail {
        let method = engine_command(&mut input, &words, args.model.is_some(), gpus_given)?;
        match chosen {
            Some(m) if m != method => {
                return Err(format!(
                    "the command after `--` runs {}; drop --method {}",
                    method.id(),
                    m.id()
                ))
            }
            _ => chosen = Some(method),
        }
    }
    if chosen.is_none() {
        // A log calibrates its engine's method.
        if vllm_log.is_some() {
            chosen = Some(MethodId::Vllm);
        } else if llamacpp_log.is_some() {
            chosen = Some(MethodId::Llamacpp);
        } else {
            chosen = engine_of_knobs(&given);
        }
    }
    let mut request = Request::new(chosen.unwrap_or_default(), input);
    let calibration = match (&vllm_log, &llamacpp_log) {
        (Some((path, text)), _) => Some(crate::calibrate::apply_vllm(&mut request, path, text)?),
        (None, Some(log)) => Some(crate::calibrate::apply_llamacpp(log, &mut request)?),
        (None, None) => None,
    };
    if chosen.is_none() {
        // No method asked for: the most complete one that applies.
        if let Some(m) = request.preferred_method() {
            request.method = m;
        }
    }
    Ok(Command::Estimate {
        input: Box::new(request),
        json,
        calibration,
        calibrate: llamacpp_log,
    })
}

/// The engine whose own knobs the options set, where they are one
/// engine's only: `vramfit estimate MODEL -ngl 20` is llama.cpp's
/// estimate and `--gpu-memory-utilization 0.8` vLLM's, not a method that
/// would leave the knob unread. Knobs of both engines, or of neither
/// (the context, `-tp`, the formats: every method reads them), leave the
/// choice to the request's preferred method.
fn engine_of_knobs(given: &[Given]) -> Option<MethodId> {
    let vllm_flags = [
        Opt::EnforceEager.flag(),
        Opt::VllmVersion.flag(),
        Opt::Interconnect.flag(),
        EngineField::OtherMemoryGib.flag(),
    ];
    let llamacpp_flags = [
        Opt::CacheTypeK,
        Opt::CacheTypeV,
        Opt::FlashAttn,
        Opt::NoFlashAttn,
        Opt::Runner,
        Opt::LlamacppBuild,
        Opt::SwaFull,
        Opt::KvUnified,
        Opt::NoKvUnified,
        Opt::TensorSplit,
        Opt::SplitMode,
        Opt::MainGpu,
        Opt::OverrideTensor,
        Opt::CpuMoe,
        Opt::NoMmap,
        Opt::Mlock,
        Opt::Mmproj,
    ]
    .map(Opt::flag);
    let (mut vllm, mut llamacpp) = (false, false);
    for g in given {
        match g {
            Given::Vramfit(f, _) => {
                vllm |= vllm_flags.contains(f) || EngineField::VLLM.iter().any(|e| e.flag() == *f);
                llamacpp |= llamacpp_flags.contains(f)
                    || EngineField::LLAMACPP.iter().any(|e| e.flag() == *f);
            }
            Given::Engine(s) => match s {
                Setting::GpuMemoryUtilization(_)
                | Setting::MaxNumSeqs(_)
                | Setting::MaxNumBatchedTokens(_)
                | Setting::BlockSize(_)
                | Setting::EnforceEager => vllm = true,
                Setting::NGpuLayers(_)
                | Setting::CacheTypeK(_)
                | Setting::CacheTypeV(_)
                | Setting::FlashAttn(_)
                | Setting::Parallel(_)
                | Setting::Ubatch(_)
                | Setting::Batch(_)
                | Setting::NCpuMoe(_)
                | Setting::KvUnified => llamacpp = true,
                Setting::Model(_)
                | Setting::HfRepo(_)
                | Setting::Context(_)
                | Setting::Tp(_)
                | Setting::Pp(_)
                | Setting::KvCacheDtype(_)
                | Setting::Quantization(_)
                | Setting::Dtype(_) => {}
            },
        }
    }
    match (vllm, llamacpp) {
        (true, false) => Some(MethodId::Vllm),
        (false, true) => Some(MethodId::Llamacpp),
        _ => None,
    }
}

/// vramfit's options and the engines', in the order given (an engine
/// option sits before the vramfit word that followed it; clap's indices
/// count `vramfit estimate` as two words).
fn in_order(options: &Options, engine: Vec<(usize, Setting)>) -> Vec<Given> {
    let mut keyed: Vec<(usize, Given)> = options
        .0
        .iter()
        .map(|(i, f, v)| (2 * i, Given::Vramfit(f, v.clone())))
        .collect();
    keyed.extend(
        engine
            .into_iter()
            .map(|(before, s)| (2 * (before + 2) - 1, Given::Engine(s))),
    );
    keyed.sort_by_key(|k| k.0);
    keyed.into_iter().map(|(_, g)| g).collect()
}

/// An engine command after `--`: its model (unless MODEL was given, or
/// the vLLM word is a local config), its options, its method.
fn engine_command(
    input: &mut ScenarioInput,
    words: &[String],
    model_given: bool,
    gpus_given: bool,
) -> Result<MethodId, String> {
    let command = command::parse(words).map_err(|e| e.to_string())?;
    if !model_given && command.engine() == command::Engine::Vllm {
        if let Some(word) = command.model_word() {
            input.model = None;
            input.set_model_following_checkpoint(Some(model_ref(word)?));
        }
    }
    if !model_given && command.engine() == command::Engine::Llamacpp {
        input.model = None;
    }
    let gpus = input.gpus;
    let method = command.apply(input).map_err(|e| e.to_string())?;
    if gpus_given {
        input.gpus = gpus;
    }
    Ok(method)
}
