//! The tensors of a GGUF file: names, shapes, and what each is to the
//! quantizer and the loader.
//!
//! Shapes are ggml's (`ne[0]` is the row length, the input dimension of a
//! projection), as the loader creates them in `src/models/<arch>.cpp`
//! (`load_arch_tensors`) and as `convert_hf_to_gguf.py` writes them: tied
//! output heads omitted, experts merged into 3-D `ffn_*_exps` tensors,
//! DeepSeek's `kv_b_proj` split into `attn_k_b` and `attn_v_b`,
//! Llama-3.1's `rope_freqs` added, norms and every 1-D tensor in f32.

use super::arch::{Arch, LayerFfn, Layout};
use serde::Serialize;

/// What a tensor is to the quantizer (`tensor_get_category`,
/// `tensor_allows_quantization` in `src/llama-quant.cpp`) and to the
/// loader's placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// `token_embd.weight`: kept on the host by the loader.
    TokenEmbd,
    /// `output.weight`.
    Output,
    AttnQ,
    AttnK,
    AttnV,
    /// Fused q/k/v (`attn_qkv`, Phi-3, GPT-2): an attn_v-like tensor.
    AttnQkv,
    AttnOutput,
    /// Other 2-D attention projections (MLA's `attn_q_a`, `attn_q_b`,
    /// `attn_kv_a_mqa`, `attn_k_b`, `attn_v_b`).
    AttnOther,
    /// `ffn_gate`, `ffn_gate_exps`, `ffn_gate_shexp`.
    FfnGate,
    /// `ffn_up`, `ffn_up_exps`, `ffn_up_shexp` (Phi-3: gate and up fused).
    FfnUp,
    /// `ffn_down`, `ffn_down_exps`, `ffn_down_shexp`.
    FfnDown,
    /// The expert router `ffn_gate_inp` (and Qwen2-MoE's shared-expert
    /// gate): f32, never quantized.
    Router,
    /// `*_norm.weight` and norm biases: f32, never quantized.
    Norm,
    /// Learned positions (`position_embd`, GPT-2): f32, never quantized.
    PosEmbd,
    /// Biases, attention sinks, rope factors, `exp_probs_b`: f32.
    Vector,
}

impl Role {
    /// Whether `llama-quantize` may change the tensor's type: 2-D and 3-D
    /// weights other than norms, routers and position embeddings
    /// (`tensor_allows_quantization`). The others keep the type the
    /// converter gave them, f32.
    pub const fn quantizable(self) -> bool {
        !matches!(
            self,
            Role::Router | Role::Norm | Role::PosEmbd | Role::Vector
        )
    }
}

/// One tensor of the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GgufTensor {
    /// GGUF name (`blk.3.attn_v.weight`).
    pub name: String,
    /// The block (`blk.N`), `None` for model-wide tensors.
    pub layer: Option<u64>,
    pub role: Role,
    /// ggml shape `[ne0, ne1, ne2]`; `ne0` is the row length.
    pub ne: [u64; 3],
    /// A routed-expert tensor (`ffn_{gate,up,down}_exps`, weights and
    /// biases), which `--n-cpu-moe` keeps on the host.
    pub expert: bool,
}

impl GgufTensor {
    /// Values in the tensor.
    pub fn elements(&self) -> u64 {
        self.ne[0]
            .saturating_mul(self.ne[1])
            .saturating_mul(self.ne[2])
    }
}

/// Collects tensors in the loader's order: model-wide first, then block
/// by block.
struct Builder {
    out: Vec<GgufTensor>,
    layer: Option<u64>,
}

impl Builder {
    fn push(&mut self, name: &str, role: Role, ne: [u64; 3], expert: bool) {
        if ne.contains(&0) {
            return;
        }
        let name = match self.layer {
            Some(i) => format!("blk.{i}.{name}"),
            None => name.to_string(),
        };
        self.out.push(GgufTensor {
            name,
            layer: self.layer,
            role,
            ne,
            expert,
        });
    }

    /// A 2-D weight `[input, output]`.
    fn matrix(&mut self, name: &str, role: Role, input: u64, output: u64) {
        self.push(name, role, [input, output, 1], false);
    }

    /// A 1-D f32 tensor.
    fn vector(&mut self, name: &str, role: Role, len: u64) {
        self.push(name, role, [len, 1, 1], false);
    }

    fn bias(&mut self, on: bool, name: &str, len: u64) {
        if on {
            self.vector(name, Role::Vector, len);
        }
    }
}

/// Every tensor of the GGUF file of a model, in the loader's order.
pub(crate) fn inventory(layout: &Layout) -> Vec<GgufTensor> {
    let mut b = Builder {
        out: Vec::new(),
        layer: None,
    };
    model_wide(layout, &mut b);
    for (i, layer) in layout.layers.iter().enumerate() {
        b.layer = Some(i as u64);
        match layout.arch {
            Arch::Deepseek2 => latent_attention(layout, &mut b),
            Arch::Gpt2 => gpt2_block(layout, &mut b),
            _ => attention(layout, &mut b),
        }
        if layout.arch != Arch::Gpt2 {
            feed_forward(layout, layer.ffn, &mut b);
        }
    }
    b.out
}

/// Embeddings, final norm, output head, rope tables.
fn model_wide(l: &Layout, b: &mut Builder) {
    let h = l.n_embd;
    b.matrix("token_embd.weight", Role::TokenEmbd, h, l.n_vocab);
    if l.arch == Arch::Gpt2 {
        b.matrix("position_embd.weight", Role::PosEmbd, h, l.positions);
    }
    b.vector("output_norm.weight", Role::Norm, h);
    if l.arch == Arch::Gpt2 {
        b.vector("output_norm.bias", Role::Norm, h);
    }
    if !l.tied {
        b.matrix("output.weight", Role::Output, h, l.n_vocab);
    }
    if l.rope_freqs > 0 {
        b.vector("rope_freqs.weight", Role::Vector, l.rope_freqs);
    }
    if l.rope_factors > 0 {
        b.vector("rope_factors_long.weight", Role::Vector, l.rope_factors);
        b.vector("rope_factors_short.weight", Role::Vector, l.rope_factors);
    }
}

/// Norms, q/k/v/o (separate or fused), biases, q/k norms, post-norms and
/// sinks of every grouped-query architecture.
fn attention(l: &Layout, b: &mut Builder) {
    let (h, d) = (l.n_embd, l.head_dim);
    let q = l.n_head.saturating_mul(d);
    let kv = l.n_head_kv.saturating_mul(d);
    if l.arch != Arch::Olmo2 {
        b.vector("attn_norm.weight", Role::Norm, h);
    }
    if l.arch == Arch::Phi3 {
        b.matrix("attn_qkv.weight", Role::AttnQkv, h, q + 2 * kv);
    } else {
        b.matrix("attn_q.weight", Role::AttnQ, h, q);
        b.bias(l.qkv_bias, "attn_q.bias", q);
        b.matrix("attn_k.weight", Role::AttnK, h, kv);
        b.bias(l.qkv_bias, "attn_k.bias", kv);
        b.matrix("attn_v.weight", Role::AttnV, h, kv);
        b.bias(l.qkv_bias, "attn_v.bias", kv);
    }
    b.matrix("attn_output.weight", Role::AttnOutput, q, h);
    b.bias(l.o_bias, "attn_output.bias", h);
    match l.arch {
        Arch::Qwen3 | Arch::Qwen3Moe | Arch::Gemma3 => {
            b.vector("attn_q_norm.weight", Role::Norm, d);
            b.vector("attn_k_norm.weight", Role::Norm, d);
        }
        Arch::Olmo2 => {
            b.vector("attn_q_norm.weight", Role::Norm, q);
            b.vector("attn_k_norm.weight", Role::Norm, kv);
        }
        _ => {}
    }
    if matches!(
        l.arch,
        Arch::Gemma2 | Arch::Gemma3 | Arch::Olmo2 | Arch::GptOss | Arch::Glm4
    ) {
        b.vector("attn_post_norm.weight", Role::Norm, h);
    }
    if l.arch == Arch::GptOss {
        b.vector("attn_sinks.weight", Role::Vector, l.n_head);
    }
}

/// DeepSeek's multi-head latent attention, with `kv_b_proj` split into
/// `attn_k_b` `[d_nope, r_kv, H_q]` and `attn_v_b` `[r_kv, d_v, H_q]`
/// (`DeepseekV2Model.modify_tensors`).
fn latent_attention(l: &Layout, b: &mut Builder) {
    let Some(m) = l.mla else { return };
    let h = l.n_embd;
    let nh = l.n_head;
    b.vector("attn_norm.weight", Role::Norm, h);
    let q_width = nh.saturating_mul(m.qk_head_dim());
    match m.q_lora_rank {
        Some(rank) => {
            b.vector("attn_q_a_norm.weight", Role::Norm, rank);
            b.matrix("attn_q_a.weight", Role::AttnOther, h, rank);
            b.matrix("attn_q_b.weight", Role::AttnOther, rank, q_width);
        }
        None => b.matrix("attn_q.weight", Role::AttnQ, h, q_width),
    }
    b.vector("attn_kv_a_norm.weight", Role::Norm, m.kv_lora_rank);
    b.matrix(
        "attn_kv_a_mqa.weight",
        Role::AttnOther,
        h,
        m.kv_lora_rank + m.qk_rope_head_dim,
    );
    b.push(
        "attn_k_b.weight",
        Role::AttnOther,
        [m.qk_nope_head_dim, m.kv_lora_rank, nh],
        false,
    );
    b.push(
        "attn_v_b.weight",
        Role::AttnOther,
        [m.kv_lora_rank, m.v_head_dim, nh],
        false,
    );
    b.matrix(
        "attn_output.weight",
        Role::AttnOutput,
        nh.saturating_mul(m.v_head_dim),
        h,
    );
}

/// GPT-2's block: LayerNorms with biases, fused q/k/v, biased MLP.
fn gpt2_block(l: &Layout, b: &mut Builder) {
    let h = l.n_embd;
    let kv = l.n_head_kv.saturating_mul(l.head_dim);
    let LayerFfn::Dense { n_ff } = l.layers[0].ffn else {
        return;
    };
    b.vector("attn_norm.weight", Role::Norm, h);
    b.vector("attn_norm.bias", Role::Norm, h);
    b.matrix("attn_qkv.weight", Role::AttnQkv, h, h + 2 * kv);
    b.vector("attn_qkv.bias", Role::Vector, h + 2 * kv);
    b.matrix("attn_output.weight", Role::AttnOutput, h, h);
    b.vector("attn_output.bias", Role::Vector, h);
    b.vector("ffn_norm.weight", Role::Norm, h);
    b.vector("ffn_norm.bias", Role::Norm, h);
    b.matrix("ffn_down.weight", Role::FfnDown, n_ff, h);
    b.vector("ffn_down.bias", Role::Vector, h);
    b.matrix("ffn_up.weight", Role::FfnUp, h, n_ff);
    b.vector("ffn_up.bias", Role::Vector, n_ff);
}

/// The pre-FFN norm (not OLMo-2's, whose norms come after), the dense MLP
/// or the experts, and the post-FFN norm.
fn feed_forward(l: &Layout, ffn: LayerFfn, b: &mut Builder) {
    let h = l.n_embd;
    match l.arch {
        Arch::Olmo2 => {}
        // gpt-oss's pre-MoE norm is its `attn_post_norm`.
        Arch::GptOss => {}
        _ => b.vector("ffn_norm.weight", Role::Norm, h),
    }
    match ffn {
        LayerFfn::Dense { n_ff } => {
            if matches!(l.arch, Arch::Phi3 | Arch::Glm4) {
                b.matrix("ffn_down.weight", Role::FfnDown, n_ff, h);
                b.matrix("ffn_up.weight", Role::FfnUp, h, 2 * n_ff);
            } else {
                b.matrix("ffn_gate.weight", Role::FfnGate, h, n_ff);
                b.bias(l.mlp_bias, "ffn_gate.bias", n_ff);
                b.matrix("ffn_down.weight", Role::FfnDown, n_ff, h);
                b.bias(l.mlp_bias, "ffn_down.bias", h);
                b.matrix("ffn_up.weight", Role::FfnUp, h, n_ff);
                b.bias(l.mlp_bias, "ffn_up.bias", n_ff);
            }
        }
        LayerFfn::Moe {
            n_ff_exp,
            n_ff_shexp,
        } => experts(l, n_ff_exp, n_ff_shexp, b),
    }
    if matches!(
        l.arch,
        Arch::Gemma2 | Arch::Gemma3 | Arch::Olmo2 | Arch::Glm4
    ) {
        b.vector("ffn_post_norm.weight", Role::Norm, h);
    }
}

/// Router, merged experts `[in, out, E]`, gpt-oss's expert biases,
/// DeepSeek's `exp_probs_b`, shared expert and its gate.
fn experts(l: &Layout, n_ff_exp: u64, n_ff_shexp: u64, b: &mut Builder) {
    let h = l.n_embd;
    let e = l.n_expert;
    let oss = l.arch == Arch::GptOss;
    b.matrix("ffn_gate_inp.weight", Role::Router, h, e);
    if oss {
        b.vector("ffn_gate_inp.bias", Role::Vector, e);
    }
    if l.expert_score_bias {
        b.vector("exp_probs_b.bias", Role::Vector, e);
    }
    b.push(
        "ffn_gate_exps.weight",
        Role::FfnGate,
        [h, n_ff_exp, e],
        true,
    );
    b.push(
        "ffn_down_exps.weight",
        Role::FfnDown,
        [n_ff_exp, h, e],
        true,
    );
    b.push("ffn_up_exps.weight", Role::FfnUp, [h, n_ff_exp, e], true);
    if oss {
        b.push("ffn_gate_exps.bias", Role::Vector, [n_ff_exp, e, 1], true);
        b.push("ffn_down_exps.bias", Role::Vector, [h, e, 1], true);
        b.push("ffn_up_exps.bias", Role::Vector, [n_ff_exp, e, 1], true);
    }
    if n_ff_shexp > 0 {
        if l.arch == Arch::Qwen2Moe {
            b.vector("ffn_gate_inp_shexp.weight", Role::Router, h);
        }
        b.matrix("ffn_gate_shexp.weight", Role::FfnGate, h, n_ff_shexp);
        b.matrix("ffn_down_shexp.weight", Role::FfnDown, n_ff_shexp, h);
        b.matrix("ffn_up_shexp.weight", Role::FfnUp, h, n_ff_shexp);
    }
}
