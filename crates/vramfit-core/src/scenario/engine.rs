//! The serving engines' own knobs, part of the scenario as entered (its
//! `engine` object): the `vllm serve` options that decide start-up memory
//! and the `llama-server` options that decide where llama.cpp puts each
//! byte. Each is range-checked here, on its own, like the scenario's
//! fields; whether it agrees with the model is the engine method's own
//! precondition.
//!
//! What the scenario already holds keeps its meaning for the engines: the
//! context is vLLM's `--max-model-len` and llama.cpp's `-c`, the sequences
//! at once are vLLM's concurrent requests and llama.cpp's `-np` slots, TP
//! and PP are vLLM's parallel sizes, the weight format is vLLM's `--dtype`
//! or `--quantization fp8` (or the checkpoint as published) and a GGUF file
//! type for llama.cpp, the KV bytes are vLLM's `--kv-cache-dtype` and the
//! default of llama.cpp's cache types, the GPU is the GPU.
//!
//! Defaults are the engines' own: the vLLM release's (the newest one read,
//! unless `vllm_version` names another: `gpu_memory_utilization` 0.9 to
//! 0.19 and 0.92 from 0.20, `block_size = 16`, batch limits that follow
//! the GPU; [`crate::methods::vllm::release_facts`]) and llama.cpp
//! (`common/common.h`, `common_params`: `n_ubatch = 512`, `n_gpu_layers =
//! -1` "auto", `flash_attn_type = auto`).

use super::dtype::ComputeDtype;
use super::format::WeightFormat;
use super::placement::Placement;
use super::runner::{LmStudioGuardrail, Runner};
use super::ScenarioInput;
use crate::gguf::{FileType, GgmlType, CACHE_TYPES};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The engines' knobs as entered. Missing keys take the engines' defaults;
/// unknown keys are rejected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EngineKnobs {
    /// vLLM `--gpu-memory-utilization`: the share of the GPU's total memory
    /// vLLM may use; `None`: the release's default (0.9 to 0.19, 0.92 from
    /// 0.20), so a utilization not typed follows the release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_memory_utilization: Option<f64>,
    /// vLLM `--max-num-batched-tokens` (default: 8,192 on GPUs of 70 GiB or
    /// more that are not A100s, else 2,048).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_num_batched_tokens: Option<u64>,
    /// vLLM `--max-num-seqs` (default: 1,024 on the same GPUs, else 256).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_num_seqs: Option<u64>,
    /// vLLM `--block-size`: tokens per KV block (default 16).
    pub block_size: u64,
    /// vLLM `--enforce-eager`: no CUDA graphs (default off).
    pub enforce_eager: bool,
    /// GiB of the GPU's memory (of the system's, on unified memory) other
    /// processes hold when vLLM starts (default 0): vLLM refuses to start
    /// when what is free is less than it requests.
    pub other_memory_gib: f64,
    /// An AMD APU's dedicated VRAM as its BIOS sets it, GiB
    /// (`--bios-vram-gib`, 1/16 to 512); `None`: 512 MiB assumed
    /// ([`crate::catalog::gpus::apu::AMD_DEFAULT_BIOS_VRAM`]). The GPU sees
    /// it plus the GTT, half of the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bios_vram_gib: Option<f64>,
    /// How tensor-parallel GPUs are linked (`--interconnect`); `None`:
    /// what the GPU's catalog entry implies (PCIe for consumer,
    /// workstation and inference cards and "PCIe" models, else NVLink).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<super::Interconnect>,
    /// The vLLM release (`--vllm-version`); `None`: the `vllm` method's
    /// default release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vllm_version: Option<super::VllmRelease>,
    /// vLLM's runtime terms fitted on this machine's start-up log
    /// (`--calibrate LOG`); `None`: the GPU class's table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vllm_calibration: Option<super::VllmCalibration>,
    /// What this machine's llama.cpp (or Ollama) load log measured that the
    /// `llamacpp` method leaves open (`--calibrate LOG`); `None`: the
    /// method's own replay.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llamacpp_calibration: Option<super::LlamacppCalibration>,
    /// The GGUF file type llama.cpp loads, where it is not one of the
    /// weight formats (`Q4_K_S`, `IQ4_XS`, ...); `None` follows the weight
    /// format ([`gguf_of`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gguf_type: Option<FileType>,
    /// llama.cpp `--cache-type-k`; `None` follows the KV bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_type_k: Option<GgmlType>,
    /// llama.cpp `--cache-type-v`; `None` follows the KV bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_type_v: Option<GgmlType>,
    /// llama.cpp `--n-gpu-layers` (`-ngl`); `None` is "auto": as many as
    /// fit the GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_gpu_layers: Option<u64>,
    /// llama.cpp `--n-cpu-moe`: experts of the first N layers on the host
    /// (default 0).
    pub n_cpu_moe: u64,
    /// llama.cpp `--ubatch-size` (`-ub`): tokens per graph evaluation
    /// (default 512).
    pub ubatch: u64,
    /// llama.cpp `--flash-attn` (default on: "auto" turns it on where the
    /// backend supports it).
    pub flash_attn: bool,
    /// vLLM `--dtype`, the activations' type, where it is typed apart from
    /// the weight format (`--dtype bfloat16 --quantization fp8`); `None`:
    /// the weight format's, else the checkpoint's (`auto`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dtype: Option<ComputeDtype>,
    /// llama.cpp `--batch-size` (`-b`, default 2,048): the logical batch,
    /// which caps the micro-batch (`n_ubatch = min(n_batch, n_ubatch)`,
    /// `src/llama-context.cpp`); `None`: the default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_batch: Option<u64>,
    /// The runner llama.cpp is started through (`--runner`): its own
    /// defaults apply (default `llama-server`).
    #[serde(skip_serializing_if = "Runner::is_default")]
    pub runner: Runner,
    /// llama.cpp's build (`--llamacpp-build b5331`), for the cache layouts
    /// that changed between builds; `None`: the newest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llamacpp_build: Option<u32>,
    /// LM Studio's model-loading guardrail (`--lmstudio-guardrail`), read
    /// with `--runner lmstudio`; `None`: its default level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lmstudio_guardrail: Option<LmStudioGuardrail>,
    /// llama.cpp `--swa-full`: a full-size sliding-window cache.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub swa_full: bool,
    /// llama.cpp `--kv-unified` / `--no-kv-unified`; `None`: the runner's
    /// default (llama-server: one cache when it chooses the slots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_unified: Option<bool>,
    /// Several GPUs, tensor overrides, host-memory options (llama.cpp).
    #[serde(skip_serializing_if = "Placement::is_default")]
    pub placement: Placement,
}

impl Default for EngineKnobs {
    fn default() -> Self {
        EngineKnobs {
            gpu_memory_utilization: None,
            max_num_batched_tokens: None,
            max_num_seqs: None,
            block_size: 16,
            enforce_eager: false,
            other_memory_gib: 0.0,
            bios_vram_gib: None,
            interconnect: None,
            vllm_version: None,
            vllm_calibration: None,
            llamacpp_calibration: None,
            gguf_type: None,
            cache_type_k: None,
            cache_type_v: None,
            n_gpu_layers: None,
            n_cpu_moe: 0,
            ubatch: 512,
            flash_attn: true,
            dtype: None,
            n_batch: None,
            runner: Runner::LlamaServer,
            llamacpp_build: None,
            lmstudio_guardrail: None,
            swa_full: false,
            kv_unified: None,
            placement: Placement::default(),
        }
    }
}

/// The numeric engine knobs, by their JSON key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineField {
    GpuMemoryUtilization,
    MaxNumBatchedTokens,
    MaxNumSeqs,
    BlockSize,
    NGpuLayers,
    NCpuMoe,
    Ubatch,
    /// vLLM: memory other processes hold at start-up (GiB).
    OtherMemoryGib,
    /// An AMD APU's BIOS VRAM carve-out (GiB).
    BiosVramGib,
}

impl EngineField {
    /// vLLM's knobs, in the order the page shows them.
    pub const VLLM: [EngineField; 4] = [
        EngineField::GpuMemoryUtilization,
        EngineField::MaxNumBatchedTokens,
        EngineField::MaxNumSeqs,
        EngineField::BlockSize,
    ];

    /// llama.cpp's numeric knobs.
    pub const LLAMACPP: [EngineField; 3] = [
        EngineField::NGpuLayers,
        EngineField::NCpuMoe,
        EngineField::Ubatch,
    ];

    /// Every numeric knob.
    pub const ALL: [EngineField; 9] = [
        EngineField::GpuMemoryUtilization,
        EngineField::MaxNumBatchedTokens,
        EngineField::MaxNumSeqs,
        EngineField::BlockSize,
        EngineField::NGpuLayers,
        EngineField::NCpuMoe,
        EngineField::Ubatch,
        EngineField::OtherMemoryGib,
        EngineField::BiosVramGib,
    ];

    /// The knob's key under `engine` in JSON and in `data-testid`s.
    pub const fn key(self) -> &'static str {
        match self {
            EngineField::GpuMemoryUtilization => "gpu_memory_utilization",
            EngineField::MaxNumBatchedTokens => "max_num_batched_tokens",
            EngineField::MaxNumSeqs => "max_num_seqs",
            EngineField::BlockSize => "block_size",
            EngineField::NGpuLayers => "n_gpu_layers",
            EngineField::NCpuMoe => "n_cpu_moe",
            EngineField::Ubatch => "ubatch",
            EngineField::OtherMemoryGib => "other_memory_gib",
            EngineField::BiosVramGib => "bios_vram_gib",
        }
    }

    /// The `vramfit` flag (the engines' own option names).
    pub const fn flag(self) -> &'static str {
        match self {
            EngineField::GpuMemoryUtilization => "--gpu-memory-utilization",
            EngineField::MaxNumBatchedTokens => "--max-num-batched-tokens",
            EngineField::MaxNumSeqs => "--max-num-seqs",
            EngineField::BlockSize => "--block-size",
            EngineField::NGpuLayers => "--n-gpu-layers",
            EngineField::NCpuMoe => "--n-cpu-moe",
            EngineField::Ubatch => "--ubatch",
            EngineField::OtherMemoryGib => "--other-memory-gib",
            EngineField::BiosVramGib => "--bios-vram-gib",
        }
    }

    /// Accepted range `(min, max)`, inclusive.
    pub const fn range(self) -> (f64, f64) {
        match self {
            EngineField::GpuMemoryUtilization => (0.0001, 1.0),
            EngineField::MaxNumBatchedTokens => (1.0, 100_000_000.0),
            EngineField::MaxNumSeqs => (1.0, 1_000_000.0),
            EngineField::BlockSize => (1.0, 256.0),
            EngineField::NGpuLayers => (0.0, 10_000.0),
            EngineField::NCpuMoe => (0.0, 10_000.0),
            EngineField::Ubatch => (1.0, 1_000_000.0),
            EngineField::OtherMemoryGib => (0.0, 1_000_000.0),
            // Firmware offers 64 MiB to 96 GiB (Strix Halo); 512 GiB bounds
            // any APU's memory.
            EngineField::BiosVramGib => (0.0625, 512.0),
        }
    }

    /// Whether an empty value means the engine's own default ("auto").
    pub const fn optional(self) -> bool {
        matches!(
            self,
            EngineField::GpuMemoryUtilization
                | EngineField::MaxNumBatchedTokens
                | EngineField::MaxNumSeqs
                | EngineField::NGpuLayers
                | EngineField::BiosVramGib
        )
    }

    /// Whether the knob takes whole numbers only.
    pub const fn integer(self) -> bool {
        !matches!(
            self,
            EngineField::GpuMemoryUtilization
                | EngineField::OtherMemoryGib
                | EngineField::BiosVramGib
        )
    }

    /// The value as entered; `None` for an optional knob left at its
    /// default.
    pub fn get(self, knobs: &EngineKnobs) -> Option<f64> {
        let whole = |v: u64| Some(v as f64);
        match self {
            EngineField::GpuMemoryUtilization => knobs.gpu_memory_utilization,
            EngineField::MaxNumBatchedTokens => knobs.max_num_batched_tokens.map(|v| v as f64),
            EngineField::MaxNumSeqs => knobs.max_num_seqs.map(|v| v as f64),
            EngineField::BlockSize => whole(knobs.block_size),
            EngineField::NGpuLayers => knobs.n_gpu_layers.map(|v| v as f64),
            EngineField::NCpuMoe => whole(knobs.n_cpu_moe),
            EngineField::Ubatch => whole(knobs.ubatch),
            EngineField::OtherMemoryGib => Some(knobs.other_memory_gib),
            EngineField::BiosVramGib => knobs.bios_vram_gib,
        }
    }

    /// Sets the knob from a value [`EngineField::parse`] accepted (`None`:
    /// back to the default).
    pub fn set(self, knobs: &mut EngineKnobs, value: Option<f64>) {
        let default = EngineKnobs::default();
        // `as u64` drops no fraction: `check` passed.
        let whole = value.map(|v| v as u64);
        match self {
            EngineField::GpuMemoryUtilization => knobs.gpu_memory_utilization = value,
            EngineField::MaxNumBatchedTokens => knobs.max_num_batched_tokens = whole,
            EngineField::MaxNumSeqs => knobs.max_num_seqs = whole,
            EngineField::BlockSize => knobs.block_size = whole.unwrap_or(default.block_size),
            EngineField::NGpuLayers => knobs.n_gpu_layers = whole,
            EngineField::NCpuMoe => knobs.n_cpu_moe = whole.unwrap_or(default.n_cpu_moe),
            EngineField::Ubatch => knobs.ubatch = whole.unwrap_or(default.ubatch),
            EngineField::OtherMemoryGib => {
                knobs.other_memory_gib = value.unwrap_or(default.other_memory_gib)
            }
            EngineField::BiosVramGib => knobs.bios_vram_gib = value,
        }
    }

    /// Parses the text a person typed; an empty text is the default of an
    /// optional knob (`Ok(None)`). Accepts a decimal comma.
    ///
    /// ```
    /// use vramfit_core::scenario::{EngineField, EngineProblem};
    /// assert_eq!(EngineField::GpuMemoryUtilization.parse("0,95"), Ok(Some(0.95)));
    /// assert_eq!(EngineField::NGpuLayers.parse(" "), Ok(None));
    /// assert_eq!(EngineField::BlockSize.parse("24").unwrap_err().problem, EngineProblem::NotABlockSize);
    /// ```
    pub fn parse(self, text: &str) -> Result<Option<f64>, EngineError> {
        let text = text.trim();
        if text.is_empty() {
            return match self.optional() {
                true => Ok(None),
                false => Err(self.error(EngineProblem::Empty)),
            };
        }
        let value: f64 = text
            .replace(',', ".")
            .parse()
            .map_err(|_| self.error(EngineProblem::NotANumber))?;
        self.check(value).map(Some)
    }

    /// Range-checks a number.
    pub fn check(self, value: f64) -> Result<f64, EngineError> {
        let (min, max) = self.range();
        if !value.is_finite() {
            return Err(self.error(EngineProblem::NotANumber));
        }
        if value < min || value > max {
            return Err(self.error(EngineProblem::OutOfRange { min, max }));
        }
        if self.integer() && value.fract() != 0.0 {
            return Err(self.error(EngineProblem::NotAnInteger));
        }
        if self == EngineField::BlockSize && !BLOCK_SIZES.contains(&(value as u64)) {
            return Err(self.error(EngineProblem::NotABlockSize));
        }
        Ok(value)
    }

    fn error(self, problem: EngineProblem) -> EngineError {
        EngineError {
            knob: EngineKnob::Field(self),
            problem,
        }
    }
}

/// Block sizes vLLM accepts on CUDA (`vllm/config/cache.py`, `BlockSize`).
pub const BLOCK_SIZES: [u64; 7] = [1, 8, 16, 32, 64, 128, 256];

/// One engine knob: a numeric one or a cache type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "name")]
pub enum EngineKnob {
    Field(EngineField),
    CacheTypeK,
    CacheTypeV,
}

impl EngineKnob {
    /// The key under `engine` in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            EngineKnob::Field(f) => f.key(),
            EngineKnob::CacheTypeK => "cache_type_k",
            EngineKnob::CacheTypeV => "cache_type_v",
        }
    }
}

/// What is wrong with one engine knob.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum EngineProblem {
    /// An empty text where the knob has no "auto".
    Empty,
    NotANumber,
    NotAnInteger,
    OutOfRange {
        min: f64,
        max: f64,
    },
    /// Not one of vLLM's block sizes ([`BLOCK_SIZES`]).
    NotABlockSize,
    /// A ggml type llama.cpp does not cache in ([`CACHE_TYPES`]).
    NotACacheType,
}

/// One rejected engine knob.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EngineError {
    pub knob: EngineKnob,
    pub problem: EngineProblem,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine.{} ", self.knob.key())?;
        match self.problem {
            EngineProblem::Empty => write!(f, "is empty"),
            EngineProblem::NotANumber => write!(f, "is not a number"),
            EngineProblem::NotAnInteger => write!(f, "must be a whole number"),
            EngineProblem::OutOfRange { min, max } => write!(f, "must be between {min} and {max}"),
            EngineProblem::NotABlockSize => write!(f, "must be 1, 8, 16, 32, 64, 128 or 256"),
            EngineProblem::NotACacheType => write!(
                f,
                "must be one of f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1"
            ),
        }
    }
}

/// The validated knobs in exact units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineSettings {
    /// `--gpu-memory-utilization` in ten-thousandths (0.9 → 9,000);
    /// `None`: the release's default.
    pub utilization_ten_thousandths: Option<u32>,
    pub max_num_batched_tokens: Option<u64>,
    pub max_num_seqs: Option<u64>,
    pub block_size: u64,
    pub enforce_eager: bool,
    /// Memory other processes hold at start-up, bytes.
    pub other_memory_bytes: u64,
    /// An AMD APU's BIOS VRAM, bytes; `None`: assumed.
    pub bios_vram_bytes: Option<u64>,
    pub interconnect: Option<super::Interconnect>,
    pub vllm_version: Option<super::VllmRelease>,
    pub vllm_calibration: Option<super::VllmCalibration>,
    pub llamacpp_calibration: Option<super::LlamacppCalibration>,
    pub gguf_type: Option<FileType>,
    pub cache_type_k: Option<GgmlType>,
    pub cache_type_v: Option<GgmlType>,
    pub n_gpu_layers: Option<u64>,
    pub n_cpu_moe: u64,
    pub ubatch: u64,
    pub flash_attn: bool,
    pub dtype: Option<ComputeDtype>,
    pub n_batch: Option<u64>,
    pub runner: Runner,
    pub llamacpp_build: Option<u32>,
    pub lmstudio_guardrail: Option<LmStudioGuardrail>,
    pub swa_full: bool,
    pub kv_unified: Option<bool>,
}

impl Default for EngineSettings {
    fn default() -> Self {
        // The defaults always validate (a unit test checks it).
        EngineKnobs::default().settings().unwrap_or(EngineSettings {
            utilization_ten_thousandths: None,
            max_num_batched_tokens: None,
            max_num_seqs: None,
            block_size: 16,
            enforce_eager: false,
            other_memory_bytes: 0,
            bios_vram_bytes: None,
            interconnect: None,
            vllm_version: None,
            vllm_calibration: None,
            llamacpp_calibration: None,
            gguf_type: None,
            cache_type_k: None,
            cache_type_v: None,
            n_gpu_layers: None,
            n_cpu_moe: 0,
            ubatch: 512,
            flash_attn: true,
            dtype: None,
            n_batch: None,
            runner: Runner::LlamaServer,
            llamacpp_build: None,
            lmstudio_guardrail: None,
            swa_full: false,
            kv_unified: None,
        })
    }
}

impl EngineKnobs {
    /// Whether every knob is at its default (then `engine` is left out of
    /// the JSON, so documents without engine knobs keep their shape).
    pub fn is_default(&self) -> bool {
        *self == EngineKnobs::default()
    }

    /// Checks every knob on its own; on success the exact settings.
    pub fn settings(&self) -> Result<EngineSettings, Vec<EngineError>> {
        let mut errors = Vec::new();
        for field in EngineField::ALL {
            if let Some(value) = field.get(self) {
                if let Err(e) = field.check(value) {
                    errors.push(e);
                }
            }
        }
        for (knob, cache) in [
            (EngineKnob::CacheTypeK, self.cache_type_k),
            (EngineKnob::CacheTypeV, self.cache_type_v),
        ] {
            if cache.is_some_and(|t| !CACHE_TYPES.contains(&t)) {
                errors.push(EngineError {
                    knob,
                    problem: EngineProblem::NotACacheType,
                });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(EngineSettings {
            utilization_ten_thousandths: self
                .gpu_memory_utilization
                .map(|u| (u * 10_000.0).round() as u32),
            max_num_batched_tokens: self.max_num_batched_tokens,
            max_num_seqs: self.max_num_seqs,
            block_size: self.block_size,
            enforce_eager: self.enforce_eager,
            other_memory_bytes: crate::units::Bytes::from_unit(
                self.other_memory_gib,
                crate::units::DisplayUnit::Gib,
            )
            .get(),
            bios_vram_bytes: self
                .bios_vram_gib
                .map(|g| crate::units::Bytes::from_unit(g, crate::units::DisplayUnit::Gib).get()),
            interconnect: self.interconnect,
            vllm_version: self.vllm_version,
            vllm_calibration: self.vllm_calibration,
            llamacpp_calibration: self.llamacpp_calibration,
            gguf_type: self.gguf_type,
            cache_type_k: self.cache_type_k,
            cache_type_v: self.cache_type_v,
            n_gpu_layers: self.n_gpu_layers,
            n_cpu_moe: self.n_cpu_moe,
            ubatch: self.ubatch,
            flash_attn: self.flash_attn,
            dtype: self.dtype,
            n_batch: self.n_batch.filter(|b| *b > 0),
            runner: self.runner,
            llamacpp_build: self.llamacpp_build,
            lmstudio_guardrail: self.lmstudio_guardrail,
            swa_full: self.swa_full,
            kv_unified: self.kv_unified,
        })
    }
}

/// The GGUF file type a weight format names, where it names one: the
/// GGUF formats, and the 16-bit floats `convert_hf_to_gguf.py` writes.
/// MXFP4 is not one: `MXFP4_MOE` puts experts in mxfp4 and every other
/// tensor in q8_0, so it is a GGUF type of its own.
///
/// ```
/// use vramfit_core::gguf::FileType;
/// use vramfit_core::scenario::{gguf_of, WeightFormat};
/// assert_eq!(gguf_of(WeightFormat::Q4KM), Some(FileType::Q4_K_M));
/// assert_eq!(gguf_of(WeightFormat::Awq), None);
/// ```
pub const fn gguf_of(format: WeightFormat) -> Option<FileType> {
    Some(match format {
        WeightFormat::Bf16 => FileType::BF16,
        WeightFormat::Fp16 => FileType::F16,
        WeightFormat::Q8_0 => FileType::Q8_0,
        WeightFormat::Q5KM => FileType::Q5_K_M,
        WeightFormat::Q4KM => FileType::Q4_K_M,
        WeightFormat::Fp32
        | WeightFormat::Mxfp4
        | WeightFormat::Fp8
        | WeightFormat::Int8
        | WeightFormat::Awq
        | WeightFormat::Gptq
        | WeightFormat::Nf4
        | WeightFormat::AsPublished => return None,
    })
}

/// The weight format a GGUF file type is, where there is one (the inverse
/// of [`gguf_of`]).
pub fn format_of_gguf(file_type: FileType) -> Option<WeightFormat> {
    WeightFormat::ALL
        .into_iter()
        .find(|f| gguf_of(*f) == Some(file_type))
}

impl ScenarioInput {
    /// Chooses a GGUF file type: the weight format when it is one (so that
    /// every method weighs it), else the engine's own `gguf_type`.
    pub fn set_gguf_type(&mut self, file_type: FileType) {
        match format_of_gguf(file_type) {
            Some(format) => {
                self.set_weight_format(format);
                self.engine.gguf_type = None;
            }
            None => self.engine.gguf_type = Some(file_type),
        }
    }

    /// The GGUF file type the `llamacpp` method loads: the engine's own,
    /// else the weight format's, else `None` (the method's default).
    pub fn gguf_type(&self) -> Option<FileType> {
        self.engine
            .gguf_type
            .or_else(|| self.weight_format.and_then(gguf_of))
    }
}

#[cfg(test)]
mod tests;
