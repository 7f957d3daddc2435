//! The best value on a small candidate set, found over guesses grouped by colour multiset.
//!
//! A guess's common colours with a candidate (blacks plus whites) depend on the two multisets
//! alone. So every arrangement of one multiset splits the candidates by that total in the same
//! way, and each total's share into at most as many parts as the game has feedbacks with that
//! total. The ideal split of each share bounds the valuation of every arrangement at once.
//! Deep in a tree, where the candidates share a few multisets, most multisets' bounds are no
//! better than a good guess found early, and their arrangements are never scored.
//!
//! On sets larger than `LAID_OUT_MAX`, the bound also sees positions: a guess's blacks on
//! one share add up to at most what its colours can match there, position by position, and
//! few blacks in all leave some part large.
//!
//! This finds the best value, and (when the guesses are a list) the first guess in tie order
//! to reach it among the groups scanned; the guess the rule plays is then the first in its own
//! order to reach it (see `choice`), so the tree is the same as with a full scan.

use std::cmp::Ordering;
use std::ops::Range;

use mmtree_core::{CodeIndex, CodePool, CodeSpace, Counts, Guesses, Prepared, MAX_COLOURS, MAX_PEGS};

use super::best::{compare, BestGuess, Candidate, Rank, Target};
use super::choice::LAID_OUT_MAX;
use crate::valuation::Valuation;

/// A colour multiset: how many pegs of each colour.
type Multiset = [u8; MAX_COLOURS as usize];

/// The best value on a candidate set, and the groups whose bound does not exclude it.
pub(super) struct BestValue {
    /// The value, with a guess that reaches it (the first in tie order among the groups
    /// scanned, when ranked).
    pub(super) value: Candidate,
    /// The groups whose bound does not exclude the value, less those scanned ranked, or
    /// met before the group a plain scan found the value in (none holds a guess of it).
    reaching: Vec<bool>,
}

/// The guesses a best value is sought among, by group.
#[derive(Clone, Copy)]
pub(super) enum Among<'a> {
    /// Every code.
    All,
    /// These codes, each group's in this order.
    List(&'a [CodeIndex]),
    /// A pool cut down by symmetry: its codes of each group (see [`Multisets::restrict`]).
    Pools(&'a [CodePool]),
}

/// Every code of a game, grouped by colour multiset, each group laid out for the scans.
pub(super) struct Multisets {
    groups: Vec<(Multiset, CodePool)>,
    /// Each code's group.
    group_of: Vec<u32>,
    /// `feedbacks[t][d]`: how many feedbacks have total `b + w = t` and at most `d` blacks.
    feedbacks: [[usize; PEGS]; PEGS],
    /// `blacks[t]`: the blacks of the feedbacks with total `t`, increasing.
    blacks: Vec<Vec<u8>>,
    /// `common[a * groups + b]`: the pegs groups `a` and `b` have in common (any guess's
    /// blacks plus whites on any candidate), when the table is at most [`COMMON_MAX`] bytes.
    common: Option<Vec<u8>>,
}

/// The largest table of common pegs kept (1,287 groups in [8,6] take 1.6 MB, 3,003 in [6,9]
/// 9 MB); larger games sum the minima of the two multisets each time.
const COMMON_MAX: usize = 1 << 24;

/// The pegs two colour multisets have in common.
fn common_pegs(a: &Multiset, b: &Multiset) -> u8 {
    a.iter().zip(b).map(|(a, b)| *a.min(b)).sum()
}

/// Per share of the candidates (those of one colour multiset): how many have each colour at
/// each position, `n * k` counts a share.
struct Places {
    n: usize,
    k: usize,
    counts: Vec<u32>,
}

const PEGS: usize = MAX_PEGS as usize + 1;

fn multiset(space: &CodeSpace, code: CodeIndex) -> Multiset {
    let mut counts = [0; MAX_COLOURS as usize];
    for &p in space.code(code).pegs() {
        counts[usize::from(p)] += 1;
    }
    counts
}

impl Multisets {
    /// The groups of `space`, or `None` for black-peg games (whose feedbacks tell no total).
    pub(super) fn new(space: &CodeSpace) -> Option<Multisets> {
        space.scheme().by_total()?;
        let mut feedbacks = [[0; PEGS]; PEGS];
        let mut blacks = vec![Vec::new(); PEGS];
        for fb in space.scheme().all() {
            for count in &mut feedbacks[usize::from(fb.black + fb.white)][usize::from(fb.black)..] {
                *count += 1;
            }
            blacks[usize::from(fb.black + fb.white)].push(fb.black);
        }
        blacks.iter_mut().for_each(|b| b.sort_unstable());
        let (group_of, count) = space.multiset_numbers();
        let mut members: Vec<Vec<CodeIndex>> = vec![Vec::new(); count];
        for (code, &group) in group_of.iter().enumerate() {
            members[group as usize].push(CodeIndex::from_index(code as u32));
        }
        let groups: Vec<(Multiset, CodePool)> =
            members.into_iter().map(|codes| (multiset(space, codes[0]), CodePool::new(space, codes))).collect();
        let common = (groups.len().pow(2) <= COMMON_MAX).then(|| {
            let mut table = Vec::with_capacity(groups.len().pow(2));
            for (a, _) in &groups {
                table.extend(groups.iter().map(|(b, _)| common_pegs(a, b)));
            }
            table
        });
        Some(Multisets { groups, group_of, feedbacks, blacks, common })
    }

    /// The best value of a guess on `candidates` that is strictly better than `best` (of any
    /// guess when `None`): `None` when there is none. The guesses are those of `among`, which
    /// must hold a best guess of the whole pool. With the tie
    /// order `rank`, each group is scanned in it and the guess returned is the first of that
    /// value in tie order among the groups scanned; `best`, if any, comes before every guess.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn best_value(
        &self,
        space: &CodeSpace,
        valuation: Valuation,
        prepared: &Prepared,
        ideal: &Target,
        best: Option<&Candidate>,
        among: Among,
        rank: Option<Rank>,
    ) -> Option<BestValue> {
        let candidates = prepared.candidates();
        let (share, live) = self.shares(space, candidates);
        let shares = Self::nonempty(&share);
        let places = (candidates.len() > LAID_OUT_MAX).then(|| self.places(space, candidates, &share));
        // The guesses of each group (a list's, in its order).
        let mut lists: Vec<Vec<CodeIndex>> = Vec::new();
        if let Among::List(list) = among {
            lists.resize(self.groups.len(), Vec::new());
            for &g in list {
                lists[self.group_of[g.get()] as usize].push(g);
            }
        }
        // Each group's bound, most promising first (ties in the groups' order); sharpened by
        // the positions only for the groups the plain bound does not rule out. The part sizes
        // stay where they were computed, one after another in `parts`: only (key, group,
        // parts) triples are sorted.
        let mut sums = Vec::new();
        let mut parts: Vec<u32> = Vec::with_capacity(self.groups.len() * 8);
        let mut bounds: Vec<(f64, usize, Range<usize>)> = Vec::with_capacity(self.groups.len());
        let holds = |g: usize| match among {
            Among::All => true,
            Among::List(_) => !lists[g].is_empty(),
            Among::Pools(pools) => !pools[g].is_empty(),
        };
        for g in (0..self.groups.len()).filter(|&g| holds(g)) {
            let start = parts.len();
            self.bound(g, &shares, &live, None, &mut sums, &mut parts);
            bounds.push((valuation.key(&parts[start..]), g, start..parts.len()));
        }
        bounds.sort_unstable_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal).then(a.1.cmp(&b.1)));
        let mut sharp = Vec::new();
        // A group's bound sharpened by the positions, when they are known: its key, the parts
        // in `sharp`.
        let mut sharpen = |g: usize, sharp: &mut Vec<u32>| {
            places.as_ref().map(|places| {
                sharp.clear();
                self.bound(g, &shares, &live, Some(places), &mut sums, sharp);
                valuation.key(sharp)
            })
        };
        let beats = |key: f64, sizes: &[u32], b: &Candidate, or_ties: bool| match compare(
            valuation,
            key,
            || counts_of(sizes),
            b.key,
            &b.sizes,
        ) {
            Ordering::Less => true,
            Ordering::Equal => or_ties,
            Ordering::Greater => false,
        };
        let mut found = match rank {
            Some(rank) => {
                BestGuess::ranked(valuation, ideal, rank, best.map(|b| Candidate { position: 0, ..b.clone() }))
            }
            None => BestGuess::new(valuation, ideal, 0, best.cloned()),
        };
        let mut scanned = vec![false; self.groups.len()];
        // How many groups of `bounds` had been passed when a plain scan last improved the best.
        let mut improved = 0;
        let mut totals = Vec::with_capacity(candidates.len());
        for (i, bound) in bounds.iter().enumerate() {
            let g = bound.1;
            if let Some(b) = &found.best {
                // Checked for every group: float keys may order near-ties either way.
                if !beats(bound.0, &parts[bound.2.clone()], b, false)
                    || sharpen(g, &mut sharp).is_some_and(|key| !beats(key, &sharp, b, false))
                {
                    continue;
                }
            }
            let largest = rank.is_some_and(|r| r.largest);
            let guesses = match among {
                Among::All => Guesses::Pool(&self.groups[g].1, largest),
                Among::List(_) => Guesses::List(&lists[g]),
                Among::Pools(pools) => Guesses::Pool(&pools[g], largest),
            };
            scanned[g] = rank.is_some();
            // Every guess of the group has one total with each candidate.
            totals.clear();
            totals.extend(candidates.iter().map(|&c| self.common(g, self.group_of[c.get()] as usize)));
            let scan = prepared.scan(guesses).detail(valuation.detail()).totals(&totals);
            let before = found;
            found = scan.parallel(true).run(|| before.clone());
            if rank.is_none() && found.best.as_ref().map(|b| b.guess) != before.best.as_ref().map(|b| b.guess) {
                improved = i;
            }
            if found.reached {
                break;
            }
        }
        // The groups before the one that found the best value, scanned plain (each counted to
        // the end against a worse best) or passed over (bound no better than a worse best),
        // hold no guess of that value: none of them is left to the second pass. That group
        // itself stays: its guess found need not be its first of the value in tie order (under
        // the largest first, it was not always).
        bounds[..improved].iter().for_each(|&(_, g, _)| scanned[g] = true);
        let value = match (found.best, best) {
            (Some(f), Some(b)) => {
                (compare(valuation, f.key, || f.sizes, b.key, &b.sizes) == Ordering::Less).then_some(f)
            }
            (f, _) => f,
        }?;
        // The groups left that may reach it.
        let mut reaching = vec![false; self.groups.len()];
        for bound in &bounds {
            let g = bound.1;
            reaching[g] = !scanned[g]
                && beats(bound.0, &parts[bound.2.clone()], &value, true)
                && sharpen(g, &mut sharp).is_none_or(|key| beats(key, &sharp, &value, true));
        }
        Some(BestValue { value, reaching })
    }

    /// Whether a guess's group may reach the best value before its guess (see [`BestValue`]).
    pub(super) fn may_reach(&self, best: &BestValue, guess: CodeIndex) -> bool {
        best.reaching[self.group_of[guess.get()] as usize]
    }

    /// The codes of the groups that may reach the best value (see [`Multisets::may_reach`])
    /// that come before its guess in tie order `rank`, in that order; `None` when those groups
    /// hold more than `most` codes. The groups are every code's, or `pools` (see
    /// [`Multisets::restrict`]).
    pub(super) fn reaching_before(
        &self,
        best: &BestValue,
        rank: Rank,
        most: usize,
        pools: Option<&[CodePool]>,
    ) -> Option<Vec<CodeIndex>> {
        let pool = |g: usize| pools.map_or(&self.groups[g].1, |pools| &pools[g]);
        let reaching = || (0..self.groups.len()).filter(|&g| best.reaching[g]).map(pool);
        if reaching().map(CodePool::len).sum::<usize>() > most {
            return None;
        }
        let before = rank.of(best.value.guess);
        let mut left: Vec<CodeIndex> =
            reaching().flat_map(|pool| pool.indices().iter().copied().filter(|&g| rank.of(g) < before)).collect();
        left.sort_unstable_by_key(|&g| rank.of(g));
        Some(left)
    }

    /// The pegs groups `a` and `b` have in common.
    fn common(&self, a: usize, b: usize) -> u8 {
        match &self.common {
            Some(common) => common[a * self.groups.len() + b],
            None => common_pegs(&self.groups[a].0, &self.groups[b].0),
        }
    }

    /// Number of groups.
    pub(super) fn len(&self) -> usize {
        self.groups.len()
    }

    /// The codes of `indices` (increasing) by group, each group's laid out for the scans in
    /// increasing order: a pool cut down by symmetry, for [`Among::Pools`].
    pub(super) fn restrict(&self, space: &CodeSpace, indices: &[CodeIndex]) -> Vec<CodePool> {
        let mut members: Vec<Vec<CodeIndex>> = vec![Vec::new(); self.groups.len()];
        for &code in indices {
            members[self.group_of[code.get()] as usize].push(code);
        }
        members.into_iter().map(|codes| CodePool::new(space, codes)).collect()
    }

    /// How many candidates each group holds, and at how many positions each colour occurs in
    /// some candidate (a guess's blacks come from those alone).
    fn shares(&self, space: &CodeSpace, candidates: &[CodeIndex]) -> (Vec<u32>, Multiset) {
        let mut share = vec![0u32; self.groups.len()];
        let mut at = [0u16; MAX_COLOURS as usize];
        for &c in candidates {
            for (i, &p) in space.code(c).pegs().iter().enumerate() {
                at[usize::from(p)] |= 1 << i;
            }
            share[self.group_of[c.get()] as usize] += 1;
        }
        (share, at.map(|positions| positions.count_ones() as u8))
    }

    /// The groups holding candidates, with how many.
    fn nonempty(share: &[u32]) -> Vec<(usize, u32)> {
        share.iter().enumerate().filter(|&(_, &n)| n > 0).map(|(g, &n)| (g, n)).collect()
    }

    /// How many candidates of each share have each colour at each position.
    fn places(&self, space: &CodeSpace, candidates: &[CodeIndex], share: &[u32]) -> Places {
        let (n, k) = (usize::from(space.game().n()), usize::from(space.game().k()));
        let mut slot = vec![0; self.groups.len()];
        let mut next = 0;
        for (slot, _) in slot.iter_mut().zip(share).filter(|&(_, &count)| count > 0) {
            *slot = next;
            next += 1;
        }
        let mut counts = vec![0; next * n * k];
        for &c in candidates {
            let base = slot[self.group_of[c.get()] as usize] * n * k;
            for (i, &p) in space.code(c).pegs().iter().enumerate() {
                counts[base + i * k + usize::from(p)] += 1;
            }
        }
        Places { n, k, counts }
    }

    /// The best split any arrangement of group `g`'s multiset can make of candidates with these
    /// `shares` of groups, where colour `c` occurs at `live[c]` positions: each total's candidates in as
    /// many equal parts as it has feedbacks with no more blacks than the guess's pegs of live
    /// colours can score, the largest no smaller than the blacks `places` allow (see
    /// [`least_largest`]). The non-empty parts are appended to `parts`, largest first (valuing
    /// only those, not zeros after them, matters to entropy: its sum is a chain of float
    /// adds). `sums` is scratch space.
    fn bound(
        &self,
        g: usize,
        shares: &[(usize, u32)],
        live: &Multiset,
        places: Option<&Places>,
        sums: &mut Vec<u32>,
        parts: &mut Vec<u32>,
    ) {
        let guess = &self.groups[g].0;
        let blacks: u8 = guess.iter().zip(live).map(|(a, b)| *a.min(b)).sum();
        let blacks = usize::from(blacks).min(PEGS - 1);
        let mut per_total = [0u32; MAX_PEGS as usize + 1];
        if let Some(places) = places {
            sums.clear();
            sums.resize(PEGS * places.n * places.k, 0);
        }
        let row = self.common.as_ref().map(|common| &common[g * self.groups.len()..][..self.groups.len()]);
        for (i, &(share, count)) in shares.iter().enumerate() {
            let common = row.map_or_else(|| common_pegs(guess, &self.groups[share].0), |row| row[share]);
            per_total[usize::from(common)] += count;
            if let Some(p) = places {
                let size = p.n * p.k;
                let into = &mut sums[usize::from(common) * size..][..size];
                into.iter_mut().zip(&p.counts[i * size..][..size]).for_each(|(s, c)| *s += c);
            }
        }
        let start = parts.len();
        for (t, &m) in per_total.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let f = self.feedbacks[t][blacks];
            let largest = places.map(|p| {
                let mass = p.most_blacks(guess, &sums[t * p.n * p.k..][..p.n * p.k]);
                least_largest(m, &self.blacks[t][..f], mass)
            });
            match largest {
                // No better than the largest the blacks allow: that part, the rest split evenly.
                Some(largest) if f > 0 && largest > m.div_ceil(f as u32) => {
                    parts.push(largest);
                    push_even(parts, m - largest, f - 1);
                }
                _ => push_even(parts, m, f),
            }
        }
        parts[start..].sort_unstable_by(|a, b| b.cmp(a));
    }
}

/// Appends the non-empty parts of the most even split of `m` codes into `f` parts.
fn push_even(parts: &mut Vec<u32>, m: u32, f: usize) {
    if f == 0 {
        return;
    }
    let (each, more) = (m / f as u32, (m % f as u32) as usize);
    parts.extend(std::iter::repeat_n(each + 1, more));
    if each > 0 {
        parts.extend(std::iter::repeat_n(each, f - more));
    }
}

/// Part sizes as the fixed array [`compare`] takes.
fn counts_of(sizes: &[u32]) -> Counts {
    let mut counts: Counts = [0; mmtree_core::MAX_FEEDBACKS];
    counts[..sizes.len()].copy_from_slice(sizes);
    counts
}

impl Places {
    /// The most blacks an arrangement of `guess` can score in all on candidates with these
    /// `counts` (colour by position): at each position the best of its colours, and for each
    /// colour its best positions, as many as it has pegs.
    fn most_blacks(&self, guess: &Multiset, counts: &[u32]) -> u32 {
        let (n, k) = (self.n, self.k);
        let colours = || (0..k).filter(|&c| guess[c] > 0);
        let by_position: u32 = (0..n).map(|i| colours().map(|c| counts[i * k + c]).max().unwrap_or(0)).sum();
        let mut column = [0u32; MAX_PEGS as usize];
        let by_colour: u32 = colours()
            .map(|c| {
                for (i, slot) in column[..n].iter_mut().enumerate() {
                    *slot = counts[i * k + c];
                }
                column[..n].sort_unstable_by(|a, b| b.cmp(a));
                column[..usize::from(guess[c]).min(n)].iter().sum::<u32>()
            })
            .sum();
        by_position.min(by_colour)
    }
}

/// The least largest part of `m` candidates split over feedbacks with these `blacks`
/// (increasing) when their blacks add up to at most `mass`: parts of at most `l` need at
/// least the blacks of `l` candidates on each of the fewest blacks, until all are placed.
fn least_largest(m: u32, blacks: &[u8], mass: u32) -> u32 {
    let fewest = |l: u32| -> Option<u64> {
        let (mut left, mut sum) = (m, 0u64);
        for &b in blacks {
            let take = left.min(l);
            sum += u64::from(take) * u64::from(b);
            left -= take;
        }
        (left == 0).then_some(sum)
    };
    let (mut low, mut high) = (1, m);
    while low < high {
        let mid = (low + high) / 2;
        if fewest(mid).is_some_and(|sum| sum <= u64::from(mass)) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmtree_core::{Game, GameSpec, MemoryLimit, Variant};

    /// Every arrangement of every multiset splits a set no better than its group's bound, under
    /// each valuation, with and without the bound that sees positions (checked by splitting).
    #[test]
    fn no_arrangement_beats_its_bound() {
        let mut distinct = GameSpec::mastermind(4, 7);
        distinct.variant = Variant::Distinct;
        for spec in [GameSpec::mastermind(5, 4), GameSpec::mastermind(4, 5), distinct] {
            let space = CodeSpace::new(Game::new(spec).unwrap(), MemoryLimit(1 << 30)).unwrap();
            let groups = Multisets::new(&space).unwrap();
            let all: Vec<CodeIndex> = (0..space.len() as u32).map(CodeIndex::from_index).collect();
            // Sets of every size down to a few: the parts of two guesses in turn.
            let mut sets = vec![all.clone()];
            for first in [0, space.len() / 3] {
                for (_, part) in space.split(CodeIndex::from_index(first as u32), &all) {
                    let second = CodeIndex::from_index((space.len() / 2) as u32);
                    sets.extend(space.split(second, &part).into_iter().map(|(_, p)| p));
                    sets.push(part);
                }
            }
            for set in sets.iter().filter(|s| s.len() >= 2) {
                let (share, live) = groups.shares(&space, set);
                let shares = Multisets::nonempty(&share);
                let places = groups.places(&space, set, &share);
                let mut sums = Vec::new();
                for (g, (_, pool)) in groups.groups.iter().enumerate() {
                    let (mut plain, mut sharp) = (Vec::new(), Vec::new());
                    groups.bound(g, &shares, &live, None, &mut sums, &mut plain);
                    groups.bound(g, &shares, &live, Some(&places), &mut sums, &mut sharp);
                    for &g in pool.indices() {
                        let mut sizes: Vec<u32> = space.split(g, set).iter().map(|(_, p)| p.len() as u32).collect();
                        sizes.sort_unstable_by(|a, b| b.cmp(a));
                        for valuation in Valuation::ALL {
                            for bound in [&plain, &sharp] {
                                assert_ne!(
                                    valuation.compare(bound, &sizes),
                                    Ordering::Greater,
                                    "{spec:?} {valuation:?}: {:?} beats the bound {:?} on {} codes",
                                    space.code(g),
                                    bound,
                                    set.len()
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// The least largest part, against every split of a few codes over three feedbacks.
    #[test]
    fn least_largest_matches_every_split() {
        let blacks = [0u8, 1, 3];
        for m in 1..=12u32 {
            for mass in 0..=3 * m {
                let mut best = None;
                for a in 0..=m {
                    for b in 0..=m - a {
                        let c = m - a - b;
                        if b + 3 * c <= mass {
                            let largest = a.max(b).max(c);
                            best = Some(best.map_or(largest, |l: u32| l.min(largest)));
                        }
                    }
                }
                if let Some(best) = best {
                    assert_eq!(least_largest(m, &blacks, mass), best, "{m} codes, {mass} blacks");
                }
            }
        }
    }
}
