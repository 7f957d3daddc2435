//! Nim: Bouton's theorem, winning moves, and misère Nim.

use serde::Serialize;
use std::fmt;

use crate::Outcome;

/// A Nim move: reduce heap number `heap` (0-based) from `from` to `to` tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Move {
    /// Index of the heap, 0-based, in the order the heaps were given.
    pub heap: usize,
    /// Tokens on the heap before the move.
    pub from: u64,
    /// Tokens on the heap after the move (`to < from`).
    pub to: u64,
}

impl Move {
    /// How many tokens the move removes.
    ///
    /// ```
    /// use mmtree_games::Move;
    /// assert_eq!(Move { heap: 0, from: 5, to: 3 }.taken(), 2);
    /// ```
    pub fn taken(&self) -> u64 {
        self.from - self.to
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "heap {}: {} -> {} (take {})", self.heap + 1, self.from, self.to, self.taken())
    }
}

/// The nim-sum (binary addition without carry, i.e. XOR) of the heaps.
///
/// ```
/// use mmtree_games::nim_sum;
/// // The lecture's example: 16 ⊕ 27 ⊕ 32 = 43, an N-position.
/// assert_eq!(nim_sum(&[16, 27, 32]), 43);
/// assert_eq!(nim_sum(&[1, 2, 3]), 0);
/// ```
pub fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |acc, &h| acc ^ h)
}

/// Normal-play outcome of a Nim position: by Bouton's theorem it is a
/// P-position exactly when the nim-sum is 0.
///
/// ```
/// use mmtree_games::{nim_outcome, Outcome};
/// assert_eq!(nim_outcome(&[1, 2, 3]), Outcome::P);
/// assert_eq!(nim_outcome(&[5, 7, 9]), Outcome::N);
/// ```
pub fn nim_outcome(heaps: &[u64]) -> Outcome {
    if nim_sum(heaps) == 0 {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// All winning moves of normal-play Nim: the moves to a position with
/// nim-sum 0. Empty for a P-position.
///
/// With nim-sum `s != 0`, heap `h` has a winning move exactly when
/// `h ^ s < h`, i.e. when `h` has a 1 in the leftmost bit of `s`; so the
/// number of winning moves equals the number of such heaps, and it is odd.
///
/// ```
/// use mmtree_games::{winning_moves, Move};
/// assert_eq!(
///     winning_moves(&[5, 7, 9]),
///     vec![Move { heap: 2, from: 9, to: 2 }]
/// );
/// assert!(winning_moves(&[1, 2, 3]).is_empty());
/// ```
pub fn winning_moves(heaps: &[u64]) -> Vec<Move> {
    let s = nim_sum(heaps);
    heaps
        .iter()
        .enumerate()
        .filter(|&(_, &h)| (h ^ s) < h)
        .map(|(heap, &h)| Move { heap, from: h, to: h ^ s })
        .collect()
}

/// Outcome of Nim under the misère rule (whoever takes the last token loses).
///
/// If some heap has at least 2 tokens, the outcome is the same as in normal
/// play (P iff the nim-sum is 0). If every heap has at most 1 token, the
/// position is P exactly when the number of non-empty heaps is odd.
///
/// ```
/// use mmtree_games::{misere_nim_outcome, Outcome};
/// assert_eq!(misere_nim_outcome(&[]), Outcome::N); // the last mover lost
/// assert_eq!(misere_nim_outcome(&[1]), Outcome::P);
/// assert_eq!(misere_nim_outcome(&[1, 1]), Outcome::N);
/// assert_eq!(misere_nim_outcome(&[2, 2]), Outcome::P);
/// ```
pub fn misere_nim_outcome(heaps: &[u64]) -> Outcome {
    if heaps.iter().any(|&h| h >= 2) {
        nim_outcome(heaps)
    } else {
        let ones = heaps.iter().filter(|&&h| h == 1).count();
        if ones % 2 == 1 {
            Outcome::P
        } else {
            Outcome::N
        }
    }
}

/// All winning moves of misère Nim: the moves to a misère P-position.
///
/// Only three target sizes per heap can work: the normal-play target (the
/// nim-sum of the other heaps), 0 and 1. Each candidate is checked with the
/// rule of [`misere_nim_outcome`], so the result is exact; the nim-sum and
/// the counts of 1-heaps and larger heaps are updated per move rather than
/// recounted, so 10,000 heaps take linear time.
///
/// ```
/// use mmtree_games::{misere_winning_moves, Move};
/// // From 1, 1, 3 the only winning move reduces the 3-heap to 1,
/// // leaving an odd number of 1-heaps.
/// assert_eq!(
///     misere_winning_moves(&[1, 1, 3]),
///     vec![Move { heap: 2, from: 3, to: 1 }]
/// );
/// ```
pub fn misere_winning_moves(heaps: &[u64]) -> Vec<Move> {
    let sum = nim_sum(heaps);
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    // The misère outcome after heap `h` becomes `t`, as `misere_nim_outcome` decides it.
    let is_p_after = |h: u64, t: u64| {
        let big = big - usize::from(h >= 2) + usize::from(t >= 2);
        let ones = ones - usize::from(h == 1) + usize::from(t == 1);
        if big > 0 {
            sum ^ h ^ t == 0
        } else {
            ones % 2 == 1
        }
    };
    let mut moves = Vec::new();
    for (heap, &h) in heaps.iter().enumerate() {
        let mut targets = [sum ^ h, 0, 1];
        targets.sort_unstable();
        for (i, &t) in targets.iter().enumerate() {
            if t < h && (i == 0 || targets[i - 1] != t) && is_p_after(h, t) {
                moves.push(Move { heap, from: h, to: t });
            }
        }
    }
    moves
}
