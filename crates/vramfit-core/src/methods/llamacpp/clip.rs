//! The vision projector's compute buffer (`llama-server --mmproj FILE`):
//! the graph `tools/mtmd` reserves at load for one warm-up image, laid out
//! by ggml's allocator ([`super::graph`], [`super::ggml_alloc`]).
//!
//! Sources (llama.cpp, `tools/mtmd/`, 2025–26): `clip.cpp` (`clip_ctx`:
//! the GPU backend first, the CPU last, `ggml_backend_sched_new(…,
//! parallel = false, op_offload = true)`; `load_hparams`: the warm-up
//! size per projector type; `warmup` / `alloc_compute_meta`: the graph of
//! one `warmup_image_size`² image reserved with flash attention tried
//! first; `build_inp`, `build_vit`, `build_norm`, `build_ffn`,
//! `build_attn`, `build_rope_2d`, `build_patch_merge_permute`),
//! `clip-model.h` (`set_limit_image_tokens`, `set_warmup_n_tokens`),
//! `models/siglip.cpp` (Gemma 3, Idefics 3), `models/llava.cpp` (LLaVA's
//! MLP), `models/qwen2vl.cpp` (Qwen2-VL, Qwen2.5-VL), `models/pixtral.cpp`
//! (Pixtral, Mistral 3); `ggml/src/ggml.c` (`ggml_conv_2d` = `im2col`,
//! a product, a `cont`); `ggml/src/ggml-backend.cpp` (graph inputs on the
//! CPU, copied to the GPU at the start of the split that reads them).
//!
//! # Formula
//!
//! The warm-up image is `S × S` (`warmup_image_size`):
//!
//! ```text
//! gemma3, idefics3, mlp, mlp_norm:    S = clip.vision.image_size
//! qwen2vl_merger, qwen2.5vl_merger:   S = 46 · patch · m       m = spatial_merge_size (2)
//! pixtral:                            S = 16 · patch · m       m = spatial_merge_size (1)
//! ```
//!
//! with `N = (S / patch)²` patches of `E = n_embd` values, `h` heads. The
//! graph, f32 activations, is built node by node as the file's tensors
//! make it (a bias, a norm weight, a gate only where the file has one) and
//! replayed in ggml's order (each `build_attn` expands Q, K, V first):
//!
//! ```text
//! patches   im2col [3·p²·N] (kernel type), product [N·E], cont [N·E], transpose cont [N·E]
//! layer     norm [N·E] (LayerNorm new, RMS in place), ·w, +b in place
//!           q, k, v = W·x [N·E] each, +b in place, rope (Qwen: in place; Pixtral: 2 halves + concat)
//! flash     K, V cast to f16 [N·E]·2 bytes each, out [N·E]
//! no flash  V cont [N·E], K·Q [N·N·h], softmax in place, V·KQ [N·E], cont [N·E]
//!           W_o [N·E], +x in place, norm, up [N·F] (gate: glu [N·F]), act in place, down [N·E], +x
//! project   gemma3: cont, avg pool /n_merge², cont, rms ·w, Wᵀ cont (its bytes), W·x
//!           idefics3: pixel shuffle (2 conts), fc; mlp: get_rows, mm.0, gelu, mm.2;
//!           qwen: window get_rows (in and out), merger mm.0, gelu, mm.1;
//!           pixtral: rms ·w, cont, im2col, merger, mm.1, gelu, mm.2, [IMG_BREAK] concat
//! ```
//!
//! The GPU buffer is the allocator's high-water mark over the nodes and
//! the copies of the inputs; the CPU buffer holds the graph inputs
//! (`inp_raw` = `S²·3·4` bytes, positions, Qwen 2.5-VL's window mask of
//! `N²·4` bytes). Worked example (this file's tests): a Gemma 3 projector
//! (SigLIP so400m/14 at 896, 27 layers) has `N` = 4,096, and without flash
//! attention its largest node is K·Q, `4096² · 16 · 4` = 1,073,741,824
//! bytes; the CPU buffer is `896² · 3 · 4` = 9,633,792 bytes (9.19 MiB).

use super::graph::{Builder, Placement};
use crate::gguf::model::{ClipVision, FileTensor, Projector};
use serde::Serialize;
use std::collections::HashMap;

/// Bytes of an f32.
const F32: u64 = 4;
/// The projector's GPU (backend 0 of its scheduler).
const GPU: usize = 0;

/// The projector graphs replayed, by `clip.projector_type`.
pub const PROJECTOR_TYPES: [&str; 7] = [
    "gemma3",
    "idefics3",
    "mlp",
    "mlp_norm",
    "qwen2vl_merger",
    "qwen2.5vl_merger",
    "pixtral",
];

/// The graph a projector type builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gemma3,
    Idefics3,
    Llava,
    Qwen2Vl,
    Qwen25Vl,
    Pixtral,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        Some(match name {
            "gemma3" => Kind::Gemma3,
            "idefics3" => Kind::Idefics3,
            "mlp" | "mlp_norm" => Kind::Llava,
            "qwen2vl_merger" => Kind::Qwen2Vl,
            // `qwen2.5o` is read as its vision half.
            "qwen2.5vl_merger" | "qwen2.5o" => Kind::Qwen25Vl,
            "pixtral" => Kind::Pixtral,
            _ => return None,
        })
    }
}

/// The projector's compute buffers for its warm-up image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClipCompute {
    /// `warmup_image_size`: the side of the square image reserved for.
    pub warmup_image_size: u64,
    /// Patches of that image (`(S / patch)²`).
    pub patches: u64,
    /// Whether the graph was reserved with flash attention.
    pub flash_attn: bool,
    /// The GPU's compute buffer (`CUDA0 compute buffer size`).
    pub gpu_bytes: u64,
    /// The CPU's (`CPU compute buffer size`): the graph inputs.
    pub host_bytes: u64,
}

/// Why a projector's compute buffer is not sized.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum ClipRefusal {
    /// A `clip.projector_type` whose graph is not replayed (or none).
    ProjectorType { name: Option<String> },
    /// The file states no vision shape (`clip.vision.*`), or one the graph
    /// cannot be built on (no heads, a patch larger than the image).
    NoVisionShape,
    /// A tensor the type's graph needs is not in the file.
    MissingTensor { name: String },
}

impl std::fmt::Display for ClipRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClipRefusal::ProjectorType { name: Some(n) } => write!(
                f,
                "projector type `{n}`: its graph is not replayed (replayed: {})",
                PROJECTOR_TYPES.join(", ")
            ),
            ClipRefusal::ProjectorType { name: None } => {
                f.write_str("the file states no clip.projector_type")
            }
            ClipRefusal::NoVisionShape => {
                f.write_str("the file states no usable vision shape (clip.vision.*)")
            }
            ClipRefusal::MissingTensor { name } => write!(f, "the file has no tensor `{name}`"),
        }
    }
}

/// The warm-up image's side for a projector type (`load_hparams`).
fn warmup_size(kind: Kind, v: &ClipVision) -> u64 {
    match kind {
        Kind::Gemma3 | Kind::Idefics3 | Kind::Llava => v.image_size,
        // set_warmup_n_tokens(46·46) after set_limit_image_tokens(8, 4096)
        Kind::Qwen2Vl | Kind::Qwen25Vl => 46 * v.patch_size * v.spatial_merge_size.unwrap_or(2),
        // set_warmup_n_tokens(256) after set_limit_image_tokens(8, 1024)
        Kind::Pixtral => 16 * v.patch_size * v.spatial_merge_size.unwrap_or(1).max(1),
    }
}

/// The compute buffers `tools/mtmd` reserves for projector `p` at load,
/// with flash attention or without (`-fa`, which llama-server passes on
/// to the projector: `auto` tries it first and keeps it where the
/// backend runs it).
pub fn compute(p: &Projector, flash_attn: bool) -> Result<ClipCompute, ClipRefusal> {
    let name = p.projector_type.clone();
    let kind = name
        .as_deref()
        .and_then(Kind::of)
        .ok_or(ClipRefusal::ProjectorType { name })?;
    let v = p.vision.as_ref().ok_or(ClipRefusal::NoVisionShape)?;
    let size = warmup_size(kind, v);
    let patch = v.patch_size;
    if v.n_head == 0 || v.n_embd == 0 || patch == 0 || size < patch || v.n_layer > 1 << 10 {
        return Err(ClipRefusal::NoVisionShape);
    }
    let side = size / patch;
    let weights: HashMap<String, (Option<usize>, u64)> = p
        .tensor_list
        .iter()
        .map(|t| (t.name.clone(), (Some(GPU), t.bytes)))
        .collect();
    let placement = Placement {
        n_gpu: 1,
        layer_dev: &[],
        weights: &weights,
        op_offload: true,
        flash_attn,
        mla_per_head: false,
        n_copies: 1,
        // clip.cpp's own scheduler: the GPU and the CPU backend only.
        blas: false,
        // The encoder has no KV cache.
        set_rows: false,
        v_less: false,
    };
    let mut g = Graph {
        b: Builder::new(&placement, side * side),
        tensors: p.tensor_list.iter().map(|t| (t.name.as_str(), t)).collect(),
        roots: Vec::new(),
        v,
        flash_attn,
        n: side * side,
        side,
    };
    let out = match kind {
        Kind::Gemma3 | Kind::Idefics3 => g.siglip(kind, size)?,
        Kind::Llava => g.llava(size)?,
        Kind::Qwen2Vl | Kind::Qwen25Vl => g.qwen2vl(kind, size)?,
        Kind::Pixtral => g.pixtral(size)?,
    };
    g.roots.push(out);
    let reserved = g.b.reserve_expanded(&g.roots);
    Ok(ClipCompute {
        warmup_image_size: size,
        patches: side * side,
        flash_attn,
        gpu_bytes: reserved.bytes.first().copied().unwrap_or(0),
        host_bytes: reserved.bytes.get(1).copied().unwrap_or(0),
    })
}

/// The graph being built.
struct Graph<'a> {
    b: Builder<'a>,
    tensors: HashMap<&'a str, &'a FileTensor>,
    /// What `ggml_build_forward_expand` is called on, in order.
    roots: Vec<usize>,
    v: &'a ClipVision,
    flash_attn: bool,
    /// Patches.
    n: u64,
    /// Patches per side.
    side: u64,
}

/// The norm a graph uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Norm {
    Layer,
    Rms,
}

/// How Q and K take their positions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rope {
    None,
    /// `ggml_rope_multi` over the positions input: in place.
    Multi(usize),
    /// `build_rope_2d`: each half roped into a new tensor, then concatenated.
    TwoD(usize, usize),
}

impl Graph<'_> {
    fn has(&self, name: &str) -> bool {
        self.tensors.contains_key(name)
    }

    /// `ne[i]` of tensor `name`.
    fn ne(&self, name: &str, i: usize) -> Result<u64, ClipRefusal> {
        self.tensors
            .get(name)
            .and_then(|t| t.ne.get(i).copied())
            .ok_or_else(|| ClipRefusal::MissingTensor { name: name.into() })
    }

    fn bytes(&self, id: usize) -> u64 {
        self.b.bytes(id)
    }

    /// A new tensor of `bytes` over `srcs`, on the GPU.
    fn fresh(&mut self, bytes: u64, srcs: &[usize]) -> usize {
        self.b.op(GPU, bytes, srcs, false)
    }

    /// An element-wise op ggml may run in place over `x`.
    fn inplace(&mut self, x: usize, others: &[usize]) -> usize {
        self.b.ew(x, others)
    }

    /// `x + b` / `x · w` with the weight `name`, where the file has it.
    fn with(&mut self, x: usize, name: &str) -> usize {
        match self.b.weight(name) {
            Some(w) => self.inplace(x, &[w]),
            None => x,
        }
    }

    /// `W·x` for `rows` rows: `ne[1]` of W values each (the file's weight).
    fn mm(&mut self, name: &str, x: usize, rows: u64) -> Result<usize, ClipRefusal> {
        let width = self.ne(name, 1)?;
        let w = self
            .b
            .weight(name)
            .ok_or_else(|| ClipRefusal::MissingTensor { name: name.into() })?;
        Ok(self.fresh(F32 * rows * width, &[w, x]))
    }

    /// `W·x + b` (`{stem}.weight`, `{stem}.bias`).
    fn linear(&mut self, stem: &str, x: usize, rows: u64) -> Result<usize, ClipRefusal> {
        let y = self.mm(&format!("{stem}.weight"), x, rows)?;
        Ok(self.with(y, &format!("{stem}.bias")))
    }

    /// `build_norm`: LayerNorm writes a new tensor, RMS norm runs in place;
    /// then `· w` and `+ b` where the file has them.
    fn norm(&mut self, x: usize, stem: &str, kind: Norm) -> usize {
        let n = match kind {
            Norm::Layer => {
                let bytes = self.bytes(x);
                self.fresh(bytes, &[x])
            }
            Norm::Rms => self.inplace(x, &[]),
        };
        let n = self.with(n, &format!("{stem}.weight"));
        self.with(n, &format!("{stem}.bias"))
    }

    /// `build_inp`'s patch embedding (`ggml_conv_2d` with the kernel `name`
    /// over the raw image): im2col in the kernel's type, the product and
    /// its `cont`.
    fn conv(&mut self, name: &str, raw: usize) -> Result<usize, ClipRefusal> {
        let (n, e) = (self.n, self.v.n_embd);
        let k = *self
            .tensors
            .get(name)
            .ok_or_else(|| ClipRefusal::MissingTensor { name: name.into() })?;
        let kernel_values: u64 = k.ne.iter().product::<u64>().max(1);
        let col_values = kernel_values / e.max(1);
        // ggml_im2col(kernel, image, …, dst_type = kernel type)
        let col_bytes = (k.bytes * col_values * n).div_ceil(kernel_values);
        let w = self
            .b
            .weight(name)
            .ok_or_else(|| ClipRefusal::MissingTensor { name: name.into() })?;
        let col = self.fresh(col_bytes, &[w, raw]);
        let prod = self.fresh(F32 * n * e, &[col, w]);
        Ok(self.fresh(F32 * n * e, &[prod]))
    }

    /// `build_inp`: the patches as `[E, N]` rows, with the patch bias.
    fn patches(&mut self, raw: usize) -> Result<usize, ClipRefusal> {
        let c = self.conv("v.patch_embd.weight", raw)?;
        let bytes = self.bytes(c);
        let t = self.fresh(bytes, &[c]);
        Ok(self.with(t, "v.patch_embd.bias"))
    }

    /// `build_attn` over `rows` positions: Q, K, V expanded first, then
    /// flash attention or the scores, softmax and weighted sum; the output
    /// projection.
    fn attention(
        &mut self,
        il: u64,
        [q, k, v]: [usize; 3],
        mask: Option<usize>,
        rows: u64,
    ) -> Result<usize, ClipRefusal> {
        self.roots.extend([q, k, v]);
        let (e, h) = (self.v.n_embd, self.v.n_head);
        let out = match self.flash_attn {
            true => {
                let kc = self.fresh(2 * rows * e, &[k]);
                let vc = self.fresh(2 * rows * e, &[v]);
                let mut srcs = vec![q, kc, vc];
                srcs.extend(mask);
                self.fresh(F32 * rows * e, &srcs)
            }
            false => {
                let vc = self.fresh(F32 * rows * e, &[v]);
                let kq = self.fresh(F32 * rows * rows * h, &[k, q]);
                let sm = match mask {
                    Some(m) => self.inplace(kq, &[m]),
                    None => self.inplace(kq, &[]),
                };
                let kqv = self.fresh(F32 * rows * e, &[vc, sm]);
                self.fresh(F32 * rows * e, &[kqv])
            }
        };
        self.linear(&format!("v.blk.{il}.attn_out"), out, rows)
    }

    /// `build_ffn` with the layer's `ffn_up`, `ffn_gate`, `ffn_down`: a
    /// gate makes a GLU (a new tensor), else the activation runs in place.
    fn ffn(&mut self, stem: &str, x: usize, rows: u64) -> Result<usize, ClipRefusal> {
        let up = self.linear(&format!("{stem}ffn_up"), x, rows)?;
        let act = match self.has(&format!("{stem}ffn_gate.weight")) {
            true => {
                let g = self.linear(&format!("{stem}ffn_gate"), x, rows)?;
                let bytes = self.bytes(g);
                self.fresh(bytes, &[g, up])
            }
            false => self.inplace(up, &[]),
        };
        self.linear(&format!("{stem}ffn_down"), act, rows)
    }

    /// Q, K and V of layer `il`: fused or separate products, their biases,
    /// the rope.
    fn qkv(&mut self, il: u64, x: usize, rows: u64, rope: Rope) -> Result<[usize; 3], ClipRefusal> {
        let stem = format!("v.blk.{il}.");
        let [q, k, v] = match self.has(&format!("{stem}attn_qkv.weight")) {
            true => {
                let qkv = self.linear(&format!("{stem}attn_qkv"), x, rows)?;
                [qkv, qkv, qkv]
            }
            false => [
                self.linear(&format!("{stem}attn_q"), x, rows)?,
                self.linear(&format!("{stem}attn_k"), x, rows)?,
                self.linear(&format!("{stem}attn_v"), x, rows)?,
            ],
        };
        let e = self.v.n_embd;
        let rope_one = |g: &mut Graph, t: usize| match rope {
            Rope::None => t,
            Rope::Multi(pos) => g.inplace(t, &[pos]),
            Rope::TwoD(a, b) => {
                let first = g.fresh(F32 * rows * e / 2, &[t, a]);
                let second = g.fresh(F32 * rows * e / 2, &[t, b]);
                g.fresh(F32 * rows * e, &[first, second])
            }
        };
        let q = rope_one(self, q);
        let k = rope_one(self, k);
        Ok([q, k, v])
    }

    /// One ViT block (`build_vit`'s loop body; LLaVA's and Qwen's are the
    /// same nodes): norm, attention, residual, norm, feed-forward, residual.
    fn block(
        &mut self,
        il: u64,
        x: usize,
        norm: Norm,
        rope: Rope,
        mask: Option<usize>,
    ) -> Result<usize, ClipRefusal> {
        let rows = self.n;
        let stem = format!("v.blk.{il}.");
        let cur = self.norm(x, &format!("{stem}ln1"), norm);
        let qkv = self.qkv(il, cur, rows, rope)?;
        let a = self.attention(il, qkv, mask, rows)?;
        // ggml_add(cur, inpL)
        let x1 = self.inplace(a, &[x]);
        let cur = self.norm(x1, &format!("{stem}ln2"), norm);
        let f = self.ffn(&stem, cur, rows)?;
        // ggml_add(inpL, cur)
        Ok(self.inplace(x1, &[f]))
    }

    /// `clip_graph_siglip`: Gemma 3's and Idefics 3's encoder and projector.
    fn siglip(&mut self, kind: Kind, size: u64) -> Result<usize, ClipRefusal> {
        let (n, e) = (self.n, self.v.n_embd);
        let raw = self.b.input(F32 * size * size * 3);
        let mut x = self.patches(raw)?;
        x = self.with(x, "v.position_embd.weight");
        if self.has("v.pre_ln.weight") {
            x = self.norm(x, "v.pre_ln", Norm::Layer);
        }
        for il in 0..self.v.n_layer {
            x = self.block(il, x, Norm::Layer, Rope::None, None)?;
        }
        if self.has("v.post_ln.weight") {
            x = self.norm(x, "v.post_ln", Norm::Layer);
        }
        match kind {
            Kind::Gemma3 => {
                let k = self.v.scale_factor.unwrap_or(4).max(1);
                let c = self.fresh(F32 * n * e, &[x]);
                let pooled = (self.side / k) * (self.side / k);
                let pool = self.fresh(F32 * pooled * e, &[c]);
                let c = self.fresh(F32 * pooled * e, &[pool]);
                let c = self.inplace(c, &[]);
                let c = self.with(c, "mm.soft_emb_norm.weight");
                let name = "mm.input_projection.weight";
                let width = self.ne(name, 0)?;
                let w = self
                    .b
                    .weight(name)
                    .ok_or_else(|| ClipRefusal::MissingTensor { name: name.into() })?;
                let wt_bytes = self.tensors[name].bytes;
                let wt = self.fresh(wt_bytes, &[w]);
                Ok(self.fresh(F32 * pooled * width, &[wt, c]))
            }
            _ => {
                let s = self.v.scale_factor.unwrap_or(1).max(1);
                let padded_side = self.side.div_ceil(s) * s;
                let padded = padded_side * padded_side;
                if padded != n {
                    x = self.fresh(F32 * padded * e, &[x]);
                }
                let c = self.fresh(F32 * padded * e, &[x]);
                let c = self.fresh(F32 * padded * e, &[c]);
                self.mm("mm.model.fc.weight", c, padded / (s * s))
            }
        }
    }

    /// `clip_graph_llava`: CLIP with a class embedding and learned
    /// positions, every layer up to the second to last (or the deepest
    /// feature layer), the MLP projector over the patches' rows.
    fn llava(&mut self, size: u64) -> Result<usize, ClipRefusal> {
        let (n, e) = (self.n, self.v.n_embd);
        let class = self.has("v.class_embd");
        let n_pos = n + u64::from(class);
        let raw = self.b.input(F32 * size * size * 3);
        let mut x = self.patches(raw)?;
        if let Some(c) = self.b.weight("v.class_embd") {
            x = self.fresh(F32 * n_pos * e, &[x, c]);
        }
        let positions = self.b.input(4 * n_pos);
        let name = "v.position_embd.weight";
        let pe = self
            .b
            .weight(name)
            .ok_or_else(|| ClipRefusal::MissingTensor { name: name.into() })?;
        let rows = self.fresh(F32 * n_pos * e, &[pe, positions]);
        x = self.inplace(x, &[rows]);
        if self.has("v.pre_ln.weight") {
            x = self.norm(x, "v.pre_ln", Norm::Layer);
        }
        let deepest = self.v.feature_layers.iter().copied().max();
        let layers = deepest.unwrap_or(self.v.n_layer.saturating_sub(1));
        self.n = n_pos;
        let mut stack = Vec::new();
        for il in 0..layers.min(self.v.n_layer) {
            if self.v.feature_layers.contains(&il) {
                stack.push(x);
            }
            x = self.block(il, x, Norm::Layer, Rope::None, None)?;
        }
        self.n = n;
        if self.has("v.post_ln.weight") {
            x = self.norm(x, "v.post_ln", Norm::Layer);
        }
        if self.v.feature_layers.contains(&layers) {
            stack.push(x);
        }
        let mut width = e;
        if let Some((&first, rest)) = stack.split_first() {
            x = first;
            for &s in rest {
                width += e;
                x = self.fresh(F32 * n_pos * width, &[x, s]);
            }
        }
        let patches = self.b.input(4 * n);
        let mut y = self.fresh(F32 * n * width, &[x, patches]);
        y = self.linear("mm.0", y, n)?;
        match self.has("mm.3.weight") {
            // mlp_norm (Yi-VL): mm.0, LayerNorm ·mm.1 +mm.1, gelu, mm.3, LayerNorm ·mm.4 +mm.4
            true => {
                y = self.norm(y, "mm.1", Norm::Layer);
                y = self.inplace(y, &[]);
                y = self.linear("mm.3", y, n)?;
                Ok(self.norm(y, "mm.4", Norm::Layer))
            }
            false => {
                y = self.inplace(y, &[]);
                match self.has("mm.2.weight") {
                    true => self.linear("mm.2", y, n),
                    false => Ok(y),
                }
            }
        }
    }

    /// `clip_graph_qwen2vl`: two patch kernels summed, M-RoPE, Qwen 2.5's
    /// windowed layers (its window mask an input), the merger over groups
    /// of four patches.
    fn qwen2vl(&mut self, kind: Kind, size: u64) -> Result<usize, ClipRefusal> {
        let (n, e) = (self.n, self.v.n_embd);
        let norm = match kind {
            Kind::Qwen25Vl => Norm::Rms,
            _ => Norm::Layer,
        };
        let raw = self.b.input(F32 * size * size * 3);
        let a = self.conv("v.patch_embd.weight", raw)?;
        let b = self.conv("v.patch_embd.weight.1", raw)?;
        let sum = self.inplace(a, &[b]);
        let c = self.fresh(F32 * n * e, &[sum]);
        let mut x = self.fresh(F32 * n * e, &[c]);
        let positions = self.b.input(4 * 4 * n);
        if self.has("v.pre_ln.weight") {
            x = self.norm(x, "v.pre_ln", norm);
        }
        let pattern = self.v.n_wa_pattern.unwrap_or(0);
        let windowed = kind == Kind::Qwen25Vl && pattern > 0;
        let mut mask = None;
        if windowed {
            let inv = self.b.input(4 * (n / 4));
            let m = self.b.input(F32 * n * n);
            mask = Some(match self.flash_attn {
                true => self.fresh(2 * n * n, &[m]),
                false => m,
            });
            x = self.fresh(F32 * n * e, &[x, inv]);
        }
        for il in 0..self.v.n_layer {
            let full = !windowed || (il + 1) % pattern == 0;
            let m = if full { None } else { mask };
            x = self.block(il, x, norm, Rope::Multi(positions), m)?;
        }
        if self.has("v.post_ln.weight") {
            x = self.norm(x, "v.post_ln", norm);
        }
        let mut y = self.linear("mm.0", x, n / 4)?;
        y = self.inplace(y, &[]);
        // The merger's second product: `mm.2` (as converted), `mm.1` in some files.
        let second = match self.has("mm.2.weight") {
            true => "mm.2",
            false => "mm.1",
        };
        y = self.linear(second, y, n / 4)?;
        if windowed {
            let idx = self.b.input(4 * (n / 4));
            let bytes = self.bytes(y);
            y = self.fresh(bytes, &[y, idx]);
        }
        Ok(y)
    }

    /// `clip_graph_pixtral`: 2D RoPE, RMS norms, Mistral 3's patch merger,
    /// the LLaVA-style MLP, a `[IMG_BREAK]` after each row.
    fn pixtral(&mut self, size: u64) -> Result<usize, ClipRefusal> {
        let (n, e) = (self.n, self.v.n_embd);
        let pos_h = self.b.input(4 * n);
        let pos_w = self.b.input(4 * n);
        let raw = self.b.input(F32 * size * size * 3);
        let mut x = self.patches(raw)?;
        if self.has("v.pre_ln.weight") {
            x = self.norm(x, "v.pre_ln", Norm::Rms);
        }
        for il in 0..self.v.n_layer {
            x = self.block(il, x, Norm::Rms, Rope::TwoD(pos_h, pos_w), None)?;
        }
        if self.has("v.post_ln.weight") {
            x = self.norm(x, "v.post_ln", Norm::Rms);
        }
        let m = self.v.spatial_merge_size.unwrap_or(1).max(1);
        let mut rows = n;
        if self.has("mm.patch_merger.weight") {
            x = self.inplace(x, &[]);
            x = self.with(x, "mm.input_norm.weight");
            let c = self.fresh(F32 * n * e, &[x]);
            let col = self.fresh(F32 * n * e, &[c]);
            rows = n / (m * m);
            x = self.mm("mm.patch_merger.weight", col, rows)?;
        }
        let mut y = self.linear("mm.1", x, rows)?;
        y = self.inplace(y, &[]);
        y = self.linear("mm.2", y, rows)?;
        if let Some(brk) = self.b.weight("v.token_embd.img_break") {
            let width = self.ne("mm.2.weight", 1)?;
            let (px, py) = (self.side / m, self.side / m);
            let tok = self.fresh(F32 * width * py, &[]);
            let tok = self.inplace(tok, &[]);
            let tok = self.inplace(tok, &[brk]);
            y = self.fresh(F32 * width * (px + 1) * py, &[y, tok]);
        }
        Ok(y)
    }
}

#[cfg(test)]
#[path = "clip_tests.rs"]
mod tests;
