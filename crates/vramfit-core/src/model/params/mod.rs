//! Parameter counting from the shapes of the tensors a config implies.
//!
//! Every tensor is listed once, with the group the estimation methods
//! need, its shape `rows × cols` (output × input features for a
//! projection) and how many copies exist (experts). Counts follow the
//! Hugging Face module layout of each family (`transformers`
//! `modeling_<model_type>.py`), which is what published exact counts
//! (KerasHub presets, model cards) count: tied embeddings once, buffers
//! (rotary tables, causal masks) not at all.

mod compressed;
mod layer;
mod recurrent;

use super::layers::Plan;
use super::mixer::{mul, LinearMixer};
use super::moe::MoeSpec;
use super::shape::Shape;
use serde::Serialize;

/// Parameters (or bytes) split into the groups the memory methods need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ParamGroups {
    /// Input token embedding, plus learned position embeddings (GPT-2).
    pub embedding: u64,
    /// Output projection; 0 when tied to the input embedding.
    pub lm_head: u64,
    /// Token mixers: attention projections (with their biases and sinks),
    /// or linear-attention / Mamba projections, convolutions and scalars.
    pub attention: u64,
    /// Dense MLPs.
    pub dense_mlp: u64,
    /// All routed experts of all MoE layers (with their biases).
    pub routed_experts: u64,
    /// Shared experts and other always-active MoE projections.
    pub shared_experts: u64,
    /// Expert routers (weights and biases).
    pub router: u64,
    /// Norm weights (and LayerNorm biases), q/k norms included.
    pub norms: u64,
}

impl ParamGroups {
    /// Sum of all groups.
    pub fn total(&self) -> u64 {
        crate::units::sum([
            self.embedding,
            self.lm_head,
            self.attention,
            self.dense_mlp,
            self.routed_experts,
            self.shared_experts,
            self.router,
            self.norms,
        ])
    }

    pub(crate) fn get_mut(&mut self, group: Group) -> &mut u64 {
        match group {
            Group::Embedding => &mut self.embedding,
            Group::LmHead => &mut self.lm_head,
            Group::Attention => &mut self.attention,
            Group::DenseMlp => &mut self.dense_mlp,
            Group::RoutedExperts => &mut self.routed_experts,
            Group::SharedExperts => &mut self.shared_experts,
            Group::Router => &mut self.router,
            Group::Norms => &mut self.norms,
        }
    }

    pub(crate) fn add(&mut self, group: Group, value: u64) {
        let slot = self.get_mut(group);
        *slot = slot.saturating_add(value);
    }
}

/// The group a tensor belongs to (one field of [`ParamGroups`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Group {
    Embedding,
    LmHead,
    Attention,
    DenseMlp,
    RoutedExperts,
    SharedExperts,
    Router,
    Norms,
}

/// One tensor (or `copies` identical ones).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tensor {
    pub group: Group,
    /// Decoder layer, `None` for model-wide tensors.
    pub layer: Option<u64>,
    /// Module path inside the layer (or model), Llama-style names.
    pub module: &'static str,
    pub rows: u64,
    pub cols: u64,
    pub copies: u64,
    /// A projection weight (`nn.Linear`), which a quantizer may convert.
    pub projection: bool,
}

impl Tensor {
    /// Values in one copy: `rows × cols`.
    pub fn per_copy(&self) -> u64 {
        mul(&[self.rows, self.cols])
    }

    /// Values in all copies: `rows × cols × copies`.
    pub fn params(&self) -> u64 {
        mul(&[self.rows, self.cols, self.copies])
    }

    /// A stored buffer rather than a learned parameter: MiniMax's
    /// lightning-attention decay tables (`slope_rate`, `query_decay`,
    /// `key_decay`, `diagonal_decay`), which a checkpoint saved by
    /// transformers stores beside the weights.
    pub fn is_buffer(&self) -> bool {
        BUFFERS.contains(&self.module)
    }

    /// The module's full path (`model.layers.3.self_attn.q_proj`), as
    /// matched against `modules_to_not_convert`.
    pub fn path(&self) -> String {
        match self.layer {
            Some(i) => format!("model.layers.{i}.{}", self.module),
            None => self.module.to_string(),
        }
    }
}

/// Modules that are buffers ([`Tensor::is_buffer`]).
const BUFFERS: [&str; 4] = [
    "self_attn.slope_rate",
    "self_attn.query_decay",
    "self_attn.key_decay",
    "self_attn.diagonal_decay",
];

/// What [`count`] finds besides the groups.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counted {
    /// Routed-expert parameters a token does not visit.
    pub unrouted: u64,
    /// Stored buffers ([`Tensor::is_buffer`]).
    pub buffers: u64,
}

/// Everything the enumeration reads.
pub(crate) struct Arch<'a> {
    pub shape: &'a Shape,
    pub moe: Option<&'a MoeSpec>,
    pub mixer: Option<LinearMixer>,
}

/// Receives tensors for one layer (or the model-wide ones).
pub(super) struct Sink<'f> {
    f: &'f mut dyn FnMut(&Tensor),
    layer: Option<u64>,
}

impl Sink<'_> {
    pub(super) fn emit(
        &mut self,
        group: Group,
        module: &'static str,
        rows: u64,
        cols: u64,
        copies: u64,
        projection: bool,
    ) {
        if rows == 0 || cols == 0 || copies == 0 {
            return;
        }
        (self.f)(&Tensor {
            group,
            layer: self.layer,
            module,
            rows,
            cols,
            copies,
            projection,
        });
    }

    /// A projection `in → out` (`out × in` weight).
    pub(super) fn linear(&mut self, group: Group, module: &'static str, out: u64, input: u64) {
        self.emit(group, module, out, input, 1, true);
    }

    /// A vector of `len` values (norm weight, bias, per-head scalars).
    pub(super) fn vector(&mut self, group: Group, module: &'static str, len: u64) {
        self.emit(group, module, 1, len, 1, false);
    }

    pub(super) fn bias(&mut self, on: bool, group: Group, module: &'static str, len: u64) {
        if on {
            self.vector(group, module, len);
        }
    }
}

/// Lists every tensor of the model (MTP layers excluded).
pub(crate) fn for_each_tensor(arch: &Arch, plan: &Plan, f: &mut dyn FnMut(&Tensor)) {
    let mut sink = Sink { f, layer: None };
    model_wide(arch, &mut sink);
    for (i, ((attention, ffn), shape)) in plan
        .attention
        .iter()
        .zip(&plan.ffn)
        .zip(&plan.layers)
        .enumerate()
    {
        sink.layer = Some(i as u64);
        layer::layer(arch, *attention, *ffn, shape, &mut sink);
    }
}

/// Embeddings, final norm and output head:
///
/// ```text
/// V·E (+ P·H learned positions) (+ embedding norm) (+ E×H in, H×E out
/// when E ≠ H) + final norm + V·E (+ V bias) unless tied
/// ```
///
/// with `E` the embedding width (the hidden size but in OPT-350m).
fn model_wide(arch: &Arch, sink: &mut Sink) {
    let s = arch.shape;
    let r = s.rules;
    let e = s.embed_width;
    sink.emit(Group::Embedding, "model.embed_tokens", s.vocab, e, 1, false);
    sink.emit(
        Group::Embedding,
        "model.embed_positions",
        s.positions,
        s.hidden,
        1,
        false,
    );
    if r.embedding_norm {
        norm(arch, sink, "model.embed_layernorm");
    }
    if let Some(g) = s.gemma3n {
        // Gemma-3n: per-layer embeddings V_p × (L·p), their projection
        // (L·p)×H and norm p, and AltUp's (A − 1) projections in and out.
        let per_layer = mul(&[s.layers, g.per_layer_hidden]);
        sink.emit(
            Group::Embedding,
            "model.embed_tokens_per_layer",
            g.per_layer_vocab,
            per_layer,
            1,
            false,
        );
        sink.linear(
            Group::Embedding,
            "model.per_layer_model_projection",
            per_layer,
            s.hidden,
        );
        sink.vector(
            Group::Norms,
            "model.per_layer_projection_norm",
            g.per_layer_hidden,
        );
        let streams = g.altup.saturating_sub(1);
        sink.emit(
            Group::Embedding,
            "model.altup_projections",
            s.hidden,
            s.hidden,
            streams,
            true,
        );
        sink.emit(
            Group::LmHead,
            "model.altup_unembed_projections",
            s.hidden,
            s.hidden,
            streams,
            true,
        );
    }
    if let Some((width, vocab)) = s.per_layer_input {
        // Gemma-4's per-layer inputs: embeddings V_p × L·p, their
        // projection L·p × H and norm p.
        let per_layer = mul(&[s.layers, width]);
        sink.emit(
            Group::Embedding,
            "model.embed_tokens_per_layer",
            vocab,
            per_layer,
            1,
            false,
        );
        sink.linear(
            Group::Embedding,
            "model.per_layer_model_projection",
            per_layer,
            s.hidden,
        );
        sink.vector(Group::Norms, "model.per_layer_projection_norm", width);
    }
    compressed::hyper_head(arch, sink);
    if e != s.hidden {
        sink.linear(Group::Embedding, "model.project_in", s.hidden, e);
        sink.linear(Group::LmHead, "model.project_out", e, s.hidden);
    }
    if r.final_norm {
        norm(arch, sink, "model.norm");
    }
    if s.kimi_k3.is_some_and(|k| k.attn_residuals) {
        // Kimi-K3's output-side attention residual: an RMSNorm of H and a
        // 1×H score projection (unquantized), SGLang `KimiK3LinearModel`.
        sink.vector(Group::Norms, "model.output_attn_res_norm", s.hidden);
        sink.emit(
            Group::Attention,
            "model.output_attn_res_proj",
            1,
            s.hidden,
            1,
            false,
        );
    }
    if !s.tied {
        sink.linear(Group::LmHead, "lm_head", s.vocab, e);
    }
    sink.bias(r.lm_head_bias, Group::LmHead, "lm_head.bias", s.vocab);
}

/// One hidden-size norm: `H` weights, and `H` biases for a LayerNorm.
pub(super) fn norm(arch: &Arch, sink: &mut Sink, module: &'static str) {
    let s = arch.shape;
    for _ in 0..s.rules.norm.vectors() {
        sink.vector(Group::Norms, module, s.hidden);
    }
}

/// Parameters by group, the routed-expert parameters a token does not use
/// (`(E − k) × per-expert parameters`, summed over MoE layers) and the
/// stored buffers.
pub(crate) fn count(arch: &Arch, plan: &Plan) -> (ParamGroups, Counted) {
    let mut groups = ParamGroups::default();
    let mut counted = Counted::default();
    let idle = arch
        .moe
        .map(|m| m.routed_experts.saturating_sub(m.experts_per_token))
        .unwrap_or(0);
    for_each_tensor(arch, plan, &mut |t| {
        groups.add(t.group, t.params());
        if t.group == Group::RoutedExperts {
            let idle_params = t.per_copy().saturating_mul(idle);
            counted.unrouted = counted.unrouted.saturating_add(idle_params);
        }
        if t.is_buffer() {
            counted.buffers = counted.buffers.saturating_add(t.params());
        }
    });
    (groups, counted)
}

/// Parameters a Gemma-4 checkpoint stores for its KV-sharing layers that
/// the loaded model drops: each such layer's own `k_proj` (`n_kv·d × H`),
/// `v_proj` (`n_kv·d_v × H`, none where keys double as values) and
/// `k_norm` (`d`), with the layer's attention type's heads and widths.
/// Source: transformers `modeling_gemma4.py` (`Gemma4TextModel` adds them
/// to `_keys_to_ignore_on_load_unexpected`); Google's E2B and E4B files
/// hold them (the Hub's counts include them).
pub(crate) fn stored_unloaded(arch: &Arch, plan: &Plan) -> u64 {
    if arch.shape.family != super::family::Family::Gemma4 {
        return 0;
    }
    let h = arch.shape.hidden;
    crate::units::sum(
        plan.layers
            .iter()
            .filter(|l| l.mixer == super::layers::Mixer::SharedKv)
            .map(|l| {
                let k = mul(&[l.kv_heads, l.head_dim, h]);
                let v = match l.keys_as_values {
                    true => 0,
                    false => mul(&[l.kv_heads, l.v_head_dim, h]),
                };
                crate::units::sum([k, v, l.head_dim])
            }),
    )
}

/// The second copy of the tied head tiiuae's Falcon files hold:
///
/// ```text
/// copy = V × H   (Falcon with tied embeddings), else 0
/// ```
///
/// Source: the safetensors indexes of tiiuae/falcon-180B-chat (its
/// weight_map lists `lm_head.weight` beside
/// `transformer.word_embeddings.weight`), and the Hub totals of Falcon-7B
/// and Falcon-40B (7,217,189,760 and 41,835,970,560: the loaded model plus
/// 65,024 × 4,544 and 65,024 × 8,192). Worked example, Falcon-40B:
/// 65,024 × 8,192 = 532,676,608, 1.3 % of the files' total.
pub(crate) fn tied_head_copy(s: &super::shape::Shape) -> u64 {
    match (s.family, s.tied) {
        (super::family::Family::Falcon, true) => s.vocab.saturating_mul(s.embed_width),
        _ => 0,
    }
}

/// Parameters of the multi-token-prediction layers stored with the
/// checkpoint (`num_nextn_predict_layers`, `mtp_num_hidden_layers`). Each
/// step holds
///
/// ```text
/// own embedding V·H and head V·H (DeepSeek-V3; Qwen3-Next, Qwen3.5,
/// Nemotron-H, MiMo, GLM-5 and DeepSeek-V4 use the model's), norms 3·H
/// (embedding, hidden, final), a projection H×2H (DeepSeek-V4: e_proj and
/// h_proj, H×H each), its decoder blocks, and what the family adds
/// (DeepSeek-V4's hyper-connection head N × N·H + N + 1)
/// ```
///
/// — one layer like the model's last (DeepSeek-V3, GLM), a full-attention
/// layer (Qwen3-Next, Qwen3.5), or the blocks of
/// `mtp_hybrid_override_pattern` (Nemotron-H). They are not part of the
/// model's published size (DeepSeek-V3: 671B without, 685B with).
/// Sources: vLLM `deepseek_mtp.py`, `qwen3_next_mtp.py`,
/// `nemotron_h_mtp.py`, `models/deepseek_v4/nvidia/mtp.py`
/// (`DeepSeekV4MultiTokenPredictorLayer`).
pub(crate) fn mtp_params(arch: &Arch, plan: &Plan) -> u64 {
    let s = arch.shape;
    if s.mtp_layers == 0 {
        return 0;
    }
    let vocab_matrices = s.mtp.as_ref().map_or(2, |m| m.vocab_matrices);
    let mut blocks_params = 0u64;
    let mut add = |t: &Tensor| blocks_params = blocks_params.saturating_add(t.params());
    let mut sink = Sink {
        f: &mut add,
        layer: Some(s.layers),
    };
    // Blocks of every step together when each block is a step of its own.
    let mut steps = s.mtp_layers;
    match s.mtp.as_ref().filter(|m| !m.blocks.is_empty()) {
        Some(m) => {
            let Some(step) = mtp_plan(arch, &m.blocks) else {
                return 0;
            };
            for ((attention, ffn), shape) in step.attention.iter().zip(&step.ffn).zip(&step.layers)
            {
                layer::layer(arch, *attention, *ffn, shape, &mut sink);
            }
            if m.per_step {
                steps = 1;
            }
        }
        None => {
            let (Some(attention), Some(ffn), Some(shape)) =
                (plan.attention.last(), plan.ffn.last(), plan.layers.last())
            else {
                return 0;
            };
            layer::layer(arch, *attention, *ffn, shape, &mut sink);
        }
    }
    let embeddings = mul(&[vocab_matrices, s.vocab, s.hidden]);
    let own = s.mtp.as_ref().map_or(0, |m| m.extra);
    let extra = embeddings
        .saturating_add(mul(&[3, s.hidden]))
        .saturating_add(mul(&[2, s.hidden, s.hidden]))
        .saturating_add(own);
    mul(&[steps, blocks_params]).saturating_add(mul(&[s.mtp_layers, extra]))
}

/// The plan of one MTP step's blocks (full attention where they attend;
/// experts where the model has them and the block routes).
fn mtp_plan(arch: &Arch, blocks: &[super::layers::Block]) -> Option<Plan> {
    let mut shape = arch.shape.clone();
    shape.layers = blocks.len() as u64;
    let routes = |_: u64| arch.moe.is_some();
    let routes: Option<&dyn Fn(u64) -> bool> = match arch.moe {
        Some(_) => Some(&routes),
        None => None,
    };
    super::layers::plan(
        &shape,
        blocks.to_vec(),
        "mtp",
        super::layers::Sizes::default(),
        arch.mixer,
        routes,
    )
    .ok()
}
