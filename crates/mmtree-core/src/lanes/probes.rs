//! Codes scored against blocks, with their pegs and colour counts broadcast to 32 lanes.

use super::{Probe, BLOCK};
use crate::game::{FeedbackKind, Game, MAX_PEGS};

/// Probes with their pegs and colour counts broadcast to 32 lanes once, for
/// [`CodeBlocks::for_each_partition`](super::CodeBlocks::for_each_partition) (at most
/// [`MAX_PROBES`](super::MAX_PROBES)) and [`CodeBlocks::histograms`](super::CodeBlocks::histograms).
#[derive(Clone, Debug)]
pub struct ProbeSet {
    pub(super) probes: Vec<Probe>,
    pub(super) totals: bool,
    /// Per probe: `n` peg vectors, then one count vector per colour it has.
    vectors: Vec<[u8; BLOCK]>,
    /// Byte offset, within a block, of the row each vector is compared with.
    offsets: Vec<u32>,
    /// Per probe: its first vector and its number of colours.
    starts: Vec<(u32, u8)>,
}

impl ProbeSet {
    /// Prepares the probes (codes of `game`).
    pub fn new(game: &Game, probes: Vec<Probe>) -> ProbeSet {
        let totals = game.feedback_kind() == FeedbackKind::BlackWhite;
        let (mut vectors, mut offsets, mut starts) = (Vec::new(), Vec::new(), Vec::new());
        for probe in &probes {
            let colours = if totals { probe.counts().len() } else { 0 };
            starts.push((vectors.len() as u32, colours as u8));
            for (p, &c) in probe.pegs().iter().enumerate() {
                vectors.push([c; BLOCK]);
                offsets.push((p * BLOCK) as u32);
            }
            for &(row, count) in &probe.counts()[..colours] {
                vectors.push([count; BLOCK]);
                offsets.push(u32::from(row) * BLOCK as u32);
            }
        }
        ProbeSet { probes, totals, vectors, offsets, starts }
    }

    /// Number of probes.
    pub fn len(&self) -> usize {
        self.probes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.probes.is_empty()
    }

    /// Blacks of probe `j` against the block at `block`: what tells its feedbacks apart
    /// among codes of one total with it.
    ///
    /// # Safety
    /// `block` must point to a whole block of a layout of the probes' game.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn blacks(&self, j: usize, block: *const u8) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let start = self.starts[j].0 as usize;
        let n = self.probes[j].n as usize;
        debug_assert!(start + n <= self.vectors.len());
        let mut black = _mm256_setzero_si256();
        for i in start..start + n {
            // SAFETY: as in `keys`: probe j's vectors are start..start + n + colours.
            let (row, peg) = unsafe {
                (
                    _mm256_loadu_si256(block.add(*self.offsets.get_unchecked(i) as usize).cast()),
                    _mm256_loadu_si256(self.vectors.get_unchecked(i).as_ptr().cast()),
                )
            };
            black = _mm256_sub_epi8(black, _mm256_cmpeq_epi8(row, peg));
        }
        black
    }

    /// Raw keys of probe `j` against the block at `block`.
    ///
    /// # Safety
    /// `block` must point to a whole block of a layout of the probes' game.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn keys(&self, j: usize, block: *const u8, totals: bool) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let (start, colours) = self.starts[j];
        let start = start as usize;
        let n = self.probes[j].n as usize;
        debug_assert!(start + n + colours as usize <= self.vectors.len());
        let vec = |i: usize| {
            // SAFETY: i < vectors.len() = offsets.len() (built together in `new`: probe j's
            // vectors are start..start + n + colours); each vector is 32 bytes; offsets
            // stay within a block.
            unsafe {
                (
                    _mm256_loadu_si256(block.add(*self.offsets.get_unchecked(i) as usize).cast()),
                    _mm256_loadu_si256(self.vectors.get_unchecked(i).as_ptr().cast()),
                )
            }
        };
        let mut black = _mm256_setzero_si256();
        for i in start..start + n {
            let (row, peg) = vec(i);
            black = _mm256_sub_epi8(black, _mm256_cmpeq_epi8(row, peg));
        }
        let mut total = black;
        if totals {
            total = _mm256_setzero_si256();
            for i in start + n..start + n + colours as usize {
                let (row, count) = vec(i);
                total = _mm256_add_epi8(total, _mm256_min_epu8(row, count));
            }
        }
        // Blacks are at most 10, so shifting 16-bit lanes by 4 never carries across bytes.
        _mm256_or_si256(_mm256_slli_epi16(black, 4), total)
    }
}

/// A probe's pegs and colour counts, each broadcast to all 32 lanes.
#[cfg(target_arch = "x86_64")]
pub(super) struct Broadcast {
    pegs: [std::arch::x86_64::__m256i; MAX_PEGS as usize],
    n: usize,
    counts: [(usize, std::arch::x86_64::__m256i); MAX_PEGS as usize],
    colours: usize,
    totals: bool,
}

#[cfg(target_arch = "x86_64")]
impl Broadcast {
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn new(probe: &Probe, totals: bool) -> Broadcast {
        use std::arch::x86_64::*;
        let zero = _mm256_setzero_si256();
        let mut pegs = [zero; MAX_PEGS as usize];
        for (slot, &c) in pegs.iter_mut().zip(probe.pegs()) {
            *slot = _mm256_set1_epi8(c as i8);
        }
        let mut counts = [(0, zero); MAX_PEGS as usize];
        for (slot, &(row, count)) in counts.iter_mut().zip(probe.counts()) {
            *slot = (row as usize, _mm256_set1_epi8(count as i8));
        }
        Broadcast {
            pegs,
            n: probe.n as usize,
            counts,
            colours: if totals { probe.colours as usize } else { 0 },
            totals,
        }
    }

    /// Raw keys against the block at `block`.
    ///
    /// # Safety
    /// `block` must point to a whole block of the layout whose rows the probe indexes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn keys(&self, block: *const u8) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let mut black = _mm256_setzero_si256();
        for (p, &peg) in self.pegs[..self.n].iter().enumerate() {
            // SAFETY: row p < n is in the block.
            let row = unsafe { _mm256_loadu_si256(block.add(p * BLOCK).cast()) };
            black = _mm256_sub_epi8(black, _mm256_cmpeq_epi8(row, peg));
        }
        let mut total = _mm256_setzero_si256();
        for &(r, count) in &self.counts[..self.colours] {
            // SAFETY: r = n + colour < rows.
            let row = unsafe { _mm256_loadu_si256(block.add(r * BLOCK).cast()) };
            total = _mm256_add_epi8(total, _mm256_min_epu8(row, count));
        }
        if !self.totals {
            total = black;
        }
        // Blacks are at most 10, so shifting 16-bit lanes by 4 never carries across bytes.
        _mm256_or_si256(_mm256_slli_epi16(black, 4), total)
    }
}
