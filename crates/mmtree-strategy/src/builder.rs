//! Choosing guesses and building the complete strategy tree for every secret at once.

use std::cmp::Ordering;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Arc;

use rayon::prelude::*;

use mmtree_core::{
    canonical_codes, CodeBlocks, CodeIndex, CodeSpace, Counts, Hopeless, Probe, ProbeSet, StrategyTree, Subtree,
    Symmetry, BLOCK, MAX_FEEDBACKS, MAX_PROBES,
};

use crate::rule::{GuessRule, Pool, Ties};
use crate::valuation::{xlogx, Valuation};

/// Nodes whose scan (`pool x candidates`) is at least this many scorings split the pool
/// across threads.
const PARALLEL_SCAN_WORK: usize = 1 << 18;
/// Code spaces from this size on transpose the table rows of small candidate sets.
const TRANSPOSE_MIN_CODES: usize = 4096;

thread_local! {
    /// Per-thread buffer for the transposed feedbacks of a small candidate set.
    static TRANSPOSED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Candidate sets up to this size are scanned 32 guesses at a time
/// ([`Solver::choose_vertical`]).
const VERTICAL_MAX: usize = 128;

/// Candidate sets up to this size (beyond [`VERTICAL_MAX`]) count the partitions of 32
/// guesses at once ([`Solver::choose_batched`]).
const BATCHED_MAX: usize = 1 << 15;

/// `(r + 1) log2 (r + 1) - r log2 r`: what a part's member of rank `r` adds to `sum s log2 s`.
static RANK_XLOGX: std::sync::LazyLock<[f64; MAX_PROBES + 1]> = std::sync::LazyLock::new(|| {
    let xlogx = |x: f64| if x < 2.0 { 0.0 } else { x * x.log2() };
    std::array::from_fn(|r| xlogx(r as f64 + 1.0) - xlogx(r as f64))
});

/// Entropy keys this close may be a tie that floats cannot settle (looser than
/// [`Valuation::compare`]'s own margin, so no tie slips past the filters).
fn near(key: f64) -> f64 {
    1e-6 * (1.0 + key.abs())
}

/// `EVEN[q][r]`: the least `sum s log2 s` of `r <= MAX_PROBES` codes in `q` parts (split as
/// evenly as possible, `s log2 s` being convex).
static EVEN: std::sync::LazyLock<Vec<[f64; MAX_PROBES + 1]>> = std::sync::LazyLock::new(|| {
    (0..=MAX_FEEDBACKS)
        .map(|q| {
            std::array::from_fn(|r| match q {
                0 => 0.0,
                _ => (r % q) as f64 * xlogx((r / q) as u32 + 1) + (q - r % q) as f64 * xlogx((r / q) as u32),
            })
        })
        .collect()
});

/// The least `sum s log2 s` of `m` codes in `parts` parts, the largest of size `largest`: the
/// largest part plus the rest split evenly.
#[inline]
fn entropy_floor(even: &[[f64; MAX_PROBES + 1]], m: usize, parts: usize, largest: usize) -> f64 {
    let below = even[parts.saturating_sub(1)][m - largest];
    even[1][largest] + below
}

/// The multiset of part sizes as in [`CodeBlocks::for_each_partition`]'s ranks:
/// `shape[r]` = number of parts larger than `r`.
fn rank_shape(counts: &[u32]) -> [u8; MAX_PROBES + 1] {
    let mut shape = [0u8; MAX_PROBES + 1];
    for &s in counts {
        for slot in &mut shape[..(s as usize).min(MAX_PROBES + 1)] {
            *slot += 1;
        }
    }
    shape
}

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
    symmetry: bool,
    /// Canonical pools by free colour classes (see [`Solver::canonical_pool`]): the same few
    /// classes recur at thousands of nodes.
    pools: std::sync::Mutex<PoolCache>,
}

/// Reduced pools already laid out, within a byte budget.
#[derive(Default)]
struct PoolCache {
    pools: std::collections::HashMap<[u64; 2], Option<Arc<ReducedPool>>>,
    bytes: usize,
}

/// Part of the pool laid out in blocks, with the code index of each lane.
struct ReducedPool {
    blocks: CodeBlocks,
    indices: Vec<u32>,
}

/// Most bytes the reduced pools of one solver keep.
const POOL_CACHE_BYTES: usize = 256 << 20;

/// The best guess found in a scan: its position in priority order, key and partition table.
#[derive(Clone)]
struct Candidate {
    position: usize,
    guess: CodeIndex,
    key: f64,
    counts: Counts,
}

impl<'s> Solver<'s> {
    /// A solver for one rule on one code space.
    pub fn new(space: &'s CodeSpace, rule: GuessRule) -> Solver<'s> {
        Solver { space, rule, progress: None, symmetry: true, pools: Default::default() }
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

    /// The tree for every secret of the game.
    pub fn build(&self) -> StrategyTree {
        let symmetry = self.root_symmetry();
        let root = self.subtree(self.space.all_indices(), self.rule.first_guess, &symmetry);
        StrategyTree::from_subtree(*self.space.game(), root)
    }

    fn root_symmetry(&self) -> Symmetry {
        if self.symmetry {
            Symmetry::root(self.space.game())
        } else {
            Symmetry::trivial(self.space.game())
        }
    }

    fn subtree(&self, candidates: Vec<CodeIndex>, fixed: Option<CodeIndex>, symmetry: &Symmetry) -> Subtree {
        let guess = fixed.unwrap_or_else(|| self.choose_with(&candidates, symmetry));
        let parts = self.space.split(guess, &candidates);
        let m = candidates.len();
        drop(candidates);
        assert!(
            parts.len() > 1 || parts[0].0 == self.space.scheme().win(),
            "BUG: guess {guess:?} does not split a set of {m} candidates"
        );
        let win = self.space.scheme().win();
        let symmetry = if self.symmetry { symmetry.after(&self.space.code(guess)) } else { symmetry.clone() };
        let child = |(feedback, part): (mmtree_core::FeedbackIndex, Vec<CodeIndex>)| {
            if feedback == win {
                if let Some(report) = self.progress {
                    report(1);
                }
                (feedback, Subtree::Leaf(guess))
            } else {
                (feedback, self.subtree(part, None, &symmetry))
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
    ///
    /// Without the history, only colours absent from every candidate are treated as
    /// interchangeable; [`Solver::choose_after`] uses the history's symmetries too.
    pub fn choose(&self, candidates: &[CodeIndex]) -> CodeIndex {
        self.choose_with(candidates, &Symmetry::trivial(self.space.game()))
    }

    /// The guess the rule plays after the guesses `history`, whose answers left `candidates`.
    pub fn choose_after(&self, history: &[CodeIndex], candidates: &[CodeIndex]) -> CodeIndex {
        let mut symmetry = self.root_symmetry();
        if self.symmetry {
            for &g in history {
                symmetry = symmetry.after(&self.space.code(g));
            }
        }
        self.choose_with(candidates, &symmetry)
    }

    fn choose_with(&self, candidates: &[CodeIndex], symmetry: &Symmetry) -> CodeIndex {
        assert!(!candidates.is_empty(), "BUG: choose on an empty candidate set");
        if let Some(guess) = crate::simple::special_choice(self.space, &self.rule, candidates) {
            return guess;
        }
        if candidates.len() == 1 {
            return candidates[0];
        }
        let absent = self.absent_colours(candidates);
        let filter = Filter {
            symmetry,
            absent,
            largest: self.rule.ties == Ties::Largest,
            trivial: absent == 0 && symmetry.is_trivial(),
        };
        let ideal = ideal_partition(candidates.len(), self.space.scheme().len());
        let pool_len = match self.rule.pool {
            Pool::All => self.space.len(),
            Pool::Candidates => candidates.len(),
        };
        let m = candidates.len();
        if self.rule.pool == Pool::All && m <= VERTICAL_MAX {
            return self.choose_vertical(candidates, &ideal, &filter);
        }
        if self.rule.pool == Pool::All && m <= BATCHED_MAX {
            return self.choose_batched(candidates, &ideal, &filter);
        }
        let sparse = m <= 2 * self.space.scheme().len();
        let parallel = pool_len * m >= PARALLEL_SCAN_WORK;
        if sparse && pool_len > m && self.space.len() >= TRANSPOSE_MIN_CODES {
            // The first m guesses in priority order (the candidates, when preferred) often
            // include an ideal split; only if not is the transposition worth its cost.
            let (best, reached) =
                self.scan(self.priority_order(candidates).take(m), 0, candidates, &ideal, &filter, Kernel::Space);
            if reached {
                return best.expect("an ideal guess was found").guess;
            }
        }
        // Big sets without a table are scored 32 candidates at a time.
        let node_blocks = (!sparse && !self.space.has_table()).then(|| {
            let codes: Vec<_> = candidates.iter().map(|&c| self.space.code(c)).collect();
            CodeBlocks::new(self.space.game(), &codes)
        });
        let best = if parallel {
            let mut columns = Vec::new();
            let columns = (sparse && self.transpose(candidates, &mut columns)).then_some(&columns[..]);
            let kernel = match (columns, &node_blocks) {
                (Some(columns), _) => Kernel::Columns(columns),
                (None, Some(blocks)) => Kernel::Blocks(blocks),
                (None, None) => Kernel::Space,
            };
            let order: Vec<CodeIndex> = self.priority_order(candidates).collect();
            let chunk = (order.len() / (rayon::current_num_threads() * 16)).max(64);
            self.scan_chunks(order.len().div_ceil(chunk), |i| {
                let guesses = order[i * chunk..((i + 1) * chunk).min(order.len())].iter().copied();
                self.scan(guesses, i * chunk, candidates, &ideal, &filter, kernel)
            })
        } else if sparse {
            // No rayon inside a sequential scan, so the per-thread buffer cannot be re-entered.
            TRANSPOSED.with_borrow_mut(|columns| {
                let kernel = if self.transpose(candidates, columns) { Kernel::Columns(columns) } else { Kernel::Space };
                self.scan(self.priority_order(candidates), 0, candidates, &ideal, &filter, kernel).0
            })
        } else {
            let kernel = node_blocks.as_ref().map_or(Kernel::Space, Kernel::Blocks);
            self.scan(self.priority_order(candidates), 0, candidates, &ideal, &filter, kernel).0
        };
        best.expect("BUG: a non-empty pool yields a best guess").guess
    }

    /// [`Solver::choose_with`] for small candidate sets and the whole pool: 32 guesses at a
    /// time, each block's partitions read off pairwise feedback equalities
    /// ([`CodeBlocks::partition_stats`]). Only guesses whose block value may beat the best
    /// are counted again one by one and compared exactly, so the choice is the plain rule's.
    /// Symmetry is not needed for the result (a class's smallest member comes first in tie
    /// order, so no other member can be strictly better) and costs more than it saves here.
    fn choose_vertical(&self, candidates: &[CodeIndex], ideal: &Counts, filter: &Filter) -> CodeIndex {
        let m = candidates.len();
        let (mut best, reached) = if self.rule.prefer_candidates {
            self.scan(self.priority_order(candidates).take(m), 0, candidates, ideal, filter, Kernel::Space)
        } else {
            (None, false)
        };
        if reached {
            return best.expect("an ideal guess was found").guess;
        }
        let probes =
            ProbeSet::new(self.space.game(), candidates.iter().map(|&c| Probe::new(&self.space.code(c))).collect());
        let reduced = self.canonical_pool(filter);
        let pool = match &reduced {
            Some(reduced) => GuessBlocks { blocks: &reduced.blocks, indices: Some(&reduced.indices) },
            None => GuessBlocks { blocks: self.space.blocks(), indices: None },
        };
        let count = pool.blocks.blocks();
        let parallel = pool.blocks.len() * m >= PARALLEL_SCAN_WORK;
        let winner = if parallel {
            let chunk = (count / (rayon::current_num_threads() * 16)).max(4);
            self.scan_chunks(count.div_ceil(chunk), |i| {
                let range = i * chunk..((i + 1) * chunk).min(count);
                self.scan_blocks(&pool, range, &probes, candidates, ideal, best.clone())
            })
        } else {
            self.scan_blocks(&pool, 0..count, &probes, candidates, ideal, best.take()).0
        };
        winner.or(best).expect("BUG: a non-empty pool yields a best guess").guess
    }

    /// Runs `scan(i)` for the chunks `0..chunks` of a scan in parallel and reduces their
    /// winners by (value, priority position), so the result does not depend on the threads.
    /// Chunks after one that reached the ideal partition are skipped.
    fn scan_chunks(
        &self,
        chunks: usize,
        scan: impl Fn(usize) -> (Option<Candidate>, bool) + Sync,
    ) -> Option<Candidate> {
        let ideal_chunk = AtomicUsize::new(usize::MAX);
        (0..chunks)
            .into_par_iter()
            .filter_map(|i| {
                if ideal_chunk.load(AtomicOrdering::Relaxed) < i {
                    return None;
                }
                let (best, reached) = scan(i);
                if reached {
                    ideal_chunk.fetch_min(i, AtomicOrdering::Relaxed);
                }
                best
            })
            .reduce_with(|a, b| better(self.rule.valuation, a, b))
    }

    /// [`Solver::choose_with`] for big candidate sets and the whole pool: the guesses of the
    /// scan (one per symmetry class, in priority order) go in batches of 32 whose partition
    /// tables are counted at once ([`CodeBlocks::histograms`]).
    fn choose_batched(&self, candidates: &[CodeIndex], ideal: &Counts, filter: &Filter) -> CodeIndex {
        let m = candidates.len();
        let probes =
            ProbeSet::new(self.space.game(), candidates.iter().map(|&c| Probe::new(&self.space.code(c))).collect());
        let raws = self.space.raw_keys();
        let order: Vec<CodeIndex> = match self.canonical_pool(filter) {
            // The candidates first when preferred, then the reduced pool in tie order (a
            // candidate met again there cannot be strictly better than itself).
            Some(pool) => {
                let first = if self.rule.prefer_candidates { candidates } else { &[] };
                let rest = pool.indices.iter().map(|&i| CodeIndex::from_index(i));
                let ordered: Box<dyn Iterator<Item = CodeIndex>> = if filter.largest {
                    Box::new(first.iter().rev().copied().chain(rest.rev()))
                } else {
                    Box::new(first.iter().copied().chain(rest))
                };
                ordered.collect()
            }
            None => self.priority_order(candidates).collect(),
        };
        let best = if order.len() * m >= PARALLEL_SCAN_WORK {
            let chunk = (order.len() / (rayon::current_num_threads() * 16)).max(4 * BLOCK);
            self.scan_chunks(order.len().div_ceil(chunk), |i| {
                let guesses = &order[i * chunk..((i + 1) * chunk).min(order.len())];
                self.scan_batched(guesses, i * chunk, &probes, &raws, ideal, filter)
            })
        } else {
            self.scan_batched(&order, 0, &probes, &raws, ideal, filter).0
        };
        best.expect("BUG: a non-empty pool yields a best guess").guess
    }

    /// Scans `guesses` (positions `offset..` of the priority order) 32 at a time; returns the
    /// first best guess and whether it reached the ideal partition.
    fn scan_batched(
        &self,
        guesses: &[CodeIndex],
        offset: usize,
        probes: &ProbeSet,
        raws: &[u8],
        ideal: &Counts,
        filter: &Filter,
    ) -> (Option<Candidate>, bool) {
        let valuation = self.rule.valuation;
        let f = raws.len();
        let ideal_key = valuation.key(&ideal[..f]);
        let mut best: Option<Candidate> = None;
        let mut hist = vec![[0u16; 256]; BLOCK];
        let hist: &mut [[u16; 256]; BLOCK] = hist.as_mut_slice().try_into().expect("BLOCK rows");
        let mut blocks = CodeBlocks::new(self.space.game(), &[]);
        let mut batch = Vec::with_capacity(BLOCK);
        let mut codes = Vec::with_capacity(BLOCK);
        let mut scanned = guesses.iter().enumerate().filter(|(_, g)| {
            filter.trivial || filter.symmetry.is_representative(&self.space.code(**g), filter.absent, filter.largest)
        });
        loop {
            batch.clear();
            codes.clear();
            for (i, &g) in scanned.by_ref().take(BLOCK) {
                batch.push((offset + i, g));
                codes.push(self.space.code(g));
            }
            if batch.is_empty() {
                return (best, false);
            }
            blocks.refill(&codes);
            blocks.histograms(0, probes, hist);
            let mut reached = false;
            for (h, &(position, g)) in hist.iter_mut().zip(&batch) {
                let mut counts: Counts = [0; MAX_FEEDBACKS];
                for (c, &raw) in counts.iter_mut().zip(raws) {
                    *c = u32::from(std::mem::take(&mut h[raw as usize]));
                }
                if reached {
                    continue; // only clearing the histograms
                }
                let key = valuation.key(&counts[..f]);
                let improves = match &best {
                    None => true,
                    Some(b) => compare(valuation, key, &counts[..f], b.key, &b.counts[..f]) == Ordering::Less,
                };
                if improves {
                    best = Some(Candidate { position, guess: g, key, counts });
                    reached = compare(valuation, key, &counts[..f], ideal_key, &ideal[..f]) != Ordering::Greater;
                }
            }
            if reached {
                return (best, true);
            }
        }
    }

    /// The pool cut down to codes whose interchangeable colours come in canonical order
    /// ([`canonical_codes`]), laid out in blocks with their indices, when that drops at
    /// least a quarter of it.
    fn canonical_pool(&self, filter: &Filter) -> Option<Arc<ReducedPool>> {
        let free = filter.symmetry.free_colours(filter.absent);
        if free.iter().all(|class| class.count_ones() <= 1) {
            return None;
        }
        {
            let cache = self.pools.lock().expect("no panics while locked");
            if let Some(pool) = cache.pools.get(&free) {
                return pool.clone();
            }
            if cache.bytes >= POOL_CACHE_BYTES {
                return None;
            }
        }
        let mut codes = Vec::new();
        let mut indices = Vec::new();
        canonical_codes(self.space.game(), free, filter.largest, |c, i| {
            codes.push(*c);
            indices.push(i);
        });
        let pool = (codes.len() * 4 <= self.space.len() * 3)
            .then(|| Arc::new(ReducedPool { blocks: CodeBlocks::new(self.space.game(), &codes), indices }));
        let mut cache = self.pools.lock().expect("no panics while locked");
        let bytes = pool.as_ref().map_or(0, |p| p.blocks.bytes() + 4 * p.indices.len());
        if cache.bytes + bytes <= POOL_CACHE_BYTES {
            cache.bytes += bytes;
            cache.pools.insert(free, pool.clone());
        }
        pool
    }

    /// Scores the pool's blocks at positions `range` of tie order against `probes` and folds
    /// their guesses into `best`; returns the best and whether it reached the ideal partition.
    fn scan_blocks(
        &self,
        pool: &GuessBlocks,
        range: std::ops::Range<usize>,
        probes: &ProbeSet,
        candidates: &[CodeIndex],
        ideal: &Counts,
        mut best: Option<Candidate>,
    ) -> (Option<Candidate>, bool) {
        let valuation = self.rule.valuation;
        let f = self.space.scheme().len();
        let m = candidates.len();
        let ideal_key = valuation.key(&ideal[..f]);
        let blocks = pool.blocks;
        let count = blocks.blocks();
        let entropy = valuation == Valuation::Entropy;
        let largest = self.rule.ties == Ties::Largest;
        let order = range.map(|i| if largest { count - 1 - i } else { i });
        let mut reached = false;
        // For entropy: how many parts of the best exceed each size (see `rank_shape`).
        let even = &EVEN[..];
        let mut best_shape = best.as_ref().map_or([0; MAX_PROBES + 1], |b| rank_shape(&b.counts[..f]));
        let hopeless = |best: &Option<Candidate>| match best {
            None => Hopeless::Never,
            Some(b) => match valuation {
                Valuation::Minimax => Hopeless::Largest(b.key as u8),
                Valuation::ExpectedSize => Hopeless::SumSquares(b.key as u32),
                Valuation::MostParts => Hopeless::Parts((-b.key) as u8),
                Valuation::Entropy => Hopeless::Never,
            },
        };
        blocks.for_each_partition(order, probes, entropy, hopeless(&best), |b, stats, ranks| {
            let valid = blocks.block_len(b);
            // Lanes that may beat the best, found with integer compares the compiler
            // vectorises; each is checked again against the best as it improves.
            let mut lanes = u32::MAX >> (BLOCK - valid);
            if let Some(best) = &best {
                let beats = |values: &[u8; BLOCK], cut: u8, below: bool| {
                    let mut mask = 0u32;
                    for (l, &v) in values.iter().enumerate() {
                        mask |= u32::from(if below { v < cut } else { v > cut }) << l;
                    }
                    mask
                };
                lanes &= match valuation {
                    Valuation::Minimax => beats(&stats.largest, best.key as u8, true),
                    Valuation::MostParts => beats(&stats.parts, (-best.key) as u8, false),
                    Valuation::ExpectedSize => {
                        let cut = best.key as u32;
                        let mut mask = 0u32;
                        for (l, &v) in stats.sum_squares.iter().enumerate() {
                            mask |= u32::from(v < cut) << l;
                        }
                        mask
                    }
                    Valuation::Entropy => u32::MAX,
                };
            }
            while lanes != 0 {
                let lane = if largest { 31 - lanes.leading_zeros() as usize } else { lanes.trailing_zeros() as usize };
                lanes &= !(1 << lane);
                let key = match valuation {
                    Valuation::Minimax => f64::from(stats.largest[lane]),
                    Valuation::ExpectedSize => f64::from(stats.sum_squares[lane]),
                    Valuation::MostParts => -f64::from(stats.parts[lane]),
                    Valuation::Entropy => {
                        let floor = entropy_floor(even, m, stats.parts[lane].into(), stats.largest[lane].into());
                        if best.as_ref().is_some_and(|b| floor > b.key + near(b.key)) {
                            continue;
                        }
                        ranks.iter().map(|r| RANK_XLOGX[r[lane] as usize]).sum()
                    }
                };
                let promising = match &best {
                    None => true,
                    Some(best) if entropy => key <= best.key + near(best.key),
                    Some(best) => key < best.key,
                };
                if !promising {
                    continue;
                }
                if entropy && best.as_ref().is_some_and(|b| (key - b.key).abs() <= near(b.key)) {
                    // A near tie; the same part sizes as the best make it an exact one.
                    let mut shape = [0u8; MAX_PROBES + 1];
                    for r in ranks {
                        shape[r[lane] as usize] += 1;
                    }
                    if shape == best_shape {
                        continue;
                    }
                }
                let g = CodeIndex::from_index(match pool.indices {
                    Some(indices) => indices[b * BLOCK + lane],
                    None => (b * BLOCK + lane) as u32,
                });
                let mut counts: Counts = [0; MAX_FEEDBACKS];
                self.space.count_parts(g, candidates, &mut counts);
                let key = valuation.key(&counts[..f]);
                let improves = match &best {
                    None => true,
                    Some(b) => compare(valuation, key, &counts[..f], b.key, &b.counts[..f]) == Ordering::Less,
                };
                if improves {
                    let rank = if largest { self.space.len() - 1 - g.get() } else { g.get() };
                    best_shape = rank_shape(&counts[..f]);
                    best = Some(Candidate { position: m + rank, guess: g, key, counts });
                    if compare(valuation, key, &counts[..f], ideal_key, &ideal[..f]) != Ordering::Greater {
                        reached = true;
                        return None;
                    }
                }
            }
            Some(hopeless(&best))
        });
        (best, reached)
    }

    /// Scans `guesses` (positions `offset..` of the priority order); returns the first best
    /// guess and whether it reached the ideal partition. `kernel` says where the feedbacks come from.
    fn scan(
        &self,
        guesses: impl Iterator<Item = CodeIndex>,
        offset: usize,
        candidates: &[CodeIndex],
        ideal: &Counts,
        filter: &Filter,
        kernel: Kernel,
    ) -> (Option<Candidate>, bool) {
        let valuation = self.rule.valuation;
        let f = self.space.scheme().len();
        let ideal_key = valuation.key(&ideal[..f]);
        // Small sets touch few feedbacks: count and value only those, and reset only those.
        let sparse = candidates.len() <= 2 * f;
        let m = candidates.len();
        let mut touched = [0u8; MAX_FEEDBACKS];
        let mut best: Option<Candidate> = None;
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        for (i, g) in guesses.enumerate() {
            if !filter.trivial && !filter.symmetry.is_representative(&self.space.code(g), filter.absent, filter.largest)
            {
                continue;
            }
            if !sparse {
                counts[..f].fill(0);
            }
            let mut parts = 0;
            // Running value of the partial count; every valuation's is monotone as candidates
            // are added, so once it cannot end strictly better than the best, stop counting.
            // (Entropy's float running sum costs more than it saves: no cut-off there.)
            let cutoff = best.as_ref().map(|b| b.key).filter(|_| valuation != Valuation::Entropy);
            let mut running = 0.0f64;
            let mut seen = 0usize;
            let mut visit = |x: usize| -> bool {
                let c = counts[x];
                if c == 0 {
                    touched[parts] = x as u8;
                    parts += 1;
                }
                counts[x] = c + 1;
                seen += 1;
                let Some(cut) = cutoff else { return true };
                match valuation {
                    Valuation::Minimax => f64::from(c + 1) < cut,
                    Valuation::ExpectedSize => {
                        running += f64::from(2 * c + 1);
                        running < cut
                    }
                    Valuation::Entropy => true,
                    Valuation::MostParts => -((parts + (m - seen)) as f64) < cut,
                }
            };
            let complete = match (kernel, cutoff) {
                (Kernel::Columns(columns), _) => {
                    columns[g.get() * m..(g.get() + 1) * m].iter().all(|&x| visit(x as usize))
                }
                (Kernel::Blocks(blocks), _) => self.count_blocked(g, blocks, cutoff, &mut counts),
                (Kernel::Space, Some(_)) => self.space.try_for_each_feedback(g, candidates, &mut visit),
                (Kernel::Space, None) => {
                    self.space.for_each_feedback(g, candidates, |x| {
                        visit(x);
                    });
                    true
                }
            };
            if !complete {
                if sparse {
                    for &x in &touched[..parts] {
                        counts[x as usize] = 0;
                    }
                }
                continue;
            }
            let key =
                if sparse { valuation.key_sparse(&counts, &touched[..parts]) } else { valuation.key(&counts[..f]) };
            let improves = match &best {
                None => true,
                Some(b) => compare(valuation, key, &counts[..f], b.key, &b.counts[..f]) == Ordering::Less,
            };
            let mut reached = false;
            if improves {
                best = Some(Candidate { position: offset + i, guess: g, key, counts });
                reached = compare(valuation, key, &counts[..f], ideal_key, &ideal[..f]) != Ordering::Greater;
            }
            if sparse {
                for &x in &touched[..parts] {
                    counts[x as usize] = 0;
                }
            }
            if reached {
                return (best, true);
            }
        }
        (best, false)
    }

    /// Counts the parts of the candidates laid out in `blocks` under guess `g` into `counts`
    /// (zero on entry), giving up as soon as the running value cannot end strictly better
    /// than `cut`; returns whether it counted them all.
    #[inline]
    fn count_blocked(&self, g: CodeIndex, blocks: &CodeBlocks, cut: Option<f64>, counts: &mut Counts) -> bool {
        let probe = Probe::new(&self.space.code(g));
        let feedback = |raw: u8| self.space.feedback_of_raw(raw);
        match (self.rule.valuation, cut) {
            (Valuation::Minimax, Some(cut)) => {
                let cut = cut as u32;
                blocks.try_for_each_block(&probe, |keys, valid| {
                    keys[..valid].iter().all(|&raw| {
                        let x = feedback(raw);
                        counts[x] += 1;
                        counts[x] < cut
                    })
                })
            }
            (Valuation::ExpectedSize, Some(cut)) => {
                // Each candidate still to come adds at least 1 to the sum of squares.
                let cut = cut as u64;
                let mut bound = blocks.len() as u64;
                blocks.try_for_each_block(&probe, |keys, valid| {
                    // A local copy keeps the running bound in a register.
                    let mut running = bound;
                    let complete = keys[..valid].iter().all(|&raw| {
                        let x = feedback(raw);
                        let c = counts[x];
                        counts[x] = c + 1;
                        running += u64::from(2 * c);
                        running < cut
                    });
                    bound = running;
                    complete
                })
            }
            (Valuation::MostParts, Some(cut)) => {
                let (m, needed) = (blocks.len(), -cut as usize);
                let (mut parts, mut seen) = (0, 0);
                blocks.try_for_each_block(&probe, |keys, valid| {
                    let mut new_parts = 0;
                    for &raw in &keys[..valid] {
                        let x = feedback(raw);
                        new_parts += usize::from(counts[x] == 0);
                        counts[x] += 1;
                    }
                    parts += new_parts;
                    seen += valid;
                    parts + (m - seen) > needed
                })
            }
            _ => {
                // Two histograms, so runs of one feedback do not chain through memory.
                let mut odd: Counts = [0; MAX_FEEDBACKS];
                blocks.try_for_each_block(&probe, |keys, valid| {
                    for pair in keys[..valid].chunks_exact(2) {
                        counts[feedback(pair[0])] += 1;
                        odd[feedback(pair[1])] += 1;
                    }
                    if valid % 2 == 1 {
                        counts[feedback(keys[valid - 1])] += 1;
                    }
                    true
                });
                for (c, o) in counts.iter_mut().zip(odd) {
                    *c += o;
                }
                true
            }
        }
    }

    /// The candidates' table rows (= columns, the score being symmetric) gathered into one
    /// guess-major buffer: `columns[g * m + j]` is the feedback of guess `g` on candidate `j`.
    /// Small sets then read one contiguous slice per guess instead of missing the cache
    /// once per (guess, candidate).
    fn transpose(&self, candidates: &[CodeIndex], columns: &mut Vec<u8>) -> bool {
        let m = candidates.len();
        if self.space.len() < TRANSPOSE_MIN_CODES || !self.space.has_table() {
            return false;
        }
        columns.clear();
        columns.resize(self.space.len() * m, 0);
        for (j, &c) in candidates.iter().enumerate() {
            let row = self.space.table_row(c).expect("table present");
            for (slot, &fb) in columns[j..].iter_mut().step_by(m).zip(row) {
                *slot = fb;
            }
        }
        true
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

    /// The guesses of the pool in the order the tie rule ranks equally valued guesses:
    /// candidates first when preferred, each group in tie order. Lazy, so a scan that stops
    /// early never pays for the whole pool.
    fn priority_order<'a>(&self, candidates: &'a [CodeIndex]) -> PriorityOrder<'a> {
        let n = self.space.len() as u32;
        let (first, rest) = match self.rule.pool {
            Pool::Candidates => (candidates, None),
            Pool::All if !self.rule.prefer_candidates => (&[][..], Some((0, n))),
            Pool::All => (candidates, Some((0, n))),
        };
        let largest = self.rule.ties == Ties::Largest;
        let (lo, hi) = rest.unwrap_or((0, 0));
        PriorityOrder {
            first,
            first_pos: if largest { first.len() } else { 0 },
            skip: if rest.is_some() { first } else { &[] },
            skip_pos: if largest { first.len() } else { 0 },
            lo,
            hi,
            largest,
        }
    }
}

/// The pool in priority order: `first` (the candidates, or nothing) in tie order, then the
/// codes `lo..hi` in tie order except those of `skip` (both sorted ascending).
struct PriorityOrder<'a> {
    first: &'a [CodeIndex],
    first_pos: usize,
    skip: &'a [CodeIndex],
    skip_pos: usize,
    lo: u32,
    hi: u32,
    largest: bool,
}

impl Iterator for PriorityOrder<'_> {
    type Item = CodeIndex;

    #[inline]
    fn next(&mut self) -> Option<CodeIndex> {
        if self.largest {
            if self.first_pos > 0 {
                self.first_pos -= 1;
                return Some(self.first[self.first_pos]);
            }
            while self.hi > self.lo {
                self.hi -= 1;
                let i = self.hi;
                while self.skip_pos > 0 && self.skip[self.skip_pos - 1].index() > i {
                    self.skip_pos -= 1;
                }
                if !(self.skip_pos > 0 && self.skip[self.skip_pos - 1].index() == i) {
                    return Some(CodeIndex::from_index(i));
                }
            }
        } else {
            if self.first_pos < self.first.len() {
                self.first_pos += 1;
                return Some(self.first[self.first_pos - 1]);
            }
            while self.lo < self.hi {
                let i = self.lo;
                self.lo += 1;
                while self.skip_pos < self.skip.len() && self.skip[self.skip_pos].index() < i {
                    self.skip_pos += 1;
                }
                if !(self.skip_pos < self.skip.len() && self.skip[self.skip_pos].index() == i) {
                    return Some(CodeIndex::from_index(i));
                }
            }
        }
        None
    }
}

/// Guesses laid out for [`Solver::scan_blocks`]: the whole pool, or a part of it with the
/// code index of each lane.
struct GuessBlocks<'a> {
    blocks: &'a CodeBlocks,
    indices: Option<&'a [u32]>,
}

/// How a scan gets the feedbacks of a guess on the candidates.
#[derive(Clone, Copy)]
enum Kernel<'a> {
    /// From the code space (its table, or the packed scorer).
    Space,
    /// From the transposed table rows of the candidates (see [`Solver::transpose`]).
    Columns(&'a [u8]),
    /// From the candidates laid out in blocks, 32 at a time.
    Blocks(&'a CodeBlocks),
}

/// Which guesses are scored: one per symmetry class (see [`Symmetry::is_representative`]).
struct Filter<'a> {
    symmetry: &'a Symmetry,
    absent: u64,
    largest: bool,
    /// Nothing to relabel and no permutation but the identity: every guess is its own class.
    trivial: bool,
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
