//! The guess rule: a valuation plus the switches of spec.md §3.

use serde::{Deserialize, Serialize};

use crate::valuation::Valuation;
use mmtree_core::CodeIndex;

/// Where guesses are taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pool {
    /// Every code of the game (the default).
    All,
    /// Only codes still consistent with the answers ("hard mode").
    Candidates,
}

/// Which of several equally good guesses to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ties {
    /// Lexicographically smallest (the thesis's rule).
    Smallest,
    /// Lexicographically largest.
    Largest,
}

impl Pool {
    /// Name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Pool::All => "all",
            Pool::Candidates => "candidates",
        }
    }
}

impl Ties {
    /// Name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Ties::Smallest => "smallest",
            Ties::Largest => "largest",
        }
    }
}

/// How a guess is chosen in every state (Algorithm 1 of the thesis, with its switches).
///
/// Among the guesses of the pool with the best value, play a candidate if there is one
/// (unless `prefer_candidates` is off), the smallest (or largest) by lexicographic order.
///
/// ```
/// use mmtree_strategy::{GuessRule, Pool, Ties, Valuation};
/// let rule = GuessRule::new(Valuation::Minimax);
/// assert_eq!((rule.pool, rule.ties, rule.prefer_candidates, rule.first_guess), (Pool::All, Ties::Smallest, true, None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GuessRule {
    /// How guesses are scored.
    pub valuation: Valuation,
    /// Which codes may be guessed.
    pub pool: Pool,
    /// Tie order.
    pub ties: Ties,
    /// Prefer candidates among equally good guesses.
    pub prefer_candidates: bool,
    /// A fixed first guess; the rule picks all later ones.
    pub first_guess: Option<CodeIndex>,
}

impl GuessRule {
    /// The thesis defaults: all codes, smallest first, candidates preferred, no fixed opening.
    pub fn new(valuation: Valuation) -> GuessRule {
        GuessRule { valuation, pool: Pool::All, ties: Ties::Smallest, prefer_candidates: true, first_guess: None }
    }
}
