//! Partitions of a few probes by 32 guesses at once, read off pairwise equalities of feedback
//! keys: each probe's rank among the earlier probes of its part, in registers.

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

impl CodeBlocks {
    /// For each block of `blocks` (block numbers, in the order wanted), calls
    /// `visit(block, stats, ranks)` with the partition of `probes` by feedback for each of the
    /// block's codes taken as a guess; stops as soon as `visit` returns `false`.
    ///
    /// With `want_ranks`, `ranks[j][lane]` says how many probes before `j` share probe `j`'s
    /// part, so any function of the part sizes can be recovered (a part of size `s` holds
    /// ranks `0..s`), and [`LaneStats::xlogx_floor`] is counted; otherwise `ranks` is empty.
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

    pub(super) fn for_each_partition_scalar(
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
        let fifteen = _mm256_set1_epi8(15);
        // SAFETY: XLOGX_STEPS is 16 bytes.
        let steps = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(XLOGX_STEPS.as_ptr().cast()) });
        let mut ranks = [[0u8; BLOCK]; MAX_PROBES];
        let mut stats = LaneStats::default();
        for b in blocks {
            assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
            // SAFETY: block b is in bounds (checked above).
            let block = unsafe { self.data.as_ptr().add(b * self.rows * BLOCK) };
            let mut keys = [MaybeUninit::<__m256i>::uninit(); MAX_PROBES];
            let full = self.block_len(b) == BLOCK;
            let (mut largest, mut parts) = (zero, zero);
            // Sum of ranks widened to 16 bits: lanes 0-7 and 16-23 in `lo`, 8-15 and 24-31 in `hi`;
            // the floor of `sum s log2 s` likewise.
            let (mut lo, mut hi) = (zero, zero);
            let (mut floor_lo, mut floor_hi) = (zero, zero);
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
        let all_at_least16 = |[lo, hi]: [__m256i; 2], t: u16| {
            let t = _mm256_set1_epi16(t as i16);
            let at_least16 = |v: __m256i| _mm256_cmpeq_epi16(_mm256_max_epu16(v, t), v);
            _mm256_movemask_epi8(_mm256_and_si256(at_least16(lo), at_least16(hi))) == -1
        };
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
                all_at_least16([lo, hi], t)
            }
        }
    }
}
