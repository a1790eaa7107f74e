//! A model's shape from its Hugging Face `config.json`.
//!
//! [`parse_config`] turns the text of a `config.json` into a typed
//! [`ModelSpec`] or a [`ConfigError`] naming the keys at fault. It is the
//! edge: a `ModelSpec` is validated, and every helper on it is total.
//!
//! Each `model_type` has its own reader ([`Family`]), which follows that
//! model type's `transformers` code: the names and defaults of its config
//! class (the tie default included) and the tensors of its modeling code
//! (biases, norms, fused projections, parallel blocks, position tables,
//! the MLP's shape). A model type no reader knows is refused
//! ([`ConfigErrorKind::UnknownModelType`]), as is a per-layer key its
//! reader does not know ([`ConfigErrorKind::UnknownLayerPattern`]);
//! [`parse_config_approximate`] reads an unknown type as a Llama-style
//! decoder and says so ([`Reading::Approximate`]). `docs/coverage.md`
//! lists the readers. Readers cover:
//!
//! - sizes under each class's names (`n_embd`, `n_layer`, `d_model`,
//!   `ffn_dim`, `padded_vocab_size`, ...) and its defaults for absent keys;
//! - the text model of multimodal wrappers (`text_config`, with the outer
//!   keys as fallback);
//! - per-layer kinds from `layer_types`, windows, chunking, periods,
//!   patterns, `block_configs`;
//! - MLA ranks, MoE experts and the layers that route;
//! - the `quantization_config` of every method whose stored layout is
//!   known (FP8, MXFP4, GPTQ, AWQ, bitsandbytes, compressed-tensors,
//!   ModelOpt, FBGEMM, EETQ; others refused by name), with the modules each
//!   keeps unquantized, and a ModelOpt export's `hf_quant_config.json`
//!   where its `config.json` states no quantization ([`parse_config_with`];
//!   without it the spec says where the quantization may be,
//!   [`QuantSource`]);
//! - the vision tower and projector of vision-language models
//!   (`vision_config`), or a flag saying it is not counted;
//! - the non-standard JSON tokens `NaN` and `Infinity` Python writes.
//!
//! From the shapes it counts parameters per group ([`ParamGroups`]), total
//! and active, the bytes of the checkpoint as published (text model, and
//! with the vision tower in [`ModelSpec::checkpoint`]), and the KV cache
//! ([`ModelSpec::kv_cache_bytes`]). See `docs/quantization.md`.
//!
//! ```
//! use vramfit_core::model::{parse_config, AttentionKind};
//! let spec = parse_config(r#"{
//!     "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
//!     "num_attention_heads": 32, "num_key_value_heads": 8,
//!     "intermediate_size": 14336, "vocab_size": 128256,
//!     "torch_dtype": "bfloat16"
//! }"#).unwrap();
//! assert_eq!(spec.params_total, 8_030_261_248); // Llama-3-8B
//! assert_eq!(spec.attention[0], AttentionKind::Full);
//! assert_eq!(spec.kv_bytes_per_token(16_000), 131_072);
//! ```

mod arch;
mod dtype;
mod error;
mod family;
mod family_name;
mod json;
mod kv;
mod kv_rate;
mod layers;
mod mixer;
mod moe;
mod params;
mod published;
mod quant;
pub(crate) use quant::Regex;
mod rope;
mod shape;
mod vision;

#[cfg(test)]
mod tests;

pub use dtype::Dtype;
pub use error::{ConfigError, ConfigErrorKind};
pub use family::{ActiveCount, Family};
pub use kv::LayerCount;
pub use kv_rate::KvGrowth;
pub use layers::{AttentionKind, FfnKind};
pub use mixer::LinearMixer;
pub use moe::MoeSpec;
pub use params::ParamGroups;
pub use published::{published_label, PublishedFormat};
pub use quant::{
    name_suggests_quantization, CtFormat, CtStrategy, CtWeights, Dialect, QuantGroup, QuantScheme,
    QuantSource, Quantization, Scope, StoredBytes,
};
pub use rope::RopeScaling;
pub use shape::MlaSpec;
pub use vision::{CheckpointTotals, Includes, VisionKind, VisionSpec};

use json::Reader;
use serde::Serialize;

/// How a model stores the projections adapters attach to (its modeling
/// code's module layout), for methods that count per-projection adapters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Projections {
    /// q, k and v are one matrix (`qkv_proj`, `c_attn`, `query_key_value`).
    pub fused_qkv: bool,
    /// The query projection also yields an output gate, doubling its width
    /// (Qwen3-Next, Qwen3.5).
    pub gated_query: bool,
    /// The MLP has a gate (`gate, up, down`) rather than `up, down`.
    pub gated_mlp: bool,
    /// gate and up are one matrix (`gate_up_proj`, `dense_h_to_4h`).
    pub fused_gate_up: bool,
    /// The q, k and v projections have biases (Qwen2's, `attention_bias`).
    pub qkv_bias: bool,
    /// The attention output projection has a bias.
    pub o_bias: bool,
    /// Every dense-MLP projection has a bias (`mlp_bias`, GPT-2's).
    pub mlp_bias: bool,
}

/// How a config was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// By its model type's own reader, tensor by tensor.
    Exact,
    /// An unknown model type read as a Llama-style decoder
    /// ([`parse_config_approximate`]); [`ModelSpec::assumed_keys`] says
    /// which keys were given Llama's meaning.
    Approximate,
}

/// What vramfit understood of a model's `config.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelSpec {
    /// Exact, or approximate with the keys it assumed.
    pub reading: Reading,
    /// Keys read with a Llama-style meaning the model type's own code may
    /// not give them (approximate readings only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed_keys: Vec<String>,
    /// `_name_or_path`, where the config has one.
    pub name: Option<String>,
    /// `model_type` of the text model (`"gemma3_text"`, ...).
    pub model_type: Option<String>,
    /// First entry of `architectures`.
    pub architecture: Option<String>,
    /// The reader that read the text model ([`Family::Generic`]: the
    /// approximate path only).
    pub family: Family,
    /// The text model was read from a multimodal wrapper (`text_config`).
    /// `params`, `params_total` and `published_bytes` cover the text model;
    /// the vision tower is in `vision`, and `checkpoint` adds both.
    pub nested_text_config: bool,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_attention_heads: u64,
    pub num_kv_heads: u64,
    /// Head dimension of attention layers (for MLA, the query/key width
    /// `qk_nope_head_dim + qk_rope_head_dim`).
    pub head_dim: u64,
    pub vocab_size: u64,
    /// Width of a dense MLP layer, where the config gives one.
    pub intermediate_size: Option<u64>,
    /// Longest context the model was configured for
    /// (`max_position_embeddings`).
    pub max_context: Option<u64>,
    /// The output head reuses the input embedding.
    pub tied_embeddings: bool,
    /// `rope_scaling` (or `rope_parameters`), where the config has one.
    pub rope_scaling: Option<RopeScaling>,
    /// `partial_rotary_factor` in thousandths (0.75 → 750), where given:
    /// the share of each head's dimensions that rotate.
    pub partial_rotary_milli: Option<u64>,
    /// Storage type of unquantized tensors.
    pub dtype: Dtype,
    /// The config gave no dtype; `dtype` is a default.
    pub dtype_assumed: bool,
    /// Attention kind of each layer, one entry per layer.
    pub attention: Vec<AttentionKind>,
    /// Feed-forward kind of each layer, one entry per layer.
    pub ffn: Vec<FfnKind>,
    /// Key/value heads of each layer where attention layers differ
    /// (Nemotron-NAS), 0 for a layer without attention; `None` when every
    /// attention layer has `num_kv_heads` (then the largest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_heads_by_layer: Option<Vec<u64>>,
    /// Elements one key/value head caches per token in each layer, `d_k +
    /// d_v` (`d` where one tensor serves as keys and values), 0 for a layer
    /// without attention, where some attention layer's differ from `2 ·
    /// head_dim` (Gemma-4's global layers, MiMo-V2's value heads,
    /// DeepSeek-V4); `None` when every attention layer caches `2 ·
    /// head_dim`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_dims_by_layer: Option<Vec<u64>>,
    /// Width of each layer's dense MLP where layers differ (Nemotron-NAS),
    /// 0 for a layer without one; `None` when every dense MLP is
    /// `intermediate_size` wide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffn_width_by_layer: Option<Vec<u64>>,
    /// The module layout of the projections.
    pub projections: Projections,
    /// Recurrent state elements per sequence that every attention layer
    /// also keeps, for a mixer running beside its attention (Falcon-H1's
    /// Mamba-2); 0 otherwise.
    pub side_state: u64,
    pub mla: Option<MlaSpec>,
    /// The mixer of `Linear` layers.
    pub linear_mixer: Option<LinearMixer>,
    pub moe: Option<MoeSpec>,
    /// Parameters by group.
    pub params: ParamGroups,
    /// All parameters (the sum of `params`); MTP layers not included.
    pub params_total: u64,
    /// Parameters used per token: the total less the routed experts a
    /// token does not visit, counted as the family's cards count it
    /// ([`ModelSpec::active_count`]: gpt-oss and DeepSeek leave out the
    /// input embedding, MiniMax the embedding and the head).
    pub params_active: u64,
    /// What [`ModelSpec::params_active`] leaves out, per the family's
    /// published convention.
    pub active_count: ActiveCount,
    /// Parameters of multi-token-prediction layers stored with the
    /// checkpoint but not part of the model's published size.
    pub mtp_params: u64,
    pub quantization: Option<Quantization>,
    /// Where the quantization was read from; for a config without one,
    /// that an `hf_quant_config.json` may hold it ([`QuantSource::note`]).
    pub quantization_source: QuantSource,
    /// Parameters stored in the quantized format, by group.
    pub quantized_params: ParamGroups,
    /// Bytes of the checkpoint as published, by group: quantized tensors
    /// with their scales, the rest at `dtype`.
    pub published_bytes: ParamGroups,
    /// Keys absent from the config whose values were taken from the
    /// family's defaults (as `transformers` does), so the UI can say so.
    pub defaults_used: Vec<String>,
    /// The vision tower and projector of a vision-language model.
    pub vision: Option<VisionSpec>,
    /// A multimodal config whose vision tower vramfit does not count, and
    /// why (the totals then cover the text model only, and say so).
    pub vision_not_counted: Option<String>,
    /// Everything counted in the checkpoint, text model and vision tower,
    /// with what it includes.
    pub checkpoint: CheckpointTotals,
}

impl ModelSpec {
    /// Bytes of the weights as published (MTP layers not included).
    pub fn published_weight_bytes(&self) -> u64 {
        self.published_bytes.total()
    }
}

/// Parses the text of a Hugging Face `config.json`.
///
/// Never panics: anything that is not a usable config is a
/// [`ConfigError`] naming the keys at fault, an unknown model type or an
/// unknown per-layer key included.
pub fn parse_config(text: &str) -> Result<ModelSpec, ConfigError> {
    parse_config_with(text, None)
}

/// Like [`parse_config`], with the text of the checkpoint's
/// `hf_quant_config.json` where it has one: NVIDIA ModelOpt exports state
/// their quantization there, and some (DeepSeek-V3.1/V3.2-NVFP4, GLM-5-NVFP4,
/// Nemotron-3 NVFP4/FP8, Llama-3.1-70B-Instruct-FP8) only there. The side
/// file is read when `config.json` has no `quantization_config`;
/// [`ModelSpec::quantization_source`] says which was read.
///
/// ```
/// use vramfit_core::model::{parse_config, parse_config_with, QuantSource};
/// let config = r#"{"model_type": "llama", "hidden_size": 4096,
///     "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
///     "intermediate_size": 14336, "vocab_size": 128256, "torch_dtype": "bfloat16"}"#;
/// let side = r#"{"producer": {"name": "modelopt"}, "quantization":
///     {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8", "exclude_modules": ["lm_head"]}}"#;
/// let bf16 = parse_config(config).unwrap();
/// assert!(bf16.quantization.is_none() && bf16.quantization_source.note().is_some());
/// let fp8 = parse_config_with(config, Some(side)).unwrap();
/// assert_eq!(fp8.quantization_source, QuantSource::HfQuantConfig);
/// assert!(fp8.published_weight_bytes() < bf16.published_weight_bytes() * 6 / 10);
/// ```
pub fn parse_config_with(
    text: &str,
    hf_quant_config: Option<&str>,
) -> Result<ModelSpec, ConfigError> {
    let mut object = json::parse_object(text)?;
    let side = match hf_quant_config {
        Some(side) => Some(quant::attach_side_file(&mut object, side)?),
        None => None,
    };
    let resolved = arch::resolve(&object)?;
    let mut spec = build(resolved, Reading::Exact, Vec::new())?;
    spec.quantization_source = match (side, &spec.quantization_source) {
        (Some(quant::Attached::AsQuantizationConfig), _) => QuantSource::HfQuantConfig,
        (Some(quant::Attached::ConfigHasOwn), _) => QuantSource::ConfigJsonOverSideFile,
        (None, source) => source.clone(),
    };
    Ok(spec)
}

/// Like [`parse_config`], but a model type no reader knows is read as a
/// Llama-style decoder (gated MLP, two RMSNorms per layer, untied head
/// unless `tie_word_embeddings`, every layer full attention) and marked
/// [`Reading::Approximate`], with the keys given that meaning in
/// [`ModelSpec::assumed_keys`]. A config whose keys describe experts,
/// latent attention, recurrent layers or windows is still refused: the
/// Llama reading would drop them.
pub fn parse_config_approximate(text: &str) -> Result<ModelSpec, ConfigError> {
    let object = json::parse_object(text)?;
    match arch::resolve(&object) {
        Ok(resolved) => build(resolved, Reading::Exact, Vec::new()),
        Err(e) if matches!(e.kind, ConfigErrorKind::UnknownModelType { .. }) => {
            let (resolved, assumed) = arch::approximate(&object, e)?;
            build(resolved, Reading::Approximate, assumed)
        }
        Err(e) => Err(e),
    }
}

/// Reads a resolved config into a [`ModelSpec`].
fn build(
    resolved: arch::Resolved,
    reading: Reading,
    assumed_keys: Vec<String>,
) -> Result<ModelSpec, ConfigError> {
    let r = &resolved.reader;
    let arch::Blueprint { shape, moe, plan } = (resolved.arch.read)(r)?;
    arch::check_layer_keys(r, resolved.arch, &resolved.model_type, shape.layers)?;
    let arch = params::Arch {
        shape: &shape,
        moe: moe.as_ref(),
        mixer: plan.mixer,
    };
    let (params, counted) = params::count(&arch, &plan);
    let mut quantization = quant::read(r, shape.dtype)?;
    match (shape.family, quantization.as_mut()) {
        (Family::DeepseekV4, Some(q)) => {
            let fp4 = r.text("expert_dtype")? == Some("fp4");
            let ue8m0 = r
                .object("quantization_config")?
                .and_then(|c| c.get("scale_fmt"))
                .and_then(|v| v.as_str())
                == Some("ue8m0");
            quant::deepseek_v4_layout(q, fp4, ue8m0);
        }
        (Family::GlmMoeDsa, Some(q)) => quant::keep_unconverted(q, &["indexer.weights_proj"]),
        _ => {}
    }
    let naming = quant::Naming::new(
        Some(&resolved.model_type),
        r.get_outer("vision_config").is_some(),
    );
    let weighed = quant::weigh(&arch, &plan, quantization.as_ref(), shape.dtype, &naming);
    let (quantized_params, published_bytes) = (weighed.quantized, weighed.bytes);
    let (vision, vision_not_counted) =
        match vision::read(r, shape.hidden, shape.dtype, quantization.as_ref())? {
            vision::Reading::None => (None, None),
            vision::Reading::Counted(v) => (Some(v), None),
            vision::Reading::NotCounted(why) => (None, Some(why)),
        };
    let mut checkpoint = checkpoint_totals(
        params.total(),
        &weighed,
        vision.as_ref(),
        vision_not_counted.is_some(),
    );
    checkpoint.stored_unloaded = params::stored_unloaded(&arch, &plan);
    checkpoint.tied_head_copy = params::tied_head_copy(&shape);
    let params_total = params.total();
    let left_out = match shape.rules.active {
        ActiveCount::AllParameters => 0,
        ActiveCount::WithoutInputEmbedding => params.embedding,
        ActiveCount::WithoutEmbeddings => {
            crate::units::sum([params.embedding, params.lm_head, counted.buffers])
        }
    };
    let (num_kv_heads, kv_heads_by_layer) = plan.kv_heads(shape.kv_heads);
    let quantization_source = match quantization {
        Some(_) => QuantSource::ConfigJson,
        None => QuantSource::NotInConfig {
            name_suggests: r
                .get_outer("_name_or_path")
                .and_then(|v| v.as_str())
                .and_then(name_suggests_quantization)
                .map(str::to_string),
        },
    };
    let (rope_scaling, partial_rotary_milli) = rope::read(r)?;
    let side_state = match (shape.rules.parallel_mixer, plan.mixer) {
        (true, Some(m)) => m.state_elements(),
        _ => 0,
    };
    Ok(ModelSpec {
        reading,
        assumed_keys,
        name: r
            .get_outer("_name_or_path")
            .and_then(|v| v.as_str())
            .map(str::to_string),
        model_type: Some(resolved.model_type.clone()),
        architecture: first_architecture(r),
        family: shape.family,
        nested_text_config: r.is_nested(),
        hidden_size: shape.hidden,
        num_layers: shape.layers,
        num_attention_heads: shape.heads,
        num_kv_heads,
        head_dim: shape.head_dim,
        vocab_size: shape.vocab,
        intermediate_size: shape.intermediate,
        max_context: shape.max_context,
        tied_embeddings: shape.tied,
        rope_scaling,
        partial_rotary_milli,
        dtype: shape.dtype,
        dtype_assumed: shape.dtype_assumed,
        mtp_params: params::mtp_params(&arch, &plan),
        kv_heads_by_layer,
        kv_dims_by_layer: plan.kv_dims(shape.head_dim),
        ffn_width_by_layer: plan.ffn_widths(shape.intermediate),
        projections: Projections {
            fused_qkv: shape.rules.fused_qkv,
            gated_query: shape.rules.gated_query,
            gated_mlp: shape.rules.gated_mlp,
            fused_gate_up: shape.rules.fused_gate_up,
            qkv_bias: shape.rules.qkv_bias,
            o_bias: shape.rules.o_bias,
            mlp_bias: shape.rules.mlp_bias,
        },
        side_state,
        attention: plan.attention,
        ffn: plan.ffn,
        mla: shape.mla,
        linear_mixer: plan.mixer,
        moe,
        params,
        params_total,
        params_active: params_total
            .saturating_sub(counted.unrouted)
            .saturating_sub(left_out),
        active_count: shape.rules.active,
        quantization,
        quantization_source,
        quantized_params,
        published_bytes,
        defaults_used: r.used_defaults(),
        vision,
        vision_not_counted,
        checkpoint,
    })
}

/// The coverage list by architecture (`docs/coverage.md`): every model
/// type read exactly, what its reader counts and where its rules come
/// from, the multimodal wrappers read through, and what is refused.
/// Rendered from the readers, so it cannot drift from them.
pub fn coverage_markdown() -> String {
    arch::coverage_markdown()
}

/// Text model plus vision tower: parameters, bytes as published, and the
/// quantized part, with what they include.
fn checkpoint_totals(
    text_params: u64,
    text: &quant::Weighed,
    vision: Option<&VisionSpec>,
    not_counted: bool,
) -> CheckpointTotals {
    let mut quantized_bytes = text.stored;
    let (mut params, mut bytes) = (text_params, text.bytes.total());
    let mut quantized_params = text.quantized.total();
    let includes = match (vision, not_counted) {
        (Some(v), _) => {
            params = params.saturating_add(v.params);
            bytes = bytes.saturating_add(v.bytes);
            quantized_params = quantized_params.saturating_add(v.quantized_params);
            quantized_bytes.add(&v.stored, 1);
            match v.audio_params {
                0 => Includes::TextModelAndVisionTower,
                _ => Includes::TextModelVisionAndAudioTowers,
            }
        }
        (None, true) => Includes::TextModelOnlyVisionNotCounted,
        (None, false) => Includes::TextModel,
    };
    CheckpointTotals {
        includes,
        params,
        bytes,
        quantized_params,
        quantized_bytes,
        scalars: vision.map_or(0, |v| v.scalars),
        stored_unloaded: 0,
        tied_head_copy: 0,
    }
}

/// The first entry of `architectures` (outer object first), if a string.
fn first_architecture(r: &Reader) -> Option<String> {
    let list = r
        .get_outer("architectures")
        .or_else(|| r.get("architectures"))?;
    list.as_array()?.first()?.as_str().map(str::to_string)
}
