//! The optimal tree, built from the best guesses the search left in its table.

use rayon::prelude::*;

use mmtree_core::{CodeIndex, FeedbackIndex, Subtree};

use super::bounds::Small;
use super::table::Entry;
use super::{OptimalSearch, Stopped, UNLIMITED};

/// Sets with at least this many codes build their children in parallel.
const PARALLEL_CHILDREN: usize = 64;

impl OptimalSearch<'_> {
    /// The tree of the optimum of `set` within `depth`, from the table's best guesses.
    pub(super) fn build(&self, set: Vec<CodeIndex>, depth: u8, history: &[CodeIndex]) -> Result<Subtree, Stopped> {
        let m = set.len();
        let guess = if m <= 2 {
            set[0]
        } else if let Small::Exact(_, g) = self.bounds.small_set(self.space, self.config.pool, &set, depth) {
            g
        } else {
            match self.lookup(&set, depth) {
                Some(Entry::Exact(_, g)) => g,
                // Not kept (forgotten under the memory cap, resumed from a checkpoint of larger
                // sets only, or solved by its class alone): solved again, for its own guess.
                _ => {
                    self.solve_with_guess(&set, depth, history)?.expect("BUG: a feasible subtree without a strategy").1
                }
            }
        };
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let win = self.space.scheme().win();
        let parts = self.space.split(guess, &set);
        let mut history = history.to_vec();
        history.push(guess);
        let history = &history[..];
        let child = |(fb, part): (FeedbackIndex, Vec<CodeIndex>)| -> Result<(FeedbackIndex, Subtree), Stopped> {
            if fb == win {
                Ok((fb, Subtree::Leaf(guess)))
            } else {
                Ok((fb, self.build(part, child_depth, history)?))
            }
        };
        let children = if m >= PARALLEL_CHILDREN {
            parts.into_par_iter().map(child).collect::<Result<Vec<_>, _>>()?
        } else {
            parts.into_iter().map(child).collect::<Result<_, _>>()?
        };
        Ok(Subtree::Guess { guess, candidates: m as u32, children })
    }
}
