//! The error type of the crate.

/// Everything that can go wrong in `mmtree games`: bad user input
/// (move sets, octal codes, DOT files, cyclic graphs) and output failures.
///
/// Every message is a single line, suitable for printing after `error: `.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GamesError {
    /// The subtraction set is empty.
    #[error("the move set is empty; give the allowed removals, e.g. --moves 1,2,3")]
    EmptyMoveSet,
    /// A subtraction set contains the move 0, which would be a pass and make the game loopy.
    #[error("move 0 is not allowed in a subtraction set (it would let a player pass forever)")]
    ZeroMove,
    /// An octal code could not be parsed.
    #[error("malformed octal code {code:?}: {reason}")]
    InvalidOctal {
        /// The code as given.
        code: String,
        /// Why it was rejected.
        reason: String,
    },
    /// A numeric argument exceeds what the command is willing to compute.
    #[error("{what} = {value} is too large (at most {max} is supported)")]
    TooLarge {
        /// Which argument.
        what: &'static str,
        /// The value given.
        value: usize,
        /// The largest accepted value.
        max: usize,
    },
    /// The work a command asks for exceeds what one run does (it would take minutes).
    #[error("{what} takes about {steps:.1e} steps, more than the {limit:.0e} one run does; {hint}")]
    TooMuchWork {
        /// The computation, e.g. `g(0), ..., g(50000) of 0.777`.
        what: String,
        /// Estimated elementary steps.
        steps: f64,
        /// The limit.
        limit: f64,
        /// How to make it fit, e.g. `lower --up-to to at most 3000`.
        hint: String,
    },
    /// A game file could not be read (missing, a directory, not UTF-8, too large...).
    #[error(transparent)]
    Read(#[from] mmtree_io::InputError),
    /// A DOT document could not be parsed.
    #[error("malformed DOT at line {line}: {message}")]
    Dot {
        /// 1-based line of the offending token.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The game graph has a cycle, so backward induction does not apply.
    #[error("the game graph has a cycle through node {node:?} ({cycle}); SG values need a finite acyclic game")]
    Cycle {
        /// A node lying on the cycle.
        node: String,
        /// The cycle, written as `a -> b -> a`.
        cycle: String,
    },
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Write(#[from] std::io::Error),
    /// Serialising JSON output failed.
    #[error("cannot serialise JSON output: {0}")]
    Json(#[from] serde_json::Error),
}

impl GamesError {
    /// True when the user's input is at fault (exit code 2); false when output failed.
    pub fn is_bad_input(&self) -> bool {
        match self {
            GamesError::Read(e) => e.is_bad_input(),
            GamesError::Write(_) | GamesError::Json(_) => false,
            _ => true,
        }
    }
}
