//! Typed errors of the core crate.

use thiserror::Error;

use crate::printable::{printable, printable_char};

/// Why a game, a code or a memory request was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameError {
    /// `n` outside `1..=MAX_PEGS`.
    #[error("invalid number of pegs n = {n}: must be between 1 and {max}")]
    Pegs {
        /// Given.
        n: u8,
        /// Largest supported.
        max: u8,
    },
    /// `k` outside `1..=MAX_COLOURS`.
    #[error("invalid number of colours k = {k}: must be between 1 and {max}")]
    Colours {
        /// Given.
        k: u8,
        /// Largest supported.
        max: u8,
    },
    /// Distinct symbols need `n <= k`.
    #[error("a game without repetition needs n <= k, got n = {n}, k = {k}")]
    TooFewSymbols {
        /// Pegs.
        n: u8,
        /// Symbols.
        k: u8,
    },
    /// The game does not fit the memory limit.
    #[error("game {game} has {codes} codes and needs about {needed} of memory, more than the limit of {limit} (raise --memory-limit or choose a smaller game)")]
    TooLarge {
        /// The game, e.g. `[8,16]`.
        game: String,
        /// Number of codes.
        codes: u128,
        /// Human-readable estimate.
        needed: String,
        /// Human-readable limit.
        limit: String,
    },
    /// A code string of the wrong length.
    #[error("code '{}' has {len} symbols, the game has {n} pegs", printable(code))]
    CodeLength {
        /// As given.
        code: String,
        /// Its length.
        len: usize,
        /// Pegs of the game.
        n: u8,
    },
    /// A symbol that is not a colour of the game.
    #[error("code '{}': symbol '{}' is not one of the game's {k} colours ({allowed})", printable(code), printable_char(*symbol))]
    Symbol {
        /// As given.
        code: String,
        /// Offending symbol.
        symbol: char,
        /// Colours of the game.
        k: u8,
        /// The allowed symbols.
        allowed: String,
    },
    /// A repeated symbol in a game without repetition.
    #[error("code '{}' repeats symbol '{}', but this game has no repetition", printable(code), printable_char(*symbol))]
    Repeated {
        /// As given.
        code: String,
        /// Repeated symbol.
        symbol: char,
    },
    /// A bad alphabet.
    #[error("invalid symbol alphabet '{}': {reason}", printable(alphabet))]
    Alphabet {
        /// As given.
        alphabet: String,
        /// What is wrong.
        reason: String,
    },
    /// A feedback that the game cannot produce.
    #[error("feedback ({black},{white}) is impossible with {n} pegs")]
    Feedback {
        /// Blacks.
        black: u8,
        /// Whites.
        white: u8,
        /// Pegs.
        n: u8,
    },
}
