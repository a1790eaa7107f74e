//! The symbols the lesson's formulas are written in. A symbol is written
//! the same in every language ([`Symbol::sign`]); what it means is each
//! language's (`LessonTexts::symbol`, a `match` on every variant, so a new
//! symbol does not compile until every language defines it).
//!
//! Each term of a result has a short name too ([`term_sign`]), used where
//! one term's formula is built from others (a margin on the subtotal).

use vramfit_core::term::Term;

/// A quantity a formula is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// `P`: the model's parameters.
    Params,
    /// `b_w`: bits per weight.
    WeightBits,
    /// `L`: layers.
    Layers,
    /// `H_kv`: key/value heads.
    KvHeads,
    /// `d`: head dimension.
    HeadDim,
    /// `S`: context tokens per sequence.
    Context,
    /// `B`: sequences at once.
    Sequences,
    /// `b_kv`: bytes per cached value.
    KvBytes,
    /// `o`: overhead percentage (quick).
    OverheadPct,
    /// `R`: runtime reserve in GiB (lesson).
    RuntimeGib,
    /// `A`: activation reserve in GiB (lesson).
    ActivationGib,
    /// `R_GB`: runtime reserve per GPU in GB (range).
    RuntimeGb,
    /// `O_GB`: memory outside the allocator in GB (allocator).
    OverheadGb,
    /// `m`: margin percentage.
    MarginPct,
    /// `E`: embedding and output-head parameters.
    EmbedParams,
    /// `n`: GPUs the model is split over (range).
    Gpus,
    /// `v_ℓ`: values one layer caches per token.
    LayerWidth,
    /// `S_w`: a sliding window, in tokens.
    Window,
    /// `W_ckpt`: the checkpoint's own bytes.
    CheckpointBytes,
    /// `A_p`: adapter parameters.
    AdapterParams,
    /// `r`: LoRA rank.
    LoraRank,
    /// `H`: hidden size.
    Hidden,
    /// `V`: vocabulary.
    Vocab,
    /// `N`: tokens in one step, `S × B`.
    Tokens,
    /// `U`: parameters kept unquantized (planner).
    Unquantized,
    /// `U32`: the part of `U` kept in FP32.
    Fp32Params,
    /// `meta`: quantization metadata percentage.
    Metadata,
    /// `TP`: tensor-parallel degree.
    Tp,
    /// `PP`: pipeline-parallel degree.
    Pp,
    /// `L_st`: layers of the largest pipeline stage.
    StageLayers,
    /// `G_est`: the CUDA-graph memory vLLM estimates and sets aside before
    /// the KV cache (0.20 on).
    GraphEstimate,
    /// `H_loc`: key/value heads on one GPU.
    LocalKvHeads,
    /// `N_res`: tokens resident in one layer's cache.
    Resident,
    /// `blk`: tokens per cache block.
    Block,
    /// `p`: shared prefix tokens.
    Prefix,
    /// `n_kv`: sequences whose cache is kept.
    KeptSequences,
    /// `K`: activation factor (planner).
    ActivationK,
    /// `N_act`: tokens whose activations are budgeted.
    ActivationTokens,
    /// `B_act`: sequences decoding at once in a replica.
    Active,
    /// `N_pre`: the prefill budget, tokens per step.
    PrefillBudget,
    /// `W_body`: the quantized body's bytes (all layers, before TP and PP).
    BodyBytes,
    /// `W_U`: the published bytes of the embeddings and the output head.
    PublishedEmbedBytes,
    /// `EC`: the serving engine's own context on each GPU.
    EngineContextBytes,
    /// `Q`: query heads.
    QueryHeads,
    /// `g`: bytes per gradient.
    GradientBytes,
    /// `T_p`: trained parameters on this GPU.
    Trainable,
    /// `off`: weights offloaded to host RAM.
    Offload,
    /// `I`: MLP intermediate size.
    Intermediate,
    /// `k`: key (= value) width, `H_kv × d`.
    KvWidth,
    /// `q`: query width, `Q × d`.
    QueryWidth,
    /// `w`: bytes of a stored base weight (allocator).
    WeightWidth,
    /// `a`: bytes of an activation (allocator).
    ActWidth,
    /// `s`: bytes of the residual stream (allocator).
    StreamWidth,
    /// `t`: bytes of a trained parameter and its gradient (allocator).
    TrainWidth,
    /// `k_opt`: optimizer states per parameter.
    OptimizerStates,
    /// `λ`: bytes one layer keeps per token for the backward pass.
    LayerSaved,
    /// `φ`: bytes the final norm and head keep per token.
    FinalSaved,
    /// `χ`: bytes the logits chain holds per token at the peak.
    LogitBytes,
    /// `ν₀`: bytes the first layer's first norm would keep per token.
    FirstNorm,
    /// `P_ℓ`: one layer's linear parameters.
    LayerParams,
    /// `ws`: the cuBLAS workspace.
    Workspace,
    /// `P_c`: weights autocast copies to 16 bits.
    CastParams,
    /// `W_emb`: vLLM's embedding and output head as loaded.
    EmbeddingBytes,
    /// `W_att`: attention projections as loaded.
    AttentionBytes,
    /// `W_mlp`: dense MLPs (and shared experts) as loaded.
    MlpBytes,
    /// `W_exp`: routed experts and routers as loaded.
    ExpertBytes,
    /// `W_small`: norms, biases and other small tensors.
    SmallBytes,
    /// `W_rope`: rotary cos/sin tables.
    RopeBytes,
    /// `W_vis`: vision tower and projector.
    VisionBytes,
    /// `W_gemm`: the GEMM libraries' workspaces.
    GemmWorkspace,
    /// `W_moe`: the fused-MoE workspace.
    MoeWorkspace,
    /// `M_mm`: dummy images and their encoder outputs.
    MultimodalBytes,
    /// `B_pp`: pipeline receive buffers.
    PipelineBuffers,
    /// `E_enc`: the vision encoder's largest transient.
    EncoderPeak,
    /// `F_fwd`: the decoder forward's largest transient.
    ForwardPeak,
    /// `S_smp`: the sampler's transient.
    SamplerPeak,
    /// `last`: 1 on the last pipeline stage (it samples), else 0.
    LastStage,
    /// `M_total`: the GPU's total memory as CUDA reports it.
    GpuTotal,
    /// `u`: vLLM's `--gpu-memory-utilization`.
    Utilization,
    /// `blck`: values per block of a ggml type.
    BlockValues,
    /// `size`: bytes per block of a ggml type.
    BlockBytes,
    /// `n_ctx`: KV cells per stream.
    Cells,
    /// `streams`: KV streams (1 when unified).
    Streams,
    /// `B_t`: bytes of the file's tensors of one ggml type.
    TypeBytes,
    /// `s`: sequences (slots).
    Slots,
    /// `T`: tokens per graph evaluation (`n_ubatch`).
    Ubatch,
    /// `kv_req`.
    RequestKv,
    /// `L_gpu`.
    GpuLayers,
    /// `W_host`.
    HostWeights,
    /// `E_dup`.
    TiedCopy,
    /// `KV_host`.
    HostKv,
    /// `CB_host`.
    HostCompute,
    /// `I`.
    MaskBytes,
    /// `A`.
    AttentionPhase,
    /// `F`.
    FfnPhase,
    /// `O`.
    OutputPhase,
    /// `S_w`.
    StagedWeight,
}

impl Symbol {
    /// How the symbol is written, in every language.
    pub const fn sign(self) -> &'static str {
        match self {
            Symbol::Params => "P",
            Symbol::WeightBits => "b_w",
            Symbol::Layers => "L",
            Symbol::KvHeads => "H_kv",
            Symbol::HeadDim => "d",
            Symbol::Context => "S",
            Symbol::Sequences => "B",
            Symbol::KvBytes => "b_kv",
            Symbol::OverheadPct => "o",
            Symbol::RuntimeGib => "R",
            Symbol::ActivationGib => "A",
            Symbol::RuntimeGb => "R_GB",
            Symbol::OverheadGb => "O_GB",
            Symbol::MarginPct => "m",
            Symbol::EmbedParams => "E",
            Symbol::Gpus => "n",
            Symbol::LayerWidth => "v_ℓ",
            Symbol::Window => "S_w",
            Symbol::CheckpointBytes => "W_ckpt",
            Symbol::AdapterParams => "A_p",
            Symbol::LoraRank => "r",
            Symbol::Hidden => "H",
            Symbol::Vocab => "V",
            Symbol::Tokens => "N",
            Symbol::Unquantized => "U",
            Symbol::Fp32Params => "U32",
            Symbol::Metadata => "meta",
            Symbol::Tp => "TP",
            Symbol::Pp => "PP",
            Symbol::StageLayers => "L_st",
            Symbol::GraphEstimate => "G_est",
            Symbol::LocalKvHeads => "H_loc",
            Symbol::Resident => "N_res",
            Symbol::Block => "blk",
            Symbol::Prefix => "p",
            Symbol::KeptSequences => "n_kv",
            Symbol::ActivationK => "K",
            Symbol::ActivationTokens => "N_act",
            Symbol::Active => "B_act",
            Symbol::PrefillBudget => "N_pre",
            Symbol::BodyBytes => "W_body",
            Symbol::PublishedEmbedBytes => "W_U",
            Symbol::EngineContextBytes => "EC",
            Symbol::QueryHeads => "Q",
            Symbol::GradientBytes => "g",
            Symbol::Trainable => "T_p",
            Symbol::Offload => "off",
            Symbol::Intermediate => "I",
            Symbol::KvWidth => "k",
            Symbol::QueryWidth => "q",
            Symbol::WeightWidth => "w",
            Symbol::ActWidth => "a",
            Symbol::StreamWidth => "s",
            Symbol::TrainWidth => "t",
            Symbol::OptimizerStates => "k_opt",
            Symbol::LayerSaved => "λ",
            Symbol::FinalSaved => "φ",
            Symbol::LogitBytes => "χ",
            Symbol::FirstNorm => "ν₀",
            Symbol::LayerParams => "P_ℓ",
            Symbol::Workspace => "ws",
            Symbol::CastParams => "P_c",
            Symbol::EmbeddingBytes => "W_emb",
            Symbol::AttentionBytes => "W_att",
            Symbol::MlpBytes => "W_mlp",
            Symbol::ExpertBytes => "W_exp",
            Symbol::SmallBytes => "W_small",
            Symbol::RopeBytes => "W_rope",
            Symbol::VisionBytes => "W_vis",
            Symbol::GemmWorkspace => "W_gemm",
            Symbol::MoeWorkspace => "W_moe",
            Symbol::MultimodalBytes => "M_mm",
            Symbol::PipelineBuffers => "B_pp",
            Symbol::EncoderPeak => "E_enc",
            Symbol::ForwardPeak => "F_fwd",
            Symbol::SamplerPeak => "S_smp",
            Symbol::LastStage => "last",
            Symbol::GpuTotal => "M_total",
            Symbol::Utilization => "u",
            Symbol::BlockValues => "blck",
            Symbol::BlockBytes => "size",
            Symbol::Cells => "n_ctx",
            Symbol::Streams => "streams",
            Symbol::TypeBytes => "B_t",
            Symbol::Slots => "s",
            Symbol::Ubatch => "T",
            Symbol::RequestKv => "kv_req",
            Symbol::GpuLayers => "L_gpu",
            Symbol::HostWeights => "W_host",
            Symbol::TiedCopy => "E_dup",
            Symbol::HostKv => "KV_host",
            Symbol::HostCompute => "CB_host",
            Symbol::MaskBytes => "I",
            Symbol::AttentionPhase => "A",
            Symbol::FfnPhase => "F",
            Symbol::OutputPhase => "O",
            Symbol::StagedWeight => "S_w",
        }
    }
}

/// A term's short name in formulas built from other terms.
pub const fn term_sign(term: Term) -> &'static str {
    match term {
        Term::Weights => "W",
        Term::KvCache => "KV",
        Term::Overhead => "O",
        Term::TrainingStates => "TS",
        Term::Runtime => "RT",
        Term::Activation => "AR",
        Term::Margin => "M",
        Term::Gradients => "G",
        Term::Optimizer => "OS",
        Term::Activations => "Act",
        Term::AutocastCache => "AC",
        Term::StepWorkspace => "SW",
        Term::ModelStates => "MS",
        Term::Adapters => "Ad",
        Term::Logits => "Lg",
        Term::AttentionScores => "Sc",
        Term::MasterWeights => "MW",
        Term::Communication => "Cm",
        Term::OffloadStaging => "St",
        Term::EngineContext => "EC",
        Term::ActivationPeak => "AP",
        Term::NonTorch => "NT",
        Term::CudaGraphs => "CG",
        Term::KCache => "K",
        Term::VCache => "V",
        Term::ComputeBuffer => "CB",
        Term::OutputBuffer => "OB",
        Term::HostPart => "H",
    }
}
