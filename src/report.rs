//! The figures of one solved (game, rule): what `solve` prints and sweeps collect.

use serde::Serialize;

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

/// The `[valuation, pool, ties]` names a tree file records, refused unless this mmtree wrote
/// them.
pub fn recorded_rule(rule: &RuleInfo) -> Result<[&'static str; 3], crate::UsageError> {
    let unknown = |what: &str, name: &str| {
        crate::UsageError(format!("unknown {what} '{}' recorded in the file", mmtree_core::printable(name)))
    };
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
    pub n: u8,
    pub k: u8,
    pub variant: &'static str,
    pub feedback: &'static str,
    pub valuation: &'static str,
    pub pool: &'static str,
    pub ties: &'static str,
    pub first_guess: String,
    pub max: u32,
    pub total: u64,
    pub average: f64,
    pub histogram: Vec<u64>,
}

impl SolveReport {
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
    pub fn from_file(file: &TreeFile, space: &CodeSpace, alphabet: &Alphabet) -> anyhow::Result<SolveReport> {
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

    pub fn table(reports: &[SolveReport], title: &str) -> Table {
        let mut t = Table::new(title, &SolveReport::COLUMNS);
        for r in reports {
            t.push(r.cells());
        }
        t
    }
}
