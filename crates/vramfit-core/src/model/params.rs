//! Parameter counting from the shapes of the tensors a config implies.
//!
//! Every tensor is listed once, with the group the estimation methods
//! need, its shape `rows × cols` (output × input features for a
//! projection) and how many copies exist (experts). Counts follow the
//! Hugging Face module layout of each family (`transformers`
//! `modeling_<model_type>.py`), which is what published exact counts
//! (KerasHub presets, model cards) count: tied embeddings once, buffers
//! (rotary tables, causal masks) not at all.

use super::family::QkNorm;
use super::layers::{AttentionKind, FfnKind, Plan};
use super::mixer::{mul, LinearMixer};
use super::moe::MoeSpec;
use super::shape::{MlaSpec, Shape};
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

    /// The module's full path (`model.layers.3.self_attn.q_proj`), as
    /// matched against `modules_to_not_convert`.
    pub fn path(&self) -> String {
        match self.layer {
            Some(i) => format!("model.layers.{i}.{}", self.module),
            None => self.module.to_string(),
        }
    }
}

/// Everything the enumeration reads.
pub(crate) struct Arch<'a> {
    pub shape: &'a Shape,
    pub moe: Option<&'a MoeSpec>,
    pub mixer: Option<LinearMixer>,
}

/// Receives tensors for one layer (or the model-wide ones).
struct Sink<'f> {
    f: &'f mut dyn FnMut(&Tensor),
    layer: Option<u64>,
}

impl Sink<'_> {
    fn emit(
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
    fn linear(&mut self, group: Group, module: &'static str, out: u64, input: u64) {
        self.emit(group, module, out, input, 1, true);
    }

    /// A vector of `len` values (norm weight, bias, per-head scalars).
    fn vector(&mut self, group: Group, module: &'static str, len: u64) {
        self.emit(group, module, 1, len, 1, false);
    }

    fn bias(&mut self, on: bool, group: Group, module: &'static str, len: u64) {
        if on {
            self.vector(group, module, len);
        }
    }
}

/// Lists every tensor of the model (MTP layers excluded).
pub(crate) fn for_each_tensor(arch: &Arch, plan: &Plan, f: &mut dyn FnMut(&Tensor)) {
    let mut sink = Sink { f, layer: None };
    model_wide(arch, &mut sink);
    for (i, (attention, ffn)) in plan.attention.iter().zip(&plan.ffn).enumerate() {
        sink.layer = Some(i as u64);
        layer(arch, *attention, *ffn, &mut sink);
    }
}

/// Embeddings, final norm and output head:
/// `V·H` (+ `P·H` learned positions) + final norm + `V·H` unless tied.
fn model_wide(arch: &Arch, sink: &mut Sink) {
    let s = arch.shape;
    sink.emit(
        Group::Embedding,
        "model.embed_tokens",
        s.vocab,
        s.hidden,
        1,
        false,
    );
    sink.emit(
        Group::Embedding,
        "model.embed_positions",
        s.positions,
        s.hidden,
        1,
        false,
    );
    norm(arch, sink, "model.norm");
    if !s.tied {
        sink.linear(Group::LmHead, "lm_head", s.vocab, s.hidden);
    }
}

/// One hidden-size norm: `H` weights, and `H` biases for a LayerNorm.
fn norm(arch: &Arch, sink: &mut Sink, module: &'static str) {
    let s = arch.shape;
    sink.vector(Group::Norms, module, s.hidden);
    sink.bias(s.rules.norm_bias, Group::Norms, module, s.hidden);
}

/// One decoder layer (or block).
fn layer(arch: &Arch, attention: AttentionKind, ffn: FfnKind, sink: &mut Sink) {
    let rules = arch.shape.rules;
    let norms = match rules.single_norm_blocks {
        true => 1,
        false => rules.layer_norms,
    };
    for _ in 0..norms {
        norm(arch, sink, "layernorm");
    }
    match attention {
        AttentionKind::Full
        | AttentionKind::SlidingWindow { .. }
        | AttentionKind::Chunked { .. } => grouped_query_attention(arch, sink),
        AttentionKind::Mla { .. } => {
            if let Some(mla) = arch.shape.mla {
                latent_attention(arch, mla, sink);
            }
        }
        AttentionKind::Linear { .. } => {
            if let Some(mixer) = arch.mixer {
                linear_mixer(arch, mixer, sink);
            }
        }
        AttentionKind::None => {}
    }
    match (ffn, arch.moe) {
        (FfnKind::Dense, _) => mlp(
            arch,
            sink,
            Group::DenseMlp,
            arch.shape.intermediate.unwrap_or(0),
        ),
        (FfnKind::Moe, Some(moe)) => mixture_of_experts(arch, moe, sink),
        _ => {}
    }
}

/// Multi-head / grouped-query attention, `a = H_q·d`, `b = H_kv·d`:
/// `q: a×H, k: b×H, v: b×H, o: H×a` (q doubled by an output gate in
/// Qwen3-Next), biases `a + 2b` on q/k/v and `H` on o where the family or
/// `attention_bias` has them, `H_q` sink logits (gpt-oss), q/k norms.
fn grouped_query_attention(arch: &Arch, sink: &mut Sink) {
    let s = arch.shape;
    let r = s.rules;
    let gate = if r.gated_query { 2 } else { 1 };
    let q = mul(&[s.heads, s.head_dim, gate]);
    let kv = mul(&[s.kv_heads, s.head_dim]);
    let attn = Group::Attention;
    let qkv_bias = r.qkv_bias || s.attention_bias;
    if r.fused_qkv {
        let width = q.saturating_add(kv.saturating_mul(2));
        sink.linear(attn, "self_attn.qkv_proj", width, s.hidden);
        sink.bias(qkv_bias, attn, "self_attn.qkv_proj.bias", width);
    } else {
        for (module, width) in [
            ("self_attn.q_proj", q),
            ("self_attn.k_proj", kv),
            ("self_attn.v_proj", kv),
        ] {
            sink.linear(attn, module, width, s.hidden);
            sink.bias(qkv_bias, attn, module, width);
        }
    }
    let heads_width = mul(&[s.heads, s.head_dim]);
    sink.linear(attn, "self_attn.o_proj", s.hidden, heads_width);
    sink.bias(
        r.o_bias || s.attention_bias,
        attn,
        "self_attn.o_proj.bias",
        s.hidden,
    );
    sink.bias(r.attention_sinks, attn, "self_attn.sinks", s.heads);
    match r.qk_norm {
        QkNorm::None => {}
        QkNorm::PerHead => {
            sink.vector(Group::Norms, "self_attn.q_norm", s.head_dim);
            sink.vector(Group::Norms, "self_attn.k_norm", s.head_dim);
        }
        QkNorm::FullWidth => {
            sink.vector(Group::Norms, "self_attn.q_norm", heads_width);
            sink.vector(Group::Norms, "self_attn.k_norm", kv);
        }
    }
}

/// Multi-head latent attention (DeepSeek-V2/V3), `d_q = d_nope + d_rope`:
/// ```text
/// q_a: r_q×H, q_a_norm: r_q, q_b: H_q·d_q×r_q   (or q: H_q·d_q×H when r_q is null)
/// kv_a: (r_kv + d_rope)×H, kv_a_norm: r_kv, kv_b: H_q·(d_nope + d_v)×r_kv
/// o: H×H_q·d_v
/// ```
/// with biases on q_a, kv_a and o when `attention_bias`. Source:
/// `transformers` `DeepseekV3Attention`.
fn latent_attention(arch: &Arch, mla: MlaSpec, sink: &mut Sink) {
    let s = arch.shape;
    let attn = Group::Attention;
    let bias = s.attention_bias;
    let q_width = mul(&[s.heads, mla.qk_head_dim()]);
    match mla.q_lora_rank {
        Some(rank) => {
            sink.linear(attn, "self_attn.q_a_proj", rank, s.hidden);
            sink.bias(bias, attn, "self_attn.q_a_proj.bias", rank);
            sink.vector(Group::Norms, "self_attn.q_a_layernorm", rank);
            sink.linear(attn, "self_attn.q_b_proj", q_width, rank);
        }
        None => sink.linear(attn, "self_attn.q_proj", q_width, s.hidden),
    }
    let kv_a = mla.kv_lora_rank.saturating_add(mla.qk_rope_head_dim);
    sink.linear(attn, "self_attn.kv_a_proj_with_mqa", kv_a, s.hidden);
    sink.bias(bias, attn, "self_attn.kv_a_proj_with_mqa.bias", kv_a);
    sink.vector(Group::Norms, "self_attn.kv_a_layernorm", mla.kv_lora_rank);
    let kv_b = mul(&[s.heads, mla.qk_nope_head_dim.saturating_add(mla.v_head_dim)]);
    sink.linear(attn, "self_attn.kv_b_proj", kv_b, mla.kv_lora_rank);
    let v_width = mul(&[s.heads, mla.v_head_dim]);
    sink.linear(attn, "self_attn.o_proj", s.hidden, v_width);
    sink.bias(bias, attn, "self_attn.o_proj.bias", s.hidden);
}

/// Linear-attention / state-space mixers.
///
/// ```text
/// Gated DeltaNet: in_qkvz (2·H_k·d_k + 2·H_v·d_v)×H, in_ba 2·H_v×H,
///                 conv (2·H_k·d_k + H_v·d_v)·K, dt_bias H_v, A_log H_v,
///                 norm d_v, out H×H_v·d_v
/// Mamba-2:        in (2·D + 2·G·N + h)×H, conv (D + 2·G·N)·K (+bias),
///                 dt_bias, A_log, D: h each, norm D, out H×D      (D = h·P)
/// Mamba:          in 2·D×H, conv D·K (+bias D), x (R + 2N)×D, dt D×R + D,
///                 A_log D·N, D D, out H×D (+ norms R, N, N in Jamba)
/// ```
/// Sources: `transformers` `Qwen3NextGatedDeltaNet`,
/// `NemotronHMamba2Mixer`, `MambaMixer`, `JambaMambaMixer`.
fn linear_mixer(arch: &Arch, mixer: LinearMixer, sink: &mut Sink) {
    let h = arch.shape.hidden;
    match mixer {
        LinearMixer::GatedDeltaNet {
            key_heads,
            value_heads,
            key_head_dim,
            value_head_dim,
            conv_kernel,
        } => {
            let keys = mul(&[key_heads, key_head_dim]);
            let values = mul(&[value_heads, value_head_dim]);
            gated_delta_net(
                h,
                keys,
                values,
                value_heads,
                value_head_dim,
                conv_kernel,
                sink,
            );
        }
        LinearMixer::Mamba2 { .. } => mamba2(h, mixer, sink),
        LinearMixer::Mamba { .. } => mamba(h, mixer, sink),
    }
}

fn gated_delta_net(
    h: u64,
    keys: u64,
    values: u64,
    value_heads: u64,
    value_head_dim: u64,
    conv_kernel: u64,
    sink: &mut Sink,
) {
    let attn = Group::Attention;
    let qkvz = mul(&[2, keys]).saturating_add(mul(&[2, values]));
    sink.linear(attn, "linear_attn.in_proj_qkvz", qkvz, h);
    sink.linear(attn, "linear_attn.in_proj_ba", mul(&[2, value_heads]), h);
    let conv = mul(&[2, keys]).saturating_add(values);
    sink.emit(attn, "linear_attn.conv1d", conv, conv_kernel, 1, false);
    sink.vector(attn, "linear_attn.dt_bias", value_heads);
    sink.vector(attn, "linear_attn.A_log", value_heads);
    sink.vector(Group::Norms, "linear_attn.norm", value_head_dim);
    sink.linear(attn, "linear_attn.out_proj", h, values);
}

fn mamba2(h: u64, mixer: LinearMixer, sink: &mut Sink) {
    let LinearMixer::Mamba2 {
        heads,
        head_dim,
        state_size,
        groups,
        conv_kernel,
        conv_bias,
        proj_bias,
    } = mixer
    else {
        return;
    };
    let attn = Group::Attention;
    let inner = mul(&[heads, head_dim]);
    let conv = inner.saturating_add(mul(&[2, groups, state_size]));
    let input = inner.saturating_add(conv).saturating_add(heads);
    sink.linear(attn, "mixer.in_proj", input, h);
    sink.bias(proj_bias, attn, "mixer.in_proj.bias", input);
    sink.emit(attn, "mixer.conv1d", conv, conv_kernel, 1, false);
    sink.bias(conv_bias, attn, "mixer.conv1d.bias", conv);
    for module in ["mixer.dt_bias", "mixer.A_log", "mixer.D"] {
        sink.vector(attn, module, heads);
    }
    sink.vector(Group::Norms, "mixer.norm", inner);
    sink.linear(attn, "mixer.out_proj", h, inner);
    sink.bias(proj_bias, attn, "mixer.out_proj.bias", h);
}

fn mamba(h: u64, mixer: LinearMixer, sink: &mut Sink) {
    let LinearMixer::Mamba {
        inner,
        state_size,
        conv_kernel,
        dt_rank,
        conv_bias,
        proj_bias,
        dt_norms,
    } = mixer
    else {
        return;
    };
    let attn = Group::Attention;
    sink.linear(attn, "mixer.in_proj", mul(&[2, inner]), h);
    sink.bias(proj_bias, attn, "mixer.in_proj.bias", mul(&[2, inner]));
    sink.emit(attn, "mixer.conv1d", inner, conv_kernel, 1, false);
    sink.bias(conv_bias, attn, "mixer.conv1d.bias", inner);
    let x_out = dt_rank.saturating_add(mul(&[2, state_size]));
    sink.linear(attn, "mixer.x_proj", x_out, inner);
    sink.linear(attn, "mixer.dt_proj", inner, dt_rank);
    sink.vector(attn, "mixer.dt_proj.bias", inner);
    sink.emit(attn, "mixer.A_log", inner, state_size, 1, false);
    sink.vector(attn, "mixer.D", inner);
    sink.linear(attn, "mixer.out_proj", h, inner);
    sink.bias(proj_bias, attn, "mixer.out_proj.bias", h);
    if dt_norms {
        sink.vector(Group::Norms, "mixer.dt_layernorm", dt_rank);
        sink.vector(Group::Norms, "mixer.b_layernorm", state_size);
        sink.vector(Group::Norms, "mixer.c_layernorm", state_size);
    }
}

/// A dense MLP of width `I`: gated `gate: I×H, up: I×H, down: H×I`
/// (gate and up fused in Phi-3), or `up: I×H, down: H×I` (GPT-2,
/// Nemotron-H), with biases `I (+I) + H` where the family or `mlp_bias`
/// has them.
fn mlp(arch: &Arch, sink: &mut Sink, group: Group, width: u64) {
    let s = arch.shape;
    let bias = s.rules.mlp_bias || s.mlp_bias;
    if !s.rules.gated_mlp {
        sink.linear(group, "mlp.up_proj", width, s.hidden);
        sink.bias(bias, group, "mlp.up_proj.bias", width);
    } else if s.rules.fused_gate_up {
        sink.linear(group, "mlp.gate_up_proj", mul(&[2, width]), s.hidden);
        sink.bias(bias, group, "mlp.gate_up_proj.bias", mul(&[2, width]));
    } else {
        sink.linear(group, "mlp.gate_proj", width, s.hidden);
        sink.bias(bias, group, "mlp.gate_proj.bias", width);
        sink.linear(group, "mlp.up_proj", width, s.hidden);
        sink.bias(bias, group, "mlp.up_proj.bias", width);
    }
    sink.linear(group, "mlp.down_proj", s.hidden, width);
    sink.bias(bias, group, "mlp.down_proj.bias", s.hidden);
}

/// An MoE layer with `E` experts of width `I_e` reading `d` (= `H`, or
/// `moe_latent_size`):
/// ```text
/// router E×H (+E bias, +E score-correction bias)
/// experts E × (gate I_e×d + up I_e×d + down d×I_e)   (no gate: up, down)
/// shared  gate S×H + up S×H + down H×S (+ shared gate 1×H)
/// latent  d×H + H×d
/// ```
fn mixture_of_experts(arch: &Arch, moe: &MoeSpec, sink: &mut Sink) {
    let s = arch.shape;
    let r = s.rules;
    let e = moe.routed_experts;
    sink.linear(Group::Router, "mlp.gate", e, s.hidden);
    sink.bias(r.router_bias, Group::Router, "mlp.gate.bias", e);
    sink.bias(
        moe.score_bias,
        Group::Router,
        "mlp.gate.e_score_correction_bias",
        e,
    );
    experts(arch, moe, sink);
    if let Some(latent) = moe.latent {
        sink.linear(
            Group::SharedExperts,
            "mlp.fc1_latent_proj",
            latent,
            s.hidden,
        );
        sink.linear(
            Group::SharedExperts,
            "mlp.fc2_latent_proj",
            s.hidden,
            latent,
        );
    }
    if moe.shared_intermediate > 0 {
        mlp_shared(arch, moe.shared_intermediate, sink);
    }
}

fn experts(arch: &Arch, moe: &MoeSpec, sink: &mut Sink) {
    let s = arch.shape;
    let r = s.rules;
    let (e, w) = (moe.routed_experts, moe.expert_intermediate);
    let d = moe.latent.unwrap_or(s.hidden);
    let group = Group::RoutedExperts;
    let mut put = |module: &'static str, rows: u64, cols: u64, projection: bool| {
        sink.emit(group, module, rows, cols, e, projection);
    };
    if !r.gated_mlp {
        put("mlp.experts.up_proj", w, d, true);
    } else if r.fused_gate_up {
        put("mlp.experts.gate_up_proj", mul(&[2, w]), d, true);
    } else {
        put("mlp.experts.gate_proj", w, d, true);
        put("mlp.experts.up_proj", w, d, true);
    }
    put("mlp.experts.down_proj", d, w, true);
    if r.expert_bias {
        let first = if r.gated_mlp { mul(&[2, w]) } else { w };
        put("mlp.experts.gate_up_proj_bias", 1, first, false);
        put("mlp.experts.down_proj_bias", 1, d, false);
    }
}

fn mlp_shared(arch: &Arch, width: u64, sink: &mut Sink) {
    let s = arch.shape;
    let group = Group::SharedExperts;
    let bias = s.mlp_bias;
    let names: &[&'static str] = match s.rules.gated_mlp {
        true => &["mlp.shared_experts.gate_proj", "mlp.shared_experts.up_proj"],
        false => &["mlp.shared_experts.up_proj"],
    };
    for module in names {
        sink.linear(group, module, width, s.hidden);
        sink.bias(bias, group, module, width);
    }
    sink.linear(group, "mlp.shared_experts.down_proj", s.hidden, width);
    sink.bias(bias, group, "mlp.shared_experts.down_proj.bias", s.hidden);
    if s.rules.shared_expert_gate {
        sink.linear(group, "mlp.shared_expert_gate", 1, s.hidden);
    }
}

/// Parameters by group, and the routed-expert parameters a token does not
/// use: `(E − k) × per-expert parameters`, summed over MoE layers.
pub(crate) fn count(arch: &Arch, plan: &Plan) -> (ParamGroups, u64) {
    let mut groups = ParamGroups::default();
    let mut unrouted = 0u64;
    let idle = arch
        .moe
        .map(|m| m.routed_experts.saturating_sub(m.experts_per_token))
        .unwrap_or(0);
    for_each_tensor(arch, plan, &mut |t| {
        groups.add(t.group, t.params());
        if t.group == Group::RoutedExperts {
            unrouted = unrouted.saturating_add(t.per_copy().saturating_mul(idle));
        }
    });
    (groups, unrouted)
}

/// Parameters of the multi-token-prediction layers stored with the
/// checkpoint (`num_nextn_predict_layers`), in DeepSeek-V3's layout: per
/// layer its own embedding `V·H` and head `V·H`, norms `3·H`, a projection
/// `H×2H` and one decoder layer like the model's last. They are not part
/// of the published model size (DeepSeek-V3: 671B without, 685B with).
pub(crate) fn mtp_params(arch: &Arch, plan: &Plan) -> u64 {
    let s = arch.shape;
    let (Some(attention), Some(ffn)) = (plan.attention.last(), plan.ffn.last()) else {
        return 0;
    };
    let mut one_layer = 0u64;
    let mut sink_fn = |t: &Tensor| one_layer = one_layer.saturating_add(t.params());
    let mut sink = Sink {
        f: &mut sink_fn,
        layer: Some(s.layers),
    };
    layer(arch, *attention, *ffn, &mut sink);
    let extra = mul(&[2, s.vocab, s.hidden])
        .saturating_add(mul(&[3, s.hidden]))
        .saturating_add(mul(&[2, s.hidden, s.hidden]));
    mul(&[s.mtp_layers, one_layer.saturating_add(extra)])
}
