//! Lower bounds on the cost of a candidate set, from the perfect tree: with `b` non-winning
//! feedbacks at most 1 secret is found by the next guess, `b` by the one after, `b²` by the
//! third, …, so filling that tree level by level bounds the total of any strategy, and `m`
//! above the capacity of `D` levels proves a depth limit infeasible. Fewer branches give
//! sharper bounds: a set whose codes share few colour multisets, or a part of a set on which
//! no guess gets more than `p` non-winning feedbacks (a guess's feedbacks on a subset are
//! among those on the set). Small sets get a sharper bound, or their optimum, from their
//! candidates' own partitions.

use std::cell::RefCell;

use mmtree_core::{CodeIndex, CodeSpace};

use super::{INFINITE, UNLIMITED};
use crate::rule::Pool;

thread_local! {
    /// Per-thread counts of [`Bounds::small_set`]: each candidate's table of feedbacks.
    static COUNTS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// Most codes of a set whose [`Bounds::small_set`] rows are kept as feedback masks.
const FLAT_MAX: usize = 64;

/// The perfect-tree bounds of one game.
pub(super) struct Bounds {
    /// Non-winning feedbacks.
    pub(super) branching: u64,
    /// `lower[m]`: the perfect-tree bound for `m` codes.
    pub(super) lower: Vec<u32>,
    /// `outside[m]`: least sum of `lower` over at most `branching` parts of `m` codes in all,
    /// so `m + outside[m]` bounds any guess that is not a candidate.
    outside: Vec<u32>,
    /// Largest `c` with `lower[i] = 2i - 1` for every `1 <= i <= c`.
    pub(super) linear: usize,
    /// `capacities[d]`: most secrets `d` guesses can settle.
    capacities: Vec<u64>,
    /// `narrow[r - 1]`: the perfect-tree bounds of sets whose codes have `r` colour multisets
    /// between them, where a guess gets at most `r` totals of blacks and whites and so fewer
    /// feedbacks (see [`mmtree_core::CodeSpace::feedback_bound`]); empty for black pegs.
    narrow: Vec<Narrow>,
    /// Each code's colour multiset, numbered.
    multiset_of: Vec<u32>,
    /// `fewer[p - 1]`: the perfect-tree bounds with `p < branching` non-winning feedbacks,
    /// for sets of at most [`FEWER_MAX`] codes.
    fewer: Vec<Narrow>,
}

/// Most codes of a part that [`Bounds::small_part`] bounds from its candidates (`|K|²`
/// scorings, against the pool's size times `|K|` for its scan). Past `2b + 1` codes no
/// candidate leaves only parts of 1 and 2, so the bound is only a lower one, but it cuts
/// guesses before their parts are scanned, and a bound that a candidate reaches puts the
/// part's scan off (see [`Small::Reached`]). One thread, [4,9]'s 1,820-code part after 1234
/// and (0,1), searched alone: 110,163 nodes up to 27 codes, 97,801 up to 64, 92,080 up to 128
/// (7.3 against 9.4 s), 91,761 up to 256 (no faster).
const PART_MAX: usize = 128;

/// Most codes of the sets [`Bounds::fewer`] bounds.
const FEWER_MAX: usize = 1 << 14;

/// The perfect-tree bounds with fewer branches, for sets of few colour multisets.
struct Narrow {
    /// Non-winning feedbacks.
    branches: u64,
    lower: Vec<u32>,
    outside: Vec<u32>,
    /// As [`Bounds::linear`].
    linear: usize,
}

/// What a small set's candidates prove.
#[derive(Clone, Copy)]
pub(super) enum Small {
    /// The optimum and an optimal guess.
    Exact(u32, CodeIndex),
    /// A lower bound on the optimum.
    Lower(u32),
    /// A lower bound that the one-step bound of one of the set's candidates reaches (from
    /// [`Bounds::small_part`] only), so that the scan of the pool seldom raises it.
    Reached(u32),
    /// Nothing (the set is too large or the depth too small).
    Unknown,
}

impl Bounds {
    pub(super) fn new(space: &CodeSpace) -> Bounds {
        let branching = (space.scheme().len() as u64).saturating_sub(1).max(1);
        let lower = perfect_bounds(space.len(), branching);
        let outside = outside_bounds(&lower, branching);
        let linear = linear_end(&lower);
        let capacities = (0..UNLIMITED)
            .map(|d| {
                let (mut cap, mut level) = (0u64, 1u64);
                for _ in 0..d {
                    cap = cap.saturating_add(level);
                    level = level.saturating_mul(branching);
                }
                cap
            })
            .collect();
        let mut narrow = Vec::new();
        for r in 1.. {
            match space.scheme().most_with_totals(r) {
                Some(most) if (most as u64) < branching => {
                    let lower = perfect_bounds(space.len(), most as u64);
                    let outside = outside_bounds(&lower, most as u64);
                    let linear = linear_end(&lower);
                    narrow.push(Narrow { branches: most as u64, lower, outside, linear });
                }
                _ => break,
            }
        }
        let multiset_of = space.multiset_numbers().0;
        let fewer = (1..branching)
            .map(|p| {
                let lower = perfect_bounds(space.len().min(FEWER_MAX), p);
                let outside = outside_bounds(&lower, p);
                let linear = linear_end(&lower);
                Narrow { branches: p, lower, outside, linear }
            })
            .collect();
        Bounds { branching, lower, outside, linear, capacities, narrow, multiset_of, fewer }
    }

    /// [`Bounds::bound`] of a set, sharpened by [`Bounds::lower_of`].
    #[inline]
    pub(super) fn set_bound(&self, set: &[CodeIndex], depth: u8) -> u32 {
        let plain = self.bound(set.len(), depth);
        if set.len() <= 2 || plain == INFINITE {
            return plain;
        }
        self.lower_of(set)[set.len()]
    }

    /// The perfect-tree bounds that hold for `set` and every subset of it: sharper than
    /// [`Bounds::lower`] when its codes share so few colour multisets that a guess gets fewer
    /// feedbacks on it than the game has.
    pub(super) fn lower_of(&self, set: &[CodeIndex]) -> &[u32] {
        self.narrow_of(set).map_or(&self.lower, |n| &n.lower)
    }

    /// The perfect-tree bounds (and their `linear`) of the subsets of a set of `m` codes on
    /// which no guess gives more than `most` non-winning feedbacks (`None`: not counted).
    pub(super) fn with_branching(&self, m: usize, most: Option<u32>) -> (&[u32], usize) {
        self.fewer(m, most).map_or((&self.lower, self.linear), |n| (&n.lower, n.linear))
    }

    /// The bounds [`Self::with_branching`] gives, unless they are the game's.
    fn fewer(&self, m: usize, most: Option<u32>) -> Option<&Narrow> {
        self.fewer.get((most? as usize).checked_sub(1)?).filter(|_| m <= FEWER_MAX)
    }

    /// The narrower bounds of `set`, if any (see [`Bounds::lower_of`]).
    fn narrow_of(&self, set: &[CodeIndex]) -> Option<&Narrow> {
        let mut seen = [u32::MAX; 16];
        let mut r = 0;
        for &c in set {
            let id = self.multiset_of[c.get()];
            if !seen[..r].contains(&id) {
                if r == self.narrow.len() {
                    return None;
                }
                seen[r] = id;
                r += 1;
            }
        }
        self.narrow.get(r.max(1) - 1)
    }

    /// Secrets `depth` guesses can settle at most.
    #[inline]
    pub(super) fn capacity(&self, depth: u8) -> u64 {
        if depth == UNLIMITED {
            u64::MAX
        } else {
            self.capacities[depth as usize]
        }
    }

    /// The admissible bound of `m` codes within `depth` guesses (`INFINITE`: impossible).
    #[inline]
    pub(super) fn bound(&self, m: usize, depth: u8) -> u32 {
        self.bound_in(&self.lower, m, depth)
    }

    /// [`Bounds::bound`] from the perfect-tree bounds `lower`.
    #[inline]
    fn bound_in(&self, lower: &[u32], m: usize, depth: u8) -> u32 {
        if depth != UNLIMITED && (m as u64) > self.capacity(depth) {
            INFINITE
        } else {
            lower[m]
        }
    }

    /// For a small set, from its candidates alone (`|K|²` scorings instead of a scan of the
    /// whole pool): an optimal guess, or a lower bound on the cost.
    ///
    /// A candidate whose non-winning parts all have at most 2 codes has the exact cost `|K|`
    /// plus 1 per single and 3 per pair. Let `C` be the least such cost. Every other candidate
    /// costs at least its bound, and every non-candidate at least `|K| + outside[|K|]` (each
    /// code needs this guess and a perfect tree under at most `b` parts). If `C` is at most all
    /// of these, it is optimal; the first candidate in code order reaching it is played.
    /// Otherwise the least of them all bounds the cost.
    pub(super) fn small_set(&self, space: &CodeSpace, pool: Pool, set: &[CodeIndex], depth: u8) -> Small {
        if set.len() as u64 > 2 * self.branching + 1 {
            return Small::Unknown;
        }
        match self.small_part(space, pool, set, depth, None) {
            Small::Reached(lb) => Small::Lower(lb),
            small => small,
        }
    }

    /// [`Self::small_set`] of a part of a set on which no guess gives more than `most`
    /// non-winning feedbacks (which only sharpens the lower bound), for parts of up to
    /// [`PART_MAX`] codes.
    pub(super) fn small_part(
        &self,
        space: &CodeSpace,
        pool: Pool,
        set: &[CodeIndex],
        depth: u8,
        most: Option<u32>,
    ) -> Small {
        let m = set.len();
        // Parts of 2 need 2 more guesses, singles 1: the depth must allow both.
        if depth < 3 || m > PART_MAX.max(2 * self.branching as usize + 1) {
            return Small::Unknown;
        }
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let narrow = match (self.narrow_of(set), self.fewer(m, most)) {
            (Some(a), Some(b)) => Some(if b.branches < a.branches { b } else { a }),
            (a, b) => a.or(b),
        };
        let (lower, outside) = narrow.map_or((&self.lower, &self.outside), |n| (&n.lower, &n.outside));
        // No part of a candidate's partition has more than `m - 1` codes: up to `linear`
        // (under both bounds) each costs `2c - 1`, so a row's cost is `m + 2 (m - 1) - parts`
        // and no part's size is looked up.
        let linear = narrow.map_or(self.linear, |n| n.linear);
        let flat = (m - 1 <= linear).then_some(3 * m as u32 - 2);
        let other = |outside: &[u32]| if pool == Pool::All { (m as u32).saturating_add(outside[m]) } else { INFINITE };
        let [mut sharp, mut plain] = [other(outside), other(&self.outside)];
        let outsider = sharp;
        let cap = self.capacity(child_depth);
        let f = space.scheme().len();
        let mut exact: Option<(u32, CodeIndex)> = None;
        if let Some(flat) = flat.filter(|_| cap >= m as u64 && f <= 64 && m <= FLAT_MAX) {
            // Every part fits the depth and costs `2c - 1`: a row needs only its parts and
            // whether some part has 3 codes or more, kept as masks of the feedbacks seen
            // once, twice and three times or more (no counters to clear or read back).
            let mut seen = [[0u64; 3]; FLAT_MAX];
            let add = |row: &mut [u64; 3], bit: u64| {
                row[2] |= row[1] & bit;
                row[1] |= row[0] & bit;
                row[0] |= bit;
            };
            for (i, &a) in set.iter().enumerate() {
                // `a`'s own row stays in registers: updated in memory on every pair, it
                // chained each pair's load behind the last one's store.
                let (done, later) = seen.split_at_mut(i + 1);
                let mut own = done[i];
                let mut rows = later.iter_mut();
                space.for_each_feedback(a, &set[i + 1..], |fb| {
                    add(&mut own, 1 << fb);
                    if let Some(row) = rows.next() {
                        add(row, 1 << fb);
                    }
                });
                done[i] = own;
            }
            for (row, &guess) in seen.iter().zip(set) {
                let cost = flat - row[0].count_ones();
                if row[2] == 0 {
                    if exact.is_none_or(|(best, _)| cost < best) {
                        exact = Some((cost, guess));
                    }
                } else {
                    (sharp, plain) = (sharp.min(cost), plain.min(cost));
                }
            }
        } else {
            (exact, sharp, plain) = self.small_set_counts(space, set, flat, lower, cap, (exact, sharp, plain));
        }
        // Exact only where the game's own bounds prove it, so the guess played is the one the
        // search would find (the sharper bounds only raise the lower bound).
        let reached = sharp < outsider || exact.is_some_and(|(cost, _)| cost <= outsider);
        match exact {
            Some((cost, g)) if cost <= plain => Small::Exact(cost, g),
            _ => {
                let lower = exact.map_or(sharp, |(cost, _)| cost.min(sharp));
                if reached {
                    Small::Reached(lower)
                } else {
                    Small::Lower(lower)
                }
            }
        }
    }

    /// [`Self::small_set`]'s rows from each candidate's counts by feedback: `(exact, sharp,
    /// plain)` updated.
    fn small_set_counts(
        &self,
        space: &CodeSpace,
        set: &[CodeIndex],
        flat: Option<u32>,
        lower: &[u32],
        cap: u64,
        (mut exact, mut sharp, mut plain): (Option<(u32, CodeIndex)>, u32, u32),
    ) -> (Option<(u32, CodeIndex)>, u32, u32) {
        let (m, f) = (set.len(), space.scheme().len());
        COUNTS.with_borrow_mut(|counts| {
            // Each candidate's table of feedbacks on the set. The score is symmetric, so each
            // pair is scored once and counted for both; two distinct codes never score the
            // winning feedback, so its counts stay 0.
            counts.clear();
            counts.resize(m * f, 0);
            for (i, &a) in set.iter().enumerate() {
                // Rows as slices: indexed through the thread-local vector, every count
                // reloaded its pointer and length.
                let (own, later) = counts[i * f..].split_at_mut(f);
                let mut rows = later.chunks_exact_mut(f);
                space.for_each_feedback(a, &set[i + 1..], |fb| {
                    own[fb] += 1;
                    if let Some(row) = rows.next() {
                        row[fb] += 1;
                    }
                });
            }
            for (row, &guess) in counts.chunks_exact(f).zip(set) {
                // `lower[0] = 0`, so empty parts add nothing.
                let (mut largest, mut cost, mut cost_plain) = (0, m as u32, m as u32);
                match flat {
                    Some(flat) => {
                        let mut parts = 0u32;
                        for &c in row {
                            largest = largest.max(c);
                            parts += u32::from(c != 0);
                        }
                        (cost, cost_plain) = (flat - parts, flat - parts);
                    }
                    None => {
                        for &c in row {
                            largest = largest.max(c);
                            cost += lower[c as usize];
                            cost_plain += self.lower[c as usize];
                        }
                    }
                }
                if u64::from(largest) > cap {
                    // A part past the depth's capacity makes the guess infeasible.
                    continue;
                }
                if largest <= 2 {
                    // Parts of 1 and 2 codes cost the same under both bounds; the first of
                    // least cost in the set's order is kept.
                    if exact.is_none_or(|(best, _)| cost < best) {
                        exact = Some((cost, guess));
                    }
                } else {
                    (sharp, plain) = (sharp.min(cost), plain.min(cost_plain));
                }
            }
        });
        (exact, sharp, plain)
    }
}

/// Largest `c` with `lower[i] = 2i - 1` for every `1 <= i <= c`.
fn linear_end(lower: &[u32]) -> usize {
    (1..lower.len()).take_while(|&c| lower[c] as usize == 2 * c - 1).last().unwrap_or(0)
}

/// `outside[m]`: the least `sum lower[p_i]` over at most `b` parts `p_i` adding up to `m`.
/// `lower` grows by a non-decreasing step, so balanced parts are best.
fn outside_bounds(lower: &[u32], b: u64) -> Vec<u32> {
    let b = b.max(1) as usize;
    (0..lower.len())
        .map(|m| {
            let (q, r) = (m / b, m % b);
            let big = if r > 0 { lower[q + 1] as u64 * r as u64 } else { 0 };
            (big + lower[q] as u64 * (b - r) as u64).min(u64::from(INFINITE - 1)) as u32
        })
        .collect()
}

/// `lower[m]` for `m = 0..=max`: fill 1 code at depth 1, `b` at depth 2, `b²` at depth 3, …
fn perfect_bounds(max: usize, b: u64) -> Vec<u32> {
    let mut lower = Vec::with_capacity(max + 1);
    let (mut total, mut depth, mut level_cap, mut in_level) = (0u64, 1u64, 1u64, 0u64);
    lower.push(0);
    for _ in 1..=max {
        if in_level == level_cap {
            depth += 1;
            level_cap = level_cap.saturating_mul(b);
            in_level = 0;
        }
        in_level += 1;
        total += depth;
        lower.push(total.min(u64::from(INFINITE - 1)) as u32);
    }
    lower
}

#[cfg(test)]
mod tests {
    use mmtree_core::{Game, GameSpec, MemoryLimit};
    use proptest::prelude::*;

    use super::*;

    /// `|K|` plus the perfect-tree bounds `lower` of the parts `guess` leaves on `set`: no
    /// strategy that starts with `guess` costs less.
    fn one_step(space: &CodeSpace, lower: &[u32], guess: CodeIndex, set: &[CodeIndex]) -> u32 {
        let win = space.scheme().win().get();
        let mut sizes = vec![0usize; space.scheme().len()];
        for &c in set {
            sizes[space.feedback(guess, c).get()] += 1;
        }
        let parts = sizes.iter().enumerate().filter(|&(f, _)| f != win);
        set.len() as u32 + parts.map(|(_, &s)| lower[s]).sum::<u32>()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Parts past `2b + 1` codes: the candidates' bound never exceeds the least one-step
        /// bound over every code (a lower bound of the optimum), also with the perfect trees
        /// of as many branches as the set's most-branching guess has; a reached bound is some
        /// candidate's one-step bound.
        #[test]
        fn candidates_bound_large_parts_from_below(picks in prop::collection::btree_set(0u32..1296, 28..=PART_MAX)) {
            let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6)).unwrap(), MemoryLimit(1 << 30)).unwrap();
            let bounds = Bounds::new(&space);
            let set: Vec<CodeIndex> = picks.into_iter().map(CodeIndex::from_index).collect();
            let win = space.scheme().win().get();
            let all = space.all_indices();
            let most = all
                .iter()
                .map(|&g| {
                    let mut seen = 0u64;
                    set.iter().for_each(|&c| seen |= 1 << space.feedback(g, c).get());
                    (seen & !(1 << win)).count_ones()
                })
                .max()
                .unwrap();
            let sharp = perfect_bounds(set.len(), u64::from(most));
            for (lower, most) in [(&bounds.lower, None), (&sharp, Some(most))] {
                let least = all.iter().map(|&g| one_step(&space, lower, g, &set)).min().unwrap();
                let (bound, reached) = match bounds.small_part(&space, Pool::All, &set, UNLIMITED, most) {
                    Small::Lower(lb) => (lb, false),
                    Small::Reached(lb) => (lb, true),
                    Small::Exact(..) | Small::Unknown => panic!("a large part is bounded, never solved"),
                };
                prop_assert!(bound <= least, "bound {bound} above the least one-step bound {least}");
                if reached {
                    let best = set.iter().map(|&g| one_step(&space, &bounds.lower, g, &set)).min().unwrap();
                    prop_assert!(best <= bound, "reached {bound}, but the best candidate's bound is {best}");
                }
            }
        }
    }

    #[test]
    fn perfect_bounds_fill_levels() {
        // b = 2: depths 1, 2, 2, 3, 3, 3, 3, 4.
        assert_eq!(perfect_bounds(8, 2), vec![0, 1, 3, 5, 8, 11, 14, 17, 21]);
        assert_eq!(perfect_bounds(2, 13)[2], 3);
    }
}
