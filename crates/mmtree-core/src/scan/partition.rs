//! What a scan reports about one guess ([`Partition`]) and the cut-off a caller gives it
//! ([`Cut`]), both in the core's terms: part sizes and functions of them, no valuations.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::code::CodeIndex;
use crate::feedback::MAX_FEEDBACKS;
use crate::lanes::{LaneRows, LaneStats, MAX_PROBES};
use crate::space::{CodeSpace, Counts};

/// Partitions past which a guess cannot matter to the caller: a scan may leave out any guess
/// whose partition is past the cut, and need not (callers still compare what they get).
///
/// Each bound is one of the statistics of [`Partition`]; every one of them only moves one way
/// as candidates are counted, which is what lets a scan stop counting a guess early.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cut {
    /// Count every guess.
    Never,
    /// A largest part of at least this.
    Largest(u32),
    /// A sum of squared part sizes of at least this.
    SumSquares(u64),
    /// At most this many non-empty parts.
    Parts(u32),
    /// A sum of `s log2 s` over the parts above this.
    XLogX(f64),
}

impl Cut {
    /// Whether a finished partition with these statistics is past the cut (`xlogx` is only
    /// called for [`Cut::XLogX`]).
    #[inline]
    pub(crate) fn rejects(self, largest: u32, sum_squares: u64, parts: u32, xlogx: impl FnOnce() -> f64) -> bool {
        match self {
            Cut::Never => false,
            Cut::Largest(c) => largest >= c,
            Cut::SumSquares(c) => sum_squares >= c,
            Cut::Parts(p) => parts <= p,
            Cut::XLogX(bound) => xlogx() > bound,
        }
    }
}

/// The feedback masks of a run of consecutive guesses in a [`Detail::Feedbacks`] scan, for
/// folds that read them in bulk ([`Fold::visit_masks`]): bit `f` of a mask is set when
/// feedback `f` occurs.
///
/// ```
/// use mmtree_core::{CodeSpace, Cut, Detail, Fold, Game, GameSpec, Guesses, MaskRun, MemoryLimit, Partition, Scan};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let all = space.all_indices();
/// /// The most parts any guess makes, read from the masks in bulk.
/// struct MostParts(u32);
/// impl Fold for MostParts {
///     fn cut(&self) -> Cut {
///         Cut::Never
///     }
///     fn visit(&mut self, p: &Partition) -> bool {
///         self.0 = self.0.max(p.parts());
///         true
///     }
///     fn visit_masks(&mut self, run: &MaskRun) -> bool {
///         self.0 = run.masks().iter().map(|m| m.count_ones()).fold(self.0, u32::max);
///         true
///     }
///     fn merge(self, later: Self) -> Self {
///         MostParts(self.0.max(later.0))
///     }
/// }
/// let most = Scan::new(&space, Guesses::List(&all), &all).detail(Detail::Feedbacks).run(|| MostParts(0));
/// assert_eq!(most.0, 14); // every feedback but 3 blacks and 1 white occurs (1234, for one)
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
///
/// [`Detail::Feedbacks`]: super::Detail::Feedbacks
/// [`Fold::visit_masks`]: super::Fold::visit_masks
pub struct MaskRun<'a> {
    pub(super) position: usize,
    pub(super) guesses: &'a [CodeIndex],
    pub(super) masks: &'a [u32],
    pub(super) space: &'a CodeSpace,
    pub(super) candidates: &'a [CodeIndex],
}

impl<'a> MaskRun<'a> {
    /// The position of the run's first guess in the scan's order of guesses.
    #[inline(always)]
    pub fn position(&self) -> usize {
        self.position
    }

    /// The run's guesses, in scan order.
    #[inline(always)]
    pub fn guesses(&self) -> &'a [CodeIndex] {
        self.guesses
    }

    /// Each guess's mask of the feedbacks that occur, in the order of [`Self::guesses`].
    #[inline(always)]
    pub fn masks(&self) -> &'a [u32] {
        self.masks
    }

    /// The partition by the run's `j`-th guess.
    #[inline(always)]
    pub fn partition(&self, j: usize) -> Partition<'a> {
        let mask = self.masks[j];
        let shape = Shape::Feedbacks { mask, parts: mask.count_ones() };
        let (space, candidates) = (self.space, self.candidates);
        Partition { position: self.position + j, guess: self.guesses[j], shape, space, candidates }
    }
}

/// The partition of the candidates by one guess, as a scan found it: part sizes and the
/// statistics callers value guesses by. What is at hand depends on the scan's
/// [`Detail`](super::Detail); anything else is counted again on demand.
pub struct Partition<'a> {
    pub(super) position: usize,
    pub(super) guess: CodeIndex,
    pub(super) shape: Shape<'a>,
    pub(super) space: &'a CodeSpace,
    pub(super) candidates: &'a [CodeIndex],
}

/// How a scan holds a partition.
pub(super) enum Shape<'a> {
    /// Part sizes by feedback index.
    Counts(&'a [u32]),
    /// One lane of a block of pairwise partitions: its statistics, and what the kernel kept
    /// of its parts (see [`crate::CodeBlocks::for_each_partition`]).
    Lane { stats: &'a LaneStats, lane: usize, rows: LaneRows<'a> },
    /// Which feedbacks occur (bit `f` for feedback index `f`: at most 32 feedbacks), and how
    /// many.
    Feedbacks { mask: u32, parts: u32 },
}

impl Partition<'_> {
    /// The guess.
    #[inline(always)]
    pub fn guess(&self) -> CodeIndex {
        self.guess
    }

    /// The guess's position in the scan's order of guesses (0 for the first).
    #[inline(always)]
    pub fn position(&self) -> usize {
        self.position
    }

    /// Part sizes by feedback index (counted again unless the scan counted them).
    #[inline(always)]
    pub fn counts(&self) -> Cow<'_, [u32]> {
        match self.shape {
            Shape::Counts(counts) => Cow::Borrowed(counts),
            _ => Cow::Owned(self.recount()[..self.space.scheme().len()].to_vec()),
        }
    }

    /// The sizes of the non-empty parts, largest first, the rest of the array 0: what a
    /// symmetric function of the part sizes needs, and equal for equal multisets.
    #[inline]
    pub fn sizes(&self) -> Counts {
        let mut sizes: Counts = match self.shape {
            Shape::Counts(counts) => {
                let mut sizes: Counts = [0; MAX_FEEDBACKS];
                sizes[..counts.len()].copy_from_slice(counts);
                sizes
            }
            Shape::Lane { rows: LaneRows::Sizes(rows), lane, .. } => {
                let mut sizes: Counts = [0; MAX_FEEDBACKS];
                let mut i = 0;
                for row in rows.iter().filter(|row| row[lane] > 0) {
                    sizes[i] = u32::from(row[lane]);
                    i += 1;
                }
                sizes[..i].sort_unstable_by(|a, b| b.cmp(a));
                return sizes;
            }
            Shape::Lane { rows: LaneRows::Ranks(ranks), lane, .. } => {
                // A part of size s holds ranks 0..s: the parts larger than r number shape[r].
                let mut shape = [0u32; MAX_PROBES + 1];
                for r in ranks {
                    shape[r[lane] as usize] += 1;
                }
                let mut sizes: Counts = [0; MAX_FEEDBACKS];
                let mut i = 0;
                for s in (1..=ranks.len()).rev() {
                    for _ in 0..shape[s - 1] - shape[s] {
                        sizes[i] = s as u32;
                        i += 1;
                    }
                }
                return sizes;
            }
            _ => self.recount(),
        };
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The largest part.
    #[inline]
    pub fn largest(&self) -> u32 {
        match self.shape {
            Shape::Counts(counts) => counts.iter().copied().max().unwrap_or(0),
            Shape::Lane { stats, lane, .. } => u32::from(stats.largest[lane]),
            Shape::Feedbacks { .. } => self.recount().iter().copied().max().unwrap_or(0),
        }
    }

    /// The sum of the squared part sizes.
    #[inline]
    pub fn sum_squares(&self) -> u64 {
        let square = |s: u32| u64::from(s) * u64::from(s);
        match self.shape {
            Shape::Counts(counts) => counts.iter().map(|&s| square(s)).sum(),
            Shape::Lane { stats, lane, .. } => u64::from(stats.sum_squares[lane]),
            Shape::Feedbacks { .. } => self.recount().iter().map(|&s| square(s)).sum(),
        }
    }

    /// The number of non-empty parts.
    #[inline(always)]
    pub fn parts(&self) -> u32 {
        match self.shape {
            Shape::Counts(counts) => counts.iter().filter(|&&s| s > 0).count() as u32,
            Shape::Lane { stats, lane, .. } => u32::from(stats.parts[lane]),
            Shape::Feedbacks { parts, .. } => parts,
        }
    }

    /// `sum s log2 s` over the parts.
    #[inline]
    pub fn xlogx(&self) -> f64 {
        match self.shape {
            Shape::Counts(counts) => counts.iter().map(|&s| xlogx(s)).sum(),
            Shape::Lane { rows: LaneRows::Ranks(ranks), lane, .. } => {
                ranks.iter().map(|r| RANK_XLOGX[r[lane] as usize]).sum()
            }
            Shape::Lane { rows: LaneRows::Sizes(rows), lane, .. } => {
                rows.iter().map(|row| xlogx(u32::from(row[lane]))).sum()
            }
            _ => self.recount().iter().map(|&s| xlogx(s)).sum(),
        }
    }

    /// Which feedbacks occur: bit `f` for feedback index `f`.
    #[inline(always)]
    pub fn feedbacks(&self) -> u128 {
        let mask =
            |counts: &[u32]| counts.iter().enumerate().filter(|&(_, &s)| s > 0).fold(0u128, |m, (f, _)| m | 1 << f);
        match self.shape {
            Shape::Feedbacks { mask, .. } => u128::from(mask),
            Shape::Counts(counts) => mask(counts),
            Shape::Lane { .. } => mask(&self.recount()),
        }
    }

    /// Whether some candidate gives feedback index `f` (with `f` the winning feedback: whether
    /// the guess is a candidate).
    #[inline(always)]
    pub fn occurs(&self, f: usize) -> bool {
        match self.shape {
            Shape::Feedbacks { mask, .. } => f < 32 && mask >> f & 1 == 1,
            Shape::Counts(counts) => counts[f] > 0,
            Shape::Lane { .. } => self.recount()[f] > 0,
        }
    }

    fn recount(&self) -> Counts {
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        self.space.count_parts(self.guess, self.candidates, &mut counts);
        counts
    }
}

/// `s log2 s`, from a table for the sizes that dominate (0 for 0 and 1).
///
/// ```
/// assert_eq!(mmtree_core::xlogx(4), 8.0);
/// ```
#[inline(always)]
pub fn xlogx(s: u32) -> f64 {
    match XLOGX_TABLE.get(s as usize) {
        Some(&v) => v,
        None => f64::from(s) * f64::from(s).log2(),
    }
}

static XLOGX_TABLE: LazyLock<Vec<f64>> =
    LazyLock::new(|| (0..4096u32).map(|s| if s < 2 { 0.0 } else { f64::from(s) * f64::from(s).log2() }).collect());

/// `(r + 1) log2 (r + 1) - r log2 r`: what a part's member of rank `r` adds to `sum s log2 s`.
static RANK_XLOGX: LazyLock<[f64; MAX_PROBES + 1]> =
    LazyLock::new(|| std::array::from_fn(|r| xlogx(r as u32 + 1) - xlogx(r as u32)));

/// `EVEN[q][r]`: the least `sum s log2 s` of `r <= MAX_PROBES` codes in `q` parts (split as
/// evenly as possible, `s log2 s` being convex).
static EVEN: LazyLock<Vec<[f64; MAX_PROBES + 1]>> = LazyLock::new(|| {
    (0..=MAX_FEEDBACKS)
        .map(|q| {
            std::array::from_fn(|r| match q {
                0 => 0.0,
                _ => (r % q) as f64 * xlogx((r / q) as u32 + 1) + (q - r % q) as f64 * xlogx((r / q) as u32),
            })
        })
        .collect()
});

/// The least `sum s log2 s` of `m <= MAX_PROBES` codes in `parts` parts, the largest of size
/// `largest`: the largest part plus the rest split evenly.
#[inline]
pub(super) fn xlogx_floor(m: usize, parts: usize, largest: usize) -> f64 {
    let even = &EVEN[..];
    even[1][largest] + even[parts.saturating_sub(1)][m - largest]
}
