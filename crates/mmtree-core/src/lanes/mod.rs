//! Scoring one code against 32 at once: codes in blocks laid out as structure of arrays, so
//! one AVX2 instruction compares a peg (or takes a colour minimum) for 32 codes.
//!
//! Three ways to use it, one per shape of the work:
//! * [`CodeBlocks::try_for_each_block`] (here): one guess against many candidates;
//! * [`CodeBlocks::for_each_partition`] (`pairwise`): 32 guesses at once against a few
//!   candidates, reading each guess's partition off pairwise equalities of feedback keys, so
//!   no per-guess histogram is ever built;
//! * [`CodeBlocks::histograms`] (`histograms`): 32 guesses' partition tables at once against
//!   many candidates.
//!
//! Blocks of guesses of one colour multiset have one total (blacks plus whites) with each
//! candidate, the same in every lane; given those totals ([`Shares`]), both kernels compare
//! candidates only within their total's share, and count parts by blacks alone.
//!
//! All compute the *raw key* `(b << 4) | t` (blacks, blacks + whites; `t = b` in the
//! black-only game), which determines the feedback; [`FeedbackScheme`](crate::FeedbackScheme)
//! maps it to a feedback index. `probes` holds the codes scored against blocks: each block's rows
//! are compared once with every (position, colour) pair they have, and a code's blacks are the
//! sum of its pairs' masks.

mod histograms;
mod pairwise;
mod probes;
#[cfg(test)]
mod tests;

use crate::code::Code;
use crate::game::{FeedbackKind, Game, MAX_PEGS};

pub use pairwise::{LaneRows, LaneStats, Shares};
#[cfg(target_arch = "x86_64")]
use probes::Broadcast;
pub use probes::ProbeSet;

/// Codes per block: one AVX2 register of bytes.
pub const BLOCK: usize = 32;

/// Most probes [`CodeBlocks::for_each_partition`] accepts (its pairwise work grows as the square).
pub const MAX_PROBES: usize = 128;

/// Codes in blocks of [`BLOCK`]: row `p < n` holds each code's colour at position `p`, row
/// `n + c` its number of pegs of colour `c`.
///
/// ```
/// use mmtree_core::{Alphabet, CodeBlocks, Game, GameSpec, Probe};
/// let game = Game::new(GameSpec::mastermind(4, 6))?;
/// let abc = Alphabet::default();
/// let codes = ["1122", "1213", "6543"].map(|s| abc.parse(&game, s).unwrap());
/// let blocks = CodeBlocks::new(&game, &codes);
/// let probe = Probe::new(&abc.parse(&game, "1123")?);
/// let mut keys = Vec::new();
/// blocks.try_for_each_block(&probe, |block, valid| {
///     keys.extend_from_slice(&block[..valid]);
///     true
/// });
/// // (blacks << 4) | (blacks + whites): 1123 vs 1122 is (3,0), vs 1213 (2,2), vs 6543 (1,0).
/// assert_eq!(keys, [0x33, 0x24, 0x11]);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CodeBlocks {
    n: usize,
    rows: usize,
    len: usize,
    totals: bool,
    data: Vec<u8>,
}

/// One code prepared for scoring against blocks: its pegs and its distinct colours with their
/// counts (at most `n`, so colours it lacks cost nothing).
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    n: u8,
    pegs: [u8; MAX_PEGS as usize],
    colours: u8,
    /// `(row of the colour, count)`.
    counts: [(u8, u8); MAX_PEGS as usize],
}

impl Probe {
    /// Prepares a code.
    pub fn new(code: &Code) -> Probe {
        let n = code.len();
        let mut pegs = [0u8; MAX_PEGS as usize];
        pegs[..n].copy_from_slice(code.pegs());
        let mut counts = [(0u8, 0u8); MAX_PEGS as usize];
        let mut colours = 0usize;
        for &c in code.pegs() {
            let row = (n + c as usize) as u8;
            match counts[..colours].iter_mut().find(|(r, _)| *r == row) {
                Some((_, count)) => *count += 1,
                None => {
                    counts[colours] = (row, 1);
                    colours += 1;
                }
            }
        }
        Probe { n: n as u8, pegs, colours: colours as u8, counts }
    }

    pub(super) fn pegs(&self) -> &[u8] {
        &self.pegs[..self.n as usize]
    }

    pub(super) fn counts(&self) -> &[(u8, u8)] {
        &self.counts[..self.colours as usize]
    }
}

impl CodeBlocks {
    /// Lays out `codes` (of `game`) in blocks; the last block is padded.
    pub fn new(game: &Game, codes: &[Code]) -> CodeBlocks {
        let (n, k) = (game.n() as usize, game.k() as usize);
        let totals = game.feedback_kind() == FeedbackKind::BlackWhite;
        let mut blocks = CodeBlocks { n, rows: n + k, len: 0, totals, data: Vec::new() };
        blocks.refill(codes);
        blocks
    }

    /// Number of codes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no codes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the layout takes.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        self.len.div_ceil(BLOCK)
    }

    /// Codes in block `b` (the last may be partial).
    pub fn block_len(&self, b: usize) -> usize {
        (self.len - b * BLOCK).min(BLOCK)
    }

    /// Where block `b`'s rows start, for the kernels.
    #[cfg(target_arch = "x86_64")]
    fn block(&self, b: usize) -> *const u8 {
        self.data[b * self.rows * BLOCK..].as_ptr()
    }

    /// Calls `visit(keys, valid)` for each block in order with the raw keys of `probe`
    /// against its codes (lanes `valid..` are padding); stops as soon as `visit` returns
    /// `false`, and returns whether every block was visited.
    #[inline]
    pub fn try_for_each_block(&self, probe: &Probe, visit: impl FnMut(&[u8; BLOCK], usize) -> bool) -> bool {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present, checked just above.
            return unsafe { self.try_for_each_block_avx2(probe, visit) };
        }
        self.try_for_each_block_scalar(probe, visit)
    }

    fn try_for_each_block_scalar(&self, probe: &Probe, mut visit: impl FnMut(&[u8; BLOCK], usize) -> bool) -> bool {
        (0..self.blocks()).all(|b| visit(&self.keys_scalar(b, probe), self.block_len(b)))
    }

    pub(super) fn keys_scalar(&self, b: usize, probe: &Probe) -> [u8; BLOCK] {
        let block = &self.data[b * self.rows * BLOCK..(b + 1) * self.rows * BLOCK];
        let mut keys = [0u8; BLOCK];
        for (lane, key) in keys.iter_mut().enumerate() {
            let black = probe.pegs().iter().enumerate().filter(|&(p, &c)| block[p * BLOCK + lane] == c).count() as u8;
            let total: u8 = if self.totals {
                probe.counts().iter().map(|&(row, count)| block[row as usize * BLOCK + lane].min(count)).sum()
            } else {
                black
            };
            *key = (black << 4) | total;
        }
        keys
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn try_for_each_block_avx2(
        &self,
        probe: &Probe,
        mut visit: impl FnMut(&[u8; BLOCK], usize) -> bool,
    ) -> bool {
        use std::arch::x86_64::*;
        let broadcast = Broadcast::new(probe, self.totals);
        let mut keys = [0u8; BLOCK];
        for b in 0..self.blocks() {
            // SAFETY: block b has `rows` rows of BLOCK bytes; every row index is below rows.
            let key = unsafe { broadcast.keys(self.block(b)) };
            // SAFETY: keys is BLOCK = 32 bytes.
            unsafe { _mm256_storeu_si256(keys.as_mut_ptr().cast(), key) };
            if !visit(&keys, self.block_len(b)) {
                return false;
            }
        }
        true
    }
}

impl CodeBlocks {
    /// Lays out `codes` (of this layout's game) in blocks instead, reusing its memory.
    pub fn refill(&mut self, codes: &[Code]) {
        let (n, rows) = (self.n, self.rows);
        self.data.clear();
        self.data.resize(codes.len().div_ceil(BLOCK) * rows * BLOCK, 0);
        for (i, code) in codes.iter().enumerate() {
            let base = (i / BLOCK) * rows * BLOCK + i % BLOCK;
            for (p, &c) in code.pegs().iter().enumerate() {
                self.data[base + p * BLOCK] = c;
                self.data[base + (n + c as usize) * BLOCK] += 1;
            }
        }
        self.len = codes.len();
    }
}
