//! The text model's graph as `graph_reserve` builds it: the graph inputs,
//! each layer's attention (MLA per head, MLA latent, or a plain
//! multi-head attention) and feed-forward (dense or experts), then the
//! output norm and the logits.

use super::super::arch::{Arch, LayerCache, LayerFfn, Layout};
use super::super::kv::ContextSize;
use super::{act, allocate, split, Builder, Phase, Placement, Reserved, F32, OFFLOAD_MIN_BATCH};
use std::collections::HashMap;

/// The compute buffers llama.cpp reserves for this placement.
pub(crate) fn reserve(l: &Layout, ctx: &ContextSize, swa_cells: u64, p: &Placement) -> Reserved {
    let host = p.n_gpu;
    let t = ctx.n_ubatch.max(1);
    let mut b = Builder {
        p,
        host,
        t,
        nodes: Vec::new(),
        weight_ids: HashMap::new(),
        phase: Phase::Inputs,
        fused_up: matches!(l.arch, Arch::Phi3 | Arch::Glm4),
        blas: p.blas.then_some(host + 1),
    };
    let h = l.n_embd;
    let n_full = ctx.n_ctx_seq;
    let n_swa = match ctx.n_stream {
        0 => 0,
        s => swa_cells / s,
    };
    let has_swa = n_swa > 0
        && l.layers
            .iter()
            .any(|x| matches!(x.cache, LayerCache::Sliding { .. }));
    // Graph inputs, on the host: token ids, positions, output ids, masks.
    let tokens = b.input(4 * t);
    let pos = b.input(4 * t);
    let out_ids = b.input(4 * t);
    let mask_full = b.input(act(F32, t, n_full));
    let mask_swa = has_swa.then(|| b.input(act(F32, t, n_swa)));
    // The cache writes' row indices, one set per cache.
    let rows_full = set_rows_inputs(&mut b, l);
    let rows_swa = match has_swa {
        true => set_rows_inputs(&mut b, l),
        false => Vec::new(),
    };
    // Flash attention reads an f16 cast of each mask, made where first used.
    let mut cast: HashMap<(usize, usize), usize> = HashMap::new();
    // The embedding lookup runs where token_embd is: the host.
    let mut x = match b.weight("token_embd.weight") {
        Some(w) => b.op(host, act(F32, t, h), &[w, tokens], false),
        None => b.op(host, act(F32, t, h), &[tokens], false),
    };
    if let Some(w) = b.weight("position_embd.weight") {
        let pe = b.op(host, act(F32, t, h), &[w, pos], false);
        x = b.op(host, act(F32, t, h), &[x, pe], true);
    }
    let n_layer = l.layers.len();
    for (i, layer) in l.layers.iter().enumerate() {
        let dev = p.layer_dev.get(i).copied().flatten().unwrap_or(host);
        // Host layers' element-wise work follows their products to the
        // first GPU when those are offloaded.
        let ew_dev = match dev == host && p.op_offload && p.n_gpu > 0 && t >= OFFLOAD_MIN_BATCH {
            true => 0,
            false => dev,
        };
        let name = |s: &str| format!("blk.{i}.{s}.weight");
        b.phase = Phase::Attention;
        let residual = x;
        let xn = b.norm(&name("attn_norm"), x, ew_dev);
        let (cells, mask_in, rows) = match layer.cache {
            LayerCache::Sliding { .. } if has_swa => {
                (n_swa, mask_swa.unwrap_or(mask_full), &rows_swa)
            }
            _ => (n_full, mask_full, &rows_full),
        };
        // The cache writes: K and V stored (views), reading the indices.
        let store = |b: &mut Builder, kv: [usize; 2]| {
            let mut srcs = kv.to_vec();
            srcs.extend_from_slice(rows);
            b.op(dev, 0, &srcs, false)
        };
        let mask = match p.flash_attn {
            true => *cast
                .entry((mask_in, dev))
                .or_insert_with(|| b.op(dev, act(2, t, cells), &[mask_in], false)),
            false => mask_in,
        };
        let nh = l.n_head;
        let o = match l.mla {
            Some(m) if p.mla_per_head => {
                let (r, nope, rope) = (m.kv_lora_rank, m.qk_nope_head_dim, m.qk_rope_head_dim);
                let q = match m.q_lora_rank {
                    Some(rank) => {
                        let qa = b.mm(&name("attn_q_a"), xn, rank, &[]).unwrap_or(xn);
                        let qa = b.norm(&name("attn_q_a_norm"), qa, ew_dev);
                        b.mm(&name("attn_q_b"), qa, nh * (nope + rope), &[])
                            .unwrap_or(qa)
                    }
                    None => b
                        .mm(&name("attn_q"), xn, nh * (nope + rope), &[])
                        .unwrap_or(xn),
                };
                let q_pe = b.op(dev, act(F32, t, nh * rope), &[q], false);
                let kv_a = b
                    .mm(&name("attn_kv_a_mqa"), xn, r + rope, &[])
                    .unwrap_or(xn);
                let kv_n = b.op(dev, act(F32, t, r), &[kv_a], false);
                let kv_n = b.norm(&name("attn_kv_a_norm"), kv_n, dev);
                // attn_kv_b (the file's k_b and v_b together).
                let kv = b
                    .mm(&name("attn_k_b"), kv_n, nh * (nope + m.v_head_dim), &[])
                    .unwrap_or(kv_n);
                let v = b.op(dev, act(F32, t, nh * m.v_head_dim), &[kv], false);
                let k_pe = b.op(dev, act(F32, t, rope), &[kv_a], false);
                let qs = b.op(dev, act(F32, t, nh * (nope + rope)), &[q, q_pe], false);
                let ks = b.op(dev, act(F32, t, nh * (nope + rope)), &[kv, k_pe], false);
                let stored = store(&mut b, [ks, v]);
                attention(&mut b, dev, [qs, mask, stored], nh, cells, m.v_head_dim)
            }
            Some(m) => {
                let r = m.kv_lora_rank;
                let qd = m.qk_nope_head_dim + m.qk_rope_head_dim;
                let q = match m.q_lora_rank {
                    Some(rank) => {
                        let qa = b.mm(&name("attn_q_a"), xn, rank, &[]).unwrap_or(xn);
                        let qa = b.norm(&name("attn_q_a_norm"), qa, ew_dev);
                        b.mm(&name("attn_q_b"), qa, nh * qd, &[]).unwrap_or(qa)
                    }
                    None => b.mm(&name("attn_q"), xn, nh * qd, &[]).unwrap_or(xn),
                };
                let q_abs = b.mm(&name("attn_k_b"), q, nh * r, &[]).unwrap_or(q);
                let q_pe = b.op(dev, act(F32, t, nh * m.qk_rope_head_dim), &[q], false);
                let kv = b
                    .mm(&name("attn_kv_a_mqa"), xn, r + m.qk_rope_head_dim, &[])
                    .unwrap_or(xn);
                let kv_n = b.op(dev, act(F32, t, r), &[kv], false);
                let kv_n = b.norm(&name("attn_kv_a_norm"), kv_n, dev);
                let k_pe = b.op(dev, act(F32, t, m.qk_rope_head_dim), &[kv], false);
                let qcat = b.op(
                    dev,
                    act(F32, t, nh * (r + m.qk_rope_head_dim)),
                    &[q_abs, q_pe],
                    false,
                );
                let kcat = b.op(
                    dev,
                    act(F32, t, r + m.qk_rope_head_dim),
                    &[kv_n, k_pe],
                    false,
                );
                // K and V stored into the cache (views).
                let stored = store(&mut b, [kcat, kv_n]);
                let att = attention(&mut b, dev, [qcat, mask, stored], nh, cells, r);
                let vb = b
                    .mm(&name("attn_v_b"), att, nh * m.v_head_dim, &[])
                    .unwrap_or(att);
                b.op(b.at(vb), act(F32, t, nh * m.v_head_dim), &[vb], false)
            }
            None => {
                let d = l.head_dim;
                let kvw = l.n_head_kv * d;
                let (q, k, v) = match b.mm(&name("attn_qkv"), xn, nh * d + 2 * kvw, &[]) {
                    Some(qkv) => {
                        let bk = b.at(qkv);
                        let q = b.op(bk, act(F32, t, nh * d), &[qkv], false);
                        (q, qkv, qkv)
                    }
                    None => {
                        let q = b.mm(&name("attn_q"), xn, nh * d, &[]).unwrap_or(xn);
                        let k = b.mm(&name("attn_k"), xn, kvw, &[]).unwrap_or(xn);
                        let v = b.mm(&name("attn_v"), xn, kvw, &[]).unwrap_or(xn);
                        (q, k, v)
                    }
                };
                let q = b.ew(q, &[]);
                let k = b.ew(k, &[]);
                let stored = store(&mut b, [k, v]);
                attention(&mut b, dev, [q, mask, stored], nh, cells, d)
            }
        };
        let mut a = b.mm(&name("attn_output"), o, h, &[]).unwrap_or(o);
        let mut res = residual;
        if i + 1 == n_layer {
            // build_inp_out_ids: the outputs' rows of the hidden state and
            // the residual.
            let bk = b.at(a);
            a = b.op(bk, act(F32, t, h), &[a, out_ids], false);
            res = b.op(bk, act(F32, t, h), &[res, out_ids], false);
        }
        let x1 = b.ew(a, &[res]);
        b.phase = Phase::Ffn;
        let xn = b.norm(&name("ffn_norm"), x1, ew_dev);
        let f = match layer.ffn {
            LayerFfn::Dense { n_ff } => dense(&mut b, &name, "", xn, n_ff, h),
            LayerFfn::Moe {
                n_ff_exp,
                n_ff_shexp,
            } => {
                let e = l.n_expert;
                let k = l.n_expert_used.max(1);
                let logits = b.mm(&name("ffn_gate_inp"), xn, e, &[]).unwrap_or(xn);
                let probs = b.ew(logits, &[]);
                let bk = b.at(probs);
                let sel = b.op(bk, act(4, t, e), &[probs], false);
                let wts = b.op(bk, act(F32, t, k), &[probs, sel], false);
                let up = b.mm(&name("ffn_up_exps"), xn, k * n_ff_exp, &[sel]);
                let gate = b.mm(&name("ffn_gate_exps"), xn, k * n_ff_exp, &[sel]);
                let par = match (up, gate) {
                    (Some(u), Some(g)) => {
                        let g = b.ew(g, &[]);
                        b.ew(g, &[u])
                    }
                    (Some(u), None) => b.ew(u, &[]),
                    _ => xn,
                };
                let down = b
                    .mm(&name("ffn_down_exps"), par, k * h, &[sel])
                    .unwrap_or(par);
                let down = b.ew(down, &[wts]);
                let bk = b.at(down);
                let mut moe = b.op(bk, act(F32, t, h), &[down], false);
                for _ in 2..k {
                    moe = b.ew(moe, &[down]);
                }
                if n_ff_shexp > 0 {
                    let s = dense(&mut b, &name, "_shexp", xn, n_ff_shexp, h);
                    moe = b.ew(moe, &[s]);
                }
                moe
            }
        };
        x = b.ew(f, &[x1]);
    }
    b.phase = Phase::Output;
    let out_dev = p
        .weights
        .get("output.weight")
        .or_else(|| p.weights.get("token_embd.weight"))
        .map(|(d, _)| d.unwrap_or(host))
        .unwrap_or(host);
    let xn = b.norm("output_norm.weight", x, out_dev);
    b.nodes[xn].output = true;
    let head = match p.weights.contains_key("output.weight") {
        true => "output.weight",
        false => "token_embd.weight",
    };
    if let Some(logits) = b.mm(head, xn, l.n_vocab, &[]) {
        b.nodes[logits].output = true;
    }
    let n_backends = host + 1 + usize::from(p.blas);
    allocate(split(b.nodes, host), p.n_gpu, n_backends, p.n_copies)
}

/// The graph inputs one cache's writes read where the build writes the
/// cache at row indices (`ggml_set_rows`; none before,
/// [`Placement::set_rows`]): K's destination cells, and V's — one per value
/// where V is stored transposed (no flash attention), each value's row of
/// one element.
///
/// # Formula
///
/// ```text
/// k_idxs = 8 · T                         bytes (i64)
/// v_idxs = 8 · T · n_embd_v_gqa_max      V transposed (no flash attention)
///        = 8 · T                         flash attention
///        = none                          MLA without a V buffer
/// n_embd_v_gqa_max = n_head_kv · d_v     (MLA with a V buffer: kv_lora_rank)
/// ```
///
/// Each is a graph input on the host, copied to every GPU whose layers
/// write that cache; the copies live until that cache's last layer.
///
/// Source: llama.cpp `src/llama-kv-cache-unified.cpp` at e54d41bef
/// (`build_input_k_idxs`, `build_input_v_idxs`, `cpy_k`, `cpy_v`), the same
/// in `src/llama-kv-cache.cpp` of later builds; `src/llama-graph.cpp`
/// (`build_attn_inp_kv_unified_iswa`: one set per cache).
///
/// Worked example (load log U1, gpt-oss-120b, flash attention off, `T` =
/// 512, 8 KV heads of 64): `v_idxs` = 8 · 512 · 512 = 2 MiB and `k_idxs` =
/// 4 KiB, for the full and the sliding cache: 4 MiB + 8 KiB, which takes
/// the host buffer from 21.63 to the 25.64 MiB printed.
pub(super) fn set_rows_inputs(b: &mut Builder, l: &Layout) -> Vec<usize> {
    if !b.p.set_rows {
        return Vec::new();
    }
    let t = b.t;
    let v_width = match (l.mla, b.p.v_less) {
        (Some(_), true) => None,
        (Some(m), false) => Some(m.kv_lora_rank),
        (None, _) => Some(l.n_head_kv * l.head_dim),
    };
    let mut ids = vec![b.input(act(8, t, 1))];
    if let Some(w) = v_width {
        let values = match b.p.flash_attn {
            true => 1,
            false => w,
        };
        ids.push(b.input(act(8, t, values)));
    }
    ids
}

/// The attention core over the cache: flash attention, or the scores,
/// softmax and weighted sum (then made contiguous). `stored` orders it
/// after the cache writes.
fn attention(
    b: &mut Builder,
    dev: usize,
    [q, mask, stored]: [usize; 3],
    heads: u64,
    cells: u64,
    d_v: u64,
) -> usize {
    let t = b.t;
    match b.p.flash_attn {
        true => b.op(dev, act(F32, t, heads * d_v), &[q, mask, stored], false),
        false => {
            let kq = b.op(dev, act(F32, t, heads * cells), &[q, stored], false);
            let sm = b.op(dev, act(F32, t, heads * cells), &[kq, mask], true);
            let kqv = b.op(dev, act(F32, t, heads * d_v), &[sm], false);
            b.op(dev, act(F32, t, heads * d_v), &[kqv], false)
        }
    }
}

/// A gated MLP (`ffn_up{sfx}`, `ffn_gate{sfx}`, `ffn_down{sfx}`;
/// Phi-3's fused up writes `[T·2F]`, GPT-2's has no gate): `build_ffn`'s
/// order, up first.
fn dense(
    b: &mut Builder,
    name: &dyn Fn(&str) -> String,
    sfx: &str,
    x: usize,
    n_ff: u64,
    h: u64,
) -> usize {
    let up_width = match b.fused_up {
        true => 2 * n_ff,
        false => n_ff,
    };
    let up = b
        .mm(&name(&format!("ffn_up{sfx}")), x, up_width, &[])
        .unwrap_or(x);
    let act = match b.mm(&name(&format!("ffn_gate{sfx}")), x, n_ff, &[]) {
        Some(g) => {
            let g = b.ew(g, &[]);
            b.ew(g, &[up])
        }
        None if b.fused_up => {
            let bk = b.at(up);
            b.op(bk, act(F32, b.t, n_ff), &[up], false)
        }
        None => b.ew(up, &[]),
    };
    b.mm(&name(&format!("ffn_down{sfx}")), act, h, &[])
        .unwrap_or(act)
}
