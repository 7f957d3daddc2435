//! One guess at a time: each guess's feedbacks on the candidates are counted in turn, and a
//! guess is dropped as soon as its counts so far prove it past the cut. The feedbacks come
//! from the code space (its table row, or the packed scorer), from the candidates' table rows
//! transposed guess-major, or from the candidates laid out 32 to a block.

use std::ops::Range;

use super::partition::{Partition, Shape};
use super::{Cut, Fold, Scan};
use crate::code::CodeIndex;
use crate::feedback::MAX_FEEDBACKS;
use crate::lanes::{CodeBlocks, Probe};
use crate::space::Counts;

/// Where a guess's feedbacks on the candidates come from.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    /// The code space: its table row, or the packed scorer.
    Space,
    /// The candidates' table rows gathered guess-major: `columns[g * m + j]` is the feedback
    /// of guess `g` on candidate `j` (see [`transpose`]).
    Columns(&'a [u8]),
    /// The candidates laid out in blocks of 32.
    Blocks(&'a CodeBlocks),
}

/// Scans the guesses at positions `range` one by one; returns `false` if the fold stopped it.
pub(super) fn scan_range<F: Fold>(scan: &Scan, range: Range<usize>, source: Source, fold: &mut F) -> bool {
    let (space, candidates) = (scan.space, scan.candidates);
    let f = space.scheme().len();
    let m = candidates.len();
    let mut counts: Counts = [0; MAX_FEEDBACKS];
    for i in range {
        let g = scan.guesses.get(i);
        counts[..f].fill(0);
        let complete = match (source, fold.cut()) {
            (Source::Blocks(blocks), cut) => count_blocked(space, g, blocks, cut, &mut counts),
            (_, Cut::Largest(c)) => feed(scan, source, g, |x| {
                counts[x] += 1;
                counts[x] < c
            }),
            (_, Cut::SumSquares(c)) => {
                // Each candidate still to come adds at least 1 to the sum of squares.
                let mut running = m as u64;
                feed(scan, source, g, |x| {
                    running += 2 * u64::from(counts[x]);
                    counts[x] += 1;
                    running < c
                })
            }
            (_, Cut::Parts(p)) => {
                let (mut parts, mut left) = (0, m as u32);
                feed(scan, source, g, |x| {
                    parts += u32::from(counts[x] == 0);
                    counts[x] += 1;
                    left -= 1;
                    parts + left > p
                })
            }
            (_, Cut::Never | Cut::XLogX(_)) => feed_all(scan, source, g, |x| counts[x] += 1),
        };
        if complete {
            let shape = Shape::Counts(&counts[..f]);
            if !fold.visit(&Partition { position: i, guess: g, shape, space, candidates }) {
                return false;
            }
        }
    }
    true
}

/// Calls `visit` with the feedback of `g` on each candidate until it returns `false`;
/// returns whether every candidate was visited.
#[inline(always)]
fn feed(scan: &Scan, source: Source, g: CodeIndex, mut visit: impl FnMut(usize) -> bool) -> bool {
    let m = scan.candidates.len();
    match source {
        Source::Columns(columns) => columns[g.get() * m..(g.get() + 1) * m].iter().all(|&x| visit(x as usize)),
        Source::Space | Source::Blocks(_) => scan.space.try_for_each_feedback(g, scan.candidates, visit),
    }
}

/// [`feed`] without stops, so the loop has no exit to test.
#[inline(always)]
fn feed_all(scan: &Scan, source: Source, g: CodeIndex, mut visit: impl FnMut(usize)) -> bool {
    let m = scan.candidates.len();
    match source {
        Source::Columns(columns) => columns[g.get() * m..(g.get() + 1) * m].iter().for_each(|&x| visit(x as usize)),
        Source::Space | Source::Blocks(_) => scan.space.for_each_feedback(g, scan.candidates, visit),
    }
    true
}

/// Counts the parts of the candidates laid out in `blocks` under guess `g` into `counts`
/// (zero on entry), giving up as soon as the counts so far are past `cut`; returns whether
/// it counted them all.
#[inline]
fn count_blocked(space: &crate::CodeSpace, g: CodeIndex, blocks: &CodeBlocks, cut: Cut, counts: &mut Counts) -> bool {
    let probe = Probe::new(&space.code(g));
    let feedback = |raw: u8| space.feedback_of_raw(raw);
    match cut {
        Cut::Largest(cut) => blocks.try_for_each_block(&probe, |keys, valid| {
            keys[..valid].iter().all(|&raw| {
                let x = feedback(raw);
                counts[x] += 1;
                counts[x] < cut
            })
        }),
        Cut::SumSquares(cut) => {
            // Each candidate still to come adds at least 1 to the sum of squares.
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
        Cut::Parts(needed) => {
            let (m, needed) = (blocks.len(), needed as usize);
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
        Cut::Never | Cut::XLogX(_) => {
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
/// Small sets then read one contiguous slice per guess instead of missing the cache once per
/// (guess, candidate).
pub(super) fn transpose(space: &crate::CodeSpace, candidates: &[CodeIndex], columns: &mut Vec<u8>) {
    let m = candidates.len();
    columns.clear();
    columns.resize(space.len() * m, 0);
    for (j, &c) in candidates.iter().enumerate() {
        let row = space.table_row(c).expect("BUG: transposing without a table");
        for (slot, &fb) in columns[j..].iter_mut().step_by(m).zip(row) {
            *slot = fb;
        }
    }
}
