//! Scoring one code against 32 at once: codes in blocks laid out as structure of arrays, so
//! one AVX2 instruction compares a peg (or takes a colour minimum) for 32 codes.
//!
//! Two ways to use it, one per shape of the work:
//! * [`CodeBlocks::try_for_each_block`]: one guess against many candidates (big nodes);
//! * [`CodeBlocks::for_each_partition`]: 32 guesses at once against a few candidates (small
//!   nodes), reading each guess's partition off pairwise equalities of feedback keys, so no
//!   per-guess histogram is ever built.
//!
//! Both compute the *raw key* `(b << 4) | t` (blacks, blacks + whites; `t = b` in the
//! black-only game), which determines the feedback; [`FeedbackScheme`](crate::FeedbackScheme)
//! maps it to a feedback index.

use crate::code::Code;
use crate::game::{FeedbackKind, Game, MAX_PEGS};
use crate::scan::Cut;

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

    fn pegs(&self) -> &[u8] {
        &self.pegs[..self.n as usize]
    }

    fn counts(&self) -> &[(u8, u8)] {
        &self.counts[..self.colours as usize]
    }
}

/// What [`CodeBlocks::for_each_partition`] reads off each lane's partition of the probes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneStats {
    /// The largest part.
    pub largest: [u8; BLOCK],
    /// The sum of the squared part sizes.
    pub sum_squares: [u32; BLOCK],
    /// The number of non-empty parts.
    pub parts: [u8; BLOCK],
}

impl CodeBlocks {
    /// Lays out `codes` (of `game`) in blocks; the last block is padded.
    pub fn new(game: &Game, codes: &[Code]) -> CodeBlocks {
        let (n, k) = (game.n() as usize, game.k() as usize);
        let rows = n + k;
        let blocks = codes.len().div_ceil(BLOCK);
        let mut data = vec![0u8; blocks * rows * BLOCK];
        for (i, code) in codes.iter().enumerate() {
            let base = (i / BLOCK) * rows * BLOCK + i % BLOCK;
            for (p, &c) in code.pegs().iter().enumerate() {
                data[base + p * BLOCK] = c;
                data[base + (n + c as usize) * BLOCK] += 1;
            }
        }
        let totals = game.feedback_kind() == FeedbackKind::BlackWhite;
        CodeBlocks { n, rows, len: codes.len(), totals, data }
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

    fn keys_scalar(&self, b: usize, probe: &Probe) -> [u8; BLOCK] {
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
            let key = unsafe { broadcast.keys(self.data.as_ptr().add(b * self.rows * BLOCK)) };
            // SAFETY: keys is BLOCK = 32 bytes.
            unsafe { _mm256_storeu_si256(keys.as_mut_ptr().cast(), key) };
            if !visit(&keys, self.block_len(b)) {
                return false;
            }
        }
        true
    }

    /// For each block of `blocks` (block numbers, in the order wanted), calls
    /// `visit(block, stats, ranks)` with the partition of `probes` by feedback for each of the
    /// block's codes taken as a guess; stops as soon as `visit` returns `false`.
    ///
    /// With `want_ranks`, `ranks[j][lane]` says how many probes before `j` share probe `j`'s
    /// part, so any function of the part sizes can be recovered (a part of size `s` holds
    /// ranks `0..s`); otherwise `ranks` is empty.
    ///
    /// Parts are read off equal raw keys, pair by pair: the largest part is one more than
    /// the largest rank, the sum of squares is `sum (2 rank + 1)`, and each part has one
    /// rank 0.
    ///
    /// `hopeless` (then what `visit` returns, `None` to stop) lets a full block stop early
    /// once all its lanes are past it; its stats are then those of the probes counted so far,
    /// which are past it too (see [`Cut`]).
    pub fn for_each_partition(
        &self,
        blocks: impl Iterator<Item = usize>,
        probes: &ProbeSet,
        want_ranks: bool,
        hopeless: Cut,
        visit: impl FnMut(usize, &LaneStats, &[[u8; BLOCK]]) -> Option<Cut>,
    ) -> bool {
        assert_eq!(probes.totals, self.totals, "BUG: probes of another game");
        assert!(probes.len() <= MAX_PROBES, "BUG: {} probes, at most {MAX_PROBES}", probes.len());
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present, checked just above.
            return unsafe { self.for_each_partition_avx2(blocks, probes, want_ranks, hopeless, visit) };
        }
        self.for_each_partition_scalar(blocks, probes, want_ranks, visit)
    }

    fn for_each_partition_scalar(
        &self,
        mut blocks: impl Iterator<Item = usize>,
        probes: &ProbeSet,
        want_ranks: bool,
        mut visit: impl FnMut(usize, &LaneStats, &[[u8; BLOCK]]) -> Option<Cut>,
    ) -> bool {
        let m = probes.probes.len();
        let mut ranks = vec![[0u8; BLOCK]; m];
        blocks.all(|b| {
            let keys: Vec<[u8; BLOCK]> = probes.probes.iter().map(|p| self.keys_scalar(b, p)).collect();
            let mut stats = LaneStats { largest: [0; BLOCK], sum_squares: [0; BLOCK], parts: [0; BLOCK] };
            for (j, kj) in keys.iter().enumerate() {
                for lane in 0..BLOCK {
                    let rank = keys[..j].iter().filter(|ki| ki[lane] == kj[lane]).count() as u8;
                    stats.largest[lane] = stats.largest[lane].max(rank + 1);
                    stats.sum_squares[lane] += 2 * u32::from(rank) + 1;
                    stats.parts[lane] += u8::from(rank == 0);
                    ranks[j][lane] = rank;
                }
            }
            visit(b, &stats, if want_ranks { &ranks } else { &[] }).is_some()
        })
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn for_each_partition_avx2(
        &self,
        blocks: impl Iterator<Item = usize>,
        probes: &ProbeSet,
        want_ranks: bool,
        mut hopeless: Cut,
        mut visit: impl FnMut(usize, &LaneStats, &[[u8; BLOCK]]) -> Option<Cut>,
    ) -> bool {
        use std::arch::x86_64::*;
        use std::mem::MaybeUninit;
        let m = probes.probes.len();
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi8(1);
        let mut ranks = [[0u8; BLOCK]; MAX_PROBES];
        let mut stats = LaneStats { largest: [0; BLOCK], sum_squares: [0; BLOCK], parts: [0; BLOCK] };
        for b in blocks {
            assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
            // SAFETY: block b is in bounds (checked above).
            let block = unsafe { self.data.as_ptr().add(b * self.rows * BLOCK) };
            let mut keys = [MaybeUninit::<__m256i>::uninit(); MAX_PROBES];
            let full = self.block_len(b) == BLOCK;
            let (mut largest, mut parts) = (zero, zero);
            // Sum of ranks widened to 16 bits: lanes 0-7 and 16-23 in `lo`, 8-15 and 24-31 in `hi`.
            let (mut lo, mut hi) = (zero, zero);
            for j in 0..m {
                // SAFETY: the probe set was built for this layout (same game, checked by the caller).
                let key = unsafe { probes.keys(j, block, self.totals) };
                let mut rank = zero;
                for earlier in &keys[..j] {
                    // SAFETY: keys[..j] were written in earlier iterations.
                    let earlier = unsafe { earlier.assume_init() };
                    rank = _mm256_sub_epi8(rank, _mm256_cmpeq_epi8(key, earlier));
                }
                keys[j] = MaybeUninit::new(key);
                largest = _mm256_max_epu8(largest, rank);
                parts = _mm256_sub_epi8(parts, _mm256_cmpeq_epi8(rank, zero));
                lo = _mm256_add_epi16(lo, _mm256_unpacklo_epi8(rank, zero));
                hi = _mm256_add_epi16(hi, _mm256_unpackhi_epi8(rank, zero));
                if want_ranks {
                    // SAFETY: each row of ranks is BLOCK = 32 bytes.
                    unsafe { _mm256_storeu_si256(ranks[j].as_mut_ptr().cast(), rank) };
                }
                if j % 4 == 3 && full && hopeless.all_lanes(m, m - 1 - j, largest, parts, lo, hi) {
                    break;
                }
            }
            let (mut lo16, mut hi16) = ([0u16; 16], [0u16; 16]);
            // SAFETY: the destinations are 32 bytes each.
            unsafe {
                let largest = if m == 0 { zero } else { _mm256_add_epi8(largest, one) };
                _mm256_storeu_si256(stats.largest.as_mut_ptr().cast(), largest);
                _mm256_storeu_si256(stats.parts.as_mut_ptr().cast(), parts);
                _mm256_storeu_si256(lo16.as_mut_ptr().cast(), lo);
                _mm256_storeu_si256(hi16.as_mut_ptr().cast(), hi);
            }
            let m = m as u32;
            for i in 0..8 {
                stats.sum_squares[i] = m + 2 * u32::from(lo16[i]);
                stats.sum_squares[i + 8] = m + 2 * u32::from(hi16[i]);
                stats.sum_squares[i + 16] = m + 2 * u32::from(lo16[i + 8]);
                stats.sum_squares[i + 24] = m + 2 * u32::from(hi16[i + 8]);
            }
            match visit(b, &stats, if want_ranks { &ranks[..m as usize] } else { &[] }) {
                Some(next) => hopeless = next,
                None => return false,
            }
        }
        true
    }
}

#[cfg(target_arch = "x86_64")]
impl Cut {
    /// Whether every lane is past the bound, with `rest` of the `m` probes still to count;
    /// `largest` and `lo`/`hi` hold ranks (part size minus one; sums of ranks in 16 bits).
    #[inline]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    fn all_lanes(
        self,
        m: usize,
        rest: usize,
        largest: std::arch::x86_64::__m256i,
        parts: std::arch::x86_64::__m256i,
        lo: std::arch::x86_64::__m256i,
        hi: std::arch::x86_64::__m256i,
    ) -> bool {
        use std::arch::x86_64::*;
        let at_least = |v: __m256i, t: __m256i| _mm256_cmpeq_epi8(_mm256_max_epu8(v, t), v);
        match self {
            Cut::Never | Cut::XLogX(_) => false,
            Cut::Largest(0) => true,
            Cut::Largest(c) => {
                // Ranks are at most 127, so a cut beyond 128 is never reached.
                let Ok(t) = u8::try_from(c - 1) else { return false };
                _mm256_movemask_epi8(at_least(largest, _mm256_set1_epi8(t as i8))) == -1
            }
            Cut::Parts(p) => {
                if rest as u64 >= u64::from(p) {
                    return false;
                }
                let p = p.min(u32::from(u8::MAX)) as u8;
                let most = _mm256_adds_epu8(parts, _mm256_set1_epi8(rest as i8));
                let at_most = _mm256_cmpeq_epi8(_mm256_min_epu8(most, _mm256_set1_epi8(p as i8)), most);
                _mm256_movemask_epi8(at_most) == -1
            }
            Cut::SumSquares(cut) => {
                // Each of the m probes adds 2 rank + 1, so the sum is at least m + 2 sum(rank).
                let Ok(t) = u16::try_from(cut.saturating_sub(m as u64).div_ceil(2)) else { return false };
                let t = _mm256_set1_epi16(t as i16);
                let at_least16 = |v: __m256i| _mm256_cmpeq_epi16(_mm256_max_epu16(v, t), v);
                _mm256_movemask_epi8(_mm256_and_si256(at_least16(lo), at_least16(hi))) == -1
            }
        }
    }
}

impl CodeBlocks {
    /// Lays out up to [`BLOCK`] codes as one block, reusing this layout's memory.
    pub fn refill(&mut self, codes: &[Code]) {
        assert!(codes.len() <= BLOCK, "BUG: {} codes for one block", codes.len());
        let n = self.n;
        self.data.clear();
        self.data.resize(self.rows * BLOCK, 0);
        for (lane, code) in codes.iter().enumerate() {
            for (p, &c) in code.pegs().iter().enumerate() {
                self.data[p * BLOCK + lane] = c;
                self.data[(n + c as usize) * BLOCK + lane] += 1;
            }
        }
        self.len = codes.len();
    }

    /// For each code of block `b` taken as a guess, adds one to `hist[lane][key]` for the raw
    /// key of every probe against it: the partition tables of 32 guesses at once.
    pub fn histograms(&self, b: usize, probes: &ProbeSet, hist: &mut [[u16; 256]; BLOCK]) {
        assert_eq!(probes.totals, self.totals, "BUG: probes of another game");
        assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
        let valid = self.block_len(b);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present, checked just above.
            return unsafe { self.histograms_avx2(b, valid, probes, hist) };
        }
        for probe in &probes.probes {
            let keys = self.keys_scalar(b, probe);
            for (h, &key) in hist[..valid].iter_mut().zip(&keys) {
                h[key as usize] += 1;
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn histograms_avx2(&self, b: usize, valid: usize, probes: &ProbeSet, hist: &mut [[u16; 256]; BLOCK]) {
        use std::arch::x86_64::*;
        // SAFETY: block b is in bounds (checked by the caller).
        let block = unsafe { self.data.as_ptr().add(b * self.rows * BLOCK) };
        let mut keys = [0u8; BLOCK];
        for j in 0..probes.len() {
            // SAFETY: same game (checked by the caller); keys is 32 bytes.
            unsafe { _mm256_storeu_si256(keys.as_mut_ptr().cast(), probes.keys(j, block, self.totals)) };
            for (h, &key) in hist[..valid].iter_mut().zip(&keys) {
                h[key as usize] += 1;
            }
        }
    }
}

/// Probes with their pegs and colour counts broadcast to 32 lanes once, for
/// [`CodeBlocks::for_each_partition`] (at most [`MAX_PROBES`]) and [`CodeBlocks::histograms`].
#[derive(Clone, Debug)]
pub struct ProbeSet {
    probes: Vec<Probe>,
    totals: bool,
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

    /// Raw keys of probe `j` against the block at `block`.
    ///
    /// # Safety
    /// `block` must point to a whole block of a layout of the probes' game.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn keys(&self, j: usize, block: *const u8, totals: bool) -> std::arch::x86_64::__m256i {
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
struct Broadcast {
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
    fn new(probe: &Probe, totals: bool) -> Broadcast {
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
    unsafe fn keys(&self, block: *const u8) -> std::arch::x86_64::__m256i {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameSpec;
    use crate::score::score_reference;

    fn raw(game: &Game, g: &Code, s: &Code) -> u8 {
        let fb = score_reference(game, g, s);
        match game.feedback_kind() {
            FeedbackKind::BlackWhite => (fb.black << 4) | (fb.black + fb.white),
            FeedbackKind::Black => (fb.black << 4) | fb.black,
        }
    }

    fn games() -> Vec<Game> {
        let mut specs = vec![GameSpec::mastermind(4, 6), GameSpec::mastermind(3, 9), GameSpec::mastermind(2, 20)];
        let mut bc = GameSpec::mastermind(4, 10);
        bc.variant = crate::Variant::Distinct;
        specs.push(bc);
        let mut black = GameSpec::mastermind(5, 3);
        black.feedback = FeedbackKind::Black;
        specs.push(black);
        specs.into_iter().map(|s| Game::new(s).unwrap()).collect()
    }

    fn codes(game: &Game) -> Vec<Code> {
        let space = crate::CodeSpace::new(*game, crate::MemoryLimit(1 << 30)).unwrap();
        space.iter().map(|(_, c)| c).step_by(7).collect()
    }

    #[test]
    fn keys_match_the_reference_on_every_path() {
        for game in games() {
            let codes = codes(&game);
            let blocks = CodeBlocks::new(&game, &codes);
            for g in codes.iter().step_by(5) {
                let probe = Probe::new(g);
                let expected: Vec<u8> = codes.iter().map(|s| raw(&game, g, s)).collect();
                let mut fast = Vec::new();
                blocks.try_for_each_block(&probe, |keys, valid| {
                    fast.extend_from_slice(&keys[..valid]);
                    true
                });
                let mut scalar = Vec::new();
                blocks.try_for_each_block_scalar(&probe, |keys, valid| {
                    scalar.extend_from_slice(&keys[..valid]);
                    true
                });
                assert_eq!(fast, expected, "{game:?} {g:?}");
                assert_eq!(scalar, expected, "{game:?} {g:?}");
            }
        }
    }

    #[test]
    fn partitions_match_a_direct_count() {
        for game in games() {
            let codes = codes(&game);
            let blocks = CodeBlocks::new(&game, &codes);
            for m in [0, 1, 2, 7, 33, MAX_PROBES] {
                let secrets: Vec<Code> = codes.iter().rev().step_by(3).take(m).copied().collect();
                let m = secrets.len();
                let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
                let mut fast = Vec::new();
                blocks.for_each_partition((0..blocks.blocks()).rev(), &probes, true, Cut::Never, |b, stats, ranks| {
                    fast.push((b, stats.clone(), ranks.to_vec()));
                    Some(Cut::Never)
                });
                let mut scalar = Vec::new();
                blocks.for_each_partition_scalar((0..blocks.blocks()).rev(), &probes, true, |b, stats, ranks| {
                    scalar.push((b, stats.clone(), ranks.to_vec()));
                    Some(Cut::Never)
                });
                assert_eq!(fast, scalar);
                for (b, stats, ranks) in &fast {
                    for lane in 0..blocks.block_len(*b) {
                        let g = &codes[b * BLOCK + lane];
                        let mut sizes = std::collections::HashMap::new();
                        for s in &secrets {
                            *sizes.entry(raw(&game, g, s)).or_insert(0u32) += 1;
                        }
                        let largest = sizes.values().copied().max().unwrap_or(0);
                        assert_eq!(u32::from(stats.largest[lane]), largest);
                        assert_eq!(stats.sum_squares[lane], sizes.values().map(|s| s * s).sum::<u32>());
                        assert_eq!(usize::from(stats.parts[lane]), sizes.len());
                        let mut from_ranks: Vec<u32> = sizes.values().copied().collect();
                        from_ranks.sort_unstable();
                        let mut rank_sizes: Vec<u32> = (0..m)
                            .filter(|&j| ranks[j][lane] == 0)
                            .map(|j| {
                                let key = raw(&game, g, &secrets[j]);
                                secrets.iter().filter(|s| raw(&game, g, s) == key).count() as u32
                            })
                            .collect();
                        rank_sizes.sort_unstable();
                        assert_eq!(rank_sizes, from_ranks);
                        assert!((0..m).all(|j| (ranks[j][lane] as usize) < sizes[&raw(&game, g, &secrets[j])] as usize));
                    }
                }
            }
        }
    }

    #[test]
    fn histograms_match_a_direct_count() {
        for game in games() {
            let codes = codes(&game);
            let secrets: Vec<Code> = codes.iter().rev().step_by(2).take(300).copied().collect();
            let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
            let mut blocks = CodeBlocks::new(&game, &[]);
            for batch in codes.chunks(BLOCK - 3) {
                blocks.refill(batch);
                let mut hist = [[0u16; 256]; BLOCK];
                blocks.histograms(0, &probes, &mut hist);
                for (lane, g) in batch.iter().enumerate() {
                    let mut expected = [0u16; 256];
                    for s in &secrets {
                        expected[raw(&game, g, s) as usize] += 1;
                    }
                    assert_eq!(hist[lane], expected, "{game:?} {g:?}");
                }
                assert!(hist[batch.len()..].iter().all(|h| h.iter().all(|&c| c == 0)));
            }
        }
    }

    #[test]
    fn raw_keys_name_the_feedbacks() {
        for game in games() {
            let space = crate::CodeSpace::new(game, crate::MemoryLimit(1 << 30)).unwrap();
            let raws = space.raw_keys();
            for (gi, g) in space.iter().step_by(11) {
                for (si, s) in space.iter().step_by(13) {
                    let (key, fb) = (raw(&game, &g, &s), space.feedback(gi, si).get());
                    assert_eq!(space.feedback_of_raw(key), fb);
                    assert_eq!(raws[fb], key);
                }
            }
        }
    }

    #[test]
    fn hopeless_blocks_report_values_past_the_bound() {
        for game in games() {
            let codes = codes(&game);
            let blocks = CodeBlocks::new(&game, &codes);
            let secrets: Vec<Code> = codes.iter().rev().step_by(3).take(40).copied().collect();
            let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
            let mut exact = Vec::new();
            blocks.for_each_partition(0..blocks.blocks(), &probes, false, Cut::Never, |_, stats, _| {
                exact.push(stats.clone());
                Some(Cut::Never)
            });
            let m = probes.len() as u32;
            for bound in [
                Cut::Largest(2),
                Cut::Largest(4),
                Cut::Parts(5),
                Cut::Parts(20),
                Cut::SumSquares(u64::from(m) + 10),
                Cut::SumSquares(3 * u64::from(m)),
            ] {
                let mut cut = Vec::new();
                blocks.for_each_partition(0..blocks.blocks(), &probes, false, bound, |_, stats, _| {
                    cut.push(stats.clone());
                    Some(bound)
                });
                for (got, want) in cut.iter().zip(&exact) {
                    for lane in 0..BLOCK {
                        let past = match bound {
                            Cut::Never | Cut::XLogX(_) => false,
                            Cut::Largest(c) => u32::from(got.largest[lane]) >= c && u32::from(want.largest[lane]) >= c,
                            Cut::Parts(p) => u32::from(got.parts[lane]) <= p && u32::from(want.parts[lane]) <= p,
                            Cut::SumSquares(c) => {
                                u64::from(got.sum_squares[lane]) >= c && u64::from(want.sum_squares[lane]) >= c
                            }
                        };
                        let same = got.largest[lane] == want.largest[lane]
                            && got.parts[lane] == want.parts[lane]
                            && got.sum_squares[lane] == want.sum_squares[lane];
                        assert!(same || past, "{game:?} {bound:?} lane {lane}: {got:?} vs {want:?}");
                    }
                }
            }
        }
    }
}
