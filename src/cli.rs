//! Stage one of argument parsing: the raw flags as clap sees them.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// `mmtree --version`: the program's version and the `.mmt` tree-file format version it reads
/// and writes, so a user can tell which files a build understands.
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("{} (tree file format {})", env!("CARGO_PKG_VERSION"), mmtree_io::FORMAT_VERSION)
});

/// Complete strategy trees for Mastermind-like code-breaking games.
#[derive(Parser, Debug)]
#[command(
    name = "mmtree",
    version = VERSION.as_str(),
    about,
    propagate_version = true,
    after_help = "Definitions of every figure: docs/definitions.md\n\
                  Published works it reproduces: docs/references.md (in the source repository)"
)]
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
    /// Reproduce every [4,6] table of the thesis (docs/references.md).
    Thesis(ThesisArgs),
    /// Impartial games: Sprague-Grundy values, Nim, octal games, game graphs.
    Games {
        #[command(subcommand)]
        command: mmtree_games::GamesCommand,
    },
    /// Print the figures recorded in a tree file (same keys as `solve`), without recomputing.
    Stats(StatsArgs),
    /// Check, independently of the builder, that a tree file is a strategy tree of its game.
    Verify(VerifyArgs),
    /// Play one game: guess, feedback and candidates left per round.
    Trace(TraceArgs),
    /// Draw a tree file as Graphviz DOT (optionally rendered to SVG or PNG).
    Dot(DotArgs),
    /// Write a tree file as one self-contained interactive HTML page.
    Html(HtmlArgs),
    /// The graph of game states (candidate sets) under every guess, for small games.
    States(StatesArgs),
    /// Write a tree file as nested JSON (schema in the README).
    Export(ExportArgs),
    /// Solve a grid of games under several rules: one row per (n, k, valuation, pool).
    Sweep(SweepArgs),
    /// Every first guess up to symmetry under each valuation, and whether it is consistent.
    FirstGuesses(FirstGuessesArgs),
    /// Combine sweep slices (CSV or JSON lines) into one table.
    Merge(MergeArgs),
    /// Advise on a game in progress: candidates left and the best next guesses.
    Advise(AdviseArgs),
    /// Play a game in the terminal: the program keeps the secret, you guess.
    Play(PlayArgs),
    /// Exact optimal strategy (least average or least worst case) by exhaustive search.
    Optimal(OptimalArgs),
    /// Split one game's tree into independent jobs for Slurm or GNU parallel (see `solve --plan`, `join`).
    Plan(PlanArgs),
    /// Assemble the parts of a plan into the tree file a one-process `solve -o` writes.
    Join(JoinArgs),
    /// Print a shell completion script: `mmtree completions bash > /etc/bash_completion.d/mmtree`.
    Completions(CompletionsArgs),
    /// Print a man page (roff): `mmtree man > mmtree.1`, `mmtree man solve > mmtree-solve.1`.
    Man(ManArgs),
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: ShellArg,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShellArg {
    Bash,
    Zsh,
    Fish,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// A subcommand whose own page to print (e.g. solve); without it, the page of `mmtree`.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
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

/// The game flags of commands that can take the game from a plan instead (`solve`, `plan`).
#[derive(Args, Debug, Clone)]
pub struct PlannableGameArgs {
    /// Pegs (positions).
    #[arg(short = 'n', long = "pegs", value_name = "N", required_unless_present = "plan")]
    pub n: Option<u8>,
    /// Colours (symbols).
    #[arg(short = 'k', long = "colours", value_name = "K", required_unless_present = "plan")]
    pub k: Option<u8>,
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

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: PlannableGameArgs,
    #[command(flatten)]
    pub rule: RuleArgs,
    /// Build only one shard of this plan (`mmtree plan`); the game and rule come from it.
    #[arg(long, value_name = "PLAN.json", requires = "shard",
          conflicts_with_all = ["n", "k", "distinct", "black_only", "symbols", "RuleArgs", "self_check"])]
    pub plan: Option<std::path::PathBuf>,
    /// The shard of the plan to build, `I/N` (1 <= I <= N, N the plan's shard count).
    #[arg(long, value_name = "I/N", requires = "plan")]
    pub shard: Option<String>,
    /// With --plan: exit at once when the output already holds this shard (checked cheaply:
    /// checksum, plan digest, subtree list); without it, an existing output is also checked
    /// subtree by subtree before it is kept.
    #[arg(long, requires = "plan")]
    pub resume: bool,
    /// With --plan: only choose the guess at the root of each subtree of the shard and write
    /// them as JSON (for `mmtree plan --refine`), instead of building the subtrees.
    #[arg(long, requires = "plan")]
    pub guesses: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// Save the complete tree to this file (`.mmt`, written atomically).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Check the encoded tree with the independent verifier before reporting.
    #[arg(long)]
    pub self_check: bool,
}

#[derive(Args, Debug)]
pub struct ThesisArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// A tree file written by `solve -o`.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A tree file written by `solve -o`.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Output format of the figures.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// Refuse games whose estimated memory exceeds this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// A tree file; without it, give the game (-n, -k) and rule flags.
    #[arg(value_name = "FILE", conflicts_with_all = ["n", "k", "distinct", "black_only", "symbols", "RuleArgs"])]
    pub file: Option<std::path::PathBuf>,
    /// The secret to play against, e.g. 5463.
    #[arg(long, value_name = "CODE")]
    pub secret: String,
    /// Pegs (without FILE).
    #[arg(short = 'n', long = "pegs", value_name = "N")]
    pub n: Option<u8>,
    /// Colours (without FILE).
    #[arg(short = 'k', long = "colours", value_name = "K")]
    pub k: Option<u8>,
    /// No repeated symbols (without FILE).
    #[arg(long)]
    pub distinct: bool,
    /// Black-peg feedback only (without FILE).
    #[arg(long)]
    pub black_only: bool,
    /// Symbols used to write colours 1..k (without FILE).
    #[arg(long, value_name = "ALPHABET")]
    pub symbols: Option<String>,
    /// Refuse games whose estimated memory exceeds this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
    #[command(flatten)]
    pub rule: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum RenderArg {
    Svg,
    Png,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LabelsArg {
    /// The candidate set (or its size) and the guess played.
    Set,
    /// The rounds that led to the state, ((11,(0,0)),(22,(2,0))).
    Rounds,
    /// Compact: candidates and guess on one line, edges show only the feedback.
    Size,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum RankDirArg {
    #[value(name = "TB", alias = "tb")]
    Tb,
    #[value(name = "LR", alias = "lr")]
    Lr,
    #[value(name = "BT", alias = "bt")]
    Bt,
    #[value(name = "RL", alias = "rl")]
    Rl,
}

#[derive(Args, Debug)]
pub struct DotArgs {
    /// A tree file written by `solve -o`.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Draw states down to this depth (root = 0); deeper subtrees become summary nodes.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Write candidate sets of at most this many codes in full, else their size.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_set: usize,
    /// What a state says: its candidate set, its rounds (as in the thesis), or its size.
    #[arg(long, value_enum, default_value = "set")]
    pub labels: LabelsArg,
    /// Draw the winning guess of a one-candidate state as its own edge to a leaf.
    #[arg(long)]
    pub win_edges: bool,
    /// Layout direction (LR: left to right, for wide trees).
    #[arg(long, value_enum, value_name = "DIR")]
    pub rankdir: Option<RankDirArg>,
    /// Run Graphviz `dot` to render the drawing (needs -o).
    #[arg(long, value_enum)]
    pub render: Option<RenderArg>,
    /// Output file (default: DOT to standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Refuse games whose estimated memory exceeds this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
}

#[derive(Args, Debug)]
pub struct HtmlArgs {
    /// A tree file written by `solve -o`.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// The HTML file to write (default: FILE with the extension .html).
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    pub output: Option<std::path::PathBuf>,
    /// List the candidates of states with at most this many.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_set: usize,
    /// Refuse games whose estimated memory exceeds this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatesFormatArg {
    Dot,
    Json,
}

#[derive(Args, Debug)]
pub struct StatesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Keep the empty successors (of feedbacks the game can produce).
    #[arg(long)]
    pub include_empty: bool,
    /// One node per distinct candidate set: a multigraph with self-loops.
    #[arg(long)]
    pub merge_equal: bool,
    /// Expand states down to this depth only (the start is 0).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value = "dot")]
    pub format: StatesFormatArg,
    /// Layout direction of the DOT drawing.
    #[arg(long, value_enum, value_name = "DIR")]
    pub rankdir: Option<RankDirArg>,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormatArg {
    Json,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// A tree file written by `solve -o`.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,
    /// Interchange format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ExportFormatArg,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Refuse games whose estimated memory exceeds this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
}

/// A valuation on the command line, or `all` of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValuationsArg {
    All,
    Minimax,
    ExpectedSize,
    Entropy,
    MostParts,
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Pegs: a range or list, e.g. 2..=5, 2..5, 4, 2,3,5.
    #[arg(short = 'n', long = "pegs", value_name = "RANGE")]
    pub n: String,
    /// Colours: a range or list, e.g. 2..=8.
    #[arg(short = 'k', long = "colours", value_name = "RANGE")]
    pub k: String,
    /// Valuations, comma-separated, or all.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub valuation: Vec<ValuationsArg>,
    /// Guess pools, comma-separated (all = every code, candidates = hard mode).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub pool: Vec<PoolArg>,
    /// Which of equally good guesses to play.
    #[arg(long, value_enum, default_value = "smallest")]
    pub ties: TiesArg,
    /// No repeated symbols.
    #[arg(long)]
    pub distinct: bool,
    /// Black-peg feedback only.
    #[arg(long)]
    pub black_only: bool,
    /// Games whose estimated memory exceeds this become skipped rows (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
    /// Output format (json = one JSON object per line).
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// Write the table to FILE; rows are appended as they finish, sorted at the end.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Skip the rows already in FILE (CSV or JSON lines of an earlier sweep) and keep them.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<std::path::PathBuf>,
    /// Compute only the i-th of N disjoint slices of the grid (1 <= i <= N).
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,
    /// Draw the results as SVG (what is drawn: --plot-kind).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
    /// excess: each rule's average minus the best of its game; average: averages against k;
    /// winners: a grid over (n, k) coloured by the rule with the least total.
    #[arg(long, value_enum, default_value = "excess")]
    pub plot_kind: PlotKindArg,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlotKindArg {
    Excess,
    Average,
    Winners,
}

#[derive(Args, Debug)]
pub struct FirstGuessesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Valuations, comma-separated, or all.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub valuation: Vec<ValuationsArg>,
    /// Guess pools after the first guess, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub pool: Vec<PoolArg>,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// Write the tables to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Draw the guess-count histograms of the first guesses side by side as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Sweep outputs to combine (CSV or JSON lines).
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: FormatArg,
    /// Write the merged table to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
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
    /// How many guesses to list per valuation (at least 1).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = at_least_one)]
    pub top: usize,
    /// Guess from all codes or only from the candidates.
    #[arg(long, value_enum, default_value = "all")]
    pub pool: PoolArg,
    /// List the candidates when at most this many are left.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub show: usize,
    /// List the codes of each part of each guess's partition.
    #[arg(long)]
    pub codes: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

/// A count that must be positive, e.g. `--top`.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
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

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ObjectiveArg {
    Average,
    Worst,
}

#[derive(Args, Debug)]
pub struct OptimalArgs {
    #[command(flatten)]
    pub game: PlannableGameArgs,
    /// Search only one shard of this plan (`mmtree plan --optimal`); the game and objective
    /// come from it.
    #[arg(long, value_name = "PLAN.json", requires = "shard",
          conflicts_with_all = ["n", "k", "distinct", "black_only", "symbols", "objective", "max_depth", "pool",
                                "stop_after_nodes"])]
    pub plan: Option<std::path::PathBuf>,
    /// The shard of the plan to search, `I/N` (1 <= I <= N, N the plan's shard count).
    #[arg(long, value_name = "I/N", requires = "plan")]
    pub shard: Option<String>,
    /// With --plan: exit at once when the output already holds this shard with every part
    /// exact (checked cheaply: checksum, plan digest, part list).
    #[arg(long, requires = "plan")]
    pub resume: bool,
    /// Minimise the total (average) guesses, or the maximum and then the total.
    #[arg(long, value_enum, default_value = "average")]
    pub objective: ObjectiveArg,
    /// No secret may need more than D guesses (1 to 254).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=254))]
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
    /// Stop after S seconds and report proven bounds and the best tree found.
    #[arg(long, value_name = "S", value_parser = positive_seconds)]
    pub time_limit: Option<f64>,
    /// Stop after N search nodes (on one thread, so the result is repeatable) and report
    /// proven bounds and the best tree found.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// Most memory the transposition table may take (e.g. 4G; default half the memory
    /// limit); over it, the smallest solved sets are forgotten first.
    #[arg(long, value_name = "SIZE")]
    pub table_memory: Option<String>,
    /// Stop after this many search nodes, as if interrupted (for testing checkpoints).
    #[arg(long, value_name = "N", hide = true, conflicts_with_all = ["time_limit", "node_limit"])]
    pub stop_after_nodes: Option<u64>,
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    #[command(flatten)]
    pub game: PlannableGameArgs,
    #[command(flatten)]
    pub rule: RuleArgs,
    /// Depth of the subtrees the jobs build (1: one per answer to the first guess).
    #[arg(long, value_name = "D", required_unless_present = "plan")]
    pub split_depth: Option<u32>,
    /// Number of jobs (shards) to balance the subtrees over (default: the refined plan's).
    #[arg(long, value_name = "N", required_unless_present = "plan")]
    pub shards: Option<u32>,
    /// Plan the exact optimum instead of a rule's tree: one job per (first guess class, part
    /// left by it), run by `mmtree optimal --plan` (the rule flags other than --first do not
    /// apply).
    #[arg(long, conflicts_with_all = ["plan", "valuation", "pool", "ties", "no_prefer_candidates", "lookahead"])]
    pub optimal: bool,
    /// With --optimal: minimise the total (average) guesses, or the maximum and then the total.
    #[arg(long, value_enum, default_value = "average", requires = "optimal")]
    pub objective: ObjectiveArg,
    /// Refine this plan one level deeper with the guesses its jobs chose (`solve --guesses`).
    /// (Its id is `plan`, like `solve --plan`: both take the game from a plan.)
    #[arg(id = "plan", long = "refine", value_name = "PLAN.json",
          conflicts_with_all = ["n", "k", "distinct", "black_only", "symbols", "RuleArgs", "split_depth"])]
    pub refine: Option<std::path::PathBuf>,
    /// With --refine: the guess lists of every shard of that plan.
    #[arg(value_name = "GUESSES.json", requires = "plan")]
    pub guesses: Vec<std::path::PathBuf>,
    /// Write the plan (JSON) to this file.
    #[arg(short = 'o', long = "output", value_name = "PLAN.json", required = true)]
    pub output: std::path::PathBuf,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct JoinArgs {
    /// The plan the parts were built from.
    #[arg(value_name = "PLAN.json")]
    pub plan: std::path::PathBuf,
    /// One part file per shard (`solve --plan ... -o`).
    #[arg(value_name = "PART.mmt", required = true)]
    pub parts: Vec<std::path::PathBuf>,
    /// Write the whole tree to this file (`.mmt`, written atomically).
    #[arg(short = 'o', long = "output", value_name = "FILE", required = true)]
    pub output: std::path::PathBuf,
    /// Check the joined tree with the independent verifier before writing it.
    #[arg(long)]
    pub self_check: bool,
    /// Refuse to join when the tree would need more memory than this (e.g. 8G; default 3/4 of RAM).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
    /// Output format of the figures.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
}

/// A positive, finite number of seconds (`--time-limit`).
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(s),
        Ok(_) => Err("must be a positive number of seconds".to_string()),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}
