//! The tensors of recurrent token mixers: linear attention, state-space
//! and short-convolution layers.

use super::super::family::Family;
use super::super::mixer::{mul, LinearMixer};
use super::{Arch, Group, Sink};

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
/// short conv:     in 3H×H, conv H·K, out H×H (+ biases 3H, H, H)
/// lightning:      qkv 3·h·d×H, gate h·d×H, out H×h·d, norm h·d
/// Kimi delta:     q, k, v h·d×H each, convs 3·h·d·K, f_a d×H, f_b h·d×d,
///                 b h×H, g_a d×H, g_b h·d×d, A_log h, dt_bias h·d,
///                 o_norm d, o H×h·d
///   (Kimi-K3:     g h·d×H in place of g_a, g_b (`use_full_rank_gate`);
///                 A_log d)
/// ```
/// Sources: `transformers` `Qwen3NextGatedDeltaNet`,
/// `NemotronHMamba2Mixer`, `FalconH1Mixer`, `MambaMixer`,
/// `JambaMambaMixer`, `Lfm2ShortConv`, `MiniMaxLightningAttention`; vLLM
/// `models/kimi_linear.py` (`KimiDeltaAttention`), whose tensors a
/// Kimi-Linear-48B checkpoint lists (`A_log` `[1, 1, h, 1]`, `dt_bias`
/// `[h·d]`, `q_conv1d` `[h·d, 1, K]`, `o_norm` `[d]`), and SGLang
/// `python/sglang/srt/models/kimi_k3.py` @ 0000e9b4
/// (`KimiK3DeltaAttention`: the full-rank `g_proj`, and "K3 checkpoint
/// stores A_log as [head_dim]"). Worked example (a Kimi-K3 KDA layer: `H`
/// 7168, `h` 96, `d` 128, `K` 4): 264,241,152 (q, k, v) + 147,456 (convs)
/// + 917,504 + 1,572,864 + 688,128 + 88,080,384 (g) + 128 + 12,288 + 128
/// + 88,080,384 = 443,740,416.
pub(super) fn linear_mixer(arch: &Arch, mixer: LinearMixer, sink: &mut Sink) {
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
            // Qwen3.5 stores the input projection as four matrices
            // (`in_proj_qkv`, `in_proj_z`, `in_proj_b`, `in_proj_a`),
            // Qwen3-Next as two.
            let split = matches!(arch.shape.family, Family::Qwen35 | Family::Qwen35Moe);
            gated_delta_net(
                h,
                keys,
                values,
                (value_heads, value_head_dim),
                conv_kernel,
                split,
                sink,
            );
        }
        LinearMixer::Mamba2 { .. } => mamba2(h, mixer, sink),
        LinearMixer::Mamba { .. } => mamba(h, mixer, sink),
        LinearMixer::ShortConv {
            channels,
            kernel,
            bias,
        } => {
            let attn = Group::Attention;
            sink.linear(attn, "conv.in_proj", mul(&[3, channels]), h);
            sink.bias(bias, attn, "conv.in_proj.bias", mul(&[3, channels]));
            sink.emit(attn, "conv.conv", channels, kernel, 1, false);
            sink.bias(bias, attn, "conv.conv.bias", channels);
            sink.linear(attn, "conv.out_proj", h, channels);
            sink.bias(bias, attn, "conv.out_proj.bias", h);
        }
        LinearMixer::Lightning {
            heads,
            head_dim,
            block,
        } => {
            let attn = Group::Attention;
            let width = mul(&[heads, head_dim]);
            sink.linear(attn, "self_attn.qkv_proj", mul(&[3, width]), h);
            sink.linear(attn, "self_attn.output_gate", width, h);
            sink.linear(attn, "self_attn.out_proj", h, width);
            sink.vector(Group::Norms, "self_attn.norm", width);
            // The decay buffers `MiniMaxLightningAttention` registers (and
            // a checkpoint saved by transformers stores): slope_rate H,
            // query_decay and key_decay H×B, diagonal_decay H×B×B.
            sink.vector(attn, "self_attn.slope_rate", heads);
            sink.emit(attn, "self_attn.query_decay", heads, block, 1, false);
            sink.emit(attn, "self_attn.key_decay", heads, block, 1, false);
            sink.emit(
                attn,
                "self_attn.diagonal_decay",
                mul(&[heads, block]),
                block,
                1,
                false,
            );
        }
        LinearMixer::KimiDelta {
            heads,
            head_dim,
            conv_kernel,
        } => {
            let attn = Group::Attention;
            let width = mul(&[heads, head_dim]);
            sink.linear(attn, "self_attn.q_proj", width, h);
            sink.linear(attn, "self_attn.k_proj", width, h);
            sink.linear(attn, "self_attn.v_proj", width, h);
            for conv in [
                "self_attn.q_conv1d",
                "self_attn.k_conv1d",
                "self_attn.v_conv1d",
            ] {
                sink.emit(attn, conv, width, conv_kernel, 1, false);
            }
            sink.linear(attn, "self_attn.f_a_proj", head_dim, h);
            sink.linear(attn, "self_attn.f_b_proj", width, head_dim);
            sink.linear(attn, "self_attn.b_proj", heads, h);
            let k3 = arch.shape.kimi_k3;
            if k3.is_some_and(|k| k.full_rank_gate) {
                sink.linear(attn, "self_attn.g_proj", width, h);
            } else {
                sink.linear(attn, "self_attn.g_a_proj", head_dim, h);
                sink.linear(attn, "self_attn.g_b_proj", width, head_dim);
            }
            // Kimi-K3's checkpoint stores `A_log` as `[d]` (the loader
            // keeps its first `h` values); Kimi-Linear's as `[1, 1, h, 1]`.
            let a_log = match k3 {
                Some(_) => head_dim,
                None => heads,
            };
            sink.vector(attn, "self_attn.A_log", a_log);
            sink.vector(attn, "self_attn.dt_bias", width);
            sink.vector(Group::Norms, "self_attn.o_norm", head_dim);
            sink.linear(attn, "self_attn.o_proj", h, width);
        }
        LinearMixer::Rwkv5 {
            heads,
            head_size,
            intermediate,
            ..
        } => rwkv5(h, (heads, head_size), intermediate, sink),
    }
}

/// RWKV-5 time mixing and channel mixing of one block.
///
/// ```text
/// time mixing:    time_decay, time_faaaa h×d each; time_mix_key, _value,
///                 _receptance, _gate H each; key, value, receptance, gate,
///                 output H×H; ln_x GroupNorm weight and bias H each
/// channel mixing: time_mix_key, time_mix_receptance H each; key I×H,
///                 receptance H×H, value H×I
/// ```
///
/// Source: mlc-llm `python/mlc_llm/model/rwkv5/rwkv5_model.py`
/// (`RWKV5_Attention`, `RWKV5_FNN`), whose loader maps each to the
/// checkpoint's `rwkv.blocks.N.attention.*` / `feed_forward.*` tensor.
fn rwkv5(h: u64, (heads, head_size): (u64, u64), intermediate: u64, sink: &mut Sink) {
    let attn = Group::Attention;
    sink.emit(attn, "attention.time_decay", heads, head_size, 1, false);
    sink.emit(attn, "attention.time_faaaa", heads, head_size, 1, false);
    for mix in [
        "attention.time_mix_key",
        "attention.time_mix_value",
        "attention.time_mix_receptance",
        "attention.time_mix_gate",
    ] {
        sink.vector(attn, mix, h);
    }
    for proj in [
        "attention.key",
        "attention.value",
        "attention.receptance",
        "attention.gate",
        "attention.output",
    ] {
        sink.linear(attn, proj, h, h);
    }
    sink.vector(Group::Norms, "attention.ln_x", h);
    sink.vector(Group::Norms, "attention.ln_x.bias", h);
    let mlp = Group::DenseMlp;
    sink.vector(mlp, "feed_forward.time_mix_key", h);
    sink.vector(mlp, "feed_forward.time_mix_receptance", h);
    sink.linear(mlp, "feed_forward.key", intermediate, h);
    sink.linear(mlp, "feed_forward.receptance", h, h);
    sink.linear(mlp, "feed_forward.value", h, intermediate);
}

fn gated_delta_net(
    h: u64,
    keys: u64,
    values: u64,
    (value_heads, value_head_dim): (u64, u64),
    conv_kernel: u64,
    split: bool,
    sink: &mut Sink,
) {
    let attn = Group::Attention;
    if split {
        let qkv = mul(&[2, keys]).saturating_add(values);
        sink.linear(attn, "linear_attn.in_proj_qkv", qkv, h);
        sink.linear(attn, "linear_attn.in_proj_z", values, h);
        sink.linear(attn, "linear_attn.in_proj_b", value_heads, h);
        sink.linear(attn, "linear_attn.in_proj_a", value_heads, h);
    } else {
        let qkvz = mul(&[2, keys]).saturating_add(mul(&[2, values]));
        sink.linear(attn, "linear_attn.in_proj_qkvz", qkvz, h);
        sink.linear(attn, "linear_attn.in_proj_ba", mul(&[2, value_heads]), h);
    }
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
        out_bias,
        norm,
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
    if norm {
        sink.vector(Group::Norms, "mixer.norm", inner);
    }
    sink.linear(attn, "mixer.out_proj", h, inner);
    sink.bias(out_bias, attn, "mixer.out_proj.bias", h);
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
