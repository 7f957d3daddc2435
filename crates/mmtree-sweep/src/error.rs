//! Typed errors: what is wrong with one row ([`RowError`]), and with a grid, a file or a set
//! of rows ([`SweepError`]).

use std::path::PathBuf;

use thiserror::Error;

use mmtree_core::GameError;

/// Why a row was refused: a field that does not parse, or figures that cannot be the
/// figures of the row's game.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum RowError {
    /// A column the row needs is not in the file.
    #[error("missing column '{0}'")]
    MissingColumn(&'static str),
    /// A field that should be a number.
    #[error("{column} '{text}' is not a number")]
    NotANumber {
        /// The column.
        column: &'static str,
        /// As written.
        text: String,
    },
    /// A number too large for its column.
    #[error("{column} {text} is out of range")]
    OutOfRange {
        /// The column.
        column: &'static str,
        /// As written.
        text: String,
    },
    /// A name that is not one of the column's names.
    #[error("unknown {column} '{text}'")]
    UnknownName {
        /// The column.
        column: &'static str,
        /// As written.
        text: String,
    },
    /// The row's game cannot exist (`n` or `k` out of range; a solved row of a game without
    /// repetition with `n > k`).
    #[error(transparent)]
    Game(GameError),
    /// The first guess is not a code of the game.
    #[error("first guess: {0}")]
    FirstGuess(GameError),
    /// A skipped row with figures.
    #[error("a skipped row has figures ({0} is not empty)")]
    SkippedWithFigures(&'static str),
    /// Summing or weighting the histogram does not fit 64 bits.
    #[error("the histogram's {0} overflows")]
    Overflow(&'static str),
    /// The histogram does not count every secret of the game once.
    #[error("histogram counts {counted} secrets, the game {game} has {codes}")]
    Secrets {
        /// Sum of the histogram.
        counted: u64,
        /// The game, e.g. `[4,6]`.
        game: String,
        /// Its number of codes.
        codes: u128,
    },
    /// The histogram does not find exactly one secret, the first guess, with one guess.
    #[error("histogram: {0} secrets found with one guess; a tree finds exactly one (its first guess)")]
    FirstRound(u64),
    /// More secrets found in some number of guesses than a tree of the game can find.
    #[error("histogram: {count} secrets found in {guesses} guesses, a tree of {game} finds at most {most}")]
    Depth {
        /// Number of guesses.
        guesses: usize,
        /// Secrets the histogram finds in that many guesses.
        count: u64,
        /// The game.
        game: String,
        /// The most a tree can find: one per node at that depth.
        most: u64,
    },
    /// `total` is not the histogram's weighted sum.
    #[error("total {total} differs from the histogram's {weighted}")]
    Total {
        /// As written.
        total: u64,
        /// `sum (i + 1) * h[i]`.
        weighted: u64,
    },
    /// `max` is not the histogram's length (or the histogram ends in 0).
    #[error("max {max} differs from the histogram's {depth}")]
    Max {
        /// As written.
        max: u32,
        /// The histogram's length.
        depth: usize,
    },
    /// `average` is not `total / secrets` to three decimals.
    #[error("average {given} differs from total / secrets = {computed:.3}")]
    Average {
        /// As written.
        given: String,
        /// `total / secrets`.
        computed: f64,
    },
}

/// Why a grid, a file or a set of rows was refused, or a file could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SweepError {
    /// A grid that has no rows or names an impossible number of pegs or colours.
    #[error("invalid grid: {0}")]
    Grid(String),
    /// A shard `i/N` without `1 <= i <= N`.
    #[error("invalid shard {index}/{count}: expected i/N with 1 <= i <= N")]
    Shard {
        /// `i`.
        index: usize,
        /// `N`.
        count: usize,
    },
    /// The file does not exist.
    #[error("{}: no such file", .0.display())]
    NoSuchFile(PathBuf),
    /// A directory where a file was expected.
    #[error("{} is a directory, not a file", .0.display())]
    Directory(PathBuf),
    /// More bytes than any sweep file has (every key of every game and rule is a few MiB).
    #[error("{}: larger than any sweep file ({} MiB)", .0.display(), crate::read::MAX_FILE_BYTES >> 20)]
    TooLarge(PathBuf),
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text", .0.display())]
    NotUtf8(PathBuf),
    /// Reading failed (a failure of the machine, not of the file's contents).
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line that is not a row of the file's format.
    #[error("{origin}:{line}: {detail}")]
    Format {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// A row whose fields or figures are wrong.
    #[error("{origin}:{line}: {source}")]
    Row {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        source: Box<RowError>,
    },
    /// The last line is cut off (the writer was killed, or the disk was full).
    #[error(
        "{origin}:{line}: the last line is cut off ({detail}); resume the sweep that wrote it to recompute that row"
    )]
    CutOff {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// How it fails to parse.
        detail: String,
    },
    /// The same row key twice where rows must be disjoint (slices to merge).
    #[error("overlapping rows: {key} is in {first} and in {second}; slices to merge must be disjoint")]
    Overlap {
        /// The row key, described.
        key: String,
        /// `file:line` of the first.
        first: String,
        /// `file:line` of the second.
        second: String,
    },
    /// The same row key twice with different figures.
    #[error("conflicting rows: {key} differs between {first} and {second}")]
    Conflict {
        /// The row key, described.
        key: String,
        /// `file:line` of the first.
        first: String,
        /// `file:line` of the second.
        second: String,
    },
}

impl SweepError {
    /// True when the input is at fault (a bad grid, a missing, malformed or inconsistent
    /// file); false when reading failed for another reason.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, SweepError::Read { .. })
    }
}
