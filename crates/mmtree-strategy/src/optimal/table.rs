//! The transposition table: what is known of each (candidate set, depth limit) searched, in
//! shards for threads, looked up without building a key, within a memory cap.
//!
//! Every entry is a proven fact, so forgetting one never changes a result, only the time to
//! prove it again. Over the cap, the table forgets its smallest sets first (the cheapest to
//! search again, and the most numerous) until it is down to three quarters of the cap.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use mmtree_core::CodeIndex;

use super::lock;

/// Table shards (a power of two).
const SHARDS: usize = 64;
/// Bits of the filter of hashes ever stored (a power of two): 128 KB.
const FILTER_BITS: usize = 1 << 20;

/// What the table knows of a set.
#[derive(Clone, Copy, Debug)]
pub(super) enum Entry {
    /// The optimum and a guess reaching it.
    Exact(u32, CodeIndex),
    /// The optimum is at least this.
    Lower(u32),
}

/// What the table of classes knows of a set and of every image of it: an [`Entry`] without
/// its guess (a guess good for one image is not one for another).
#[derive(Clone, Copy, Debug)]
pub(super) enum Cost {
    /// The optimum.
    Exact(u32),
    /// The optimum is at least this.
    Lower(u32),
}

impl From<Entry> for Cost {
    fn from(entry: Entry) -> Cost {
        match entry {
            Entry::Exact(cost, _) => Cost::Exact(cost),
            Entry::Lower(lb) => Cost::Lower(lb),
        }
    }
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

/// Bytes an entry of `m` codes takes, roughly: the codes, the boxed slice and bucket slot,
/// and its share of the hash map.
fn entry_bytes(m: usize) -> u64 {
    4 * m as u64 + 64
}

/// A map from (candidate set, depth limit) to `V`, sharded for threads; lookups compare the
/// set in place (no key is allocated to look one up).
pub(super) struct SetTable<V> {
    shards: Vec<Mutex<HashedMap<Bucket<V>>>>,
    /// What the entries take, by [`entry_bytes`].
    bytes: AtomicU64,
    /// Most bytes the entries may take.
    cap: u64,
    /// Set while one thread forgets entries.
    shrinking: AtomicBool,
    /// Entries forgotten so far.
    evicted: AtomicU64,
    /// One bit per hash value (its high bits) of every set ever stored: most lookups are of
    /// sets never stored, and the bit answers them without taking a lock.
    filter: Box<[AtomicU64]>,
}

impl<V: Copy> SetTable<V> {
    /// An empty table whose entries may take `cap` bytes.
    pub(super) fn new(cap: u64) -> SetTable<V> {
        SetTable {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::default())).collect(),
            bytes: AtomicU64::new(0),
            cap,
            shrinking: AtomicBool::new(false),
            evicted: AtomicU64::new(0),
            filter: (0..FILTER_BITS / 64).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The filter's word and bit for a hash.
    fn filter_bit(&self, hash: u64) -> (&AtomicU64, u64) {
        let bit = (hash >> 40) as usize & (FILTER_BITS - 1);
        (&self.filter[bit / 64], 1 << (bit % 64))
    }

    pub(super) fn get(&self, set: &[CodeIndex], depth: u8) -> Option<V> {
        let hash = set_hash(set, depth);
        let (word, bit) = self.filter_bit(hash);
        if word.load(Ordering::Relaxed) & bit == 0 {
            return None;
        }
        let shard = lock(&self.shards[(hash as usize) & (SHARDS - 1)]);
        shard.get(&hash)?.iter().find(|(d, s, _)| *d == depth && same_set(s, set)).map(|e| e.2)
    }

    /// Sets the value to `update(old)` unless that is `None`.
    pub(super) fn update(&self, set: &[CodeIndex], depth: u8, update: impl FnOnce(Option<V>) -> Option<V>) {
        let hash = set_hash(set, depth);
        {
            let mut shard = lock(&self.shards[(hash as usize) & (SHARDS - 1)]);
            let bucket = shard.entry(hash).or_default();
            match bucket.iter_mut().find(|(d, s, _)| *d == depth && same_set(s, set)) {
                Some(slot) => {
                    if let Some(v) = update(Some(slot.2)) {
                        slot.2 = v;
                    }
                    return;
                }
                None => match update(None) {
                    Some(v) => {
                        // Set under the shard's lock, before the entry can be found.
                        let (word, bit) = self.filter_bit(hash);
                        word.fetch_or(bit, Ordering::Relaxed);
                        // Most buckets hold one entry: an empty Vec's first push would make
                        // room for four (128 bytes).
                        bucket.reserve_exact(1);
                        bucket.push((depth, set.iter().map(|c| c.index()).collect(), v));
                    }
                    None => return,
                },
            }
        }
        let bytes = self.bytes.fetch_add(entry_bytes(set.len()), Ordering::Relaxed) + entry_bytes(set.len());
        if bytes > self.cap && !self.shrinking.swap(true, Ordering::Acquire) {
            self.shrink();
            self.shrinking.store(false, Ordering::Release);
        }
    }

    /// Forgets the smallest sets until the entries take at most three quarters of the cap.
    fn shrink(&self) {
        // Bytes by set size, then the least size to keep.
        let mut by_size: Vec<u64> = Vec::new();
        for shard in &self.shards {
            for (_, set, _) in lock(shard).values().flatten() {
                if by_size.len() <= set.len() {
                    by_size.resize(set.len() + 1, 0);
                }
                by_size[set.len()] += entry_bytes(set.len());
            }
        }
        let target = self.cap / 4 * 3;
        let mut kept: u64 = by_size.iter().sum();
        let mut keep_from = 0;
        while kept > target && keep_from < by_size.len() {
            kept -= by_size[keep_from];
            keep_from += 1;
        }
        for shard in &self.shards {
            let mut shard = lock(shard);
            shard.retain(|_, bucket| {
                let before = bucket.len();
                bucket.retain(|(_, set, _)| set.len() >= keep_from);
                let gone = before - bucket.len();
                if gone > 0 {
                    self.evicted.fetch_add(gone as u64, Ordering::Relaxed);
                }
                !bucket.is_empty()
            });
        }
        // Entries added meanwhile by other threads may be left out: the count is a guide.
        self.bytes.store(kept, Ordering::Relaxed);
    }

    /// Entries forgotten to stay within the cap.
    pub(super) fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
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
