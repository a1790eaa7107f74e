//! The scheduler's splits of the graph over the backends, and the copies
//! of what a split reads from another backend.

use super::{Node, Phase};
use std::collections::HashMap;

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
pub(super) fn split(mut nodes: Vec<Node>, host: usize) -> (Vec<Node>, Vec<usize>) {
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
