//! Choosing guesses and building the complete strategy tree for every secret at once.

use std::cmp::Ordering;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

use rayon::prelude::*;

use mmtree_core::{CodeIndex, CodeSpace, Counts, StrategyTree, Subtree, MAX_FEEDBACKS};

use crate::rule::{GuessRule, Pool, Ties};
use crate::valuation::Valuation;

/// Nodes whose scan (`pool x candidates`) is at least this many scorings split the pool
/// across threads.
const PARALLEL_SCAN_WORK: usize = 1 << 18;
/// Nodes with at least this many candidates build their children in parallel.
const PARALLEL_CHILDREN: usize = 64;

/// Applies a [`GuessRule`] on a [`CodeSpace`].
///
/// ```
/// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_strategy::{GuessRule, Solver, Valuation};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let tree = Solver::new(&space, GuessRule::new(Valuation::Minimax)).build();
/// let stats = tree.stats();
/// assert_eq!((stats.max, stats.total), (5, 5801)); // Knuth 1977
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct Solver<'s> {
    space: &'s CodeSpace,
    rule: GuessRule,
    progress: Option<&'s (dyn Fn(u64) + Sync)>,
}

/// The best guess found in a scan: its position in priority order, key and partition table.
#[derive(Clone)]
struct Candidate {
    position: usize,
    key: f64,
    counts: Counts,
}

impl<'s> Solver<'s> {
    /// A solver for one rule on one code space.
    pub fn new(space: &'s CodeSpace, rule: GuessRule) -> Solver<'s> {
        Solver { space, rule, progress: None }
    }

    /// Reports each batch of secrets settled, for progress bars.
    pub fn with_progress(mut self, progress: &'s (dyn Fn(u64) + Sync)) -> Solver<'s> {
        self.progress = Some(progress);
        self
    }

    /// The rule.
    pub fn rule(&self) -> &GuessRule {
        &self.rule
    }

    /// The tree for every secret of the game.
    pub fn build(&self) -> StrategyTree {
        let root = self.subtree(self.space.all_indices(), self.rule.first_guess);
        StrategyTree::from_subtree(*self.space.game(), root)
    }

    fn subtree(&self, candidates: Vec<CodeIndex>, fixed: Option<CodeIndex>) -> Subtree {
        let guess = fixed.unwrap_or_else(|| self.choose(&candidates));
        let parts = self.space.split(guess, &candidates);
        let m = candidates.len();
        drop(candidates);
        assert!(
            parts.len() > 1 || parts[0].0 == self.space.scheme().win(),
            "BUG: guess {guess:?} does not split a set of {m} candidates"
        );
        let win = self.space.scheme().win();
        let child = |(feedback, part): (mmtree_core::FeedbackIndex, Vec<CodeIndex>)| {
            if feedback == win {
                if let Some(report) = self.progress {
                    report(1);
                }
                (feedback, Subtree::Leaf(guess))
            } else {
                (feedback, self.subtree(part, None))
            }
        };
        let children = if m >= PARALLEL_CHILDREN {
            parts.into_par_iter().map(child).collect()
        } else {
            parts.into_iter().map(child).collect()
        };
        Subtree::Guess { guess, candidates: m as u32, children }
    }

    /// The guess the rule plays on a candidate set (sorted, non-empty, of this space).
    ///
    /// Guesses are scanned in priority order (candidates first when preferred, each group in
    /// tie order) and a later guess replaces the best only when strictly better, so the first
    /// best guess in that order is exactly the thesis's choice. The scan stops at a guess whose
    /// partition is as good as any partition of `|K|` codes into the game's feedbacks can be.
    pub fn choose(&self, candidates: &[CodeIndex]) -> CodeIndex {
        assert!(!candidates.is_empty(), "BUG: choose on an empty candidate set");
        if let Some(guess) = crate::simple::special_choice(self.space, &self.rule, candidates) {
            return guess;
        }
        if candidates.len() == 1 {
            return candidates[0];
        }
        let order = self.priority_order(candidates);
        let ideal = ideal_partition(candidates.len(), self.space.scheme().len());
        let valuation = self.rule.valuation;
        let best = if order.len() * candidates.len() >= PARALLEL_SCAN_WORK {
            let chunk = (order.len() / (rayon::current_num_threads() * 16)).max(64);
            let ideal_chunk = AtomicUsize::new(usize::MAX);
            order
                .par_chunks(chunk)
                .enumerate()
                .filter_map(|(i, guesses)| {
                    if ideal_chunk.load(AtomicOrdering::Relaxed) < i {
                        return None;
                    }
                    let (best, reached) = self.scan(guesses, i * chunk, candidates, &ideal);
                    if reached {
                        ideal_chunk.fetch_min(i, AtomicOrdering::Relaxed);
                    }
                    best
                })
                .reduce_with(|a, b| better(valuation, a, b))
        } else {
            self.scan(&order, 0, candidates, &ideal).0
        };
        let best = best.expect("BUG: a non-empty pool yields a best guess");
        order[best.position]
    }

    /// Scans `guesses` (positions `offset..` of the priority order); returns the first best
    /// guess and whether it reached the ideal partition.
    fn scan(
        &self,
        guesses: &[CodeIndex],
        offset: usize,
        candidates: &[CodeIndex],
        ideal: &Counts,
    ) -> (Option<Candidate>, bool) {
        let valuation = self.rule.valuation;
        let f = self.space.scheme().len();
        let ideal_key = valuation.key(&ideal[..f]);
        let mut best: Option<Candidate> = None;
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        for (i, &g) in guesses.iter().enumerate() {
            counts[..f].fill(0);
            self.space.count_parts(g, candidates, &mut counts);
            let key = valuation.key(&counts[..f]);
            let improves = match &best {
                None => true,
                Some(b) => compare(valuation, key, &counts[..f], b.key, &b.counts[..f]) == Ordering::Less,
            };
            if improves {
                best = Some(Candidate { position: offset + i, key, counts });
                if compare(valuation, key, &counts[..f], ideal_key, &ideal[..f]) != Ordering::Greater {
                    return (best, true);
                }
            }
        }
        (best, false)
    }

    /// The guesses of the pool in the order the tie rule ranks equally valued guesses.
    fn priority_order(&self, candidates: &[CodeIndex]) -> Vec<CodeIndex> {
        let mut order: Vec<CodeIndex> = match self.rule.pool {
            Pool::Candidates => candidates.to_vec(),
            Pool::All if !self.rule.prefer_candidates => self.space.all_indices(),
            Pool::All => {
                let mut is_candidate = vec![false; self.space.len()];
                for c in candidates {
                    is_candidate[c.get()] = true;
                }
                let mut order = Vec::with_capacity(self.space.len());
                let others =
                    (0..self.space.len() as u32).filter(|&i| !is_candidate[i as usize]).map(CodeIndex::from_index);
                match self.rule.ties {
                    Ties::Smallest => {
                        order.extend_from_slice(candidates);
                        order.extend(others);
                    }
                    Ties::Largest => {
                        order.extend(candidates.iter().rev());
                        order.extend(others.rev());
                    }
                }
                return order;
            }
        };
        if self.rule.ties == Ties::Largest {
            order.reverse();
        }
        order
    }
}

/// Exact comparison of two scanned guesses (`Less`: the first is better).
#[inline]
fn compare(valuation: Valuation, ka: f64, a: &[u32], kb: f64, b: &[u32]) -> Ordering {
    if valuation.needs_exact(ka, kb) {
        valuation.compare(a, b)
    } else {
        ka.partial_cmp(&kb).unwrap_or(Ordering::Equal)
    }
}

/// The better of two chunk winners; on equal value, the earlier in priority order.
fn better(valuation: Valuation, a: Candidate, b: Candidate) -> Candidate {
    let f = MAX_FEEDBACKS;
    match compare(valuation, a.key, &a.counts[..f], b.key, &b.counts[..f]) {
        Ordering::Less => a,
        Ordering::Greater => b,
        Ordering::Equal => {
            if a.position <= b.position {
                a
            } else {
                b
            }
        }
    }
}

/// The most balanced split of `m` codes into `f` parts: a bound no guess can beat under
/// any of the four valuations.
fn ideal_partition(m: usize, f: usize) -> Counts {
    let mut counts: Counts = [0; MAX_FEEDBACKS];
    for (i, c) in counts[..f].iter_mut().enumerate() {
        *c = (m / f + usize::from(i < m % f)) as u32;
    }
    counts
}
