//! A GGUF file's own tensors in place of the converter's inventory and the
//! quantizer's recipe ([`super::tensors`], [`super::quant`]): each tensor
//! with the type and bytes the file gives it, and what it is to the loader
//! (its block, its role, whether it is a routed expert), read from its
//! name as llama.cpp names tensors (`src/llama-arch.cpp`,
//! `LLM_TENSOR_NAMES`).

use super::arch::{self, Layout};
use super::refusal::LlamaCppRefusal;
use super::tensors::{GgufTensor, Role};
use super::{Prepared, TypeCount};
use crate::gguf::model::FileTensor;
use crate::model::ModelSpec;

/// What a tensor of the file is to the loader, from its name and shape.
///
/// ```
/// use vramfit_core::gguf::model::FileTensor;
/// use vramfit_core::gguf::GgmlType;
/// use vramfit_core::methods::llamacpp::{file::tensor_of, Role};
/// let t = tensor_of(&FileTensor {
///     name: "blk.3.ffn_down_exps.weight".into(),
///     ggml_type: GgmlType::IQ2_XXS,
///     ne: vec![768, 2048, 128],
///     bytes: 0,
/// });
/// assert_eq!((t.layer, t.role, t.expert), (Some(3), Role::FfnDown, true));
/// ```
pub fn tensor_of(t: &FileTensor) -> GgufTensor {
    let (layer, rest) = match t.name.strip_prefix("blk.") {
        Some(tail) => match tail.split_once('.') {
            Some((n, rest)) => (n.parse::<u64>().ok(), rest),
            None => (None, tail),
        },
        None => (None, t.name.as_str()),
    };
    let (base, suffix) = rest.rsplit_once('.').unwrap_or((rest, ""));
    let matrix = t.ne.len() >= 2 && suffix == "weight";
    let role = match (layer, base) {
        (None, "token_embd") => Role::TokenEmbd,
        (None, "output") => Role::Output,
        (None, "position_embd") => Role::PosEmbd,
        (_, b) if b.contains("norm") => Role::Norm,
        (_, b) if b.starts_with("ffn_gate_inp") => Role::Router,
        _ if !matrix => Role::Vector,
        (_, "attn_q") => Role::AttnQ,
        (_, "attn_k") => Role::AttnK,
        (_, "attn_v") => Role::AttnV,
        (_, "attn_qkv") => Role::AttnQkv,
        (_, "attn_output") => Role::AttnOutput,
        (_, b) if b.starts_with("ffn_gate") => Role::FfnGate,
        (_, b) if b.starts_with("ffn_up") => Role::FfnUp,
        (_, b) if b.starts_with("ffn_down") => Role::FfnDown,
        _ => Role::AttnOther,
    };
    let dim = |i: usize| t.ne.get(i).copied().unwrap_or(1);
    GgufTensor {
        name: t.name.clone(),
        layer,
        role,
        // ggml's fourth dimension folds into the third: only whole rows
        // and their count matter here.
        ne: [dim(0), dim(1), dim(2).saturating_mul(dim(3))],
        expert: base.ends_with("_exps"),
    }
}

impl Prepared {
    /// The model's file prepared from the file's own tensors; the layout
    /// (layers, heads, windows, experts) from the model the file's
    /// metadata describes.
    pub(crate) fn from_file(
        model: &ModelSpec,
        file: &[FileTensor],
    ) -> Result<Prepared, LlamaCppRefusal> {
        let layout = Layout::of(model)?;
        check_blocks(model, &layout, file)?;
        let mut counts: Vec<TypeCount> = Vec::new();
        let mut tensors = Vec::with_capacity(file.len());
        let (mut size, mut elements) = (0u64, 0u64);
        for f in file {
            let t = tensor_of(f);
            size = size.saturating_add(f.bytes);
            elements = elements.saturating_add(f.ne.iter().product());
            match counts.iter_mut().find(|c| c.ggml_type == f.ggml_type) {
                Some(c) => {
                    c.tensors += 1;
                    c.bytes = c.bytes.saturating_add(f.bytes);
                }
                None => counts.push(TypeCount {
                    ggml_type: f.ggml_type,
                    tensors: 1,
                    bytes: f.bytes,
                }),
            }
            tensors.push((t, f.bytes));
        }
        counts.sort_by_key(|c| c.ggml_type);
        Ok(Prepared {
            layout,
            tensors,
            model_size: size,
            n_elements: elements,
            tensor_types: counts,
        })
    }
}

/// Every `blk.N` of the file is one of the model's layers: a file whose
/// tensors name more blocks than its metadata states is refused rather
/// than placed half on no device.
fn check_blocks(
    model: &ModelSpec,
    layout: &Layout,
    file: &[FileTensor],
) -> Result<(), LlamaCppRefusal> {
    let beyond = file
        .iter()
        .filter_map(|f| tensor_of(f).layer)
        .any(|l| l >= layout.n_layer);
    match beyond {
        false => Ok(()),
        true => Err(LlamaCppRefusal::UnsupportedLayout {
            model_type: model.model_type.clone(),
            what: arch::LayoutProblem::TensorCount,
        }),
    }
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
