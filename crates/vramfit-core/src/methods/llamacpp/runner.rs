//! Runners built on llama.cpp and the knobs each sets: `llama-server`
//! itself, Ollama and LM Studio. The facts are a data table,
//! `data/engines/llamacpp-runners.csv`, one row per runner with its
//! sources; this module reads it and applies a row to llama.cpp's options.

use serde::Serialize;

/// The table (embedded).
pub const RUNNERS_CSV: &str = include_str!("../../../data/engines/llamacpp-runners.csv");

use crate::scenario::LmStudioGuardrail;
pub use crate::scenario::Runner;

impl Runner {
    /// Its row of the table.
    pub fn preset(self) -> Preset {
        presets()
            .ok()
            .and_then(|p| p.into_iter().find(|p| p.runner == self))
            .unwrap_or(Preset::LLAMA_SERVER)
    }
}

/// The context a runner takes when none is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DefaultContext {
    /// The model's trained context (`-c 0`).
    Model,
    /// A fixed number of cells.
    Cells(u64),
    /// Ollama: 4,096 below 23 GiB of GPU memory, 32,768 below 47 GiB, else
    /// 262,144 (capped at the model's trained context).
    ByGpuMemory,
}

impl DefaultContext {
    /// The cells for a GPU of `gpu_bytes` (all GPUs together) and a model
    /// trained for `trained` cells.
    ///
    /// # Formula
    ///
    /// ```text
    /// Ollama:  c = 262144 if M ≥ 47 GiB, 32768 if M ≥ 23 GiB, else 4096;   min(c, trained)
    /// ```
    ///
    /// Source: ollama/ollama v0.32.15 `server/routes.go` (the VRAM tiers),
    /// `server/sched.go` (`effectiveContext`).
    ///
    /// ```
    /// use vramfit_core::methods::llamacpp::runner::DefaultContext;
    /// let gib = 1u64 << 30;
    /// assert_eq!(DefaultContext::ByGpuMemory.cells(Some(24 * gib), Some(131_072)), Some(32_768));
    /// assert_eq!(DefaultContext::ByGpuMemory.cells(Some(80 * gib), Some(131_072)), Some(131_072));
    /// ```
    pub fn cells(self, gpu_bytes: Option<u64>, trained: Option<u64>) -> Option<u64> {
        const GIB: u64 = 1 << 30;
        let c = match self {
            DefaultContext::Model => return trained,
            DefaultContext::Cells(c) => c,
            DefaultContext::ByGpuMemory => match gpu_bytes.unwrap_or(0) {
                m if m >= 47 * GIB => 262_144,
                m if m >= 23 * GIB => 32_768,
                _ => 4_096,
            },
        };
        Some(trained.map_or(c, |t| c.min(t)))
    }
}

/// What a runner sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Preset {
    pub runner: Runner,
    pub n_ctx: DefaultContext,
    /// Sequences at once (`-np`).
    pub n_parallel: u64,
    pub kv_unified: bool,
    /// Flash attention: `None` for llama.cpp's "auto".
    pub flash_attn: Option<bool>,
    pub swa_full: bool,
    pub n_batch: u64,
    pub n_ubatch: u64,
    /// The context the person gives is per sequence: the runner passes
    /// `-c` = context × sequences (Ollama's `num_ctx`).
    pub ctx_is_per_slot: bool,
}

impl Preset {
    /// `llama-server`'s own defaults (also the fallback).
    pub const LLAMA_SERVER: Preset = Preset {
        runner: Runner::LlamaServer,
        n_ctx: DefaultContext::Model,
        n_parallel: 4,
        kv_unified: true,
        flash_attn: None,
        swa_full: false,
        n_batch: 2048,
        n_ubatch: 512,
        ctx_is_per_slot: false,
    };
}

/// Every row of the table.
pub fn presets() -> Result<Vec<Preset>, String> {
    let mut rows = super::logs::csv_rows(RUNNERS_CSV)?.into_iter();
    rows.next().ok_or("empty runner table")?;
    rows.map(|r| {
        let [name, _version, ctx, np, unified, fa, swa, b, ub, total, _source] = &r[..] else {
            return Err(format!("runner row: {r:?}"));
        };
        let runner = Runner::parse(name).ok_or_else(|| format!("runner {name}"))?;
        let int = |t: &str| t.parse::<u64>().map_err(|_| format!("{name}: {t}"));
        let flag = |t: &str| match t {
            "true" => Ok(true),
            "false" => Ok(false),
            t => Err(format!("{name}: {t}")),
        };
        Ok(Preset {
            runner,
            n_ctx: match ctx.as_str() {
                "0" => DefaultContext::Model,
                "vram" => DefaultContext::ByGpuMemory,
                t => DefaultContext::Cells(int(t)?),
            },
            n_parallel: int(np)?,
            kv_unified: flag(unified)?,
            flash_attn: match fa.as_str() {
                "auto" => None,
                t => Some(flag(t)?),
            },
            swa_full: flag(swa)?,
            n_batch: int(b)?,
            n_ubatch: int(ub)?,
            ctx_is_per_slot: flag(total)?,
        })
    })
    .collect()
}

/// Ollama's automatic batch (`-b` and `-ub`) for a `-c` of `n_ctx` cells.
///
/// # Formula
///
/// ```text
/// b = 2048 if c > 32768,   1024 if c > 4096,   else 512
/// ```
///
/// Ollama lowers it again when its own estimate does not fit (not
/// modelled). Source: ollama/ollama v0.32.15 `server/sched.go`
/// (`generationBatchForContext`, `automaticGenerationBatch`).
///
/// ```
/// use vramfit_core::methods::llamacpp::runner::ollama_batch;
/// assert_eq!((ollama_batch(4096), ollama_batch(8192), ollama_batch(65536)), (512, 1024, 2048));
/// ```
pub const fn ollama_batch(n_ctx: u64) -> u64 {
    match n_ctx {
        c if c > 32_768 => 2048,
        c if c > 4096 => 1024,
        _ => 512,
    }
}

/// The line a person types to run it this way: `ollama run` with `/set
/// parameter num_ctx` (and `num_gpu` when the layers are chosen), or a
/// Modelfile; `lms load --context-length --gpu` (the share of the layers
/// offloaded: `max`, `off` or a fraction).
///
/// ```
/// use vramfit_core::methods::llamacpp::runner::{command, Runner};
/// let c = command(Runner::Ollama, "gpt-oss:120b", 8192, None);
/// assert!(c.contains("/set parameter num_ctx 8192"));
/// let c = command(Runner::Ollama, "gpt-oss:120b", 8192, Some((20, 37)));
/// assert!(c.contains("/set parameter num_gpu 20"));
/// let c = command(Runner::LmStudio, "openai/gpt-oss-120b", 8192, Some((18, 36)));
/// assert_eq!(c, "lms load openai/gpt-oss-120b --context-length 8192 --gpu 0.5");
/// ```
pub fn command(runner: Runner, model: &str, context: u64, layers: Option<(u64, u64)>) -> String {
    match runner {
        Runner::LlamaServer => format!("llama-server -m {model}.gguf -c {context}"),
        Runner::Ollama => {
            let (set_gpu, param_gpu) = match layers {
                Some((n, _)) => (
                    format!("   /set parameter num_gpu {n}"),
                    format!(" / PARAMETER num_gpu {n}"),
                ),
                None => (String::new(), String::new()),
            };
            format!(
                "ollama run {model}   then   /set parameter num_ctx {context}{set_gpu}   \
                 (or a Modelfile: FROM {model} / PARAMETER num_ctx {context}{param_gpu})"
            )
        }
        Runner::LmStudio => {
            let gpu = match layers {
                None => "max".to_string(),
                Some((n, total)) if n >= total => "max".to_string(),
                Some((0, _)) => "off".to_string(),
                Some((n, total)) => {
                    let share = (n as f64 / total.max(1) as f64 * 100.0).round() / 100.0;
                    format!("{share}")
                }
            };
            format!("lms load {model} --context-length {context} --gpu {gpu}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_runner_has_a_row() {
        let p = presets().unwrap();
        for r in Runner::ALL {
            assert_eq!(p.iter().filter(|p| p.runner == r).count(), 1, "{r}");
        }
        assert_eq!(Runner::LlamaServer.preset(), Preset::LLAMA_SERVER);
        let o = Runner::Ollama.preset();
        assert!(o.ctx_is_per_slot && !o.kv_unified && o.n_parallel == 1);
        let l = Runner::LmStudio.preset();
        assert!(l.swa_full && l.flash_attn == Some(false));
        assert_eq!(l.n_ctx, DefaultContext::Cells(4096));
    }
}

/// LM Studio's guardrail levels (embedded): the share of the machine a
/// load may take, with what each row assumes.
pub const GUARDRAILS_CSV: &str = include_str!("../../../data/engines/lmstudio-guardrails.csv");

/// LM Studio's model-loading guardrail applied to a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GuardrailCheck {
    /// The level (`--lmstudio-guardrail`, default balanced).
    pub level: LmStudioGuardrail,
    /// What the load takes: the GPUs' parts and the host's.
    pub load_bytes: u64,
    /// The machine: the GPUs' memory and the host RAM.
    pub machine_bytes: u64,
    /// Whether the host RAM is the plan's assumption (no `--host-ram-gb`).
    pub host_ram_assumed: bool,
    /// The most the level lets a load take (`None`: off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_bytes: Option<u64>,
    /// Whether LM Studio stops the load ("Model loading was stopped due to
    /// insufficient system resources").
    pub refuses: bool,
}

/// The guardrail at `level` for a load of `load` bytes on a machine of
/// `machine` bytes (GPU memory + RAM).
///
/// # Formula
///
/// ```text
/// limit = machine · share / 1000     relaxed 1000, balanced 900, strict 750 (the table)
///       = machine − F                custom, F the memory kept free
///       = none                       off
/// refused when load > limit
/// ```
///
/// LM Studio names the levels but publishes no threshold: the shares are
/// the table's assumptions, stated in each row. Worked example (the test
/// below): a 45 GB load on a 24 GB GPU with 32 GB of RAM (56 GB) passes
/// balanced (limit 50.4 GB) and is stopped by strict (42 GB).
pub fn guardrail(
    level: LmStudioGuardrail,
    load: u64,
    machine: u64,
    host_ram_assumed: bool,
) -> GuardrailCheck {
    let share = guardrail_share(level.id());
    let limit = match level {
        LmStudioGuardrail::Off => None,
        LmStudioGuardrail::Custom { free_bytes } => Some(machine.saturating_sub(free_bytes)),
        _ => share.map(|s| crate::units::saturate(u128::from(machine) * u128::from(s) / 1000)),
    };
    GuardrailCheck {
        level,
        load_bytes: load,
        machine_bytes: machine,
        host_ram_assumed,
        limit_bytes: limit,
        refuses: limit.is_some_and(|l| load > l),
    }
}

/// The table's share for a level, per mille (`None`: off or not a row).
fn guardrail_share(level: &str) -> Option<u64> {
    let rows = super::logs::csv_rows(GUARDRAILS_CSV).ok()?;
    rows.iter()
        .skip(1)
        .find(|r| r.first().map(String::as_str) == Some(level))
        .and_then(|r| r.get(1))
        .and_then(|s| s.parse().ok())
}

#[cfg(test)]
mod guardrail_tests {
    use super::*;

    #[test]
    fn every_level_has_a_row_and_off_has_no_share() {
        for level in ["relaxed", "balanced", "strict", "custom"] {
            assert!(guardrail_share(level).is_some(), "{level}");
        }
        assert_eq!(guardrail_share("off"), None);
    }

    /// A 45 GB load on a 24 GB GPU with 32 GB of RAM (56 GB): relaxed and
    /// balanced (50.4 GB) let it load, strict (42 GB) stops it, off never
    /// checks; a custom level keeping 12 GiB free stops it.
    #[test]
    fn the_level_decides_what_loads() {
        let (load, machine) = (45_000_000_000, 56_000_000_000);
        let at = |l| guardrail(l, load, machine, false);
        assert!(!at(LmStudioGuardrail::Relaxed).refuses);
        let b = at(LmStudioGuardrail::Balanced);
        assert_eq!(b.limit_bytes, Some(50_400_000_000));
        assert!(!b.refuses);
        let s = at(LmStudioGuardrail::Strict);
        assert_eq!(s.limit_bytes, Some(42_000_000_000));
        assert!(s.refuses);
        assert_eq!(at(LmStudioGuardrail::Off).limit_bytes, None);
        assert!(!at(LmStudioGuardrail::Off).refuses);
        let c = at(LmStudioGuardrail::Custom {
            free_bytes: 12 << 30,
        });
        assert_eq!(c.limit_bytes, Some(56_000_000_000 - (12 << 30)));
        assert!(c.refuses);
    }
}
