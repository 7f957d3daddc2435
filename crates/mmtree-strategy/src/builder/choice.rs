//! The guess a rule plays on one candidate set: which guesses are scanned, in which order,
//! cut down by the history's symmetry, and handed to the partition scanner.
//!
//! Priority order is the tie rule's: candidates first when preferred, each group in tie order
//! (smallest or largest first). Only one guess per symmetry class is scanned: the class's
//! extreme member in tie order, which no other member can beat strictly, so the first best
//! guess is the plain rule's.

use mmtree_core::{CodeIndex, Guesses, Prepared, Symmetry, Variant};

use super::best::{BestGuess, Candidate, Rank, Target};
use super::multisets::{Among, Multisets};
use super::{Representatives, Solver};
use crate::rule::{GuessRule, Method, Pool, Ties};
use crate::valuation::Valuation;

/// Candidate sets up to this size scan the whole pool laid out, without testing each guess
/// against the group (cheaper than the test at this size).
pub(super) const LAID_OUT_MAX: usize = 128;

/// A pool cut down by symmetry is grouped by multiset for the one-step pass when it holds at
/// least this many codes per group on average, a block's worth. With every such pool grouped,
/// [5,8] minimax took 8 % more instructions (one thread), [6,7] 10 % fewer; with this limit
/// [5,8] is unchanged.
const BY_GROUP_MIN: usize = 32;

/// The second pass on a small set reads what is left of the groups as a list when that is at
/// most this part of the pool (one in `FEW_LEFT`); more, and the laid-out pool in tie order
/// is faster.
const FEW_LEFT: usize = 8;

/// Which guesses a scan keeps: one per class of the group and of the absent colours.
pub(crate) struct Filter<'a> {
    symmetry: &'a Symmetry,
    absent: u64,
    largest: bool,
    /// Every guess is alone in its class (see [`Symmetry::moves_nothing`]).
    trivial: bool,
    /// Absent colours a one-step scan leaves out (see [`Filter::blanks`]); 0 otherwise.
    blank: u64,
}

impl Filter<'_> {
    pub(crate) fn keeps(&self, solver: &Solver, g: CodeIndex) -> bool {
        let code = solver.space.code(g);
        self.no_blank(code.pegs())
            && (self.trivial || self.symmetry.is_representative(&code, self.absent, self.largest))
    }

    /// [`Filter::keeps`] for a guess known to be its class's representative under the group
    /// alone (with no colour taken as absent): what is left to test is that its absent
    /// colours first appear in tie order, as [`Symmetry::is_representative`] asks.
    fn keeps_representative(&self, solver: &Solver, g: CodeIndex) -> bool {
        let code = solver.space.code(g);
        let pegs = code.pegs();
        if !self.no_blank(pegs) {
            return false;
        }
        let mut left = self.absent;
        for &c in pegs {
            let bit = 1u64 << c;
            if left & bit != 0 {
                let next = if self.largest { 1 << (63 - left.leading_zeros()) } else { left & left.wrapping_neg() };
                if bit != next {
                    return false;
                }
                left &= !bit;
            }
        }
        true
    }

    #[inline]
    fn no_blank(&self, pegs: &[u8]) -> bool {
        self.blank == 0 || pegs.iter().all(|&c| self.blank >> c & 1 == 0)
    }

    /// Leaves out guesses with an absent colour other than the first in tie order. An absent
    /// colour never scores, so a guess's partition stays the same when its absent colours
    /// all become that one, which makes it no later in tie order: the first best guess has
    /// no other. Codes of distinct colours cannot repeat one, so they keep them all; a solver
    /// without symmetry keeps them too.
    fn blanks(mut self, solver: &Solver) -> Self {
        let absent = self.absent;
        if solver.symmetry && absent.count_ones() >= 2 && solver.space.game().variant() == Variant::Repetition {
            let first = if self.largest { 1 << (63 - absent.leading_zeros()) } else { absent & absent.wrapping_neg() };
            self.blank = absent & !first;
        }
        self
    }
}

impl Solver<'_> {
    /// The guess of the rule's method on `candidates`, reached with `symmetry`; `shared`, when
    /// given, holds the group's representatives for every node reached with `symmetry`.
    pub(super) fn choose_with(
        &self,
        candidates: &[CodeIndex],
        symmetry: &Symmetry,
        shared: Option<&Representatives>,
    ) -> CodeIndex {
        assert!(!candidates.is_empty(), "BUG: choose on an empty candidate set");
        match self.rule.method {
            Method::OneStep => self.one_step_in(&self.rule, candidates, symmetry, shared),
            Method::Lookahead2 => crate::lookahead::choose(self, candidates, symmetry),
            Method::FirstCandidate => crate::simple::first_candidate(self.rule.ties, candidates),
            Method::Human => crate::simple::human_guess(self.space, candidates),
        }
    }

    /// The guess the one-step rule `rule` plays on `candidates` (sorted, non-empty).
    pub(crate) fn one_step(&self, rule: &GuessRule, candidates: &[CodeIndex], symmetry: &Symmetry) -> CodeIndex {
        self.one_step_in(rule, candidates, symmetry, None)
    }

    /// [`Solver::one_step`], with the representatives of `symmetry`'s group under `rule`'s
    /// tie order shared between the nodes reached with it (the children of one node: their
    /// large sets then test each guess against the group once, not once each).
    fn one_step_in(
        &self,
        rule: &GuessRule,
        candidates: &[CodeIndex],
        symmetry: &Symmetry,
        shared: Option<&Representatives>,
    ) -> CodeIndex {
        if candidates.len() == 1 {
            return candidates[0];
        }
        let filter = self.filter(candidates, symmetry, rule.ties == Ties::Largest).blanks(self);
        let target = Target::ideal(rule.valuation, candidates.len(), self.space.feedback_bound(candidates));
        // The candidates' probes, built once for every scan of this node.
        let prepared = Prepared::new(self.space, candidates);
        let scan_to = |target: &Target, guesses: Guesses, offset: usize, best: Option<Candidate>| {
            let scan = prepared.scan(guesses).detail(rule.valuation.detail()).parallel(true);
            let found = scan.run(|| BestGuess::new(rule.valuation, target, offset, best.clone()));
            (found.best, found.reached)
        };
        // The candidates first when preferred (all of the pool in the candidates mode).
        let first = rule.pool == Pool::Candidates || rule.prefer_candidates;
        let (mut best, mut reached) = (None, false);
        if first {
            let mut order: Vec<CodeIndex> = candidates.iter().copied().filter(|&g| filter.keeps(self, g)).collect();
            if filter.largest {
                order.reverse();
            }
            (best, reached) = scan_to(&target, Guesses::List(&order), 0, None);
        }
        if rule.pool == Pool::All && !reached {
            // Then the whole pool in tie order, cut down by symmetry (a candidate met again
            // cannot be strictly better than itself).
            let offset = if first { candidates.len() } else { 0 };
            let free = filter.symmetry.free_colours(filter.absent);
            // By colour multiset first on sets of every size and under every valuation: each
            // one's cut stops a group's scan early. One thread, sets of more than 4,096 codes
            // of [7,6] took minimax 10.3 s on the plain pool and 4.8 s by multiset; side by side,
            // [7,6] entropy 11.4 s and 10.4 s in all, expected size 13.7 s and 11.3 s.
            let multisets = self.multisets.get_or_init(|| Multisets::new(self.space)).as_ref();
            let small = candidates.len() <= LAID_OUT_MAX;
            let mut order = Vec::new();
            let reduced = if small { self.pools.get(self.space, free, filter.blank, filter.largest) } else { None };
            let guesses = if small {
                Guesses::Pool(reduced.as_deref().map_or(self.space.pool(), |r| r.laid_out(self.space)), filter.largest)
            } else {
                let keeps = |&g: &CodeIndex| filter.keeps(self, g);
                order = match shared {
                    Some(shared) => {
                        let representatives = shared.get_or_init(|| self.representatives(symmetry, filter.largest));
                        if filter.absent == 0 {
                            // Nothing left to test (no absent colour, so none left out).
                            representatives.clone()
                        } else {
                            representatives.iter().copied().filter(|&g| filter.keeps_representative(self, g)).collect()
                        }
                    }
                    None => match self.pools.get(self.space, free, filter.blank, filter.largest) {
                        Some(pool) => pool.indices().iter().copied().filter(keeps).collect(),
                        None => (0..self.space.len() as u32).map(CodeIndex::from_index).filter(keeps).collect(),
                    },
                };
                if filter.largest {
                    order.reverse();
                }
                Guesses::List(&order)
            };
            // With the codes grouped by multiset: the best value first, then the first guess in
            // order to reach it, among the groups that may reach it (and were not scanned
            // ranked), before the guess found. A list is scanned ranked, group by group; so is
            // the whole pool of a small set when a ranked scan cuts as much as a plain one (see
            // `ranked`); a pool cut down by symmetry is grouped by multiset too (its own codes).
            let pools = match (multisets, reduced.as_deref()) {
                (Some(groups), Some(r)) if r.indices().len() >= BY_GROUP_MIN * groups.len() => {
                    self.pools.by_group(r, self.space, groups)
                }
                _ => None,
            };
            // Without them, a pool cut down by symmetry is scanned as it is.
            let multisets = multisets.filter(|_| reduced.is_none() || pools.is_some());
            let among = match pools {
                Some(pools) => Among::Pools(pools),
                None if small => Among::All,
                None => Among::List(&order),
            };
            let rank = Rank { largest: filter.largest, codes: self.space.len() };
            let ranked = !small || ranked(rule.valuation, candidates.len());
            // The first guess in tie order among `guesses` of the value of `found` (a best
            // guess of the pool), or `found`: seeded with it, the scan cuts from its first guess.
            let first_of = |found: &Candidate, guesses: Guesses| {
                let seed = Candidate { position: rank.of(found.guess), ..found.clone() };
                let target = Target::of(found);
                let scan = prepared.scan(guesses).detail(rule.valuation.detail()).parallel(true);
                let first = scan.run(|| BestGuess::ranked(rule.valuation, &target, rank, Some(seed.clone())));
                first.best.map_or(found.guess, |b| b.guess)
            };
            match multisets {
                Some(groups) => {
                    let value = groups.best_value(
                        self.space,
                        rule.valuation,
                        &prepared,
                        &target,
                        best.as_ref(),
                        among,
                        ranked.then_some(rank),
                    );
                    let Some(found) = value else {
                        return best.expect("BUG: a non-empty pool yields a best guess").guess;
                    };
                    // The guesses before the one found, in tie order, as `reaching_before` takes them.
                    let before = rank.of(found.value.guess);
                    let left = match among {
                        Among::List(order) => Some(
                            (order.iter().copied())
                                .take_while(|&g| rank.of(g) < before)
                                .filter(|&g| groups.may_reach(&found, g))
                                .collect(),
                        ),
                        // Many guesses may reach a common value (the ideal, often): the pool in
                        // order soon meets one.
                        Among::All => groups.reaching_before(&found, rank, self.space.len() / FEW_LEFT, None),
                        Among::Pools(pools) => {
                            let most = guesses.len() / FEW_LEFT;
                            groups.reaching_before(&found, rank, most, Some(pools))
                        }
                    };
                    return match left {
                        None => first_of(&found.value, guesses),
                        Some(left) if left.is_empty() => found.value.guess,
                        Some(left) => first_of(&found.value, Guesses::List(&left)),
                    };
                }
                None => best = scan_to(&target, guesses, offset, best).0,
            }
        }
        best.expect("BUG: a non-empty pool yields a best guess").guess
    }

    /// The codes, in increasing order, that are their class's representative under the group
    /// of `symmetry` alone ([`Symmetry::is_representative`] with no absent colour).
    fn representatives(&self, symmetry: &Symmetry, largest: bool) -> Vec<CodeIndex> {
        if symmetry.moves_nothing(0) {
            return (0..self.space.len() as u32).map(CodeIndex::from_index).collect();
        }
        symmetry.representatives(self.space, largest)
    }

    /// The filter of one candidate set under `symmetry`.
    pub(crate) fn filter<'a>(&self, candidates: &[CodeIndex], symmetry: &'a Symmetry, largest: bool) -> Filter<'a> {
        let absent = self.absent_colours(candidates);
        Filter { symmetry, absent, largest, trivial: symmetry.moves_nothing(absent), blank: 0 }
    }

    /// Colours no candidate contains, as a bitmask.
    fn absent_colours(&self, candidates: &[CodeIndex]) -> u64 {
        let all = (1u64 << self.space.game().k()) - 1;
        let mut present = 0u64;
        for &c in candidates {
            for &p in self.space.code(c).pegs() {
                present |= 1 << p;
            }
            if present == all {
                break;
            }
        }
        all & !present
    }
}

/// Small sets from this size on scan ranked under minimax and most parts too. Below it, a
/// plain scan's early cut of equal guesses saves more than the second pass costs; from it on,
/// the second pass over the pool's first guesses (to the first of the value found) costs more
/// than the first pass: on [8,5] minimax, sets of 64-127 codes took 5.9 of their 10.0 s in
/// it. One thread, [7,5] minimax 19.83 -> 19.38 G instructions (16: 19.45 G, 48: 19.42 G),
/// [7,5] most parts 13.89 -> 13.03 G.
const RANKED_MIN: usize = 32;

/// Whether the one-step pass on a small set of `m` candidates scans ranked: when a guess of
/// equal value costs it no more than a worse one (expected size and entropy, whose cut-offs
/// hardly move by one, and the larger sets under the others, see [`RANKED_MIN`]), the second
/// pass then reads only the groups not scanned. Minimax and most parts cut equal guesses early
/// in a plain scan, which a ranked one cannot.
fn ranked(valuation: Valuation, m: usize) -> bool {
    matches!(valuation, Valuation::ExpectedSize | Valuation::Entropy) || m >= RANKED_MIN
}
