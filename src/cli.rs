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
    /// Exact optimal strategy (least average or least worst case) by exhaustive search.
    Optimal(OptimalArgs),
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

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ObjectiveArg {
    Average,
    Worst,
}

#[derive(Args, Debug)]
pub struct OptimalArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Minimise the total (average) guesses, or the maximum and then the total.
    #[arg(long, value_enum, default_value = "average")]
    pub objective: ObjectiveArg,
    /// No secret may need more than D guesses.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u8>,
    /// Guess from all codes or only from the candidates.
    #[arg(long, value_enum, default_value = "all")]
    pub pool: PoolArg,
    /// Write the optimal tree to FILE.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Save finished subtrees to FILE on Ctrl-C and at the end; resume from it if it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Print search statistics (nodes, cut-offs, table hits, time) to stderr.
    #[arg(long, short)]
    pub verbose: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// Stop after this many search nodes, as if interrupted (for testing checkpoints).
    #[arg(long, value_name = "N", hide = true)]
    pub stop_after_nodes: Option<u64>,
}
