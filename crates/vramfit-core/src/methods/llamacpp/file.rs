//! A GGUF file's own tensors in place of the converter's inventory and the
//! quantizer's recipe ([`super::tensors`], [`super::quant`]): each tensor
//! with the type and bytes the file gives it, and what it is to the loader
//! (its block, its role, whether it is a routed expert), read from its
//! name as llama.cpp names tensors (`src/llama-arch.cpp`,
//! `LLM_TENSOR_NAMES`).

use super::arch::{self, Arch, Layout};
use super::refusal::LlamaCppRefusal;
use super::tensors::{GgufTensor, Role};
use super::{FileType, GgmlType, LlamaCppInputs, QuantOptions};
use super::{Prepared, TypeCount};
use crate::gguf::model::{FileTensor, Projector};
use crate::gguf::writer::Writer;
use crate::gguf::{Value, ValueType};
use crate::model::AttentionKind;
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
    /// metadata describes; the cache layouts from the build `inputs` name.
    pub(crate) fn from_file(
        model: &ModelSpec,
        file: &[FileTensor],
        inputs: &LlamaCppInputs,
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
        Prepared::of(layout, tensors, (size, elements), counts, inputs)
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

/// A vision projector loaded beside the model (`llama-server --mmproj
/// FILE`): its tensors in one buffer on the GPU, as `tools/mtmd`'s
/// `clip_model_loader` places them unless `--no-mmproj-offload`, and the
/// compute buffers its scheduler reserves for the warm-up image
/// ([`super::clip::compute`]); the estimate was fitted to `gpu_memory`
/// less both.
///
/// # Formula
///
/// ```text
/// GPU weights = model buffer (GPU) + P        P = Σ ggml_nbytes of the mmproj file's tensors
/// GPU compute = llama.cpp's + clip's GPU buffer; host compute = llama.cpp's + clip's CPU buffer
/// ```
pub(crate) fn with_projector(
    e: &mut super::LlamaCppEstimate,
    p: &Projector,
    clip: Option<&super::clip::ClipCompute>,
    gpu_memory: u64,
) {
    let (gpu_c, host_c) = clip.map_or((0, 0), |c| (c.gpu_bytes, c.host_bytes));
    for side in [&mut e.gpu, &mut e.all_layers_gpu] {
        side.weights = side.weights.saturating_add(p.bytes);
        side.compute = side.compute.saturating_add(gpu_c);
        side.total = side.total.saturating_add(p.bytes).saturating_add(gpu_c);
    }
    e.host.compute = e.host.compute.saturating_add(host_c);
    e.host.total = e.host.total.saturating_add(host_c);
    e.host_bytes = e.host.total;
    e.gpu_bytes = e.gpu.total;
    e.compute_buffer_bytes = e
        .compute_buffer_bytes
        .saturating_add(gpu_c)
        .saturating_add(host_c);
    if let Some(fit) = e.fit.as_mut() {
        fit.gpu_memory_bytes = gpu_memory;
    }
    e.command.push_str(&format!(" --mmproj {}", p.file));
}

/// The header of the file llama.cpp's tools would write for a model: the
/// converter's metadata (`gguf-py/gguf/constants.py` keys: blocks, context,
/// widths, heads, key length, sliding window, experts, and a full
/// vocabulary of placeholder tokens) and the recipe's tensors of
/// `file_type`, each typed by `retype` from the recipe's type (a mixed
/// file). Tests and tools write files with it; its data is left out.
pub fn converted(
    s: &ModelSpec,
    file_type: FileType,
    retype: impl Fn(&GgufTensor, GgmlType) -> GgmlType,
) -> Result<Writer, LlamaCppRefusal> {
    let layout = Layout::of(s)?;
    let mut w = Writer::new();
    metadata(&mut w, layout.arch, s, layout.n_vocab);
    let number = (0..64).find(|&n| FileType::from_llama_ftype(n) == Some(file_type));
    if let Some(n) = number {
        w.kv("general.file_type", u32v(n));
    }
    for (t, ty) in super::gguf_tensors(s, file_type, QuantOptions::default())? {
        let dims = match t.ne {
            [a, 1, 1] => vec![a],
            [a, b, 1] => vec![a, b],
            [a, b, c] => vec![a, b, c],
        };
        let ty = retype(&t, ty);
        w.tensor(&t.name, &dims, ty)
            .ok_or(LlamaCppRefusal::NoTypeFallback {
                tensor: t.name.clone(),
                row: t.ne[0],
                ggml_type: ty,
            })?;
    }
    Ok(w)
}

fn u32v(n: u64) -> Value {
    Value::U32(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The metadata the converter writes for a model.
fn metadata(w: &mut Writer, arch: Arch, s: &ModelSpec, n_vocab: u64) {
    let a = arch.gguf_name();
    let k = |key: &str| format!("{a}.{key}");
    w.kv("general.architecture", Value::String(a.into()))
        .kv(&k("block_count"), u32v(s.num_layers))
        .kv(&k("context_length"), u32v(s.max_context.unwrap_or(0)))
        .kv(&k("embedding_length"), u32v(s.hidden_size))
        .kv(&k("attention.head_count"), u32v(s.num_attention_heads));
    if s.mla.is_none() {
        w.kv(&k("attention.head_count_kv"), u32v(s.num_kv_heads))
            .kv(&k("attention.key_length"), u32v(s.head_dim))
            .kv(&k("attention.value_length"), u32v(s.head_dim));
    }
    if let Some(ff) = s.intermediate_size {
        w.kv(&k("feed_forward_length"), u32v(ff));
    }
    let window = s.attention.iter().find_map(|a| {
        if let AttentionKind::SlidingWindow { window } = a {
            return Some(*window);
        }
        None
    });
    if let Some(window) = window {
        w.kv(&k("attention.sliding_window"), u32v(window));
    }
    if let Some(mla) = s.mla {
        let rank = mla.kv_lora_rank;
        w.kv(&k("attention.head_count_kv"), u32v(1))
            .kv(&k("attention.kv_lora_rank"), u32v(rank))
            .kv(&k("rope.dimension_count"), u32v(mla.qk_rope_head_dim))
            .kv(
                &k("attention.key_length"),
                u32v(rank + mla.qk_rope_head_dim),
            )
            .kv(&k("attention.value_length"), u32v(rank))
            .kv(&k("attention.key_length_mla"), u32v(mla.qk_head_dim()))
            .kv(&k("attention.value_length_mla"), u32v(mla.v_head_dim));
        if let Some(q) = mla.q_lora_rank {
            w.kv(&k("attention.q_lora_rank"), u32v(q));
        }
        let dense = s
            .ffn
            .iter()
            .take_while(|f| **f == crate::model::FfnKind::Dense);
        w.kv(&k("leading_dense_block_count"), u32v(dense.count() as u64));
    }
    if let Some(m) = s.moe.as_ref() {
        if m.shared_intermediate > 0 {
            let shared = m.shared_intermediate / m.expert_intermediate.max(1);
            w.kv(&k("expert_shared_count"), u32v(shared));
        }
        w.kv(&k("expert_count"), u32v(m.routed_experts))
            .kv(&k("expert_used_count"), u32v(m.experts_per_token))
            .kv(
                &k("expert_feed_forward_length"),
                u32v(m.expert_intermediate),
            );
    }
    let tokens = (0..n_vocab)
        .map(|i| Value::String(format!("<tok{i}>")))
        .collect();
    w.kv(
        "tokenizer.ggml.tokens",
        Value::Array {
            item: ValueType::String,
            values: tokens,
        },
    );
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
