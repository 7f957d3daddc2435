//! The guess rule: a valuation plus the switches of the thesis's tie rule (docs/definitions.md).

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

/// Which algorithm picks the guesses: the thesis's one-step valuations, a two-step look-ahead
/// of the same valuation, or one of the two simple strategies that ignore partition tables.
///
/// ```
/// use mmtree_strategy::{GuessRule, Method, Valuation};
/// let rule = GuessRule { method: Method::Lookahead2, ..GuessRule::new(Valuation::Entropy) };
/// assert_eq!(rule.name(), "entropy-lookahead-2");
/// assert_eq!(GuessRule::method(Method::Human).name(), "human");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// Best guess by the rule's [`Valuation`] of its partition table (Algorithm 1; the default).
    OneStep,
    /// Best guess by the valuation of its *two-step* partition: every part of the guess split
    /// again by that part's best second guess (definition and tie rule: [`two_step_partition`](crate::two_step_partition)).
    Lookahead2,
    /// The smallest candidate (largest with [`Ties::Largest`]): Shapiro's simple strategy.
    FirstCandidate,
    /// The human-friendly Bulls-and-Cows strategy: the least frequent symbols of the
    /// candidates (docs/definitions.md; exact rules: [`human_guess`](crate::human_guess)).
    Human,
}

impl Method {
    /// Name of the non-valuation methods (`first-candidate`, `human`); `None` for the two
    /// methods named after their valuation.
    pub fn strategy_name(self) -> Option<&'static str> {
        match self {
            Method::FirstCandidate => Some("first-candidate"),
            Method::Human => Some("human"),
            Method::OneStep | Method::Lookahead2 => None,
        }
    }

    /// Look-ahead depth of a valuation method (1 or 2); 0 for the simple strategies.
    pub fn lookahead(self) -> u8 {
        match self {
            Method::OneStep => 1,
            Method::Lookahead2 => 2,
            Method::FirstCandidate | Method::Human => 0,
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
    /// How guesses are scored (unused by [`Method::FirstCandidate`] and [`Method::Human`]).
    pub valuation: Valuation,
    /// Which algorithm applies the valuation, or which simple strategy replaces it.
    pub method: Method,
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
        GuessRule {
            valuation,
            method: Method::OneStep,
            pool: Pool::All,
            ties: Ties::Smallest,
            prefer_candidates: true,
            first_guess: None,
        }
    }

    /// A rule for one of the simple strategies (or any method with the minimax valuation).
    pub fn method(method: Method) -> GuessRule {
        GuessRule { method, ..GuessRule::new(Valuation::Minimax) }
    }

    /// The name reports print in their `valuation` column: the valuation's name for one-step
    /// rules (`minimax`), `<valuation>-lookahead-2` for two-step rules, and `first-candidate`
    /// or `human` for the simple strategies.
    pub fn name(&self) -> &'static str {
        match (self.method, self.valuation) {
            (Method::OneStep, v) => v.name(),
            (Method::Lookahead2, Valuation::Minimax) => "minimax-lookahead-2",
            (Method::Lookahead2, Valuation::ExpectedSize) => "expected-size-lookahead-2",
            (Method::Lookahead2, Valuation::Entropy) => "entropy-lookahead-2",
            (Method::Lookahead2, Valuation::MostParts) => "most-parts-lookahead-2",
            (Method::FirstCandidate, _) => "first-candidate",
            (Method::Human, _) => "human",
        }
    }
}
