//! What identifies a row: the game (n, k, variant, feedback) and the rule (valuation, pool,
//! ties); and the grid order rows are listed in.

use std::cmp::Ordering;
use std::fmt;

use mmtree_core::{FeedbackKind, GameSpec, Variant};
use mmtree_strategy::{GuessRule, Pool, Ties, Valuation};

/// The game and rule of a row. Keys are ordered in grid order: n, k, variant (repetition
/// first), feedback (black-white first), valuation (table order: minimax, expected size,
/// entropy, most parts), pool (all first), ties (smallest first).
///
/// ```
/// use mmtree_core::{FeedbackKind, Variant};
/// use mmtree_strategy::{Pool, Ties, Valuation};
/// use mmtree_sweep::RowKey;
/// let knuth = RowKey {
///     n: 4, k: 6, variant: Variant::Repetition, feedback: FeedbackKind::BlackWhite,
///     valuation: Valuation::Minimax, pool: Pool::All, ties: Ties::Smallest,
/// };
/// assert_eq!(knuth.to_string(), "[4,6] repetition black-white minimax all smallest");
/// assert!(knuth < RowKey { valuation: Valuation::Entropy, ..knuth });
/// assert!(knuth > RowKey { n: 3, k: 8, ..knuth });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowKey {
    /// Pegs.
    pub n: u8,
    /// Colours.
    pub k: u8,
    /// Repetition or distinct symbols.
    pub variant: Variant,
    /// Black-white or black-only feedback.
    pub feedback: FeedbackKind,
    /// The one-step valuation.
    pub valuation: Valuation,
    /// Where guesses come from.
    pub pool: Pool,
    /// Which of equally good guesses is played.
    pub ties: Ties,
}

impl RowKey {
    /// The game's parameters (not yet validated: `n > k` without repetition is a key too).
    pub fn spec(&self) -> GameSpec {
        GameSpec { n: self.n, k: self.k, variant: self.variant, feedback: self.feedback }
    }

    /// The rule: the thesis defaults with this key's valuation, pool and ties.
    pub fn rule(&self) -> GuessRule {
        GuessRule { pool: self.pool, ties: self.ties, ..GuessRule::new(self.valuation) }
    }

    fn order(&self) -> (u8, u8, u8, u8, usize, u8, u8) {
        (
            self.n,
            self.k,
            (self.variant == Variant::Distinct) as u8,
            (self.feedback == FeedbackKind::Black) as u8,
            Valuation::ALL.iter().position(|&v| v == self.valuation).unwrap_or(usize::MAX),
            (self.pool == Pool::Candidates) as u8,
            (self.ties == Ties::Largest) as u8,
        )
    }
}

impl Ord for RowKey {
    fn cmp(&self, other: &RowKey) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for RowKey {
    fn partial_cmp(&self, other: &RowKey) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `[4,6] repetition black-white minimax all smallest`, for messages.
impl fmt::Display for RowKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{},{}] {} {} {} {} {}",
            self.n,
            self.k,
            self.variant.name(),
            self.feedback.name(),
            self.valuation.name(),
            self.pool.name(),
            self.ties.name()
        )
    }
}

/// The variant a table names.
pub(crate) fn variant_named(name: &str) -> Option<Variant> {
    [Variant::Repetition, Variant::Distinct].into_iter().find(|v| v.name() == name)
}

/// The feedback kind a table names.
pub(crate) fn feedback_named(name: &str) -> Option<FeedbackKind> {
    [FeedbackKind::BlackWhite, FeedbackKind::Black].into_iter().find(|v| v.name() == name)
}

/// The pool a table names.
pub(crate) fn pool_named(name: &str) -> Option<Pool> {
    [Pool::All, Pool::Candidates].into_iter().find(|v| v.name() == name)
}

/// The tie order a table names.
pub(crate) fn ties_named(name: &str) -> Option<Ties> {
    [Ties::Smallest, Ties::Largest].into_iter().find(|v| v.name() == name)
}
