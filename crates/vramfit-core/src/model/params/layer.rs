//! The tensors of one decoder layer: its norms, its token mixer and its
//! feed-forward part.

use super::super::family::QkNorm;
use super::super::layers::{AttentionKind, FfnKind, LayerShape, Mixer};
use super::super::mixer::mul;
use super::super::moe::MoeSpec;
use super::super::shape::MlaSpec;
use super::{norm, recurrent, Arch, Group, Sink};

/// One decoder layer (or block).
pub(super) fn layer(
    arch: &Arch,
    attention: AttentionKind,
    ffn: FfnKind,
    shape: &LayerShape,
    sink: &mut Sink,
) {
    let rules = arch.shape.rules;
    let norms = if rules.single_norm_blocks {
        1
    } else if rules.norm_per_part {
        u64::from(shape.mixer != Mixer::None) + u64::from(ffn != FfnKind::None)
    } else {
        rules.layer_norms
    };
    for _ in 0..norms {
        norm(arch, sink, "layernorm");
    }
    if ffn == FfnKind::Moe {
        for _ in 0..rules.moe_norms {
            norm(arch, sink, "post_feedforward_layernorm_moe");
        }
    }
    sink.bias(rules.layer_scalar, Group::Norms, "layer_scalar", 1);
    let h = arch.shape.hidden;
    if arch.shape.kimi_k3.is_some_and(|k| k.attn_residuals) {
        attention_residuals(sink, h);
    }
    if let Some(parts) = arch.shape.compressed {
        super::compressed::hyper_connections(arch, parts, sink);
    }
    match (shape.mixer, attention) {
        (Mixer::Replaced, _) => sink.linear(Group::Attention, "self_attn.linear_attn", h, h),
        (_, AttentionKind::Mla { .. } | AttentionKind::SparseMla { .. }) => {
            if let Some(mla) = arch.shape.mla {
                latent_attention(arch, mla, shape.indexer, sink);
            }
        }
        (Mixer::Full | Mixer::Sliding | Mixer::Compressed, _)
            if arch.shape.compressed.is_some() =>
        {
            if let Some(parts) = arch.shape.compressed {
                super::compressed::attention(arch, parts, attention, sink);
            }
        }
        (Mixer::Full | Mixer::Sliding | Mixer::Chunked, _) => {
            grouped_query_attention(arch, shape, sink);
            if let AttentionKind::Indexed { .. } = attention {
                gqa_indexer(arch, sink);
            }
            if rules.parallel_mixer {
                if let Some(mixer) = arch.mixer {
                    recurrent::linear_mixer(arch, mixer, sink);
                }
            }
        }
        (Mixer::Linear, _) => {
            if let Some(mixer) = arch.mixer {
                recurrent::linear_mixer(arch, mixer, sink);
            }
        }
        (Mixer::SharedKv, _) => shared_kv_attention(arch, shape, sink),
        (Mixer::Compressed | Mixer::None, _) => {}
    }
    if let Some(g) = arch.shape.gemma3n {
        gemma3n_layer(arch, g, sink);
    }
    if let Some((width, _)) = arch.shape.per_layer_input {
        // Gemma-4's per-layer input: gate p×H, projection H×p, norm H.
        sink.linear(Group::Attention, "per_layer_input_gate", width, h);
        sink.linear(Group::Attention, "per_layer_projection", h, width);
        sink.vector(Group::Norms, "post_per_layer_input_norm", h);
    }
    match (ffn, arch.moe) {
        (FfnKind::Dense, _) if shape.ffn_replaced => {
            sink.linear(Group::DenseMlp, "mlp.linear_mlp", h, h)
        }
        (FfnKind::Dense, _) => mlp(arch, sink, Group::DenseMlp, shape.ffn_width),
        (FfnKind::Moe, Some(moe)) => {
            if rules.dense_beside_moe {
                let width = arch.shape.intermediate.unwrap_or(0);
                mlp(arch, sink, Group::DenseMlp, width);
            }
            mixture_of_experts(arch, moe, sink)
        }
        _ => {}
    }
}

/// Multi-head / grouped-query attention with this layer's head widths
/// `d` (queries and keys) and `d_v` (values), `a = H_q·d`, `b = H_kv·d`,
/// `c = H_kv·d_v`: `q: a×H, k: b×H, v: c×H, o: H×H_q·d_v` (q doubled by an
/// output gate in Qwen3-Next; no v where keys double as values, Gemma-4),
/// biases `a + b + c` on q/k/v and `H` on o where the rules have them,
/// `H_q` sink logits (gpt-oss, MiMo-V2's sliding layers), q/k norms, and a
/// head-wise gate `g_proj: H_q×H` (Step-3.5). `H_q` is this layer's query
/// heads (Step-3.5's sliding layers have their own).
fn grouped_query_attention(arch: &Arch, layer: &LayerShape, sink: &mut Sink) {
    let s = arch.shape;
    let r = s.rules;
    let (d, d_v) = (layer.head_dim, layer.v_head_dim);
    let gate = if r.gated_query { 2 } else { 1 };
    let heads = layer.heads;
    let q = mul(&[heads, d, gate]);
    let k = mul(&[layer.kv_heads, d]);
    let v = match layer.keys_as_values {
        true => 0,
        false => mul(&[layer.kv_heads, d_v]),
    };
    let attn = Group::Attention;
    if r.fused_qkv {
        let width = q.saturating_add(k).saturating_add(v);
        sink.linear(attn, "self_attn.qkv_proj", width, s.hidden);
        sink.bias(r.qkv_bias, attn, "self_attn.qkv_proj.bias", width);
    } else {
        for (module, width) in [
            ("self_attn.q_proj", q),
            ("self_attn.k_proj", k),
            ("self_attn.v_proj", v),
        ] {
            sink.linear(attn, module, width, s.hidden);
            sink.bias(r.qkv_bias && width > 0, attn, module, width);
        }
    }
    let out_width = mul(&[heads, d_v]);
    sink.linear(attn, "self_attn.o_proj", s.hidden, out_width);
    sink.bias(r.o_bias, attn, "self_attn.o_proj.bias", s.hidden);
    sink.bias(layer.sinks, attn, "self_attn.sinks", heads);
    if r.head_gate {
        sink.linear(attn, "self_attn.g_proj", heads, s.hidden);
    }
    match r.qk_norm {
        QkNorm::None => {}
        QkNorm::Shared(norm) => {
            for _ in 0..norm.vectors() {
                sink.vector(Group::Norms, "self_attn.q_norm", d);
                sink.vector(Group::Norms, "self_attn.k_norm", d);
            }
        }
        QkNorm::PerHead => {
            sink.vector(Group::Norms, "self_attn.q_norm", mul(&[heads, d]));
            sink.vector(Group::Norms, "self_attn.k_norm", k);
        }
    }
}

/// The sparse-attention indexer of a grouped-query layer (MiniMax-M3's
/// MSA layers), `n_I` query heads of width `d_I` and one shared key head:
/// ```text
/// index_q: n_I·d_I×H, index_k: d_I×H, index_q_norm d_I, index_k_norm d_I
/// ```
/// Source: vLLM `models/minimax_m3/nvidia/model.py`
/// (`MiniMaxM3SparseAttention`; the checkpoint's `index_q_proj` and
/// `index_k_proj`, fused there into `MinimaxM3QKVParallelLinearWithIndexer`,
/// whose `index_k` is "a single shared head"; no `index_v`/`index_o` where
/// `sparse_disable_index_value` is set).
fn gqa_indexer(arch: &Arch, sink: &mut Sink) {
    let Some(index) = arch.shape.indexer else {
        return;
    };
    let (h, d) = (arch.shape.hidden, index.head_dim);
    let attn = Group::Attention;
    sink.linear(attn, "self_attn.index_q_proj", mul(&[index.heads, d]), h);
    sink.linear(attn, "self_attn.index_k_proj", d, h);
    sink.vector(Group::Norms, "self_attn.index_q_norm", d);
    sink.vector(Group::Norms, "self_attn.index_k_norm", d);
}

/// Attention reading an earlier layer's keys and values (Gemma-3n,
/// Gemma-4): `q: H_q·d×H`, its per-head norm `d`, `o: H×H_q·d`.
fn shared_kv_attention(arch: &Arch, layer: &LayerShape, sink: &mut Sink) {
    let s = arch.shape;
    let q = mul(&[s.heads, layer.head_dim]);
    sink.linear(Group::Attention, "self_attn.q_proj", q, s.hidden);
    sink.vector(Group::Norms, "self_attn.q_norm", layer.head_dim);
    sink.linear(Group::Attention, "self_attn.o_proj", s.hidden, q);
}

/// Gemma-3n's per-layer blocks, `A` AltUp streams, LAuReL rank `r`,
/// per-layer input width `p`:
/// ```text
/// AltUp:  correct_output_scale H, correction_coefs A×A, prediction_coefs A²×A,
///         modality_router A×H, router_norm H
/// LAuReL: left r×H, right H×r, post_laurel_norm H
/// per-layer input: gate p×H, projection H×p, post_per_layer_input_norm H
/// ```
/// Source: `transformers` `Gemma3nTextAltUp`, `Gemma3nTextLaurelBlock`,
/// `Gemma3nTextDecoderLayer`.
fn gemma3n_layer(arch: &Arch, g: super::super::shape::Gemma3nParts, sink: &mut Sink) {
    let h = arch.shape.hidden;
    let a = g.altup;
    let attn = Group::Attention;
    sink.vector(Group::Norms, "altup.correct_output_scale", h);
    sink.emit(attn, "altup.correction_coefs", a, a, 1, false);
    sink.emit(attn, "altup.prediction_coefs", mul(&[a, a]), a, 1, false);
    sink.linear(attn, "altup.modality_router", a, h);
    sink.vector(Group::Norms, "altup.router_norm", h);
    sink.linear(attn, "laurel.linear_left", g.laurel_rank, h);
    sink.linear(attn, "laurel.linear_right", h, g.laurel_rank);
    sink.vector(Group::Norms, "laurel.post_laurel_norm", h);
    sink.linear(attn, "per_layer_input_gate", g.per_layer_hidden, h);
    sink.linear(attn, "per_layer_projection", h, g.per_layer_hidden);
    sink.vector(Group::Norms, "post_per_layer_input_norm", h);
}

/// Kimi-K3's attention residuals in one layer: before the attention and
/// before the MLP, an RMSNorm of `H` and a `1 × H` score projection over
/// the earlier blocks' outputs.
///
/// # Formula
///
/// ```text
/// self_attention_res_norm H + mlp_res_norm H
/// + self_attention_res_proj 1×H + mlp_res_proj 1×H   = 4H
/// ```
///
/// Symbols: `H` `hidden_size`. The projections are built unquantized
/// (`ReplicatedLinear(..., quant_config=None)`), so they are listed as
/// plain tensors, never converted by a checkpoint's quantization. Source:
/// SGLang `python/sglang/srt/models/kimi_k3.py` @ 0000e9b4
/// (`KimiK3DecoderLayer.__init__`). Worked example (Kimi-K3, `H` 7168):
/// 28,672 per layer, 2,666,496 over its 93 layers.
fn attention_residuals(sink: &mut Sink, h: u64) {
    sink.vector(Group::Norms, "self_attention_res_norm", h);
    sink.vector(Group::Norms, "mlp_res_norm", h);
    sink.emit(Group::Attention, "self_attention_res_proj", 1, h, 1, false);
    sink.emit(Group::Attention, "mlp_res_proj", 1, h, 1, false);
}

/// Multi-head latent attention (DeepSeek-V2/V3), `d_q = d_nope + d_rope`:
/// ```text
/// q_a: r_q×H, q_a_norm: r_q, q_b: H_q·d_q×r_q   (or q: H_q·d_q×H when r_q is null)
/// kv_a: (r_kv + d_rope)×H, kv_a_norm: r_kv, kv_b: H_q·(d_nope + d_v)×r_kv
/// o: H×H_q·d_v
/// ```
/// with biases on q_a, kv_a and o when the rules have attention biases,
/// and Kimi-K3's output gate `g: H_q·d_v×H` (`mla_use_output_gate`:
/// `sigmoid(g(x))` scales the attention output before `o`).
/// Sources: `transformers` `DeepseekV3Attention`; SGLang
/// `python/sglang/srt/models/kimi_k3.py` @ 0000e9b4 (`KimiK3MLAAttention`).
/// Worked example (a Kimi-K3 MLA layer: `H` 7168, `H_q` 96, `r_q` 1536,
/// `r_kv` 512, `d_nope` = `d_v` 128, `d_rope` 64): 11,010,048 + 1,536 +
/// 28,311,552 + 4,128,768 + 512 + 12,582,912 + 88,080,384 + 88,080,384
/// (gate) = 232,196,096.
fn latent_attention(arch: &Arch, mla: MlaSpec, indexed: bool, sink: &mut Sink) {
    let s = arch.shape;
    let attn = Group::Attention;
    let bias = s.rules.qkv_bias;
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
    sink.bias(s.rules.o_bias, attn, "self_attn.o_proj.bias", s.hidden);
    if s.kimi_k3.is_some_and(|k| k.mla_output_gate) {
        sink.linear(attn, "self_attn.g_proj", v_width, s.hidden);
    }
    if let (Some(index), Some(rank), true) = (s.indexer, mla.q_lora_rank, indexed) {
        // DeepSeek-V3.2 indexer: wq_b n·d×r_q, wk d×H, k_norm (LayerNorm,
        // weight and bias) 2d, weights_proj n×H. Source: transformers
        // `DeepseekV32Indexer`.
        let (heads, dim) = (index.heads, index.head_dim);
        sink.linear(attn, "self_attn.indexer.wq_b", mul(&[heads, dim]), rank);
        sink.linear(attn, "self_attn.indexer.wk", dim, s.hidden);
        sink.vector(Group::Norms, "self_attn.indexer.k_norm", mul(&[2, dim]));
        sink.linear(attn, "self_attn.indexer.weights_proj", heads, s.hidden);
    }
}

/// A dense MLP of width `I`: gated `gate: I×H, up: I×H, down: H×I`
/// (gate and up fused in Phi-3), or `up: I×H, down: H×I` (GPT-2,
/// Nemotron-H), with biases `I (+I) + H` where the rules have them.
fn mlp(arch: &Arch, sink: &mut Sink, group: Group, width: u64) {
    let s = arch.shape;
    let bias = s.rules.mlp_bias;
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
    sink.bias(
        s.rules.mlp_act_scalars > 0,
        group,
        "mlp.act_fn",
        s.rules.mlp_act_scalars,
    );
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
    let hashed = super::compressed::hash_routed(arch, sink);
    if hashed {
        // DeepSeek-V4's hash-routed layers: a token → experts table
        // `tid2eid` (V × k) instead of the score correction.
        sink.emit(
            Group::Router,
            "mlp.gate.tid2eid",
            s.vocab,
            moe.experts_per_token,
            1,
            false,
        );
    }
    sink.bias(
        moe.score_bias && !hashed,
        Group::Router,
        "mlp.gate.e_score_correction_bias",
        e,
    );
    if r.router_scales {
        sink.vector(Group::Router, "router.scale", s.hidden);
        sink.vector(Group::Router, "router.per_expert_scale", e);
    }
    experts(arch, moe, sink);
    if let (Some(latent), Some(k3)) = (moe.latent, s.kimi_k3) {
        kimi_k3_latent(s.hidden, latent, k3.latent_norm, sink);
    } else if let Some(latent) = moe.latent {
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

/// Kimi-K3's latent experts: every routed expert works in the latent
/// width `r`, reached through a down projection and left through an up
/// projection shared by all experts (always active).
///
/// # Formula
///
/// ```text
/// routed_expert_down_proj r×H + routed_expert_norm r (latent_moe_use_norm)
/// + routed_expert_up_proj H×r
/// ```
///
/// Symbols: `H` `hidden_size`, `r` `routed_expert_hidden_size`. The router
/// still reads `H` (`MoEGate`: `E×H`), the shared experts too. Both
/// projections are built unquantized (`ReplicatedLinear(...,
/// quant_config=None)`; the checkpoint quantizes only the routed experts),
/// so they are listed as plain tensors. Source: SGLang
/// `python/sglang/srt/models/kimi_k3.py` @ 0000e9b4 (`KimiK3MoE.__init__`).
/// Worked example (Kimi-K3: `H` 7168, `r` 3584, norm on): 25,690,112 +
/// 3,584 + 25,690,112 = 51,383,808 per MoE layer.
fn kimi_k3_latent(h: u64, r: u64, norm: bool, sink: &mut Sink) {
    let group = Group::SharedExperts;
    sink.emit(group, "mlp.routed_expert_down_proj", r, h, 1, false);
    if norm {
        sink.vector(Group::Norms, "mlp.routed_expert_norm", r);
    }
    sink.emit(group, "mlp.routed_expert_up_proj", h, r, 1, false);
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
    let bias = s.rules.mlp_bias;
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
