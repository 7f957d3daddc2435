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

/// Every code of a game, grouped by colour multiset, each group laid out for the scans.
pub(super) struct Multisets {
    groups: Vec<(Multiset, CodePool)>,
    /// Feedbacks per total `b + w`.
    by_total: [usize; MAX_PEGS as usize + 1],
}

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
        let by_total = space.scheme().by_total()?;
        let mut index = std::collections::HashMap::new();
        let mut members: Vec<(Multiset, Vec<CodeIndex>)> = Vec::new();
        for (code, _) in space.iter() {
            let key = multiset(space, code);
            let slot = *index.entry(key).or_insert_with(|| {
                members.push((key, Vec::new()));
                members.len() - 1
            });
            members[slot].1.push(code);
        }
        let groups = members.into_iter().map(|(key, codes)| (key, CodePool::new(space, codes))).collect();
        Some(Multisets { groups, by_total })
    }

    /// The best value of any guess on `candidates` (at most [`mmtree_core::MAX_PROBES`]) that
    /// is strictly better than `best` (all guesses when `None`): `None` when there is none.
    pub(super) fn best_value(
        &self,
        space: &CodeSpace,
        valuation: Valuation,
        candidates: &[CodeIndex],
        ideal: &Target,
        best: Option<&Candidate>,
    ) -> Option<Candidate> {
        let mut shares: Vec<(Multiset, u32)> = Vec::new();
        for &c in candidates {
            let key = multiset(space, c);
            match shares.iter_mut().find(|(m, _)| *m == key) {
                Some((_, count)) => *count += 1,
                None => shares.push((key, 1)),
            }
        }
        // Each group's bound, most promising first (ties in the groups' order).
        let mut bounds: Vec<(f64, Counts, usize)> = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, (guess, _))| {
                let sizes = self.bound(guess, &shares);
                (valuation.key(&sizes), sizes, g)
            })
            .collect();
        bounds.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal).then(a.2.cmp(&b.2)));
        let mut found = BestGuess::new(valuation, ideal, 0, best.cloned());
        for (key, sizes, g) in bounds {
            if let Some(b) = &found.best {
                // Checked for every group: float keys may order near-ties either way.
                if compare(valuation, key, || sizes, b.key, &b.sizes) != Ordering::Less {
                    continue;
                }
            }
            let pool = &self.groups[g].1;
            let scan = Scan::new(space, Guesses::Pool(pool, false), candidates).detail(valuation.detail());
            let before = found;
            found = scan.parallel(true).run(|| before.clone());
            if found.reached {
                break;
            }
        }
        match (found.best, best) {
            (Some(f), Some(b)) => {
                (compare(valuation, f.key, || f.sizes, b.key, &b.sizes) == Ordering::Less).then_some(f)
            }
            (f, _) => f,
        }
    }

    /// The best split any arrangement of `guess` can make of candidates with these `shares` of
    /// multisets: each total's candidates in as many equal parts as it has feedbacks, largest
    /// first.
    fn bound(&self, guess: &Multiset, shares: &[(Multiset, u32)]) -> Counts {
        let mut per_total = [0u32; MAX_PEGS as usize + 1];
        for (share, count) in shares {
            let common: u8 = guess.iter().zip(share).map(|(a, b)| *a.min(b)).sum();
            per_total[usize::from(common)] += count;
        }
        let mut sizes: Counts = [0; mmtree_core::MAX_FEEDBACKS];
        let mut len = 0;
        for (t, &m) in per_total.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let f = self.by_total[t];
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
