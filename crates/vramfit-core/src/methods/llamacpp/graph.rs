//! The worst-case graph llama.cpp reserves its compute buffers with, as
//! ggml's scheduler splits it over the backends and ggml's allocator lays
//! each backend's part out ([`super::ggml_alloc`]).
//!
//! Sources (llama.cpp, 2025–26): `src/llama-context.cpp` (`graph_reserve`:
//! `n_ubatch` tokens, every one an output, every KV cell visible);
//! `src/llama-graph.cpp` (`build_inp_embd`, `build_attn_inp_kv*`: the
//! masks, f32 on the host and an f16 cast for flash attention;
//! `build_attn_mha`, `build_ffn`, `build_moe_ffn`, `build_inp_out_ids`);
//! `src/models/*.cpp` (the order of a layer's nodes); `ggml/src/ggml-backend.cpp`
//! (`ggml_backend_sched_split_graph`: an op runs where its weight is, a
//! host weight's product with at least 32 tokens on the first GPU
//! (`offload_op`), each such product in a split of its own so that the
//! copied weights share memory; a tensor used on another backend is copied
//! there once, at the start of the split that first needs it);
//! `ggml/src/ggml-alloc.c` (which ops reuse their input's memory:
//! `ggml_op_can_inplace`; a tensor is freed after its last use; graph
//! inputs first; graph outputs never freed).
//!
//! # Formula
//!
//! Per layer, with `T` tokens, `H` = `n_embd`, f32 activations, the nodes
//! in graph order (`↺` = in place over its input):
//!
//! ```text
//! attn_norm = rms_norm(x) [T·H], ↺·w
//! q, k, v   = W·attn_norm [T·n_h·d_q], [T·n_kv·d], [T·n_kv·d]; rope ↺; k, v → cache (views)
//! flash:    o = flash_attn_ext(q, K, V, mask) [T·n_h·d_v]
//! else:     kq = K·q [T·n_h·N], softmax ↺, kqv = V·kq [T·n_h·d_v], o = cont(kqv)
//! x'        = W_o·o [T·H] + x ↺
//! ffn_norm  = rms_norm(x') [T·H], ↺·w
//! dense:    up, gate [T·F], silu ↺, ·up ↺, down [T·H] + x' ↺
//! experts:  router [T·E], softmax ↺, argsort [T·E], weights [T·k]; up, gate [T·k·F_e],
//!           down [T·k·H], ·weights ↺, Σ over k [T·H]; shared expert as dense; + x' ↺
//! output:   rms_norm ↺·w [T·H] (an output), logits = W_out· [T·V] (an output)
//! ```
//!
//! The last layer also gathers its outputs' rows (`ggml_get_rows` of the
//! hidden state and the residual, [T·H] each). MLA layers absorb `k_b`
//! into the query (`[T·n_h·r_kv]` and the rope part `[T·n_h·d_rope]`,
//! concatenated `[T·n_h·(r_kv + d_rope)]`) and project the attention's
//! latent output with `v_b` (`[T·n_h·d_v]`). Each backend's buffer is the
//! allocator's high-water mark over the nodes that run on it.

use super::arch::{LayerCache, LayerFfn, Layout};
use super::ggml_alloc::DynAllocator;
use super::kv::ContextSize;
use std::collections::HashMap;

/// Bytes of an f32.
const F32: u64 = 4;

/// `bytes · t · values`, saturating.
fn act(bytes: u64, t: u64, values: u64) -> u64 {
    bytes.saturating_mul(t).saturating_mul(values)
}

/// The smallest batch a GPU takes a host weight's product for
/// (`ggml-cuda.cu`, `ggml_backend_cuda_device_offload_op`: 32).
const OFFLOAD_MIN_BATCH: u64 = 32;

/// Buffer alignment, bytes: a GPU's (`ggml_backend_cuda_buffer_type_get_alignment`
/// 128) and the host's (`TENSOR_ALIGNMENT` 32). Below a MiB either way.
const GPU_ALIGN: u64 = 128;
const HOST_ALIGN: u64 = 32;

/// Where the graph runs.
pub(crate) struct Placement<'a> {
    pub n_gpu: usize,
    /// Each repeating layer's device (its attention weights and cache).
    pub layer_dev: &'a [Option<usize>],
    /// Each weight's device and bytes, by GGUF name.
    pub weights: &'a HashMap<String, (Option<usize>, u64)>,
    pub op_offload: bool,
    pub flash_attn: bool,
    /// MLA cached per head, as before the latent cache (builds before
    /// b5139, [`super::build::MlaCache::PerHead`]): the graph expands K
    /// and V of every head.
    pub mla_per_head: bool,
    /// The scheduler's copies of each input (`n_copies`: 4 =
    /// `GGML_SCHED_MAX_COPIES` with pipeline parallelism, else 1).
    pub n_copies: u64,
    /// The build writes the cache at row indices (`ggml_set_rows`,
    /// [`super::build::Change::KvSetRows`]): see [`set_rows_inputs`].
    pub set_rows: bool,
    /// MLA keeps no V buffer (V is a view of K,
    /// [`super::build::MlaCache::Latent`]): no V is written.
    pub v_less: bool,
    /// The build has a BLAS backend (`GGML_BLAS`: on by default on macOS,
    /// Accelerate; `-DGGML_BLAS=ON` elsewhere), placed between the GPUs and
    /// the CPU backend: see [`BLAS_MIN`].
    pub blas: bool,
}

/// The BLAS backend takes a product on a host weight when all three of its
/// sizes are at least 32 (`ggml-blas.cpp`, `supports_op`: `ne0`, `ne1`,
/// `ne10` ≥ `min_batch` 32; `MUL_MAT` only, not `MUL_MAT_ID`). The
/// scheduler gives an op on a weight to the first backend that takes both
/// the weight's buffer and the op (`ggml_backend_sched_backend_from_buffer`);
/// BLAS takes any host buffer, so the product is BLAS's, and `op_offload`,
/// which only moves ops from the last backend (the CPU), never sees it. Its
/// compute buffer is the CPU buffer type (`CPU compute buffer size`, printed
/// beside the CPU backend's `CUDA_Host` one): the products' outputs and the
/// copies of their inputs.
///
/// ```text
/// BLAS(op) ⇔ weight on the host ∧ op = MUL_MAT ∧ T ≥ 32 ∧ out ≥ 32 ∧ in ≥ 32
/// ```
const BLAS_MIN: u64 = 32;

/// The phase a node belongs to (for the reported phases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Inputs,
    Attention,
    Ffn,
    Output,
    Staged,
}

#[derive(Debug, Clone)]
struct Node {
    /// Backend: `0..n_gpu` GPUs, `n_gpu` the host.
    backend: usize,
    bytes: u64,
    srcs: Vec<usize>,
    inplace: bool,
    input: bool,
    output: bool,
    /// A weight (not allocated in a compute buffer).
    weight: bool,
    /// A split's copy of a tensor from another backend.
    copy: bool,
    phase: Phase,
}

/// Each backend's compute buffer and the high-water mark it had reached at
/// the end of each phase's nodes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reserved {
    /// Per GPU, then the host (the CPU backend), then BLAS where the build
    /// has it.
    pub bytes: Vec<u64>,
    /// Per GPU: the bytes of its copies of the graph inputs (masks,
    /// positions), then the high-water marks at the end of the attention,
    /// feed-forward, output and staged-weight nodes.
    pub phases: Vec<[u64; 5]>,
}

pub(super) struct Builder<'a> {
    p: &'a Placement<'a>,
    host: usize,
    t: u64,
    nodes: Vec<Node>,
    weight_ids: HashMap<String, usize>,
    phase: Phase,
    fused_up: bool,
    /// The BLAS backend's index (after the host), if the build has one.
    blas: Option<usize>,
}

impl<'a> Builder<'a> {
    /// An empty graph of `t` tokens over `p`.
    pub(super) fn new(p: &'a Placement<'a>, t: u64) -> Builder<'a> {
        Builder {
            p,
            host: p.n_gpu,
            t,
            nodes: Vec::new(),
            weight_ids: HashMap::new(),
            phase: Phase::Inputs,
            fused_up: false,
            blas: p.blas.then_some(p.n_gpu + 1),
        }
    }

    /// Bytes of node `id`.
    pub(super) fn bytes(&self, id: usize) -> u64 {
        self.nodes[id].bytes
    }

    /// The buffers ggml reserves for the graph the `roots` expand, in
    /// order (`ggml_build_forward_expand` on each: every node after its
    /// sources, first source first, each once).
    pub(super) fn reserve_expanded(self, roots: &[usize]) -> Reserved {
        let (n_gpu, n_copies, host) = (self.p.n_gpu, self.p.n_copies, self.host);
        let n_backends = host + 1 + usize::from(self.p.blas);
        let nodes = expanded(self.nodes, roots);
        allocate(split(nodes, host), n_gpu, n_backends, n_copies)
    }
}

/// The nodes `roots` reach, renumbered in ggml's graph order: a depth-first
/// walk from each root in turn, a node after its sources (left to right,
/// `ggml_visit_parents`), each node once.
fn expanded(nodes: Vec<Node>, roots: &[usize]) -> Vec<Node> {
    let mut order: Vec<usize> = Vec::new();
    let mut seen = vec![false; nodes.len()];
    for &root in roots {
        // (node, next source to visit)
        let mut stack = vec![(root, 0usize)];
        while let Some((id, next)) = stack.pop() {
            if next == 0 && seen[id] {
                continue;
            }
            seen[id] = true;
            match nodes[id].srcs.get(next) {
                Some(&src) => {
                    stack.push((id, next + 1));
                    if !seen[src] {
                        stack.push((src, 0));
                    }
                }
                None => order.push(id),
            }
        }
    }
    let mut renum = vec![usize::MAX; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        renum[old] = new;
    }
    order
        .iter()
        .map(|&old| {
            let mut n = nodes[old].clone();
            n.srcs = n.srcs.iter().map(|s| renum[*s]).collect();
            n
        })
        .collect()
}

impl Builder<'_> {
    /// Where an op over `x` runs when it runs where `x` is: BLAS runs
    /// products only, so the rest of a BLAS product's users run on the CPU
    /// backend (`ggml_backend_sched_split_graph`, pass 3: an unassigned
    /// node goes to the backend that supports it and most of its inputs'
    /// buffers).
    fn at(&self, x: usize) -> usize {
        let b = self.nodes[x].backend;
        match Some(b) == self.blas {
            true => self.host,
            false => b,
        }
    }

    fn push(&mut self, n: Node) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    pub(super) fn input(&mut self, bytes: u64) -> usize {
        let host = self.host;
        self.push(Node {
            backend: host,
            bytes,
            srcs: vec![],
            inplace: false,
            input: true,
            output: false,
            weight: false,
            copy: false,
            phase: Phase::Inputs,
        })
    }

    pub(super) fn weight(&mut self, name: &str) -> Option<usize> {
        if let Some(id) = self.weight_ids.get(name) {
            return Some(*id);
        }
        let (dev, bytes) = *self.p.weights.get(name)?;
        let id = self.push(Node {
            backend: dev.unwrap_or(self.host),
            bytes,
            srcs: vec![],
            inplace: false,
            input: false,
            output: false,
            weight: true,
            copy: false,
            phase: Phase::Inputs,
        });
        self.weight_ids.insert(name.to_string(), id);
        Some(id)
    }

    /// An op of `bytes` on `backend` over `srcs`.
    pub(super) fn op(
        &mut self,
        backend: usize,
        bytes: u64,
        srcs: &[usize],
        inplace: bool,
    ) -> usize {
        let phase = self.phase;
        self.push(Node {
            backend,
            bytes,
            srcs: srcs.to_vec(),
            inplace,
            input: false,
            output: false,
            weight: false,
            copy: false,
            phase,
        })
    }

    /// An element-wise op: runs where its first input is, over it.
    pub(super) fn ew(&mut self, x: usize, others: &[usize]) -> usize {
        let (b, bytes) = (self.at(x), self.nodes[x].bytes);
        let mut srcs = vec![x];
        srcs.extend_from_slice(others);
        self.op(b, bytes, &srcs, true)
    }

    /// A product with the weight `name` writing `values` per token; runs
    /// where the weight is, a host weight's on BLAS where it takes it
    /// ([`BLAS_MIN`]), else on the first GPU when offloading. `None` where
    /// the file has no such weight. `extra` (the selected experts) makes it
    /// a `MUL_MAT_ID`.
    fn mm(&mut self, name: &str, x: usize, values: u64, extra: &[usize]) -> Option<usize> {
        let w = self.weight(name)?;
        let mut b = self.nodes[w].backend;
        let width = self.nodes[x].bytes / act(F32, self.t, 1).max(1);
        let blas = self.blas.filter(|_| {
            b == self.host
                && extra.is_empty()
                && self.t >= BLAS_MIN
                && values >= BLAS_MIN
                && width >= BLAS_MIN
        });
        if let Some(i) = blas {
            b = i;
        } else if b == self.host
            && self.p.op_offload
            && self.p.n_gpu > 0
            && self.t >= OFFLOAD_MIN_BATCH
        {
            b = 0;
        }
        let mut srcs = vec![w, x];
        srcs.extend_from_slice(extra);
        Some(self.op(b, act(F32, self.t, values), &srcs, false))
    }

    /// A norm with its weight: `rms_norm(x)` (in place when `x` has no
    /// other use) then `· w`.
    fn norm(&mut self, name: &str, x: usize, backend: usize) -> usize {
        let bytes = self.nodes[x].bytes;
        let n = self.op(backend, bytes, &[x], true);
        match self.weight(name) {
            Some(w) => self.op(backend, bytes, &[n, w], true),
            None => n,
        }
    }
}

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
        fused_up: matches!(l.arch, super::arch::Arch::Phi3 | super::arch::Arch::Glm4),
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
fn set_rows_inputs(b: &mut Builder, l: &Layout) -> Vec<usize> {
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

/// One split: a run of nodes on one backend, and the copies of what it
/// reads from other backends, made at its start.
struct SplitNodes {
    copies: Vec<usize>,
    nodes: Vec<usize>,
}

/// The scheduler's splits (`ggml_backend_sched_split_graph`): a new split
/// where the backend changes and before each product on a weight copied
/// from another backend; each tensor read on another backend (other than
/// between the host's own two, CPU and BLAS) copied there once (the copy then serves every later split on that backend). Returns
/// the nodes with the copies appended, and the order they are allocated in.
fn split(mut nodes: Vec<Node>, host: usize) -> (Vec<Node>, Vec<usize>) {
    // The CPU and BLAS backends read each other's buffers and the host
    // weights in place (both take any host buffer type:
    // `ggml_backend_sched_buffer_supported`): no copies between them.
    let reads = |from: usize, on: usize| from == on || (from >= host && on >= host);
    let mut splits: Vec<SplitNodes> = Vec::new();
    let mut cur: Option<usize> = None;
    let mut copies: HashMap<(usize, usize), usize> = HashMap::new();
    let n = nodes.len();
    for i in 0..n {
        if nodes[i].weight || nodes[i].input {
            continue;
        }
        let be = nodes[i].backend;
        let foreign_weight = nodes[i]
            .srcs
            .iter()
            .any(|s| nodes[*s].weight && !reads(nodes[*s].backend, be));
        let new = match cur {
            Some(c) => {
                c != be || (foreign_weight && splits.last().is_some_and(|s| !s.copies.is_empty()))
            }
            None => true,
        };
        if new {
            splits.push(SplitNodes {
                copies: vec![],
                nodes: vec![],
            });
            cur = Some(be);
        }
        let srcs = nodes[i].srcs.clone();
        let mut new_srcs = Vec::with_capacity(srcs.len());
        for s in srcs {
            let sb = nodes[s].backend;
            if reads(sb, be) {
                new_srcs.push(s);
                continue;
            }
            let id = match copies.get(&(s, be)) {
                Some(c) => *c,
                None => {
                    let c = nodes.len();
                    let mut copy = nodes[s].clone();
                    copy.backend = be;
                    copy.srcs = vec![s];
                    copy.inplace = false;
                    copy.input = false;
                    copy.output = false;
                    copy.phase = match copy.weight {
                        true => Phase::Staged,
                        false => nodes[i].phase,
                    };
                    copy.weight = false;
                    copy.copy = true;
                    nodes.push(copy);
                    copies.insert((s, be), c);
                    if let Some(sp) = splits.last_mut() {
                        sp.copies.push(c);
                    }
                    c
                }
            };
            new_srcs.push(id);
        }
        nodes[i].srcs = new_srcs;
        if foreign_weight {
            nodes[i].phase = Phase::Staged;
        }
        if let Some(sp) = splits.last_mut() {
            sp.nodes.push(i);
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|i| nodes[*i].input).collect();
    for s in splits {
        order.extend(s.copies);
        order.extend(s.nodes);
    }
    (nodes, order)
}

/// Replays ggml's allocator over the nodes in order, one buffer per
/// backend.
///
/// With pipeline parallelism (`n_copies` > 1) the scheduler keeps
/// `n_copies` of every graph input and every split's input copy, placed
/// first as leaves and never freed (`ggml_set_input` + `ggml_set_output`
/// on each copy in `ggml_backend_sched_split_graph`):
///
/// ```text
/// pinned(backend) = n_copies · Σ bytes of its graph inputs and input copies
/// ```
fn allocate(
    (nodes, order): (Vec<Node>, Vec<usize>),
    n_gpu: usize,
    n_backends: usize,
    n_copies: u64,
) -> Reserved {
    let mut alloc: Vec<DynAllocator> = (0..n_backends)
        .map(|b| DynAllocator::new(if b < n_gpu { GPU_ALIGN } else { HOST_ALIGN }))
        .collect();
    let mut children = vec![0u32; nodes.len()];
    for i in &order {
        for s in &nodes[*i].srcs {
            children[*s] += 1;
        }
    }
    // Each tensor's memory: (backend, offset, bytes), `None` where it owns
    // none (weights, views, freed or handed on).
    let mut mem: Vec<Option<(usize, u64, u64)>> = vec![None; nodes.len()];
    let mut phases = vec![[0u64; 5]; n_gpu];
    let pinned = |n: &Node| n_copies > 1 && (n.input || n.copy);
    for &i in &order {
        let node = &nodes[i];
        if pinned(node) && node.bytes > 0 {
            let off = alloc[node.backend].alloc(node.bytes);
            mem[i] = Some((node.backend, off, node.bytes));
            for _ in 1..n_copies {
                alloc[node.backend].alloc(node.bytes);
            }
        }
    }
    for &i in &order {
        let node = &nodes[i];
        if node.bytes > 0 && !pinned(node) {
            let reuse = match node.inplace {
                true => node.srcs.iter().copied().find(|s| {
                    let sn = &nodes[*s];
                    children[*s] == 1
                        && !pinned(sn)
                        && !sn.input
                        && !sn.output
                        && sn.bytes == node.bytes
                        && mem[*s].is_some_and(|(b, _, _)| b == node.backend)
                }),
                false => None,
            };
            mem[i] = match reuse {
                Some(s) => mem[s].take(),
                None => {
                    let off = alloc[node.backend].alloc(node.bytes);
                    Some((node.backend, off, node.bytes))
                }
            };
        }
        for s in &node.srcs {
            children[*s] = children[*s].saturating_sub(1);
            if children[*s] == 0 && !nodes[*s].output && !pinned(&nodes[*s]) {
                if let Some((b, off, bytes)) = mem[*s].take() {
                    alloc[b].free(off, bytes);
                }
            }
        }
        if node.backend < n_gpu {
            if node.srcs.iter().any(|s| nodes[*s].input) {
                phases[node.backend][0] = phases[node.backend][0].saturating_add(node.bytes);
            }
            let k = node.phase as usize;
            let ph = &mut phases[node.backend];
            ph[k] = ph[k].max(alloc[node.backend].max_size());
        }
    }
    Reserved {
        bytes: alloc.iter().map(|a| a.max_size()).collect(),
        phases,
    }
}
