//! Guess pools cut down by symmetry: the codes whose interchangeable colours come in canonical
//! order and that have no blank colour, listed once and kept, since the same few classes of
//! free and absent colours recur at thousands of nodes. A pool is laid out for the 32-wide
//! scans only when a small candidate set first scans it: large sets read its indices alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use mmtree_core::{canonical_indices, CodeIndex, CodePool, CodeSpace};

/// Most bytes the reduced pools of one solver keep.
const POOL_CACHE_BYTES: usize = 256 << 20;

/// One reduced pool: its codes' indices in increasing order, laid out on first need.
pub(super) struct ReducedPool {
    indices: Vec<CodeIndex>,
    laid_out: OnceLock<CodePool>,
}

impl ReducedPool {
    /// The codes' indices, in increasing order.
    pub(super) fn indices(&self) -> &[CodeIndex] {
        &self.indices
    }

    /// The pool laid out for scans (built on the first call).
    pub(super) fn laid_out(&self, space: &CodeSpace) -> &CodePool {
        self.laid_out.get_or_init(|| CodePool::new(space, self.indices.clone()))
    }
}

/// Reduced pools by the normal form of (free colour classes, blank colours, largest first),
/// within a byte budget.
#[derive(Default)]
pub(super) struct PoolCache {
    inner: Mutex<Cached>,
}

type Key = ([u64; 2], u64, bool);

#[derive(Default)]
struct Cached {
    /// `None`: the reduction drops too little to be worth a pool of its own.
    pools: HashMap<Key, Option<Arc<ReducedPool>>>,
    bytes: usize,
}

impl PoolCache {
    /// The pool cut down to codes whose colours of each class of `free` come in canonical
    /// order (see `canonical_codes` in mmtree-core) and that have none of the colours
    /// `blank`, when that drops at least a quarter of it; `None` when it does not.
    pub(super) fn get(&self, space: &CodeSpace, free: [u64; 2], blank: u64, largest: bool) -> Option<Arc<ReducedPool>> {
        let key = normal_form(free, blank, largest);
        if key.0 == [0, 0] && key.1 == 0 {
            return None;
        }
        {
            let cache = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(pool) = cache.pools.get(&key) {
                return pool.clone();
            }
            if cache.bytes >= POOL_CACHE_BYTES {
                return None;
            }
        }
        let (free, blank, largest) = key;
        let indices = canonical_indices(space.game(), free, blank, largest);
        let pool = (indices.len() * 4 <= space.len() * 3).then(|| {
            let indices = indices.into_iter().map(CodeIndex::from_index).collect();
            Arc::new(ReducedPool { indices, laid_out: OnceLock::new() })
        });
        // Counted as laid out: most pools are, sooner or later.
        let rows = usize::from(space.game().n()) + usize::from(space.game().k());
        let bytes = pool.as_ref().map_or(0, |p| p.indices.len() * (4 + 4 + rows));
        let mut cache = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if cache.bytes + bytes <= POOL_CACHE_BYTES {
            cache.bytes += bytes;
            cache.pools.insert(key, pool.clone());
        }
        pool
    }
}

/// One key per pool: a blank colour of a class bars the class's later colours (in tie order)
/// too, since they may only appear after it; the class keeps the colours before it; classes of
/// one colour move nothing; the classes' order does not matter.
fn normal_form(free: [u64; 2], mut blank: u64, largest: bool) -> Key {
    let mut classes = free.map(|class| {
        let mut kept = 0u64;
        let mut left = class;
        while left != 0 {
            let bit = if largest { 1 << (63 - left.leading_zeros()) } else { left & left.wrapping_neg() };
            if blank & bit != 0 {
                blank |= left;
                break;
            }
            kept |= bit;
            left &= !bit;
        }
        if kept.count_ones() > 1 {
            kept
        } else {
            0
        }
    });
    classes.sort_unstable();
    (classes, blank, largest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmtree_core::{canonical_codes, Game, GameSpec, Variant};

    /// The normal form lists the same codes as the key it stands for.
    #[test]
    fn normal_forms_list_the_same_codes() {
        let mut distinct = GameSpec::mastermind(3, 6);
        distinct.variant = Variant::Distinct;
        for spec in [GameSpec::mastermind(3, 5), GameSpec::mastermind(4, 4), distinct] {
            let game = Game::new(spec).unwrap();
            let all = (1u64 << game.k()) - 1;
            for free in [[0b111, 0], [0b1110, 0b10001 & all], [0b11, 0b1100], [all, 0], [0b101, 0]] {
                for blank in [0, 0b1, 0b10, 0b110, 0b1000, 0b10100 & all] {
                    for largest in [false, true] {
                        let mut plain = Vec::new();
                        canonical_codes(&game, free, largest, |c, i| {
                            if c.pegs().iter().all(|&p| blank >> p & 1 == 0) {
                                plain.push(i);
                            }
                        });
                        let (f, b, l) = normal_form(free, blank, largest);
                        assert_eq!(canonical_indices(&game, f, b, l), plain, "{spec:?} {free:?} {blank:b} {largest}");
                    }
                }
            }
        }
    }
}
