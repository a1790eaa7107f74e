//! Llama-style decoders: RMSNorm (or LayerNorm) pre-norm layers with
//! attention and a gated MLP, and their mixture-of-experts kin.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Mixer, Sizes};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{self, Keys, Shape, MAX_LAYERS};
use super::{dense_full, finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[
    &LLAMA,
    &MISTRAL,
    &MIXTRAL,
    &GRANITE,
    &GRANITE_MOE,
    &GRANITE_MOE_SHARED,
    &SMOLLM3,
    &NEMOTRON,
    &STARCODER2,
    &GLM,
    &GLM4,
    &INTERNLM,
    &INTERNLM2,
];

/// Reads the shape with `rules` and checks the head grouping.
pub(super) fn shape(
    r: &Reader,
    family: Family,
    keys: &Keys,
    rules: Rules,
) -> Result<Shape, ConfigError> {
    let s = shape::read_with(r, family, keys, rules)?;
    s.check_groups(
        keys.kv_heads
            .first()
            .copied()
            .unwrap_or("num_key_value_heads"),
    )?;
    Ok(s)
}

/// A boolean flag with the class default.
pub(super) fn flag(r: &Reader, key: &str, default: bool) -> Result<bool, ConfigError> {
    Ok(r.flag(key)?.unwrap_or(default))
}

/// Llama's rules with its `attention_bias` and `mlp_bias` flags.
pub(super) fn llama_rules(r: &Reader, tied_default: bool) -> Result<Rules, ConfigError> {
    Ok(Rules {
        mlp_bias: flag(r, "mlp_bias", false)?,
        tied_default,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    })
}

/// Every layer sliding when the config has a window (Mistral, Phi-3,
/// Starcoder2), else every layer full.
pub(super) fn window_everywhere(r: &Reader, shape: Shape) -> Result<Blueprint, ConfigError> {
    let window = layers::window(r, "sliding_window", false)?;
    let blocks = layers::uniform(shape.layers, Mixer::Sliding);
    finish(
        shape,
        None,
        blocks,
        "num_hidden_layers",
        Sizes {
            window,
            chunk: None,
        },
        None,
    )
}

pub(super) const LLAMA: Architecture = Architecture {
    family: Family::Llama,
    model_types: &["llama"],
    classes: &["LlamaForCausalLM"],
    source: "transformers models/llama (LlamaConfig, LlamaForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), gated MLP (biases with mlp_bias), \
             2 RMSNorms per layer, final norm, head unless tied (default untied)",
    defaults: &[],
    nested_defaults: &[
        ("hidden_size", 4096),
        ("intermediate_size", 11008),
        ("num_hidden_layers", 32),
        ("num_attention_heads", 32),
        ("vocab_size", 32000),
    ],
    layer_keys: &[],
    read: |r| {
        dense_full(shape(
            r,
            Family::Llama,
            &Keys::STANDARD,
            llama_rules(r, false)?,
        )?)
    },
};

pub(super) const MISTRAL: Architecture = Architecture {
    family: Family::Mistral,
    model_types: &["mistral"],
    classes: &["MistralForCausalLM"],
    source: "transformers models/mistral (MistralConfig, MistralForCausalLM)",
    counts: "bias-free q/k/v/o and gated MLP, 2 RMSNorms per layer, final norm; \
             sliding_window (class default 4096) on every layer",
    defaults: &[("num_key_value_heads", 8), ("sliding_window", 4096)],
    nested_defaults: &[
        ("hidden_size", 4096),
        ("intermediate_size", 14336),
        ("num_hidden_layers", 32),
        ("num_attention_heads", 32),
        ("vocab_size", 32000),
    ],
    layer_keys: &[],
    read: |r| {
        let s = shape(r, Family::Mistral, &Keys::STANDARD, Rules::LLAMA)?;
        window_everywhere(r, s)
    },
};

pub(super) const MIXTRAL: Architecture = Architecture {
    family: Family::Mixtral,
    model_types: &["mixtral"],
    classes: &["MixtralForCausalLM"],
    source: "transformers models/mixtral (MixtralConfig, MixtralForCausalLM)",
    counts: "bias-free q/k/v/o, experts (gate, up, down) in every layer with a bias-free \
             router, 2 RMSNorms per layer; sliding_window on every layer when set",
    defaults: &[
        ("num_key_value_heads", 8),
        ("num_experts_per_tok", 2),
        ("num_local_experts", 8),
    ],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let s = shape(r, Family::Mixtral, &Keys::STANDARD, Rules::LLAMA)?;
        let moe = moe::read(r, &MoeKeys::MIXTRAL, s.layers)?;
        let window = layers::window(r, "sliding_window", false)?;
        let blocks = layers::uniform(s.layers, Mixer::Sliding);
        let sizes = Sizes {
            window,
            chunk: None,
        };
        finish(s, moe, blocks, "num_hidden_layers", sizes, None)
    },
};

pub(super) const GRANITE: Architecture = Architecture {
    family: Family::Granite,
    model_types: &["granite"],
    classes: &["GraniteForCausalLM"],
    source: "transformers models/granite (GraniteConfig, GraniteForCausalLM)",
    counts: "Llama layout (biases with attention_bias / mlp_bias); multipliers are scalars, \
             not tensors; head unless tied (default untied)",
    defaults: &[],
    nested_defaults: &[
        ("hidden_size", 4096),
        ("intermediate_size", 11008),
        ("num_hidden_layers", 32),
        ("num_attention_heads", 32),
        ("vocab_size", 32000),
    ],
    layer_keys: &[],
    read: |r| {
        dense_full(shape(
            r,
            Family::Granite,
            &Keys::STANDARD,
            llama_rules(r, false)?,
        )?)
    },
};

/// GraniteMoE experts: `input_linear` (gate and up fused), `output_linear`,
/// a bias-free router, in every layer.
const GRANITE_MOE_KEYS: MoeKeys = MoeKeys {
    experts: &["num_local_experts"],
    top_k: &["num_experts_per_tok"],
    width: &["intermediate_size"],
    shared: Shared::None,
    select: Select::All,
    score_bias_default: false,
    latent: false,
};

fn granite_moe(r: &Reader, family: Family, shared: Shared) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        fused_gate_up: true,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    };
    let s = shape(r, family, &Keys::STANDARD, rules)?;
    let keys = MoeKeys {
        shared,
        ..GRANITE_MOE_KEYS
    };
    let moe = moe::read(r, &keys, s.layers)?;
    let blocks = layers::uniform(s.layers, Mixer::Full);
    finish(s, moe, blocks, "num_hidden_layers", Sizes::default(), None)
}

pub(super) const GRANITE_MOE: Architecture = Architecture {
    family: Family::GraniteMoe,
    model_types: &["granitemoe"],
    classes: &["GraniteMoeForCausalLM"],
    source: "transformers models/granitemoe (GraniteMoeConfig, GraniteMoeForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), experts with fused input_linear and \
             output_linear in every layer, bias-free router, 2 RMSNorms per layer",
    defaults: &[("num_local_experts", 8), ("num_experts_per_tok", 2)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| granite_moe(r, Family::GraniteMoe, Shared::None),
};

pub(super) const GRANITE_MOE_SHARED: Architecture = Architecture {
    family: Family::GraniteMoeShared,
    model_types: &["granitemoeshared"],
    classes: &["GraniteMoeSharedForCausalLM"],
    source: "transformers models/granitemoeshared (GraniteMoeSharedConfig)",
    counts: "GraniteMoE plus a shared gated MLP of shared_intermediate_size in every layer",
    defaults: &[("num_local_experts", 8), ("num_experts_per_tok", 2)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        granite_moe(
            r,
            Family::GraniteMoeShared,
            Shared::Width("shared_intermediate_size"),
        )
    },
};

pub(super) const SMOLLM3: Architecture = Architecture {
    family: Family::SmolLm3,
    model_types: &["smollm3"],
    classes: &["SmolLM3ForCausalLM"],
    source: "transformers models/smollm3 (SmolLM3Config, SmolLM3ForCausalLM)",
    counts: "Llama layout, tied by default; no_rope_layers change no tensor; layer_types \
             (or use_sliding_window on the layers without RoPE) decide sliding layers",
    defaults: &[("num_key_value_heads", 4)],
    nested_defaults: &[],
    layer_keys: &["layer_types", "no_rope_layers"],
    read: |r| {
        let s = shape(r, Family::SmolLm3, &Keys::STANDARD, llama_rules(r, true)?)?;
        let window = layers::window(r, "sliding_window", true)?;
        let blocks = match layers::layer_types(r, &attention_types)? {
            Some(b) => b,
            None => {
                let n = s.layers;
                let no_rope = match r.uint_list("no_rope_layers")? {
                    Some(list) => {
                        layers::check_length("no_rope_layers", list.len() as u64, n)?;
                        list
                    }
                    None => {
                        let every = r.dim(&["no_rope_layer_interval"], MAX_LAYERS)?.unwrap_or(4);
                        (0..n)
                            .map(|i| u64::from(!(i + 1).is_multiple_of(every)))
                            .collect()
                    }
                };
                let sliding = |i: u64| window.is_some() && no_rope[i as usize] == 0;
                layers::by_index(n, sliding, Mixer::Sliding, Mixer::Full)
            }
        };
        let sizes = Sizes {
            window,
            chunk: None,
        };
        finish(s, None, blocks, "layer_types", sizes, None)
    },
};

pub(super) const NEMOTRON: Architecture = Architecture {
    family: Family::Nemotron,
    model_types: &["nemotron"],
    classes: &["NemotronForCausalLM"],
    source: "transformers models/nemotron (NemotronConfig, NemotronForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), plain up/down MLP (relu²), LayerNorm1P \
             with bias (2 per layer and final), head unless tied",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            gated_mlp: false,
            norm: Norm::WeightBias,
            ..llama_rules(r, false)?
        };
        dense_full(shape(r, Family::Nemotron, &Keys::STANDARD, rules)?)
    },
};

pub(super) const STARCODER2: Architecture = Architecture {
    family: Family::Starcoder2,
    model_types: &["starcoder2"],
    classes: &["Starcoder2ForCausalLM"],
    source: "transformers models/starcoder2 (Starcoder2Config, Starcoder2ForCausalLM)",
    counts: "q/k/v/o and plain c_fc/c_proj MLP with biases (use_bias, default on), \
             LayerNorms with bias, tied by default; sliding_window on every layer when set",
    defaults: &[("num_key_value_heads", 2)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let bias = flag(r, "use_bias", true)?;
        let rules = Rules {
            gated_mlp: false,
            mlp_bias: bias,
            norm: Norm::WeightBias,
            tied_default: true,
            ..Rules::LLAMA.with_attention_bias(bias)
        };
        let s = shape(r, Family::Starcoder2, &Keys::STANDARD, rules)?;
        window_everywhere(r, s)
    },
};

/// GLM (glm-4-9b-chat-hf) and GLM-4 (0414): q/k/v biases from
/// `attention_bias` (default on), bias-free o, gate and up fused.
fn glm(r: &Reader, family: Family, layer_norms: u64) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        qkv_bias: flag(r, "attention_bias", true)?,
        fused_gate_up: true,
        layer_norms,
        ..Rules::LLAMA
    };
    dense_full(shape(r, family, &Keys::STANDARD, rules)?)
}

pub(super) const GLM: Architecture = Architecture {
    family: Family::Glm,
    model_types: &["glm"],
    classes: &["GlmForCausalLM"],
    source: "transformers models/glm (GlmConfig, GlmForCausalLM)",
    counts: "q/k/v with biases (attention_bias, default on), bias-free o, fused gate_up MLP, \
             2 RMSNorms per layer, head_dim class default 128",
    defaults: &[("num_key_value_heads", 2), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| glm(r, Family::Glm, 2),
};

pub(super) const GLM4: Architecture = Architecture {
    family: Family::Glm4,
    model_types: &["glm4"],
    classes: &["Glm4ForCausalLM"],
    source: "transformers models/glm4 (Glm4Config, Glm4ForCausalLM)",
    counts: "GLM layout with 4 RMSNorms per layer (post-attention and post-MLP norms)",
    defaults: &[("num_key_value_heads", 2), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| glm(r, Family::Glm4, 4),
};

pub(super) const INTERNLM: Architecture = Architecture {
    family: Family::InternLm,
    model_types: &["internlm"],
    classes: &["InternLMForCausalLM"],
    source: "internlm/internlm-7b modeling_internlm.py (checkpoint code; vLLM maps it to \
             Llama with biases)",
    counts: "Llama layout with biases on q, k, v and o when bias (class default on)",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules::LLAMA.with_attention_bias(flag(r, "bias", true)?);
        dense_full(shape(r, Family::InternLm, &Keys::STANDARD, rules)?)
    },
};

pub(super) const INTERNLM2: Architecture = Architecture {
    family: Family::InternLm2,
    model_types: &["internlm2"],
    classes: &["InternLM2ForCausalLM"],
    source: "internlm/internlm2 modeling_internlm2.py (checkpoint code; vLLM internlm2.py)",
    counts: "fused wqkv and wo (biases with bias), gated w1/w3/w2 MLP, 2 RMSNorms per layer, \
             separate output head unless tied",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            fused_qkv: true,
            ..Rules::LLAMA.with_attention_bias(flag(r, "bias", true)?)
        };
        dense_full(shape(r, Family::InternLm2, &Keys::STANDARD, rules)?)
    },
};

/// OLMo-2 and OLMo-3 share norms after attention and MLP and full-width
/// q/k norms.
pub(super) fn olmo2_rules(r: &Reader) -> Result<Rules, ConfigError> {
    Ok(Rules {
        qk_norm: QkNorm::PerHead,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    })
}
