//! Codes scored against blocks, with their pegs and colour counts broadcast to 32 lanes.

use super::{Probe, BLOCK};
use crate::game::{FeedbackKind, Game, MAX_COLOURS, MAX_PEGS};

/// Most (position, colour) pairs a probe set can hold.
pub(super) const MAX_CELLS: usize = MAX_PEGS as usize * MAX_COLOURS as usize;

/// Probes with their pegs and colour counts broadcast to 32 lanes once, for
/// [`CodeBlocks::for_each_partition`](super::CodeBlocks::for_each_partition) (at most
/// [`MAX_PROBES`](super::MAX_PROBES)) and [`CodeBlocks::histograms`](super::CodeBlocks::histograms).
#[derive(Clone, Debug)]
pub struct ProbeSet {
    pub(super) probes: Vec<Probe>,
    pub(super) totals: bool,
    /// Per probe: one count vector per colour it has (for totals).
    vectors: Vec<[u8; BLOCK]>,
    /// Byte offset, within a block, of the row each vector is compared with.
    offsets: Vec<u32>,
    /// Per probe: its first vector and its number of colours.
    starts: Vec<(u32, u8)>,
    /// The (position, colour) pairs some probe has, as (byte offset of the position's row
    /// within a block, colour), by position: see [`Equalities`].
    cells: Vec<(u32, u8)>,
    /// Per probe, its `n` cells (probe `j`'s from `j * n`).
    slots: Vec<u16>,
}

/// A block's equality masks with each cell of a probe set (see [`ProbeSet::equalities`]):
/// a probe's blacks are then the sum of its `n` masks, `n` compares made once per block for
/// all the probes that share each (position, colour) pair, not once per probe.
#[cfg(target_arch = "x86_64")]
pub(super) struct Equalities {
    masks: [std::mem::MaybeUninit<std::arch::x86_64::__m256i>; MAX_CELLS],
}

#[cfg(target_arch = "x86_64")]
impl Equalities {
    pub(super) fn new() -> Equalities {
        Equalities { masks: [std::mem::MaybeUninit::uninit(); MAX_CELLS] }
    }
}

impl ProbeSet {
    /// Prepares the probes (codes of `game`).
    pub fn new(game: &Game, probes: Vec<Probe>) -> ProbeSet {
        let totals = game.feedback_kind() == FeedbackKind::BlackWhite;
        let (n, k) = (usize::from(game.n()), usize::from(game.k()));
        // Each (position, colour) pair some probe has, numbered by position then colour.
        let mut slot_of = [u16::MAX; MAX_CELLS];
        for probe in &probes {
            for (p, &c) in probe.pegs().iter().enumerate() {
                slot_of[p * k + usize::from(c)] = 0;
            }
        }
        let mut cells = Vec::new();
        for (cell, slot) in slot_of[..n * k].iter_mut().enumerate().filter(|(_, s)| **s == 0) {
            *slot = cells.len() as u16;
            cells.push(((cell / k * BLOCK) as u32, (cell % k) as u8));
        }
        let slots = probes
            .iter()
            .flat_map(|probe| probe.pegs().iter().enumerate().map(|(p, &c)| slot_of[p * k + usize::from(c)]))
            .collect();
        let (mut vectors, mut offsets, mut starts) = (Vec::new(), Vec::new(), Vec::new());
        for probe in &probes {
            let colours = if totals { probe.counts().len() } else { 0 };
            starts.push((vectors.len() as u32, colours as u8));
            for &(row, count) in &probe.counts()[..colours] {
                vectors.push([count; BLOCK]);
                offsets.push(u32::from(row) * BLOCK as u32);
            }
        }
        ProbeSet { probes, totals, vectors, offsets, starts, cells, slots }
    }

    /// Fills `into` with the equality masks of the block at `block` with every cell.
    ///
    /// # Safety
    /// `block` must point to a whole block of a layout of the probes' game.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn equalities(&self, block: *const u8, into: &mut Equalities) {
        use std::arch::x86_64::*;
        for (mask, &(offset, colour)) in into.masks.iter_mut().zip(&self.cells) {
            // SAFETY: the offset is that of a position's row, within the block.
            let row = unsafe { _mm256_loadu_si256(block.add(offset as usize).cast()) };
            *mask = std::mem::MaybeUninit::new(_mm256_cmpeq_epi8(row, _mm256_set1_epi8(colour as i8)));
        }
    }

    /// Blacks of probe `j` against the block whose masks are `masks` (see
    /// [`ProbeSet::equalities`]): what tells its feedbacks apart among codes of one total with it.
    ///
    /// # Safety
    /// `masks` must have been filled for this probe set.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn blacks(&self, j: usize, masks: &Equalities) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let n = self.probes[j].n as usize;
        let mut black = _mm256_setzero_si256();
        // SAFETY: probe j's slots are j * n..(j + 1) * n, each a filled mask (the caller's promise).
        for &slot in unsafe { self.slots.get_unchecked(j * n..(j + 1) * n) } {
            let mask = unsafe { masks.masks.get_unchecked(usize::from(slot)).assume_init() };
            black = _mm256_sub_epi8(black, mask);
        }
        black
    }

    /// Number of probes.
    pub fn len(&self) -> usize {
        self.probes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.probes.is_empty()
    }

    /// Raw keys of probe `j` against the block whose masks are `masks` (see
    /// [`ProbeSet::equalities`]), at `block`.
    ///
    /// # Safety
    /// `block` must point to a whole block of a layout of the probes' game, and `masks` must
    /// have been filled for it and this probe set.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn keys(
        &self,
        j: usize,
        block: *const u8,
        masks: &Equalities,
        totals: bool,
    ) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        // SAFETY: the caller's promise.
        let black = unsafe { self.blacks(j, masks) };
        let mut total = black;
        if totals {
            let (start, colours) = self.starts[j];
            let start = start as usize;
            debug_assert!(start + colours as usize <= self.vectors.len());
            total = _mm256_setzero_si256();
            for i in start..start + colours as usize {
                // SAFETY: i < vectors.len() = offsets.len() (built together in `new`: probe j's
                // vectors are start..start + colours); each vector is 32 bytes; offsets stay
                // within a block.
                let (row, count) = unsafe {
                    (
                        _mm256_loadu_si256(block.add(*self.offsets.get_unchecked(i) as usize).cast()),
                        _mm256_loadu_si256(self.vectors.get_unchecked(i).as_ptr().cast()),
                    )
                };
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
