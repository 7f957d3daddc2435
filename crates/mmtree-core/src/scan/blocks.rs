//! 32 guesses at a time, with the [`CodeBlocks`] kernels: pairwise partitions for a few
//! candidates (each lane's partition read off equal feedbacks, no histogram), and 32
//! histograms at once for many.

use std::ops::Range;

use super::partition::{xlogx_floor, Partition, Shape};
use super::{CodePool, Cut, Fold, Guesses, Scan};
use crate::code::CodeIndex;
use crate::feedback::MAX_FEEDBACKS;
use crate::lanes::{CodeBlocks, LaneRows, LaneStats, ProbeSet, Shares, BLOCK};
use crate::space::Counts;

/// The lanes of a block in the scan's order, with their positions: lanes of a pool's block
/// `b` in increasing order, or decreasing when the pool is scanned from its end.
fn lanes(scan: &Scan, b: usize, valid: usize) -> impl Iterator<Item = (usize, usize)> + use<> {
    let (reversed, len) = match scan.guesses {
        Guesses::Pool(pool, reversed) => (reversed, pool.len()),
        Guesses::List(_) | Guesses::Increasing(_) => (false, 0),
    };
    (0..valid).map(move |i| {
        if reversed {
            let lane = valid - 1 - i;
            (lane, len - 1 - (b * BLOCK + lane))
        } else {
            (i, b * BLOCK + i)
        }
    })
}

/// The pool's block at visit unit `unit` (blocks are visited from the last when reversed).
fn block_of<'a>(scan: &Scan<'a>, unit: usize) -> (&'a CodeBlocks, usize) {
    match scan.guesses {
        Guesses::Pool(pool, reversed) => {
            let count = pool.blocks.blocks();
            (&pool.blocks, if reversed { count - 1 - unit } else { unit })
        }
        Guesses::List(_) | Guesses::Increasing(_) => unreachable!("BUG: a list has no blocks"),
    }
}

/// A list's guesses are laid out for the pairwise kernel this many blocks at a time: enough
/// to spread the kernel's set-up, few enough that a scan stopping early lays out little more
/// than it reads.
const LIST_BATCH_BLOCKS: usize = 8;

/// Where the lanes of a block come from: a pool's block, scanned from the pool's end when
/// `reversed`, or a batch of a list's guesses laid out from position `first` on.
#[derive(Clone, Copy)]
enum Lanes<'a> {
    Pool { pool: &'a CodePool, reversed: bool },
    List { list: &'a [CodeIndex], first: usize },
}

impl Lanes<'_> {
    /// The position in scan order and the guess of lane `lane` of block `b`.
    #[inline]
    fn guess(self, b: usize, lane: usize) -> (usize, CodeIndex) {
        let index = b * BLOCK + lane;
        match self {
            Lanes::Pool { pool, reversed } => {
                (if reversed { pool.len() - 1 - index } else { index }, pool.indices[index])
            }
            Lanes::List { list, first } => (first + index, list[first + index]),
        }
    }

    fn reversed(self) -> bool {
        matches!(self, Lanes::Pool { reversed: true, .. })
    }
}

/// Pairwise partitions of the guesses at visit units `units` (blocks of a pool, or batches
/// of 32 of a list, laid out here) against the candidates (`probes`, at most
/// [`crate::MAX_PROBES`]); with `ranks` the kernel keeps what every part's size can be read
/// from, for sizes and `sum s log2 s` without counting again.
pub(super) fn pairwise<F: Fold>(
    scan: &Scan,
    units: Range<usize>,
    probes: &ProbeSet,
    shares: Option<&Shares>,
    ranks: bool,
    fold: &mut F,
) -> bool {
    let m = scan.candidates.len();
    match scan.guesses {
        Guesses::Pool(pool, reversed) => {
            let order = units.map(|u| block_of(scan, u).1);
            let lanes = Lanes::Pool { pool, reversed };
            pool.blocks.for_each_partition(order, probes, shares, ranks, fold.cut(), |b, stats, rows| {
                let valid = pool.blocks.block_len(b);
                visit_lanes(scan, lanes, b, valid, stats, rows, m, fold).then(|| fold.cut())
            })
        }
        Guesses::List(list) | Guesses::Increasing(list) => {
            let mut codes = Vec::with_capacity(LIST_BATCH_BLOCKS * BLOCK);
            let mut blocks = CodeBlocks::new(scan.space.game(), &[]);
            let end = (units.end * BLOCK).min(list.len());
            for first in (units.start * BLOCK..end).step_by(LIST_BATCH_BLOCKS * BLOCK) {
                codes.clear();
                let batch = &list[first..end.min(first + LIST_BATCH_BLOCKS * BLOCK)];
                codes.extend(batch.iter().map(|&g| scan.space.code(g)));
                blocks.refill(&codes);
                let lanes = Lanes::List { list, first };
                let order = 0..blocks.blocks();
                let complete = blocks.for_each_partition(order, probes, shares, ranks, fold.cut(), |b, stats, r| {
                    visit_lanes(scan, lanes, b, blocks.block_len(b), stats, r, m, fold).then(|| fold.cut())
                });
                if !complete {
                    return false;
                }
            }
            true
        }
    }
}

/// Shows the fold the lanes of block `b` (`valid` of them) that are not past its cut, in scan
/// order; `false` if it stopped. Kept out of the kernel's loop, which it would otherwise crowd.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn visit_lanes<F: Fold>(
    scan: &Scan,
    lanes: Lanes,
    b: usize,
    valid: usize,
    stats: &LaneStats,
    rows: LaneRows,
    m: usize,
    fold: &mut F,
) -> bool {
    // Lanes that may pass the cut, all 32 at once; each is checked again as the fold's cut
    // tightens.
    let mut open = stats.passing(fold.cut());
    if valid < BLOCK {
        open &= (1u32 << valid) - 1;
    }
    let reversed = lanes.reversed();
    while open != 0 {
        let lane = if reversed { 31 - open.leading_zeros() as usize } else { open.trailing_zeros() as usize };
        open &= !(1 << lane);
        if rejects(stats, lane, fold.cut(), m) {
            continue;
        }
        let (position, guess) = lanes.guess(b, lane);
        let shape = Shape::Lane { stats, lane, rows };
        let partition = Partition { position, guess, shape, space: scan.space, candidates: scan.candidates };
        if !fold.visit(&partition) {
            return false;
        }
    }
    true
}

/// Whether lane `lane` is past `cut` (for `sum s log2 s`, its least possible value is).
#[inline]
fn rejects(stats: &LaneStats, lane: usize, cut: Cut, m: usize) -> bool {
    let (largest, parts) = (usize::from(stats.largest[lane]), usize::from(stats.parts[lane]));
    cut.rejects(largest as u32, u64::from(stats.sum_squares[lane]), parts as u32, || xlogx_floor(m, parts, largest))
}

/// Partition tables of the guesses at visit units `units` (blocks of a pool, or batches of 32
/// of a list), 32 at a time, as histograms of the candidates' feedbacks (`probes`).
pub(super) fn histograms<F: Fold>(
    scan: &Scan,
    units: Range<usize>,
    probes: &ProbeSet,
    shares: Option<&Shares>,
    fold: &mut F,
) -> bool {
    let (space, candidates) = (scan.space, scan.candidates);
    let raws = space.raw_keys();
    let f = raws.len();
    let mut hist = vec![[0u16; 256]; BLOCK];
    let hist: &mut [[u16; 256]; BLOCK] = hist.as_mut_slice().try_into().expect("BLOCK rows");
    let mut batch = CodeBlocks::new(space.game(), &[]);
    let mut codes = Vec::with_capacity(BLOCK);
    let mut counts: Counts = [0; MAX_FEEDBACKS];
    for unit in units {
        let (blocks, b) = match scan.guesses {
            Guesses::Pool(..) => block_of(scan, unit),
            Guesses::List(list) | Guesses::Increasing(list) => {
                let batch_range = unit * BLOCK..((unit + 1) * BLOCK).min(list.len());
                codes.clear();
                codes.extend(list[batch_range].iter().map(|&g| space.code(g)));
                batch.refill(&codes);
                (&batch, 0)
            }
        };
        let valid = blocks.block_len(b);
        let complete = match shares {
            Some(shares) => blocks.histograms_shares(b, probes, shares, hist, fold.cut(), &raws),
            None => blocks.histograms_within(b, probes, hist, fold.cut(), &raws),
        };
        if !complete {
            // Every lane is past the cut: no guess of the block to show.
            for h in &mut hist[..valid] {
                for &raw in &raws {
                    h[raw as usize] = 0;
                }
            }
            continue;
        }
        let mut go_on = true;
        for (lane, position) in block_lanes(scan, unit, b, valid) {
            let h = &mut hist[lane];
            for (c, &raw) in counts.iter_mut().zip(&raws) {
                *c = u32::from(std::mem::take(&mut h[raw as usize]));
            }
            if go_on {
                let guess = scan.guesses.get(position);
                let shape = Shape::Counts(&counts[..f]);
                go_on = fold.visit(&Partition { position, guess, shape, space, candidates });
            }
        }
        if !go_on {
            return false;
        }
    }
    true
}

/// The lanes of visit unit `unit` with their positions (see [`lanes`]; a list's batch holds
/// positions `unit * 32..` in lane order).
fn block_lanes<'a>(
    scan: &'a Scan,
    unit: usize,
    b: usize,
    valid: usize,
) -> Box<dyn Iterator<Item = (usize, usize)> + 'a> {
    match scan.guesses {
        Guesses::Pool(..) => Box::new(lanes(scan, b, valid)),
        Guesses::List(_) | Guesses::Increasing(_) => Box::new((0..valid).map(move |lane| (lane, unit * BLOCK + lane))),
    }
}
