//! The partition tables of 32 guesses at once: one histogram per lane of a block.

use super::{CodeBlocks, ProbeSet, BLOCK};

impl CodeBlocks {
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
