//! Stage one of argument parsing: the raw flags as clap sees them.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Complete strategy trees for Mastermind-like code-breaking games.
#[derive(Parser, Debug)]
#[command(name = "mmtree", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// No progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build the strategy tree of one game under one rule and print its figures.
    Solve(SolveArgs),
    /// Reproduce every [4,6] table of the thesis (spec.md §5).
    Thesis(ThesisArgs),
    /// Advise on a game in progress: candidates left and the best next guesses.
    Advise(AdviseArgs),
    /// Play a game in the terminal: the program keeps the secret, you guess.
    Play(PlayArgs),
}

#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Pegs (positions).
    #[arg(short = 'n', long = "pegs", value_name = "N")]
    pub n: u8,
    /// Colours (symbols).
    #[arg(short = 'k', long = "colours", value_name = "K")]
    pub k: u8,
    /// No repeated symbols (Bulls and Cows is -n 4 -k 10 --distinct).
    #[arg(long)]
    pub distinct: bool,
    /// Black-peg feedback only.
    #[arg(long)]
    pub black_only: bool,
    /// Symbols used to write colours 1..k (default 123456789ABC...).
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<String>,
    /// Refuse games whose estimated memory exceeds this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValuationArg {
    Minimax,
    ExpectedSize,
    Entropy,
    MostParts,
    /// Always the smallest candidate (Shapiro).
    FirstCandidate,
    /// The least frequent symbols of the candidates (Bulls-and-Cows paper).
    Human,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum AdviseValuationArg {
    Minimax,
    ExpectedSize,
    Entropy,
    MostParts,
    FirstCandidate,
    Human,
    /// The four valuations and the two simple strategies.
    All,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum PoolArg {
    All,
    Candidates,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TiesArg {
    Smallest,
    Largest,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    #[value(alias = "markdown")]
    Md,
    Csv,
    Json,
    #[value(alias = "tex")]
    Latex,
}

#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// How guesses are valued.
    #[arg(long, value_enum, default_value = "minimax")]
    pub valuation: ValuationArg,
    /// Guess from all codes or only from the candidates.
    #[arg(long, value_enum, default_value = "all")]
    pub pool: PoolArg,
    /// A fixed first guess, e.g. 1122; later guesses follow the rule.
    #[arg(long, value_name = "CODE")]
    pub first: Option<String>,
    /// Which of equally good guesses to play.
    #[arg(long, value_enum, default_value = "smallest")]
    pub ties: TiesArg,
    /// Do not prefer candidates among equally good guesses.
    #[arg(long)]
    pub no_prefer_candidates: bool,
    /// Look-ahead depth of the valuation: 1 (one step, the thesis) or 2.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub lookahead: u8,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub rule: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct ThesisArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct AdviseArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Rounds played so far, e.g. "1122:1,0 1344:0,2" (black-only games: "1122:1").
    #[arg(long, value_name = "ROUNDS", default_value = "")]
    pub history: String,
    /// Which valuation or strategy to consult.
    #[arg(long, value_enum, default_value = "all")]
    pub valuation: AdviseValuationArg,
    /// How many guesses to list per valuation.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub top: usize,
    /// Guess from all codes or only from the candidates.
    #[arg(long, value_enum, default_value = "all")]
    pub pool: PoolArg,
    /// List the candidates when at most this many are left.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub show: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The secret (default: drawn at random).
    #[arg(long, value_name = "CODE")]
    pub secret: Option<String>,
    /// Seed of the random secret, for repeatable games.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}
