//! Two-step look-ahead of a valuation (the thesis's suggested "multi-step algorithms").
//!
//! The rules are documented on [`two_step_partition`].

use std::cmp::Ordering;
use std::sync::Mutex;

use rayon::prelude::*;

use mmtree_core::{CodeIndex, CodeSpace, Symmetry};

use crate::builder::{ideal_partition, Solver};
use crate::rule::{GuessRule, Method, Pool, Ties};
use crate::valuation::Valuation;

/// States whose first-step scan is smaller than this many scorings are evaluated on one thread.
const SEQUENTIAL_WORK: usize = 1 << 14;

/// The two-step partition of `guess` on `candidates` (sorted): the cell sizes, part by part
/// in feedback order, each part's cells in feedback order of its best second guess.
///
/// # Two-step look-ahead
///
/// A guess `g` splits the candidates `K` into parts `P`. In each part, the *best second
/// guess* (by the one-step valuation, from the rule's pool: all codes, or the part's own
/// members in candidates-only mode; the first best with the part's members first and
/// smallest codes first) splits `P` again into *cells*. The **two-step partition** of `g` is
/// the multiset of all these cells, over all parts (a part of one code, including `g`'s own
/// win part, is one cell of size 1, exactly as a one-step partition counts the win part). The
/// two-step value of `g` is the valuation of that multiset:
///
/// * minimax: the largest cell = the largest part left after the best second guess in each
///   part;
/// * expected size: `sum cell^2 / |K|` = the size-weighted mean of the parts' best second-step
///   expected sizes;
/// * entropy: `log2|K| - sum cell log2 cell / |K|` = the entropy of `g` plus the size-weighted
///   mean of the parts' best second-step entropies (the joint entropy of two answers);
/// * most parts: the number of cells.
///
/// Each of these is a sum (or maximum) over parts, so choosing each part's second guess
/// independently by the one-step valuation maximises the whole, and two-step values compare
/// exactly with [`Valuation::compare`] applied to the cell multisets (integers for minimax,
/// expected size and most parts; `prod cell^cell` for entropy). Any best second guess gives
/// the same value.
///
/// The first guess is then chosen exactly like the one-step rule: the pool in priority order
/// (candidates first when preferred, smallest or largest first), a later guess replacing the
/// best only when strictly better.
///
/// # Speed of the look-ahead rule
///
/// Evaluating one first guess costs a one-step choice on each of its parts, so a state costs
/// `|pool|` such choices. Four exact savings, none of which can change the chosen guess:
/// (1) each part's best second guess is the one-step rule's own choice (the partition scanner
/// with its cut-offs, stopping at an ideal split, one guess per class of the history's group
/// extended by the first guess); (2) branch and bound: parts are evaluated largest first and a
/// first guess is abandoned as soon as its cells so far plus the ideal split of its remaining
/// parts are *strictly* worse than a guess already evaluated, or equal to it while its
/// one-step partition is strictly worse (all comparisons exact); (3) only one first guess per
/// class of the history's group is evaluated (colour and position permutations that fix the
/// guesses played preserve every value, and the class's extreme member comes first in tie
/// order); (4) the one-step choice is evaluated first, as a bound for the others.
///
/// ```
/// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit, CodeIndex};
/// use mmtree_strategy::{two_step_partition, Pool, Valuation};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(2, 3))?, MemoryLimit(1 << 30))?;
/// let all = space.all_indices();
/// let cells = two_step_partition(&space, Valuation::Minimax, Pool::All, CodeIndex::from_index(1), &all);
/// assert_eq!(cells.iter().sum::<u32>(), 9); // the cells partition the 9 codes
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn two_step_partition(
    space: &CodeSpace,
    valuation: Valuation,
    pool: Pool,
    guess: CodeIndex,
    candidates: &[CodeIndex],
) -> Vec<u32> {
    let solver = Solver::new(space, GuessRule { pool, ..GuessRule::new(valuation) });
    let look = LookAhead::new(&solver);
    let after = Symmetry::trivial(space.game());
    space.split(guess, candidates).iter().flat_map(|(_, part)| look.best_second(part, &after)).collect()
}

/// The guess a [`Method::Lookahead2`] rule plays on `candidates`, reached with `symmetry`.
pub(crate) fn choose(solver: &Solver, candidates: &[CodeIndex], symmetry: &Symmetry) -> CodeIndex {
    if candidates.len() == 1 {
        return candidates[0];
    }
    let space = solver.space();
    let rule = solver.rule();
    let look = LookAhead::new(solver);
    let order = first_step_order(solver, candidates, symmetry);
    let valuation = rule.valuation;
    // A good first bound: the one-step choice (it is evaluated again in order; bounds only
    // prune guesses strictly worse than an evaluated one).
    let one_step = solver.one_step(&GuessRule { method: Method::OneStep, ..*rule }, candidates, symmetry);
    let after = symmetry.after(&space.code(one_step));
    let seed = Evaluated {
        position: usize::MAX,
        cells: space.split(one_step, candidates).iter().flat_map(|(_, p)| look.best_second(p, &after)).collect(),
        parts: space.split(one_step, candidates).iter().map(|(_, p)| p.len() as u32).collect(),
    };
    let bound = Mutex::new(seed);
    let lexicographic = |a: &Evaluated, b: &Evaluated| {
        valuation.compare(&a.cells, &b.cells).then_with(|| valuation.compare(&a.parts, &b.parts))
    };
    let evaluate = |(position, &g): (usize, &CodeIndex)| -> Option<Evaluated> {
        let limit = bound.lock().expect("bound lock").clone();
        let (cells, parts) = look.bounded_cells(g, candidates, symmetry, &limit)?;
        let found = Evaluated { position, cells, parts };
        let mut b = bound.lock().expect("bound lock");
        if lexicographic(&found, &b) == Ordering::Less {
            *b = found.clone();
        }
        Some(found)
    };
    let pick = |a: Evaluated, b: Evaluated| match lexicographic(&a, &b).then(a.position.cmp(&b.position)) {
        Ordering::Greater => b,
        _ => a,
    };
    let best = if order.len() * candidates.len() < SEQUENTIAL_WORK {
        order.iter().enumerate().filter_map(evaluate).reduce(pick)
    } else {
        order.par_iter().enumerate().with_max_len(1).filter_map(evaluate).reduce_with(pick)
    };
    order[best.expect("BUG: the one-step choice is never pruned").position]
}

/// A first guess that survived the bounds: its position in priority order, its two-step cells
/// and its one-step part sizes (the tie-break).
#[derive(Clone)]
struct Evaluated {
    position: usize,
    cells: Vec<u32>,
    parts: Vec<u32>,
}

/// The first guesses to evaluate, in priority order (the one-step scan's order), one per
/// class of the history's group and of the colours absent from the candidates.
fn first_step_order(solver: &Solver, candidates: &[CodeIndex], symmetry: &Symmetry) -> Vec<CodeIndex> {
    let rule = solver.rule();
    let filter = solver.filter(candidates, symmetry, rule.ties == Ties::Largest);
    priority_order(solver.space(), rule, candidates).into_iter().filter(|&g| filter.keeps(solver, g)).collect()
}

/// The pool of `rule` on `candidates` in the order its tie rule ranks equally valued guesses.
pub(crate) fn priority_order(space: &CodeSpace, rule: &GuessRule, candidates: &[CodeIndex]) -> Vec<CodeIndex> {
    let mut order: Vec<CodeIndex> = match rule.pool {
        Pool::Candidates => candidates.to_vec(),
        Pool::All if !rule.prefer_candidates => space.all_indices(),
        Pool::All => {
            let mut is_candidate = vec![false; space.len()];
            for c in candidates {
                is_candidate[c.get()] = true;
            }
            let others: Vec<CodeIndex> =
                (0..space.len() as u32).filter(|&i| !is_candidate[i as usize]).map(CodeIndex::from_index).collect();
            let mut order = candidates.to_vec();
            if rule.ties == Ties::Largest {
                order.reverse();
                order.extend(others.into_iter().rev());
            } else {
                order.extend(others);
            }
            return order;
        }
    };
    if rule.ties == Ties::Largest {
        order.reverse();
    }
    order
}

/// The second step of a solver's look-ahead: each part's best second guess by the one-step
/// rule (smallest first, candidates first, from the rule's pool), through the solver's scans
/// and pools.
struct LookAhead<'a, 's> {
    solver: &'a Solver<'s>,
    second: GuessRule,
}

impl<'a, 's> LookAhead<'a, 's> {
    fn new(solver: &'a Solver<'s>) -> LookAhead<'a, 's> {
        let rule = solver.rule();
        let second = GuessRule {
            method: Method::OneStep,
            ties: Ties::Smallest,
            prefer_candidates: true,
            first_guess: None,
            ..*rule
        };
        LookAhead { solver, second }
    }

    /// The two-step cells and one-step part sizes of `g`, or `None` as soon as they are sure
    /// to be lexicographically worse than `limit` (an evaluated guess): two-step value strictly
    /// worse, or equal at best with a strictly worse one-step value.
    fn bounded_cells(
        &self,
        g: CodeIndex,
        candidates: &[CodeIndex],
        symmetry: &Symmetry,
        limit: &Evaluated,
    ) -> Option<(Vec<u32>, Vec<u32>)> {
        let space = self.solver.space();
        let valuation = self.second.valuation;
        let f = space.scheme().len();
        let mut parts: Vec<Vec<CodeIndex>> = space.split(g, candidates).into_iter().map(|(_, p)| p).collect();
        if parts.len() == 1 && parts[0].len() > 1 {
            // A guess that does not split is never played: its two-step value is the best
            // one-step value of `K`, which the one-step choice already matches or beats (cells
            // refine parts), and playing it would not make progress.
            return None;
        }
        parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let sizes: Vec<u32> = parts.iter().map(|p| p.len() as u32).collect();
        let one_step_worse = valuation.compare(&sizes, &limit.parts) == Ordering::Greater;
        let after = symmetry.after(&space.code(g));
        let mut cells: Vec<u32> = Vec::new();
        let mut rest: Vec<u32> = Vec::new();
        for i in 0..parts.len() {
            // Lower bound: the cells so far plus the ideal split of every part still to do
            // (before the first part this costs nothing beyond the split).
            rest.clear();
            rest.extend_from_slice(&cells);
            for p in &parts[i..] {
                let ideal = ideal_partition(p.len(), f);
                rest.extend(ideal[..f].iter().copied().filter(|&s| s > 0));
            }
            match valuation.compare(&rest, &limit.cells) {
                Ordering::Greater => return None,
                Ordering::Equal if one_step_worse => return None,
                _ => {}
            }
            cells.extend(self.best_second(&parts[i], &after));
        }
        Some((cells, sizes))
    }

    /// The partition table (non-empty parts, in feedback order) of `part` by its best second
    /// guess; `after` is the group of the history extended by the first guess.
    fn best_second(&self, part: &[CodeIndex], after: &Symmetry) -> Vec<u32> {
        match part.len() {
            0 => return Vec::new(),
            1 => return vec![1],
            2 => return vec![1, 1],
            _ => {}
        }
        let space = self.solver.space();
        let h = self.solver.one_step(&self.second, part, after);
        space.split(h, part).iter().map(|(_, cell)| cell.len() as u32).collect()
    }
}
