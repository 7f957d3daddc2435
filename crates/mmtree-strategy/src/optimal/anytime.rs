//! Anytime results: when a node or time limit stops the search, a proven bracket on the
//! optimum and the best strategy tree that can be assembled from what the search finished.
//!
//! **Lower bound.** Whatever strategy is played, its first guess `g` is followed on each of
//! `g`'s non-winning parts by a strategy for that part, so the optimum of the whole set is
//! `min over g of |K| + sum over g's parts of the part's optimum`. Any lower bound of each
//! part's optimum may stand in for it: the part's exact cost when the table holds it (or 1 and
//! 3 for 1 and 2 codes), else the largest of its perfect-tree bound, the lower bound the table
//! holds for it (each proven by a scan or a failed search), and the least bound of its own
//! one-step scan (`|P|` plus each part's perfect-tree bound, minimised over every guess). Guesses
//! of one symmetry class split the set into the same part sizes with isomorphic parts, so one
//! guess per class is enough. Guesses are refined in increasing order of their cheap bound
//! (table and perfect trees only) until the next cheap bound reaches the least refined one, so
//! every guess counts with its refined bound or with a cheap one at least as high. (Refining
//! only the first 64 left the bound at the 65th cheap bound: on the 1,344 codes [5,8] leaves
//! after 11223 answered (2,1), 5,115 against 5,224 for all 312 refined, 6 s more.) Refining
//! stops once one guess's refined bound is no higher than a bound proven otherwise, and each
//! part's refined bound is stored in the table, so that a checkpoint carries it into the next
//! run's refining and search. Past the time limit by a tenth of it (at most 2 min), refining
//! gives up: the guesses not refined count with their cheap bounds, the least of which is the
//! next one's.
//!
//! **Rising budgets.** Under a node or time limit the search does not start with an open
//! budget: it asks for a strategy cheaper than `b` for budgets rising from a proven bound
//! `lower` towards the total `upper` of a known strategy (steps of 1, 2, 4, ... while the
//! limits leave room for the next budget (see [`Rise`]), at most half the gap left, and
//! never above `upper + 1`). Each budget it fails at proves the optimum
//! is at least `b`, so a stopped search keeps the last such `b`; the first budget it meets
//! returns the optimum itself. Small budgets cut most guesses at once, and what a failed budget
//! proves of the subsets stays in the table for the next. (On the 1,578 codes [7,4] leaves
//! after 1112223 answered (2,3), 120 s on one thread prove 5,979, where four passes of open
//! searches and the refined bound had proven 5,848; 760 codes after 1111123 and (2,3) are
//! solved in 50 s, against 46 s with an open budget.)
//!
//! **Upper bound.** The total of a real tree: on each set, the optimal guess when the set is
//! solved (the table, closed forms), else a one-step rule's guess (near the root the best of
//! entropy, expected size and most parts, each measured by the total of the tree it leads to;
//! deeper, entropy).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use mmtree_core::{CodeIndex, StrategyTree, Subtree};

use super::bounds::Small;
use super::guesses::Scanned;
use super::search::Prep;
use super::table::{Cost, Entry};
use super::{Objective, OptimalError, OptimalSearch, Stopped, INFINITE, UNLIMITED};
use crate::{GuessRule, Solver, Valuation};

/// How far the next budget of a rising search goes past the last one it failed at.
///
/// Steps double while the limits leave room for the next budget, predicted from the work
/// the last one took times how much it grew over the one before (each budget costs more than
/// the last, steeply so near the optimum); a budget the search is stopped in proves nothing,
/// so where doubling would not fit, the step stays as it is, or halves if even that would not
/// fit. On the 4,680 codes [5,8] leaves after 12345 answered (1,2), one thread, 600 s: the
/// step of 128 took 134 s (20 s for the 64 before it); doubling again was stopped 415 s later
/// and proved nothing (20,975), where the step kept at 128 (a predicted 880 s for 256) proved
/// 21,103.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rise {
    /// The next step.
    step: u64,
    /// The work of the last budget, in nodes and microseconds.
    last: Option<[u64; 2]>,
}

impl Default for Rise {
    fn default() -> Rise {
        Rise { step: 1, last: None }
    }
}

impl Rise {
    /// Takes the work a failed budget took and what the limits leave (per unit, `None`
    /// where no limit counts it), and sets the next step.
    fn after(&mut self, work: [u64; 2], left: [Option<u64>; 2]) {
        let fits = |factor: f64| (0..2).all(|u| left[u].is_none_or(|left| work[u] as f64 * factor <= left as f64));
        // Growth per budget, in the limited unit that grew most (at least 1).
        let growth = self.last.map_or(2.0, |last| {
            (0..2)
                .filter(|&u| left[u].is_some() && last[u] > 0)
                .map(|u| work[u] as f64 / last[u] as f64)
                .fold(1.0, f64::max)
        });
        self.step = if fits(growth) {
            self.step * 2
        } else if fits(1.0) {
            self.step
        } else {
            (self.step / 2).max(1)
        };
        self.last = Some(work);
    }
}

/// The one-step rules that complete unsolved sets, the first used alone deeper down.
const RULES: [Valuation; 3] = [Valuation::Entropy, Valuation::ExpectedSize, Valuation::MostParts];
/// Sets reached after fewer guesses than this pick the best of all `RULES`.
const RULE_CHOICE_DEPTH: usize = 2;
/// Sets with at least this many codes build their children in parallel.
const PARALLEL_CHILDREN: usize = 64;

/// What an exact search proves, whether or not it finished: the best strategy tree found and
/// proven bounds on the optimal total.
///
/// ```
/// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
/// let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
/// space.build_table(1 << 20);
/// let mut config = OptimalConfig::new(Objective::Average);
/// config.node_limit = Some(3);
/// let bracket = OptimalSearch::new(&space, config).run_anytime().unwrap();
/// assert!(bracket.lower_bound <= 206 && 206 <= bracket.upper_bound); // the optimum is 206
/// assert_eq!(bracket.upper_bound, bracket.tree.stats().total);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Bracket {
    /// The best strategy found: optimal when `exact`.
    pub tree: StrategyTree,
    /// A proven lower bound on the optimal total.
    pub lower_bound: u64,
    /// The total of `tree`.
    pub upper_bound: u64,
    /// Whether `tree` is proven optimal (the bounds are equal).
    pub exact: bool,
}

/// What an exact search proves about one part of a game ([`OptimalSearch::run_part`]): the
/// best subtree found and proven bounds on the part's optimal total (counted from the next
/// guess on).
#[derive(Clone, Debug)]
pub struct PartBracket {
    /// The best subtree found: optimal when `exact`.
    pub subtree: Subtree,
    /// A proven lower bound on the part's optimum.
    pub lower_bound: u64,
    /// The total of `subtree`.
    pub upper_bound: u64,
    /// Whether `subtree` is proven optimal.
    pub exact: bool,
}

impl Bracket {
    /// The bracket of a proven optimal tree: both bounds are its total.
    pub fn exact(tree: StrategyTree) -> Bracket {
        let total = tree.stats().total;
        Bracket { tree, lower_bound: total, upper_bound: total, exact: true }
    }
}

impl OptimalSearch<'_> {
    /// Runs the search; if a node or time limit (or the stop flag) stops it, returns the best
    /// tree found and a proven lower bound instead of [`OptimalError::Stopped`].
    ///
    /// The bracket of a stopped search is given for the average objective without a depth
    /// limit; a stopped search under `Objective::Worst` or `max_depth` is still an error.
    pub fn run_anytime(&self) -> Result<Bracket, OptimalError> {
        if self.rises() {
            // The whole game is the part after no guess.
            let part = self.run_part(&self.space.all_indices(), &[])?;
            let tree = StrategyTree::from_subtree(*self.space.game(), part.subtree);
            return Ok(Bracket {
                tree,
                lower_bound: part.lower_bound,
                upper_bound: part.upper_bound,
                exact: part.exact,
            });
        }
        let stopped = match self.run() {
            Ok(tree) => return Ok(Bracket::exact(tree)),
            Err(e @ OptimalError::Stopped { .. }) => e,
            Err(e) => return Err(e),
        };
        if self.config.objective != Objective::Average || self.config.max_depth.is_some() {
            return Err(stopped);
        }
        let all = self.space.all_indices();
        let lower_bound = self.proven_lower_bound(&all, &[], 0);
        let (upper_bound, root) = self.best_known(all, &[], &self.rule_solvers());
        let tree = StrategyTree::from_subtree(*self.space.game(), root);
        debug_assert_eq!(tree.stats().total, upper_bound);
        assert!(lower_bound <= upper_bound, "BUG: lower bound {lower_bound} above a strategy's {upper_bound}");
        Ok(Bracket { tree, lower_bound, upper_bound, exact: lower_bound == upper_bound })
    }

    /// The optimum of one part of the game: `set`, the candidates left after the guesses
    /// `history` (guesses from the whole pool, under the symmetry that fixes `history`),
    /// within the depth limit of the configuration. Costs count from the next guess on. If a
    /// node or time limit stops it, the best subtree found and a proven lower bound (see the
    /// module documentation), as for [`Self::run_anytime`]; a stopped search under a depth
    /// limit is still [`OptimalError::Stopped`]. A set that no feedbacks to `history` leave
    /// is refused with [`OptimalError::NotCandidates`] when the guesses searched on it could
    /// miss the best one.
    ///
    /// For a first guess `g`, the optimum of the game with `g` played first is the number of
    /// codes plus the sum of this over `g`'s non-winning parts with `history = [g]`.
    ///
    /// ```
    /// use mmtree_core::{first_guess_classes, CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
    /// let game = Game::new(GameSpec::mastermind(2, 3))?;
    /// let mut space = CodeSpace::new(game, MemoryLimit(1 << 30))?;
    /// space.build_table(1 << 20);
    /// let search = OptimalSearch::new(&space, OptimalConfig::new(Objective::Average));
    /// let (all, win) = (space.all_indices(), space.scheme().win());
    /// let after = |first| -> u64 {
    ///     let parts = space.split(first, &all).into_iter().filter(|(f, _)| *f != win);
    ///     9 + parts.map(|(_, part)| search.run_part(&part, &[first]).unwrap().upper_bound).sum::<u64>()
    /// };
    /// let classes = first_guess_classes(&game); // 11 and 12
    /// let best = classes.iter().map(|c| after(space.index(c).unwrap())).min();
    /// assert_eq!(best, Some(21)); // Chen & Lin's optimum of 2 pegs and 3 colours
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn run_part(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Result<PartBracket, OptimalError> {
        self.run_part_between(set, history, 0, None)
    }

    /// [`Self::run_part`] given a proven lower bound `known` of the part's optimum (the plan's,
    /// or an earlier run's) and the total `known_upper` of a strategy for it, if any: under a
    /// node or time limit the search's budgets rise from `known` and stop at the better of
    /// `known_upper` and the heuristic tree's total, plus one.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
    /// let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
    /// space.build_table(1 << 20);
    /// let mut config = OptimalConfig::new(Objective::Average);
    /// config.node_limit = Some(2);
    /// let search = OptimalSearch::new(&space, config);
    /// // 200 is proven elsewhere (the optimum of [3,4] is 206): the bracket keeps it.
    /// let bracket = search.run_part_between(&space.all_indices(), &[], 200, None).unwrap();
    /// assert!(200 <= bracket.lower_bound && bracket.lower_bound <= 206 && 206 <= bracket.upper_bound);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn run_part_between(
        &self,
        set: &[CodeIndex],
        history: &[CodeIndex],
        known: u64,
        known_upper: Option<u64>,
    ) -> Result<PartBracket, OptimalError> {
        self.check_candidates(set, history)?;
        self.deadline.get_or_init(|| self.config.time_limit.map(|limit| Instant::now() + limit));
        let depth = self.config.max_depth.unwrap_or(UNLIMITED);
        let no_strategy = OptimalError::NoStrategy { max_depth: depth };
        let mut heuristic = None;
        let (solved, rose_to) = if self.rises() {
            let (upper, subtree) = self.best_known(set.to_vec(), history, &self.rule_solvers());
            let cap = known_upper.map_or(upper, |u| u.min(upper));
            heuristic = Some((upper, subtree));
            self.solve_rising(set, history, known, cap)
        } else {
            (self.solve(set, INFINITE, depth, history), 0)
        };
        let solved = solved.and_then(|cost| match cost {
            Some(cost) => Ok(Some((cost, self.build(set.to_vec(), depth, history)?))),
            None => Ok(None),
        });
        match solved {
            Ok(Some((cost, subtree))) => {
                let cost = u64::from(cost);
                Ok(PartBracket { subtree, lower_bound: cost, upper_bound: cost, exact: true })
            }
            Ok(None) => Err(no_strategy),
            Err(_) if depth != UNLIMITED => Err(self.stopped_error()),
            Err(_) => {
                let lower_bound = self.proven_lower_bound(set, history, rose_to.max(known));
                let now = self.best_known(set.to_vec(), history, &self.rule_solvers());
                let (upper_bound, subtree) = heuristic.filter(|(first, _)| *first < now.0).unwrap_or(now);
                assert!(lower_bound <= upper_bound, "BUG: lower bound {lower_bound} above a strategy's {upper_bound}");
                Ok(PartBracket { subtree, lower_bound, upper_bound, exact: lower_bound == upper_bound })
            }
        }
    }

    /// A lower bound on the optimum of `set` after the guesses `history`, without searching:
    /// the largest of its perfect-tree bound, what its own candidates prove (small sets), and
    /// the least bound of its one-step scan (`|K|` plus the perfect-tree bounds of a guess's
    /// parts, minimised over one guess per symmetry class of the pool).
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
    /// let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
    /// space.build_table(1 << 20);
    /// let search = OptimalSearch::new(&space, OptimalConfig::new(Objective::Average));
    /// let all = space.all_indices();
    /// assert!(search.part_lower_bound(&all, &[]).unwrap() <= 206); // the optimum of [3,4]
    /// // Not the candidates of any history: 111 and 222 would be alike.
    /// assert!(search.part_lower_bound(&all[..2], &[]).is_err());
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn part_lower_bound(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Result<u64, OptimalError> {
        self.check_candidates(set, history)?;
        Ok(self.scanned_lower(set, history))
    }

    /// [`OptimalError::NotCandidates`] unless `set` may be searched after `history`.
    fn check_candidates(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Result<(), OptimalError> {
        if self.pool_fits(set, history) {
            Ok(())
        } else {
            Err(OptimalError::NotCandidates)
        }
    }

    /// The guesses that may be optimal on `set` after the guesses `history`, given a cost
    /// `cap` some strategy for `set` reaches: one guess per symmetry class (and per partition:
    /// guesses splitting `set` into the same parts are one move), each with a proven lower bound
    /// on the cost of playing it first (`|K|` plus [`Self::part_lower_bound`] of each part),
    /// keeping those whose bound is at most `cap`; ordered by bound, then candidates first,
    /// then code order. Any guess left out costs more than `cap`, so it is never optimal.
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
    /// let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 4))?, MemoryLimit(1 << 30))?;
    /// space.build_table(1 << 20);
    /// let search = OptimalSearch::new(&space, OptimalConfig::new(Objective::Average));
    /// let all = space.all_indices();
    /// // With the optimum 206 as the cap, an optimal first guess (class 112) is kept.
    /// let kept = search.promising_guesses(&all, &[], 206);
    /// assert!(kept.iter().any(|&(_, g)| g == space.all_indices()[1]));
    /// assert!(kept.iter().all(|&(bound, _)| bound <= 206));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn promising_guesses(&self, set: &[CodeIndex], history: &[CodeIndex], cap: u64) -> Vec<(u64, CodeIndex)> {
        let win = self.space.scheme().win();
        let pool = self.pool(set, history);
        let guesses = match pool.as_ref() {
            Some(list) => list.clone(),
            None => self.space.all_indices(),
        };
        let parts_of = |g: CodeIndex| -> Option<Vec<Vec<CodeIndex>>> {
            let parts = self.space.split(g, set);
            (parts.len() > 1 || parts[0].0 == win)
                .then(|| parts.into_iter().filter(|(f, _)| *f != win).map(|(_, p)| p).collect())
        };
        let cheap: Vec<CodeIndex> = guesses
            .par_iter()
            .filter_map(|&g| {
                let parts = parts_of(g)?;
                (set.len() as u64 + parts.iter().map(|p| self.known_lower(p)).sum::<u64>() <= cap).then_some(g)
            })
            .collect();
        let mut kept: Vec<(u64, bool, CodeIndex)> = cheap
            .par_iter()
            .filter_map(|&g| {
                let after: Vec<CodeIndex> = history.iter().copied().chain([g]).collect();
                let bound = set.len() as u64 + parts_of(g)?.iter().map(|p| self.scanned_lower(p, &after)).sum::<u64>();
                (bound <= cap).then_some((bound, set.binary_search(&g).is_err(), g))
            })
            .collect();
        kept.sort_unstable();
        let mut seen = std::collections::HashSet::new();
        kept.into_iter()
            .filter(|&(_, _, g)| {
                let mut parts: Vec<(bool, Vec<CodeIndex>)> =
                    self.space.split(g, set).into_iter().map(|(f, p)| (f == win, p)).collect();
                parts.sort_unstable();
                seen.insert(parts)
            })
            .map(|(bound, _, g)| (bound, g))
            .collect()
    }

    /// The least number of guesses within which some strategy settles every code of `set`
    /// after the guesses `history` (the depth-first feasibility search of depth limits).
    ///
    /// ```
    /// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
    /// let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
    /// space.build_table(1 << 22);
    /// let search = OptimalSearch::new(&space, OptimalConfig::new(Objective::Worst));
    /// assert_eq!(search.least_depth(&space.all_indices(), &[]), Ok(5)); // Knuth's 5 guesses
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn least_depth(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Result<u8, OptimalError> {
        self.deadline.get_or_init(|| self.config.time_limit.map(|limit| Instant::now() + limit));
        let mut d = 1u8;
        while self.bounds.capacity(d) < set.len() as u64 {
            d += 1;
        }
        loop {
            if self.feasible(set, d, history).map_err(|_| self.stopped_error())? {
                return Ok(d);
            }
            if d == UNLIMITED - 1 {
                return Err(OptimalError::NoStrategy { max_depth: d });
            }
            d += 1;
        }
    }

    /// Whether searches rise through budgets: only a search that may stop has a use for the
    /// bounds on the way (an open budget solves a whole game a little sooner).
    fn rises(&self) -> bool {
        self.config.objective == Objective::Average
            && self.config.max_depth.is_none()
            && (self.config.node_limit.is_some() || self.config.time_limit.is_some())
    }

    /// The optimum of `set` (no depth limit) by budgets rising from a proven lower bound and
    /// never above `upper + 1`, `upper` the total of some strategy (see the module
    /// documentation), with the highest lower bound the failed budgets proved.
    fn solve_rising(
        &self,
        set: &[CodeIndex],
        history: &[CodeIndex],
        known: u64,
        mut upper: u64,
    ) -> (Result<Option<u32>, Stopped>, u64) {
        let start = match self.prepare(set, INFINITE, UNLIMITED, history, None, true) {
            Ok(Prep::Expand(x)) => x.node_bound,
            Ok(Prep::Done(cost)) => return (Ok(cost), 0),
            Ok(Prep::Solved(cost, _)) => return (Ok(Some(cost)), 0),
            Err(stopped) => return (Err(stopped), 0),
        };
        let mut lower = u64::from(start).max(known);
        let mut rise = Rise::default();
        loop {
            if lower > upper {
                // `upper` was no strategy's total (a caller's figure): rise without it.
                upper = u64::from(INFINITE);
            }
            // At most half the gap left: the budgets near the optimum cost most, and a stop
            // during one keeps only the budget before it.
            let next = lower + rise.step.min(((upper + 1 - lower) / 2).max(1));
            let budget = u32::try_from(next).unwrap_or(INFINITE);
            let (nodes, started) = (self.nodes.load(Ordering::Relaxed), Instant::now());
            match self.solve(set, budget, UNLIMITED, history) {
                Ok(None) if budget < INFINITE => {
                    lower = u64::from(budget);
                    let work = [self.nodes.load(Ordering::Relaxed) - nodes, started.elapsed().as_micros() as u64];
                    rise.after(work, self.work_left());
                }
                other => return (other, lower),
            }
        }
    }

    /// What the limits leave, in nodes and microseconds (`None`: no such limit).
    fn work_left(&self) -> [Option<u64>; 2] {
        let nodes = self.config.node_limit.map(|limit| limit.saturating_sub(self.nodes.load(Ordering::Relaxed)));
        let micros = self
            .deadline
            .get()
            .copied()
            .flatten()
            .map(|deadline| deadline.saturating_duration_since(Instant::now()).as_micros() as u64);
        [nodes, micros]
    }

    /// The one-step solvers that complete unsolved sets.
    fn rule_solvers(&self) -> Vec<Solver<'_>> {
        RULES
            .iter()
            .map(|&valuation| {
                Solver::new(self.space, GuessRule { pool: self.config.pool, ..GuessRule::new(valuation) })
            })
            .collect()
    }

    /// `min over g of |K| + sum of lower bounds of g's parts`, `g` one guess per class of the
    /// symmetry fixing `history` (see the module documentation), or `floor` (a bound proven
    /// otherwise) if that is higher. Refining stops once one guess's bound is at most `floor`,
    /// since the minimum cannot beat it then.
    fn proven_lower_bound(&self, set: &[CodeIndex], history: &[CodeIndex], floor: u64) -> u64 {
        let until = self.refine_until();
        self.refined_lower_bound(set, history, floor, |_| until.is_some_and(|t| Instant::now() >= t))
    }

    /// [`Self::proven_lower_bound`], giving up refining once `give_up` holds of the number of
    /// guesses refined so far.
    fn refined_lower_bound(
        &self,
        set: &[CodeIndex],
        history: &[CodeIndex],
        floor: u64,
        give_up: impl Fn(usize) -> bool,
    ) -> u64 {
        let win = self.space.scheme().win();
        let pool = self.pool(set, history);
        let guesses = match pool.as_ref() {
            Some(list) => list.clone(),
            None => self.space.all_indices(),
        };
        let splits = |g: CodeIndex| -> Option<Vec<Vec<CodeIndex>>> {
            let parts = self.space.split(g, set);
            (parts.len() > 1 || parts[0].0 == win)
                .then(|| parts.into_iter().filter(|(f, _)| *f != win).map(|(_, p)| p).collect())
        };
        let mut cheap: Vec<(u64, CodeIndex)> = guesses
            .par_iter()
            .filter_map(|&g| {
                let parts = splits(g)?;
                Some((set.len() as u64 + parts.iter().map(|p| self.known_lower(p)).sum::<u64>(), g))
            })
            .collect();
        cheap.sort_unstable();
        let mut best = u64::from(INFINITE);
        for (refined, &(bound, g)) in cheap.iter().enumerate() {
            if bound >= best || best <= floor {
                break;
            }
            if give_up(refined) {
                // Every guess not refined is bounded by its cheap bound, this one's or more.
                best = best.min(bound);
                break;
            }
            let parts = splits(g).expect("kept above");
            let after: Vec<CodeIndex> = history.iter().copied().chain([g]).collect();
            let bounds: Vec<u64> = parts.par_iter().map(|p| self.scanned_lower(p, &after)).collect();
            // Kept, so that the next bracket (and a checkpoint's next run) starts from them;
            // stored once all are computed, so no part's bound depends on thread timing.
            for (part, &bound) in parts.iter().zip(&bounds) {
                if bound > self.known_lower(part) {
                    self.store_lower(part, UNLIMITED, u32::try_from(bound).unwrap_or(INFINITE));
                }
            }
            best = best.min(set.len() as u64 + bounds.iter().sum::<u64>());
        }
        let root = match self.known_cost(set, UNLIMITED) {
            Some(Cost::Exact(cost) | Cost::Lower(cost)) => u64::from(cost),
            None => 0,
        };
        best.max(root).max(u64::from(self.bounds.bound(set.len(), UNLIMITED))).max(floor)
    }

    /// When refining a stopped search's lower bound gives up: past the time limit by a tenth
    /// of it (at least 1 s, at most 2 min), so that a job overruns its limit by a known
    /// amount. The first run of a chain on [7,4]'s 1,174-code part after 1112234 and (2,4)
    /// had refined 20 s past a 60 s limit. Runs under a node limit refine every guess (their
    /// bounds depend on nothing but the limit).
    fn refine_until(&self) -> Option<Instant> {
        let limit = self.config.time_limit?;
        let grace = (limit / 10).clamp(Duration::from_secs(1), Duration::from_secs(120));
        self.deadline.get().copied().flatten().map(|deadline| deadline + grace)
    }

    /// A lower bound of a part's optimum from closed forms, the tables and perfect trees.
    fn known_lower(&self, part: &[CodeIndex]) -> u64 {
        match part.len() {
            0 => return 0,
            1 => return 1,
            2 => return 3,
            _ => {}
        }
        let bound = self.bounds.bound(part.len(), UNLIMITED);
        u64::from(match self.known_cost(part, UNLIMITED) {
            Some(Cost::Exact(cost)) => cost,
            Some(Cost::Lower(lb)) => lb.max(bound),
            None => bound,
        })
    }

    /// [`Self::known_lower`] raised by the part's own candidates and one-step scan.
    fn scanned_lower(&self, part: &[CodeIndex], history: &[CodeIndex]) -> u64 {
        let known = self.known_lower(part);
        if part.len() <= 2 || matches!(self.lookup(part, UNLIMITED), Some(Entry::Exact(..))) {
            return known;
        }
        let small = match self.bounds.small_set(self.space, self.config.pool, part, UNLIMITED) {
            Small::Exact(cost, _) => return u64::from(cost),
            Small::Lower(lb) | Small::Reached(lb) => u64::from(lb),
            Small::Unknown => 0,
        };
        let perfect = self.bounds.bound(part.len(), UNLIMITED);
        let scanned = match self.ordered_guesses(part, INFINITE, perfect, UNLIMITED, history) {
            Scanned::Shortcut(cost, _) => u64::from(cost),
            Scanned::Guesses(_, least, _) => u64::from(least),
        };
        known.max(small).max(scanned)
    }

    /// The cheapest tree this module can assemble for `set`, with its total.
    fn best_known(&self, set: Vec<CodeIndex>, history: &[CodeIndex], solvers: &[Solver]) -> (u64, Subtree) {
        let solved = if set.len() <= 2 {
            Some(set[0])
        } else if let Small::Exact(_, g) = self.bounds.small_set(self.space, self.config.pool, &set, UNLIMITED) {
            Some(g)
        } else if let Some(Entry::Exact(_, g)) = self.lookup(&set, UNLIMITED) {
            Some(g)
        } else {
            None
        };
        let mut choices: Vec<CodeIndex> = match solved {
            Some(g) => vec![g],
            None if history.len() < RULE_CHOICE_DEPTH => {
                solvers.iter().map(|s| s.choose_after(history, &set)).collect()
            }
            None => vec![solvers[0].choose_after(history, &set)],
        };
        let mut seen = Vec::with_capacity(choices.len());
        choices.retain(|g| {
            let new = !seen.contains(g);
            seen.push(*g);
            new
        });
        let mut best: Option<(u64, Subtree)> = None;
        for g in choices {
            let tried = self.subtree_with(&set, g, history, solvers);
            if best.as_ref().is_none_or(|(cost, _)| tried.0 < *cost) {
                best = Some(tried);
            }
        }
        best.expect("at least one guess")
    }

    /// The tree playing `guess` on `set`, then [`Self::best_known`] on each part, with its total.
    fn subtree_with(
        &self,
        set: &[CodeIndex],
        guess: CodeIndex,
        history: &[CodeIndex],
        solvers: &[Solver],
    ) -> (u64, Subtree) {
        let win = self.space.scheme().win();
        let parts = self.space.split(guess, set);
        let mut history = history.to_vec();
        history.push(guess);
        let history = &history[..];
        let child = |(fb, part): (mmtree_core::FeedbackIndex, Vec<CodeIndex>)| {
            if fb == win {
                (0, (fb, Subtree::Leaf(guess)))
            } else {
                let (cost, sub) = self.best_known(part, history, solvers);
                (cost, (fb, sub))
            }
        };
        let built: Vec<(u64, (mmtree_core::FeedbackIndex, Subtree))> = if set.len() >= PARALLEL_CHILDREN {
            parts.into_par_iter().map(child).collect()
        } else {
            parts.into_iter().map(child).collect()
        };
        let total = set.len() as u64 + built.iter().map(|(c, _)| c).sum::<u64>();
        let children = built.into_iter().map(|(_, c)| c).collect();
        (total, Subtree::Guess { guess, candidates: set.len() as u32, children })
    }
}

#[cfg(test)]
mod tests {
    use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};

    use super::*;
    use crate::OptimalConfig;

    #[test]
    fn budgets_rise_only_as_far_as_the_limits_leave_room_for() {
        // No limit counts the work: steps double, 1, 2, 4, 8.
        let mut rise = Rise::default();
        for expected in [2, 4, 8] {
            rise.after([10, 1_000], [None, None]);
            assert_eq!(rise.step, expected);
        }
        // The [5,8] part of the documentation, in seconds: the step of 64 took 20 s, the one of
        // 128 134 s (growth 6.6); with 415 s left, 256 (a predicted 880 s) would not fit, 128
        // again would.
        let mut rise = Rise { step: 64, last: None };
        rise.after([0, 20_000_000], [None, Some(1_000_000_000)]);
        assert_eq!(rise.step, 128);
        rise.after([0, 134_000_000], [None, Some(415_000_000)]);
        assert_eq!(rise.step, 128);
        // Not even that in 100 s: halve. Never below 1.
        rise.after([0, 134_000_000], [None, Some(100_000_000)]);
        assert_eq!(rise.step, 64);
        let mut rise = Rise { step: 1, last: Some([1, 0]) };
        rise.after([50, 0], [Some(10), None]);
        assert_eq!(rise.step, 1);
        // Under a node limit the nodes decide (the time is not counted, so runs agree).
        let mut rise = Rise { step: 4, last: Some([100, 5]) };
        rise.after([300, 5_000], [Some(1_000), None]);
        assert_eq!(rise.step, 8, "300 nodes grown 3x fit in 1,000");
        rise.after([900, 5_000], [Some(1_000), None]);
        assert_eq!(rise.step, 8, "900 fit, 2,700 would not");
    }

    #[test]
    fn refining_cut_short_still_bounds_the_optimum() {
        // Koyama & Lai 1993: [4,6]'s optimum is 5625. Its five first-guess classes are refined
        // in turn; giving up after `j` of them must leave a proven bound (at most the optimum)
        // that rises with `j`, from the cheap bounds alone up to the bound of all refined.
        let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6)).unwrap(), MemoryLimit(1 << 30)).unwrap();
        space.build_table(1 << 20);
        let mut config = OptimalConfig::new(Objective::Average);
        config.node_limit = Some(3);
        let all = space.all_indices();
        let bounds: Vec<u64> = (0..=5)
            .map(|j| {
                let search = OptimalSearch::new(&space, config);
                assert!(search.run().is_err(), "3 nodes cannot solve [4,6]");
                search.refined_lower_bound(&all, &[], 0, |refined| refined >= j)
            })
            .collect();
        assert!(bounds.windows(2).all(|w| w[0] <= w[1]), "{bounds:?}");
        assert!(bounds[0] < bounds[5], "refining proved nothing more: {bounds:?}");
        assert!(bounds[5] <= 5625, "{bounds:?}");
    }
}
