//! Exact optimal strategies by branch and bound over candidate sets.
//!
//! The cost of a candidate set `K` under a strategy is the total number of guesses over its
//! secrets, counted from the next guess on. [`OptimalSearch`] finds the strategy of least
//! cost, optionally with no secret needing more than `D` guesses, and builds its tree.
//!
//! How the search stays exact and fast, module by module:
//!
//! * `bounds`: **admissible bounds.** With `b` non-winning feedbacks, at most 1 secret is
//!   found by the next guess, at most `b` by the one after, `b²` by the third, … Filling this
//!   perfect tree level by level gives a lower bound `lower[m]` on the cost of any set of `m`
//!   codes, and `m` above the capacity of `D` levels proves a depth limit infeasible. A set's
//!   scan finds the most non-winning feedbacks `p` a guess gets on it; no guess gets more on
//!   a subset, so its parts take the perfect trees with `p` branches. A guess
//!   that is not a candidate costs at least `|K|` plus the best split of `|K|` into `b`
//!   perfect trees; on small sets the candidates' own partitions give the rest.
//! * `guesses`: **scanning.** A guess is bounded by `|K|` plus its parts' bounds; the least
//!   such bound over the pool (one scan by the partition scanner) bounds the set. On sets of
//!   at most `b + 1` codes the bound is `3|K| - parts - [guess in K]`, so only the set of
//!   feedbacks that occur is gathered. Near the root, only one guess per class of the
//!   (position, colour) permutations that fix the guesses played is tried; deeper, colours
//!   absent from every candidate are interchangeable. The reduced pools are cached.
//! * `search`: **ordering and cut-offs.** Guesses are tried in increasing bound (candidates
//!   first on ties), and the loop stops at the first whose bound reaches the best cost found.
//!   A guess's parts are first bounded from the table, then each is scanned (raising its bound
//!   to its one-step bound), and only then searched, smallest first, each first within its
//!   bound plus twice its even share of the room left (a cheap rise on several parts refutes
//!   most guesses), then with all the budget left; the guess is abandoned as soon as the
//!   running sum reaches the best. A guess whose exact cost (parts of 1 or 2 codes) meets a
//!   bound that depends on the set alone ends the scan. Guesses with the same partition (up
//!   to the names of the feedbacks) are tried once.
//!   **Depth limits** are first decided by a plain depth-first feasibility search (parts
//!   largest first), which proves impossibility far sooner than minimising totals.
//! * `table`: the **transposition table**, keyed by the candidate set and depth limit,
//!   holding exact costs with their best guess, or lower bounds proven by failed searches and
//!   scans; beside it the **table of classes**, keyed by a set's standard image under every
//!   permutation of positions and colours ([`mmtree_core::standard_image`]), holding the same
//!   costs without guesses. A set about to be scanned first asks its class, so a set whose
//!   image was solved (under another history, where the first table cannot see it) costs
//!   nothing, and one whose image was only bounded takes that bound and puts its scan off
//!   until it is searched; a tree node solved by its class alone is solved again when the
//!   tree is built, for its own guess.
//! * `parallel`: **rayon** over the guesses of large nodes near the root, with a shared best
//!   so that the result (cost and guess: the first in the search order) does not depend on
//!   threads, and over the parts of a guess while no total can reach the limit (exact
//!   results, any order).
//! * `checkpoint`: saving and loading the finished subtrees; `tree`: building the optimal
//!   tree from the table's best guesses.
//! * `anytime`: when a node or time limit stops the search, a proven lower bound and the best
//!   strategy tree it can assemble (exact subtrees where solved, a one-step rule elsewhere).
//!
//! The guess played on a set is a function of the set and depth limit alone (the first
//! optimal guess in the order above, which symmetry never removes), so whatever the thread
//! count and whatever the table holds, the tree is the same.

mod anytime;
mod bounds;
mod checkpoint;
mod guesses;
mod parallel;
mod search;
mod table;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[cfg(doc)]
use mmtree_core::standard_image;
use mmtree_core::{CodeSpace, StrategyTree};

use crate::rule::Pool;
pub use anytime::{Bracket, PartBracket};
use bounds::Bounds;
pub use checkpoint::{Checkpoint, CheckpointBound, CheckpointEntry};
use guesses::PoolCache;
use table::{Cost, Entry, SetTable};

/// "No depth limit" in the search's depth arithmetic.
const UNLIMITED: u8 = u8::MAX;
/// A cost no strategy reaches: "infeasible".
const INFINITE: u32 = u32::MAX;

/// What the optimal strategy minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Objective {
    /// The total (equivalently the average) number of guesses over all secrets.
    Average,
    /// The maximum number of guesses; among strategies with the least maximum, the total.
    Worst,
}

impl Objective {
    /// Name on the command line and in JSON (`average` / `worst`).
    pub fn name(self) -> &'static str {
        match self {
            Objective::Average => "average",
            Objective::Worst => "worst",
        }
    }
}

/// The parameters of one exact search.
///
/// ```
/// use mmtree_strategy::{Objective, OptimalConfig, Pool};
/// let config = OptimalConfig::new(Objective::Average);
/// assert_eq!((config.max_depth, config.pool), (None, Pool::All));
/// assert_eq!((config.node_limit, config.time_limit, config.table_memory), (None, None, u64::MAX));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalConfig {
    /// What to minimise.
    pub objective: Objective,
    /// No secret may need more guesses than this.
    pub max_depth: Option<u8>,
    /// Which codes may be guessed.
    pub pool: Pool,
    /// Stop after this many searched nodes. The search then runs on one thread, so where it
    /// stops, and every figure it reports, does not depend on timing.
    pub node_limit: Option<u64>,
    /// Stop once this much time has passed since the search started.
    pub time_limit: Option<Duration>,
    /// Most bytes the transposition table and its table of classes may take together (and
    /// apart from them, the table of depth-limit answers); over it, the smallest sets are
    /// forgotten first.
    pub table_memory: u64,
}

impl OptimalConfig {
    /// Guesses from all codes, no depth limit, no node limit.
    pub fn new(objective: Objective) -> OptimalConfig {
        OptimalConfig {
            objective,
            max_depth: None,
            pool: Pool::All,
            node_limit: None,
            time_limit: None,
            table_memory: u64::MAX,
        }
    }
}

/// Why a search gave no tree.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptimalError {
    /// No strategy solves every secret within the depth limit.
    #[error("no strategy solves every secret within {max_depth} guesses")]
    NoStrategy {
        /// The limit.
        max_depth: u8,
    },
    /// The search was stopped (interrupt, node or time limit); finished subtrees are kept.
    #[error("search stopped after {nodes} nodes")]
    Stopped {
        /// Nodes searched when it stopped.
        nodes: u64,
    },
    /// A checkpoint of another game or pool.
    #[error("checkpoint is for {found}, not for this search ({expected})")]
    CheckpointMismatch {
        /// What the checkpoint holds.
        found: String,
        /// What this search is.
        expected: String,
    },
    /// A checkpoint entry whose subtree the checkpoint does not prove.
    #[error("checkpoint entry {entry} is refused: {reason}")]
    CheckpointCorrupt {
        /// Position in the entry list (from 0).
        entry: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A file that is not a checkpoint (not JSON, or not of a checkpoint's shape).
    #[error("not a checkpoint: {0}")]
    NotACheckpoint(String),
    /// A set searched after a history that it is not the candidates of: some permutation
    /// that fixes the guesses played moves it, so one guess per class of them may miss the
    /// best.
    #[error("the set is not the candidates of its history: a permutation fixing the guesses played moves it")]
    NotCandidates,
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Candidate sets searched (table hits and closed forms excluded).
    pub nodes: u64,
    /// Guesses abandoned because their bound or running cost reached the best.
    pub cutoffs: u64,
    /// Answers taken from the transposition table.
    pub table_hits: u64,
    /// Entries in the table at the end.
    pub table_entries: u64,
    /// Entries forgotten to stay within the table's memory cap.
    pub table_evictions: u64,
}

/// The search was interrupted.
#[derive(Debug, Clone, Copy)]
struct Stopped;

/// Exact branch-and-bound search for an optimal strategy tree.
///
/// ```
/// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch};
/// let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(2, 3))?, MemoryLimit(1 << 30))?;
/// space.build_table(1 << 20);
/// let tree = OptimalSearch::new(&space, OptimalConfig::new(Objective::Average)).run().unwrap();
/// assert_eq!(tree.stats().total, 21); // Chen & Lin: 2 pegs, 3 colours
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct OptimalSearch<'s> {
    space: &'s CodeSpace,
    config: OptimalConfig,
    bounds: Bounds,
    /// Sets proven solvable (or not) within a depth, from the feasibility search.
    feasible: SetTable<bool>,
    /// Symmetry-reduced pools already computed, and the groups after each first guess.
    pools: Mutex<PoolCache>,
    table: SetTable<Entry>,
    /// What is known of small sets, keyed by their [`standard_image`]: shared by every set
    /// with the same image.
    classes: SetTable<Cost>,
    stop: Option<&'s AtomicBool>,
    progress: Option<&'s (dyn Fn(u64) + Sync)>,
    /// When the time limit runs out (set when the search starts).
    deadline: OnceLock<Option<Instant>>,
    /// Whether guesses and parts may be searched on several threads (not under a node limit).
    parallel: bool,
    nodes: AtomicU64,
    cutoffs: AtomicU64,
    hits: AtomicU64,
    stopped: AtomicBool,
}

impl<'s> OptimalSearch<'s> {
    /// A search on one code space (build its feedback table first for speed).
    pub fn new(space: &'s CodeSpace, config: OptimalConfig) -> OptimalSearch<'s> {
        OptimalSearch {
            space,
            config,
            bounds: Bounds::new(space),
            // The cap is shared by the sets and their classes.
            table: SetTable::new(config.table_memory / 2, space.len()),
            classes: SetTable::new(config.table_memory / 2, space.len()),
            feasible: SetTable::new(config.table_memory, space.len()),
            pools: Mutex::new(PoolCache::default()),
            stop: None,
            progress: None,
            deadline: OnceLock::new(),
            parallel: config.node_limit.is_none(),
            nodes: AtomicU64::new(0),
            cutoffs: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
        }
    }

    /// Stops the search (with [`OptimalError::Stopped`]) once `flag` is set, e.g. on Ctrl-C.
    pub fn with_stop_flag(mut self, flag: &'s AtomicBool) -> OptimalSearch<'s> {
        self.stop = Some(flag);
        self
    }

    /// Reports the number of nodes searched so far, every few thousand nodes.
    pub fn with_progress(mut self, progress: &'s (dyn Fn(u64) + Sync)) -> OptimalSearch<'s> {
        self.progress = Some(progress);
        self
    }

    /// The counters so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes.load(Ordering::Relaxed),
            cutoffs: self.cutoffs.load(Ordering::Relaxed),
            table_hits: self.hits.load(Ordering::Relaxed),
            table_entries: (self.table.len() + self.feasible.len() + self.classes.len()) as u64,
            table_evictions: self.table.evicted() + self.feasible.evicted() + self.classes.evicted(),
        }
    }

    /// Runs the search and builds the optimal tree.
    pub fn run(&self) -> Result<StrategyTree, OptimalError> {
        self.deadline.get_or_init(|| self.config.time_limit.map(|limit| Instant::now() + limit));
        let all = self.space.all_indices();
        let limit = self.config.max_depth.unwrap_or(UNLIMITED);
        let stopped = |_: Stopped| self.stopped_error();
        let depth = match self.config.objective {
            Objective::Average => {
                // A depth limit is checked first by the plain depth-first search, which proves
                // infeasibility far sooner than minimising totals does.
                if limit != UNLIMITED && !self.feasible(&all, limit, &[]).map_err(stopped)? {
                    return Err(OptimalError::NoStrategy { max_depth: limit });
                }
                if self.solve(&all, INFINITE, limit, &[]).map_err(stopped)?.is_none() {
                    return Err(OptimalError::NoStrategy { max_depth: limit });
                }
                limit
            }
            Objective::Worst => {
                let mut d = 1u8;
                while self.bounds.capacity(d) < all.len() as u64 {
                    d += 1;
                }
                loop {
                    if d > limit {
                        return Err(OptimalError::NoStrategy { max_depth: limit });
                    }
                    if self.feasible(&all, d, &[]).map_err(stopped)? {
                        let least = self.solve(&all, INFINITE, d, &[]).map_err(stopped)?;
                        assert!(least.is_some(), "BUG: a feasible depth without a strategy");
                        break d;
                    }
                    if d == UNLIMITED - 1 {
                        return Err(OptimalError::NoStrategy { max_depth: d });
                    }
                    d += 1;
                }
            }
        };
        let root = self.build(all, depth, &[]).map_err(stopped)?;
        Ok(StrategyTree::from_subtree(*self.space.game(), root))
    }

    fn stopped_error(&self) -> OptimalError {
        OptimalError::Stopped { nodes: self.nodes.load(Ordering::Relaxed) }
    }

    fn check_stop(&self, nodes: u64) -> Result<(), Stopped> {
        let limit_hit = self.config.node_limit.is_some_and(|limit| nodes > limit)
            || self.deadline.get().copied().flatten().is_some_and(|deadline| Instant::now() >= deadline);
        if limit_hit || self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) || self.stopped.load(Ordering::Relaxed) {
            self.stopped.store(true, Ordering::Relaxed);
            return Err(Stopped);
        }
        if nodes % 4096 == 0 {
            if let Some(progress) = self.progress {
                progress(nodes);
            }
        }
        Ok(())
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
