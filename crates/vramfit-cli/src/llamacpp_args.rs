//! The llama.cpp options of `vramfit estimate` beyond its numeric knobs:
//! the runner, the build, the cache options, several GPUs and tensor
//! overrides, each checked here as it is read.

use vramfit_cli::line::Opt;
use vramfit_core::methods::llamacpp::build::Build;
use vramfit_core::methods::llamacpp::overrides;
use vramfit_core::scenario::{LmStudioGuardrail, Runner, ScenarioInput, SplitMode};

fn unknown(text: &str, what: &str, known: &[&str]) -> String {
    format!("unknown {what} `{text}` (known: {})", known.join(", "))
}

/// Applies one llama.cpp option to the scenario.
pub fn apply(input: &mut ScenarioInput, opt: Opt, text: &str) -> Result<(), String> {
    match opt {
        Opt::Runner => {
            input.engine.runner = Runner::parse(text)
                .ok_or_else(|| unknown(text, "runner", &Runner::ALL.map(Runner::id)))?;
        }
        Opt::LlamacppBuild => {
            let build = Build::parse(text)
                .ok_or_else(|| format!("`{text}` is not a llama.cpp build (bNNNN, e.g. b5331)"))?;
            input.engine.llamacpp_build = Some(build.0);
        }
        Opt::LmstudioGuardrail => {
            input.engine.lmstudio_guardrail = Some(
                LmStudioGuardrail::parse(text)
                    .ok_or_else(|| unknown(text, "guardrail level", &LmStudioGuardrail::NAMES))?,
            );
        }
        Opt::SwaFull => input.engine.swa_full = true,
        Opt::KvUnified => input.engine.kv_unified = Some(true),
        Opt::NoKvUnified => input.engine.kv_unified = Some(false),
        Opt::TensorSplit => {
            let shares: Result<Vec<f64>, _> = text
                .split([',', '/'])
                .map(|v| v.trim().parse::<f64>())
                .collect();
            let shares = shares
                .ok()
                .filter(|s| s.iter().all(|v| v.is_finite() && *v >= 0.0))
                .ok_or_else(|| format!("--tensor-split {text}: shares such as 3,1"))?;
            input.engine.placement.tensor_split = shares;
        }
        Opt::SplitMode => {
            input.engine.placement.split_mode = SplitMode::parse(text)
                .ok_or_else(|| unknown(text, "split mode", &["none", "layer", "row"]))?;
        }
        Opt::MainGpu => {
            input.engine.placement.main_gpu = text
                .trim()
                .parse()
                .map_err(|_| format!("--main-gpu {text}: must be a whole number"))?;
        }
        Opt::OverrideTensor => {
            overrides::parse(&[text]).map_err(|e| format!("--override-tensor: {e}"))?;
            input
                .engine
                .placement
                .override_tensor
                .push(text.to_string());
        }
        Opt::CpuMoe => input.engine.placement.cpu_moe = true,
        Opt::NoMmap => input.engine.placement.no_mmap = true,
        Opt::Mlock => input.engine.placement.mlock = true,
        // The other options are not llama.cpp's own (args.rs applies them).
        Opt::Method
        | Opt::Mode
        | Opt::Quant
        | Opt::Dtype
        | Opt::KvDtype
        | Opt::Precision
        | Opt::Optimizer
        | Opt::Attn
        | Opt::Gpu
        | Opt::CapacityGib
        | Opt::HiddenSize
        | Opt::VocabSize
        | Opt::Machines
        | Opt::BatchLimit
        | Opt::Train
        | Opt::GradCheckpoint
        | Opt::NoGradCheckpoint
        | Opt::VllmVersion
        | Opt::Interconnect
        | Opt::Calibrate
        | Opt::Mmproj
        | Opt::HostBandwidthGbs
        | Opt::Backend
        | Opt::PromptTokens
        | Opt::Qlora
        | Opt::NoLoraDropout
        | Opt::NoCache
        | Opt::Json
        | Opt::CacheTypeK
        | Opt::CacheTypeV
        | Opt::FlashAttn
        | Opt::NoFlashAttn
        | Opt::EnforceEager
        | Opt::Batch
        | Opt::Users => {}
    }
    Ok(())
}
