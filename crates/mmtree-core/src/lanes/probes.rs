//! Codes scored against blocks: their pegs as indices into a block's table of equality masks,
//! their colour counts broadcast to 32 lanes.

use super::{Probe, BLOCK};
use crate::game::{FeedbackKind, Game, MAX_COLOURS, MAX_PEGS};

/// Most (position, colour) pairs a probe set can hold.
const MAX_CELLS: usize = MAX_PEGS as usize * MAX_COLOURS as usize;

/// Most masks a block's table holds (32 bytes each, on the kernel's stack): every cell, and
/// the pairs of cells when they fit too.
const MAX_MASKS: usize = 1024;

/// Probes prepared once (pegs as cells of a block's mask table, colour counts broadcast to 32
/// lanes) for
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
    /// The pairs of cells at positions `2i` and `2i + 1` that some probe has, as indices of
    /// cells; their masks follow the cells' in the table.
    pairs: Vec<(u16, u16)>,
    /// Per probe, its masks in the table (probe `j`'s from `j * per_probe`): one per pair of
    /// positions (and one for the last position when `n` is odd), or one per position when
    /// the pairs do not fit.
    slots: Vec<u16>,
    per_probe: usize,
}

/// A block's equality masks with each cell of a probe set, then with each pair of cells (see
/// [`ProbeSet::equalities`]): a probe's blacks are then the sum of about `n / 2` masks, the
/// compares made once per block for all the probes that share each (position, colour) pair,
/// not once per probe.
#[cfg(target_arch = "x86_64")]
pub(super) struct Equalities {
    masks: [std::mem::MaybeUninit<std::arch::x86_64::__m256i>; MAX_MASKS],
}

#[cfg(target_arch = "x86_64")]
impl Equalities {
    pub(super) fn new() -> Equalities {
        Equalities { masks: [std::mem::MaybeUninit::uninit(); MAX_MASKS] }
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
        let (pairs, slots, per_probe) = pair_cells(&probes, n, k, &slot_of, cells.len());
        let (mut vectors, mut offsets, mut starts) = (Vec::new(), Vec::new(), Vec::new());
        for probe in &probes {
            let colours = if totals { probe.counts().len() } else { 0 };
            starts.push((vectors.len() as u32, colours as u8));
            for &(row, count) in &probe.counts()[..colours] {
                vectors.push([count; BLOCK]);
                offsets.push(u32::from(row) * BLOCK as u32);
            }
        }
        ProbeSet { probes, totals, vectors, offsets, starts, cells, pairs, slots, per_probe }
    }

    /// Fills `into` with the equality masks of the block at `block` with every cell and pair.
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
        let (cells, pairs) = into.masks.split_at_mut(self.cells.len());
        for (mask, &(a, b)) in pairs.iter_mut().zip(&self.pairs) {
            // SAFETY: a and b are cells, filled just above. Two masks of -1 add to -2: a
            // pair's mask is minus its blacks.
            let (a, b) = unsafe { (cells[usize::from(a)].assume_init(), cells[usize::from(b)].assume_init()) };
            *mask = std::mem::MaybeUninit::new(_mm256_add_epi8(a, b));
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
        let per = self.per_probe;
        let mut black = _mm256_setzero_si256();
        // SAFETY: probe j's slots are j * per..(j + 1) * per, each a filled mask (the caller's
        // promise).
        for &slot in unsafe { self.slots.get_unchecked(j * per..(j + 1) * per) } {
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

/// The pairs of cells (at positions `2i`, `2i + 1`) the probes have, and each probe's masks:
/// `(pairs, slots, per_probe)` of [`ProbeSet`]. A pair's index in the table comes after the
/// `cells` cells; `slot_of[p * k + c]` is cell (p, c)'s. Cells alone when the pairs do not
/// fit in [`MAX_MASKS`].
fn pair_cells(
    probes: &[Probe],
    n: usize,
    k: usize,
    slot_of: &[u16],
    cells: usize,
) -> (Vec<(u16, u16)>, Vec<u16>, usize) {
    let cell = |probe: &Probe, p: usize| slot_of[p * k + usize::from(probe.pegs()[p])];
    // Each pair of cells some probe has, numbered in order of first cell, then second.
    let mut pairs: Vec<(u16, u16)> = Vec::new();
    for p in (0..n / 2).map(|i| 2 * i) {
        let start = pairs.len();
        pairs.extend(probes.iter().map(|probe| (cell(probe, p), cell(probe, p + 1))));
        pairs[start..].sort_unstable();
        let mut end = start;
        for i in start..pairs.len() {
            if i == start || pairs[i] != pairs[end - 1] {
                pairs[end] = pairs[i];
                end += 1;
            }
        }
        pairs.truncate(end);
    }
    if cells + pairs.len() > MAX_MASKS {
        let slots = probes.iter().flat_map(|probe| (0..n).map(move |p| cell(probe, p))).collect();
        return (Vec::new(), slots, n);
    }
    let per_probe = n.div_ceil(2);
    let mut slots = Vec::with_capacity(probes.len() * per_probe);
    for probe in probes {
        for p in (0..n / 2).map(|i| 2 * i) {
            let pair = (cell(probe, p), cell(probe, p + 1));
            // Listed above, and sorted: cells are numbered by position, so the pairs of one
            // position come before those of the next.
            let at = pairs.binary_search(&pair).unwrap_or_else(|_| unreachable!("BUG: a probe's pair unlisted"));
            slots.push((cells + at) as u16);
        }
        if n % 2 == 1 {
            slots.push(cell(probe, n - 1));
        }
    }
    (pairs, slots, per_probe)
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
