//! Streaming the candidates' rows of the feedback table. The score is symmetric, so the row of
//! a candidate `c` holds `s(g, c)` for every guess `g`: reading the candidates' rows and
//! counting into a small block of guesses' tables reads the table sequentially, where reading
//! it guess by guess would miss the cache on nearly every load once the table outgrows it.
//!
//! The same streaming gathers, per guess, only the set of feedbacks that occur (a bit mask),
//! for callers that need nothing more.

use std::ops::Range;

use super::partition::{MaskRun, Partition, Shape};
use super::{Fold, Scan};
use crate::code::CodeIndex;

/// Guesses counted together; their tables (`ROWS_BLOCK * |feedbacks|` counters) stay in L1.
const ROWS_BLOCK: usize = 128;
/// Guesses whose feedback masks are gathered together.
const MASK_BLOCK: usize = 512;
/// Most feedbacks whose mask bits a byte shuffle looks up (its table has 16 entries).
const SHUFFLE_FEEDBACKS: usize = 16;
/// Increasing lists of guesses of games of at most [`SHUFFLE_FEEDBACKS`] feedbacks get their
/// masks from a pass over every code of their span when they hold more than this fraction of
/// it (1 in ...).
const DENSE_NARROW: usize = 12;

/// The candidates' table rows.
fn rows<'s>(scan: &Scan<'s>) -> Vec<&'s [u8]> {
    scan.candidates.iter().map(|&c| scan.space.table_row(c).expect("BUG: streaming rows without a table")).collect()
}

/// Partition tables of the guesses at positions `range`, counted from the streamed rows.
pub(super) fn tables<F: Fold>(scan: &Scan, range: Range<usize>, fold: &mut F) -> bool {
    let f = scan.space.scheme().len();
    let rows = rows(scan);
    #[cfg(target_arch = "x86_64")]
    {
        if f <= super::counters::MAX_FEEDBACKS
            && scan.space.len() >= super::counters::LANES
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { super::counters::tables_avx2(scan, &rows, range, fold) };
        }
    }
    let contiguous = scan.guesses.contiguous();
    let mut counts = vec![0u32; ROWS_BLOCK * f];
    let mut start = range.start;
    while start < range.end {
        let len = ROWS_BLOCK.min(range.end - start);
        counts[..len * f].fill(0);
        match contiguous {
            // Positions are code indices: each row is read as one slice.
            Some(first) => {
                let from = first + start;
                for row in &rows {
                    for (j, &fb) in row[from..from + len].iter().enumerate() {
                        counts[j * f + fb as usize] += 1;
                    }
                }
            }
            None => {
                let guesses = scan.guesses.slice(start..start + len);
                for row in &rows {
                    for (j, g) in guesses.iter().enumerate() {
                        counts[j * f + row[g.get()] as usize] += 1;
                    }
                }
            }
        }
        for j in 0..len {
            let shape = Shape::Counts(&counts[j * f..(j + 1) * f]);
            let (space, candidates) = (scan.space, scan.candidates);
            let partition =
                Partition { position: start + j, guess: scan.guesses.get(start + j), shape, space, candidates };
            if !fold.visit(&partition) {
                return false;
            }
        }
        start += len;
    }
    true
}

/// The feedback masks of the guesses at positions `range` (at most 32 feedbacks), from the
/// streamed rows when there is a table, else scored guess by guess.
pub(super) fn masks<F: Fold>(scan: &Scan, range: Range<usize>, fold: &mut F) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor supports both features (checked just above).
            return unsafe { masks_avx2(scan, range, fold) };
        }
    }
    masks_plain(scan, range, fold)
}

/// [`masks`] compiled for AVX2 and POPCNT, with the fold inlined: callers count the
/// feedbacks of each mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn masks_avx2<F: Fold>(scan: &Scan, range: Range<usize>, fold: &mut F) -> bool {
    masks_plain(scan, range, fold)
}

#[inline(always)]
fn masks_plain<F: Fold>(scan: &Scan, range: Range<usize>, fold: &mut F) -> bool {
    let (space, candidates) = (scan.space, scan.candidates);
    assert!(space.scheme().len() <= 32, "BUG: feedback masks need at most 32 feedbacks");
    if !space.has_table() {
        return range.into_iter().all(|i| {
            let g = scan.guesses.get(i);
            let mut mask = 0u32;
            space.for_each_feedback(g, candidates, |f| mask |= 1 << f);
            let shape = Shape::Feedbacks { mask, parts: mask.count_ones() };
            fold.visit(&Partition { position: i, guess: g, shape, space, candidates })
        });
    }
    let rows = rows(scan);
    let narrow = space.scheme().len() <= SHUFFLE_FEEDBACKS;
    let mut masks = [0u32; MASK_BLOCK];
    let mut run = |position: usize, guesses: &[CodeIndex], masks: &[u32]| {
        fold.visit_masks(&MaskRun { position, guesses, masks, space, candidates })
    };
    let dense = |l: &[CodeIndex]| match l {
        [first, .., last] if narrow => l.len() * DENSE_NARROW > last.get() - first.get() + 1,
        _ => l.len() * 3 > space.len(),
    };
    if let Some(list) = scan.guesses.increasing().map(|l| &l[range.clone()]).filter(|l| dense(l)) {
        // Many increasing guesses (a third of the codes or more; with the byte shuffles, 1 in 12
        // codes of their span): the vectorised pass over every code between the first and the
        // last, skipping the others, beats gathering their columns.
        debug_assert!(list.windows(2).all(|w| w[0] < w[1]), "BUG: guesses said increasing are not");
        let end = list[list.len() - 1].get() + 1;
        let mut listed = [0u32; MASK_BLOCK];
        let mut next = 0;
        while next < list.len() {
            // Each block starts at the next guess, so gaps in the list are never scored.
            let code = list[next].get();
            let len = MASK_BLOCK.min(end - code);
            let masks = &mut masks[..len];
            masks.fill(0);
            or_rows(&rows, code, masks, narrow);
            // The list's guesses in this block, their masks gathered by offset.
            // Found by bisection, so that the gather loop has no exit test but its count.
            let first = next;
            next += list[first..].partition_point(|g| g.get() < code + len);
            for (slot, g) in listed.iter_mut().zip(&list[first..next]) {
                *slot = masks[g.get() - code];
            }
            if !run(range.start + first, &list[first..next], &listed[..next - first]) {
                return false;
            }
        }
        return true;
    }
    let mut start = range.start;
    while start < range.end {
        let len = MASK_BLOCK.min(range.end - start);
        let masks = &mut masks[..len];
        masks.fill(0);
        let guesses = scan.guesses.slice(start..start + len);
        match scan.guesses.contiguous() {
            Some(first) => or_rows(&rows, first + start, masks, narrow),
            None => gather_rows(&rows, &guesses, masks),
        }
        if !run(start, &guesses, masks) {
            return false;
        }
        start += len;
    }
    true
}

/// The mask bit of feedback `f` (below 32 in mask scans).
#[inline(always)]
fn bit(f: u8) -> u32 {
    1 << (f & 31)
}

/// `masks[j] |= 1 << row[guesses[j]]` for every row, four rows per pass as [`or_rows_plain`].
fn gather_rows(rows: &[&[u8]], guesses: &[CodeIndex], masks: &mut [u32]) {
    let mut quads = rows.chunks_exact(4);
    for quad in &mut quads {
        let [a, b, c, d] = [quad[0], quad[1], quad[2], quad[3]];
        for (mask, g) in masks.iter_mut().zip(guesses) {
            let g = g.get();
            *mask |= (bit(a[g]) | bit(b[g])) | (bit(c[g]) | bit(d[g]));
        }
    }
    for row in quads.remainder() {
        for (mask, g) in masks.iter_mut().zip(guesses) {
            *mask |= bit(row[g.get()]);
        }
    }
}

/// `masks[j] |= 1 << row[start + j]` for every row: the hot loop of small sets, vectorised
/// with AVX2's byte shuffles (`narrow`: at most [`SHUFFLE_FEEDBACKS`] feedbacks) or variable
/// shifts where the processor has them.
fn or_rows(rows: &[&[u8]], start: usize, masks: &mut [u32], narrow: bool) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe {
                if narrow {
                    or_rows_bytes_avx2(rows, start, masks);
                } else {
                    or_rows_avx2(rows, start, masks);
                }
            }
            return;
        }
    }
    let _ = narrow;
    or_rows_plain(rows, start, masks);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn or_rows_avx2(rows: &[&[u8]], start: usize, masks: &mut [u32]) {
    or_rows_plain(rows, start, masks);
}

/// [`or_rows`] for at most [`SHUFFLE_FEEDBACKS`] feedbacks: a feedback's bit is looked up by a
/// byte shuffle in two halves (bits 0-7, 8-15), so one vector holds 32 guesses' half masks
/// where a shift of 32-bit masks holds 8, and the masks of 32 guesses stay in two registers
/// over all rows.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn or_rows_bytes_avx2(rows: &[&[u8]], start: usize, masks: &mut [u32]) {
    use std::arch::x86_64::*;
    const LANES: usize = 32;
    let len = masks.len();
    assert!(rows.iter().all(|row| row.len() >= start + len), "BUG: masks past the table's rows");
    let low: [u8; 16] = std::array::from_fn(|f| if f < 8 { 1 << f } else { 0 });
    let high: [u8; 16] = std::array::from_fn(|f| if f < 8 { 0 } else { 1 << (f - 8) });
    // SAFETY: 16 bytes loaded from 16.
    let [low, high] = [low, high].map(|t| unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) });
    let mut at = 0;
    while at + LANES <= len {
        let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for row in rows {
            // SAFETY: `start + at + 32 <= start + len`, within the row (checked above).
            let v = unsafe { _mm256_loadu_si256(row.as_ptr().add(start + at).cast()) };
            lo = _mm256_or_si256(lo, _mm256_shuffle_epi8(low, v));
            hi = _mm256_or_si256(hi, _mm256_shuffle_epi8(high, v));
        }
        let (mut los, mut his) = ([0u8; LANES], [0u8; LANES]);
        // SAFETY: 32 bytes stored into 32, twice.
        unsafe {
            _mm256_storeu_si256(los.as_mut_ptr().cast(), lo);
            _mm256_storeu_si256(his.as_mut_ptr().cast(), hi);
        }
        for ((mask, &lo), &hi) in masks[at..at + LANES].iter_mut().zip(&los).zip(&his) {
            *mask |= u32::from(lo) | u32::from(hi) << 8;
        }
        at += LANES;
    }
    or_rows_plain(rows, start + at, &mut masks[at..]);
}

#[inline(always)]
fn or_rows_plain(rows: &[&[u8]], start: usize, masks: &mut [u32]) {
    let len = masks.len();
    // Four rows per pass over the masks: one load and store of a mask per four rows, not per
    // row (one thread, [6,4] 2.17 -> 1.97 s).
    let mut quads = rows.chunks_exact(4);
    for quad in &mut quads {
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| &quad[i][start..start + len]);
        for ((((mask, &a), &b), &c), &d) in masks.iter_mut().zip(a).zip(b).zip(c).zip(d) {
            *mask |= (bit(a) | bit(b)) | (bit(c) | bit(d));
        }
    }
    for row in quads.remainder() {
        let row = &row[start..start + len];
        for (mask, &f) in masks.iter_mut().zip(row) {
            *mask |= bit(f);
        }
    }
}
