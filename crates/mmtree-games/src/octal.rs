//! Octal games (take-and-break games on heaps), e.g. Kayles `0.77`.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

use crate::sg::{certified_period, needed_without_splits, MexScratch};
use crate::{GamesError, Periodicity};

/// An octal game `d0.d1d2d3...` in the notation of Guy and Smith.
///
/// Digit `d_k` (an octal digit, 0-7) says what may remain after removing
/// `k` tokens from one heap: bit 1 — nothing (the heap had exactly `k`
/// tokens), bit 2 — one non-empty heap, bit 4 — two non-empty heaps.
/// Kayles is `0.77`, Dawson's Kayles `0.07`, Dawson's chess `0.137`.
/// The digit before the point may be 0 or 4 (4 allows splitting a heap into
/// two without removing anything).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct OctalGame {
    /// `digits[k]` is `d_k`; `digits[0]` is the digit before the point.
    /// Trailing zero digits are stripped.
    digits: Vec<u8>,
}

impl OctalGame {
    /// Parse a code such as `0.77`, `.07` or `4.07`.
    ///
    /// ```
    /// use mmtree_games::OctalGame;
    /// let kayles = OctalGame::parse("0.77").unwrap();
    /// assert_eq!(kayles.max_removal(), 2);
    /// assert_eq!(kayles.to_string(), "0.77");
    /// assert!(OctalGame::parse("0.78").is_err());
    /// assert!(OctalGame::parse("kayles").is_err());
    /// ```
    pub fn parse(code: &str) -> Result<OctalGame, GamesError> {
        let bad = |reason: &str| GamesError::InvalidOctal { code: code.to_string(), reason: reason.to_string() };
        let trimmed = code.trim();
        let (before, after) = trimmed.split_once('.').ok_or_else(|| bad("expected the form d0.d1d2..., e.g. 0.77"))?;
        let d0 = match before {
            "" | "0" => 0,
            "4" => 4,
            _ => {
                return Err(bad(
                    "the digit before the point must be 0 or 4 (other values make the game loopy or meaningless)",
                ))
            }
        };
        if after.is_empty() {
            return Err(bad("no digits after the point"));
        }
        let mut digits = vec![d0];
        for c in after.chars() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return Err(bad(&format!("{c:?} is not an octal digit 0-7"))),
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(OctalGame { digits })
    }

    /// The digits `d0, d1, ...` (trailing zeros stripped).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The largest number of tokens a move removes: the index `k` of the
    /// last non-zero digit `d_k` (0 for the game with no moves).
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether some move splits a heap into two (some digit has bit 4).
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// The traditional name of a few famous octal games.
    ///
    /// ```
    /// use mmtree_games::OctalGame;
    /// assert_eq!(OctalGame::parse("0.77").unwrap().name(), Some("Kayles"));
    /// assert_eq!(OctalGame::parse("0.07").unwrap().name(), Some("Dawson's Kayles"));
    /// ```
    pub fn name(&self) -> Option<&'static str> {
        match self.digits.as_slice() {
            [0, 7, 7] => Some("Kayles"),
            [0, 0, 7] => Some("Dawson's Kayles"),
            [0, 1, 3, 7] => Some("Dawson's chess"),
            _ => None,
        }
    }
}

impl fmt::Display for OctalGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl FromStr for OctalGame {
    type Err = GamesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OctalGame::parse(s)
    }
}

/// Sprague-Grundy values `g(0), ..., g(up_to)` of a single heap in the octal
/// game, by backward induction: `g(n)` is the mex of `g(n - k)` for one-heap
/// options and `g(a) ⊕ g(b)` for the splits `a + b = n - k` (the
/// Sprague-Grundy theorem for sums of games).
///
/// Cost is about `up_to² / 4` per splitting digit.
///
/// ```
/// use mmtree_games::{octal_sg, OctalGame};
/// let kayles = OctalGame::parse("0.77").unwrap();
/// assert_eq!(octal_sg(&kayles, 11), vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
/// ```
pub fn octal_sg(game: &OctalGame, up_to: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(up_to.saturating_add(1));
    let mut scratch = MexScratch::new();
    for n in 0..=up_to {
        scratch.clear();
        for (k, &d) in game.digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if k > 0 && d & 1 != 0 && rest == 0 {
                scratch.insert(0);
            }
            if k > 0 && d & 2 != 0 && rest > 0 {
                scratch.insert(g[rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                for a in 1..=rest / 2 {
                    scratch.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push(scratch.mex());
    }
    g
}

/// Estimated steps of [`octal_sg`] up to `up_to`: one per one-heap option, and for a splitting
/// digit `d_k` one per split, `(n - k) / 2` at heap `n`.
pub(crate) fn octal_steps(game: &OctalGame, up_to: usize) -> f64 {
    let heaps = up_to as f64 + 1.0;
    let mut steps = heaps * game.digits.len() as f64;
    for (k, &d) in game.digits.iter().enumerate() {
        if d & 4 != 0 && k <= up_to {
            let rest = (up_to - k) as f64;
            steps += rest * (rest + 1.0) / 4.0;
        }
    }
    steps
}

/// Periodicity of an octal game's SG sequence, *proved* by the octal
/// periodicity theorem (Guy and Smith; Winning Ways ch. 4): for a game whose
/// last non-zero digit is `d_k`, if `g(n + p) = g(n)` for all
/// `i <= n < 2i + p + k` (with `i >= 1`), then it holds for all `n >= i`.
/// (For games that never split heaps a window of `k + 1` values suffices.)
///
/// `seq` must be the output of [`octal_sg`] for `game`. Returns the smallest
/// period that the computed values prove, with its least preperiod, or `None`
/// if `seq` is too short to prove any.
///
/// ```
/// use mmtree_games::{octal_periodicity, octal_sg, OctalGame, Periodicity};
/// let kayles = OctalGame::parse("0.77").unwrap();
/// let g = octal_sg(&kayles, 200);
/// assert_eq!(
///     octal_periodicity(&kayles, &g),
///     Some(Periodicity { preperiod: 71, period: 12 })
/// );
/// // 100 values are not enough to prove it.
/// assert_eq!(octal_periodicity(&kayles, &g[..=100]), None);
/// ```
pub fn octal_periodicity(game: &OctalGame, seq: &[u32]) -> Option<Periodicity> {
    certified_period(seq, |i, p| values_needed(game, i, p))
}

/// Values `g(0), ...` needed to prove period `p` from `i` (see [`octal_periodicity`]);
/// saturating, so no input can wrap it round to a small number.
pub(crate) fn values_needed(game: &OctalGame, i: usize, p: usize) -> usize {
    let k = game.max_removal();
    if game.splits() {
        i.max(1).saturating_add(p).saturating_mul(2).saturating_add(k)
    } else {
        needed_without_splits(i, p, k)
    }
}
