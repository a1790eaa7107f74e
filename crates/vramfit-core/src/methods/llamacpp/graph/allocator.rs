//! ggml's allocator replayed over the scheduled nodes: each backend's
//! compute buffer is its high-water mark.

use super::super::ggml_alloc::DynAllocator;
use super::{Node, Reserved};

/// Buffer alignment, bytes: a GPU's (`ggml_backend_cuda_buffer_type_get_alignment`
/// 128) and the host's (`TENSOR_ALIGNMENT` 32). Below a MiB either way.
const GPU_ALIGN: u64 = 128;
const HOST_ALIGN: u64 = 32;

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
pub(super) fn allocate(
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
