//! The figures of one solved (game, rule): what `solve`, `optimal`, `stats` and `verify`
//! print, and what the Python package's `Tree.stats` holds.

use serde::Serialize;
use thiserror::Error;

use mmtree_core::{Alphabet, CodeSpace, Game, Stats, StrategyTree};
use mmtree_io::{Cell, RuleInfo, Table, TreeFile};
use mmtree_strategy::{GuessRule, Pool, Ties};

/// Every rule name a tree file may record (`GuessRule::name` and the optimal searches).
const RULE_NAMES: [&str; 13] = [
    "minimax",
    "expected-size",
    "entropy",
    "most-parts",
    "first-candidate",
    "human",
    "minimax-lookahead-2",
    "expected-size-lookahead-2",
    "entropy-lookahead-2",
    "most-parts-lookahead-2",
    "optimal-average",
    "optimal-worst",
    "anytime-average",
];

/// The `ties` of an optimal tree: the first optimal guess in search order is played.
pub const OPTIMAL_TIES: &str = "first";

/// A tree file records a rule name this mmtree never writes (bad input: the file is not one
/// of ours, or was edited).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown {what} '{name}' recorded in the file")]
pub struct UnknownRule {
    /// `valuation`, `pool` or `tie order`.
    pub what: &'static str,
    /// The recorded name, made printable.
    pub name: String,
}

/// The `[valuation, pool, ties]` names a tree file records, refused unless this mmtree wrote
/// them.
///
/// ```
/// use mmtree_io::RuleInfo;
/// use mmtree_sweep::recorded_rule;
/// let knuth = RuleInfo::new("minimax", "all", "smallest", true, None);
/// assert_eq!(recorded_rule(&knuth)?, ["minimax", "all", "smallest"]);
/// let edited = RuleInfo::new("cleverest", "all", "smallest", true, None);
/// assert_eq!(recorded_rule(&edited).unwrap_err().to_string(), "unknown valuation 'cleverest' recorded in the file");
/// # Ok::<(), mmtree_sweep::UnknownRule>(())
/// ```
pub fn recorded_rule(rule: &RuleInfo) -> Result<[&'static str; 3], UnknownRule> {
    let unknown = |what: &'static str, name: &str| UnknownRule { what, name: mmtree_core::printable(name) };
    let valuation = RULE_NAMES
        .into_iter()
        .find(|&name| name == rule.valuation)
        .ok_or_else(|| unknown("valuation", &rule.valuation))?;
    let pool = [Pool::All, Pool::Candidates]
        .into_iter()
        .map(Pool::name)
        .find(|&p| p == rule.pool)
        .ok_or_else(|| unknown("pool", &rule.pool))?;
    let ties = [Ties::Smallest.name(), Ties::Largest.name(), OPTIMAL_TIES]
        .into_iter()
        .find(|&t| t == rule.ties)
        .ok_or_else(|| unknown("tie order", &rule.ties))?;
    Ok([valuation, pool, ties])
}

/// One result row. Its JSON keys are a contract (`solve --format json`): keep them as is.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct SolveReport {
    /// Pegs.
    pub n: u8,
    /// Colours.
    pub k: u8,
    /// `repetition` or `distinct`.
    pub variant: &'static str,
    /// `black-white` or `black`.
    pub feedback: &'static str,
    /// The rule's name (a valuation, a simple strategy, a look-ahead or an optimal search).
    pub valuation: &'static str,
    /// `all` or `candidates`.
    pub pool: &'static str,
    /// `smallest`, `largest`, or `first` for an optimal tree.
    pub ties: &'static str,
    /// The first guess in the game's symbols.
    pub first_guess: String,
    /// Most guesses any secret needs.
    pub max: u32,
    /// Guesses summed over all secrets.
    pub total: u64,
    /// `total / secrets`.
    pub average: f64,
    /// `histogram[i]`: secrets found with `i + 1` guesses.
    pub histogram: Vec<u64>,
}

impl SolveReport {
    /// The row of a tree just built under `rule`.
    ///
    /// ```
    /// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit};
    /// use mmtree_strategy::{GuessRule, Solver, Valuation};
    /// use mmtree_sweep::SolveReport;
    /// let game = Game::new(GameSpec::mastermind(4, 6))?;
    /// let space = CodeSpace::new(game, MemoryLimit(1 << 30))?;
    /// let rule = GuessRule::new(Valuation::Minimax);
    /// let tree = Solver::new(&space, rule).build();
    /// let report = SolveReport::new(&game, &rule, &tree, &space, &Alphabet::default());
    /// // Knuth's strategy: first guess 1122, 5801 guesses in all, at most 5.
    /// assert_eq!((report.first_guess.as_str(), report.total, report.max), ("1122", 5801, 5));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn new(
        game: &Game,
        rule: &GuessRule,
        tree: &StrategyTree,
        space: &CodeSpace,
        alphabet: &Alphabet,
    ) -> SolveReport {
        let first = tree.first_guess().map(|g| alphabet.format(&space.code(g))).unwrap_or_default();
        SolveReport::from_figures(game, [rule.name(), rule.pool.name(), rule.ties.name()], first, &tree.stats())
    }

    /// The row of a tree file, from its header's recorded figures (nothing recomputed).
    pub fn from_file(file: &TreeFile, space: &CodeSpace, alphabet: &Alphabet) -> Result<SolveReport, UnknownRule> {
        let h = &file.header;
        let [valuation, pool, ties] = recorded_rule(&h.rule)?;
        let first = file
            .tree
            .first_guess()
            .and_then(|g| space.try_code(g.index()))
            .map(|c| alphabet.format(&c))
            .unwrap_or_default();
        Ok(SolveReport::from_figures(file.tree.game(), [valuation, pool, ties], first, &h.stats))
    }

    /// The row of an optimal tree: `valuation` is `optimal-average` or `optimal-worst`, `ties`
    /// is `first` (the first optimal guess in the search order is played).
    pub fn optimal(
        game: &Game,
        valuation: &'static str,
        pool: mmtree_strategy::Pool,
        tree: &StrategyTree,
        space: &CodeSpace,
        alphabet: &Alphabet,
    ) -> SolveReport {
        let first = tree.first_guess().map(|g| alphabet.format(&space.code(g))).unwrap_or_default();
        SolveReport::from_figures(game, [valuation, pool.name(), OPTIMAL_TIES], first, &tree.stats())
    }

    /// The row from its parts: `[valuation, pool, ties]` names and the figures.
    fn from_figures(
        game: &Game,
        [valuation, pool, ties]: [&'static str; 3],
        first_guess: String,
        stats: &Stats,
    ) -> SolveReport {
        SolveReport {
            n: game.n(),
            k: game.k(),
            variant: game.variant().name(),
            feedback: game.feedback_kind().name(),
            valuation,
            pool,
            ties,
            first_guess,
            max: stats.max,
            total: stats.total,
            average: stats.average(),
            histogram: stats.histogram.clone(),
        }
    }

    /// The JSON keys, in order: the table columns.
    pub const COLUMNS: [&'static str; 12] = [
        "n",
        "k",
        "variant",
        "feedback",
        "valuation",
        "pool",
        "ties",
        "first_guess",
        "max",
        "total",
        "average",
        "histogram",
    ];

    /// The row's cells, in [`SolveReport::COLUMNS`] order.
    pub fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Int(self.n.into()),
            Cell::Int(self.k.into()),
            self.variant.into(),
            self.feedback.into(),
            self.valuation.into(),
            self.pool.into(),
            self.ties.into(),
            self.first_guess.clone().into(),
            self.max.into(),
            self.total.into(),
            Cell::Float(self.average, 3),
            Cell::List(self.histogram.clone()),
        ]
    }

    /// A table of rows.
    pub fn table(reports: &[SolveReport], title: &str) -> Table {
        let mut t = Table::new(title, &SolveReport::COLUMNS);
        for r in reports {
            t.push(r.cells());
        }
        t
    }
}
