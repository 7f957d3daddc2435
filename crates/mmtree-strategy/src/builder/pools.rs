//! Guess pools cut down by symmetry: the codes whose interchangeable colours come in canonical
//! order, laid out for the 32-wide scans once and kept, since the same few classes of free
//! and absent colours recur at thousands of nodes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mmtree_core::{canonical_codes, CodeIndex, CodePool, CodeSpace};

/// Most bytes the reduced pools of one solver keep.
const POOL_CACHE_BYTES: usize = 256 << 20;

/// Reduced pools by (free colour classes, colours left out, largest first), within a byte
/// budget.
#[derive(Default)]
pub(super) struct PoolCache {
    inner: Mutex<Cached>,
}

#[derive(Default)]
struct Cached {
    /// `None`: the reduction drops too little to be worth a pool of its own.
    pools: HashMap<([u64; 2], u64, bool), Option<Arc<CodePool>>>,
    bytes: usize,
}

impl PoolCache {
    /// The pool cut down to codes whose colours of each class of `free` come in canonical
    /// order ([`canonical_codes`]) and that have none of the colours `blank`, laid out with
    /// their indices, when that drops at least a quarter of it; `None` when it does not (or
    /// nothing is interchangeable).
    pub(super) fn get(&self, space: &CodeSpace, free: [u64; 2], blank: u64, largest: bool) -> Option<Arc<CodePool>> {
        if free.iter().all(|class| class.count_ones() <= 1) {
            return None;
        }
        {
            let cache = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(pool) = cache.pools.get(&(free, blank, largest)) {
                return pool.clone();
            }
            if cache.bytes >= POOL_CACHE_BYTES {
                return None;
            }
        }
        let mut indices = Vec::new();
        canonical_codes(space.game(), free, largest, |code, i| {
            if blank == 0 || code.pegs().iter().all(|&c| blank >> c & 1 == 0) {
                indices.push(CodeIndex::from_index(i));
            }
        });
        let pool = (indices.len() * 4 <= space.len() * 3).then(|| Arc::new(CodePool::new(space, indices)));
        let mut cache = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let bytes = pool.as_ref().map_or(0, |p| p.bytes());
        if cache.bytes + bytes <= POOL_CACHE_BYTES {
            cache.bytes += bytes;
            cache.pools.insert((free, blank, largest), pool.clone());
        }
        pool
    }
}
