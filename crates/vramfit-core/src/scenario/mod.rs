//! The scenario: what the user asks about, as typed input and as a
//! validated, exact value.
//!
//! Validation happens once, here, at the edge. [`ScenarioInput`] is what the
//! UI, the CLI and an imported JSON document hold; [`ScenarioInput::validate`]
//! turns it into a [`Scenario`] or a list of [`ScenarioError`]s naming each
//! bad field, an unknown model or a config that cannot be used.
//!
//! The scenario is the question, not how to answer it: it knows units,
//! the model and the catalog, and nothing of the methods. Which method
//! answers, and whether it can, is decided above it (`methods::run`, and
//! the editor's policy in `request`).

mod calibration;
mod doc;
mod dtype;
mod engine;
mod field;
mod format;
mod gpu_memory;
mod interconnect;
mod knob_error;
mod knobs;
mod layout;
mod model_ref;
mod placement;
mod release;
mod runner;
mod speed;
mod step;

pub use calibration::{LlamacppCalibration, VllmCalibration};
pub use dtype::ComputeDtype;
pub use engine::{
    format_of_gguf, gguf_of, EngineError, EngineField, EngineKnob, EngineKnobs, EngineProblem,
    EngineSettings, BLOCK_SIZES,
};
pub use field::{Field, InputError, InputProblem};
pub use format::{KvDtype, WeightFormat};
pub use gpu_memory::{GpuMemory, MemorySource};
pub use interconnect::Interconnect;
pub use knob_error::{Knob, KnobProblem, PlannerError};
pub use knobs::{KvPolicy, PlannerKnobs, PlannerSettings};
pub use layout::{gpu_count, Heads, Layout, LayoutError, GPUS_PER_NODE};
use model_ref::resolve_model;
pub use model_ref::{ConfigText, ModelRef};
pub use placement::{Placement, SplitMode};
pub use release::VllmRelease;
pub use runner::{LmStudioGuardrail, Runner};
pub use speed::{
    Backend, SpeedError, SpeedKnobs, SpeedSettings, DEFAULT_HOST_BANDWIDTH_GB_S,
    DEFAULT_PROMPT_TOKENS,
};
pub use step::{AttnImpl, Optimizer, Precision};

use crate::catalog::{self, Gpu, NotFound};
use crate::model::{ConfigError, ModelSpec};
use crate::units::{Bytes, DisplayUnit};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A scenario as entered: model, formats, workload and GPU.
///
/// The default is seed 004's worked example: an 8B model with 32 layers,
/// 8 KV heads and head dimension 128, FP16 weights and cache, 8,192 tokens,
/// one sequence, 10 % overhead, on a 24 GB GPU. The `lesson` knobs default
/// to seed 000's example (2 GiB runtime, 4 GiB activation, 15 % margin).
///
/// Read from JSON through [`doc`]: missing keys take the defaults, unknown
/// keys are rejected, and a document written before `sequences` (with
/// `batch` and `users`) is read into today's fields (see `doc`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "doc::Stored")]
pub struct ScenarioInput {
    /// Serving or training.
    pub mode: Mode,
    /// A real model (catalog id or `config.json` text). When set, its shape
    /// replaces `params_b`, `layers`, `kv_heads` and `head_dim`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelRef>,
    /// Parameters, in billions (10⁹).
    pub params_b: f64,
    /// Transformer layers (`num_hidden_layers`).
    pub layers: u64,
    /// Key/value heads (`num_key_value_heads`).
    pub kv_heads: u64,
    /// Dimension of one attention head.
    pub head_dim: u64,
    /// A named weight format; when set, its bits per weight replace
    /// `weight_bits`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_format: Option<WeightFormat>,
    /// Bits per weight (16 for FP16/BF16, 8 for FP8/INT8, 4 for 4-bit).
    pub weight_bits: f64,
    /// Bytes per cached key or value element (2 for FP16, 1 for FP8).
    pub kv_bytes: f64,
    /// Context length in tokens per sequence.
    pub context: u64,
    /// Concurrent sequences over the whole deployment: served at once
    /// (inference), or in one training step. Each copy of the model
    /// serves `⌈sequences / replicas⌉` of them ([`Layout`]).
    pub sequences: u64,
    /// A catalog GPU (`RTX 4090`, case-insensitive). When set, its memory
    /// ([`GpuMemory`]) replaces `gpu_memory_gb` and its bandwidth and
    /// compute feed speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// Every GPU of the deployment: `TP × PP × replicas`.
    pub gpus: u64,
    /// Tensor-parallel degree; `None`: derived from the GPU count and the
    /// model's heads ([`Layout::spread`]), unless `pp` is set (then 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tp: Option<u64>,
    /// Pipeline-parallel degree; `None`: derived, like `tp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pp: Option<u64>,
    /// Memory of one GPU typed by hand, in decimal GB (10⁹ bytes); a
    /// catalog GPU's exact figure when one is chosen
    /// ([`GpuMemory::bytes`] / 10⁹).
    pub gpu_memory_gb: f64,
    /// Host RAM available for offloading weights, in decimal GB (0: none).
    pub host_ram_gb: f64,
    /// LoRA adapter rank.
    pub lora_rank: u64,
    /// Training: fp32 weights under bf16 autocast (`amp`) or weights
    /// trained in their dtype (`pure`).
    pub precision: Precision,
    /// Training: activation (gradient) checkpointing.
    pub grad_checkpoint: bool,
    /// Training: the optimizer.
    pub optimizer: Optimizer,
    /// LoRA adapters with dropout (`lora_dropout > 0`), which keeps one more
    /// activation per adapter.
    pub lora_dropout: bool,
    /// Training: the forward keeps a KV cache (`use_cache=True`,
    /// transformers' default; gradient checkpointing turns it off). Without
    /// one, transformers builds a full attention mask for sdpa.
    pub use_cache: bool,
    /// transformers' attention implementation.
    pub attn: AttnImpl,
    /// `quick`: overhead on weights + KV cache, in percent.
    pub overhead_pct: f64,
    /// `lesson`: runtime reserve (CUDA context, kernels), in GiB (2³⁰).
    pub runtime_gib: f64,
    /// `lesson`: activation reserve, in GiB (2³⁰).
    pub activation_gib: f64,
    /// `lesson`: safety margin on the subtotal with reserves, in percent.
    pub margin_pct: f64,
    /// `planner` (seed 002): its own knobs, with the seed's defaults
    /// (boxed: they are many, and rarely changed).
    #[serde(default)]
    pub planner: Box<PlannerKnobs>,
    /// The serving engines' own knobs (`vllm`, `llamacpp`), with their
    /// defaults; left out of the JSON while every one is at its default.
    #[serde(default, skip_serializing_if = "engine_knobs_default")]
    pub engine: Box<EngineKnobs>,
    /// What a speed figure needs beyond memory (backend, host bandwidth,
    /// prompt); left out of the JSON while every one is at its default.
    #[serde(default, skip_serializing_if = "speed_knobs_default")]
    pub speed: Box<SpeedKnobs>,
}

/// Whether the speed knobs are all at their defaults (serde's skip test).
fn speed_knobs_default(knobs: &SpeedKnobs) -> bool {
    knobs.is_default()
}

/// Whether the engine knobs are all at their defaults (serde's skip test).
fn engine_knobs_default(knobs: &EngineKnobs) -> bool {
    knobs.is_default()
}

impl Default for ScenarioInput {
    fn default() -> Self {
        ScenarioInput {
            mode: Mode::Inference,
            model: None,
            params_b: 8.0,
            layers: 32,
            kv_heads: 8,
            head_dim: 128,
            weight_format: None,
            weight_bits: 16.0,
            kv_bytes: 2.0,
            context: 8192,
            sequences: 1,
            gpu: None,
            gpus: 1,
            tp: None,
            pp: None,
            gpu_memory_gb: 24.0,
            host_ram_gb: 0.0,
            lora_rank: 16,
            precision: Precision::Pure,
            grad_checkpoint: false,
            optimizer: Optimizer::AdamW,
            lora_dropout: true,
            use_cache: true,
            attn: AttnImpl::Sdpa,
            overhead_pct: 10.0,
            runtime_gib: 2.0,
            activation_gib: 4.0,
            margin_pct: 15.0,
            planner: Box::default(),
            engine: Box::default(),
            speed: Box::default(),
        }
    }
}

/// What the memory is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Serving: weights and KV cache.
    #[default]
    Inference,
    /// Full fine-tuning: every parameter trained. Also read from
    /// `"training"` and `"train"`.
    #[serde(alias = "training", alias = "train")]
    Full,
    /// LoRA fine-tuning: frozen base weights, trained low-rank adapters.
    Lora,
    /// QLoRA: LoRA over a 4-bit (NF4) frozen base.
    Qlora,
}

impl Mode {
    /// Every mode, in the order the UI offers them.
    pub const ALL: [Mode; 4] = [Mode::Inference, Mode::Full, Mode::Lora, Mode::Qlora];

    /// The stable name (`"inference"`, `"full"`, `"lora"`, `"qlora"`).
    pub const fn id(self) -> &'static str {
        match self {
            Mode::Inference => "inference",
            Mode::Full => "full",
            Mode::Lora => "lora",
            Mode::Qlora => "qlora",
        }
    }

    /// Whether the step trains (and so keeps gradients and optimizer state).
    pub const fn trains(self) -> bool {
        !matches!(self, Mode::Inference)
    }

    /// Parses a mode name, case-insensitively (`train`, `training` = full).
    pub fn from_name(name: &str) -> Option<Mode> {
        match name.trim().to_ascii_lowercase().as_str() {
            "inference" => Some(Mode::Inference),
            "full" | "train" | "training" => Some(Mode::Full),
            "lora" => Some(Mode::Lora),
            "qlora" => Some(Mode::Qlora),
            _ => None,
        }
    }
}

impl ScenarioInput {
    /// The value of one field, as a number.
    pub fn get(&self, field: Field) -> f64 {
        match field {
            Field::ParamsB => self.params_b,
            Field::Layers => self.layers as f64,
            Field::KvHeads => self.kv_heads as f64,
            Field::HeadDim => self.head_dim as f64,
            Field::WeightBits => self.weight_bits,
            Field::KvBytes => self.kv_bytes,
            Field::Context => self.context as f64,
            Field::Sequences => self.sequences as f64,
            Field::Gpus => self.gpus as f64,
            Field::Tp => self.tp.unwrap_or(0) as f64,
            Field::Pp => self.pp.unwrap_or(0) as f64,
            Field::HostRamGb => self.host_ram_gb,
            Field::OffloadGb => self.planner.offload_gb,
            Field::SharedPrefixTokens => self.planner.shared_prefix_tokens as f64,
            Field::GpuMemoryGb => self.gpu_memory_gb,
            Field::LoraRank => self.lora_rank as f64,
            Field::OverheadPct => self.overhead_pct,
            Field::RuntimeGib => self.runtime_gib,
            Field::ActivationGib => self.activation_gib,
            Field::MarginPct => self.margin_pct,
        }
    }

    /// Sets one field from a number that [`Field::check`] accepted.
    /// Typing bits per weight by hand drops a named format; 0 for TP or PP
    /// is "derived" ([`Field::auto`]).
    pub fn set(&mut self, field: Field, value: f64) {
        // `as u64` saturates and drops no fraction here: `check` passed.
        match field {
            Field::ParamsB => self.params_b = value,
            Field::Layers => self.layers = value as u64,
            Field::KvHeads => self.kv_heads = value as u64,
            Field::HeadDim => self.head_dim = value as u64,
            Field::WeightBits => {
                self.weight_bits = value;
                self.weight_format = None;
            }
            Field::KvBytes => self.kv_bytes = value,
            Field::Context => self.context = value as u64,
            Field::Sequences => self.sequences = value as u64,
            Field::Gpus => self.gpus = value as u64,
            Field::Tp => self.tp = Some(value as u64).filter(|v| *v > 0),
            Field::Pp => self.pp = Some(value as u64).filter(|v| *v > 0),
            Field::HostRamGb => self.host_ram_gb = value,
            // The planner's own knobs most people reach for.
            Field::OffloadGb => self.planner.offload_gb = value,
            Field::SharedPrefixTokens => self.planner.shared_prefix_tokens = value as u64,
            Field::GpuMemoryGb => {
                self.gpu_memory_gb = value;
                self.gpu = None;
            }
            Field::LoraRank => self.lora_rank = value as u64,
            Field::OverheadPct => self.overhead_pct = value,
            Field::RuntimeGib => self.runtime_gib = value,
            Field::ActivationGib => self.activation_gib = value,
            Field::MarginPct => self.margin_pct = value,
        }
    }

    /// Chooses a named weight format and shows its bits per weight.
    pub fn set_weight_format(&mut self, format: WeightFormat) {
        self.weight_format = Some(format);
        self.engine.gguf_type = None;
        if let Some(milli) = format.milli_bits() {
            self.weight_bits = milli as f64 / 1_000.0;
        }
    }

    /// Chooses a named KV cache type: its bytes per element.
    pub fn set_kv_dtype(&mut self, dtype: KvDtype) {
        self.kv_bytes = dtype.bytes();
    }

    /// Sets the GPU memory from a capacity in GiB (seed 000 enters it so).
    pub fn set_capacity_gib(&mut self, gib: f64) {
        self.gpu_memory_gb = DisplayUnit::convert(gib, DisplayUnit::Gib, DisplayUnit::Gb);
        self.gpu = None;
    }

    /// Chooses a catalog GPU by name (stored as the catalog's full name,
    /// so the same card always exports the same way) and shows the memory
    /// the methods fit against ([`GpuMemory::bytes`], in decimal GB); an
    /// unknown name is kept and reported by [`ScenarioInput::validate`].
    pub fn set_gpu(&mut self, name: &str) {
        match catalog::find_gpu(name) {
            Ok(gpu) => {
                self.gpu_memory_gb = GpuMemory::of(gpu).bytes().in_unit(DisplayUnit::Gb);
                self.gpu = Some(gpu.name.clone());
            }
            Err(_) => self.gpu = Some(name.to_string()),
        }
    }

    /// Checks every field, the model and the planner's knobs, each on its
    /// own; on success the exact, typed [`Scenario`]. Whether a method can
    /// estimate it (its modes, the model it needs, knobs that must agree
    /// with the model or the workload) each method decides when it runs.
    pub fn validate(&self) -> Result<Scenario, Vec<ScenarioError>> {
        let mut errors = Vec::new();
        let (model, model_config) = match self.model.as_ref().map(resolve_model).transpose() {
            Ok(Some((model, text))) => (Some(model), Some(text)),
            Ok(None) => (None, None),
            Err(e) => {
                errors.push(e);
                (None, None)
            }
        };
        let gpu = match self.gpu.as_deref().map(catalog::find_gpu).transpose() {
            Ok(gpu) => gpu,
            Err(miss) => {
                errors.push(ScenarioError::UnknownGpu(miss));
                None
            }
        };
        self.validate_resolved(model, model_config, gpu, errors)
    }

    /// [`ScenarioInput::validate`] for a scenario of typed numbers: one
    /// that names neither a model nor a catalog GPU, which therefore needs
    /// neither the config.json reader nor a catalog. `None` when it names
    /// either. The web app computes its first result with this, before the
    /// code that reads models and looks GPUs up has loaded.
    ///
    /// ```
    /// use vramfit_core::scenario::ScenarioInput;
    /// let typed = ScenarioInput::default();
    /// assert_eq!(typed.validate_typed(), Some(typed.validate()));
    /// let card = ScenarioInput { gpu: Some("RTX 4090".into()), ..typed };
    /// assert_eq!(card.validate_typed(), None);
    /// ```
    pub fn validate_typed(&self) -> Option<Result<Scenario, Vec<ScenarioError>>> {
        (self.model.is_none() && self.gpu.is_none())
            .then(|| self.validate_resolved(None, None, None, Vec::new()))
    }

    /// The rest of [`ScenarioInput::validate`], once the model and the GPU
    /// are looked up (`lookup_errors`: what went wrong looking them up).
    fn validate_resolved(
        &self,
        model: Option<ModelSpec>,
        model_config: Option<ConfigText>,
        gpu: Option<&'static Gpu>,
        lookup_errors: Vec<ScenarioError>,
    ) -> Result<Scenario, Vec<ScenarioError>> {
        let mut errors: Vec<ScenarioError> = Field::ALL
            .iter()
            .filter_map(|f| f.check(self.get(*f)).err())
            .map(ScenarioError::Field)
            .collect();
        errors.extend(lookup_errors);
        let planner = match self.planner.settings() {
            Ok(settings) => settings,
            Err(bad) => {
                errors.extend(bad.into_iter().map(ScenarioError::Planner));
                PlannerSettings::default()
            }
        };
        let placement = self.engine.placement.clone();
        let engine = match self.engine.settings() {
            Ok(settings) => settings,
            Err(bad) => {
                errors.extend(bad.into_iter().map(ScenarioError::Engine));
                EngineSettings::default()
            }
        };
        let speed = self.speed.settings().unwrap_or_else(|bad| {
            errors.extend(bad.into_iter().map(ScenarioError::Speed));
            SpeedSettings::default()
        });
        let heads = model.as_ref().map_or(
            Heads {
                attention: self.planner.attention_heads,
                kv: self.kv_heads,
                layers: self.layers,
            },
            |m| Heads {
                attention: Some(m.num_attention_heads),
                kv: m.num_kv_heads,
                layers: m.num_layers,
            },
        );
        let layout = Layout::on_one_device(self.gpus, gpu)
            .and_then(|()| match (self.tp, self.pp) {
                (None, None) => Layout::spread(self.gpus, heads),
                (tp, pp) => Layout::chosen(self.gpus, tp.unwrap_or(1), pp.unwrap_or(1), heads),
            })
            .unwrap_or_else(|e| {
                errors.push(ScenarioError::Layout(e));
                Layout::SINGLE
            });
        let published_milli_bits = model.as_ref().map(published_milli_bits);
        let weight_milli_bits = match self.weight_format {
            Some(WeightFormat::AsPublished) => match published_milli_bits {
                Some(bits) => bits,
                None => {
                    errors.push(ScenarioError::NeedsModel(WeightFormat::AsPublished));
                    0
                }
            },
            Some(format) => format.milli_bits().unwrap_or(16_000),
            None => (self.weight_bits * 1_000.0).round() as u64,
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let shape = model.as_ref().map_or(
            [
                (self.params_b * 1e9).round() as u64,
                self.layers,
                self.kv_heads,
                self.head_dim,
            ],
            |m| {
                [
                    m.checkpoint.params,
                    m.num_layers,
                    m.num_kv_heads,
                    m.head_dim,
                ]
            },
        );
        Ok(Scenario {
            mode: self.mode,
            params: shape[0],
            layers: shape[1],
            kv_heads: shape[2],
            head_dim: shape[3],
            model: model.map(Arc::new),
            model_config,
            weight_format: self.weight_format,
            weight_milli_bits,
            kv_milli_bits: (self.kv_bytes * 8_000.0).round() as u64,
            context: self.context,
            sequences: self.sequences,
            heads,
            layout,
            gpu_memory: gpu.map_or(
                GpuMemory::typed(Bytes::from_unit(self.gpu_memory_gb, DisplayUnit::Gb)),
                GpuMemory::of,
            ),
            gpu,
            host_ram_bytes: Bytes::from_unit(self.host_ram_gb, DisplayUnit::Gb),
            lora_rank: self.lora_rank,
            precision: self.precision,
            grad_checkpoint: self.grad_checkpoint,
            optimizer: self.optimizer,
            lora_dropout: self.lora_dropout,
            use_cache: self.use_cache,
            attn: self.attn,
            overhead_centi_pct: (self.overhead_pct * 100.0).round() as u64,
            runtime_bytes: Bytes::from_unit(self.runtime_gib, DisplayUnit::Gib),
            activation_bytes: Bytes::from_unit(self.activation_gib, DisplayUnit::Gib),
            margin_centi_pct: (self.margin_pct * 100.0).round() as u64,
            planner,
            engine,
            placement,
            speed,
        })
    }
}

/// Average bits per parameter of the checkpoint as published, text model
/// and vision tower together (what an engine loads): `published bytes × 8
/// / parameters`, in thousandths of a bit. The methods that weigh the
/// checkpoint tensor by tensor use its bytes
/// ([`ModelSpec::published_format`]) rather than this average.
pub(crate) fn published_milli_bits(model: &ModelSpec) -> u64 {
    let params = model.checkpoint.params.max(1) as u128;
    crate::units::saturate((model.checkpoint.bytes as u128 * 8_000).div_ceil(params))
}

/// Why a scenario was rejected.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ScenarioError {
    /// One field's value is not accepted.
    Field(InputError),
    /// The catalog has no such model.
    UnknownModel(NotFound),
    /// The catalog has no such GPU.
    UnknownGpu(NotFound),
    /// The model's `config.json` cannot be used.
    Config(ConfigError),
    /// This weight format needs a real model (catalog or config).
    NeedsModel(WeightFormat),
    /// One of the planner's knobs is out of its range.
    Planner(PlannerError),
    /// One of the engines' knobs is out of its range.
    Engine(EngineError),
    /// The GPUs cannot be used as asked (TP × PP, heads, stages).
    Layout(LayoutError),
    /// A speed input (host bandwidth, prompt) is out of its range.
    Speed(SpeedError),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Field(e) => e.fmt(f),
            ScenarioError::UnknownModel(e) | ScenarioError::UnknownGpu(e) => e.fmt(f),
            ScenarioError::Config(e) => write!(f, "config.json: {e}"),
            ScenarioError::NeedsModel(format) => write!(
                f,
                "weight format {} needs a model (catalog id or config.json)",
                format.id()
            ),
            ScenarioError::Planner(e) => e.fmt(f),
            ScenarioError::Engine(e) => e.fmt(f),
            ScenarioError::Layout(e) => e.fmt(f),
            ScenarioError::Speed(e) => e.fmt(f),
        }
    }
}

/// A validated scenario in exact integer units. Only
/// [`ScenarioInput::validate`] builds one, so every value is in range.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub mode: Mode,
    /// Parameter count: for a model, everything its checkpoint counts, the
    /// text model and the vision tower an engine loads with it
    /// ([`ModelSpec::checkpoint`]).
    pub params: u64,
    pub layers: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    /// The parsed model, when one was given.
    pub model: Option<Arc<ModelSpec>>,
    /// Its `config.json`, as given.
    pub model_config: Option<ConfigText>,
    /// The named weight format, when one was chosen.
    pub weight_format: Option<WeightFormat>,
    /// Bits per weight, in thousandths of a bit.
    pub weight_milli_bits: u64,
    /// Bits per cached element, in thousandths of a bit.
    pub kv_milli_bits: u64,
    pub context: u64,
    /// Concurrent sequences over the whole deployment (see
    /// [`Scenario::replica_sequences`] for one copy of the model's share).
    pub sequences: u64,
    /// The heads and layers a layout splits (the model's, or the typed
    /// numbers').
    pub heads: Heads,
    /// How the GPUs are used: `gpus = tp × pp × replicas`.
    pub layout: Layout,
    /// One GPU's memory; every method fits against
    /// [`GpuMemory::bytes`] ([`Scenario::gpu_bytes`]).
    pub gpu_memory: GpuMemory,
    /// The catalog GPU, when one was named (bandwidth, compute).
    pub gpu: Option<&'static Gpu>,
    /// Host RAM for offload, in bytes (decimal GB × 10⁹).
    pub host_ram_bytes: Bytes,
    pub lora_rank: u64,
    pub precision: Precision,
    pub grad_checkpoint: bool,
    pub optimizer: Optimizer,
    pub lora_dropout: bool,
    /// Training: a KV cache object exists in the forward.
    pub use_cache: bool,
    pub attn: AttnImpl,
    /// `quick` overhead, in hundredths of a percent (10 % = 1,000).
    pub overhead_centi_pct: u64,
    /// `lesson` runtime reserve, in bytes (GiB × 2³⁰).
    pub runtime_bytes: Bytes,
    /// `lesson` activation reserve, in bytes (GiB × 2³⁰).
    pub activation_bytes: Bytes,
    /// `lesson` margin, in hundredths of a percent (15 % = 1,500).
    pub margin_centi_pct: u64,
    /// `planner` knobs, exact and range-checked.
    pub planner: PlannerSettings,
    /// The engines' knobs (`vllm`, `llamacpp`), exact and range-checked.
    pub engine: EngineSettings,
    /// Where llama.cpp puts the model over several GPUs and the host, as
    /// entered (the `llamacpp` method reads it).
    pub placement: Placement,
    /// The speed inputs, checked.
    pub speed: SpeedSettings,
}

impl Scenario {
    /// One GPU's memory as every method fits against it
    /// ([`GpuMemory::bytes`]).
    pub fn gpu_bytes(&self) -> Bytes {
        self.gpu_memory.bytes()
    }

    /// Weighs the model in `format` ([`WeightFormat::AsPublished`]: the
    /// checkpoint's own average, and only with a model).
    pub fn set_weight_format(&mut self, format: WeightFormat) {
        let bits = match format {
            WeightFormat::AsPublished => self.model.as_deref().map(published_milli_bits),
            _ => format.milli_bits(),
        };
        if let Some(bits) = bits {
            self.weight_format = Some(format);
            self.weight_milli_bits = bits;
        }
    }

    /// The sequences one copy of the model serves: `⌈sequences /
    /// replicas⌉`.
    pub fn replica_sequences(&self) -> u64 {
        self.layout.per_replica_sequences(self.sequences)
    }
}

#[cfg(test)]
mod tests;
