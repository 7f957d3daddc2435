//! The partition scanner: partition tables, or statistics of them, of many guesses on one
//! candidate set, with an optional cut-off. Every search (the one-step rule, the look-ahead,
//! the advisor, the exact search) asks it the same question through [`Scan`], and it picks
//! the way to answer by the sizes involved:
//!
//! | path | when | how |
//! |---|---|---|
//! | feedback masks | only which feedbacks occur is wanted | table rows streamed, OR-ed per guess |
//! | table rows | full tables of many guesses wanted, and a feedback table | the candidates' rows streamed into 32 guesses' byte counters (at most 16 feedbacks, AVX2), else into 128 guesses' tables |
//! | pairwise | at most 128 candidates, guesses laid out in a [`CodePool`] (or a list, laid out in batches) | 32 guesses per instruction, parts read off equal feedbacks |
//! | one by one | a few candidates (at most two per feedback), or very many | each guess counted with a running cut-off (table row, transposed columns, packed scorer, or candidates in blocks) |
//! | histograms | otherwise | 32 guesses' tables counted at once |
//!
//! All paths report the same partitions (each is tested against [`crate::score_reference`]),
//! so the choice changes speed only. A caller folds the partitions with a [`Fold`], whose
//! [`Cut`] lets the scanner skip guesses that cannot matter; with [`Scan::parallel`], chunks
//! of the guesses are folded on rayon's threads and merged in order.

mod blocks;
#[cfg(target_arch = "x86_64")]
mod counters;
mod partition;
mod rows;
mod single;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;

pub use partition::{xlogx, Cut, MaskRun, Partition};

use crate::code::CodeIndex;
use crate::lanes::{CodeBlocks, Probe, ProbeSet, Shares, BLOCK, MAX_PROBES};
use crate::space::CodeSpace;
use single::Source;

/// Scans of at least this many scorings (`guesses x candidates`) run in parallel when asked.
const PARALLEL_WORK: usize = 1 << 18;
/// Candidate sets beyond this are scored one guess at a time against the candidates in blocks.
const HISTOGRAM_MAX: usize = 1 << 15;
/// Full tables of at least this many guesses stream the candidates' table rows.
const ROWS_MIN_GUESSES: usize = 64;
/// Code spaces from this size on transpose the table rows of small candidate sets.
const TRANSPOSE_MIN_CODES: usize = 4096;

/// Lists of at least this many guesses (a block's worth) take the pairwise path too, laid out
/// in batches as they are read; shorter ones are scored one by one. On [8,5] expected size,
/// the one-step rule's second passes over lists took about 9 % of the run one by one (the
/// whole run 61.5 -> 58.8 s user, [7,5] 19.60 -> 19.04 G instructions, with 8, 32 or 96 alike).
const PAIRWISE_LIST_MIN: usize = 32;

thread_local! {
    /// Per-thread buffer for the transposed feedbacks of a small candidate set.
    static TRANSPOSED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Codes laid out 32 to a block (see [`CodeBlocks`]) with their indices: a pool of guesses
/// that the pairwise path scores 32 at a time without laying them out again.
///
/// ```
/// use mmtree_core::{CodePool, CodeSpace, Game, GameSpec, MemoryLimit, CodeIndex};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 3))?, MemoryLimit(1 << 30))?;
/// let pool = CodePool::new(&space, (0..27).step_by(2).map(CodeIndex::from_index).collect());
/// assert_eq!(pool.len(), 14);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CodePool {
    blocks: CodeBlocks,
    indices: Vec<CodeIndex>,
    /// The indices are `first..first + len`.
    contiguous: Option<usize>,
}

impl CodePool {
    /// The codes at `indices` (of `space`), in that order.
    pub fn new(space: &CodeSpace, indices: Vec<CodeIndex>) -> CodePool {
        let codes: Vec<_> = indices.iter().map(|&i| space.code(i)).collect();
        let contiguous = indices.first().filter(|f| indices.iter().enumerate().all(|(j, i)| i.get() == f.get() + j));
        let contiguous = contiguous.map(|f| f.get());
        CodePool { blocks: CodeBlocks::new(space.game(), &codes), indices, contiguous }
    }

    /// Number of codes.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether the pool is empty.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The codes' indices, in pool order.
    pub fn indices(&self) -> &[CodeIndex] {
        &self.indices
    }

    /// Bytes the pool takes.
    pub fn bytes(&self) -> usize {
        self.blocks.bytes() + 4 * self.indices.len()
    }
}

/// The guesses of a scan, in the order the fold sees them.
#[derive(Clone, Copy)]
pub enum Guesses<'a> {
    /// These codes, in this order.
    List(&'a [CodeIndex]),
    /// These codes, given in increasing order (a pool cut down by symmetry, for instance): the
    /// feedback masks then read whole runs of the table's rows.
    Increasing(&'a [CodeIndex]),
    /// A laid-out pool, in its order or (with `true`) from its end.
    Pool(&'a CodePool, bool),
}

impl Guesses<'_> {
    /// Number of guesses.
    pub fn len(&self) -> usize {
        match self {
            Guesses::List(list) | Guesses::Increasing(list) => list.len(),
            Guesses::Pool(pool, _) => pool.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The guess at position `i` of the scan's order.
    #[inline]
    fn get(&self, i: usize) -> CodeIndex {
        match *self {
            Guesses::List(list) | Guesses::Increasing(list) => list[i],
            Guesses::Pool(pool, false) => pool.indices[i],
            Guesses::Pool(pool, true) => pool.indices[pool.len() - 1 - i],
        }
    }

    /// The code index of position 0 when position `i` is code `first + i`.
    fn contiguous(&self) -> Option<usize> {
        match *self {
            Guesses::Pool(pool, false) => pool.contiguous,
            _ => None,
        }
    }

    /// The guesses at positions `range`, borrowed when they are a list in scan order.
    fn slice(&self, range: std::ops::Range<usize>) -> std::borrow::Cow<'_, [CodeIndex]> {
        match self.list() {
            Some(list) => std::borrow::Cow::Borrowed(&list[range]),
            None => std::borrow::Cow::Owned(range.map(|i| self.get(i)).collect()),
        }
    }

    /// The guesses, when they are a list of increasing codes.
    fn increasing(&self) -> Option<&[CodeIndex]> {
        match *self {
            Guesses::Increasing(list) => Some(list),
            Guesses::Pool(pool, false) => Some(&pool.indices),
            _ => None,
        }
    }

    /// The guesses as a list in scan order, when they are one.
    fn list(&self) -> Option<&[CodeIndex]> {
        match *self {
            Guesses::List(list) | Guesses::Increasing(list) => Some(list),
            Guesses::Pool(pool, false) => Some(&pool.indices),
            Guesses::Pool(_, true) => None,
        }
    }
}

/// What the fold reads of each partition: a scan prepares that cheaply and counts anything
/// else again on demand (see [`Partition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Which feedbacks occur ([`Partition::feedbacks`], [`Partition::parts`]).
    Feedbacks,
    /// The largest part, sum of squares and number of parts.
    Moments,
    /// Those, the part sizes ([`Partition::sizes`]) and `sum s log2 s`.
    Sizes,
    /// The partition table by feedback ([`Partition::counts`]).
    Counts,
}

/// A caller's running summary of a scan: what it keeps of the partitions it is shown.
pub trait Fold: Send {
    /// What the fold no longer needs to see: guesses past it may be left out.
    fn cut(&self) -> Cut;

    /// Takes the partition of the next guess in scan order; `false` stops the scan (no
    /// later guess can matter).
    fn visit(&mut self, partition: &Partition<'_>) -> bool;

    /// Takes the feedback masks of the next run of guesses in scan order (in scans for
    /// [`Detail::Feedbacks`]); `false` stops the scan. A fold that reads the masks in bulk
    /// does less per guess than the default, one [`Fold::visit`] each.
    #[inline(always)]
    fn visit_masks(&mut self, run: &MaskRun<'_>) -> bool {
        (0..run.masks().len()).all(|j| self.visit(&run.partition(j)))
    }

    /// Combines this fold with that of the chunk of guesses just after it.
    fn merge(self, later: Self) -> Self
    where
        Self: Sized;
}

/// One scan: guesses, candidates, what the fold needs, and whether to use threads.
///
/// ```
/// use mmtree_core::{CodeSpace, Cut, Detail, Fold, Game, GameSpec, Guesses, MemoryLimit, Partition, Scan};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let all = space.all_indices();
/// /// The first guess with the smallest largest part.
/// struct Smallest(Option<(u32, u32)>);
/// impl Fold for Smallest {
///     fn cut(&self) -> Cut {
///         self.0.map_or(Cut::Never, |(largest, _)| Cut::Largest(largest))
///     }
///     fn visit(&mut self, p: &Partition) -> bool {
///         if self.0.is_none_or(|(largest, _)| p.largest() < largest) {
///             self.0 = Some((p.largest(), p.guess().index()));
///         }
///         true
///     }
///     fn merge(self, later: Self) -> Self {
///         match (self.0, later.0) {
///             (Some(a), Some(b)) if b.0 < a.0 => later,
///             (None, _) => later,
///             _ => self,
///         }
///     }
/// }
/// let best = Scan::new(&space, Guesses::List(&all), &all).detail(Detail::Moments).run(|| Smallest(None));
/// assert_eq!(best.0, Some((256, 7))); // 1122 leaves at most 256 codes (Knuth)
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct Scan<'a> {
    space: &'a CodeSpace,
    guesses: Guesses<'a>,
    candidates: &'a [CodeIndex],
    detail: Detail,
    parallel: bool,
    /// The candidates' probes, shared with other scans of them (see [`Prepared`]).
    shared: Option<&'a OnceLock<ProbeSet>>,
    /// Blacks plus whites of every guess with each candidate, when the guesses share one
    /// colour multiset (see [`Scan::totals`]).
    totals: Option<&'a [u8]>,
}

/// Candidates that several scans share: what the kernels build from them (their probes) is
/// built once, on first need, not once a scan.
///
/// ```
/// use mmtree_core::{CodeSpace, Cut, Detail, Fold, Game, GameSpec, Guesses, MemoryLimit, Partition, Prepared};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let all = space.all_indices();
/// /// The largest part of any guess scanned.
/// struct Largest(u32);
/// impl Fold for Largest {
///     fn cut(&self) -> Cut {
///         Cut::Never
///     }
///     fn visit(&mut self, p: &Partition) -> bool {
///         self.0 = self.0.max(p.largest());
///         true
///     }
///     fn merge(self, later: Self) -> Self {
///         Largest(self.0.max(later.0))
///     }
/// }
/// let prepared = Prepared::new(&space, &all);
/// // Two scans of the same candidates: 1111-1166, then 1211-6666.
/// let (first, rest) = all.split_at(36);
/// let a = prepared.scan(Guesses::List(first)).detail(Detail::Moments).run(|| Largest(0));
/// let b = prepared.scan(Guesses::List(rest)).detail(Detail::Moments).run(|| Largest(0));
/// assert_eq!((a.0, b.0), (625, 625)); // 1111 and 6666 leave the 625 codes without their colour
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct Prepared<'a> {
    space: &'a CodeSpace,
    candidates: &'a [CodeIndex],
    probes: OnceLock<ProbeSet>,
}

impl<'a> Prepared<'a> {
    /// The candidates `candidates` (sorted, of `space`), nothing built yet.
    pub fn new(space: &'a CodeSpace, candidates: &'a [CodeIndex]) -> Prepared<'a> {
        Prepared { space, candidates, probes: OnceLock::new() }
    }

    /// The candidates.
    pub fn candidates(&self) -> &'a [CodeIndex] {
        self.candidates
    }

    /// A scan of `guesses` on these candidates (as [`Scan::new`]).
    pub fn scan(&'a self, guesses: Guesses<'a>) -> Scan<'a> {
        Scan { shared: Some(&self.probes), ..Scan::new(self.space, guesses, self.candidates) }
    }
}

/// The way a scan is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    Masks,
    Pairwise,
    Single,
    Columns,
    CandidateBlocks,
    Rows,
    Histograms,
}

impl<'a> Scan<'a> {
    /// A scan of `guesses` on `candidates` (sorted, of `space`), wanting [`Detail::Counts`],
    /// on the calling thread.
    pub fn new(space: &'a CodeSpace, guesses: Guesses<'a>, candidates: &'a [CodeIndex]) -> Scan<'a> {
        Scan { space, guesses, candidates, detail: Detail::Counts, parallel: false, shared: None, totals: None }
    }

    /// Tells the scan that every guess has blacks plus whites `totals[i]` with candidate `i`,
    /// as guesses of one colour multiset do: candidates of different totals never share a
    /// part, so the pairwise kernel compares each candidate only with those of its own total.
    /// Wrong totals give wrong partitions.
    pub fn totals(mut self, totals: &'a [u8]) -> Scan<'a> {
        assert_eq!(totals.len(), self.candidates.len(), "BUG: totals of other candidates");
        self.totals = Some(totals);
        self
    }

    /// What the fold reads of each partition.
    pub fn detail(mut self, detail: Detail) -> Scan<'a> {
        self.detail = detail;
        self
    }

    /// Whether chunks of a large scan may be folded on rayon's threads (`init` then makes
    /// one fold per chunk, and the folds are merged in order).
    pub fn parallel(mut self, parallel: bool) -> Scan<'a> {
        self.parallel = parallel;
        self
    }

    /// Folds the partitions of the guesses, in order, into `init()`'s fold.
    pub fn run<F: Fold>(&self, init: impl Fn() -> F + Sync) -> F {
        self.run_on(self.path(), init)
    }

    fn run_on<F: Fold>(&self, path: Path, init: impl Fn() -> F + Sync) -> F {
        let m = self.candidates.len();
        let guesses = self.guesses.len();
        let parallel = self.parallel && guesses * m >= PARALLEL_WORK;
        match path {
            Path::Masks => self.drive(guesses, 64, parallel, &init, |r, f| rows::masks(self, r, f)),
            Path::Rows => self.drive(guesses, 64, parallel, &init, |r, f| rows::tables(self, r, f)),
            Path::Single => {
                self.drive(guesses, 64, parallel, &init, |r, f| single::scan_range(self, r, Source::Space, f))
            }
            Path::Columns => {
                let run = |columns: &[u8]| {
                    let source = Source::Columns(columns);
                    self.drive(guesses, 64, parallel, &init, |r, f| single::scan_range(self, r, source, f))
                };
                if parallel {
                    let mut columns = Vec::new();
                    single::transpose(self.space, self.candidates, &mut columns);
                    run(&columns)
                } else {
                    // A fold that scans again on this thread gets a buffer of its own.
                    TRANSPOSED.with(|cell| match cell.try_borrow_mut() {
                        Ok(mut columns) => {
                            single::transpose(self.space, self.candidates, &mut columns);
                            run(&columns)
                        }
                        Err(_) => {
                            let mut columns = Vec::new();
                            single::transpose(self.space, self.candidates, &mut columns);
                            run(&columns)
                        }
                    })
                }
            }
            Path::CandidateBlocks => {
                let codes: Vec<_> = self.candidates.iter().map(|&c| self.space.code(c)).collect();
                let blocks = CodeBlocks::new(self.space.game(), &codes);
                let source = Source::Blocks(&blocks);
                self.drive(guesses, 64, parallel, &init, |r, f| single::scan_range(self, r, source, f))
            }
            Path::Pairwise => self.with_probes(|probes| {
                let ranks = self.detail == Detail::Sizes;
                let units = guesses.div_ceil(BLOCK);
                let shares = self.totals.map(Shares::by_total);
                let shares = shares.as_ref();
                self.drive(units, 4, parallel, &init, |r, f| blocks::pairwise(self, r, probes, shares, ranks, f))
            }),
            Path::Histograms => self.with_probes(|probes| {
                let units = guesses.div_ceil(BLOCK);
                let shares = self.totals.map(Shares::by_total);
                let shares = shares.as_ref();
                self.drive(units, 4, parallel, &init, |r, f| blocks::histograms(self, r, probes, shares, f))
            }),
        }
    }

    /// The path for this scan's sizes (see the module documentation).
    fn path(&self) -> Path {
        let space = self.space;
        let (m, f) = (self.candidates.len(), space.scheme().len());
        let table = space.has_table();
        let pool = matches!(self.guesses, Guesses::Pool(..));
        if self.detail == Detail::Feedbacks && f <= 32 {
            return Path::Masks;
        }
        let pairwise = m <= MAX_PROBES && matches!(self.detail, Detail::Moments | Detail::Sizes);
        if pairwise && (pool || self.guesses.len() >= PAIRWISE_LIST_MIN) {
            return Path::Pairwise;
        }
        if table && self.detail == Detail::Counts && self.guesses.len() >= ROWS_MIN_GUESSES {
            return Path::Rows;
        }
        if m <= 2 * f {
            let many = self.guesses.len() > m;
            return if table && many && space.len() >= TRANSPOSE_MIN_CODES { Path::Columns } else { Path::Single };
        }
        if m > HISTOGRAM_MAX {
            return if table { Path::Single } else { Path::CandidateBlocks };
        }
        Path::Histograms
    }

    /// Calls `f` with the candidates' probes: the shared ones, or built for this scan.
    fn with_probes<R>(&self, f: impl FnOnce(&ProbeSet) -> R) -> R {
        match self.shared {
            Some(shared) => f(shared.get_or_init(|| self.probes())),
            None => f(&self.probes()),
        }
    }

    fn probes(&self) -> ProbeSet {
        ProbeSet::new(self.space.game(), self.candidates.iter().map(|&c| Probe::new(&self.space.code(c))).collect())
    }

    /// Runs `run` on `units` (guesses, or blocks of 32), in chunks on rayon's threads when
    /// `parallel`: chunks after one whose fold stopped are skipped, and the chunks' folds are
    /// merged in order, so the result does not depend on the threads.
    fn drive<F: Fold>(
        &self,
        units: usize,
        min_chunk: usize,
        parallel: bool,
        init: &(impl Fn() -> F + Sync),
        run: impl Fn(std::ops::Range<usize>, &mut F) -> bool + Sync,
    ) -> F {
        if !parallel {
            let mut fold = init();
            run(0..units, &mut fold);
            return fold;
        }
        let chunk = (units / (rayon::current_num_threads() * 16)).max(min_chunk);
        let stopped = AtomicUsize::new(usize::MAX);
        let folds: Vec<Option<F>> = (0..units.div_ceil(chunk))
            .into_par_iter()
            .map(|i| {
                if stopped.load(Ordering::Relaxed) < i {
                    return None;
                }
                let mut fold = init();
                if !run(i * chunk..((i + 1) * chunk).min(units), &mut fold) {
                    stopped.fetch_min(i, Ordering::Relaxed);
                }
                Some(fold)
            })
            .collect();
        folds.into_iter().flatten().reduce(F::merge).unwrap_or_else(init)
    }
}
