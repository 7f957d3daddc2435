//! The partition tables of 32 guesses at once: one histogram per lane of a block, given up
//! part-way once every lane is past the caller's cut.

use std::ops::Range;

#[cfg(target_arch = "x86_64")]
use super::pairwise::{count_blacks, VALUES};
#[cfg(target_arch = "x86_64")]
use super::probes::Equalities;
use super::{CodeBlocks, Probe, ProbeSet, Shares, BLOCK};
use crate::scan::{xlogx, Cut};

/// Fractions (in quarters) of the probes after which a block is tested against the cut.
const CHECKPOINTS: [usize; 3] = [1, 2, 3];

/// Blocks of fewer probes are counted through: testing costs about as much as counting.
const CHECK_MIN_PROBES: usize = 128;

impl CodeBlocks {
    /// Adds to `hist[lane][key]` the raw key of every probe against the code in lane `lane`
    /// of block `b`: the partition tables of 32 guesses at once.
    pub fn histograms(&self, b: usize, probes: &ProbeSet, hist: &mut [[u16; 256]; BLOCK]) {
        self.histograms_within(b, probes, hist, Cut::Never, &[]);
    }

    /// [`CodeBlocks::histograms`], giving up (and returning `false`) when, a quarter, half or
    /// three quarters of the way through the probes, every lane's counts so far prove its
    /// partition past `hopeless`; the histograms then hold the
    /// counts so far, for the caller to clear. `keys` are the raw keys that can occur (the
    /// game's feedbacks): only those bins are read.
    pub fn histograms_within(
        &self,
        b: usize,
        probes: &ProbeSet,
        hist: &mut [[u16; 256]; BLOCK],
        hopeless: Cut,
        keys: &[u8],
    ) -> bool {
        assert_eq!(probes.totals, self.totals, "BUG: probes of another game");
        assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
        let valid = self.block_len(b);
        let m = probes.len();
        let checks = hopeless != Cut::Never && m >= CHECK_MIN_PROBES && !keys.is_empty();
        let checks = Checks { m, valid, checks, hopeless, keys };
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // The block's masks, filled once for all the ranges.
            let mut masks = Equalities::new();
            // SAFETY (both): AVX2 is present, checked just above; block b is in bounds
            // (checked above) and of the probes' game (likewise), the masks filled for it.
            unsafe { probes.equalities(self.block(b), &mut masks) };
            return checks.in_quarters(hist, |range, hist| unsafe {
                self.histograms_avx2(b, valid, probes, &masks, range, hist)
            });
        }
        checks.in_quarters(hist, |range, hist| {
            for probe in &probes.probes[range] {
                self.add_scalar(b, valid, probe, hist);
            }
        })
    }

    /// [`CodeBlocks::histograms_within`] for a block whose codes all have the totals `shares`
    /// were made from with the probes (codes of one colour multiset): within a share of one
    /// total the blacks alone tell feedbacks apart, so each share's blacks are counted in 32
    /// lanes at once, one counter per number of blacks, and added to the histograms at the
    /// share's end. The cut is tested after each share.
    pub fn histograms_shares(
        &self,
        b: usize,
        probes: &ProbeSet,
        shares: &Shares,
        hist: &mut [[u16; 256]; BLOCK],
        hopeless: Cut,
        keys: &[u8],
    ) -> bool {
        assert_eq!(probes.totals, self.totals, "BUG: probes of another game");
        assert!(self.totals, "BUG: shares of a game without totals");
        assert_eq!(shares.len(), probes.len(), "BUG: shares of other probes");
        assert!(b < self.blocks(), "BUG: block {b} of {}", self.blocks());
        let valid = self.block_len(b);
        let m = probes.len();
        let checks = hopeless != Cut::Never && m >= CHECK_MIN_PROBES && !keys.is_empty();
        let checks = Checks { m, valid, checks, hopeless, keys };
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // The block's masks, filled once for all the shares.
            let mut masks = Equalities::new();
            // SAFETY (both): AVX2 is present, checked just above; block b is in bounds
            // (checked above) and of the probes' game (likewise), the masks filled for it.
            unsafe { probes.equalities(self.block(b), &mut masks) };
            return checks.by_share(shares, hist, |run, hist| unsafe {
                self.count_share_avx2(valid, probes, &masks, shares, run, hist)
            });
        }
        checks.by_share(shares, hist, |(from, to, _), hist| {
            for &probe in &shares.order[from..to] {
                self.add_scalar(b, valid, &probes.probes[usize::from(probe)], hist);
            }
        })
    }

    /// Adds one probe's feedback with each of block `b`'s first `valid` codes to their
    /// histograms, without SIMD.
    fn add_scalar(&self, b: usize, valid: usize, probe: &Probe, hist: &mut [[u16; 256]; BLOCK]) {
        let keys = self.keys_scalar(b, probe);
        for (h, &key) in hist[..valid].iter_mut().zip(&keys) {
            h[key as usize] += 1;
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn count_share_avx2(
        &self,
        valid: usize,
        probes: &ProbeSet,
        masks: &Equalities,
        shares: &Shares,
        (from, to, total): (usize, usize, u8),
        hist: &mut [[u16; 256]; BLOCK],
    ) {
        use std::arch::x86_64::*;
        let t = usize::from(total).min(VALUES - 1);
        let zero = _mm256_setzero_si256();
        let mut counts = [zero; VALUES];
        let mut flush = |counts: &mut [__m256i; VALUES]| {
            let mut bytes = [0u8; BLOCK];
            for (blacks, count) in counts[..=t].iter_mut().enumerate() {
                // SAFETY: bytes is 32 bytes.
                unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), *count) };
                let key = (blacks << 4) | usize::from(total);
                for (h, &c) in hist[..valid].iter_mut().zip(&bytes) {
                    h[key] += u16::from(c);
                }
                *count = zero;
            }
        };
        // Byte counters: at most 255 probes between flushes.
        for run in shares.order[from..to].chunks(usize::from(u8::MAX)) {
            // SAFETY: the masks were filled for this block and these probes (the caller's promise).
            unsafe { count_blacks(t, probes, masks, run, &mut counts) };
            flush(&mut counts);
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn histograms_avx2(
        &self,
        b: usize,
        valid: usize,
        probes: &ProbeSet,
        masks: &Equalities,
        range: Range<usize>,
        hist: &mut [[u16; 256]; BLOCK],
    ) {
        use std::arch::x86_64::*;
        let block = self.block(b);
        let mut keys = [0u8; BLOCK];
        for j in range {
            // SAFETY: same game (checked by the caller), the masks filled for this block; keys
            // is 32 bytes.
            let key = unsafe { probes.keys(j, block, masks, self.totals) };
            unsafe { _mm256_storeu_si256(keys.as_mut_ptr().cast(), key) };
            for (h, &key) in hist[..valid].iter_mut().zip(&keys) {
                h[key as usize] += 1;
            }
        }
    }
}

/// When a block's histograms are tested against the cut, and how: `checks` says whether at
/// all; `m` probes, `valid` lanes, only the bins `keys` read.
struct Checks<'a> {
    m: usize,
    valid: usize,
    checks: bool,
    hopeless: Cut,
    keys: &'a [u8],
}

impl Checks<'_> {
    /// Counts the probes with `count`, a quarter at a time when checking; `false` once every
    /// lane is past the cut between two quarters.
    fn in_quarters(
        &self,
        hist: &mut [[u16; 256]; BLOCK],
        mut count: impl FnMut(Range<usize>, &mut [[u16; 256]; BLOCK]),
    ) -> bool {
        let mut from = 0;
        for quarter in CHECKPOINTS.into_iter().filter(|_| self.checks) {
            let to = self.m * quarter / 4;
            count(from..to, hist);
            from = to;
            if self.all_past(hist, self.m - to) {
                return false;
            }
        }
        count(from..self.m, hist);
        true
    }

    /// Counts the probes with `count`, one share at a time; `false` once every lane is past
    /// the cut after one.
    fn by_share(
        &self,
        shares: &Shares,
        hist: &mut [[u16; 256]; BLOCK],
        mut count: impl FnMut((usize, usize, u8), &mut [[u16; 256]; BLOCK]),
    ) -> bool {
        for &run in &shares.runs {
            count(run, hist);
            let rest = self.m - run.1;
            if self.checks && rest > 0 && self.all_past(hist, rest) {
                return false;
            }
        }
        true
    }

    fn all_past(&self, hist: &[[u16; 256]; BLOCK], rest: usize) -> bool {
        hist[..self.valid].iter().all(|h| past(h, self.keys, self.hopeless, rest as u64))
    }
}

/// Whether a lane's counts so far (`h`, bins `keys`), with `rest` probes still to count,
/// prove its partition past `cut`: the largest part, the sum of squares and `sum s log2 s`
/// only grow (each probe to come adds at least 1 to the sum of squares), and at most `rest`
/// parts can still appear.
fn past(h: &[u16; 256], keys: &[u8], cut: Cut, rest: u64) -> bool {
    let counts = keys.iter().map(|&k| u64::from(h[k as usize]));
    match cut {
        Cut::Never => false,
        Cut::XLogX(bound) => keys.iter().map(|&k| xlogx(u32::from(h[k as usize]))).sum::<f64>() > bound,
        Cut::Largest(c) => counts.max().unwrap_or(0) >= u64::from(c),
        Cut::SumSquares(c) => counts.map(|s| s * s).sum::<u64>() + rest >= c,
        Cut::Parts(p) => counts.filter(|&s| s > 0).count() as u64 + rest <= u64::from(p),
    }
}
