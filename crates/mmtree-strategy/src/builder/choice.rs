//! The guess a rule plays on one candidate set: which guesses are scanned, in which order,
//! cut down by the history's symmetry, and handed to the partition scanner.
//!
//! Priority order is the tie rule's: candidates first when preferred, each group in tie order
//! (smallest or largest first). Only one guess per symmetry class is scanned: the class's
//! extreme member in tie order, which no other member can beat strictly, so the first best
//! guess is the plain rule's.

use mmtree_core::{CodeIndex, Guesses, Scan, Symmetry};

use super::best::{BestGuess, Candidate, Target};
use super::Solver;
use crate::rule::{GuessRule, Method, Pool, Ties};

/// Candidate sets up to this size scan the whole pool laid out, without testing each guess
/// against the group (cheaper than the test at this size).
const LAID_OUT_MAX: usize = 128;

/// Which guesses a scan keeps: one per class of the group and of the absent colours.
pub(crate) struct Filter<'a> {
    symmetry: &'a Symmetry,
    absent: u64,
    largest: bool,
    /// Every guess is alone in its class (see [`Symmetry::moves_nothing`]).
    trivial: bool,
}

impl Filter<'_> {
    pub(crate) fn keeps(&self, solver: &Solver, g: CodeIndex) -> bool {
        self.trivial || self.symmetry.is_representative(&solver.space.code(g), self.absent, self.largest)
    }
}

impl Solver<'_> {
    /// The guess of the rule's method on `candidates`, reached with `symmetry`.
    pub(super) fn choose_with(&self, candidates: &[CodeIndex], symmetry: &Symmetry) -> CodeIndex {
        assert!(!candidates.is_empty(), "BUG: choose on an empty candidate set");
        match self.rule.method {
            Method::OneStep => self.one_step(&self.rule, candidates, symmetry),
            Method::Lookahead2 => crate::lookahead::choose(self, candidates, symmetry),
            Method::FirstCandidate => crate::simple::first_candidate(self.rule.ties, candidates),
            Method::Human => crate::simple::human_guess(self.space, candidates),
        }
    }

    /// The guess the one-step rule `rule` plays on `candidates` (sorted, non-empty).
    pub(crate) fn one_step(&self, rule: &GuessRule, candidates: &[CodeIndex], symmetry: &Symmetry) -> CodeIndex {
        if candidates.len() == 1 {
            return candidates[0];
        }
        let filter = self.filter(candidates, symmetry, rule.ties == Ties::Largest);
        let target = Target::ideal(rule.valuation, candidates.len(), self.space.scheme().len());
        let scan = |guesses: Guesses, offset: usize, best: Option<Candidate>| {
            let scan = Scan::new(self.space, guesses, candidates).detail(rule.valuation.detail()).parallel(true);
            scan.run(|| BestGuess::new(rule.valuation, &target, offset, best.clone()))
        };
        // The candidates first when preferred (all of the pool in the candidates mode).
        let first = rule.pool == Pool::Candidates || rule.prefer_candidates;
        let mut best = BestGuess::new(rule.valuation, &target, 0, None);
        if first {
            let mut order: Vec<CodeIndex> = candidates.iter().copied().filter(|&g| filter.keeps(self, g)).collect();
            if filter.largest {
                order.reverse();
            }
            best = scan(Guesses::List(&order), 0, None);
        }
        if rule.pool == Pool::All && !best.reached {
            // Then the whole pool in tie order, cut down by symmetry (a candidate met again
            // cannot be strictly better than itself).
            let offset = if first { candidates.len() } else { 0 };
            let free = filter.symmetry.free_colours(filter.absent);
            let reduced = self.pools.get(self.space, free, filter.largest);
            best = if candidates.len() <= LAID_OUT_MAX {
                let pool = reduced.as_deref().unwrap_or(self.space.pool());
                scan(Guesses::Pool(pool, filter.largest), offset, best.best)
            } else {
                let keeps = |&g: &CodeIndex| filter.keeps(self, g);
                let mut order: Vec<CodeIndex> = match &reduced {
                    Some(pool) => pool.indices().iter().copied().filter(keeps).collect(),
                    None => (0..self.space.len() as u32).map(CodeIndex::from_index).filter(keeps).collect(),
                };
                if filter.largest {
                    order.reverse();
                }
                scan(Guesses::List(&order), offset, best.best)
            };
        }
        best.best.expect("BUG: a non-empty pool yields a best guess").guess
    }

    /// The filter of one candidate set under `symmetry`.
    pub(crate) fn filter<'a>(&self, candidates: &[CodeIndex], symmetry: &'a Symmetry, largest: bool) -> Filter<'a> {
        let absent = self.absent_colours(candidates);
        Filter { symmetry, absent, largest, trivial: symmetry.moves_nothing(absent) }
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
