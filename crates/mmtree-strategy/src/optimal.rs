//! Exact optimal strategies by branch and bound over candidate sets.
//!
//! The cost of a candidate set `K` under a strategy is the total number of guesses over its
//! secrets, counted from the next guess on. [`OptimalSearch`] finds the strategy of least
//! cost, optionally with no secret needing more than `D` guesses, and builds its tree.
//!
//! How the search stays exact and fast:
//!
//! * **Admissible bounds.** With `b` non-winning feedbacks, at most 1 secret is found by the
//!   next guess, at most `b` by the one after, `b²` by the third, … Filling this perfect tree
//!   level by level gives a lower bound `lower[m]` on the cost of any set of `m` codes, and `m`
//!   above the capacity of `D` levels proves a depth limit infeasible. A guess is bounded by
//!   `|K|` plus its parts' bounds; the least such bound over the pool (one scan) bounds the set.
//!   A guess that is not a candidate costs at least `|K|` plus the best split of `|K|` into `b`
//!   perfect trees; on small sets the candidates' own partitions give the rest.
//! * **Scanning.** Partition tables come from the candidates' rows of the feedback table
//!   (streamed, see `scan.rs`). On sets of at most `b + 1` codes the bound is
//!   `3|K| - parts - [guess in K]`, so only the set of feedbacks that occur is gathered.
//! * **Ordering and cut-offs.** Guesses are tried in increasing bound (candidates first on
//!   ties), and the loop stops at the first whose bound reaches the best cost found. A guess's
//!   parts are first bounded from the table, then each is scanned (raising its bound to its
//!   one-step bound), and only then searched, smallest first, each with the budget left; the
//!   guess is abandoned as soon as the running sum reaches the best. A guess whose exact cost
//!   (parts of 1 or 2 codes) meets a bound that depends on the set alone ends the scan.
//! * **Symmetry.** Near the root, only one guess per class of the (position, colour)
//!   permutations that fix the guesses played is tried; deeper, colours absent from every
//!   candidate are interchangeable. The reduced pools are cached. Guesses with the same
//!   partition (up to the names of the feedbacks) are tried once.
//! * **Transposition table** keyed by the candidate set and depth limit, holding exact costs
//!   with their best guess, or lower bounds proven by failed searches and scans.
//! * **Depth limits** are first decided by a plain depth-first feasibility search (parts
//!   largest first), which proves impossibility far sooner than minimising totals.
//! * **rayon** over the guesses of large nodes near the root, with a shared best so that the
//!   result (cost and guess: the first in the search order) does not depend on threads, and
//!   over the parts of a guess while no total can reach the limit (exact results, any order).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use mmtree_core::{CodeIndex, CodeSpace, Counts, FeedbackIndex, GameSpec, StrategyTree, Subtree, MAX_FEEDBACKS};

use crate::perm::Symmetry;
use crate::rule::Pool;
use crate::scan::Scanner;

/// "No depth limit" in the search's depth arithmetic.
const UNLIMITED: u8 = u8::MAX;
/// A cost no strategy reaches: "infeasible".
const INFINITE: u32 = u32::MAX;
/// Nodes up to this depth (guesses played) use the full symmetry group of the history.
const SYMMETRY_DEPTH: usize = 2;
/// Nodes up to this depth with at least `PARALLEL_MIN` candidates try guesses in parallel.
const PARALLEL_DEPTH: usize = 2;
const PARALLEL_MIN: usize = 24;
/// Candidate sets at least this large go into a checkpoint.
const CHECKPOINT_MIN: usize = 6;
/// Table shards (a power of two).
const SHARDS: usize = 64;

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
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalConfig {
    /// What to minimise.
    pub objective: Objective,
    /// No secret may need more guesses than this.
    pub max_depth: Option<u8>,
    /// Which codes may be guessed.
    pub pool: Pool,
    /// Stop (as if interrupted) after this many searched nodes; for tests of resuming.
    pub stop_after_nodes: Option<u64>,
}

impl OptimalConfig {
    /// Guesses from all codes, no depth limit, no node limit.
    pub fn new(objective: Objective) -> OptimalConfig {
        OptimalConfig { objective, max_depth: None, pool: Pool::All, stop_after_nodes: None }
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
    /// The search was stopped (interrupt or node limit); finished subtrees are kept.
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
    /// A checkpoint entry that is not a valid candidate set of this game.
    #[error("checkpoint entry {entry} is corrupt")]
    CheckpointCorrupt {
        /// Position in the entry list.
        entry: usize,
    },
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
}

/// A finished subtree saved in a checkpoint: the candidate set, its depth limit (255: none),
/// its exact cost and the best guess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointEntry {
    /// Depth limit of the subproblem (255 = unlimited).
    pub depth: u8,
    /// Exact optimal cost.
    pub cost: u32,
    /// Best guess (code index).
    pub guess: u32,
    /// Candidate code indices, increasing.
    pub set: Vec<u32>,
}

/// What a search has proven so far, to resume an interrupted search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The game.
    pub game: GameSpec,
    /// `all` or `candidates`.
    pub pool: String,
    /// Finished subtrees.
    pub entries: Vec<CheckpointEntry>,
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    /// The optimum and a guess reaching it.
    Exact(u32, CodeIndex),
    /// The optimum is at least this.
    Lower(u32),
}

/// Passes a precomputed hash through.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type Bucket<V> = Vec<(u8, Box<[u32]>, V)>;
type SetShard<V> = Mutex<HashMap<u64, Bucket<V>, BuildHasherDefault<PassThrough>>>;

/// A map from (candidate set, depth limit) to `V`, sharded for threads; lookups compare the
/// set in place (no key is allocated to look one up).
struct SetTable<V> {
    shards: Vec<SetShard<V>>,
}

impl<V: Copy> SetTable<V> {
    fn new() -> SetTable<V> {
        SetTable { shards: (0..SHARDS).map(|_| Mutex::new(HashMap::default())).collect() }
    }

    fn get(&self, set: &[CodeIndex], depth: u8) -> Option<V> {
        let hash = set_hash(set, depth);
        let shard = lock(&self.shards[(hash as usize) & (SHARDS - 1)]);
        shard.get(&hash)?.iter().find(|(d, s, _)| *d == depth && same_set(s, set)).map(|e| e.2)
    }

    /// Sets the value to `update(old)` unless that is `None`.
    fn update(&self, set: &[CodeIndex], depth: u8, update: impl FnOnce(Option<V>) -> Option<V>) {
        let hash = set_hash(set, depth);
        let mut shard = lock(&self.shards[(hash as usize) & (SHARDS - 1)]);
        let bucket = shard.entry(hash).or_default();
        match bucket.iter_mut().find(|(d, s, _)| *d == depth && same_set(s, set)) {
            Some(slot) => {
                if let Some(v) = update(Some(slot.2)) {
                    slot.2 = v;
                }
            }
            None => {
                if let Some(v) = update(None) {
                    bucket.push((depth, set.iter().map(|c| c.index()).collect(), v));
                }
            }
        }
    }

    fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).values().map(Vec::len).sum::<usize>()).sum()
    }

    fn for_each(&self, mut visit: impl FnMut(u8, &[u32], V)) {
        for shard in &self.shards {
            for bucket in lock(shard).values() {
                for (depth, set, v) in bucket {
                    visit(*depth, set, *v);
                }
            }
        }
    }
}

fn same_set(stored: &[u32], set: &[CodeIndex]) -> bool {
    stored.len() == set.len() && stored.iter().zip(set).all(|(&a, b)| a == b.index())
}

/// What a small set's candidates prove.
enum Small {
    /// The optimum and an optimal guess.
    Exact(u32, CodeIndex),
    /// A lower bound on the optimum.
    Lower(u32),
    /// Nothing (the set is too large or the depth too small).
    Unknown,
}

/// The outcome of scanning the pool on a set.
enum Scan {
    /// A guess whose known cost equals a lower bound of the set.
    Shortcut(u32, CodeIndex),
    /// The guesses to try with their bounds, in order, and the least bound of any guess.
    Guesses(Vec<(u32, CodeIndex)>, u32),
}

/// What [`OptimalSearch::prepare`] found.
enum Prep {
    /// The answer of `solve`.
    Done(Option<u32>),
    /// The set needs its guesses tried.
    Expand(Expansion),
}

/// A scanned set: its guesses in order with their bounds, and its lower bound.
struct Expansion {
    guesses: Vec<(u32, CodeIndex)>,
    node_bound: u32,
}

/// What the pool of a set depends on: the guesses played (near the root, where their
/// symmetries are used), or the colours absent from the set (deeper).
#[derive(Clone, PartialEq, Eq, Hash)]
enum PoolKey {
    History(Vec<u32>),
    Absent(u64),
}

type PoolCache = HashMap<PoolKey, Arc<Option<Vec<CodeIndex>>>>;

/// Most codes kept in cached pools (64 MB).
const POOL_CACHE_CODES: usize = 1 << 24;

/// The search was interrupted.
#[derive(Debug, Clone, Copy)]
struct Stopped;

#[inline]
fn mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn set_hash(set: &[CodeIndex], depth: u8) -> u64 {
    let h = set.iter().fold(u64::from(depth) + 1, |h, c| mix(h, u64::from(c.index())));
    h ^ (h >> 29)
}

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
    /// Non-winning feedbacks.
    branching: u64,
    /// `lower[m]`: the perfect-tree bound for `m` codes.
    lower: Vec<u32>,
    /// `outside[m]`: least sum of `lower` over at most `branching` parts of `m` codes in all,
    /// so `m + outside[m]` bounds any guess that is not a candidate.
    outside: Vec<u32>,
    scanner: Scanner<'s>,
    /// Largest `c` with `lower[i] = 2i - 1` for every `1 <= i <= c`.
    linear: usize,
    /// Sets proven solvable (or not) within a depth, from the feasibility search.
    feasible: SetTable<bool>,
    /// Symmetry-reduced pools already computed, and the number of codes they hold.
    pools: Mutex<(PoolCache, usize)>,
    /// `capacities[d]`: most secrets `d` guesses can settle.
    capacities: Vec<u64>,
    table: SetTable<Entry>,
    stop: Option<&'s AtomicBool>,
    progress: Option<&'s (dyn Fn(u64) + Sync)>,
    nodes: AtomicU64,
    cutoffs: AtomicU64,
    hits: AtomicU64,
    stopped: AtomicBool,
}

impl<'s> OptimalSearch<'s> {
    /// A search on one code space (build its feedback table first for speed).
    pub fn new(space: &'s CodeSpace, config: OptimalConfig) -> OptimalSearch<'s> {
        let branching = (space.scheme().len() as u64).saturating_sub(1).max(1);
        let lower = perfect_bounds(space.len(), branching);
        let outside = outside_bounds(&lower, branching);
        let linear = (1..lower.len()).take_while(|&c| lower[c] as usize == 2 * c - 1).last().unwrap_or(0);
        let capacities = (0..UNLIMITED)
            .map(|d| {
                let (mut cap, mut level) = (0u64, 1u64);
                for _ in 0..d {
                    cap = cap.saturating_add(level);
                    level = level.saturating_mul(branching);
                }
                cap
            })
            .collect();
        OptimalSearch {
            space,
            config,
            branching,
            lower,
            outside,
            scanner: Scanner::new(space),
            linear,
            capacities,
            table: SetTable::new(),
            feasible: SetTable::new(),
            pools: Mutex::new((HashMap::new(), 0)),
            stop: None,
            progress: None,
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
            table_entries: (self.table.len() + self.feasible.len()) as u64,
        }
    }

    fn describe(&self) -> String {
        format!("{} pool {}", self.space.game(), self.config.pool.name())
    }

    /// The finished subtrees (candidate sets of at least a few codes with exact costs).
    pub fn checkpoint(&self) -> Checkpoint {
        let mut entries = Vec::new();
        self.table.for_each(|depth, set, entry| {
            if let Entry::Exact(cost, guess) = entry {
                if set.len() >= CHECKPOINT_MIN {
                    entries.push(CheckpointEntry { depth, cost, guess: guess.index(), set: set.to_vec() });
                }
            }
        });
        entries.sort_by(|a, b| (b.set.len(), &a.set, a.depth).cmp(&(a.set.len(), &b.set, b.depth)));
        Checkpoint { game: self.space.game().spec(), pool: self.config.pool.name().to_string(), entries }
    }

    /// Loads the finished subtrees of an earlier run of the same game and pool.
    pub fn resume(&self, checkpoint: &Checkpoint) -> Result<(), OptimalError> {
        if checkpoint.game != self.space.game().spec() || checkpoint.pool != self.config.pool.name() {
            let found = match mmtree_core::Game::new(checkpoint.game) {
                Ok(g) => format!("{g} pool {}", checkpoint.pool),
                Err(_) => "an invalid game".to_string(),
            };
            return Err(OptimalError::CheckpointMismatch { found, expected: self.describe() });
        }
        let len = self.space.len() as u32;
        for (i, e) in checkpoint.entries.iter().enumerate() {
            let sorted = e.set.windows(2).all(|w| w[0] < w[1]);
            if e.set.is_empty() || !sorted || e.set.iter().any(|&c| c >= len) || e.guess >= len || e.cost == 0 {
                return Err(OptimalError::CheckpointCorrupt { entry: i });
            }
            let set: Vec<CodeIndex> = e.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
            // A guess that splits nothing would send the tree builder round in circles.
            let parts = self.space.split(CodeIndex::from_index(e.guess), &set);
            if parts.len() == 1 && parts[0].0 != self.space.scheme().win() {
                return Err(OptimalError::CheckpointCorrupt { entry: i });
            }
            self.store(&set, e.depth, Entry::Exact(e.cost, CodeIndex::from_index(e.guess)));
        }
        Ok(())
    }

    /// Runs the search and builds the optimal tree.
    pub fn run(&self) -> Result<StrategyTree, OptimalError> {
        let all = self.space.all_indices();
        let limit = self.config.max_depth.unwrap_or(UNLIMITED);
        let depth = match self.config.objective {
            Objective::Average => {
                // A depth limit is checked first by the plain depth-first search, which proves
                // infeasibility far sooner than minimising totals does.
                if limit != UNLIMITED && !self.feasible(&all, limit, &[]).map_err(|_| self.stopped_error())? {
                    return Err(OptimalError::NoStrategy { max_depth: limit });
                }
                if self.solve(&all, INFINITE, limit, &[]).map_err(|_| self.stopped_error())?.is_none() {
                    return Err(OptimalError::NoStrategy { max_depth: limit });
                }
                limit
            }
            Objective::Worst => {
                let mut d = 1u8;
                while self.capacity(d) < all.len() as u64 {
                    d += 1;
                }
                loop {
                    if d > limit {
                        return Err(OptimalError::NoStrategy { max_depth: limit });
                    }
                    if self.feasible(&all, d, &[]).map_err(|_| self.stopped_error())? {
                        let least = self.solve(&all, INFINITE, d, &[]).map_err(|_| self.stopped_error())?;
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
        let root = self.build(all, depth, &[]).map_err(|_| self.stopped_error())?;
        Ok(StrategyTree::from_subtree(*self.space.game(), root))
    }

    fn stopped_error(&self) -> OptimalError {
        OptimalError::Stopped { nodes: self.nodes.load(Ordering::Relaxed) }
    }

    /// Secrets `depth` guesses can settle at most.
    #[inline]
    fn capacity(&self, depth: u8) -> u64 {
        if depth == UNLIMITED {
            u64::MAX
        } else {
            self.capacities[depth as usize]
        }
    }

    /// The admissible bound of `m` codes within `depth` guesses (`INFINITE`: impossible).
    #[inline]
    fn bound(&self, m: usize, depth: u8) -> u32 {
        if depth != UNLIMITED && (m as u64) > self.capacity(depth) {
            INFINITE
        } else {
            self.lower[m]
        }
    }

    fn lookup(&self, set: &[CodeIndex], depth: u8) -> Option<Entry> {
        self.table.get(set, depth)
    }

    fn store(&self, set: &[CodeIndex], depth: u8, entry: Entry) {
        self.table.update(set, depth, |old| match (old, entry) {
            (Some(Entry::Exact(..)), _) => None,
            (Some(Entry::Lower(old)), Entry::Lower(new)) if old >= new => None,
            _ => Some(entry),
        });
    }

    fn check_stop(&self, nodes: u64) -> Result<(), Stopped> {
        let limit_hit = self.config.stop_after_nodes.is_some_and(|limit| nodes > limit);
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

    /// The least cost of `set` within `depth` guesses if it is below `budget`; `None` proves
    /// the least cost is at least `budget` (or that no strategy fits the depth).
    fn solve(&self, set: &[CodeIndex], budget: u32, depth: u8, history: &[CodeIndex]) -> Result<Option<u32>, Stopped> {
        match self.prepare(set, budget, depth, history)? {
            Prep::Done(result) => Ok(result),
            Prep::Expand(x) => self.expand(set, budget, depth, history, x),
        }
    }

    /// Everything short of trying guesses: closed forms, the table, small sets, and the scan
    /// of the pool, whose least bound is a lower bound of the set.
    fn prepare(&self, set: &[CodeIndex], budget: u32, depth: u8, history: &[CodeIndex]) -> Result<Prep, Stopped> {
        let m = set.len();
        let found = |cost: u32| Prep::Done(if cost < budget { Some(cost) } else { None });
        match m {
            0 => return Ok(Prep::Done(Some(0))),
            1 if depth >= 1 => return Ok(found(1)),
            2 if depth >= 2 => return Ok(found(3)),
            _ => {}
        }
        // `known`: a function of the set and depth alone (never of what the table holds), so
        // that the shortcut below picks the same guess whenever the set is searched.
        let mut known = self.bound(m, depth);
        if known >= budget {
            return Ok(Prep::Done(None));
        }
        let mut node_bound = known;
        match self.lookup(set, depth) {
            Some(Entry::Exact(cost, _)) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(found(cost));
            }
            Some(Entry::Lower(lb)) => {
                if lb >= budget {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(Prep::Done(None));
                }
                node_bound = node_bound.max(lb);
            }
            None => {}
        }
        if depth != UNLIMITED && self.feasible.get(set, depth) == Some(false) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(Prep::Done(None));
        }
        match self.small_set(set, depth) {
            Small::Exact(cost, _) => return Ok(found(cost)),
            Small::Lower(lb) => known = known.max(lb),
            Small::Unknown => {}
        }
        node_bound = node_bound.max(known);
        if node_bound >= budget {
            self.store(set, depth, Entry::Lower(node_bound));
            return Ok(Prep::Done(None));
        }
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        self.check_stop(nodes)?;

        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        match self.ordered_guesses(set, budget, known, child_depth, history) {
            Scan::Shortcut(cost, guess) => {
                self.store(set, depth, Entry::Exact(cost, guess));
                Ok(Prep::Done(Some(cost)))
            }
            Scan::Guesses(guesses, least) => {
                node_bound = node_bound.max(least);
                if guesses.is_empty() {
                    self.cutoffs.fetch_add(1, Ordering::Relaxed);
                    self.store(set, depth, Entry::Lower(node_bound.max(budget)));
                    return Ok(Prep::Done(None));
                }
                self.store(set, depth, Entry::Lower(node_bound));
                Ok(Prep::Expand(Expansion { guesses, node_bound }))
            }
        }
    }

    /// Tries the guesses of a prepared set (within a budget at most the one it was prepared
    /// with) and records the outcome.
    fn expand(
        &self,
        set: &[CodeIndex],
        budget: u32,
        depth: u8,
        history: &[CodeIndex],
        x: Expansion,
    ) -> Result<Option<u32>, Stopped> {
        if x.node_bound >= budget {
            return Ok(None);
        }
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let guesses = x.guesses;
        let parallel = history.len() < PARALLEL_DEPTH && set.len() >= PARALLEL_MIN && guesses.len() > 1;
        let best = if parallel {
            self.best_parallel(set, &guesses, budget, child_depth, history)?
        } else {
            self.best_serial(set, &guesses, budget, child_depth, history)?
        };
        match best {
            Some((cost, guess)) => {
                self.store(set, depth, Entry::Exact(cost, guess));
                Ok(Some(cost))
            }
            None => {
                self.store(set, depth, Entry::Lower(budget.max(x.node_bound)));
                Ok(None)
            }
        }
    }

    fn best_serial(
        &self,
        set: &[CodeIndex],
        guesses: &[(u32, CodeIndex)],
        budget: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Result<Option<(u32, CodeIndex)>, Stopped> {
        let mut best = budget;
        let mut best_guess = None;
        // Guesses with the same partition (up to the names of the feedbacks) are the same
        // move: try only the first.
        let mut tried: HashMap<u64, Vec<CodeIndex>, BuildHasherDefault<PassThrough>> = HashMap::default();
        for (i, &(bound, guess)) in guesses.iter().enumerate() {
            if bound >= best {
                self.cutoffs.fetch_add((guesses.len() - i) as u64, Ordering::Relaxed);
                break;
            }
            let same = tried.entry(self.partition_hash(guess, set)).or_default();
            if same.iter().any(|&other| self.same_partition(guess, other, set)) {
                continue;
            }
            same.push(guess);
            if let Some(cost) = self.evaluate(set, guess, bound, best, child_depth, history)? {
                best = cost;
                best_guess = Some(guess);
            }
        }
        Ok(best_guess.map(|g| (best, g)))
    }

    /// A hash of the partition `guess` makes of `set`, feedbacks renamed in order of first
    /// appearance (the winning one kept apart).
    fn partition_hash(&self, guess: CodeIndex, set: &[CodeIndex]) -> u64 {
        let win = self.space.scheme().win().get();
        let mut names = [u8::MAX; MAX_FEEDBACKS];
        let mut next = 0u8;
        let mut h = 0u64;
        self.space.for_each_feedback(guess, set, |f| {
            let name = if f == win {
                u8::MAX
            } else {
                if names[f] == u8::MAX {
                    names[f] = next;
                    next += 1;
                }
                names[f]
            };
            h = mix(h, u64::from(name));
        });
        h
    }

    /// Whether two guesses split `set` into the same parts, the winning part included.
    fn same_partition(&self, a: CodeIndex, b: CodeIndex, set: &[CodeIndex]) -> bool {
        let win = self.space.scheme().win().get();
        let (mut ab, mut ba) = ([u8::MAX; MAX_FEEDBACKS], [u8::MAX; MAX_FEEDBACKS]);
        set.iter().all(|&c| {
            let (fa, fb) = (self.space.feedback(a, c).get(), self.space.feedback(b, c).get());
            if (fa == win) != (fb == win) {
                return false;
            }
            if ab[fa] == u8::MAX && ba[fb] == u8::MAX {
                ab[fa] = fb as u8;
                ba[fb] = fa as u8;
            }
            ab[fa] as usize == fb && ba[fb] as usize == fa
        })
    }

    /// Tries guesses in parallel; the best is the least (cost, position in `guesses`), as the
    /// serial loop would find it.
    fn best_parallel(
        &self,
        set: &[CodeIndex],
        guesses: &[(u32, CodeIndex)],
        budget: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Result<Option<(u32, CodeIndex)>, Stopped> {
        let pack = |cost: u32, pos: u32| (u64::from(cost) << 32) | u64::from(pos);
        let initial = pack(budget, 0);
        let best = AtomicU64::new(initial);
        // The most promising guess alone first, so the others start with its cost as budget.
        let (bound, guess) = guesses[0];
        if let Some(c) = self.evaluate(set, guess, bound, budget, child_depth, history)? {
            best.store(pack(c, 0), Ordering::Relaxed);
        }
        guesses.par_iter().enumerate().skip(1).try_for_each(|(i, &(bound, guess))| {
            let current = best.load(Ordering::Relaxed);
            let (cost, pos) = ((current >> 32) as u32, current as u32);
            // An earlier guess may tie the best; a later one must beat it.
            let limit = if (i as u32) < pos { cost.saturating_add(1) } else { cost };
            if bound >= limit {
                self.cutoffs.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            if let Some(c) = self.evaluate(set, guess, bound, limit, child_depth, history)? {
                best.fetch_min(pack(c, i as u32), Ordering::Relaxed);
            }
            Ok(())
        })?;
        let result = best.load(Ordering::Relaxed);
        Ok((result != initial).then(|| ((result >> 32) as u32, guesses[result as u32 as usize].1)))
    }

    /// The cost of playing `guess` on `set` if below `limit`.
    ///
    /// First every part is bounded as cheaply as possible (closed forms, the table), then
    /// each part is prepared (its pool scanned, which gives its one-step bound), and only
    /// then are parts searched, smallest first: a guess whose parts' bounds already reach
    /// the limit is abandoned before any deep search.
    fn evaluate(
        &self,
        set: &[CodeIndex],
        guess: CodeIndex,
        bound: u32,
        limit: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Result<Option<u32>, Stopped> {
        let win = self.space.scheme().win();
        let mut parts: Vec<Vec<CodeIndex>> =
            self.space.split(guess, set).into_iter().filter(|(f, _)| *f != win).map(|(_, p)| p).collect();
        parts.sort_by_key(Vec::len);
        let cut = || {
            self.cutoffs.fetch_add(1, Ordering::Relaxed);
            Ok(None)
        };
        // Each part's bound, raised to what the table knows, before solving any part.
        let mut running = set.len() as u32;
        let mut bounds = Vec::with_capacity(parts.len());
        for part in &parts {
            let b = self.bound(part.len(), child_depth);
            let (b, exact) = if part.len() <= 2 || b == INFINITE {
                (b, true) // 1 and 3: the costs of 1 and 2 codes, when the depth allows them
            } else {
                match self.lookup(part, child_depth) {
                    Some(Entry::Exact(cost, _)) => {
                        self.hits.fetch_add(1, Ordering::Relaxed);
                        (cost, true)
                    }
                    Some(Entry::Lower(lb)) => {
                        self.hits.fetch_add(1, Ordering::Relaxed);
                        (b.max(lb), false)
                    }
                    None => (b, false),
                }
            };
            running = running.saturating_add(b);
            bounds.push((b, exact));
        }
        debug_assert!(running >= bound || running == INFINITE);
        if running >= limit {
            return cut();
        }
        let mut history = history.to_vec();
        history.push(guess);
        let mut prepared: Vec<Option<Expansion>> = Vec::with_capacity(parts.len());
        for (part, (part_bound, exact)) in parts.iter().zip(bounds.iter_mut()) {
            if *exact {
                prepared.push(None);
                continue;
            }
            let child_budget = limit - (running - *part_bound);
            match self.prepare(part, child_budget, child_depth, &history)? {
                Prep::Done(None) => return cut(),
                Prep::Done(Some(cost)) => {
                    running = running - *part_bound + cost;
                    (*part_bound, *exact) = (cost, true);
                    prepared.push(None);
                }
                Prep::Expand(x) => {
                    if x.node_bound > *part_bound {
                        running = running - *part_bound + x.node_bound;
                        *part_bound = x.node_bound;
                        if running >= limit {
                            return cut();
                        }
                    }
                    prepared.push(Some(x));
                }
            }
        }
        if limit >= INFINITE / 2 && history.len() <= PARALLEL_DEPTH {
            // No total can reach this limit, so no part can cut the guess: the parts are
            // independent and each gets the whole remaining room (the results are exact, so
            // they do not depend on the order in which the parts finish).
            let jobs: Vec<_> =
                parts.iter().zip(&bounds).zip(prepared).filter_map(|((p, b), x)| Some((p, b.0, x?))).collect();
            let base = running;
            let costs = jobs
                .into_par_iter()
                .map(|(part, part_bound, x)| {
                    let child_budget = limit - (base - part_bound);
                    Ok(self.expand(part, child_budget, child_depth, &history, x)?.map(|c| (c, part_bound)))
                })
                .collect::<Result<Vec<_>, Stopped>>()?;
            for cost in costs {
                match cost {
                    Some((cost, part_bound)) => running = running.saturating_add(cost - part_bound),
                    None => return cut(),
                }
            }
            return Ok((running < limit).then_some(running));
        }
        for ((part, &(part_bound, _)), x) in parts.iter().zip(&bounds).zip(prepared) {
            let Some(x) = x else { continue };
            let child_budget = limit - (running - part_bound);
            match self.expand(part, child_budget, child_depth, &history, x)? {
                Some(cost) => running = running - part_bound + cost,
                None => return cut(),
            }
        }
        Ok(Some(running))
    }

    /// For a small set, from its candidates alone (`|K|²` scorings instead of a scan of the
    /// whole pool): an optimal guess, or a lower bound on the cost.
    ///
    /// A candidate whose non-winning parts all have at most 2 codes has the exact cost `|K|`
    /// plus 1 per single and 3 per pair. Let `C` be the least such cost. Every other candidate
    /// costs at least its bound, and every non-candidate at least `|K| + outside[|K|]` (each
    /// code needs this guess and a perfect tree under at most `b` parts). If `C` is at most all
    /// of these, it is optimal; the first candidate in code order reaching it is played.
    /// Otherwise the least of them all bounds the cost.
    fn small_set(&self, set: &[CodeIndex], depth: u8) -> Small {
        let m = set.len();
        // Parts of 2 need 2 more guesses, singles 1; larger sets never qualify.
        if depth < 3 || (m as u64) > 2 * self.branching + 1 {
            return Small::Unknown;
        }
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let (f, win) = (self.space.scheme().len(), self.space.scheme().win().get());
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        let mut exact: Option<(u32, CodeIndex)> = None;
        let mut other_bound =
            if self.config.pool == Pool::All { (m as u32).saturating_add(self.outside[m]) } else { INFINITE };
        for &g in set {
            counts[..f].fill(0);
            self.space.count_parts(g, set, &mut counts);
            counts[win] = 0;
            let mut cost = m as u32;
            let mut small = true;
            let mut splits = true;
            for &c in &counts[..f] {
                if c > 0 {
                    small &= c <= 2;
                    splits &= c as usize != m;
                    cost = cost.saturating_add(self.bound(c as usize, child_depth));
                }
            }
            if small {
                if exact.is_none_or(|(best, _)| cost < best) {
                    exact = Some((cost, g));
                }
            } else if splits {
                other_bound = other_bound.min(cost);
            }
        }
        match exact {
            Some((cost, g)) if cost <= other_bound => Small::Exact(cost, g),
            Some((cost, _)) => Small::Lower(cost.min(other_bound)),
            None => Small::Lower(other_bound),
        }
    }

    /// The guesses to try on `set`: those of the pool, one per symmetry class.
    fn pool(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Arc<Option<Vec<CodeIndex>>> {
        let space = self.space;
        let key = if history.len() <= SYMMETRY_DEPTH {
            PoolKey::History(history.iter().map(|h| h.index()).collect())
        } else {
            PoolKey::Absent(self.absent(set))
        };
        if self.config.pool == Pool::All {
            if let Some(pool) = lock(&self.pools).0.get(&key) {
                return Arc::clone(pool);
            }
        }
        let symmetry = self.symmetry(&key, history);
        let keep = |g: &CodeIndex| symmetry.as_ref().is_none_or(|sym| sym.is_canonical(&space.code(*g)));
        let pool = Arc::new(match self.config.pool {
            Pool::All if symmetry.is_none() => None,
            Pool::All => Some(space.all_indices().into_iter().filter(keep).collect()),
            Pool::Candidates => Some(set.iter().copied().filter(keep).collect()),
        });
        if self.config.pool == Pool::All {
            let mut pools = lock(&self.pools);
            let size = pool.as_ref().as_ref().map_or(1, Vec::len);
            if pools.1 + size <= POOL_CACHE_CODES {
                pools.1 += size;
                pools.0.insert(key, Arc::clone(&pool));
            }
        }
        pool
    }

    /// The colours no code of `set` contains.
    fn absent(&self, set: &[CodeIndex]) -> u64 {
        let k = self.space.game().k();
        let all = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        let present = set.iter().fold(0u64, |acc, &c| self.space.code(c).pegs().iter().fold(acc, |a, &p| a | 1 << p));
        all & !present
    }

    /// The guesses worth trying on `set`, one per symmetry class, each with its bound, in
    /// increasing bound (then candidates first, then code order), with the least bound of
    /// all. A guess whose cost is known to be its bound and equal to `known` (a lower bound
    /// of the set that depends on nothing but the set) is optimal at once: the scan stops at
    /// the first such guess in pool order.
    fn ordered_guesses(
        &self,
        set: &[CodeIndex],
        budget: u32,
        known: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Scan {
        let win = self.space.scheme().win().get();
        let m = set.len();
        let cap = self.capacity(child_depth);
        // Parts whose bound is their exact cost: 1 code (1 guess), 2 codes (3 guesses).
        let exact_size = match child_depth {
            0 => 0,
            1 => 1,
            _ => 2,
        };
        let pool = self.pool(set, history);
        let mut out = Vec::new();
        let mut least = INFINITE;
        let mut shortcut = None;
        let lower = &self.lower[..];
        if m <= self.linear && child_depth >= 2 && self.space.scheme().len() <= 32 {
            // Every part has at most `linear` codes, where `lower[c] = 2c - 1`: the bound is
            // `m + sum (2c - 1)` over the non-winning parts, `3m - parts - [guess in set]`,
            // so the set of feedbacks that occur is all a guess needs.
            let m = m as u32;
            self.scanner.for_each_mask(pool.as_ref().as_deref(), set, |g, mask| {
                let parts = mask.count_ones();
                if parts == 1 && mask >> win & 1 == 0 {
                    return true; // one part of everything: learns nothing
                }
                let in_set = mask >> win & 1;
                let bound = 3 * m - parts - in_set;
                least = least.min(bound);
                if bound >= budget {
                    return true;
                }
                if bound <= known && parts == m {
                    shortcut = Some((bound, g)); // singletons: the bound is the cost
                    return false;
                }
                out.push((bound, in_set == 0, g));
                true
            });
            if let Some((cost, g)) = shortcut {
                return Scan::Shortcut(cost, g);
            }
            return Scan::Guesses(sort_guesses(out, least), least);
        }
        // Larger sets: `3m - parts - [guess in set]` still bounds every guess's bound from
        // below (`lower[c] >= 2c - 1`), so when the budget is below `3m - 1` the feedback
        // masks sift out guesses that cannot beat it before any partition table is counted.
        let survivors = if self.space.scheme().len() <= 32 && u64::from(budget) + 1 < 3 * m as u64 {
            let m = m as u32;
            let mut kept = Vec::new();
            self.scanner.for_each_mask(pool.as_ref().as_deref(), set, |g, mask| {
                let (parts, in_set) = (mask.count_ones(), mask >> win & 1);
                if parts == 1 && in_set == 0 {
                    return true; // one part of everything: learns nothing
                }
                let floor = 3 * m - parts - in_set;
                if floor >= budget {
                    least = least.min(floor);
                } else {
                    kept.push(g);
                }
                true
            });
            Some(kept)
        } else {
            None
        };
        let pool = match &survivors {
            Some(kept) => Some(&kept[..]),
            None => pool.as_ref().as_deref(),
        };
        self.scanner.for_each_table(pool, set, |g, counts| {
            // `lower[0] = 0` and the winning part (0 or 1 code, `lower[1] = 1`) costs nothing.
            let in_set = u64::from(counts[win]);
            let mut sum = 0u64;
            let mut largest = 0;
            for &c in counts {
                sum += u64::from(lower[c as usize]);
                largest = largest.max(c);
            }
            if largest as usize == m {
                return true; // one part of everything: learns nothing
            }
            let bound = if u64::from(largest) > cap {
                INFINITE
            } else {
                (m as u64 + sum - in_set).min(u64::from(INFINITE)) as u32
            };
            least = least.min(bound);
            if bound >= budget {
                return true; // can never beat the budget
            }
            if bound <= known && largest <= exact_size {
                shortcut = Some((bound, g));
                return false;
            }
            out.push((bound, counts[win] == 0, g));
            true
        });
        if let Some((cost, g)) = shortcut {
            return Scan::Shortcut(cost, g);
        }
        Scan::Guesses(sort_guesses(out, least), least)
    }

    /// Whether some strategy settles every code of `set` within `depth` guesses: the
    /// depth-first search for a depth limit, parts largest first, guesses with the smallest
    /// largest part first.
    fn feasible(&self, set: &[CodeIndex], depth: u8, history: &[CodeIndex]) -> Result<bool, Stopped> {
        let m = set.len();
        if m == 0 {
            return Ok(true);
        }
        if depth == 0 || m as u64 > self.capacity(depth) {
            return Ok(false);
        }
        if m <= 2 {
            return Ok(m as u8 <= depth);
        }
        if let Some(known) = self.feasible.get(set, depth) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(known);
        }
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        self.check_stop(nodes)?;
        let win = self.space.scheme().win().get();
        let child_depth = depth - 1;
        let cap = self.capacity(child_depth);
        let easy = u32::from(child_depth.min(2)); // parts this small always fit
        let pool = self.pool(set, history);
        let mut guesses = Vec::new();
        let mut done = false;
        self.scanner.for_each_table(pool.as_ref().as_deref(), set, |g, counts| {
            let mut largest = 0;
            let mut bound = 0u32;
            for (f, &c) in counts.iter().enumerate() {
                if f != win && c > 0 {
                    largest = largest.max(c);
                    bound = bound.saturating_add(self.lower[c as usize]);
                }
            }
            if largest as usize == m || u64::from(largest) > cap {
                return true;
            }
            if largest <= easy {
                done = true;
                return false;
            }
            guesses.push((largest, bound, counts[win] == 0, g));
            true
        });
        if !done {
            guesses.sort_unstable();
            let mut history = history.to_vec();
            history.push(CodeIndex::from_index(0));
            'guesses: for &(_, _, _, g) in &guesses {
                *history.last_mut().expect("pushed above") = g;
                let mut parts: Vec<Vec<CodeIndex>> = self
                    .space
                    .split(g, set)
                    .into_iter()
                    .filter(|(f, p)| f.get() != win && p.len() as u32 > easy)
                    .map(|(_, p)| p)
                    .collect();
                parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
                for part in &parts {
                    if !self.feasible(part, child_depth, &history)? {
                        continue 'guesses;
                    }
                }
                done = true;
                break;
            }
        }
        self.feasible.update(set, depth, |_| Some(done));
        Ok(done)
    }

    /// The symmetry to reduce guesses with, if any.
    fn symmetry(&self, key: &PoolKey, history: &[CodeIndex]) -> Option<Symmetry> {
        let game = self.space.game();
        let (n, k) = (game.n() as usize, game.k());
        let all = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        let sym = match *key {
            PoolKey::History(_) => {
                let codes: Vec<_> = history.iter().map(|&h| self.space.code(h)).collect();
                let played = codes.iter().flat_map(|c| c.pegs().iter()).fold(0u64, |acc, &c| acc | 1 << c);
                Symmetry::fixing(n, k, &codes, true, all & !played)
            }
            PoolKey::Absent(absent) => Symmetry::fixing(n, k, &[], false, absent),
        };
        (!sym.is_trivial()).then_some(sym)
    }

    /// The tree of the optimum of `set` within `depth`, from the table's best guesses.
    fn build(&self, set: Vec<CodeIndex>, depth: u8, history: &[CodeIndex]) -> Result<Subtree, Stopped> {
        let m = set.len();
        let guess = if m <= 2 {
            set[0]
        } else if let Small::Exact(_, g) = self.small_set(&set, depth) {
            g
        } else {
            let entry = match self.lookup(&set, depth) {
                Some(e @ Entry::Exact(..)) => e,
                _ => {
                    // Not kept (e.g. resumed from a checkpoint of larger sets only): re-solve.
                    self.solve(&set, INFINITE, depth, history)?;
                    self.lookup(&set, depth).expect("BUG: a solved set is in the table")
                }
            };
            match entry {
                Entry::Exact(_, g) => g,
                Entry::Lower(_) => unreachable!("BUG: a feasible subtree without an exact entry"),
            }
        };
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let win = self.space.scheme().win();
        let parts = self.space.split(guess, &set);
        let mut history = history.to_vec();
        history.push(guess);
        let history = &history[..];
        let children = if m >= 64 {
            parts
                .into_par_iter()
                .map(|(fb, part)| self.child(fb, part, guess, win, child_depth, history))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            parts
                .into_iter()
                .map(|(fb, part)| self.child(fb, part, guess, win, child_depth, history))
                .collect::<Result<_, _>>()?
        };
        Ok(Subtree::Guess { guess, candidates: m as u32, children })
    }

    fn child(
        &self,
        fb: FeedbackIndex,
        part: Vec<CodeIndex>,
        guess: CodeIndex,
        win: FeedbackIndex,
        depth: u8,
        history: &[CodeIndex],
    ) -> Result<(FeedbackIndex, Subtree), Stopped> {
        if fb == win {
            Ok((fb, Subtree::Leaf(guess)))
        } else {
            Ok((fb, self.build(part, depth, history)?))
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Sorts `(bound, not a candidate, guess)` triples given in increasing guess order, all with
/// bounds from `least` on, by bound, then candidates first, then guess: a counting sort when
/// the bounds span a short range (the usual case), which keeps the guess order within a key.
fn sort_guesses(mut out: Vec<(u32, bool, CodeIndex)>, least: u32) -> Vec<(u32, CodeIndex)> {
    let top = out.iter().map(|e| e.0).max().unwrap_or(least);
    let span = (top - least) as usize;
    if span > 4096 || out.len() < 32 {
        out.sort_unstable();
        return out.into_iter().map(|(b, _, g)| (b, g)).collect();
    }
    let key = |e: &(u32, bool, CodeIndex)| 2 * (e.0 - least) as usize + usize::from(e.1);
    let mut starts = vec![0usize; 2 * span + 3];
    for e in &out {
        starts[key(e) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = vec![(0, CodeIndex::from_index(0)); out.len()];
    for e in &out {
        let slot = &mut starts[key(e)];
        sorted[*slot] = (e.0, e.2);
        *slot += 1;
    }
    sorted
}

/// `outside[m]`: the least `sum lower[p_i]` over at most `b` parts `p_i` adding up to `m`.
/// `lower` grows by a non-decreasing step, so balanced parts are best.
fn outside_bounds(lower: &[u32], b: u64) -> Vec<u32> {
    let b = b.max(1) as usize;
    (0..lower.len())
        .map(|m| {
            let (q, r) = (m / b, m % b);
            let big = if r > 0 { lower[q + 1] as u64 * r as u64 } else { 0 };
            (big + lower[q] as u64 * (b - r) as u64).min(u64::from(INFINITE - 1)) as u32
        })
        .collect()
}

/// `lower[m]` for `m = 0..=max`: fill 1 code at depth 1, `b` at depth 2, `b²` at depth 3, …
fn perfect_bounds(max: usize, b: u64) -> Vec<u32> {
    let mut lower = Vec::with_capacity(max + 1);
    let (mut total, mut depth, mut level_cap, mut in_level) = (0u64, 1u64, 1u64, 0u64);
    lower.push(0);
    for _ in 1..=max {
        if in_level == level_cap {
            depth += 1;
            level_cap = level_cap.saturating_mul(b);
            in_level = 0;
        }
        in_level += 1;
        total += depth;
        lower.push(total.min(u64::from(INFINITE - 1)) as u32);
    }
    lower
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_bounds_fill_levels() {
        // b = 2: depths 1, 2, 2, 3, 3, 3, 3, 4.
        assert_eq!(perfect_bounds(8, 2), vec![0, 1, 3, 5, 8, 11, 14, 17, 21]);
        assert_eq!(perfect_bounds(2, 13)[2], 3);
    }
}
