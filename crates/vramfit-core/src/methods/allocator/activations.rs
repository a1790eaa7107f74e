//! Activations: what each layer, the final norm and the logits chain
//! keep alive for the backward, and the candidate peaks of a training step
//! or of an inference forward.

use super::arch::{DenseArch, NormStyle};
use super::sat::Sat;
use super::step::{lora, tokens, widths, AllocatorInputs, Phase, StepDtype, StepKind};
use super::CUBLAS_WORKSPACE_BYTES;
use crate::scenario::AttnImpl;

/// Bytes per token one RMSNorm saves for backward, `in_bytes` being the
/// dtype of its input.
///
/// `x32 = x.to(float32)` is saved by `pow(2)` and by `x32 * rsqrt(...)`
/// (4 bytes per element, whatever the input dtype: in fp32 it is the input
/// itself), `rsqrt` saves its result (4 bytes per token). When the weight
/// trains, `weight * y` saves `y`: `y.to(input_dtype)` for the Llama style
/// (`in_bytes`), the fp32 `y` for the Gemma style (4).
/// Source: transformers `LlamaRMSNorm.forward`, `Gemma2RMSNorm.forward`;
/// torch autograd saves an input of `mul` only when the other input needs a
/// gradient (`tools/autograd/gen_variable_type.py`, `guard_for`).
pub fn norm_saved_per_token(h: u64, style: NormStyle, in_bytes: u64, trainable: bool) -> u128 {
    norm_saved(h, style, in_bytes, trainable).0
}

pub(super) fn norm_saved(h: u64, style: NormStyle, in_bytes: u64, trainable: bool) -> Sat {
    let h = Sat::of(h);
    let y = match (trainable, style) {
        (false, _) => Sat::ZERO,
        (true, NormStyle::Llama) => Sat::of(in_bytes) * h,
        (true, NormStyle::Gemma) => 4 * h,
    };
    4 * h + 4 + y
}

/// Bytes per token one decoder layer saves for backward (no checkpointing),
/// excluding the KV cache's own tensors (see [`cache_extra_per_token`]).
///
/// - norms: [`norm_saved_per_token`] for each; Gemma 2's extra two norms
///   take the linear outputs (`a`), the others the residual stream (`s`);
/// - full fine-tuning, projection inputs: `q_proj`/`k_proj`/`v_proj` save
///   the normed input and `gate_proj`/`up_proj` theirs, one shared tensor
///   each (`a·h` twice); under autocast each linear casts its fp32 input
///   anew (autocast caches only leaf weights), so `3·a·h + 2·a·h`;
///   `o_proj` saves the attention output, already counted;
/// - LoRA (frozen base linears save no input): each of the q, k, v, o
///   adapters saves the input of `lora_A`: peft's `_cast_input_dtype` fp32
///   copy (`4·in`) in pure 16-bit, the autocast cast (`a·in`) under amp;
///   with dropout also the dropout's `bool` mask (`1·in`); plus `lora_A`'s
///   output (`r` values) for `lora_B`;
/// - attention, flash, or sdpa with a KV cache object (no mask: flash
///   with `enable_gqa`): the kernel saves q, k, v, the output and the fp32
///   log-sum-exp: `a·(2q + 2k) + 4H`; sdpa in training without a cache
///   object (`use_cache=False` or checkpointing: transformers materializes
///   the mask) saves q, the `repeat_kv` copies of k and v, the output
///   (`a·(q + 2·kv + q)`, `kv = q` when `K < H`, else `k`), plus the
///   per-layer mask and padded log-sum-exp of [`masked_sdpa_per_layer`];
///   eager: the matmuls save q,
///   the `repeat_kv` copies of k and v (`a·q` each when `K < H`), the fp32
///   softmax output `4·H·T` and its `.to(a)` copy `a·H·T` (none in fp32),
///   Gemma 2's `tanh` softcap output `a·H·T`, and `o_proj`'s input
///   `a·q` when it trains;
/// - Qwen3 q/k norms: [`norm_saved_per_token`] over `q + k` (input `a`);
/// - MLP: `silu`/`gelu` saves the gate, `act * up` saves both, `down_proj`
///   saves the product when it trains: `4·a·I`, or `3·a·I` with LoRA.
pub fn layer_saved_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    layer_saved(arch, inputs).0
}

fn layer_saved(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let wd = widths(inputs);
    let (h, q, k, i) = (
        Sat::of(arch.hidden),
        Sat::of(arch.q_dim()),
        Sat::of(arch.kv_dim()),
        Sat::of(arch.intermediate),
    );
    let (a, t, heads) = (Sat::of(wd.a), Sat::of(inputs.seq_len), Sat::of(arch.heads));
    let full = inputs.step == StepKind::FullFinetune;

    let norm_inputs: &[u64] = if arch.norms_per_layer >= 4 {
        &[wd.s, wd.a, wd.s, wd.a]
    } else {
        &[wd.s, wd.s]
    };
    let norms: Sat = norm_inputs
        .iter()
        .map(|&b| norm_saved(arch.hidden, arch.norm_style, b, full))
        .sum();

    let projections = if full {
        let casts = if wd.autocast { 3 + 2 } else { 1 + 1 };
        casts * (a * h)
    } else if let Some((rank, dropout)) = lora(inputs.step) {
        lora_saved(arch, inputs, rank, dropout)
    } else {
        Sat::ZERO
    };

    let attention = match inputs.attn_impl {
        AttnImpl::Sdpa if masked_sdpa(inputs) => {
            let kv = if arch.kv_heads < arch.heads { q } else { k };
            a * (q + 2 * kv + q)
        }
        AttnImpl::Sdpa | AttnImpl::Flash => a * (2 * q + 2 * k) + 4 * heads,
        AttnImpl::Eager => {
            let keys_values = if arch.kv_heads < arch.heads {
                2 * (a * q)
            } else {
                2 * (a * k)
            };
            let softmax_copy = if wd.a < 4 { a } else { Sat::ZERO };
            let softcap = if arch.attn_logit_softcap {
                a
            } else {
                Sat::ZERO
            };
            let scores = (Sat::of(4) + softmax_copy + softcap) * heads * t;
            let o_input = if full { a * q } else { Sat::ZERO };
            a * q + keys_values + scores + o_input
        }
    };

    let qk_norms = if arch.qk_norm {
        let trainable_y = if full { a * (q + k) } else { Sat::ZERO };
        4 * (q + k) + 4 * (heads + Sat::of(arch.kv_heads)) + trainable_y
    } else {
        Sat::ZERO
    };

    let mlp = if full { 4 * (a * i) } else { 3 * (a * i) };

    norms + projections + attention + qk_norms + mlp
}

/// Whether sdpa runs with a materialized mask: in training without a KV
/// cache object.
///
/// transformers 4.57 `masking_utils.py`, `_preprocess_mask_arguments`:
/// without `past_key_values` (and without a 2-D `attention_mask`) it looks
/// for packed sequences in the `position_ids` the model always passes, and
/// `find_packed_sequence_indices` returns a tensor even for one unpacked
/// sequence; `create_causal_mask` then sets `allow_is_causal_skip = False`,
/// so `sdpa_mask` builds the `(B, 1, T, T)` boolean mask instead of
/// returning `None`. With a cache (`use_cache=True`, transformers' default,
/// outside checkpointing) the mask is skipped and sdpa runs `is_causal`.
fn masked_sdpa(inputs: &AllocatorInputs) -> bool {
    inputs.attn_impl == AttnImpl::Sdpa && !inputs.has_cache()
}

/// Bytes one sdpa layer saves for backward beyond its per-token share when
/// the mask is materialized ([`masked_sdpa`]); 0 otherwise.
///
/// # Formula
///
/// ```text
/// masked = B·T·⌈T/16⌉·16·a  +  B·H·⌈T/32⌉·32·4
/// ```
///
/// With a mask, `use_gqa_in_sdpa` is false (transformers
/// `integrations/sdpa_attention.py`), so k and v are `repeat_kv` copies
/// and flash, which takes no mask, gives way to the memory-efficient
/// kernel (torch `sdp_utils.cpp`, `can_use_flash_attention`). Each layer's
/// call converts the boolean mask into an additive one in the query's dtype
/// (torch `attention.cpp`, `convert_boolean_attn_mask`: `a` bytes per
/// element, a new tensor per call), padded to a multiple of 16 columns when
/// `T` is not one (`preprocess_mask`, `pad_bias<16>`); the efficient
/// kernel's backward saves it with q, k, v, the output and a log-sum-exp
/// of `(B, H, ⌈T/32⌉·32)` fp32 (`derivatives.yaml`,
/// `_scaled_dot_product_efficient_attention`; `kAlignLSE = 32`).
///
/// Llama-3.2-1B, bf16, `T` = 2048: `2048·2048·2 + 32·2048·4` =
/// 8,650,752 bytes per layer, 4,224 per token.
///
/// ```
/// use vramfit_core::methods::allocator::*;
/// use vramfit_core::scenario::Precision;
/// let arch = DenseArch::llama_3_2_1b();
/// let mut inputs = AllocatorInputs::training(
///     StepKind::FullFinetune, StepDtype::Bf16, Precision::Pure, 1, 2048, false);
/// assert_eq!(masked_sdpa_per_layer(&arch, &inputs), 0); // use_cache=True
/// inputs.use_cache = false;
/// assert_eq!(masked_sdpa_per_layer(&arch, &inputs), 8_650_752);
/// // The per-token share: q, the repeated k and v, the output (4 × 2 × 2048).
/// assert_eq!(layer_saved_per_token(&arch, &inputs), 108_680 - 10_368 + 16_384);
/// ```
pub fn masked_sdpa_per_layer(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    masked_sdpa_layer(arch, inputs).0
}

pub(super) fn masked_sdpa_layer(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    if !masked_sdpa(inputs) {
        return Sat::ZERO;
    }
    let (b, t) = (Sat::of(inputs.batch), Sat::of(inputs.seq_len));
    let a = Sat::of(widths(inputs).a);
    let mask_columns = Sat::of(inputs.seq_len.div_ceil(16).saturating_mul(16));
    let lse_rows = Sat::of(inputs.seq_len.div_ceil(32).saturating_mul(32));
    b * t * mask_columns * a + 4 * (b * Sat::of(arch.heads) * lse_rows)
}

/// LoRA's share of [`layer_saved_per_token`]: what the four adapters save.
fn lora_saved(arch: &DenseArch, inputs: &AllocatorInputs, rank: u64, dropout: bool) -> Sat {
    let wd = widths(inputs);
    let (h, q, a) = (Sat::of(arch.hidden), Sat::of(arch.q_dim()), Sat::of(wd.a));
    let mask = |width: Sat| if dropout { width } else { Sat::ZERO };
    let a_out_bytes = if wd.autocast { a } else { Sat::of(4) };
    let a_out = 4 * (Sat::of(rank) * a_out_bytes);
    let inputs_saved = if wd.autocast {
        // lora_A runs under autocast: the cast of its input is saved.
        3 * (a * h + mask(h)) + a * q + mask(q)
    } else if wd.a != 4 || dropout {
        // `x.to(float32)` (or the dropout output) per adapter.
        3 * (4 * h + mask(h)) + 4 * q + mask(q)
    } else {
        // fp32, no dropout: q, k, v adapters share the saved normed input;
        // o's input is the attention output, saved by sdpa, not by eager.
        4 * h
            + match inputs.attn_impl {
                AttnImpl::Eager => 4 * q,
                _ => Sat::ZERO,
            }
    };
    inputs_saved + a_out
}

/// Bytes per token the KV cache keeps beyond the tensors autograd saves, per
/// layer, in training with a cache object (`use_cache=True`, transformers'
/// default, without checkpointing, which turns it off): the output holds
/// the cache through the backward. Without one, nothing.
///
/// RoPE output has the residual dtype `s` (cos/sin are cast to the hidden
/// states' dtype), so the cached keys are `s·k`; the cached values are the
/// `v_proj` output, `a·k`. sdpa/flash save the cached tensors themselves
/// unless autocast casts the keys (`s ≠ a`): extra `s·k`. Eager saves the
/// `repeat_kv` copies instead, so with `K < H` the whole cache is extra.
pub fn cache_extra_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    cache_extra(arch, inputs).0
}

fn cache_extra(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    if inputs.step == StepKind::Inference || !inputs.has_cache() {
        return Sat::ZERO;
    }
    let wd = widths(inputs);
    let k = Sat::of(arch.kv_dim());
    match inputs.attn_impl {
        AttnImpl::Eager if arch.kv_heads < arch.heads => Sat::of(wd.s + wd.a) * k,
        _ if wd.s != wd.a => Sat::of(wd.s) * k,
        _ => Sat::ZERO,
    }
}

/// Bytes per token the final norm and the LM head save for backward: the
/// final norm ([`norm_saved_per_token`], input `s`) and, when the head
/// trains, its input (`a·h`: the norm output, or its autocast cast).
pub fn final_saved_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    final_saved(arch, inputs).0
}

fn final_saved(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let wd = widths(inputs);
    let full = inputs.step == StepKind::FullFinetune;
    let head_input = if full {
        Sat::of(wd.a) * Sat::of(arch.hidden)
    } else {
        Sat::ZERO
    };
    norm_saved(arch.hidden, arch.norm_style, wd.s, full) + head_input
}

/// Bytes per token of the logits chain at the start of the backward
/// (`LogSoftmaxBackward`): the logits the output keeps (`a·V`), and in fp32
/// the saved `log_softmax` output, the gradient from `nll_loss` and the
/// gradient being written (`3 × 4·V`). In bf16 that is seed 003's 14 bytes
/// per logit. Gemma 2's final softcap adds its saved `tanh` output (`a·V`).
/// Source: transformers `ForCausalLMLoss` (`logits.float()`), torch
/// `cross_entropy` = `log_softmax` + `nll_loss`.
pub fn logits_backward_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    logits_backward(arch, inputs).0
}

fn logits_backward(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let (a, v) = (Sat::of(widths(inputs).a), Sat::of(arch.vocab));
    let softcap = if arch.final_logit_softcap {
        a * v
    } else {
        Sat::ZERO
    };
    a * v + 12 * v + softcap
}

/// Bytes per token of the logits chain at `log_softmax` in the forward: the
/// kept logits (`a·V`), their fp32 upcast (`4·V`, none when already fp32)
/// and the `log_softmax` output (`4·V`), plus the softcap's `tanh` output.
pub fn logits_forward_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    logits_forward(arch, inputs).0
}

fn logits_forward(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let a_bytes = widths(inputs).a;
    let (a, v) = (Sat::of(a_bytes), Sat::of(arch.vocab));
    let upcast = if a_bytes == 4 { Sat::ZERO } else { 4 * v };
    let softcap = if arch.final_logit_softcap {
        a * v
    } else {
        Sat::ZERO
    };
    a * v + upcast + 4 * v + softcap
}

/// One candidate peak: activations and autocast copies alive at it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    pub(super) phase: Phase,
    pub(super) activations: Sat,
    pub(super) autocast: Sat,
}

/// Training candidates (checkpointed or not) at the loss forward, the
/// logits backward and, with checkpointing, a recomputed layer.
///
/// - layer stack: `N · L · (layer + cache extra)` without checkpointing
///   (LoRA: minus layer 0's first norm, whose input, the frozen embedding's
///   output, needs no gradient); `N · L · s·h` with reentrant
///   checkpointing, which saves each layer's input only;
/// - forward loss: stack + final norm + `last_hidden_state` (`s·h`, unless
///   the trainable head saves it anyway) + [`logits_forward_per_token`];
/// - logits backward: stack + final norm + [`logits_backward_per_token`];
/// - layer recompute: stack + one layer's activations + the kept logits
///   (`a·V`) + the gradient entering the layer (`s·h`);
/// - autocast copies (amp): every cast weight is saved by its linear
///   without checkpointing (`a · autocast params`, plus LoRA adapters);
///   with checkpointing the no_grad forward still fills autocast's cache
///   (trainable leaves only) until the context exits, after which only the
///   LM head's copy (`a·E`), saved by its linear, stays; a recomputed layer
///   holds its own copies;
/// - plus [`CUBLAS_WORKSPACE_BYTES`] in every phase.
pub(super) fn training_candidates(arch: &DenseArch, inputs: &AllocatorInputs) -> Vec<Candidate> {
    let wd = widths(inputs);
    let n = tokens(inputs);
    let (h, l, v) = (
        Sat::of(arch.hidden),
        Sat::of(arch.layers),
        Sat::of(arch.vocab),
    );
    let (a, s) = (Sat::of(wd.a), Sat::of(wd.s));
    let full = inputs.step == StepKind::FullFinetune;
    let lora_params = lora(inputs.step)
        .map(|(r, _)| Sat::of(arch.lora_params(r)))
        .unwrap_or(Sat::ZERO);
    let ws = Sat::of(CUBLAS_WORKSPACE_BYTES);

    let layer = layer_saved(arch, inputs);
    let final_norm = final_saved(arch, inputs);
    let forward_hidden = if full && !wd.autocast {
        Sat::ZERO
    } else {
        s * h
    };

    let masked = masked_sdpa_layer(arch, inputs);
    let stack = if inputs.grad_checkpoint {
        n * l * s * h
    } else {
        let first_norm = if full {
            Sat::ZERO
        } else {
            norm_saved(arch.hidden, arch.norm_style, wd.s, false)
        };
        n * (l * (layer + cache_extra(arch, inputs)) - first_norm) + l * masked
    };

    let (cast_forward, cast_backward, cast_layer) = if !wd.autocast {
        (Sat::ZERO, Sat::ZERO, Sat::ZERO)
    } else {
        let all = a * Sat::of(arch.autocast_params());
        let head = a * Sat::of(arch.embedding_params());
        let adapters = a * lora_params;
        let layer_casts =
            a * Sat::of(arch.layer_linear_params()) + adapters / Sat::of(arch.layers).0;
        match (full, inputs.grad_checkpoint) {
            (true, false) => (all, all, Sat::ZERO),
            (false, false) => (all + adapters, all + adapters, Sat::ZERO),
            (true, true) => (all, head, layer_casts),
            (false, true) => (head + adapters, head, layer_casts),
        }
    };

    let mut out = vec![
        Candidate {
            phase: Phase::ForwardLoss,
            activations: stack
                + n * (final_norm + forward_hidden + logits_forward(arch, inputs))
                + ws,
            autocast: cast_forward,
        },
        Candidate {
            phase: Phase::LogitsBackward,
            activations: stack + n * (final_norm + logits_backward(arch, inputs)) + ws,
            autocast: cast_backward,
        },
    ];
    if inputs.grad_checkpoint {
        out.push(Candidate {
            phase: Phase::LayerRecompute,
            activations: stack + n * (layer + a * v + s * h) + masked + ws,
            autocast: cast_layer,
        });
    }
    if full && arch.tied_embeddings {
        out.extend(tied_head_candidates(
            arch,
            inputs,
            stack,
            final_norm,
            cast_backward,
        ));
    }
    out
}

/// The two moments a tied head adds to full fine-tuning.
///
/// The head and the embedding share one weight, so its gradient has two
/// producers: the LM head's, at the start of the backward, and the
/// embedding's, at its very end. The autograd engine keeps the first in the
/// weight's input buffer until the second arrives (torch
/// `autograd/input_buffer.cpp`, `InputBuffer::add`), then adds the second
/// into it in place (`accumulate`: the buffered tensor is dense and its
/// last reference), and `AccumulateGrad` adds the sum into the existing
/// `.grad` in place (a steady-state step). Both gradients are in the
/// weight's dtype `w` (under amp the head's bf16 gradient is cast back by
/// `ToCopyBackward`). The bf16 logits the output keeps (`a·V` per token)
/// stay alive throughout.
///
/// # Formula
///
/// ```text
/// head gradient held:  stack + N·(final norm + a·V + a·h + s·h) + E·w
/// embedding backward:  N·a·V + 2·E·w
/// ```
///
/// `E = V·h`. The first is the decoder layers' backward starting (the
/// gradient entering the final norm, `a·h`, and leaving it, `s·h`) while
/// the head's gradient waits; the second, the last node of the step, when
/// every saved activation is gone. They matter for short sequences on
/// models whose embedding is large for their size, where the logits chain
/// (`N·V·(a + 12)`) is small.
fn tied_head_candidates(
    arch: &DenseArch,
    inputs: &AllocatorInputs,
    stack: Sat,
    final_norm: Sat,
    cast_backward: Sat,
) -> [Candidate; 2] {
    let wd = widths(inputs);
    let n = tokens(inputs);
    let (a, s, w) = (Sat::of(wd.a), Sat::of(wd.s), Sat::of(wd.w));
    let (h, v) = (Sat::of(arch.hidden), Sat::of(arch.vocab));
    let e = Sat::of(arch.embedding_params());
    let ws = Sat::of(CUBLAS_WORKSPACE_BYTES);
    let kept_logits = n * a * v;
    [
        Candidate {
            phase: Phase::HeadGradient,
            activations: stack + n * (final_norm + a * h + s * h) + kept_logits + e * w + ws,
            autocast: cast_backward,
        },
        Candidate {
            phase: Phase::EmbeddingBackward,
            activations: kept_logits + 2 * (e * w) + ws,
            autocast: Sat::ZERO,
        },
    ]
}

/// Bytes per score of eager attention's transient peak in a `no_grad`
/// forward: bf16 keeps the masked scores, their fp32 copy (`softmax` with
/// `dtype=float32` converts first, torch `SoftMax.cpp`) and the fp32 result
/// (2 + 4 + 4); fp16 takes the fused half-to-float kernel, so the peak is
/// the scores, the fp32 result and its fp16 copy (2 + 4 + 2); fp32 keeps
/// the scores and the result (4 + 4).
pub fn eager_scores_peak_bytes(dtype: StepDtype) -> u128 {
    match dtype {
        StepDtype::Bf16 => 10,
        StepDtype::Fp16 | StepDtype::Fp32 => 8,
    }
}

/// Inference candidates: the last layer's attention, its MLP, and the LM
/// head (all layers' KV cache exists at each; it is reported apart).
///
/// - LM head: the final norm output and the logits of every position
///   (`logits_to_keep=0`), `a·(h + V)` per token; Gemma 2's softcap keeps a
///   second logits tensor while it rescales;
/// - MLP: the embedding output (a local of the model's forward), the layer
///   input, the residual and the normed input (`4·a·h`) plus `act`, `up`
///   and their product (`3·a·I`);
/// - attention, eager: the embedding output, the layer input and its normed
///   copy (`3·a·h`), q and the `repeat_kv` copies, the `(B,1,T,T)` mask and
///   [`eager_scores_peak_bytes`] per score; sdpa/flash: the same hidden
///   tensors, q and the output;
/// - plus [`CUBLAS_WORKSPACE_BYTES`].
pub(super) fn inference_candidates(arch: &DenseArch, inputs: &AllocatorInputs) -> Vec<Candidate> {
    let a = Sat::of(widths(inputs).a);
    let n = tokens(inputs);
    let (h, q, i, v) = (
        Sat::of(arch.hidden),
        Sat::of(arch.q_dim()),
        Sat::of(arch.intermediate),
        Sat::of(arch.vocab),
    );
    let (b, t) = (Sat::of(inputs.batch), Sat::of(inputs.seq_len));
    let ws = Sat::of(CUBLAS_WORKSPACE_BYTES);
    let softcap = if arch.final_logit_softcap {
        a * v
    } else {
        Sat::ZERO
    };
    let attention = match inputs.attn_impl {
        AttnImpl::Eager => {
            let copies = if arch.kv_heads < arch.heads {
                2 * q
            } else {
                Sat::ZERO
            };
            let scores = Sat(eager_scores_peak_bytes(inputs.dtype));
            n * a * (3 * h + q + copies) + b * t * t * a + b * Sat::of(arch.heads) * t * t * scores
        }
        AttnImpl::Sdpa | AttnImpl::Flash => n * a * (3 * h + 2 * q),
    };
    [
        (Phase::PrefillLogits, n * (a * (h + v) + softcap)),
        (Phase::PrefillMlp, n * a * (4 * h + 3 * i)),
        (Phase::PrefillAttention, attention),
    ]
    .into_iter()
    .map(|(phase, bytes)| Candidate {
        phase,
        activations: bytes + ws,
        autocast: Sat::ZERO,
    })
    .collect()
}
