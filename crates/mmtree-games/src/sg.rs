//! The Sprague-Grundy function, P/N outcomes, subtraction games and periodicity.

use serde::Serialize;
use std::fmt;

use crate::GamesError;

/// Who wins a position under optimal play.
///
/// A **P-position** is a win for the *Previous* player (the one who just
/// moved); an **N-position** is a win for the *Next* player (the one to move).
/// Under the normal play rule a position is P exactly when its
/// Sprague-Grundy value is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Outcome {
    /// The previous player wins: every move leads to an N-position.
    P,
    /// The next player wins: some move leads to a P-position.
    N,
}

impl Outcome {
    /// The normal-play outcome of a position with Sprague-Grundy value `sg`.
    ///
    /// ```
    /// use mmtree_games::Outcome;
    /// assert_eq!(Outcome::from_sg(0), Outcome::P);
    /// assert_eq!(Outcome::from_sg(3), Outcome::N);
    /// ```
    pub fn from_sg(sg: u32) -> Outcome {
        if sg == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
        })
    }
}

/// The minimal excludant: the least non-negative integer not in `values`.
///
/// `g(v) = mex{ g(u) : u an option of v }` defines the Sprague-Grundy function.
///
/// ```
/// use mmtree_games::mex;
/// assert_eq!(mex([]), 0);
/// assert_eq!(mex([0, 1, 3]), 2);
/// assert_eq!(mex([1, 2]), 0);
/// ```
pub fn mex<I: IntoIterator<Item = u32>>(values: I) -> u32 {
    let values: Vec<u32> = values.into_iter().collect();
    // The mex of k values is at most k, so a bitmap of k + 1 entries suffices.
    let mut seen = vec![false; values.len() + 1];
    for v in values {
        if let Some(slot) = seen.get_mut(v as usize) {
            *slot = true;
        }
    }
    seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32
}

/// Reusable mex computation over a stream of option values, without
/// allocating per position: values are stamped with a generation number.
pub(crate) struct MexScratch {
    stamp: Vec<u32>,
    generation: u32,
}

impl MexScratch {
    pub(crate) fn new() -> Self {
        MexScratch { stamp: Vec::new(), generation: 0 }
    }

    /// Start a new position.
    pub(crate) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    pub(crate) fn insert(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.stamp.len() {
            self.stamp.resize((v + 1).next_power_of_two(), 0);
        }
        self.stamp[v] = self.generation;
    }

    pub(crate) fn mex(&self) -> u32 {
        self.stamp.iter().position(|&s| s != self.generation).unwrap_or(self.stamp.len()) as u32
    }
}

/// Check a subtraction set given on the command line: it must be non-empty
/// and must not contain 0. Returns the moves sorted and deduplicated.
///
/// ```
/// use mmtree_games::validate_moves;
/// assert_eq!(validate_moves(&[3, 1, 2, 1]).unwrap(), vec![1, 2, 3]);
/// assert!(validate_moves(&[]).is_err());
/// assert!(validate_moves(&[0, 1]).is_err());
/// ```
pub fn validate_moves(moves: &[usize]) -> Result<Vec<usize>, GamesError> {
    if moves.is_empty() {
        return Err(GamesError::EmptyMoveSet);
    }
    if moves.contains(&0) {
        return Err(GamesError::ZeroMove);
    }
    let mut sorted = moves.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    Ok(sorted)
}

/// Sprague-Grundy values `g(0), ..., g(up_to)` of the subtraction game with
/// subtraction set `moves`: one heap, a move removes `m` tokens for some
/// `m` in `moves` with `m <= heap`.
///
/// Computed by backward induction, `g(n) = mex{ g(n - m) : m in moves, m <= n }`.
/// Moves equal to 0 are ignored (see [`validate_moves`]).
///
/// ```
/// use mmtree_games::subtraction_sg;
/// // The lecture's opening game: take 1, 2 or 3; g(x) = x mod 4.
/// assert_eq!(subtraction_sg(&[1, 2, 3], 8), vec![0, 1, 2, 3, 0, 1, 2, 3, 0]);
/// ```
pub fn subtraction_sg(moves: &[usize], up_to: usize) -> Vec<u32> {
    let mut g = Vec::with_capacity(up_to.saturating_add(1));
    let mut scratch = MexScratch::new();
    for n in 0..=up_to {
        scratch.clear();
        for &m in moves {
            if m != 0 && m <= n {
                scratch.insert(g[n - m]);
            }
        }
        g.push(scratch.mex());
    }
    g
}

/// Eventual periodicity of a sequence: `seq[n + period] == seq[n]` for all
/// `n >= preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Periodicity {
    /// Length of the non-periodic prefix (the first periodic index).
    pub preperiod: usize,
    /// The period.
    pub period: usize,
}

impl Periodicity {
    /// The last index that breaks the periodic pattern (`preperiod - 1`),
    /// or `None` for a purely periodic sequence.
    ///
    /// ```
    /// use mmtree_games::Periodicity;
    /// let kayles = Periodicity { preperiod: 71, period: 12 };
    /// assert_eq!(kayles.last_exception(), Some(70));
    /// ```
    pub fn last_exception(&self) -> Option<usize> {
        self.preperiod.checked_sub(1)
    }
}

/// The smallest index `i` such that `seq[n] == seq[n + p]` for all
/// `i <= n < seq.len() - p`. Requires `p <= seq.len()`.
fn periodic_from(seq: &[u32], p: usize) -> usize {
    let mut i = seq.len() - p;
    while i > 0 && seq[i - 1] == seq[i - 1 + p] {
        i -= 1;
    }
    i
}

/// Detect the periodicity *observed* in a finite sequence.
///
/// Among all periods `p` whose periodic part (from the least possible
/// preperiod `i`) spans at least two full periods, returns the one with the
/// smallest `i + p` (ties: smallest `p`). This is an observation about the
/// computed range only; it proves nothing about later terms. For octal games
/// use [`octal_periodicity`](crate::octal_periodicity), which applies the
/// octal periodicity theorem.
///
/// ```
/// use mmtree_games::{detect_period, Periodicity};
/// let seq = [5, 0, 1, 2, 0, 1, 2, 0, 1, 2];
/// assert_eq!(detect_period(&seq), Some(Periodicity { preperiod: 1, period: 3 }));
/// assert_eq!(detect_period(&[1, 2, 3]), None);
/// ```
pub fn detect_period(seq: &[u32]) -> Option<Periodicity> {
    let len = seq.len();
    let mut best: Option<Periodicity> = None;
    for p in 1..=len / 2 {
        // No longer period can beat the best `i + p` (and multiples of a period would each
        // scan the whole sequence).
        if best.is_some_and(|b| p >= b.preperiod + b.period) {
            break;
        }
        let i = periodic_from(seq, p);
        if len - i < 2 * p {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) => i + p < b.preperiod + b.period,
        };
        if better {
            best = Some(Periodicity { preperiod: i, period: p });
        }
    }
    best
}

/// The smallest period `p` (and its least preperiod) for which `needed(i, p)`
/// values suffice to *prove* periodicity and are available in `seq`.
pub(crate) fn certified_period(seq: &[u32], needed: impl Fn(usize, usize) -> usize) -> Option<Periodicity> {
    let len = seq.len();
    (1..=len / 2).find_map(|p| {
        let i = periodic_from(seq, p);
        (needed(i, p) <= len).then_some(Periodicity { preperiod: i, period: p })
    })
}

/// Number of values needed to prove that a game whose moves never split a
/// heap, and remove at most `k` tokens, is periodic from `i` with period `p`:
/// once `g(n + p) = g(n)` holds on a window of `k` (or `k + 1`) consecutive
/// `n >= i`, induction carries it on forever, because `g(n)` depends only on
/// the previous `k` values.
pub(crate) fn needed_without_splits(i: usize, p: usize, k: usize) -> usize {
    // Saturating: a move near `usize::MAX` needs more values than can exist, never a few.
    i.saturating_add(k).max(k.saturating_add(1)).saturating_add(p)
}

/// Estimated steps of [`subtraction_sg`] up to `up_to`: one per move that fits each heap.
pub(crate) fn subtraction_steps(moves: &[usize], up_to: usize) -> f64 {
    let heaps = up_to as f64 + 1.0;
    heaps + moves.iter().filter(|&&m| m <= up_to).map(|&m| (up_to - m) as f64 + 1.0).sum::<f64>()
}

/// Periodicity of a subtraction game's SG sequence, *proved* from the values
/// computed: `seq` must be the output of [`subtraction_sg`] for `moves`.
///
/// Because `g(n)` depends only on the previous `max(moves)` values, a period
/// that holds on `max(moves)` consecutive positions holds forever. Returns
/// `None` when `seq` is too short to prove any period.
///
/// ```
/// use mmtree_games::{subtraction_periodicity, subtraction_sg, Periodicity};
/// let g = subtraction_sg(&[1, 2, 3], 30);
/// assert_eq!(
///     subtraction_periodicity(&[1, 2, 3], &g),
///     Some(Periodicity { preperiod: 0, period: 4 })
/// );
/// ```
pub fn subtraction_periodicity(moves: &[usize], seq: &[u32]) -> Option<Periodicity> {
    let k = moves.iter().copied().max().unwrap_or(0);
    certified_period(seq, |i, p| needed_without_splits(i, p, k))
}
