//! Partitions of a few probes by 32 guesses at once, read off pairwise equalities of feedback
//! keys: each probe's rank among the earlier probes of its part, in registers.

use super::{CodeBlocks, ProbeSet, BLOCK, MAX_PROBES};
use crate::scan::Cut;

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
