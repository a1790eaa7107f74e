//! The context llama.cpp builds and its KV cache, K and V apart.
//!
//! Sources: llama.cpp `src/llama-context.cpp` (`llama_context`
//! constructor: `n_ctx` padding, `n_ctx_seq`, `n_batch`, `n_ubatch`),
//! `src/llama-kv-cache.cpp` (`llama_kv_cache` constructor: one K and one V
//! tensor `[n_embd_{k,v}_gqa, kv_size, n_stream]` per layer; none for V
//! under MLA), `src/llama-kv-cache-iswa.cpp` (the sliding-window cache's
//! size), `src/llama-model.cpp` (`create_memory`: which cache a model
//! gets).

use super::arch::{LayerCache, Layout};
use super::build::MlaCache;
use super::ggml_type::GgmlType;
use super::refusal::LlamaCppRefusal;
use serde::Serialize;

/// Cells are padded to this (`GGML_PAD(n_ctx, 256)`, since llama.cpp
/// PR #17046).
pub const CTX_PAD: u64 = 256;

/// `GGML_PAD(x, n)`: `x` rounded up to a multiple of `n`.
pub const fn pad(x: u64, n: u64) -> u64 {
    x.div_ceil(n).saturating_mul(n)
}

/// The sizes of a llama.cpp context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ContextSize {
    /// Context cells in all (`cparams.n_ctx`, printed as `n_ctx`).
    pub n_ctx: u64,
    /// Cells per sequence stream (`n_ctx_seq`).
    pub n_ctx_seq: u64,
    /// KV streams: 1 when unified, else one per sequence.
    pub n_stream: u64,
    /// Sequences (`n_seq_max`, `--parallel`).
    pub n_seq_max: u64,
    /// Logical batch (`n_batch`).
    pub n_batch: u64,
    /// Physical batch: tokens per graph evaluation (`n_ubatch`).
    pub n_ubatch: u64,
}

/// The context llama.cpp makes of the requested sizes.
///
/// # Formula
///
/// ```text
/// n_batch   = min(c, b)              n_ubatch = min(n_batch, u)
/// n_ctx     = pad(c, 256)
/// unified:  n_ctx_seq = n_ctx,                   n_stream = 1
/// else:     n_ctx_seq = pad(n_ctx / s, 256),     n_ctx = n_ctx_seq · s,   n_stream = s
/// ```
///
/// `c` requested context (`-c`), `b` `-b`, `u` `-ub`, `s` sequences
/// (`-np`), `pad(x, n)` = x rounded up to a multiple of n. Source:
/// `src/llama-context.cpp`, `llama_context::llama_context`.
///
/// ```
/// use vramfit_core::methods::llamacpp::context_size;
/// let c = context_size(5000, 2048, 512, 4, true);
/// assert_eq!((c.n_ctx, c.n_ctx_seq, c.n_stream), (5120, 5120, 1));
/// let c = context_size(5000, 2048, 512, 3, false);
/// assert_eq!((c.n_ctx, c.n_ctx_seq, c.n_stream), (5376, 1792, 3));
/// ```
pub fn context_size(
    requested: u64,
    n_batch: u64,
    n_ubatch: u64,
    n_seq_max: u64,
    kv_unified: bool,
) -> ContextSize {
    let n_batch = requested.min(n_batch);
    let n_ubatch = n_batch.min(n_ubatch);
    let n_seq = n_seq_max.max(1);
    let n_ctx = pad(requested, CTX_PAD);
    let (n_ctx, n_ctx_seq, n_stream) = match kv_unified {
        true => (n_ctx, n_ctx, 1),
        false => {
            let per_seq = pad(n_ctx / n_seq, CTX_PAD);
            (per_seq.saturating_mul(n_seq), per_seq, n_seq)
        }
    };
    ContextSize {
        n_ctx,
        n_ctx_seq,
        n_stream,
        n_seq_max: n_seq,
        n_batch,
        n_ubatch,
    }
}

/// Cells of the sliding-window cache per stream.
///
/// # Formula
///
/// ```text
/// swa_cells = pad(min(n_ctx_seq, W · (unified ? s : 1) + n_ubatch), 256)     (n_ctx_seq with --swa-full)
/// ```
///
/// `W` the window (`n_swa`), `s` sequences. Source:
/// `src/llama-kv-cache-iswa.cpp`, `llama_kv_cache_iswa` constructor.
pub fn swa_cells(ctx: &ContextSize, window: u64, unified: bool, swa_full: bool) -> u64 {
    if swa_full {
        return ctx.n_ctx_seq;
    }
    let seqs = match unified {
        true => ctx.n_seq_max,
        false => 1,
    };
    let wanted = window.saturating_mul(seqs).saturating_add(ctx.n_ubatch);
    pad(ctx.n_ctx_seq.min(wanted), CTX_PAD)
}

/// One layer's cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayerKv {
    /// Cells (all streams).
    pub cells: u64,
    pub k_bytes: u64,
    pub v_bytes: u64,
}

/// The whole KV cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KvCache {
    /// Cells of the full-attention cache (all streams).
    pub cells: u64,
    /// Cells of the sliding-window cache (all streams), 0 without one.
    pub swa_cells: u64,
    pub k_bytes: u64,
    pub v_bytes: u64,
    /// Per layer, in order.
    pub layers: Vec<LayerKv>,
}

/// The cache's element types and options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CacheTypes {
    pub k: GgmlType,
    pub v: GgmlType,
    pub unified: bool,
    pub swa_full: bool,
    /// The build's MLA cache ([`super::build`]).
    pub mla: MlaCache,
    /// The build gives sliding-window layers their own cache; without it
    /// they keep every cell.
    pub swa_cache: bool,
}

/// The KV cache of a model for a context.
///
/// # Formula
///
/// ```text
/// K_l = row(t_k, H_kv · d) · N_l          V_l = row(t_v, H_kv · d) · N_l
/// MLA, newest:            K_l = row(t_k, r_kv + d_rope) · N_l,   V_l = 0
/// MLA, b5331-era builds:   K_l as above,   V_l = row(t_v, r_kv) · N_l
/// MLA, before PR #12801:   K_l = row(t_k, H · (d_nope + d_rope)) · N_l,   V_l = row(t_v, H · d_v) · N_l
/// N_l = n_ctx_seq · n_stream  (full layers, and sliding ones in builds without the SWA cache)
///       swa_cells · n_stream  (sliding layers)
/// ```
///
/// `row(t, n)` bytes of `n` values of type `t`
/// ([`GgmlType::row_bytes`]: q8_0 is 34 bytes per 32 values), `H_kv` KV
/// heads, `d` head dimension, `r_kv + d_rope` the MLA latent (576 for
/// DeepSeek-V3), `H` heads; DeepSeek-V3 at 16,384 cells and f16 has K
/// 1,098 MiB and V 976 MiB in b5331 (61 · 16384 · 576 · 2 and
/// 61 · 16384 · 512 · 2 bytes, load log A9). Which layout a build makes is
/// [`super::build`]'s table. Source: `src/llama-kv-cache.cpp`, `llama_kv_cache`
/// constructor (`ggml_new_tensor_3d(ctx, type_k, n_embd_k_gqa, kv_size,
/// n_stream)`), `size_k_bytes`, `size_v_bytes`.
pub(crate) fn kv_cache(
    layout: &Layout,
    ctx: &ContextSize,
    types: CacheTypes,
) -> Result<KvCache, LlamaCppRefusal> {
    let full_cells = ctx.n_ctx_seq.saturating_mul(ctx.n_stream);
    let mut swa = 0;
    let mut out = KvCache {
        cells: 0,
        swa_cells: 0,
        k_bytes: 0,
        v_bytes: 0,
        layers: Vec::with_capacity(layout.layers.len()),
    };
    for layer in &layout.layers {
        let (cells, k_row, v_row) = match layer.cache {
            LayerCache::Full => {
                out.cells = full_cells;
                let w = layout.n_head_kv.saturating_mul(layout.head_dim);
                (full_cells, w, w)
            }
            LayerCache::Sliding { .. } if !types.swa_cache => {
                out.cells = full_cells;
                let w = layout.n_head_kv.saturating_mul(layout.head_dim);
                (full_cells, w, w)
            }
            LayerCache::Sliding { window } => {
                let per_stream = swa_cells(ctx, window, types.unified, types.swa_full);
                swa = per_stream.saturating_mul(ctx.n_stream);
                let w = layout.n_head_kv.saturating_mul(layout.head_dim);
                (swa, w, w)
            }
            LayerCache::Latent => {
                out.cells = full_cells;
                let (k, v) = latent_rows(layout, types.mla);
                (full_cells, k, v)
            }
        };
        let k = row(types.k, k_row)?.saturating_mul(cells);
        let v = match v_row {
            0 => 0,
            w => row(types.v, w)?.saturating_mul(cells),
        };
        out.k_bytes = out.k_bytes.saturating_add(k);
        out.v_bytes = out.v_bytes.saturating_add(v);
        out.layers.push(LayerKv {
            cells,
            k_bytes: k,
            v_bytes: v,
        });
    }
    out.swa_cells = swa;
    Ok(out)
}

/// Values per cell of an MLA layer's K and V rows in a build's layout.
fn latent_rows(layout: &Layout, mla: MlaCache) -> (u64, u64) {
    let Some(m) = layout.mla else {
        return (0, 0);
    };
    let latent = m.kv_lora_rank.saturating_add(m.qk_rope_head_dim);
    match mla {
        MlaCache::Latent => (latent, 0),
        MlaCache::LatentWithV => (latent, m.kv_lora_rank),
        MlaCache::PerHead => (
            layout
                .n_head
                .saturating_mul(m.qk_nope_head_dim.saturating_add(m.qk_rope_head_dim)),
            layout.n_head.saturating_mul(m.v_head_dim),
        ),
    }
}

/// Bytes of one cache row, or the refusal ggml would give.
fn row(t: GgmlType, n: u64) -> Result<u64, LlamaCppRefusal> {
    t.row_bytes(n).ok_or(LlamaCppRefusal::CacheRowNotBlocks {
        cache_type: t,
        row: n,
        block: t.block_size(),
    })
}
