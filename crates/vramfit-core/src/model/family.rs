//! Families and their structural rules: which tensors a decoder layer holds
//! beyond what the sizes in `config.json` say.
//!
//! Every family is read by its own reader in [`super::arch`], which follows
//! the Hugging Face `transformers` code of that model type
//! (`configuration_<model_type>.py` for defaults, `modeling_<model_type>.py`
//! for the tensors: which `nn.Linear` has `bias=True`, how many norms a
//! decoder layer holds, what is tied).

use serde::Serialize;

/// The architecture a config was read as: one variant per reader. A model
/// type no reader knows is refused, or, through
/// [`parse_config_approximate`](super::parse_config_approximate) only, read
/// as [`Family::Generic`] with its assumptions listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Llama,
    Llama4,
    Mistral,
    Mixtral,
    Qwen,
    Qwen2,
    Qwen2Moe,
    Qwen3,
    Qwen3Moe,
    Qwen3Next,
    Qwen35,
    Qwen35Moe,
    Gemma,
    Gemma2,
    Gemma3,
    Gemma3n,
    DeepseekV2,
    DeepseekV3,
    DeepseekV32,
    DeepseekMoe,
    GlmMoeDsa,
    GptOss,
    Phi,
    Phi3,
    PhiMoe,
    Gpt2,
    GptBigCode,
    GptJ,
    GptNeo,
    GptNeox,
    CodeGen,
    Opt,
    Bloom,
    Falcon,
    FalconH1,
    ChatGlm,
    Glm,
    Glm4,
    Glm4Moe,
    InternLm,
    InternLm2,
    StableLm,
    Starcoder2,
    Olmo,
    Olmo2,
    Olmo3,
    Olmoe,
    Cohere,
    Cohere2,
    Dbrx,
    Orion,
    Rwkv5,
    Granite,
    GraniteMoe,
    GraniteMoeShared,
    GraniteMoeHybrid,
    SmolLm3,
    Lfm2,
    MiniMax,
    MiniMaxM2,
    Nemotron,
    NemotronH,
    DeciLm,
    Jamba,
    Mamba,
    Mamba2,
    Helium,
    Ministral,
    SeedOss,
    Ernie45,
    Exaone4,
    Hunyuan,
    Arcee,
    Apertus,
    DeepseekV4,
    Gemma4,
    MiMo,
    MiMoV2,
    Step3p7,
    MiniMaxM3,
    KimiLinear,
    Laguna,
    /// A model type no reader knows, read as a Llama-style decoder by the
    /// approximate path only.
    Generic,
}

impl Family {
    /// The family that reads a `model_type` (or an architecture class name
    /// such as `"Qwen3MoeForCausalLM"`), [`Family::Generic`] when none does.
    pub fn of(name: &str) -> Family {
        super::arch::find(name)
            .map(|a| a.family)
            .unwrap_or(Family::Generic)
    }
}

/// How a norm is parameterized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Norm {
    /// A weight vector (RMSNorm; LayerNorm without bias).
    Weight,
    /// A weight and a bias vector (LayerNorm).
    WeightBias,
    /// No learned parameters (OLMo's non-parametric LayerNorm).
    None,
}

impl Norm {
    /// Learned vectors per norm.
    pub(crate) const fn vectors(self) -> u64 {
        match self {
            Norm::Weight => 1,
            Norm::WeightBias => 2,
            Norm::None => 0,
        }
    }
}

/// How the norms on queries and keys are shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QkNorm {
    /// No learned q/k norm.
    None,
    /// One norm of `head_dim` for queries and one for keys, shared by all
    /// heads (Qwen3, Gemma-3; Phi-2's LayerNorm with bias).
    Shared(Norm),
    /// A weight per head: `heads·head_dim` for queries, `kv_heads·head_dim`
    /// for keys (OLMo-2's full-width RMSNorm, Cohere's per-head LayerNorm,
    /// StableLM's per-head LayerNorms).
    PerHead,
}

/// What a family's published "active" parameter count (parameters used per
/// token) leaves out, as its own cards and reports count it. The reader's
/// [`ModelSpec::params_active`](super::ModelSpec::params_active) follows it,
/// so that it can be compared with the published figure; the convention is
/// reported with it ([`ModelSpec::active_count`](super::ModelSpec::active_count)).
///
/// # Formula
///
/// ```text
/// active = total − (E − k)·expert                       AllParameters
///        − input embedding                              WithoutInputEmbedding
///        − input embedding − output head − buffers      WithoutEmbeddings
/// ```
///
/// with `E` routed experts per layer of which `k` run per token, and
/// buffers the stored non-parameter tensors (MiniMax's decay tables).
/// Sources, per family: gpt-oss model card ("active parameters" exclude
/// the embedding, the unembedding counted); DeepSeek-V2 report (V2-Lite:
/// "2.4B activated", 2.45 B without the input embedding, 2.66 B with); the
/// MiniMax-01 report ("456B total, 45.9B activated": 45.94 B of layer
/// parameters, neither embedding nor head nor the lightning layers'
/// decay buffers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActiveCount {
    /// Every parameter a token's forward pass uses, the input embedding
    /// included (Qwen, Gemma, Llama 4, Mixtral, NVIDIA's Nemotron).
    AllParameters,
    /// Without the input embedding, a lookup of one row per token
    /// (gpt-oss, DeepSeek-V2/V3/V4).
    WithoutInputEmbedding,
    /// Without the input embedding, the output head and stored buffers:
    /// the decoder layers' parameters only (MiniMax).
    WithoutEmbeddings,
}

/// The structural facts that config sizes do not state, resolved for one
/// config (some follow its flags: `attention_bias`, `bias`, ...).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    /// Biases on the q, k and v projections.
    pub qkv_bias: bool,
    /// Bias on the output projection.
    pub o_bias: bool,
    /// q, k, v stored as one matrix (`qkv_proj`, `c_attn`,
    /// `query_key_value`, `Wqkv`).
    pub fused_qkv: bool,
    pub qk_norm: QkNorm,
    /// The query projection also produces an output gate, doubling its
    /// width (Qwen3-Next, Qwen3.5).
    pub gated_query: bool,
    /// One learned attention-sink logit per head (gpt-oss).
    pub attention_sinks: bool,
    /// Gated MLP (`gate`, `up`, `down`) rather than `up`, `down`.
    pub gated_mlp: bool,
    /// gate and up stored as one matrix (Phi-3 `gate_up_proj`).
    pub fused_gate_up: bool,
    /// Biases on every dense-MLP projection.
    pub mlp_bias: bool,
    /// How every hidden-size norm is parameterized.
    pub norm: Norm,
    /// Hidden-size norms per decoder layer.
    pub layer_norms: u64,
    /// A final norm after the last layer.
    pub final_norm: bool,
    /// A norm right after the token embedding (BLOOM).
    pub embedding_norm: bool,
    /// The output head has a bias (GPT-J, Phi-1/2).
    pub lm_head_bias: bool,
    /// Whether input and output embeddings are tied when
    /// `tie_word_embeddings` is absent (the config class's default).
    pub tied_default: bool,
    /// The router has a bias (gpt-oss).
    pub router_bias: bool,
    /// Every expert projection has a bias (gpt-oss).
    pub expert_bias: bool,
    /// The shared expert's output is scaled by a learned gate `H → 1`
    /// (Qwen2-MoE, Qwen3-Next).
    pub shared_expert_gate: bool,
    /// What the family's published "active" counts leave out.
    pub active: ActiveCount,
    /// A layer that is not an attention layer holds only its mixer and one
    /// norm (Nemotron-H blocks, Mamba).
    pub single_norm_blocks: bool,
    /// One norm before each part a layer has, none for a skipped part
    /// (Nemotron-NAS `no_op` attention or MLP).
    pub norm_per_part: bool,
    /// Every attention layer also runs the model's recurrent mixer beside
    /// it (Falcon-H1).
    pub parallel_mixer: bool,
    /// Learned scalars of each dense MLP's activation (Apertus' xIELU:
    /// `alpha_p`, `alpha_n` and the stored `beta`, `eps`).
    pub mlp_act_scalars: u64,
    /// The cache keeps one tensor per token that serves as keys and values
    /// (DeepSeek-V4's shared-KV attention).
    pub keys_are_values: bool,
    /// Expert layers also hold the dense MLP, run beside the experts
    /// (Gemma-4's MoE blocks).
    pub dense_beside_moe: bool,
    /// The router normalizes its input with a learned scale `H` and scales
    /// each expert's weight (`E`) (Gemma-4 `Gemma4TextRouter`).
    pub router_scales: bool,
    /// Hidden-size norms an expert layer holds beyond `layer_norms`
    /// (Gemma-4: 3).
    pub moe_norms: u64,
    /// A stored scalar per layer (Gemma-4's `layer_scalar` buffer).
    pub layer_scalar: bool,
    /// A head-wise output gate `g_proj: H_q×H`, one sigmoid per query
    /// head (Step-3.5 `use_head_wise_attn_gate`).
    pub head_gate: bool,
}

impl Rules {
    /// The Llama layout: bias-free RMSNorm decoder, gated MLP, two norms
    /// per layer and a final one, untied unless the config says so.
    pub(crate) const LLAMA: Rules = Rules {
        qkv_bias: false,
        o_bias: false,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        gated_query: false,
        attention_sinks: false,
        gated_mlp: true,
        fused_gate_up: false,
        mlp_bias: false,
        norm: Norm::Weight,
        layer_norms: 2,
        final_norm: true,
        embedding_norm: false,
        lm_head_bias: false,
        tied_default: false,
        router_bias: false,
        expert_bias: false,
        shared_expert_gate: false,
        active: ActiveCount::AllParameters,
        single_norm_blocks: false,
        norm_per_part: false,
        parallel_mixer: false,
        mlp_act_scalars: 0,
        keys_are_values: false,
        dense_beside_moe: false,
        router_scales: false,
        moe_norms: 0,
        layer_scalar: false,
        head_gate: false,
    };

    /// The GPT-2 layout: LayerNorms with bias, biases on every projection,
    /// a plain (ungated) MLP, learned positions, tied head.
    pub(crate) const GPT2: Rules = Rules {
        qkv_bias: true,
        o_bias: true,
        fused_qkv: true,
        gated_mlp: false,
        mlp_bias: true,
        norm: Norm::WeightBias,
        tied_default: true,
        ..Rules::LLAMA
    };

    /// Biases on q, k, v and o.
    pub(crate) const fn with_attention_bias(self, on: bool) -> Rules {
        Rules {
            qkv_bias: on,
            o_bias: on,
            ..self
        }
    }
}
