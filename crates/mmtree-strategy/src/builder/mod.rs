//! The one-step builder: [`Solver`] applies a [`GuessRule`] at every candidate set and builds
//! the complete strategy tree by recursive partitioning, in parallel, deterministically.
//!
//! * `choice`: the guess the rule plays on one candidate set (which guesses, in which
//!   order, scanned how);
//! * `best`: the running best guess of a scan, compared exactly;
//! * `multisets`: the best value on a small candidate set, bounded by colour multiset;
//! * `pools`: the guess pools cut down by symmetry, laid out once and cached;
//! * `split`: the top of a tree and the subtree of one node from its history (for jobs);
//! * this module: the tree, node by node, carrying the symmetry of the history down.

mod best;
mod choice;
mod multisets;
mod pools;
mod split;

pub(crate) use best::ideal_partition;
pub use split::{candidates_after, CandidateCache, JoinError, Round, SplitNode, Top, TopNode};

use rayon::prelude::*;

use mmtree_core::{CodeIndex, CodeSpace, FeedbackIndex, StrategyTree, Subtree, Symmetry};

use crate::rule::GuessRule;
use pools::PoolCache;

/// Nodes with at least this many candidates build their children in parallel.
const PARALLEL_CHILDREN: usize = 64;

/// The guesses that represent their class under one node's group, found once for all its
/// children on first need, when two or more of them are large (see `choice`).
type Representatives = std::sync::OnceLock<Vec<CodeIndex>>;

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
    symmetry: bool,
    pools: PoolCache,
    /// The codes by colour multiset, for small candidate sets (built on first need).
    multisets: std::sync::OnceLock<Option<multisets::Multisets>>,
}

impl<'s> Solver<'s> {
    /// A solver for one rule on one code space.
    pub fn new(space: &'s CodeSpace, rule: GuessRule) -> Solver<'s> {
        Solver {
            space,
            rule,
            progress: None,
            symmetry: true,
            pools: PoolCache::default(),
            multisets: Default::default(),
        }
    }

    /// Scores every guess of the pool instead of one per symmetry class (same result,
    /// slower; for testing the reduction).
    pub fn without_symmetry(mut self) -> Solver<'s> {
        self.symmetry = false;
        self
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

    /// The code space.
    pub(crate) fn space(&self) -> &'s CodeSpace {
        self.space
    }

    /// The tree for every secret of the game.
    pub fn build(&self) -> StrategyTree {
        let root = self.subtree(self.space.all_indices(), self.rule.first_guess, &self.root_symmetry(), None);
        StrategyTree::from_subtree(*self.space.game(), root)
    }

    /// The guess the rule plays on a candidate set (sorted, non-empty, of this space).
    ///
    /// Guesses are scanned in priority order (candidates first when preferred, each group in
    /// tie order) and a later guess replaces the best only when strictly better, so the first
    /// best guess in that order is exactly the thesis's choice. The scan stops at a guess whose
    /// partition is as good as any partition of `|K|` codes into the game's feedbacks can be.
    ///
    /// Without the history, only colours absent from every candidate are treated as
    /// interchangeable (and every permutation on the whole code space);
    /// [`Solver::choose_after`] uses the history's symmetries too.
    pub fn choose(&self, candidates: &[CodeIndex]) -> CodeIndex {
        // Every permutation maps the whole code space onto itself, whatever was played.
        let symmetry = if candidates.len() == self.space.len() {
            self.root_symmetry()
        } else {
            Symmetry::trivial(self.space.game())
        };
        self.choose_with(candidates, &symmetry, None)
    }

    /// The guess the rule plays after the guesses `history`, whose answers left `candidates`.
    pub fn choose_after(&self, history: &[CodeIndex], candidates: &[CodeIndex]) -> CodeIndex {
        let mut symmetry = self.root_symmetry();
        if self.symmetry {
            for &g in history {
                symmetry = symmetry.after(&self.space.code(g));
            }
        }
        self.choose_with(candidates, &symmetry, None)
    }

    /// The group the searches start from: the game's, or none when symmetry is off.
    fn root_symmetry(&self) -> Symmetry {
        if self.symmetry {
            Symmetry::root(self.space.game())
        } else {
            Symmetry::trivial(self.space.game())
        }
    }

    /// The subtree of a candidate set reached with `symmetry`: the rule's guess (or `fixed`),
    /// and each part's subtree, built in parallel on large sets.
    fn subtree(
        &self,
        candidates: Vec<CodeIndex>,
        fixed: Option<CodeIndex>,
        symmetry: &Symmetry,
        shared: Option<&Representatives>,
    ) -> Subtree {
        let guess = fixed.unwrap_or_else(|| self.choose_with(&candidates, symmetry, shared));
        let parts = self.space.split(guess, &candidates);
        let m = candidates.len();
        drop(candidates);
        assert!(
            parts.len() > 1 || parts[0].0 == self.space.scheme().win(),
            "BUG: guess {guess:?} does not split a set of {m} candidates"
        );
        let win = self.space.scheme().win();
        let symmetry = if self.symmetry { symmetry.after(&self.space.code(guess)) } else { symmetry.clone() };
        // Shared only when two children or more test guesses against the group.
        let large = parts.iter().filter(|(_, part)| part.len() > choice::LAID_OUT_MAX).count();
        let representatives = Representatives::new();
        let shared = (large >= 2).then_some(&representatives);
        let child = |(feedback, part): (FeedbackIndex, Vec<CodeIndex>)| {
            if feedback == win {
                if let Some(report) = self.progress {
                    report(1);
                }
                (feedback, Subtree::Leaf(guess))
            } else {
                (feedback, self.subtree(part, None, &symmetry, shared))
            }
        };
        let children = if m >= PARALLEL_CHILDREN {
            parts.into_par_iter().map(child).collect()
        } else {
            parts.into_iter().map(child).collect()
        };
        Subtree::Guess { guess, candidates: m as u32, children }
    }
}
