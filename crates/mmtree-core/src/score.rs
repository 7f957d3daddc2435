//! Scoring: the literal definition, and the packed kernel derived from it.
//!
//! [`score_reference`] follows the definition in docs/definitions.md word for word and is the source of truth;
//! [`PackedCode`] and the feedback table are checked against it on every pair of small games.

use crate::code::Code;
use crate::feedback::Feedback;
use crate::game::{FeedbackKind, Game, MAX_COLOURS};

/// The feedback of guess `u` against secret `v`, straight from the definition:
/// `b` = equal positions, `w = sum_j min(n_j, m_j) - b`; black-only games drop `w`.
///
/// ```
/// use mmtree_core::{score_reference, Alphabet, Feedback, Game, GameSpec};
/// let game = Game::new(GameSpec::mastermind(4, 6))?;
/// let abc = Alphabet::default();
/// let (u, v) = (abc.parse(&game, "1122")?, abc.parse(&game, "1213")?);
/// assert_eq!(score_reference(&game, &u, &v), Feedback { black: 1, white: 2 });
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn score_reference(game: &Game, u: &Code, v: &Code) -> Feedback {
    let black = u.pegs().iter().zip(v.pegs()).filter(|(a, b)| a == b).count() as u8;
    let mut common = 0u8;
    for colour in 0..MAX_COLOURS {
        let nu = u.pegs().iter().filter(|&&c| c == colour).count() as u8;
        let nv = v.pegs().iter().filter(|&&c| c == colour).count() as u8;
        common += nu.min(nv);
    }
    match game.feedback_kind() {
        FeedbackKind::BlackWhite => Feedback { black, white: common - black },
        FeedbackKind::Black => Feedback { black, white: 0 },
    }
}

/// A code laid out for the SIMD kernel: pegs in one 16-byte register, per-colour counts in
/// up to three more (`k <= 16` uses one). Padding pegs are equal in every code and are
/// masked off; padding counts are 0.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedCode {
    pegs: [u8; 16],
    counts: [u8; 48],
}

impl PackedCode {
    /// Packs a code.
    pub fn new(code: &Code) -> PackedCode {
        let mut pegs = [0u8; 16];
        let mut counts = [0u8; 48];
        for (i, &c) in code.pegs().iter().enumerate() {
            pegs[i] = c;
            counts[c as usize] += 1;
        }
        PackedCode { pegs, counts }
    }

    /// `(blacks, blacks + whites)`, looking at `16 * LANES` colours and the pegs in `peg_mask`.
    #[inline(always)]
    pub fn black_total<const LANES: usize>(&self, other: &PackedCode, peg_mask: u32) -> (u32, u32) {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of the x86_64 baseline; loads read 16 in-bounds bytes each.
            unsafe {
                use std::arch::x86_64::*;
                let pu = _mm_loadu_si128(self.pegs.as_ptr().cast());
                let pv = _mm_loadu_si128(other.pegs.as_ptr().cast());
                let eq = _mm_movemask_epi8(_mm_cmpeq_epi8(pu, pv)) as u32 & peg_mask;
                let zero = _mm_setzero_si128();
                let mut acc = zero;
                for lane in 0..LANES {
                    let cu = _mm_loadu_si128(self.counts.as_ptr().add(16 * lane).cast());
                    let cv = _mm_loadu_si128(other.counts.as_ptr().add(16 * lane).cast());
                    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_min_epu8(cu, cv), zero));
                }
                let total = (_mm_cvtsi128_si32(acc) + _mm_extract_epi16(acc, 4)) as u32;
                (eq.count_ones(), total)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut black = 0;
            for i in 0..16 {
                if peg_mask & (1 << i) != 0 && self.pegs[i] == other.pegs[i] {
                    black += 1;
                }
            }
            let total = (0..16 * LANES).map(|c| self.counts[c].min(other.counts[c]) as u32).sum();
            (black, total)
        }
    }
}
