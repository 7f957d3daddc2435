//! Partitions of a few probes by 32 guesses at once, read off pairwise equalities of feedback
//! keys: each probe's rank among the earlier probes of its part, in registers.

#[cfg(target_arch = "x86_64")]
use super::probes::Equalities;
use super::{CodeBlocks, ProbeSet, BLOCK, MAX_PROBES};
use crate::scan::Cut;

/// What [`CodeBlocks::for_each_partition`] reads off each lane's partition of the probes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneStats {
    /// The largest part.
    pub largest: [u8; BLOCK],
    /// The sum of the squared part sizes.
    pub sum_squares: [u32; BLOCK],
    /// The number of non-empty parts.
    pub parts: [u8; BLOCK],
    /// With ranks wanted, a lower bound of `sum s log2 s` in 32nds (each probe's step in
    /// that sum rounded down, steps past rank 15 taken as rank 15's); otherwise 0.
    pub xlogx_floor: [u16; BLOCK],
}

/// What a kernel kept of each lane's partition beyond its [`LaneStats`], for the valuations
/// that need every part's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneRows<'a> {
    /// Nothing (ranks not wanted).
    None,
    /// `ranks[j][lane]`: how many probes before `j` share probe `j`'s part (a part of size
    /// `s` holds ranks `0..s`).
    Ranks(&'a [[u8; BLOCK]]),
    /// `sizes[i][lane]`: the size of part `i` (a feedback; parts of no probe are 0).
    Sizes(&'a [[u8; BLOCK]]),
}

impl LaneStats {
    /// The lanes (bit per lane) whose statistics are not past `cut`: compared 32 at a time,
    /// since a scan asks for every block it counts.
    pub(crate) fn passing(&self, cut: Cut) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present, checked just above.
            return unsafe { self.passing_avx2(cut) };
        }
        self.passing_scalar(cut)
    }

    pub(super) fn passing_scalar(&self, cut: Cut) -> u32 {
        fn mask<T: Copy>(values: &[T; BLOCK], open: impl Fn(T) -> bool) -> u32 {
            values.iter().enumerate().fold(0, |mask, (l, &v)| mask | u32::from(open(v)) << l)
        }
        match cut {
            Cut::Never => u32::MAX,
            Cut::Largest(c) => mask(&self.largest, |v| u32::from(v) < c),
            Cut::SumSquares(c) => mask(&self.sum_squares, |v| u64::from(v) < c),
            Cut::Parts(p) => mask(&self.parts, |v| u32::from(v) > p),
            // The kernel's floor in 32nds (0 when it kept no ranks).
            Cut::XLogX(bound) => match xlogx_floor_cut(bound) {
                Some(t) => mask(&self.xlogx_floor, |v| v < t),
                None => u32::MAX,
            },
        }
    }

    /// [`LaneStats::passing`]: each "below `t`" is "at most `t - 1`", an unsigned max that
    /// leaves `t - 1` unchanged.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn passing_avx2(&self, cut: Cut) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY (each load): the arrays hold BLOCK = 32 bytes, 32 u16 or 32 u32.
        let bytes = |values: &[u8; BLOCK]| unsafe { _mm256_loadu_si256(values.as_ptr().cast()) };
        let at_most_u8 = |values: &[u8; BLOCK], t: u8| {
            let t = _mm256_set1_epi8(t as i8);
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(bytes(values), t), t)) as u32
        };
        match cut {
            Cut::Never => u32::MAX,
            Cut::Largest(0) => 0,
            Cut::Largest(c) => match u8::try_from(c - 1) {
                Ok(t) => at_most_u8(&self.largest, t),
                Err(_) => u32::MAX,
            },
            Cut::SumSquares(0) => 0,
            Cut::SumSquares(c) => match u32::try_from(c - 1) {
                Ok(t) => {
                    let t = _mm256_set1_epi32(t as i32);
                    (0..4).fold(0, |mask, i| {
                        // SAFETY: eight u32 from 8 i, within the 32.
                        let v = unsafe { _mm256_loadu_si256(self.sum_squares.as_ptr().add(8 * i).cast()) };
                        let open = _mm256_cmpeq_epi32(_mm256_max_epu32(v, t), t);
                        mask | (_mm256_movemask_ps(_mm256_castsi256_ps(open)) as u32) << (8 * i)
                    })
                }
                Err(_) => u32::MAX,
            },
            Cut::Parts(p) => match u8::try_from(p) {
                Ok(t) => !at_most_u8(&self.parts, t),
                Err(_) => 0,
            },
            Cut::XLogX(bound) => match xlogx_floor_cut(bound) {
                Some(0) => 0,
                Some(t) => {
                    let t = _mm256_set1_epi16((t - 1) as i16);
                    // SAFETY: sixteen u16 from 0 and from 16.
                    let (lo, hi) = unsafe {
                        let p = self.xlogx_floor.as_ptr();
                        (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(16).cast()))
                    };
                    let lo = _mm256_cmpeq_epi16(_mm256_max_epu16(lo, t), t);
                    let hi = _mm256_cmpeq_epi16(_mm256_max_epu16(hi, t), t);
                    // Packing works within 128-bit halves: lanes 0-7, 16-23, 8-15, 24-31.
                    let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi16(lo, hi));
                    _mm256_movemask_epi8(packed) as u32
                }
                None => u32::MAX,
            },
        }
    }
}

/// `XLOGX_STEPS[r]`: `(r + 1) log2 (r + 1) - r log2 r` (what a part's member of rank `r` adds
/// to `sum s log2 s`) in 32nds, rounded down; ranks past 15 take the value of 15, the step
/// growing with the rank. Summed over the probes, a lower bound of `32 sum s log2 s` that
/// fits a byte per probe and 16 bits per lane, so entropy scans stop hopeless blocks early
/// as the integer valuations do. Rounded down from `32 d(r)` computed to 50 digits.
pub(crate) const XLOGX_STEPS: [u8; 16] = [0, 64, 88, 103, 115, 124, 132, 139, 144, 150, 154, 158, 162, 166, 169, 172];

/// The least [`LaneStats::xlogx_floor`] that proves `sum s log2 s > bound`, if 16 bits hold it.
#[inline]
pub(crate) fn xlogx_floor_cut(bound: f64) -> Option<u16> {
    // Times 32 is exact in floats; the floor is at most 32 times the true sum.
    let t = (bound * 32.0).floor() + 1.0;
    (t <= f64::from(u16::MAX)).then(|| t.max(0.0) as u16)
}

/// `XLOGX_FLOORS[s]`: `32 s log2 s` rounded down, for parts of up to 15 codes; a larger part
/// is bounded below by the value at 15 plus `XLOGX_STEPS[15]` per code beyond (the steps
/// grow with the size). Rounded down from values computed to 50 digits.
const XLOGX_FLOORS: [u16; 16] = [0, 0, 64, 152, 256, 371, 496, 628, 768, 912, 1063, 1217, 1376, 1539, 1705, 1875];

/// The probes in an order that keeps those of equal total (blacks plus whites) together, for
/// blocks of guesses that share one colour multiset: such a guess has one total with each
/// probe, the same for every guess of the block, and two probes of different totals never
/// share a feedback, so each total's share is split by blacks alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shares {
    /// The probes, by total (in their order within one).
    pub(super) order: Vec<u16>,
    /// The runs of one total: `(first place, end, total)`.
    pub(super) runs: Vec<(usize, usize, u8)>,
}

impl Shares {
    /// The shares of probes with these totals.
    ///
    /// ```
    /// use mmtree_core::Shares;
    /// // Probes 0 and 2 share total 1, probe 1 has total 3.
    /// let shares = Shares::by_total(&[1, 3, 1]);
    /// assert_eq!(shares.len(), 3);
    /// ```
    pub fn by_total(totals: &[u8]) -> Shares {
        assert!(totals.len() <= usize::from(u16::MAX), "BUG: {} probes", totals.len());
        let mut order: Vec<u16> = (0..totals.len() as u16).collect();
        order.sort_by_key(|&j| totals[usize::from(j)]);
        let mut runs: Vec<(usize, usize, u8)> = Vec::new();
        for (i, &j) in order.iter().enumerate() {
            let t = totals[usize::from(j)];
            match runs.last_mut() {
                Some(run) if run.2 == t => run.1 = i + 1,
                _ => runs.push((i, i + 1, t)),
            }
        }
        Shares { order, runs }
    }

    /// Number of probes.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

impl CodeBlocks {
    /// For each block of `blocks` (block numbers, in the order wanted), calls
    /// `visit(block, stats, ranks)` with the partition of `probes` by feedback for each of the
    /// block's codes taken as a guess; stops as soon as `visit` returns `false`.
    ///
    /// With `want_ranks`, every part's size can be recovered from the rows `visit` gets
    /// ([`LaneRows`]: each probe's rank in its part, or with `shares` the part sizes
    /// themselves), and [`LaneStats::xlogx_floor`] is counted; otherwise the rows are
    /// [`LaneRows::None`].
    ///
    /// Parts are read off equal raw keys, pair by pair: the largest part is one more than
    /// the largest rank, the sum of squares is `sum (2 rank + 1)`, and each part has one
    /// rank 0.
    ///
    /// `hopeless` (then what `visit` returns, `None` to stop) lets a full block stop early
    /// once all its lanes are past it; its stats are then those of the probes counted so far,
    /// which are past it too (see [`Cut`]).
    ///
    /// With `shares` (which the caller guarantees: every code of `blocks` has the totals they
    /// were made from), each share's parts are counted by blacks alone.
    pub fn for_each_partition(
        &self,
        blocks: impl Iterator<Item = usize>,
        probes: &ProbeSet,
        shares: Option<&Shares>,
        want_ranks: bool,
        hopeless: Cut,
        visit: impl FnMut(usize, &LaneStats, LaneRows) -> Option<Cut>,
    ) -> bool {
        assert_eq!(probes.totals, self.totals, "BUG: probes of another game");
        assert!(probes.len() <= MAX_PROBES, "BUG: {} probes, at most {MAX_PROBES}", probes.len());
        if let Some(shares) = shares {
            assert_eq!(shares.len(), probes.len(), "BUG: shares of other probes");
            assert!(self.totals, "BUG: shares of a game without totals");
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY (each call): AVX2 is present, checked just above.
            return match shares {
                None => unsafe { self.for_each_partition_avx2(blocks, probes, want_ranks, hopeless, visit) },
                Some(shares) if want_ranks => unsafe {
                    self.for_each_partition_counted_avx2::<true>(blocks, probes, shares, hopeless, visit)
                },
                Some(shares) => unsafe {
                    self.for_each_partition_counted_avx2::<false>(blocks, probes, shares, hopeless, visit)
                },
            };
        }
        self.for_each_partition_scalar(blocks, probes, want_ranks, visit)
    }

    pub(super) fn for_each_partition_scalar(
        &self,
        mut blocks: impl Iterator<Item = usize>,
        probes: &ProbeSet,
        want_ranks: bool,
        mut visit: impl FnMut(usize, &LaneStats, LaneRows) -> Option<Cut>,
    ) -> bool {
        let m = probes.probes.len();
        let mut ranks = vec![[0u8; BLOCK]; m];
        blocks.all(|b| {
            let keys: Vec<[u8; BLOCK]> = probes.probes.iter().map(|p| self.keys_scalar(b, p)).collect();
            let mut stats = LaneStats::default();
            for (j, kj) in keys.iter().enumerate() {
                for lane in 0..BLOCK {
                    let rank = keys[..j].iter().filter(|ki| ki[lane] == kj[lane]).count() as u8;
                    stats.largest[lane] = stats.largest[lane].max(rank + 1);
                    stats.sum_squares[lane] += 2 * u32::from(rank) + 1;
                    stats.parts[lane] += u8::from(rank == 0);
                    if want_ranks {
                        stats.xlogx_floor[lane] += u16::from(XLOGX_STEPS[usize::from(rank.min(15))]);
                    }
                    ranks[j][lane] = rank;
                }
            }
            visit(b, &stats, if want_ranks { LaneRows::Ranks(&ranks) } else { LaneRows::None }).is_some()
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
        mut visit: impl FnMut(usize, &LaneStats, LaneRows) -> Option<Cut>,
    ) -> bool {
        use std::arch::x86_64::*;
        use std::mem::MaybeUninit;
        let m = probes.probes.len();
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi8(1);
        let fifteen = _mm256_set1_epi8(15);
        // SAFETY: XLOGX_STEPS is 16 bytes.
        let steps = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(XLOGX_STEPS.as_ptr().cast()) });
        let mut ranks = [[0u8; BLOCK]; MAX_PROBES];
        let mut stats = LaneStats::default();
        let mut masks = Equalities::new();
        for b in blocks {
            assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
            let block = self.block(b);
            // SAFETY: block b is in bounds (checked above), of the probes' game (checked by the caller).
            unsafe { probes.equalities(block, &mut masks) };
            let mut keys = [MaybeUninit::<__m256i>::uninit(); MAX_PROBES];
            let full = self.block_len(b) == BLOCK;
            let (mut largest, mut parts) = (zero, zero);
            // Sum of ranks widened to 16 bits: lanes 0-7 and 16-23 in `lo`, 8-15 and 24-31 in `hi`;
            // the floor of `sum s log2 s` likewise.
            let (mut lo, mut hi) = (zero, zero);
            let (mut floor_lo, mut floor_hi) = (zero, zero);
            for j in 0..m {
                // SAFETY: the probe set was built for this layout (same game, checked by the
                // caller) and the masks filled for this block.
                let key = unsafe { probes.keys(j, block, &masks, self.totals) };
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
                    let step = _mm256_shuffle_epi8(steps, _mm256_min_epu8(rank, fifteen));
                    floor_lo = _mm256_add_epi16(floor_lo, _mm256_unpacklo_epi8(step, zero));
                    floor_hi = _mm256_add_epi16(floor_hi, _mm256_unpackhi_epi8(step, zero));
                }
                if j % 4 == 3
                    && full
                    && hopeless.all_lanes(m, m - 1 - j, largest, parts, [lo, hi], [floor_lo, floor_hi])
                {
                    break;
                }
            }
            let (mut lo16, mut hi16) = ([0u16; 16], [0u16; 16]);
            let (mut floor_lo16, mut floor_hi16) = ([0u16; 16], [0u16; 16]);
            // SAFETY: the destinations are 32 bytes each.
            unsafe {
                let largest = if m == 0 { zero } else { _mm256_add_epi8(largest, one) };
                _mm256_storeu_si256(stats.largest.as_mut_ptr().cast(), largest);
                _mm256_storeu_si256(stats.parts.as_mut_ptr().cast(), parts);
                _mm256_storeu_si256(lo16.as_mut_ptr().cast(), lo);
                _mm256_storeu_si256(hi16.as_mut_ptr().cast(), hi);
                _mm256_storeu_si256(floor_lo16.as_mut_ptr().cast(), floor_lo);
                _mm256_storeu_si256(floor_hi16.as_mut_ptr().cast(), floor_hi);
            }
            let m = m as u32;
            for i in 0..8 {
                stats.sum_squares[i] = m + 2 * u32::from(lo16[i]);
                stats.sum_squares[i + 8] = m + 2 * u32::from(hi16[i]);
                stats.sum_squares[i + 16] = m + 2 * u32::from(lo16[i + 8]);
                stats.sum_squares[i + 24] = m + 2 * u32::from(hi16[i + 8]);
                stats.xlogx_floor[i] = floor_lo16[i];
                stats.xlogx_floor[i + 8] = floor_hi16[i];
                stats.xlogx_floor[i + 16] = floor_lo16[i + 8];
                stats.xlogx_floor[i + 24] = floor_hi16[i + 8];
            }
            match visit(b, &stats, if want_ranks { LaneRows::Ranks(&ranks[..m as usize]) } else { LaneRows::None }) {
                Some(next) => hopeless = next,
                None => return false,
            }
        }
        true
    }
}

#[cfg(target_arch = "x86_64")]
impl CodeBlocks {
    /// [`CodeBlocks::for_each_partition`] for blocks of one colour multiset (`shares` made
    /// from its totals): each share's parts are counted in 32 lanes at once, one byte counter
    /// per number of blacks, so a probe costs its blacks and one compare per counter, however
    /// many probes share its total. With `SIZES` the counters are kept as the lanes' part
    /// sizes ([`LaneRows::Sizes`]) and give [`LaneStats::xlogx_floor`]. A full block is
    /// tested against `hopeless` after each share.
    #[target_feature(enable = "avx2")]
    unsafe fn for_each_partition_counted_avx2<const SIZES: bool>(
        &self,
        blocks: impl Iterator<Item = usize>,
        probes: &ProbeSet,
        shares: &Shares,
        mut hopeless: Cut,
        mut visit: impl FnMut(usize, &LaneStats, LaneRows) -> Option<Cut>,
    ) -> bool {
        use std::arch::x86_64::*;
        let m = probes.len();
        let zero = _mm256_setzero_si256();
        let ones = _mm256_set1_epi8(-1);
        let fifteen = _mm256_set1_epi8(15);
        let step15 = _mm256_set1_epi16(i16::from(XLOGX_STEPS[15]));
        // The floors' low and high bytes, for a byte shuffle in each 128-bit half.
        let floor_bytes = |shift: u16| {
            let bytes: [u8; 16] = std::array::from_fn(|s| (XLOGX_FLOORS[s] >> shift) as u8);
            // SAFETY: 16 bytes.
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
        };
        let (floor_low, floor_high) = (floor_bytes(0), floor_bytes(8));
        let mut stats = LaneStats::default();
        let mut masks = Equalities::new();
        let mut sizes = [[0u8; BLOCK]; SIZE_ROWS];
        for b in blocks {
            assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
            let block = self.block(b);
            // SAFETY: block b is in bounds (checked above), of the probes' game (checked by the caller).
            unsafe { probes.equalities(block, &mut masks) };
            let full = self.block_len(b) == BLOCK;
            let (mut largest, mut parts) = (zero, zero);
            // Sums of squares in 16 bits: lanes 0-7 and 16-23 in `lo`, 8-15 and 24-31 in `hi`;
            // the floor of `sum s log2 s` likewise.
            let (mut lo, mut hi) = (zero, zero);
            let (mut floor_lo, mut floor_hi) = (zero, zero);
            let (mut uncounted, mut rows) = (0, 0);
            for &(from, to, total) in &shares.runs {
                let t = usize::from(total).min(VALUES - 1);
                let mut counts = [zero; VALUES];
                let run = &shares.order[from..to];
                // SAFETY: the masks were filled for this block and these probes.
                unsafe { count_blacks(t, probes, &masks, run, &mut counts) };
                for &count in &counts[..=t] {
                    largest = _mm256_max_epu8(largest, count);
                    parts = _mm256_sub_epi8(parts, _mm256_xor_si256(_mm256_cmpeq_epi8(count, zero), ones));
                    let (l, h) = (_mm256_unpacklo_epi8(count, zero), _mm256_unpackhi_epi8(count, zero));
                    lo = _mm256_add_epi16(lo, _mm256_mullo_epi16(l, l));
                    hi = _mm256_add_epi16(hi, _mm256_mullo_epi16(h, h));
                    if SIZES {
                        // SAFETY: rows stay below SIZE_ROWS (one per blacks of each total).
                        unsafe { _mm256_storeu_si256(sizes.get_unchecked_mut(rows).as_mut_ptr().cast(), count) };
                        rows += 1;
                        let small = _mm256_min_epu8(count, fifteen);
                        let (low, high) =
                            (_mm256_shuffle_epi8(floor_low, small), _mm256_shuffle_epi8(floor_high, small));
                        let beyond = _mm256_subs_epu8(count, fifteen);
                        let beyond_lo = _mm256_mullo_epi16(_mm256_unpacklo_epi8(beyond, zero), step15);
                        let beyond_hi = _mm256_mullo_epi16(_mm256_unpackhi_epi8(beyond, zero), step15);
                        let f_lo = _mm256_add_epi16(_mm256_unpacklo_epi8(low, high), beyond_lo);
                        let f_hi = _mm256_add_epi16(_mm256_unpackhi_epi8(low, high), beyond_hi);
                        floor_lo = _mm256_add_epi16(floor_lo, f_lo);
                        floor_hi = _mm256_add_epi16(floor_hi, f_hi);
                    }
                }
                if full && to < m && hopeless.all_lanes_counted(m - to, largest, parts, [lo, hi], [floor_lo, floor_hi])
                {
                    // Each probe not counted adds at least 1 to the sum of squares and 0 to
                    // the floor: the stats reported stay past the cut, as the ranked kernel's do.
                    uncounted = (m - to) as u32;
                    break;
                }
            }
            let (mut lo16, mut hi16) = ([0u16; 16], [0u16; 16]);
            let (mut floor_lo16, mut floor_hi16) = ([0u16; 16], [0u16; 16]);
            // SAFETY: the destinations are 32 bytes each.
            unsafe {
                _mm256_storeu_si256(stats.largest.as_mut_ptr().cast(), largest);
                _mm256_storeu_si256(stats.parts.as_mut_ptr().cast(), parts);
                _mm256_storeu_si256(lo16.as_mut_ptr().cast(), lo);
                _mm256_storeu_si256(hi16.as_mut_ptr().cast(), hi);
                _mm256_storeu_si256(floor_lo16.as_mut_ptr().cast(), floor_lo);
                _mm256_storeu_si256(floor_hi16.as_mut_ptr().cast(), floor_hi);
            }
            for i in 0..8 {
                stats.sum_squares[i] = u32::from(lo16[i]) + uncounted;
                stats.sum_squares[i + 8] = u32::from(hi16[i]) + uncounted;
                stats.sum_squares[i + 16] = u32::from(lo16[i + 8]) + uncounted;
                stats.sum_squares[i + 24] = u32::from(hi16[i + 8]) + uncounted;
                stats.xlogx_floor[i] = floor_lo16[i];
                stats.xlogx_floor[i + 8] = floor_hi16[i];
                stats.xlogx_floor[i + 16] = floor_lo16[i + 8];
                stats.xlogx_floor[i + 24] = floor_hi16[i + 8];
            }
            let rows = if SIZES { LaneRows::Sizes(&sizes[..rows]) } else { LaneRows::None };
            match visit(b, &stats, rows) {
                Some(next) => hopeless = next,
                None => return false,
            }
        }
        true
    }
}

/// Counters per number of blacks.
#[cfg(target_arch = "x86_64")]
pub(super) const VALUES: usize = crate::game::MAX_PEGS as usize + 1;

/// Most part sizes the counted kernel keeps: one per number of blacks of each total.
#[cfg(target_arch = "x86_64")]
const SIZE_ROWS: usize = VALUES * (VALUES + 1) / 2;

/// Sets `counts[b]`, for each number of blacks `b <= t`, to the lanes where a probe of `run`
/// (at most 255) scores `b` blacks.
///
/// # Safety
/// `masks` must have been filled for `probes` and the block.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn count_blacks(
    t: usize,
    probes: &ProbeSet,
    masks: &Equalities,
    run: &[u16],
    counts: &mut [std::arch::x86_64::__m256i],
) {
    // SAFETY (each arm): the caller's promise.
    unsafe {
        match t {
            0 => count_blacks_below::<1>(probes, masks, run, counts),
            1 => count_blacks_below::<2>(probes, masks, run, counts),
            2 => count_blacks_below::<3>(probes, masks, run, counts),
            3 => count_blacks_below::<4>(probes, masks, run, counts),
            4 => count_blacks_below::<5>(probes, masks, run, counts),
            5 => count_blacks_below::<6>(probes, masks, run, counts),
            6 => count_blacks_below::<7>(probes, masks, run, counts),
            7 => count_blacks_below::<8>(probes, masks, run, counts),
            8 => count_blacks_below::<9>(probes, masks, run, counts),
            9 => count_blacks_below::<10>(probes, masks, run, counts),
            _ => count_blacks_below::<11>(probes, masks, run, counts),
        }
    }
}

/// [`count_blacks`] for `t = T - 1`: `T` a constant keeps the counters in registers.
///
/// # Safety
/// As [`count_blacks`].
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn count_blacks_below<const T: usize>(
    probes: &ProbeSet,
    masks: &Equalities,
    run: &[u16],
    counts: &mut [std::arch::x86_64::__m256i],
) {
    use std::arch::x86_64::*;
    let mut local = [_mm256_setzero_si256(); T];
    for &probe in run {
        // SAFETY: the caller's promise.
        let black = unsafe { probes.blacks(usize::from(probe), masks) };
        for (blacks, count) in local.iter_mut().enumerate() {
            *count = _mm256_sub_epi8(*count, _mm256_cmpeq_epi8(black, _mm256_set1_epi8(blacks as i8)));
        }
    }
    counts[..T].copy_from_slice(&local);
}

#[cfg(target_arch = "x86_64")]
impl Cut {
    /// Whether every lane is past the bound, with `rest` probes still to count; `largest`
    /// and `parts` count parts so far, `squares` their sums of squared sizes (in 16 bits,
    /// lanes split as the counted kernel splits them).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn all_lanes_counted(
        self,
        rest: usize,
        largest: std::arch::x86_64::__m256i,
        parts: std::arch::x86_64::__m256i,
        [lo, hi]: [std::arch::x86_64::__m256i; 2],
        floors: [std::arch::x86_64::__m256i; 2],
    ) -> bool {
        use std::arch::x86_64::*;
        match self {
            Cut::Never => false,
            // Every probe still to come adds at least 0 (the floors are 0 without sizes kept,
            // and then never reach a cut above 0).
            Cut::XLogX(bound) => xlogx_floor_cut(bound).is_some_and(|t| all_at_least16(floors, t)),
            Cut::Largest(0) => true,
            Cut::Largest(c) => {
                let Ok(t) = u8::try_from(c) else { return false };
                let t = _mm256_set1_epi8(t as i8);
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(largest, t), largest)) == -1
            }
            Cut::Parts(p) => parts_past(p, rest, parts),
            Cut::SumSquares(cut) => {
                // Each probe to come adds at least 1 to the sum.
                let Ok(t) = u16::try_from(cut.saturating_sub(rest as u64)) else { return false };
                let t = _mm256_set1_epi16(t as i16);
                let at_least = |v: __m256i| _mm256_cmpeq_epi16(_mm256_max_epu16(v, t), v);
                _mm256_movemask_epi8(_mm256_and_si256(at_least(lo), at_least(hi))) == -1
            }
        }
    }
}

/// Whether every 16-bit value of `lo` and `hi` is at least `t`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn all_at_least16([lo, hi]: [std::arch::x86_64::__m256i; 2], t: u16) -> bool {
    use std::arch::x86_64::*;
    let t = _mm256_set1_epi16(t as i16);
    let at_least16 = |v: __m256i| _mm256_cmpeq_epi16(_mm256_max_epu16(v, t), v);
    _mm256_movemask_epi8(_mm256_and_si256(at_least16(lo), at_least16(hi))) == -1
}

/// Whether no lane can end with more than `p` parts, with `rest` probes still to count (each
/// adds at most one part).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn parts_past(p: u32, rest: usize, parts: std::arch::x86_64::__m256i) -> bool {
    use std::arch::x86_64::*;
    if rest as u64 >= u64::from(p) {
        return false;
    }
    let p = p.min(u32::from(u8::MAX)) as u8;
    let most = _mm256_adds_epu8(parts, _mm256_set1_epi8(rest as i8));
    let at_most = _mm256_cmpeq_epi8(_mm256_min_epu8(most, _mm256_set1_epi8(p as i8)), most);
    _mm256_movemask_epi8(at_most) == -1
}

#[cfg(target_arch = "x86_64")]
impl Cut {
    /// Whether every lane is past the bound, with `rest` of the `m` probes still to count;
    /// `largest` and `ranks` hold ranks (part size minus one; sums of ranks in 16 bits, lanes
    /// split as the kernel splits them), `floors` the floors of `sum s log2 s` in 32nds.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn all_lanes(
        self,
        m: usize,
        rest: usize,
        largest: std::arch::x86_64::__m256i,
        parts: std::arch::x86_64::__m256i,
        [lo, hi]: [std::arch::x86_64::__m256i; 2],
        floors: [std::arch::x86_64::__m256i; 2],
    ) -> bool {
        use std::arch::x86_64::*;
        let at_least = |v: __m256i, t: __m256i| _mm256_cmpeq_epi8(_mm256_max_epu8(v, t), v);
        match self {
            Cut::Never => false,
            // Every probe still to come adds at least 0: the floors so far bound the sums.
            Cut::XLogX(bound) => xlogx_floor_cut(bound).is_some_and(|t| all_at_least16(floors, t)),
            Cut::Largest(0) => true,
            Cut::Largest(c) => {
                // Ranks are at most 127, so a cut beyond 128 is never reached.
                let Ok(t) = u8::try_from(c - 1) else { return false };
                _mm256_movemask_epi8(at_least(largest, _mm256_set1_epi8(t as i8))) == -1
            }
            Cut::Parts(p) => parts_past(p, rest, parts),
            Cut::SumSquares(cut) => {
                // Each of the m probes adds 2 rank + 1, so the sum is at least m + 2 sum(rank).
                let Ok(t) = u16::try_from(cut.saturating_sub(m as u64).div_ceil(2)) else { return false };
                all_at_least16([lo, hi], t)
            }
        }
    }
}
