//! The transposition table: what is known of each (candidate set, depth limit) searched, in
//! shards for threads, looked up without building a key.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use mmtree_core::CodeIndex;

use super::lock;

/// Table shards (a power of two).
const SHARDS: usize = 64;

/// What the table knows of a set.
#[derive(Clone, Copy, Debug)]
pub(super) enum Entry {
    /// The optimum and a guess reaching it.
    Exact(u32, CodeIndex),
    /// The optimum is at least this.
    Lower(u32),
}

/// Passes a precomputed hash through.
#[derive(Default)]
pub(super) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A map keyed by precomputed hashes.
pub(super) type HashedMap<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;

type Bucket<V> = Vec<(u8, Box<[u32]>, V)>;

/// A map from (candidate set, depth limit) to `V`, sharded for threads; lookups compare the
/// set in place (no key is allocated to look one up).
pub(super) struct SetTable<V> {
    shards: Vec<Mutex<HashedMap<Bucket<V>>>>,
}

impl<V: Copy> SetTable<V> {
    pub(super) fn new() -> SetTable<V> {
        SetTable { shards: (0..SHARDS).map(|_| Mutex::new(HashMap::default())).collect() }
    }

    pub(super) fn get(&self, set: &[CodeIndex], depth: u8) -> Option<V> {
        let hash = set_hash(set, depth);
        let shard = lock(&self.shards[(hash as usize) & (SHARDS - 1)]);
        shard.get(&hash)?.iter().find(|(d, s, _)| *d == depth && same_set(s, set)).map(|e| e.2)
    }

    /// Sets the value to `update(old)` unless that is `None`.
    pub(super) fn update(&self, set: &[CodeIndex], depth: u8, update: impl FnOnce(Option<V>) -> Option<V>) {
        let hash = set_hash(set, depth);
        let mut shard = lock(&self.shards[(hash as usize) & (SHARDS - 1)]);
        let bucket = shard.entry(hash).or_default();
        match bucket.iter_mut().find(|(d, s, _)| *d == depth && same_set(s, set)) {
            Some(slot) => {
                if let Some(v) = update(Some(slot.2)) {
                    slot.2 = v;
                }
            }
            None => {
                if let Some(v) = update(None) {
                    bucket.push((depth, set.iter().map(|c| c.index()).collect(), v));
                }
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).values().map(Vec::len).sum::<usize>()).sum()
    }

    pub(super) fn for_each(&self, mut visit: impl FnMut(u8, &[u32], V)) {
        for shard in &self.shards {
            for bucket in lock(shard).values() {
                for (depth, set, v) in bucket {
                    visit(*depth, set, *v);
                }
            }
        }
    }
}

fn same_set(stored: &[u32], set: &[CodeIndex]) -> bool {
    stored.len() == set.len() && stored.iter().zip(set).all(|(&a, b)| a == b.index())
}

#[inline]
pub(super) fn mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn set_hash(set: &[CodeIndex], depth: u8) -> u64 {
    let h = set.iter().fold(u64::from(depth) + 1, |h, c| mix(h, u64::from(c.index())));
    h ^ (h >> 29)
}
