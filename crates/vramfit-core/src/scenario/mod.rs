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

mod field;
mod format;
mod knob_error;
mod knobs;
mod step;

pub use field::{Field, InputError, InputProblem};
pub use format::{KvDtype, WeightFormat};
pub use knob_error::{Knob, KnobProblem, PlannerError};
pub use knobs::{KvPolicy, PlannerKnobs, PlannerSettings};
pub use step::{AttnImpl, Optimizer, Precision};

use crate::catalog::{self, Gpu, NotFound};
use crate::model::{parse_config, ConfigError, ModelSpec};
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
    /// Sequences served at once (the engine's batch, per replica).
    pub batch: u64,
    /// Users served concurrently (spread over replicas; may queue).
    pub users: u64,
    /// A catalog GPU (`RTX 4090`, case-insensitive). When set, its memory
    /// replaces `gpu_memory_gb` and its bandwidth and compute feed speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// GPUs in the machine.
    pub gpus: u64,
    /// Tensor-parallel degree.
    pub tp: u64,
    /// Pipeline-parallel degree.
    pub pp: u64,
    /// Memory of one GPU, in decimal GB (as marketed).
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
            batch: 1,
            users: 1,
            gpu: None,
            gpus: 1,
            tp: 1,
            pp: 1,
            gpu_memory_gb: 24.0,
            host_ram_gb: 0.0,
            lora_rank: 16,
            precision: Precision::Pure,
            grad_checkpoint: false,
            optimizer: Optimizer::AdamW,
            lora_dropout: true,
            attn: AttnImpl::Sdpa,
            overhead_pct: 10.0,
            runtime_gib: 2.0,
            activation_gib: 4.0,
            margin_pct: 15.0,
            planner: Box::default(),
        }
    }
}

/// Where a real model's shape comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelRef {
    /// A catalog id such as `meta-llama/Llama-3.1-8B` (case-insensitive).
    Catalog(String),
    /// The text of a Hugging Face `config.json`, kept verbatim so that an
    /// exported document reproduces the calculation on its own.
    Config(String),
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
            Field::Batch => self.batch as f64,
            Field::Users => self.users as f64,
            Field::Gpus => self.gpus as f64,
            Field::Tp => self.tp as f64,
            Field::Pp => self.pp as f64,
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
    /// Typing bits per weight by hand drops a named format.
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
            Field::Batch => self.batch = value as u64,
            Field::Users => self.users = value as u64,
            Field::Gpus => self.gpus = value as u64,
            Field::Tp => self.tp = value as u64,
            Field::Pp => self.pp = value as u64,
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
    /// so the same card always exports the same way) and shows its memory;
    /// an unknown name is kept and reported by [`ScenarioInput::validate`].
    pub fn set_gpu(&mut self, name: &str) {
        match catalog::find_gpu(name) {
            Ok(gpu) => {
                self.gpu_memory_gb = gpu.memory_gb;
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
        let model = match self.model.as_ref().map(resolve_model).transpose() {
            Ok(model) => model,
            Err(e) => {
                errors.push(e);
                None
            }
        };
        let gpu = match self.gpu.as_deref().map(catalog::find_gpu).transpose() {
            Ok(gpu) => gpu,
            Err(miss) => {
                errors.push(ScenarioError::UnknownGpu(miss));
                None
            }
        };
        self.validate_resolved(model, gpu, errors)
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
            .then(|| self.validate_resolved(None, None, Vec::new()))
    }

    /// The rest of [`ScenarioInput::validate`], once the model and the GPU
    /// are looked up (`lookup_errors`: what went wrong looking them up).
    fn validate_resolved(
        &self,
        model: Option<ModelSpec>,
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
            |m| [m.params_total, m.num_layers, m.num_kv_heads, m.head_dim],
        );
        Ok(Scenario {
            mode: self.mode,
            params: shape[0],
            layers: shape[1],
            kv_heads: shape[2],
            head_dim: shape[3],
            model: model.map(Arc::new),
            weight_format: self.weight_format,
            weight_milli_bits,
            kv_milli_bits: (self.kv_bytes * 8_000.0).round() as u64,
            context: self.context,
            batch: self.batch,
            users: self.users,
            gpus: self.gpus,
            tp: self.tp,
            pp: self.pp,
            gpu_bytes: gpu.map_or(Bytes::from_unit(self.gpu_memory_gb, DisplayUnit::Gb), |g| {
                g.memory_bytes
            }),
            gpu,
            host_ram_bytes: Bytes::from_unit(self.host_ram_gb, DisplayUnit::Gb),
            lora_rank: self.lora_rank,
            precision: self.precision,
            grad_checkpoint: self.grad_checkpoint,
            optimizer: self.optimizer,
            lora_dropout: self.lora_dropout,
            attn: self.attn,
            overhead_centi_pct: (self.overhead_pct * 100.0).round() as u64,
            runtime_bytes: Bytes::from_unit(self.runtime_gib, DisplayUnit::Gib),
            activation_bytes: Bytes::from_unit(self.activation_gib, DisplayUnit::Gib),
            margin_centi_pct: (self.margin_pct * 100.0).round() as u64,
            planner,
        })
    }
}

/// The model a [`ModelRef`] names, parsed.
fn resolve_model(model: &ModelRef) -> Result<ModelSpec, ScenarioError> {
    match model {
        ModelRef::Catalog(id) => {
            let entry = catalog::find_model(id).map_err(ScenarioError::UnknownModel)?;
            entry.spec().map_err(ScenarioError::Config)
        }
        ModelRef::Config(text) => parse_config(text).map_err(ScenarioError::Config),
    }
}

/// Average bits per parameter of the checkpoint as published:
/// `published bytes × 8 / parameters`, in thousandths of a bit.
fn published_milli_bits(model: &ModelSpec) -> u64 {
    let params = model.params_total.max(1) as u128;
    crate::units::saturate((model.published_weight_bytes() as u128 * 8_000).div_ceil(params))
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
        }
    }
}

/// A validated scenario in exact integer units. Only
/// [`ScenarioInput::validate`] builds one, so every value is in range.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub mode: Mode,
    /// Parameter count (the model's total when a model is given).
    pub params: u64,
    pub layers: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    /// The parsed model, when one was given.
    pub model: Option<Arc<ModelSpec>>,
    /// The named weight format, when one was chosen.
    pub weight_format: Option<WeightFormat>,
    /// Bits per weight, in thousandths of a bit.
    pub weight_milli_bits: u64,
    /// Bits per cached element, in thousandths of a bit.
    pub kv_milli_bits: u64,
    pub context: u64,
    pub batch: u64,
    pub users: u64,
    pub gpus: u64,
    pub tp: u64,
    pub pp: u64,
    /// Memory of one GPU, in bytes (decimal GB × 10⁹; a catalog GPU's).
    pub gpu_bytes: Bytes,
    /// The catalog GPU, when one was named (bandwidth, compute).
    pub gpu: Option<&'static Gpu>,
    /// Host RAM for offload, in bytes (decimal GB × 10⁹).
    pub host_ram_bytes: Bytes,
    pub lora_rank: u64,
    pub precision: Precision,
    pub grad_checkpoint: bool,
    pub optimizer: Optimizer,
    pub lora_dropout: bool,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid_and_exact() {
        let s = ScenarioInput::default().validate().unwrap();
        assert_eq!(s.params, 8_000_000_000);
        assert_eq!(s.weight_milli_bits, 16_000);
        assert_eq!(s.kv_milli_bits, 16_000);
        assert_eq!(s.gpu_bytes, Bytes(24_000_000_000));
    }

    #[test]
    fn every_bad_field_is_named() {
        let input = ScenarioInput {
            layers: 0,
            kv_bytes: f64::NAN,
            gpu_memory_gb: -3.0,
            ..ScenarioInput::default()
        };
        let errors = input.validate().unwrap_err();
        let fields: Vec<Field> = errors
            .iter()
            .filter_map(|e| match e {
                ScenarioError::Field(f) => Some(f.field),
                _ => None,
            })
            .collect();
        assert_eq!(fields, [Field::Layers, Field::KvBytes, Field::GpuMemoryGb]);
        assert_eq!(errors[0].to_string(), "layers must be between 1 and 1024");
    }

    #[test]
    fn unknown_keys_in_json_are_rejected() {
        let err = serde_json::from_str::<ScenarioInput>(r#"{"layerz": 3}"#).unwrap_err();
        assert!(err.to_string().contains("layerz"));
    }

    #[test]
    fn missing_keys_take_defaults() {
        let input: ScenarioInput = serde_json::from_str(r#"{"context": 4096}"#).unwrap();
        assert_eq!(input.context, 4096);
        assert_eq!(input.layers, 32);
    }

    #[test]
    fn a_catalog_model_replaces_the_typed_shape() {
        let input = ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/llama-3.1-70b".into())),
            ..ScenarioInput::default()
        };
        let s = input.validate().unwrap();
        assert_eq!(s.params, 70_553_706_496);
        assert_eq!((s.layers, s.kv_heads, s.head_dim), (80, 8, 128));
        assert!(s.model.is_some());
    }

    #[test]
    fn model_problems_are_named() {
        let unknown = ScenarioInput {
            model: Some(ModelRef::Catalog("Lama-3.1-8B".into())),
            ..ScenarioInput::default()
        };
        let text = unknown.validate().unwrap_err()[0].to_string();
        assert!(
            text.contains("did you mean meta-llama/Llama-3.1-8B"),
            "{text}"
        );
        let broken = ScenarioInput {
            model: Some(ModelRef::Config(
                r#"{"model_type": "llama", "hidden_size": 4096"#.into(),
            )),
            ..ScenarioInput::default()
        };
        assert!(matches!(
            broken.validate().unwrap_err()[0],
            ScenarioError::Config(_)
        ));
    }

    #[test]
    fn as_published_needs_a_model_and_reads_the_checkpoint() {
        let mut input = ScenarioInput::default();
        input.set_weight_format(WeightFormat::AsPublished);
        assert_eq!(
            input.validate().unwrap_err(),
            [ScenarioError::NeedsModel(WeightFormat::AsPublished)]
        );
        input.model = Some(ModelRef::Catalog("openai/gpt-oss-20b".into()));
        let s = input.validate().unwrap();
        // MXFP4 experts + BF16 rest: about 5.26 bits per parameter on average.
        assert_eq!(s.weight_milli_bits, 5_264);
    }

    #[test]
    fn typing_bits_drops_the_named_format() {
        let mut input = ScenarioInput::default();
        input.set_weight_format(WeightFormat::Awq);
        assert_eq!(input.weight_bits, 4.16);
        input.set(Field::WeightBits, 5.0);
        assert_eq!(input.weight_format, None);
    }
}
