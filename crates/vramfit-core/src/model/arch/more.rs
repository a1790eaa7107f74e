//! More Llama-descended decoders of `transformers`' causal-LM mapping:
//! Helium, Ministral, Seed-OSS, ERNIE-4.5, EXAONE-4, Hunyuan (dense),
//! Arcee, Apertus. Each differs from Llama in a bias, a norm or its MLP.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Mixer, Sizes};
use super::super::shape::{Keys, Shape, MAX_CONTEXT};
use super::llama::{flag, llama_rules, shape};
use super::{dense_full, finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[
    &HELIUM, &MINISTRAL, &SEED_OSS, &ERNIE4_5, &EXAONE4, &HUNYUAN, &ARCEE, &APERTUS,
];

/// `layer_types` when written, else every layer sliding when a window is
/// set (`default` decides which layers slide).
fn windowed(r: &Reader, s: Shape, default: impl Fn(u64) -> bool) -> Result<Blueprint, ConfigError> {
    let window = r.dim(&["sliding_window"], MAX_CONTEXT)?;
    let blocks = match layers::layer_types(r, &attention_types)? {
        Some(b) => b,
        None => layers::by_index(
            s.layers,
            |i| window.is_some() && default(i),
            Mixer::Sliding,
            Mixer::Full,
        ),
    };
    let sizes = Sizes {
        window,
        chunk: None,
    };
    finish(s, None, blocks, "layer_types", sizes, None)
}

pub(super) const HELIUM: Architecture = Architecture {
    family: Family::Helium,
    model_types: &["helium"],
    classes: &["HeliumForCausalLM"],
    source: "transformers models/helium (HeliumConfig, HeliumForCausalLM)",
    counts: "q/k/v (biases with attention_bias), bias-free o, gated MLP (biases with \
             mlp_bias), 2 RMSNorms per layer; head_dim class default 128",
    defaults: &[("num_key_value_heads", 20), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            o_bias: false,
            ..llama_rules(r, false)?
        };
        dense_full(shape(r, Family::Helium, &Keys::STANDARD, rules)?)
    },
};

pub(super) const MINISTRAL: Architecture = Architecture {
    family: Family::Ministral,
    model_types: &["ministral"],
    classes: &["MinistralForCausalLM"],
    source: "transformers models/ministral (MinistralConfig, MinistralForCausalLM)",
    counts: "Mistral layers; layer_types, else sliding_window (class default 4096) on every \
             layer",
    defaults: &[("num_key_value_heads", 8), ("sliding_window", 4096)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let s = shape(r, Family::Ministral, &Keys::STANDARD, Rules::LLAMA)?;
        windowed(r, s, |_| true)
    },
};

pub(super) const SEED_OSS: Architecture = Architecture {
    family: Family::SeedOss,
    model_types: &["seed_oss"],
    classes: &["SeedOssForCausalLM"],
    source: "transformers models/seed_oss (SeedOssConfig, SeedOssForCausalLM)",
    counts: "q/k/v biases (attention_bias, default on), o bias with attention_out_bias, gated \
             MLP (biases with mlp_bias); head_dim class default 128",
    defaults: &[("num_key_value_heads", 8), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            qkv_bias: flag(r, "attention_bias", true)?,
            o_bias: flag(r, "attention_out_bias", false)?,
            mlp_bias: flag(r, "mlp_bias", false)?,
            ..Rules::LLAMA
        };
        dense_full(shape(r, Family::SeedOss, &Keys::STANDARD, rules)?)
    },
};

pub(super) const ERNIE4_5: Architecture = Architecture {
    family: Family::Ernie45,
    model_types: &["ernie4_5"],
    classes: &["Ernie4_5ForCausalLM"],
    source: "transformers models/ernie4_5 (Ernie4_5Config, Ernie4_5ForCausalLM)",
    counts: "q/k/v/o and gated MLP with biases when use_bias, 2 RMSNorms per layer, tied by \
             default; head_dim class default 128",
    defaults: &[("num_key_value_heads", 2), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let bias = flag(r, "use_bias", false)?;
        let rules = Rules {
            mlp_bias: bias,
            tied_default: true,
            ..Rules::LLAMA.with_attention_bias(bias)
        };
        dense_full(shape(r, Family::Ernie45, &Keys::STANDARD, rules)?)
    },
};

pub(super) const EXAONE4: Architecture = Architecture {
    family: Family::Exaone4,
    model_types: &["exaone4"],
    classes: &["Exaone4ForCausalLM"],
    source: "transformers models/exaone4 (Exaone4Config, Exaone4ForCausalLM)",
    counts: "bias-free attention with per-head q/k RMSNorms, gated MLP, RMSNorms after \
             attention and MLP; layer_types, else three sliding layers per full one when \
             sliding_window is set",
    defaults: &[("num_key_value_heads", 32), ("sliding_window", 4096)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let rules = Rules {
            qk_norm: QkNorm::Shared(Norm::Weight),
            ..Rules::LLAMA
        };
        let s = shape(r, Family::Exaone4, &Keys::STANDARD, rules)?;
        let every = match r.get("sliding_window_pattern") {
            Some(v) if v.is_u64() => r
                .dim(&["sliding_window_pattern"], MAX_CONTEXT)?
                .unwrap_or(4),
            _ => 4,
        };
        windowed(r, s, move |i| !(i + 1).is_multiple_of(every))
    },
};

pub(super) const HUNYUAN: Architecture = Architecture {
    family: Family::Hunyuan,
    model_types: &["hunyuan_v1_dense"],
    classes: &["HunYuanDenseV1ForCausalLM"],
    source: "transformers models/hunyuan_v1_dense (HunYuanDenseV1Config)",
    counts: "q/k/v/o (biases with attention_bias), per-head query and key RMSNorms, gated \
             MLP, 2 RMSNorms per layer",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            qk_norm: QkNorm::Shared(Norm::Weight),
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        dense_full(shape(r, Family::Hunyuan, &Keys::STANDARD, rules)?)
    },
};

pub(super) const ARCEE: Architecture = Architecture {
    family: Family::Arcee,
    model_types: &["arcee"],
    classes: &["ArceeForCausalLM"],
    source: "transformers models/arcee (ArceeConfig, ArceeForCausalLM)",
    counts: "Llama attention, plain up/down MLP (relu²; biases with mlp_bias), 2 RMSNorms \
             per layer",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            gated_mlp: false,
            ..llama_rules(r, false)?
        };
        dense_full(shape(r, Family::Arcee, &Keys::STANDARD, rules)?)
    },
};

pub(super) const APERTUS: Architecture = Architecture {
    family: Family::Apertus,
    model_types: &["apertus"],
    classes: &["ApertusForCausalLM"],
    source: "transformers models/apertus (ApertusConfig, ApertusForCausalLM)",
    counts: "attention (biases with attention_bias) with per-head q/k RMSNorms, plain \
             up/down MLP with xIELU's 4 scalars, 2 RMSNorms per layer",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            gated_mlp: false,
            qk_norm: QkNorm::Shared(Norm::Weight),
            mlp_act_scalars: 4,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        dense_full(shape(r, Family::Apertus, &Keys::STANDARD, rules)?)
    },
};
