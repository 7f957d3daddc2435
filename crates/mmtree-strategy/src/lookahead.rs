//! Two-step look-ahead of a valuation (the thesis's suggested "multi-step algorithms").
//!
//! The rules are documented on [`two_step_partition`].

use std::cmp::Ordering;
use std::sync::{Arc, Mutex};

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
    let parts = Parts::of(space, one_step, candidates);
    let seed = Evaluated {
        position: usize::MAX,
        cells: Valued::new(valuation, parts.iter().flat_map(|p| look.best_second(p, &after)).collect()),
        parts: Valued::new(valuation, parts.iter().map(|p| p.len() as u32).collect()),
    };
    let bound = Mutex::new(Arc::new(seed));
    let lexicographic = |a: &Evaluated, b: &Evaluated| {
        a.cells.compare(valuation, &b.cells).then_with(|| a.parts.compare(valuation, &b.parts))
    };
    let evaluate = |(position, &g): (usize, &CodeIndex)| -> Option<Evaluated> {
        let limit = Arc::clone(&bound.lock().expect("bound lock"));
        let (cells, parts) = look.bounded_cells(g, candidates, symmetry, &limit)?;
        let found = Evaluated { position, cells, parts };
        let mut b = bound.lock().expect("bound lock");
        if lexicographic(&found, &b) == Ordering::Less {
            *b = Arc::new(found.clone());
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

/// A multiset of part (or cell) sizes, sorted, with its valuation key: compared by key, and
/// exactly only when the keys are within float noise.
#[derive(Clone)]
struct Valued {
    sizes: Vec<u32>,
    key: f64,
}

impl Valued {
    fn new(valuation: Valuation, mut sizes: Vec<u32>) -> Valued {
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let key = valuation.key(&sizes);
        Valued { sizes, key }
    }

    /// [`Valuation::compare`] of the two multisets (`Less`: `self` is better).
    fn compare(&self, valuation: Valuation, other: &Valued) -> Ordering {
        compare_keys(valuation, self.key, other.key, || &self.sizes, &other.sizes)
    }
}

/// Compares two multisets by their keys, and exactly (with `sizes`, built only then) when the
/// keys are within float noise.
fn compare_keys<'a>(
    valuation: Valuation,
    ka: f64,
    kb: f64,
    sizes: impl FnOnce() -> &'a [u32],
    other: &[u32],
) -> Ordering {
    if !valuation.needs_exact(ka, kb) {
        return ka.partial_cmp(&kb).unwrap_or(Ordering::Equal);
    }
    let sizes = sizes();
    if sizes == other {
        Ordering::Equal
    } else {
        valuation.compare(sizes, other)
    }
}

/// The parts of a candidate set under one guess, in feedback order, in one buffer.
struct Parts {
    members: Vec<CodeIndex>,
    ends: Vec<usize>,
}

impl Parts {
    fn of(space: &CodeSpace, guess: CodeIndex, candidates: &[CodeIndex]) -> Parts {
        let mut feedbacks = Vec::with_capacity(candidates.len());
        space.for_each_feedback(guess, candidates, |f| feedbacks.push(f as u8));
        let mut starts = [0usize; mmtree_core::MAX_FEEDBACKS + 1];
        for &f in &feedbacks {
            starts[f as usize + 1] += 1;
        }
        let mut ends = Vec::new();
        for f in 0..mmtree_core::MAX_FEEDBACKS {
            if starts[f + 1] > 0 {
                ends.push(starts[f] + starts[f + 1]);
            }
            starts[f + 1] += starts[f];
        }
        let mut members = vec![CodeIndex::from_index(0); candidates.len()];
        for (&c, &f) in candidates.iter().zip(&feedbacks) {
            members[starts[f as usize]] = c;
            starts[f as usize] += 1;
        }
        Parts { members, ends }
    }

    fn iter(&self) -> impl Iterator<Item = &[CodeIndex]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.members[a..b])
    }
}

/// A first guess that survived the bounds: its position in priority order, its two-step cells
/// and its one-step part sizes (the tie-break).
#[derive(Clone)]
struct Evaluated {
    position: usize,
    cells: Valued,
    parts: Valued,
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
    ) -> Option<(Valued, Valued)> {
        let space = self.solver.space();
        let valuation = self.second.valuation;
        let f = space.scheme().len();
        let mut counts = [0u32; mmtree_core::MAX_FEEDBACKS];
        space.count_parts(g, candidates, &mut counts);
        let sizes = Valued::new(valuation, counts[..f].iter().copied().filter(|&s| s > 0).collect());
        if sizes.sizes.len() == 1 && candidates.len() > 1 {
            // A guess that does not split is never played: its two-step value is the best
            // one-step value of `K`, which the one-step choice already matches or beats (cells
            // refine parts), and playing it would not make progress.
            return None;
        }
        let one_step_worse = sizes.compare(valuation, &limit.parts) == Ordering::Greater;
        // Parts are evaluated largest first. The ideal split of each part, and the key of
        // those of the parts from `i` on.
        let ideal = |s: u32| ideal_partition(s as usize, f);
        let mut rest_keys = vec![0.0; sizes.sizes.len() + 1];
        for (i, &s) in sizes.sizes.iter().enumerate().rev() {
            rest_keys[i] = valuation.combine(valuation.key(&ideal(s)[..f]), rest_keys[i + 1]);
        }
        // Lower bound before part `i`: the cells so far plus the ideal split of every part
        // still to do (before the first part this costs nothing beyond the sizes).
        let hopeless = |i: usize, cells: &[u32], cells_key: f64| {
            let key = valuation.combine(cells_key, rest_keys[i]);
            let ordering = if valuation.needs_exact(key, limit.cells.key) {
                let mut rest: Vec<u32> = cells.to_vec();
                rest.extend(sizes.sizes[i..].iter().flat_map(|&s| ideal(s)).filter(|&c| c > 0));
                rest.sort_unstable_by(|a, b| b.cmp(a));
                valuation.compare(&rest, &limit.cells.sizes)
            } else {
                key.partial_cmp(&limit.cells.key).unwrap_or(Ordering::Equal)
            };
            ordering == Ordering::Greater || (ordering == Ordering::Equal && one_step_worse)
        };
        if hopeless(0, &[], 0.0) {
            return None;
        }
        let split = Parts::of(space, g, candidates);
        let mut parts: Vec<&[CodeIndex]> = split.iter().collect();
        parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let after = symmetry.after(&space.code(g));
        let mut cells: Vec<u32> = Vec::new();
        let mut cells_key = 0.0;
        for (i, part) in parts.iter().enumerate() {
            if i > 0 && hopeless(i, &cells, cells_key) {
                return None;
            }
            let second = self.best_second(part, &after);
            cells_key = valuation.combine(cells_key, valuation.key(&second));
            cells.extend(second);
        }
        Some((Valued::new(valuation, cells), sizes))
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
        let mut counts = [0u32; mmtree_core::MAX_FEEDBACKS];
        space.count_parts(h, part, &mut counts);
        counts[..space.scheme().len()].iter().copied().filter(|&s| s > 0).collect()
    }
}
