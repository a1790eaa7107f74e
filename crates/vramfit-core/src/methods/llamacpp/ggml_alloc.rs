//! ggml's graph allocator, replayed: the high-water mark of one backend's
//! compute buffer over a graph whose tensors are allocated in order and
//! freed after their last use.
//!
//! Source: `ggml/src/ggml-alloc.c` (`ggml_dyn_tallocr_alloc`,
//! `ggml_dyn_tallocr_free_tensor`, `ggml_gallocr_allocate_node`,
//! `ggml_gallocr_alloc_graph_impl`).
//!
//! # Formula
//!
//! The buffer is a list of free blocks sorted by address, the last one
//! unbounded. A tensor of `n` bytes (rounded up to the backend's
//! alignment `a`) takes the smallest free block other than the last that
//! holds it (of equal ones, the later), else the start of the last block;
//! a freed tensor's block is merged with its free neighbours. The buffer's
//! size is the largest end offset ever taken:
//!
//! ```text
//! size = max over allocations (offset + ⌈n / a⌉ · a)
//! ```
//!
//! ```
//! # use vramfit_core::methods::llamacpp::ggml_alloc::DynAllocator;
//! let mut a = DynAllocator::new(32);
//! let x = a.alloc(100); // [0, 128)
//! let y = a.alloc(64);  // [128, 192)
//! a.free(x, 100);
//! let z = a.alloc(96);  // fits the freed block: [0, 96)
//! assert_eq!((x, y, z, a.max_size()), (0, 128, 0, 192));
//! ```

/// One free block.
#[derive(Debug, Clone, Copy)]
struct Block {
    offset: u64,
    size: u64,
}

/// `ggml_dyn_tallocr`: the free blocks of one buffer.
#[derive(Debug, Clone)]
pub struct DynAllocator {
    alignment: u64,
    blocks: Vec<Block>,
    max_size: u64,
}

impl DynAllocator {
    /// An empty buffer aligned to `alignment` bytes (at least 1).
    pub fn new(alignment: u64) -> DynAllocator {
        DynAllocator {
            alignment: alignment.max(1),
            blocks: vec![Block {
                offset: 0,
                size: u64::MAX / 2,
            }],
            max_size: 0,
        }
    }

    fn aligned(&self, size: u64) -> u64 {
        size.div_ceil(self.alignment).saturating_mul(self.alignment)
    }

    /// Places `size` bytes: the offset.
    pub fn alloc(&mut self, size: u64) -> u64 {
        let size = self.aligned(size);
        let last = self.blocks.len() - 1;
        let mut best: Option<usize> = None;
        for (i, b) in self.blocks[..last].iter().enumerate() {
            if b.size >= size && best.is_none_or(|j| b.size <= self.blocks[j].size) {
                best = Some(i);
            }
        }
        let i = best.unwrap_or(last);
        let offset = self.blocks[i].offset;
        self.blocks[i].offset = offset.saturating_add(size);
        self.blocks[i].size = self.blocks[i].size.saturating_sub(size);
        if self.blocks[i].size == 0 && i != last {
            self.blocks.remove(i);
        }
        self.max_size = self.max_size.max(offset.saturating_add(size));
        offset
    }

    /// Returns the block of `size` bytes at `offset`, merged with the
    /// free block before and after it.
    pub fn free(&mut self, offset: u64, size: u64) {
        let size = self.aligned(size);
        let end = offset.saturating_add(size);
        let n = self.blocks.len();
        for i in 0..n {
            let b = self.blocks[i];
            if b.offset.saturating_add(b.size) == offset {
                self.blocks[i].size = b.size.saturating_add(size);
                if i + 1 < n && self.blocks[i + 1].offset == end {
                    let next = self.blocks.remove(i + 1);
                    self.blocks[i].size = self.blocks[i].size.saturating_add(next.size);
                }
                return;
            }
            if end == b.offset {
                self.blocks[i].offset = offset;
                self.blocks[i].size = b.size.saturating_add(size);
                if i > 0 {
                    let prev = self.blocks[i - 1];
                    if prev.offset.saturating_add(prev.size) == offset {
                        let this = self.blocks.remove(i);
                        self.blocks[i - 1].size = prev.size.saturating_add(this.size);
                    }
                }
                return;
            }
        }
        let at = self
            .blocks
            .iter()
            .position(|b| b.offset > offset)
            .unwrap_or(self.blocks.len());
        self.blocks.insert(at, Block { offset, size });
    }

    /// The buffer's size: the high-water mark.
    pub fn max_size(&self) -> u64 {
        self.max_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_neighbours_merge_and_the_best_fit_wins() {
        let mut a = DynAllocator::new(1);
        let x = a.alloc(10);
        let y = a.alloc(20);
        let z = a.alloc(5);
        let _w = a.alloc(30);
        a.free(x, 10);
        a.free(z, 5);
        // The 5-byte hole is the best fit for 4 bytes.
        assert_eq!(a.alloc(4), z);
        a.free(y, 20);
        // 10 + 20 merged: 25 bytes fit below, without growing the buffer.
        assert_eq!(a.alloc(25), 0);
        assert_eq!(a.max_size(), 65);
        // Nothing fits below: the buffer grows.
        assert_eq!(a.alloc(40), 65);
        assert_eq!(a.max_size(), 105);
    }
}
