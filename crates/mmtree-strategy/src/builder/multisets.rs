//! The best value on a small candidate set, found over guesses grouped by colour multiset.
//!
//! A guess's common colours with a candidate (blacks plus whites) depend on the two multisets
//! alone. So every arrangement of one multiset splits the candidates by that total in the same
//! way, and each total's share into at most as many parts as the game has feedbacks with that
//! total. The ideal split of each share bounds the valuation of every arrangement at once.
//! Deep in a tree, where the candidates share a few multisets, most multisets' bounds are no
//! better than a good guess found early, and their arrangements are never scored.
//!
//! This finds the best value only; the guess the rule plays is then the first in its own
//! order to reach it (see `choice`), so the tree is the same as with a full scan.

use std::cmp::Ordering;

use mmtree_core::{CodeIndex, CodePool, CodeSpace, Counts, Guesses, Scan, MAX_COLOURS, MAX_PEGS};

use super::best::{compare, ideal_partition, BestGuess, Candidate, Target};
use crate::valuation::Valuation;

/// A colour multiset: how many pegs of each colour.
type Multiset = [u8; MAX_COLOURS as usize];

/// The best value on a candidate set, and the groups whose bound does not exclude it.
pub(super) struct BestValue {
    pub(super) value: Candidate,
    reaching: Vec<bool>,
}

/// Every code of a game, grouped by colour multiset, each group laid out for the scans.
pub(super) struct Multisets {
    groups: Vec<(Multiset, CodePool)>,
    /// Each code's group.
    group_of: Vec<u32>,
    /// `feedbacks[t][d]`: how many feedbacks have total `b + w = t` and at most `d` blacks.
    feedbacks: [[usize; PEGS]; PEGS],
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
        for fb in space.scheme().all() {
            for count in &mut feedbacks[usize::from(fb.black + fb.white)][usize::from(fb.black)..] {
                *count += 1;
            }
        }
        let (group_of, count) = space.multiset_numbers();
        let mut members: Vec<Vec<CodeIndex>> = vec![Vec::new(); count];
        for (code, &group) in group_of.iter().enumerate() {
            members[group as usize].push(CodeIndex::from_index(code as u32));
        }
        let groups =
            members.into_iter().map(|codes| (multiset(space, codes[0]), CodePool::new(space, codes))).collect();
        Some(Multisets { groups, group_of, feedbacks })
    }

    /// The best value of a guess on `candidates` that is strictly better than `best` (of any
    /// guess when `None`): `None` when there is none. The guesses are those of `list`, or every
    /// code when `None`; either way they must hold a best guess of the whole pool.
    pub(super) fn best_value(
        &self,
        space: &CodeSpace,
        valuation: Valuation,
        candidates: &[CodeIndex],
        ideal: &Target,
        best: Option<&Candidate>,
        list: Option<&[CodeIndex]>,
    ) -> Option<BestValue> {
        let mut share = vec![0u32; self.groups.len()];
        // The positions where each colour occurs in some candidate: a guess's blacks come
        // from those alone.
        let mut at = [0u16; MAX_COLOURS as usize];
        for &c in candidates {
            for (i, &p) in space.code(c).pegs().iter().enumerate() {
                at[usize::from(p)] |= 1 << i;
            }
            share[self.group_of[c.get()] as usize] += 1;
        }
        let shares: Vec<(&Multiset, u32)> =
            share.iter().zip(&self.groups).filter(|(&n, _)| n > 0).map(|(&n, (m, _))| (m, n)).collect();
        let live = at.map(|positions| positions.count_ones() as u8);
        // The guesses of each group (a list's, in its order).
        let mut lists: Vec<Vec<CodeIndex>> = Vec::new();
        if let Some(list) = list {
            lists.resize(self.groups.len(), Vec::new());
            for &g in list {
                lists[self.group_of[g.get()] as usize].push(g);
            }
        }
        // Each group's bound, most promising first (ties in the groups' order).
        let mut bounds: Vec<(f64, Counts, usize)> = (0..self.groups.len())
            .filter(|&g| list.is_none() || !lists[g].is_empty())
            .map(|g| {
                let sizes = self.bound(&self.groups[g].0, &shares, &live);
                (valuation.key(&sizes), sizes, g)
            })
            .collect();
        bounds.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal).then(a.2.cmp(&b.2)));
        let mut found = BestGuess::new(valuation, ideal, 0, best.cloned());
        for &(key, sizes, g) in &bounds {
            if let Some(b) = &found.best {
                // Checked for every group: float keys may order near-ties either way.
                if compare(valuation, key, || sizes, b.key, &b.sizes) != Ordering::Less {
                    continue;
                }
            }
            let guesses = match list {
                Some(_) => Guesses::List(&lists[g]),
                None => Guesses::Pool(&self.groups[g].1, false),
            };
            let scan = Scan::new(space, guesses, candidates).detail(valuation.detail());
            let before = found;
            found = scan.parallel(true).run(|| before.clone());
            if found.reached {
                break;
            }
        }
        let value = match (found.best, best) {
            (Some(f), Some(b)) => {
                (compare(valuation, f.key, || f.sizes, b.key, &b.sizes) == Ordering::Less).then_some(f)
            }
            (f, _) => f,
        }?;
        // The groups that may reach it.
        let mut reaching = vec![false; self.groups.len()];
        for (key, sizes, g) in &bounds {
            reaching[*g] = compare(valuation, *key, || *sizes, value.key, &value.sizes) != Ordering::Greater;
        }
        Some(BestValue { value, reaching })
    }

    /// Whether a guess's group may reach the best value.
    pub(super) fn may_reach(&self, best: &BestValue, guess: CodeIndex) -> bool {
        best.reaching[self.group_of[guess.get()] as usize]
    }

    /// The best split any arrangement of `guess` can make of candidates with these `shares` of
    /// multisets, where colour `c` occurs at `live[c]` positions: each total's candidates in as
    /// many equal parts as it has feedbacks with no more blacks than the guess's pegs of live
    /// colours can score; largest first.
    fn bound(&self, guess: &Multiset, shares: &[(&Multiset, u32)], live: &Multiset) -> Counts {
        let blacks: u8 = guess.iter().zip(live).map(|(a, b)| *a.min(b)).sum();
        let blacks = usize::from(blacks).min(PEGS - 1);
        let mut per_total = [0u32; MAX_PEGS as usize + 1];
        for (share, count) in shares {
            let common: u8 = guess.iter().zip(share.iter()).map(|(a, b)| *a.min(b)).sum();
            per_total[usize::from(common)] += count;
        }
        let mut sizes: Counts = [0; mmtree_core::MAX_FEEDBACKS];
        let mut len = 0;
        for (t, &m) in per_total.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let f = self.feedbacks[t][blacks];
            let ideal = ideal_partition(m as usize, f);
            for &s in ideal[..f].iter().filter(|&&s| s > 0) {
                sizes[len] = s;
                len += 1;
            }
        }
        sizes[..len].sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }
}
