//! Guess pools cut down by symmetry: the codes whose interchangeable colours come in canonical
//! order and that have no blank colour, listed once and kept, since the same few classes of
//! free and absent colours recur at thousands of nodes. A pool is laid out for the 32-wide
//! scans only when a small candidate set first scans it (as a whole, and by colour multiset
//! for the one-step pass of `multisets`): large sets read its indices alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use mmtree_core::{canonical_indices, CodeIndex, CodePool, CodeSpace, BLOCK};

use super::multisets::Multisets;

/// Most bytes the reduced pools of one solver keep.
const POOL_CACHE_BYTES: usize = 256 << 20;
/// Most bytes their layouts by colour multiset take, besides: a budget of their own, so that
/// they never crowd out a pool (rebuilt at every node when not kept).
const BY_GROUP_BYTES: usize = 128 << 20;

/// One reduced pool: its codes' indices in increasing order, laid out on first need.
pub(super) struct ReducedPool {
    indices: Vec<CodeIndex>,
    laid_out: OnceLock<CodePool>,
    /// Whether the cache keeps the pool (and may then lay it out by multiset too).
    kept: bool,
    by_group: OnceLock<Vec<CodePool>>,
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
    by_group_bytes: usize,
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
        let indices: Option<Vec<CodeIndex>> =
            (indices.len() * 4 <= space.len() * 3).then(|| indices.into_iter().map(CodeIndex::from_index).collect());
        // Counted as laid out (its indices twice): most pools are, sooner or later.
        let bytes = indices.as_ref().map_or(0, |i| i.len() * (4 + 4 + laid_out_bytes(space)));
        let mut cache = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let fits = cache.bytes + bytes <= POOL_CACHE_BYTES;
        let pool = indices.map(|indices| {
            Arc::new(ReducedPool { indices, laid_out: OnceLock::new(), kept: fits, by_group: OnceLock::new() })
        });
        if fits {
            cache.bytes += bytes;
            cache.pools.insert(key, pool.clone());
        }
        pool
    }

    /// `pool`'s codes of each colour multiset of `multisets`, laid out (built on the first
    /// call; a solver has one `multisets`), when the pool is kept and the budget still holds
    /// them; `None` otherwise.
    pub(super) fn by_group<'p>(
        &self,
        pool: &'p ReducedPool,
        space: &CodeSpace,
        multisets: &Multisets,
    ) -> Option<&'p [CodePool]> {
        if let Some(groups) = pool.by_group.get() {
            return Some(groups);
        }
        if !pool.kept {
            return None;
        }
        // Each group's last block may be part empty.
        let bytes = (pool.indices.len() + multisets.len() * BLOCK) * (4 + laid_out_bytes(space));
        {
            let mut cache = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if cache.by_group_bytes + bytes > BY_GROUP_BYTES {
                return None;
            }
            cache.by_group_bytes += bytes;
        }
        Some(pool.by_group.get_or_init(|| multisets.restrict(space, &pool.indices)))
    }
}

/// Bytes of one code laid out for the scans, besides its index: a byte per position and per
/// colour count.
fn laid_out_bytes(space: &CodeSpace) -> usize {
    usize::from(space.game().n()) + usize::from(space.game().k())
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
