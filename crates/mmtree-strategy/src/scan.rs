//! Partition tables of many guesses on one candidate set, for the exact search.
//!
//! The search scores every guess of the pool at every node it expands. Reading the feedback
//! table guess by guess (`row[g][c]` for each candidate `c`) touches one cache line per
//! candidate in every row, which misses the cache on nearly every load once the table is
//! larger than the cache (Bulls and Cows: 25 MB). The score is symmetric, so the row of a
//! candidate `c` holds `s(g, c)` for every guess `g`: streaming the candidates' rows and
//! counting into a small block of guesses' tables reads the table sequentially instead.

use mmtree_core::{CodeIndex, CodeSpace, Counts, MAX_FEEDBACKS};

/// Guesses counted together; their tables (`BLOCK * |feedbacks|` counters) stay in L1.
const BLOCK: usize = 128;

/// Computes partition tables of `set` under a pool of guesses.
pub(crate) struct Scanner<'s> {
    space: &'s CodeSpace,
    feedbacks: usize,
}

impl<'s> Scanner<'s> {
    pub(crate) fn new(space: &'s CodeSpace) -> Scanner<'s> {
        Scanner { space, feedbacks: space.scheme().len() }
    }

    /// Calls `visit(guess, counts)` with the part sizes of `set` under each guess of `pool`
    /// (`None`: every code), in pool order, until `visit` returns `false`; returns whether
    /// every guess was visited. `counts` has one entry per feedback index.
    pub(crate) fn for_each_table(
        &self,
        pool: Option<&[CodeIndex]>,
        set: &[CodeIndex],
        mut visit: impl FnMut(CodeIndex, &[u32]) -> bool,
    ) -> bool {
        let f = self.feedbacks;
        let total = pool.map_or(self.space.len(), <[CodeIndex]>::len);
        if !self.space.has_table() {
            let mut counts: Counts = [0; MAX_FEEDBACKS];
            for i in 0..total {
                let g = pool.map_or(CodeIndex::from_index(i as u32), |p| p[i]);
                counts[..f].fill(0);
                self.space.count_parts(g, set, &mut counts);
                if !visit(g, &counts[..f]) {
                    return false;
                }
            }
            return true;
        }
        let rows: Vec<&[u8]> = set.iter().map(|&c| self.space.table_row(c).expect("table checked above")).collect();
        let mut counts = vec![0u32; BLOCK * f];
        let mut start = 0;
        while start < total {
            let len = BLOCK.min(total - start);
            counts[..len * f].fill(0);
            match pool {
                None => {
                    for row in &rows {
                        let row = &row[start..start + len];
                        for (j, &fb) in row.iter().enumerate() {
                            counts[j * f + fb as usize] += 1;
                        }
                    }
                }
                Some(pool) => {
                    let guesses = &pool[start..start + len];
                    for row in &rows {
                        for (j, g) in guesses.iter().enumerate() {
                            counts[j * f + row[g.get()] as usize] += 1;
                        }
                    }
                }
            }
            for j in 0..len {
                let g = pool.map_or(CodeIndex::from_index((start + j) as u32), |p| p[start + j]);
                if !visit(g, &counts[j * f..(j + 1) * f]) {
                    return false;
                }
            }
            start += len;
        }
        true
    }
}

impl Scanner<'_> {
    /// Calls `visit(guess, mask)` with the set of feedbacks (bit `f` for feedback index `f`)
    /// that the codes of `set` give against each guess of `pool` (`None`: every code), in
    /// pool order, until `visit` returns `false`; returns whether every guess was visited.
    /// Needs at most 32 feedbacks.
    pub(crate) fn for_each_mask(
        &self,
        pool: Option<&[CodeIndex]>,
        set: &[CodeIndex],
        visit: impl FnMut(CodeIndex, u32) -> bool,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: the processor supports both features (checked just above).
                return unsafe { self.for_each_mask_avx2(pool, set, visit) };
            }
        }
        self.for_each_mask_plain(pool, set, visit)
    }

    /// [`Scanner::for_each_mask`] compiled for AVX2 and POPCNT, with `visit` inlined: the
    /// callers count the feedbacks of each mask.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn for_each_mask_avx2(
        &self,
        pool: Option<&[CodeIndex]>,
        set: &[CodeIndex],
        visit: impl FnMut(CodeIndex, u32) -> bool,
    ) -> bool {
        self.for_each_mask_plain(pool, set, visit)
    }

    #[inline(always)]
    fn for_each_mask_plain(
        &self,
        pool: Option<&[CodeIndex]>,
        set: &[CodeIndex],
        mut visit: impl FnMut(CodeIndex, u32) -> bool,
    ) -> bool {
        assert!(self.feedbacks <= 32, "feedback masks need at most 32 feedbacks");
        let total = pool.map_or(self.space.len(), <[CodeIndex]>::len);
        if !self.space.has_table() {
            for i in 0..total {
                let g = pool.map_or(CodeIndex::from_index(i as u32), |p| p[i]);
                let mut mask = 0u32;
                self.space.for_each_feedback(g, set, |f| mask |= 1 << f);
                if !visit(g, mask) {
                    return false;
                }
            }
            return true;
        }
        let rows: Vec<&[u8]> = set.iter().map(|&c| self.space.table_row(c).expect("table checked above")).collect();
        let mut masks = [0u32; MASK_BLOCK];
        if let Some(pool) = pool.filter(|p| p.len() * 3 > self.space.len()) {
            // A large pool (increasing, as every pool is): the vectorised scan of every code,
            // skipping those outside the pool, beats gathering the pool's columns.
            let mut next = pool.iter().peekable();
            let mut start = 0;
            while start < self.space.len() {
                let len = MASK_BLOCK.min(self.space.len() - start);
                let masks = &mut masks[..len];
                masks.fill(0);
                or_rows(&rows, start, masks);
                for (j, &mask) in masks.iter().enumerate() {
                    let g = CodeIndex::from_index((start + j) as u32);
                    if next.peek() == Some(&&g) {
                        next.next();
                        if !visit(g, mask) {
                            return false;
                        }
                    }
                }
                start += len;
            }
            return true;
        }
        let mut start = 0;
        while start < total {
            let len = MASK_BLOCK.min(total - start);
            let masks = &mut masks[..len];
            masks.fill(0);
            match pool {
                None => or_rows(&rows, start, masks),
                Some(pool) => {
                    let guesses = &pool[start..start + len];
                    for row in &rows {
                        for (mask, g) in masks.iter_mut().zip(guesses) {
                            *mask |= 1 << row[g.get()];
                        }
                    }
                }
            }
            for (j, &mask) in masks.iter().enumerate() {
                let g = pool.map_or(CodeIndex::from_index((start + j) as u32), |p| p[start + j]);
                if !visit(g, mask) {
                    return false;
                }
            }
            start += len;
        }
        true
    }
}

/// Guesses whose feedback masks are gathered together.
const MASK_BLOCK: usize = 512;

/// `masks[j] |= 1 << row[start + j]` for every row: the hot loop of small sets, vectorised
/// with AVX2's variable shifts where the processor has them.
fn or_rows(rows: &[&[u8]], start: usize, masks: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe { or_rows_avx2(rows, start, masks) };
            return;
        }
    }
    or_rows_plain(rows, start, masks);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn or_rows_avx2(rows: &[&[u8]], start: usize, masks: &mut [u32]) {
    or_rows_plain(rows, start, masks);
}

#[inline(always)]
fn or_rows_plain(rows: &[&[u8]], start: usize, masks: &mut [u32]) {
    let len = masks.len();
    for row in rows {
        let row = &row[start..start + len];
        for (mask, &f) in masks.iter_mut().zip(row) {
            *mask |= 1u32 << (f & 31);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmtree_core::{Game, GameSpec, MemoryLimit};

    fn reference_counts(space: &CodeSpace, g: CodeIndex, set: &[CodeIndex]) -> (CodeIndex, Vec<u32>) {
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        space.count_parts(g, set, &mut counts);
        (g, counts[..space.scheme().len()].to_vec())
    }

    #[test]
    fn blocked_tables_match_count_parts() {
        for spec in [GameSpec::mastermind(3, 5), GameSpec::bulls_and_cows(3, 6)] {
            let mut space = CodeSpace::new(Game::new(spec).unwrap(), MemoryLimit(1 << 30)).unwrap();
            let set: Vec<CodeIndex> = space.all_indices().into_iter().step_by(3).collect();
            let pool: Vec<CodeIndex> = space.all_indices().into_iter().filter(|g| g.index() % 5 != 1).collect();
            let f = space.scheme().len();
            let mut reference = Vec::new();
            for &g in &pool {
                let mut counts: Counts = [0; MAX_FEEDBACKS];
                space.count_parts(g, &set, &mut counts);
                reference.push((g, counts[..f].to_vec()));
            }
            for with_table in [false, true] {
                if with_table {
                    space.build_table(1 << 20);
                }
                let scanner = Scanner::new(&space);
                let mut got = Vec::new();
                scanner.for_each_table(Some(&pool), &set, |g, c| {
                    got.push((g, c.to_vec()));
                    true
                });
                assert_eq!(got, reference, "{spec:?} table {with_table}");
                let sparse: Vec<CodeIndex> = pool.iter().copied().step_by(7).collect();
                for pool in [Some(&pool[..]), Some(&sparse[..]), None] {
                    let mut masks = Vec::new();
                    scanner.for_each_mask(pool, &set, |g, mask| {
                        masks.push((g, mask));
                        true
                    });
                    let expected: Vec<(CodeIndex, u32)> = space
                        .all_indices()
                        .into_iter()
                        .filter(|g| pool.is_none_or(|p| p.contains(g)))
                        .map(|g| {
                            let (_, counts) = reference_counts(&space, g, &set);
                            (g, counts.iter().enumerate().filter(|(_, &c)| c > 0).fold(0, |m, (f, _)| m | 1 << f))
                        })
                        .collect();
                    assert_eq!(masks, expected, "{spec:?} table {with_table} masks");
                }
                let mut all = 0;
                let stopped = !scanner.for_each_table(None, &set, |g, _| {
                    all += 1;
                    g.index() < 10
                });
                assert!(stopped && all == 11);
            }
        }
    }
}
