//! Family rules: the few places where an architecture's tensors differ from
//! what its config keys say. Everything else is read from keys.
//!
//! Sources: the Hugging Face `transformers` modeling code of each family
//! (`modeling_<model_type>.py`: which `nn.Linear` has `bias=True`, how many
//! norms a decoder layer holds, what is tied).

use serde::Serialize;

/// Architecture families with rules of their own. Anything else is read as
/// a Llama-style decoder driven only by its keys ([`Family::Generic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Llama,
    Llama4,
    Mistral,
    Mixtral,
    Qwen2,
    Qwen2Moe,
    Qwen3,
    Qwen3Moe,
    Qwen3Next,
    Gemma,
    Gemma2,
    Gemma3,
    DeepseekV2,
    DeepseekV3,
    GptOss,
    Phi3,
    Gpt2,
    Olmo2,
    NemotronH,
    Jamba,
    Mamba,
    Mamba2,
    Generic,
}

impl Family {
    /// The family of a `model_type` (the text model's, when nested) or of
    /// an architecture class name (`"Qwen3MoeForCausalLM"`): compared
    /// without case, `_` or `-`, and without the class suffix.
    pub fn of(name: &str) -> Family {
        let mut key: String = name
            .chars()
            .filter(|c| *c != '_' && *c != '-')
            .collect::<String>()
            .to_ascii_lowercase();
        for suffix in ["forcausallm", "lmheadmodel", "forconditionalgeneration"] {
            if let Some(stripped) = key.strip_suffix(suffix) {
                key = stripped.to_string();
            }
        }
        match key.as_str() {
            "llama" => Family::Llama,
            "llama4" | "llama4text" => Family::Llama4,
            "mistral" => Family::Mistral,
            "mixtral" => Family::Mixtral,
            "qwen2" | "qwen2vl" | "qwen2vltext" | "qwen25vl" | "qwen25vltext" => Family::Qwen2,
            "qwen2moe" => Family::Qwen2Moe,
            "qwen3" | "qwen3vl" | "qwen3vltext" => Family::Qwen3,
            "qwen3moe" | "qwen3vlmoe" | "qwen3vlmoetext" => Family::Qwen3Moe,
            "qwen3next" => Family::Qwen3Next,
            "gemma" => Family::Gemma,
            "gemma2" => Family::Gemma2,
            "gemma3" | "gemma3text" => Family::Gemma3,
            "deepseekv2" => Family::DeepseekV2,
            "deepseekv3" | "deepseekv32" | "kimik2" => Family::DeepseekV3,
            "gptoss" => Family::GptOss,
            "phi3" => Family::Phi3,
            "gpt2" => Family::Gpt2,
            "olmo2" => Family::Olmo2,
            "nemotronh" => Family::NemotronH,
            "jamba" => Family::Jamba,
            "mamba" | "falconmamba" => Family::Mamba,
            "mamba2" => Family::Mamba2,
            _ => Family::Generic,
        }
    }
}

impl Family {
    /// Values the family's `transformers` config class gives keys that a
    /// published `config.json` may leave out. Only Gemma-3 needs them: its
    /// multimodal checkpoints (gemma-3-4b/12b/27b) write a `text_config`
    /// with sizes and window only. Source: `Gemma3TextConfig` defaults
    /// (`vocab_size` 262,208, 8 heads, 4 KV heads, `head_dim` 256, one
    /// global layer in 6, context 131,072).
    pub(crate) fn defaults(self) -> &'static [(&'static str, u64)] {
        match self {
            Family::Gemma3 => &[
                ("vocab_size", 262_208),
                ("num_attention_heads", 8),
                ("num_key_value_heads", 4),
                ("head_dim", 256),
                ("sliding_window_pattern", 6),
                ("max_position_embeddings", 131_072),
            ],
            _ => &[],
        }
    }
}

/// How the RMS/LayerNorms on queries and keys are shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QkNorm {
    /// No learned q/k norm.
    None,
    /// One weight vector of `head_dim` for queries and one for keys, shared
    /// by all heads (Qwen3, Gemma-3).
    PerHead,
    /// One weight of the full projection width: `heads·head_dim` for
    /// queries, `kv_heads·head_dim` for keys (OLMo-2).
    FullWidth,
}

/// The structural facts that config keys do not state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    /// Biases on the q, k and v projections regardless of `attention_bias`
    /// (Qwen2 family; GPT-2).
    pub qkv_bias: bool,
    /// Bias on the output projection regardless of `attention_bias` (GPT-2).
    pub o_bias: bool,
    /// Biases on every MLP projection regardless of `mlp_bias` (GPT-2).
    pub mlp_bias: bool,
    /// Gated MLP (`gate`, `up`, `down`) rather than `up`, `down`.
    pub gated_mlp: bool,
    /// q, k, v stored as one matrix (Phi-3 `qkv_proj`, GPT-2 `c_attn`).
    pub fused_qkv: bool,
    /// gate and up stored as one matrix (Phi-3 `gate_up_proj`, gpt-oss
    /// experts `gate_up_proj`).
    pub fused_gate_up: bool,
    /// Norms are LayerNorms with a bias (GPT-2), not RMSNorms.
    pub norm_bias: bool,
    /// Hidden-size norm vectors per decoder layer.
    pub layer_norms: u64,
    pub qk_norm: QkNorm,
    /// The query projection also produces an output gate, doubling its
    /// width (Qwen3-Next).
    pub gated_query: bool,
    /// One learned attention-sink logit per head (gpt-oss).
    pub attention_sinks: bool,
    /// The router has a bias (gpt-oss).
    pub router_bias: bool,
    /// Every expert projection has a bias (gpt-oss).
    pub expert_bias: bool,
    /// The shared expert's output is scaled by a learned gate `H → 1`
    /// (Qwen2-MoE, Qwen3-Next).
    pub shared_expert_gate: bool,
    /// Router holds an `e_score_correction_bias` of one value per expert
    /// when the config does not say (`topk_method` absent).
    pub score_bias_default: bool,
    /// Learned absolute position embeddings (GPT-2 `wpe`).
    pub learned_positions: bool,
    /// Whether input and output embeddings are tied when
    /// `tie_word_embeddings` is absent.
    pub tied_default: bool,
    /// Published "active" counts leave out the input embedding (gpt-oss
    /// model card: "active parameters ... excluding embeddings", unembedding
    /// included).
    pub active_excludes_embedding: bool,
    /// A layer that is not an attention layer holds only its mixer and one
    /// norm (Nemotron-H blocks, Mamba).
    pub single_norm_blocks: bool,
}

impl Rules {
    /// The Llama layout: bias-free RMSNorm decoder, gated MLP, two norms
    /// per layer, untied unless the config says so.
    const LLAMA: Rules = Rules {
        qkv_bias: false,
        o_bias: false,
        mlp_bias: false,
        gated_mlp: true,
        fused_qkv: false,
        fused_gate_up: false,
        norm_bias: false,
        layer_norms: 2,
        qk_norm: QkNorm::None,
        gated_query: false,
        attention_sinks: false,
        router_bias: false,
        expert_bias: false,
        shared_expert_gate: false,
        score_bias_default: false,
        learned_positions: false,
        tied_default: false,
        active_excludes_embedding: false,
        single_norm_blocks: false,
    };

    /// The rules of a family.
    pub(crate) fn of(family: Family) -> Rules {
        let base = Rules::LLAMA;
        match family {
            Family::Qwen2 => Rules {
                qkv_bias: true,
                ..base
            },
            Family::Qwen2Moe => Rules {
                qkv_bias: true,
                shared_expert_gate: true,
                ..base
            },
            Family::Qwen3 | Family::Qwen3Moe => Rules {
                qk_norm: QkNorm::PerHead,
                ..base
            },
            Family::Qwen3Next => Rules {
                qk_norm: QkNorm::PerHead,
                gated_query: true,
                shared_expert_gate: true,
                ..base
            },
            Family::Gemma => Rules {
                tied_default: true,
                ..base
            },
            Family::Gemma2 => Rules {
                tied_default: true,
                layer_norms: 4,
                ..base
            },
            Family::Gemma3 => Rules {
                tied_default: true,
                layer_norms: 4,
                qk_norm: QkNorm::PerHead,
                ..base
            },
            Family::DeepseekV3 => Rules {
                score_bias_default: true,
                ..base
            },
            Family::GptOss => Rules {
                attention_sinks: true,
                router_bias: true,
                expert_bias: true,
                fused_gate_up: true,
                active_excludes_embedding: true,
                ..base
            },
            Family::Phi3 => Rules {
                fused_qkv: true,
                fused_gate_up: true,
                ..base
            },
            Family::Gpt2 => Rules {
                qkv_bias: true,
                o_bias: true,
                mlp_bias: true,
                gated_mlp: false,
                fused_qkv: true,
                norm_bias: true,
                learned_positions: true,
                tied_default: true,
                ..base
            },
            Family::Olmo2 => Rules {
                qk_norm: QkNorm::FullWidth,
                ..base
            },
            Family::NemotronH => Rules {
                gated_mlp: false,
                score_bias_default: true,
                single_norm_blocks: true,
                layer_norms: 1,
                ..base
            },
            Family::Mamba | Family::Mamba2 => Rules {
                single_norm_blocks: true,
                layer_norms: 1,
                tied_default: true,
                ..base
            },
            Family::Llama
            | Family::Llama4
            | Family::Mistral
            | Family::Mixtral
            | Family::DeepseekV2
            | Family::Jamba
            | Family::Generic => base,
        }
    }
}
