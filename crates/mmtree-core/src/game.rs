//! The rules of one game: pegs, colours, whether symbols may repeat, and the feedback kind.

use serde::{Deserialize, Serialize};

use crate::error::GameError;

/// Most pegs a code may have: keeps a code and its colour counts inside one SIMD register each.
pub const MAX_PEGS: u8 = 10;
/// Most colours: `1-9` then `A-Z` is 35 printable symbols.
pub const MAX_COLOURS: u8 = 35;

/// Whether a code may repeat a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// Classic Mastermind: `{1..k}^n`.
    Repetition,
    /// Bulls and Cows / MOO: `n` distinct symbols out of `k`.
    Distinct,
}

/// What the codemaker answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FeedbackKind {
    /// Black and white pegs (bulls and cows).
    BlackWhite,
    /// Black pegs only.
    Black,
}

impl Variant {
    /// The name used in tables and JSON (`repetition` / `distinct`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Repetition => "repetition",
            Variant::Distinct => "distinct",
        }
    }
}

impl FeedbackKind {
    /// The name used in tables and JSON (`black-white` / `black`).
    pub fn name(self) -> &'static str {
        match self {
            FeedbackKind::BlackWhite => "black-white",
            FeedbackKind::Black => "black",
        }
    }
}

/// A game's parameters as the user gave them, not yet checked.
///
/// A [`Game`] is obtained only through [`Game::new`], which validates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameSpec {
    /// Number of pegs (positions).
    pub n: u8,
    /// Number of colours (symbols).
    pub k: u8,
    /// Repetition allowed or not.
    pub variant: Variant,
    /// Black/white or black-only feedback.
    pub feedback: FeedbackKind,
}

impl GameSpec {
    /// `[n,k]`-Mastermind with repetition and black/white feedback.
    pub fn mastermind(n: u8, k: u8) -> GameSpec {
        GameSpec { n, k, variant: Variant::Repetition, feedback: FeedbackKind::BlackWhite }
    }

    /// `n` distinct symbols of `k` with bulls and cows (`bulls_and_cows(4, 10)` is the classic).
    pub fn bulls_and_cows(n: u8, k: u8) -> GameSpec {
        GameSpec { n, k, variant: Variant::Distinct, feedback: FeedbackKind::BlackWhite }
    }
}

/// A validated game: `1 <= n <= MAX_PEGS`, `1 <= k <= MAX_COLOURS`, `n <= k` without repetition.
///
/// ```
/// use mmtree_core::{Game, GameSpec};
/// let game = Game::new(GameSpec::mastermind(4, 6))?;
/// assert_eq!(game.code_count(), 1296);
/// assert_eq!(Game::new(GameSpec::bulls_and_cows(4, 10))?.code_count(), 5040);
/// assert!(Game::new(GameSpec::mastermind(0, 6)).is_err());
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "GameSpec", into = "GameSpec")]
pub struct Game {
    spec: GameSpec,
}

impl TryFrom<GameSpec> for Game {
    type Error = GameError;
    fn try_from(spec: GameSpec) -> Result<Game, GameError> {
        Game::new(spec)
    }
}

impl From<Game> for GameSpec {
    fn from(game: Game) -> GameSpec {
        game.spec
    }
}

impl Game {
    /// Checks the parameters.
    pub fn new(spec: GameSpec) -> Result<Game, GameError> {
        if spec.n == 0 || spec.n > MAX_PEGS {
            return Err(GameError::Pegs { n: spec.n, max: MAX_PEGS });
        }
        if spec.k == 0 || spec.k > MAX_COLOURS {
            return Err(GameError::Colours { k: spec.k, max: MAX_COLOURS });
        }
        if spec.variant == Variant::Distinct && spec.n > spec.k {
            return Err(GameError::TooFewSymbols { n: spec.n, k: spec.k });
        }
        Ok(Game { spec })
    }

    /// The parameters.
    pub fn spec(&self) -> GameSpec {
        self.spec
    }
    /// Pegs.
    pub fn n(&self) -> u8 {
        self.spec.n
    }
    /// Colours.
    pub fn k(&self) -> u8 {
        self.spec.k
    }
    /// Repetition or distinct.
    pub fn variant(&self) -> Variant {
        self.spec.variant
    }
    /// Feedback kind.
    pub fn feedback_kind(&self) -> FeedbackKind {
        self.spec.feedback
    }

    /// `|H|`, computed without enumerating (saturates at `u128::MAX`, never reached here).
    pub fn code_count(&self) -> u128 {
        let (n, k) = (u128::from(self.spec.n), u128::from(self.spec.k));
        match self.spec.variant {
            Variant::Repetition => k.pow(self.spec.n as u32),
            Variant::Distinct => (0..n).map(|i| k - i).product(),
        }
    }
}

impl std::fmt::Display for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{},{}]", self.spec.n, self.spec.k)?;
        if self.spec.variant == Variant::Distinct {
            f.write_str(" distinct")?;
        }
        if self.spec.feedback == FeedbackKind::Black {
            f.write_str(" black-only")?;
        }
        Ok(())
    }
}
