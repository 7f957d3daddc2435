//! Partition tables of 32 guesses at once from byte counters, for games of at most 16
//! feedbacks: each candidate's 32 feedbacks are one vector, compared with every feedback
//! value and the matches subtracted from that value's counter (a match is -1). No table
//! entry is read back and written per scoring, as counting one by one does, so a row of 32
//! scorings costs about as many vector instructions as the game has feedbacks.
//!
//! The guesses of a block are 32 consecutive codes (each candidate's table row read in one
//! load, the listed guesses among them picked out), or, when the listed guesses are too
//! sparse for that, gathered from the rows into a buffer first.

use std::ops::Range;

use super::partition::{Partition, Shape};
use super::{Fold, Scan};

/// Guesses counted at once: one AVX2 vector of bytes.
pub(super) const LANES: usize = 32;
/// Most feedbacks the byte counters handle: two passes of eight counters over the rows.
pub(super) const MAX_FEEDBACKS: usize = 16;
/// Listed guesses a window of 32 consecutive codes must hold to be counted in place: fewer,
/// and gathering 32 guesses into one block costs less than counting several windows.
const DENSE_MIN: usize = 8;
/// Counters per pass: eight stay in registers with the row and its comparisons.
const HALF: usize = 8;
/// Rows counted into bytes before they are added to the totals (a byte holds 255).
const FLUSH_ROWS: usize = 255;

/// Each feedback's count for each of the block's 32 lanes.
type Totals = [[u32; LANES]; MAX_FEEDBACKS];

/// [`super::rows::tables`] for games of at most 16 feedbacks, on a processor with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tables_avx2<F: Fold>(scan: &Scan, rows: &[&[u8]], range: Range<usize>, fold: &mut F) -> bool {
    let (space, candidates) = (scan.space, scan.candidates);
    let (n, f) = (space.len(), space.scheme().len());
    debug_assert!(f <= MAX_FEEDBACKS && n >= LANES);
    assert!(rows.iter().all(|row| row.len() == n), "BUG: a table row is not one per code");
    let increasing = scan.guesses.increasing().is_some();
    let guesses = scan.guesses.slice(range.clone());
    let mut totals: Totals = [[0; LANES]; MAX_FEEDBACKS];
    let mut gathered = Vec::new();
    let mut lanes = [0usize; LANES];
    let mut tables = [[0u32; MAX_FEEDBACKS]; LANES];
    let mut i = 0;
    while i < guesses.len() {
        // The window of 32 codes from this guess (or the last 32 codes).
        let start = guesses[i].get().min(n - LANES);
        let mut end = i;
        if increasing {
            while end < guesses.len() && end - i < LANES && guesses[end].get() < start + LANES {
                lanes[end - i] = guesses[end].get() - start;
                end += 1;
            }
        }
        if end - i >= DENSE_MIN {
            // SAFETY: AVX2 is enabled on this function; every row holds the `n` codes'
            // feedbacks, so the window `start..start + 32` (`start <= n - 32`) is in it.
            unsafe { count(rows.len(), |r| rows[r].as_ptr().add(start), f, &mut totals) };
        } else {
            end = (i + LANES).min(guesses.len());
            gathered.clear();
            for row in rows {
                gathered.extend(guesses[i..end].iter().map(|g| row[g.get()]));
                gathered.resize(gathered.len() + LANES - (end - i), 0);
            }
            for (j, lane) in lanes[..end - i].iter_mut().enumerate() {
                *lane = j;
            }
            // SAFETY: as above; the buffer holds 32 bytes per row.
            let from = gathered.as_ptr();
            unsafe { count(rows.len(), |r| from.add(r * LANES), f, &mut totals) };
        }
        // All the block's tables are copied out before any is read: a table read right after
        // its counts were stored one by one waited for the stores to forward.
        for (table, &lane) in tables.iter_mut().zip(&lanes[..end - i]) {
            for (count, total) in table[..f].iter_mut().zip(&totals) {
                *count = total[lane];
            }
        }
        for (j, table) in tables[..end - i].iter().enumerate() {
            let (position, guess) = (range.start + i + j, guesses[i + j]);
            let shape = Shape::Counts(&table[..f]);
            if !fold.visit(&Partition { position, guess, shape, space, candidates }) {
                return false;
            }
        }
        i = end;
    }
    true
}

/// Counts the feedbacks below `f` in 32 lanes over `m` rows of 32 bytes each, row `r` at
/// `row(r)`, into `totals` (the rest of `totals` is left as it was).
///
/// # Safety
/// The CPU must support AVX2, and each `row(r)` must point to 32 readable bytes.
#[target_feature(enable = "avx2")]
unsafe fn count(m: usize, row: impl Fn(usize) -> *const u8 + Copy, f: usize, totals: &mut Totals) {
    for base in (0..f).step_by(HALF) {
        // SAFETY: as this function's.
        unsafe { count_half(m, row, base as u8, &mut totals[base..base + HALF]) };
    }
}

/// [`count`] of the feedbacks `base..base + 8`.
///
/// # Safety
/// As [`count`]'s.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn count_half(m: usize, row: impl Fn(usize) -> *const u8, base: u8, totals: &mut [[u32; LANES]]) {
    use std::arch::x86_64::*;
    let values: [__m256i; HALF] = std::array::from_fn(|k| _mm256_set1_epi8((base + k as u8) as i8));
    let mut counters = [_mm256_setzero_si256(); HALF];
    let mut first = true;
    let mut r = 0;
    while r < m {
        let rows = (m - r).min(FLUSH_ROWS);
        for r in r..r + rows {
            // SAFETY: 32 readable bytes (this function's contract).
            let v = unsafe { _mm256_loadu_si256(row(r).cast()) };
            for (counter, &value) in counters.iter_mut().zip(&values) {
                *counter = _mm256_sub_epi8(*counter, _mm256_cmpeq_epi8(v, value));
            }
        }
        r += rows;
        // Set by the first flush, added to by later ones.
        for (counter, total) in counters.iter_mut().zip(totals.iter_mut()) {
            let mut bytes = [0u8; LANES];
            // SAFETY: 32 bytes stored into 32.
            unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), *counter) };
            for (t, &b) in total.iter_mut().zip(&bytes) {
                *t = if first { 0 } else { *t } + u32::from(b);
            }
            *counter = _mm256_setzero_si256();
        }
        first = false;
    }
    if first {
        for total in totals {
            *total = [0; LANES];
        }
    }
}
