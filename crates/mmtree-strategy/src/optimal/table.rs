//! The transposition table: what is known of each (candidate set, depth limit) searched, in
//! shards for threads, looked up without building a key, within a memory cap.
//!
//! Every entry is a proven fact, so forgetting one never changes a result, only the time to
//! prove it again. Over the cap, the table forgets its smallest sets first (the cheapest to
//! search again, and the most numerous) until it is down to three quarters of the cap.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use hashbrown::HashTable;
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

/// One entry: a set (its code indices, [`Width`] bytes each), its depth limit and what is
/// known of it.
pub(super) struct Slot<V> {
    set: Box<[u8]>,
    pub(super) value: V,
    pub(super) depth: u8,
}

impl<V> Slot<V> {
    /// Names the entry while it is stored: the address of its set, which moving the entry
    /// within the hash table does not change.
    pub(super) fn id(&self) -> usize {
        self.set.as_ptr() as usize
    }
}

/// Bytes per code index in a stored set: two when the game has at most 65,536 codes (every
/// game a split run is for, [5,8] included), which halves what a large set takes.
#[derive(Clone, Copy)]
struct Width(usize);

impl Width {
    fn of(codes: usize) -> Width {
        Width(if codes <= 1 << 16 { 2 } else { 4 })
    }

    fn pack(self, set: &[CodeIndex]) -> Box<[u8]> {
        let mut packed = Vec::with_capacity(set.len() * self.0);
        for c in set {
            match self.0 {
                2 => packed.extend_from_slice(&(c.index() as u16).to_le_bytes()),
                _ => packed.extend_from_slice(&c.index().to_le_bytes()),
            }
        }
        packed.into_boxed_slice()
    }

    fn codes(self, stored: &[u8]) -> impl Iterator<Item = u32> + Clone + '_ {
        stored.chunks_exact(self.0).map(|b| match *b {
            [lo, hi] => u32::from(u16::from_le_bytes([lo, hi])),
            [a, b, c, d] => u32::from_le_bytes([a, b, c, d]),
            _ => unreachable!("a code index takes two or four bytes"),
        })
    }

    fn len(self, stored: &[u8]) -> usize {
        stored.len() / self.0
    }

    fn same_set(self, stored: &[u8], set: &[CodeIndex]) -> bool {
        if self.len(stored) != set.len() {
            return false;
        }
        match self.0 {
            2 => stored.chunks_exact(2).zip(set).all(|(b, c)| u32::from(u16::from_le_bytes([b[0], b[1]])) == c.index()),
            _ => self.codes(stored).zip(set).all(|(a, c)| a == c.index()),
        }
    }

    /// The hash a slot was stored under, for the hash table to move it.
    fn hash<V>(self, slot: &Slot<V>) -> u64 {
        hash_indices(self.codes(&slot.set), slot.depth)
    }
}

/// Bytes the allocator hands out for a request of `bytes`: glibc's malloc adds an 8-byte
/// header, rounds up to 16 and gives at least 32. Counting 4m + 64 bytes an entry instead
/// took a [6,5] part 1.5 times its cap past its base.
fn allocation(bytes: usize) -> u64 {
    ((bytes as u64 + 8 + 15) & !15).max(32)
}

/// Bytes a stored set takes.
fn set_bytes(stored: &[u8]) -> u64 {
    allocation(stored.len())
}

/// Bytes a hash table of slots takes.
fn table_bytes<V>(table: &HashTable<Slot<V>>) -> u64 {
    match table.allocation_size() {
        0 => 0,
        size => allocation(size),
    }
}

/// A map from (candidate set, depth limit) to `V`, sharded for threads; lookups compare the
/// set in place (no key is allocated to look one up).
pub(super) struct SetTable<V> {
    shards: Vec<Mutex<HashTable<Slot<V>>>>,
    /// What the entries' sets and the shards' hash tables take.
    bytes: AtomicU64,
    /// Most bytes the table may take.
    cap: u64,
    width: Width,
    /// Set while one thread forgets entries.
    shrinking: AtomicBool,
    /// Entries forgotten so far.
    evicted: AtomicU64,
    /// One bit per hash value (its high bits) of every set ever stored: most lookups are of
    /// sets never stored, and the bit answers them without taking a lock.
    filter: Box<[AtomicU64]>,
}

impl<V: Copy> SetTable<V> {
    /// An empty table for the sets of a game of `codes` codes, that may take `cap` bytes.
    pub(super) fn new(cap: u64, codes: usize) -> SetTable<V> {
        SetTable {
            shards: (0..SHARDS).map(|_| Mutex::new(HashTable::new())).collect(),
            bytes: AtomicU64::new(0),
            cap,
            width: Width::of(codes),
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

    /// The shard of a hash: bits the filter and the hash tables do not use (a table places
    /// entries by the low bits and tags them with the top seven).
    fn shard(&self, hash: u64) -> &Mutex<HashTable<Slot<V>>> {
        &self.shards[(hash >> 32) as usize & (SHARDS - 1)]
    }

    pub(super) fn get(&self, set: &[CodeIndex], depth: u8) -> Option<V> {
        let hash = set_hash(set, depth);
        let (word, bit) = self.filter_bit(hash);
        if word.load(Ordering::Relaxed) & bit == 0 {
            return None;
        }
        let shard = lock(self.shard(hash));
        shard.find(hash, |s| s.depth == depth && self.width.same_set(&s.set, set)).map(|s| s.value)
    }

    /// Sets the value to `update(old)` unless that is `None`; returns the entry's
    /// [`Slot::id`] if its value was set.
    pub(super) fn update(
        &self,
        set: &[CodeIndex],
        depth: u8,
        update: impl FnOnce(Option<V>) -> Option<V>,
    ) -> Option<usize> {
        let hash = set_hash(set, depth);
        let width = self.width;
        let (added, id) = {
            let mut shard = lock(self.shard(hash));
            if let Some(slot) = shard.find_mut(hash, |s| s.depth == depth && width.same_set(&s.set, set)) {
                let v = update(Some(slot.value))?;
                slot.value = v;
                return Some(slot.id());
            }
            let value = update(None)?;
            // Set under the shard's lock, before the entry can be found.
            let (word, bit) = self.filter_bit(hash);
            word.fetch_or(bit, Ordering::Relaxed);
            let before = table_bytes(&shard);
            let slot = Slot { set: width.pack(set), value, depth };
            let (added, id) = (set_bytes(&slot.set), slot.id());
            shard.insert_unique(hash, slot, |s| width.hash(s));
            (added + table_bytes(&shard) - before, id)
        };
        let bytes = self.bytes.fetch_add(added, Ordering::Relaxed) + added;
        if bytes > self.cap && !self.shrinking.swap(true, Ordering::Acquire) {
            self.shrink();
            self.shrinking.store(false, Ordering::Release);
        }
        Some(id)
    }

    /// Forgets the smallest sets until the table takes at most three quarters of the cap.
    /// The hash tables keep their room, so the entries that follow fill it without growing
    /// them: cut down to what was kept, they doubled again soon after, and past the cap
    /// again, a [6,5] part with a 128 MB cap spent a third of its time forgetting.
    fn shrink(&self) {
        let width = self.width;
        // Bytes of the sets by size, then the least size to keep.
        let mut by_size: Vec<u64> = Vec::new();
        let mut tables = 0;
        for shard in &self.shards {
            let shard = lock(shard);
            tables += table_bytes(&shard);
            for s in shard.iter() {
                let m = width.len(&s.set);
                if by_size.len() <= m {
                    by_size.resize(m + 1, 0);
                }
                by_size[m] += set_bytes(&s.set);
            }
        }
        let target = (self.cap / 4 * 3).saturating_sub(tables);
        let mut kept: u64 = by_size.iter().sum();
        let mut keep_from = 0;
        while kept > target && keep_from < by_size.len() {
            kept -= by_size[keep_from];
            keep_from += 1;
        }
        // Hash tables alone past the target (too small a cap) are cut down to what is left.
        let cut = tables > self.cap / 4 * 3;
        let mut bytes = 0;
        for shard in &self.shards {
            let mut shard = lock(shard);
            let before = shard.len();
            shard.retain(|s| width.len(&s.set) >= keep_from);
            self.evicted.fetch_add((before - shard.len()) as u64, Ordering::Relaxed);
            if cut {
                shard.shrink_to_fit(|s| width.hash(s));
            }
            bytes += table_bytes(&shard) + shard.iter().map(|s| set_bytes(&s.set)).sum::<u64>();
        }
        // Entries added meanwhile by other threads may be left out: the count is a guide.
        self.bytes.store(bytes, Ordering::Relaxed);
    }

    /// Entries forgotten to stay within the cap.
    pub(super) fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }

    pub(super) fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).len()).sum()
    }

    /// Every shard locked, to read the whole table in place: a checkpoint is written from
    /// it without copying its sets, which run to gigabytes. Nothing else may use the table
    /// meanwhile.
    pub(super) fn locked(&self) -> Locked<'_, V> {
        Locked { shards: self.shards.iter().map(lock).collect(), width: self.width }
    }

    /// Runs `load` with nothing forgotten, then forgets down to the cap: entries that prove
    /// one another must all be in the table until they are proven.
    pub(super) fn unforgetting<R>(&self, load: impl FnOnce() -> R) -> R {
        let was_shrinking = self.shrinking.swap(true, Ordering::Acquire);
        let result = load();
        if !was_shrinking {
            if self.bytes.load(Ordering::Relaxed) > self.cap {
                self.shrink();
            }
            self.shrinking.store(false, Ordering::Release);
        }
        result
    }

    /// Forgets every entry (not counted as evictions).
    pub(super) fn clear(&self) {
        for shard in &self.shards {
            lock(shard).clear();
        }
        self.bytes.store(0, Ordering::Relaxed);
    }
}

/// The table with every shard locked (see [`SetTable::locked`]).
pub(super) struct Locked<'t, V> {
    shards: Vec<MutexGuard<'t, HashTable<Slot<V>>>>,
    width: Width,
}

impl<V: Copy> Locked<'_, V> {
    /// Every entry.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Slot<V>> {
        self.shards.iter().flat_map(|shard| shard.iter())
    }

    /// The entry of a set, if stored.
    pub(super) fn get(&self, set: &[CodeIndex], depth: u8) -> Option<&Slot<V>> {
        let hash = set_hash(set, depth);
        let shard = &self.shards[(hash >> 32) as usize & (SHARDS - 1)];
        shard.find(hash, |s| s.depth == depth && self.width.same_set(&s.set, set))
    }

    /// The code indices of an entry's set, increasing.
    pub(super) fn codes<'s>(&self, slot: &'s Slot<V>) -> impl Iterator<Item = u32> + Clone + 's {
        self.width.codes(&slot.set)
    }

    /// Codes in an entry's set.
    pub(super) fn len(&self, slot: &Slot<V>) -> usize {
        self.width.len(&slot.set)
    }
}

#[inline]
pub(super) fn mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn set_hash(set: &[CodeIndex], depth: u8) -> u64 {
    hash_indices(set.iter().map(|c| c.index()), depth)
}

fn hash_indices(set: impl Iterator<Item = u32>, depth: u8) -> u64 {
    let h = set.fold(u64::from(depth) + 1, |h, c| mix(h, u64::from(c)));
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_come_back_as_stored_at_either_width() {
        for (codes, top) in [(4096, 4095), (1 << 16, 65_535), (1 << 17, 131_071)] {
            let table = SetTable::<u32>::new(u64::MAX, codes);
            let sets: Vec<Vec<CodeIndex>> = [vec![0, 1, 2], vec![0, 1, top], vec![top - 1, top]]
                .iter()
                .map(|s| s.iter().map(|&i| CodeIndex::from_index(i)).collect())
                .collect();
            for (i, set) in sets.iter().enumerate() {
                table.update(set, 3, |_| Some(i as u32));
            }
            for (i, set) in sets.iter().enumerate() {
                assert_eq!(table.get(set, 3), Some(i as u32), "{codes} codes");
                assert_eq!(table.get(set, 4), None);
            }
            // A set sharing the low 16 bits of another's codes is a different set.
            let aliased = [CodeIndex::from_index(0), CodeIndex::from_index(1), CodeIndex::from_index(top & 0xFFFF)];
            assert_eq!(table.get(&aliased, 3).is_some(), top <= 0xFFFF, "{codes} codes");
            let locked = table.locked();
            let mut seen: Vec<(u8, Vec<u32>, u32)> =
                locked.iter().map(|s| (s.depth, locked.codes(s).collect(), s.value)).collect();
            seen.sort_by_key(|e| e.2);
            let expected: Vec<_> =
                sets.iter().enumerate().map(|(i, s)| (3, s.iter().map(|c| c.index()).collect(), i as u32)).collect();
            assert_eq!(seen, expected, "{codes} codes");
        }
    }
}
