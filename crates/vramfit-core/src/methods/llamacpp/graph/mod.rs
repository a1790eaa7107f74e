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
//!
//! The graph's nodes and the builder's primitives are here; the text
//! model's graph is [`forward`], the scheduler's splits [`splits`], the
//! allocator's replay over them [`allocator`].

mod allocator;
mod forward;
mod splits;

pub(crate) use forward::reserve;

use allocator::allocate;
use splits::split;
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
    /// [`super::build::Change::KvSetRows`]): see [`forward::set_rows_inputs`].
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
