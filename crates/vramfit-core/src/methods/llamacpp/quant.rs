//! The type `llama-quantize` gives each tensor for a file type.
//!
//! A file type is a recipe: the default type of [`FileType::default_type`]
//! for most matrices, more bits where quantization hurts most (the output
//! head, `attn_v` and `ffn_down` of some layers), f32 for what is never
//! quantized, and a fallback when a row is not a whole number of blocks.
//!
//! Source: llama.cpp `src/llama-quant.cpp`: `tensor_allows_quantization`,
//! `llama_tensor_get_type` and `llama_tensor_get_type_impl` (the per-
//! category rules), `tensor_type_fallback`, and the counters
//! `i_attention_wv` / `n_attention_wv` set up by
//! `init_quantize_state_counters`. Tensors are visited in the loader's
//! order (`weight_name_comparer`: model-wide first, then by block). The
//! rules for file types outside [`FileType`] (IQ1–IQ3, TQ) are not
//! reproduced.

use super::arch::Layout;
use super::ftype::FileType;
use super::ggml_type::GgmlType;
use super::refusal::LlamaCppRefusal;
use super::tensors::{GgufTensor, Role};

/// Options of `llama-quantize` that change the recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QuantOptions {
    /// An importance matrix was given (`--imatrix`): IQ4_XS then keeps
    /// its first `ffn_down` layers in iq4_xs, Q4_0 / Q5_0 move them to
    /// q4_1 / q5_1.
    pub imatrix: bool,
}

/// `use_more_bits(i, n)`: the first and last eighth of the layers, and
/// every third layer in between, get more bits.
///
/// # Formula
///
/// ```text
/// more(i, n) = i < n/8  ∨  i ≥ 7n/8  ∨  (i − n/8) mod 3 = 2       (integer division)
/// ```
///
/// `i` the tensor's index among its kind (the layer for `ffn_down`), `n`
/// their count. Source: `src/llama-quant.cpp`, `use_more_bits`.
///
/// ```
/// use vramfit_core::methods::llamacpp::use_more_bits;
/// // Llama-3.1-8B (32 layers): layers 0-3, 6, 9, …, 27, 28-31.
/// let more: Vec<u64> = (0..32).filter(|&i| use_more_bits(i, 32)).collect();
/// assert_eq!(more, [0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31]);
/// ```
pub const fn use_more_bits(i: u64, n: u64) -> bool {
    i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2
}

/// The recipe's state while walking the tensors.
struct Walk<'a> {
    layout: &'a Layout,
    ftype: FileType,
    options: QuantOptions,
    /// attn_v-like tensors in the file (`n_attention_wv`).
    n_attention_wv: u64,
    /// attn_v-like tensors seen so far (`i_attention_wv`).
    i_attention_wv: u64,
    /// `ffn_down` tensors seen so far (`i_ffn_down`, dense models).
    i_ffn_down: u64,
}

/// Whether a tensor counts as `attn_v` for the recipe: `attn_v`, the
/// fused `attn_qkv` and DeepSeek's legacy `attn_kv_b` (`category_is_attn_v`).
const fn attn_v_like(role: Role) -> bool {
    matches!(role, Role::AttnV | Role::AttnQkv)
}

/// The type of every tensor, in order.
pub(crate) fn choose_types(
    layout: &Layout,
    tensors: &[GgufTensor],
    ftype: FileType,
    options: QuantOptions,
) -> Result<Vec<GgmlType>, LlamaCppRefusal> {
    let mut walk = Walk {
        layout,
        ftype,
        options,
        n_attention_wv: tensors.iter().filter(|t| attn_v_like(t.role)).count() as u64,
        i_attention_wv: 0,
        i_ffn_down: 0,
    };
    tensors.iter().map(|t| walk.choose(t)).collect()
}

impl Walk<'_> {
    /// `llama_tensor_get_type`: non-quantizable tensors keep the
    /// converter's f32; float file types store every other tensor in
    /// their float; quantized ones follow the rules, then the fallback.
    fn choose(&mut self, t: &GgufTensor) -> Result<GgmlType, LlamaCppRefusal> {
        if !t.role.quantizable() {
            return Ok(GgmlType::F32);
        }
        let default = self.ftype.default_type();
        if !default.is_quantized() {
            return Ok(default);
        }
        let chosen = self.rules(t, default);
        fallback(t, chosen)
    }

    /// `llama_tensor_get_type_impl`, for the file types of [`FileType`].
    fn rules(&mut self, t: &GgufTensor, default: GgmlType) -> GgmlType {
        use FileType as F;
        use GgmlType as G;
        let l = self.layout;
        let ft = self.ftype;
        let tied_embd = l.tied && t.role == Role::TokenEmbd;
        if t.role == Role::Output || tied_embd {
            // The output head (or the embedding that serves as one).
            return if ft == F::MXFP4_MOE || !t.ne[0].is_multiple_of(default.block_size()) {
                G::Q8_0
            } else if default != G::Q8_0 {
                G::Q6_K
            } else {
                default
            };
        }
        if ft == F::MXFP4_MOE {
            // Experts (3-D) in mxfp4, every other matrix in q8_0.
            return if t.ne[2] > 1 { G::MXFP4 } else { G::Q8_0 };
        }
        match t.role {
            Role::TokenEmbd => default,
            r if attn_v_like(r) => self.attn_v(default),
            Role::AttnK if l.n_expert == 8 => G::Q8_0,
            Role::FfnDown => self.ffn_down(t, default),
            Role::AttnOutput => self.attn_output(default),
            _ => default,
        }
    }

    /// The `attn_v` rule: more bits for the first tensors (Q3_K_M, Q4_K_S),
    /// for `use_more_bits` ones (Q4_K_M, Q5_K_M), for grouped KV heads
    /// (Q2_K, IQ4_XS), for 70B models and for 8-expert models.
    fn attn_v(&mut self, default: GgmlType) -> GgmlType {
        use FileType as F;
        use GgmlType as G;
        let l = self.layout;
        let (i, n) = (self.i_attention_wv, self.n_attention_wv);
        let gqa4 = l.n_gqa() >= 4;
        let mut t = match self.ftype {
            F::Q2_K => match gqa4 {
                true => G::Q4_K,
                false => G::Q3_K,
            },
            F::Q3_K_M => match i < 2 {
                true => G::Q5_K,
                false => G::Q4_K,
            },
            F::Q3_K_L => G::Q5_K,
            F::IQ4_XS if gqa4 => G::Q5_K,
            F::Q4_K_M | F::Q5_K_M if use_more_bits(i, n) => G::Q6_K,
            F::Q4_K_S if i < 4 => G::Q5_K,
            _ => default,
        };
        if l.type_70b && matches!(t, G::Q3_K | G::Q4_K) {
            t = G::Q5_K;
        }
        if l.n_expert == 8 {
            t = G::Q8_0;
        }
        self.i_attention_wv += 1;
        t
    }

    /// The `ffn_down` rule, by layer: the block index for expert models
    /// (parsed from the name), the running count for dense ones; `n` is
    /// the number of blocks.
    fn ffn_down(&mut self, t: &GgufTensor, default: GgmlType) -> GgmlType {
        use FileType as F;
        use GgmlType as G;
        let l = self.layout;
        let n = l.n_layer;
        let i = match l.n_expert > 1 {
            true => t.layer.unwrap_or(0),
            false => self.i_ffn_down,
        };
        self.i_ffn_down += 1;
        match self.ftype {
            F::Q2_K => G::Q3_K,
            F::Q3_K_M => match i < n / 16 {
                true => G::Q5_K,
                false => G::Q4_K,
            },
            F::Q3_K_L => G::Q5_K,
            F::Q4_K_M => match use_more_bits(i, n) {
                true => G::Q6_K,
                false => default,
            },
            F::IQ4_XS if i < n / 8 && !self.options.imatrix => G::Q5_K,
            F::Q5_K_M if use_more_bits(i, n) => G::Q6_K,
            F::Q4_K_S if i < n / 8 => G::Q5_K,
            F::Q4_0 if self.options.imatrix && i < n / 8 => G::Q4_1,
            F::Q5_0 if self.options.imatrix && i < n / 8 => G::Q5_1,
            _ => default,
        }
    }

    /// The `attn_output` rule: q5_K in 8-expert models for the small
    /// k-quants, more bits in Q2_K and the Q3_K mixes otherwise.
    fn attn_output(&self, default: GgmlType) -> GgmlType {
        use FileType as F;
        use GgmlType as G;
        if self.layout.n_expert == 8 {
            return match self.ftype {
                F::Q2_K | F::Q3_K_S | F::Q3_K_M | F::Q4_K_S | F::Q4_K_M | F::IQ4_XS => G::Q5_K,
                _ => default,
            };
        }
        match self.ftype {
            F::Q2_K => G::Q3_K,
            F::Q3_K_M => G::Q4_K,
            F::Q3_K_L => G::Q5_K,
            _ => default,
        }
    }
}

/// `tensor_type_fallback`: a row that is not a whole number of blocks
/// moves to a 32-value type of similar size, else to f16; a 32-value type
/// with no fallback stops the quantizer.
fn fallback(t: &GgufTensor, chosen: GgmlType) -> Result<GgmlType, LlamaCppRefusal> {
    use GgmlType as G;
    let row = t.ne[0];
    if row.is_multiple_of(chosen.block_size()) {
        return Ok(chosen);
    }
    let next = match chosen {
        G::IQ4_XS => G::IQ4_NL,
        G::Q2_K | G::Q3_K => G::Q4_0,
        G::Q4_K => G::Q5_0,
        G::Q5_K => G::Q5_1,
        G::Q6_K => G::Q8_0,
        other => {
            return Err(LlamaCppRefusal::NoTypeFallback {
                tensor: t.name.clone(),
                row,
                ggml_type: other,
            })
        }
    };
    Ok(match row.is_multiple_of(next.block_size()) {
        true => next,
        false => G::F16,
    })
}
