//! The KV cache vLLM's V1 engine allocates: per-layer page sizes, the
//! grouping of hybrid models, blocks, the token count it logs, the
//! concurrency, and the longest context that starts.
//!
//! Sources: vLLM `vllm/v1/kv_cache_interface.py` (`FullAttentionSpec`,
//! `SlidingWindowSpec`, `ChunkedLocalAttentionSpec`, `MLAAttentionSpec`,
//! `UniformTypeKVCacheSpecs`) and `vllm/v1/core/kv_cache_utils.py`
//! (`get_kv_cache_groups`, `_get_kv_cache_groups_uniform_page_size`,
//! `get_kv_cache_config_from_groups`, `get_num_blocks`,
//! `get_kv_cache_configs`, `_report_kv_cache_config`,
//! `get_max_concurrency_for_kv_cache_config`,
//! `_max_memory_usage_bytes_from_groups`,
//! `_estimate_max_model_len_from_groups`).

use crate::model::{AttentionKind, ModelSpec};
use serde::Serialize;

/// What one attention layer caches, per vLLM's spec classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LayerSpec {
    /// Keys and values for every token (`FullAttentionSpec`).
    Full { page: u64 },
    /// Keys and values for the last `window` tokens (`SlidingWindowSpec`).
    Sliding { page: u64, window: u64 },
    /// Keys and values within a chunk (`ChunkedLocalAttentionSpec`).
    Chunked { page: u64, chunk: u64 },
    /// One latent per token (`MLAAttentionSpec`).
    Mla { page: u64 },
}

impl LayerSpec {
    /// Bytes of one block of this layer (`page_size_bytes`).
    pub fn page(self) -> u64 {
        match self {
            LayerSpec::Full { page }
            | LayerSpec::Sliding { page, .. }
            | LayerSpec::Chunked { page, .. }
            | LayerSpec::Mla { page } => page,
        }
    }

    fn with_page(self, page: u64) -> LayerSpec {
        match self {
            LayerSpec::Full { .. } => LayerSpec::Full { page },
            LayerSpec::Sliding { window, .. } => LayerSpec::Sliding { page, window },
            LayerSpec::Chunked { chunk, .. } => LayerSpec::Chunked { page, chunk },
            LayerSpec::Mla { .. } => LayerSpec::Mla { page },
        }
    }

    /// The spec's type, which decides grouping (same type and window).
    fn type_key(self) -> (u8, u64) {
        match self {
            LayerSpec::Full { .. } => (0, 0),
            LayerSpec::Mla { .. } => (1, 0),
            LayerSpec::Sliding { window, .. } => (2, window),
            LayerSpec::Chunked { chunk, .. } => (3, chunk),
        }
    }

    /// Bytes one request of `len` tokens may need in this layer.
    ///
    /// # Formula
    ///
    /// ```text
    /// full, MLA:  ⌈L/B⌉ · page
    /// sliding:    (⌈min(W − 1 + T, L)/B⌉ + 1) · page
    /// chunked:    ⌈min(C + T, L)/B⌉ · page
    /// ```
    ///
    /// `L` `max_model_len`, `B` tokens per block, `T`
    /// `max_num_batched_tokens`, `W` window, `C` chunk. Source:
    /// `max_memory_usage_bytes` of each spec class.
    pub fn max_memory(self, len: u64, block: u64, batch_tokens: u64) -> u128 {
        let block = block.max(1);
        let pages = match self {
            LayerSpec::Full { .. } | LayerSpec::Mla { .. } => len.div_ceil(block),
            LayerSpec::Sliding { window, .. } => {
                let tokens = (window.saturating_sub(1).saturating_add(batch_tokens)).min(len);
                tokens.div_ceil(block) + 1
            }
            LayerSpec::Chunked { chunk, .. } => {
                chunk.saturating_add(batch_tokens).min(len).div_ceil(block)
            }
        };
        pages as u128 * self.page() as u128
    }
}

/// The layer specs of a model on `tp` GPUs (`None` for layers that cache
/// nothing), or the kind of layer vramfit cannot lay out: recurrent
/// layers, latent attention with a sparse-attention indexer (vLLM keeps
/// the indexer's keys in a cache of their own), compressed attention.
///
/// # Formula
///
/// `page = 2 · B · max(1, H_kv/tp) · d · b_kv` for attention layers,
/// `page = B · (r_kv + d_rope) · b_kv` for MLA (one latent, not split by
/// tensor parallelism); `B` tokens per block, `b_kv` bytes per cached
/// element. Source: `AttentionSpec.real_page_size_bytes`,
/// `MLAAttentionSpec.real_page_size_bytes`.
pub fn layer_specs(
    spec: &ModelSpec,
    tp: u64,
    block: u64,
    kv_bytes: u64,
) -> Result<Vec<Option<LayerSpec>>, AttentionKind> {
    spec.attention
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let heads = spec
                .kv_heads_by_layer
                .as_ref()
                .map_or(spec.num_kv_heads, |h| h.get(i).copied().unwrap_or(0));
            let dims = spec
                .kv_dims_by_layer
                .as_ref()
                .map_or(2 * spec.head_dim, |d| d.get(i).copied().unwrap_or(0));
            let kv_heads = (heads / tp.max(1)).max(1);
            let attention_page = block * kv_heads * dims * kv_bytes;
            Ok(match *kind {
                AttentionKind::Full => Some(LayerSpec::Full {
                    page: attention_page,
                }),
                AttentionKind::SlidingWindow { window } => Some(LayerSpec::Sliding {
                    page: attention_page,
                    window,
                }),
                AttentionKind::Chunked { chunk } => Some(LayerSpec::Chunked {
                    page: attention_page,
                    chunk,
                }),
                AttentionKind::Mla { latent } => Some(LayerSpec::Mla {
                    page: block * latent * kv_bytes,
                }),
                AttentionKind::None => None,
                other @ (AttentionKind::Linear { .. }
                | AttentionKind::SparseMla { .. }
                | AttentionKind::Indexed { .. }
                | AttentionKind::Compressed { .. }) => return Err(other),
            })
        })
        .collect()
}

/// How the engine groups the layers of the whole model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grouping {
    /// Layer indices of each group (padding layers not listed).
    pub groups: Vec<Vec<u64>>,
    /// The spec of each group (after page unification).
    pub specs: Vec<LayerSpec>,
    /// All layers in one group with different pages
    /// (`UniformTypeKVCacheSpecs`): a block spans every layer.
    pub uniform_type: bool,
    /// Tokens per block of each group.
    pub block_sizes: Vec<u64>,
    /// Per-layer page bytes (after unification), by layer index.
    pub pages: Vec<(u64, u64)>,
}

/// A layer after page unification: index, spec, tokens per block.
type Unified = (u64, LayerSpec, u64);

/// Groups the layers as `get_kv_cache_groups` does.
///
/// # Formula
///
/// - every layer the same spec: one group;
/// - same type, different pages: one group, a block spans all layers;
/// - otherwise pages are unified to the largest (smaller ones take
///   `B · page_max/page` tokens per block), layers are split by type, and
///   each type into `⌈n/g⌉` groups of `g` layers, `g` the fewest layers of
///   any type (the most, if that is under 1.5 × the fewest); group `i` of
///   a type takes its layers `i, i + k, …` (`k` its number of groups).
///
/// Gemma-3-4B: 5 full + 29 sliding layers → `g = 5`, 1 + 6 = 7 groups.
pub fn group_layers(specs: &[Option<LayerSpec>], block: u64) -> Grouping {
    let layers: Vec<(u64, LayerSpec)> = specs
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i as u64, s)))
        .collect();
    let pages = |ls: &[(u64, LayerSpec)]| ls.iter().map(|(i, s)| (*i, s.page())).collect();
    let Some(&(_, first)) = layers.first() else {
        return Grouping {
            groups: Vec::new(),
            specs: Vec::new(),
            uniform_type: false,
            block_sizes: Vec::new(),
            pages: Vec::new(),
        };
    };
    if layers.iter().all(|(_, s)| *s == first) {
        return Grouping {
            groups: vec![layers.iter().map(|(i, _)| *i).collect()],
            specs: vec![first],
            uniform_type: false,
            block_sizes: vec![block],
            pages: pages(&layers),
        };
    }
    if layers.iter().all(|(_, s)| s.type_key() == first.type_key()) {
        return Grouping {
            groups: vec![layers.iter().map(|(i, _)| *i).collect()],
            specs: vec![first],
            uniform_type: true,
            block_sizes: vec![block],
            pages: pages(&layers),
        };
    }
    // Unify pages: smaller pages grow their block size to the largest.
    let max_page = layers.iter().map(|(_, s)| s.page()).max().unwrap_or(0);
    let unified: Vec<Unified> = layers
        .iter()
        .map(|(i, s)| {
            let ratio = match s.page() {
                0 => 1,
                p => (max_page / p).max(1),
            };
            (*i, s.with_page(max_page), block * ratio)
        })
        .collect();
    let mut types: Vec<((u8, u64), Vec<Unified>)> = Vec::new();
    for entry in &unified {
        match types.iter_mut().find(|(k, _)| *k == entry.1.type_key()) {
            Some((_, list)) => list.push(*entry),
            None => types.push((entry.1.type_key(), vec![*entry])),
        }
    }
    let fewest = types.iter().map(|(_, l)| l.len()).min().unwrap_or(1) as u64;
    let most = types.iter().map(|(_, l)| l.len()).max().unwrap_or(1) as u64;
    let group_size = match 2 * most < 3 * fewest {
        true => most,
        false => fewest,
    }
    .max(1);
    let mut grouping = Grouping {
        groups: Vec::new(),
        specs: Vec::new(),
        uniform_type: false,
        block_sizes: Vec::new(),
        pages: unified.iter().map(|(i, s, _)| (*i, s.page())).collect(),
    };
    for (_, list) in &types {
        let count = (list.len() as u64).div_ceil(group_size) as usize;
        for g in 0..count {
            let members: Vec<u64> = list.iter().skip(g).step_by(count).map(|e| e.0).collect();
            grouping.groups.push(members);
            grouping.specs.push(list[0].1);
            grouping.block_sizes.push(list[0].2);
        }
    }
    grouping
}

/// One worker's view of the grouping: its layers in each group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerGroups<'a> {
    pub grouping: &'a Grouping,
    /// Layers of each group that live on the worker.
    pub members: Vec<Vec<u64>>,
}

impl<'a> WorkerGroups<'a> {
    /// The groups projected onto the layers `start..end`
    /// (`_project_kv_cache_groups_to_worker`).
    pub fn project(grouping: &'a Grouping, start: u64, end: u64) -> WorkerGroups<'a> {
        let members = grouping
            .groups
            .iter()
            .map(|g| {
                g.iter()
                    .copied()
                    .filter(|i| (start..end).contains(i))
                    .collect()
            })
            .collect();
        WorkerGroups { grouping, members }
    }

    /// Layers in the largest group on this worker.
    pub fn group_size(&self) -> u64 {
        self.members.iter().map(Vec::len).max().unwrap_or(0) as u64
    }

    /// Bytes of one block across the worker's layers: `page · g` in
    /// general, the sum of pages for a uniform-type group.
    pub fn block_bytes(&self) -> u128 {
        match self.grouping.uniform_type {
            true => self
                .members
                .iter()
                .flatten()
                .map(|i| self.page_of(*i) as u128)
                .sum(),
            false => {
                let page = self.grouping.specs.first().map_or(0, |s| s.page());
                page as u128 * self.group_size() as u128
            }
        }
    }

    fn page_of(&self, layer: u64) -> u64 {
        self.grouping
            .pages
            .iter()
            .find(|(i, _)| *i == layer)
            .map_or(0, |(_, p)| *p)
    }

    /// Blocks the worker can hold in `available` bytes.
    ///
    /// # Formula
    ///
    /// `blocks = ⌊⌊M_kv / page⌋ / g⌋` (`get_num_blocks`), or `⌊M_kv / Σ
    /// page⌋` for a uniform-type group; 0 when `M_kv ≤ 0`.
    pub fn blocks(&self, available: i128) -> u64 {
        if available <= 0 {
            return 0;
        }
        let available = available as u128;
        let result = match self.grouping.uniform_type {
            true => match self.block_bytes() {
                0 => 0,
                bytes => available / bytes,
            },
            false => {
                let page = self.grouping.specs.first().map_or(0, |s| s.page()) as u128;
                let g = self.group_size() as u128;
                match (page, g) {
                    (0, _) | (_, 0) => 0,
                    _ => available / page / g,
                }
            }
        };
        crate::units::saturate(result)
    }

    /// Bytes one request of `len` tokens needs on this worker
    /// (`_max_memory_usage_bytes_from_groups`).
    ///
    /// # Formula
    ///
    /// `g · page · Σ_groups ⌈need(group, L)/page⌉` in general (every
    /// group counts, even one with no layer here); for a uniform-type
    /// group `Σ_layers need(layer, L)`.
    pub fn needed(&self, len: u64, block: u64, batch_tokens: u64) -> u128 {
        let g = self.grouping;
        if g.uniform_type {
            return self
                .members
                .iter()
                .flatten()
                .map(|i| {
                    let page = self.page_of(*i);
                    g.specs[0]
                        .with_page(page)
                        .max_memory(len, block, batch_tokens)
                })
                .sum();
        }
        let page = g.specs.first().map_or(0, |s| s.page()) as u128;
        if page == 0 {
            return 0;
        }
        let pages: u128 = g
            .specs
            .iter()
            .zip(&g.block_sizes)
            .map(|(s, b)| s.max_memory(len, *b, batch_tokens).div_ceil(page))
            .sum();
        self.group_size() as u128 * page * pages
    }

    /// Requests of `len` tokens the blocks hold at once, as logged
    /// ("Maximum concurrency for L tokens per request").
    ///
    /// # Formula
    ///
    /// `blocks / ⌈g · Σ_groups need(group, L) / (page₀ · g)⌉`
    /// (`get_max_concurrency_for_kv_cache_config`).
    pub fn concurrency(&self, blocks: u64, len: u64, block: u64, batch_tokens: u64) -> f64 {
        let g = self.grouping;
        let per_group = self.group_size().max(1) as u128;
        let (first_page, total): (u128, u128) = match g.uniform_type {
            true => {
                let sum = self.block_bytes();
                let pages: u128 = self
                    .members
                    .iter()
                    .flatten()
                    .map(|i| {
                        let page = self.page_of(*i);
                        g.specs[0]
                            .with_page(page)
                            .max_memory(len, block, batch_tokens)
                            .div_ceil(page.max(1) as u128)
                    })
                    .max()
                    .unwrap_or(0);
                (sum, pages * sum)
            }
            false => (
                g.specs.first().map_or(0, |s| s.page()) as u128,
                g.specs
                    .iter()
                    .zip(&g.block_sizes)
                    .map(|(s, b)| s.max_memory(len, *b, batch_tokens))
                    .sum(),
            ),
        };
        let (per_request, per_block) = match g.uniform_type {
            true => (total, first_page),
            false => (per_group * total, first_page * per_group),
        };
        if per_block == 0 {
            return 0.0;
        }
        let blocks_per_request = per_request.div_ceil(per_block).max(1);
        blocks as f64 / blocks_per_request as f64
    }
}

/// Tokens the engine logs for `blocks` ("GPU KV cache size: N tokens").
///
/// # Formula
///
/// `tokens = ⌊blocks / groups⌋ · min block size` (`_report_kv_cache_config`).
pub fn tokens(grouping: &Grouping, blocks: u64) -> u64 {
    let groups = grouping.groups.len().max(1) as u64;
    let block = grouping.block_sizes.iter().copied().min().unwrap_or(0);
    (blocks / groups).saturating_mul(block)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(page: u64) -> Option<LayerSpec> {
        Some(LayerSpec::Full { page })
    }

    fn sliding(page: u64, window: u64) -> Option<LayerSpec> {
        Some(LayerSpec::Sliding { page, window })
    }

    #[test]
    fn uniform_model_is_one_group() {
        // Llama-3.1-8B: 2 · 16 tokens · 8 KV heads · 128 · 2 bytes.
        let specs = vec![full(65_536); 32];
        let g = group_layers(&specs, 16);
        assert_eq!(g.groups.len(), 1);
        let w = WorkerGroups::project(&g, 0, 32);
        // Llama-3.1-8B with 58.11 GiB: ⌊58.11 GiB / 64 KiB / 32⌋ = 29,752
        // blocks, 476,032 tokens (the log, whose 58.11 is rounded: 29,751).
        let available = (5811u128 << 30) / 100;
        let blocks = w.blocks(available as i128);
        assert_eq!(blocks, 29_752);
        assert_eq!(tokens(&g, blocks), 476_032);
        assert_eq!(
            (w.concurrency(blocks, 8192, 16, 8192) * 100.0).round(),
            5811.0
        );
    }

    #[test]
    fn gemma3_4b_has_seven_groups() {
        let specs: Vec<_> = (0..34)
            .map(|i| match (i + 1) % 6 == 0 {
                true => full(65_536),
                false => sliding(65_536, 1024),
            })
            .collect();
        let g = group_layers(&specs, 16);
        assert_eq!(g.groups.len(), 7);
        // Types in order of first appearance: the sliding layers' six
        // groups first (layers i, i + 6, ... of them), then the full one.
        assert_eq!(g.groups[0], [0, 7, 14, 21, 28]);
        assert_eq!(g.groups[6], [5, 11, 17, 23, 29]);
        let w = WorkerGroups::project(&g, 0, 34);
        assert_eq!(w.group_size(), 5);
        // The log: 204,817 blocks, 468,144 tokens, 57.05× at 8192.
        assert_eq!(tokens(&g, 204_817), 468_144);
        assert_eq!(
            (w.concurrency(204_817, 8192, 16, 8192) * 100.0).round(),
            5705.0
        );
    }

    #[test]
    fn gemma2_concurrency_counts_the_window_block() {
        let specs: Vec<_> = (0..42)
            .map(|i| match i % 2 {
                0 => sliding(131_072, 4096),
                _ => full(131_072),
            })
            .collect();
        let g = group_layers(&specs, 16);
        assert_eq!(g.groups.len(), 2);
        let w = WorkerGroups::project(&g, 0, 42);
        // 512 + 513 blocks per request; the log says 20.60×.
        assert_eq!(
            (w.concurrency(21_110, 8192, 16, 8192) * 100.0).round(),
            2060.0
        );
        assert_eq!(tokens(&g, 21_110), 168_880);
    }

    #[test]
    fn no_memory_no_blocks_and_needs_grow_with_length() {
        let g = group_layers(&[full(100); 4], 16);
        let w = WorkerGroups::project(&g, 0, 4);
        assert_eq!(w.blocks(0), 0);
        assert_eq!(w.blocks(-5), 0);
        assert!(w.needed(8192, 16, 8192) > w.needed(4096, 16, 8192));
        assert_eq!(w.needed(16, 16, 8192), 4 * 100);
    }
}
