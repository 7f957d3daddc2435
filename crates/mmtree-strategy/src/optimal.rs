//! Exact optimal strategies by branch and bound over candidate sets.
//!
//! The cost of a candidate set `K` under a strategy is the total number of guesses over its
//! secrets, counted from the next guess on. [`OptimalSearch`] finds the strategy of least
//! cost, optionally with no secret needing more than `D` guesses, and builds its tree.
//!
//! How the search stays exact and fast:
//!
//! * **Admissible bound.** With `b` non-winning feedbacks, at most 1 secret is found by the
//!   next guess, at most `b` by the one after, `b²` by the third, … Filling this perfect tree
//!   level by level gives a lower bound on the cost of any set of `m` codes, and `m` above the
//!   capacity of `D` levels proves a depth limit infeasible.
//! * **Ordering and cut-offs.** Each guess is bounded by `|K|` plus its parts' bounds; guesses
//!   are tried in increasing bound, and the loop stops at the first whose bound reaches the best
//!   cost found. A guess's parts are solved smallest first, each with the budget left, and the
//!   guess is abandoned as soon as the running sum reaches the best.
//! * **Symmetry.** Near the root, only one guess per class of the (position, colour)
//!   permutations that fix the guesses played is tried; deeper, colours absent from every
//!   candidate are interchangeable. Guesses with identical partitions are tried once.
//! * **Transposition table** keyed by the candidate set and depth limit, holding exact costs
//!   with their best guess, or lower bounds proven by failed searches.
//! * **rayon** over the guesses of large nodes near the root, with a shared best so that the
//!   result (cost and guess: the first in the search order) does not depend on threads.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use mmtree_core::{CodeIndex, CodeSpace, Counts, FeedbackIndex, GameSpec, StrategyTree, Subtree, MAX_FEEDBACKS};

use crate::perm::Symmetry;
use crate::rule::Pool;

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

#[derive(Clone, PartialEq, Eq)]
struct Key {
    hash: u64,
    depth: u8,
    set: Box<[u32]>,
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
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

type Shard = Mutex<HashMap<Key, Entry, BuildHasherDefault<PassThrough>>>;

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
    /// `capacities[d]`: most secrets `d` guesses can settle.
    capacities: Vec<u64>,
    table: Vec<Shard>,
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
            capacities,
            table: (0..SHARDS).map(|_| Mutex::new(HashMap::default())).collect(),
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
            table_entries: self.table.iter().map(|s| lock(s).len() as u64).sum(),
        }
    }

    fn describe(&self) -> String {
        format!("{} pool {}", self.space.game(), self.config.pool.name())
    }

    /// The finished subtrees (candidate sets of at least a few codes with exact costs).
    pub fn checkpoint(&self) -> Checkpoint {
        let mut entries = Vec::new();
        for shard in &self.table {
            for (key, entry) in lock(shard).iter() {
                if let Entry::Exact(cost, guess) = *entry {
                    if key.set.len() >= CHECKPOINT_MIN {
                        entries.push(CheckpointEntry {
                            depth: key.depth,
                            cost,
                            guess: guess.index(),
                            set: key.set.to_vec(),
                        });
                    }
                }
            }
        }
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
                    if self.solve(&all, INFINITE, d, &[]).map_err(|_| self.stopped_error())?.is_some() {
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

    fn shard(&self, hash: u64) -> &Shard {
        &self.table[(hash as usize) & (SHARDS - 1)]
    }

    fn lookup(&self, set: &[CodeIndex], depth: u8) -> Option<Entry> {
        let hash = set_hash(set, depth);
        let key = Key { hash, depth, set: set.iter().map(|c| c.index()).collect() };
        lock(self.shard(hash)).get(&key).copied()
    }

    fn store(&self, set: &[CodeIndex], depth: u8, entry: Entry) {
        let hash = set_hash(set, depth);
        let key = Key { hash, depth, set: set.iter().map(|c| c.index()).collect() };
        let mut shard = lock(self.shard(hash));
        match (shard.get(&key), entry) {
            (Some(Entry::Exact(..)), _) => {}
            (Some(Entry::Lower(old)), Entry::Lower(new)) if *old >= new => {}
            _ => {
                shard.insert(key, entry);
            }
        }
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
        let m = set.len();
        let found = |cost: u32| if cost < budget { Some(cost) } else { None };
        match m {
            0 => return Ok(Some(0)),
            1 if depth >= 1 => return Ok(found(1)),
            2 if depth >= 2 => return Ok(found(3)),
            _ => {}
        }
        let mut node_bound = self.bound(m, depth);
        if node_bound >= budget {
            return Ok(None);
        }
        if let Some((cost, _)) = self.small_set_optimum(set, depth) {
            return Ok(found(cost));
        }
        match self.lookup(set, depth) {
            Some(Entry::Exact(cost, _)) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(found(cost));
            }
            Some(Entry::Lower(lb)) => {
                if lb >= budget {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(None);
                }
                node_bound = node_bound.max(lb);
            }
            None => {}
        }
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        self.check_stop(nodes)?;

        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let guesses = self.ordered_guesses(set, budget, child_depth, history);
        let parallel = history.len() < PARALLEL_DEPTH && m >= PARALLEL_MIN && guesses.len() > 1;
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
                self.store(set, depth, Entry::Lower(budget.max(node_bound)));
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
        // Guesses with identical partitions are the same move: try only the first.
        let mut tried: Vec<(u64, CodeIndex)> = Vec::new();
        let space = self.space;
        for (i, &(bound, guess)) in guesses.iter().enumerate() {
            if bound >= best {
                self.cutoffs.fetch_add((guesses.len() - i) as u64, Ordering::Relaxed);
                break;
            }
            let hash = set.iter().fold(0u64, |h, &c| mix(h, space.feedback(guess, c).get() as u64));
            if tried
                .iter()
                .any(|&(th, h)| th == hash && set.iter().all(|&c| space.feedback(guess, c) == space.feedback(h, c)))
            {
                continue;
            }
            tried.push((hash, guess));
            if let Some(cost) = self.evaluate(set, guess, bound, best, child_depth, history)? {
                best = cost;
                best_guess = Some(guess);
            }
        }
        Ok(best_guess.map(|g| (best, g)))
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
        let mut history = history.to_vec();
        history.push(guess);
        let mut running = bound;
        for part in &parts {
            let part_bound = self.bound(part.len(), child_depth);
            let child_budget = limit - (running - part_bound);
            match self.solve(part, child_budget, child_depth, &history)? {
                Some(cost) => running = running - part_bound + cost,
                None => {
                    self.cutoffs.fetch_add(1, Ordering::Relaxed);
                    return Ok(None);
                }
            }
        }
        Ok(Some(running))
    }

    /// An optimal guess of a small set proven from its candidates alone (`|K|²` scorings
    /// instead of a scan of the whole pool), or `None`.
    ///
    /// A candidate whose non-winning parts all have at most 2 codes has the exact cost `|K|`
    /// plus 1 per single and 3 per pair. Let `C` be the least such cost. Every other candidate
    /// costs at least its bound, and every non-candidate at least `2|K|` (each code needs this
    /// guess and one more). If `C` is at most all of these, it is optimal; the first candidate
    /// in code order reaching it is played.
    fn small_set_optimum(&self, set: &[CodeIndex], depth: u8) -> Option<(u32, CodeIndex)> {
        let m = set.len();
        // Parts of 2 need 2 more guesses, singles 1; larger sets never qualify.
        if depth < 3 || (m as u64) > 2 * self.branching + 1 {
            return None;
        }
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let (f, win) = (self.space.scheme().len(), self.space.scheme().win().get());
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        let mut exact: Option<(u32, CodeIndex)> = None;
        let mut other_bound = if self.config.pool == Pool::All { 2 * m as u32 } else { INFINITE };
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
        exact.filter(|&(cost, _)| cost <= other_bound)
    }

    /// The guesses worth trying on `set`, one per symmetry class and per distinct partition,
    /// each with its bound, in increasing bound (then code order).
    fn ordered_guesses(
        &self,
        set: &[CodeIndex],
        budget: u32,
        child_depth: u8,
        history: &[CodeIndex],
    ) -> Vec<(u32, CodeIndex)> {
        let space = self.space;
        let f = space.scheme().len();
        let win = space.scheme().win().get();
        let m = set.len();
        let symmetry = self.symmetry(set, history);
        let pool: Vec<CodeIndex> = match self.config.pool {
            Pool::All => space.all_indices(),
            Pool::Candidates => set.to_vec(),
        };
        let mut out = Vec::new();
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        for g in pool {
            if let Some(sym) = &symmetry {
                if !sym.is_canonical(&space.code(g)) {
                    continue;
                }
            }
            counts[..f].fill(0);
            space.count_parts(g, set, &mut counts);
            counts[win] = 0;
            let mut bound = m as u32;
            let mut splits = true;
            for &c in &counts[..f] {
                if c > 0 {
                    splits &= c as usize != m; // one part of everything: learns nothing
                    bound = bound.saturating_add(self.bound(c as usize, child_depth));
                }
            }
            if !splits || bound >= budget {
                continue; // never part of an optimal strategy, or can never beat the budget
            }
            out.push((bound, g));
        }
        out.sort_unstable();
        out
    }

    /// The symmetry to reduce guesses with, if any.
    fn symmetry(&self, set: &[CodeIndex], history: &[CodeIndex]) -> Option<Symmetry> {
        let game = self.space.game();
        let (n, k) = (game.n() as usize, game.k());
        let all = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        let sym = if history.len() <= SYMMETRY_DEPTH {
            let codes: Vec<_> = history.iter().map(|&h| self.space.code(h)).collect();
            let played = codes.iter().flat_map(|c| c.pegs().iter()).fold(0u64, |acc, &c| acc | 1 << c);
            Symmetry::fixing(n, k, &codes, true, all & !played)
        } else {
            let present =
                set.iter().flat_map(|&c| self.space.code(c).pegs().to_vec()).fold(0u64, |acc, c| acc | 1 << c);
            Symmetry::fixing(n, k, &[], false, all & !present)
        };
        (!sym.is_trivial()).then_some(sym)
    }

    /// The tree of the optimum of `set` within `depth`, from the table's best guesses.
    fn build(&self, set: Vec<CodeIndex>, depth: u8, history: &[CodeIndex]) -> Result<Subtree, Stopped> {
        let m = set.len();
        let guess = if m <= 2 {
            set[0]
        } else if let Some((_, g)) = self.small_set_optimum(&set, depth) {
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
