//! A row of a sweep (a solved rule's figures, or why the game was skipped), its columns, and
//! the one check every row read from a file goes through.

use serde_json::Value;

use mmtree_core::{Alphabet, FeedbackScheme, Game, GameSpec, Variant};
use mmtree_io::Cell;
use mmtree_strategy::Valuation;

use crate::error::RowError;
use crate::key::{feedback_named, pool_named, ties_named, variant_named, RowKey};
use crate::report::SolveReport;

/// The columns of a sweep table: `solve --format json`'s keys, then `skipped` (the reason a
/// game was not solved, empty for solved rows).
pub const COLUMNS: [&str; 13] = {
    let report = SolveReport::COLUMNS;
    let mut columns = [""; 13];
    let mut i = 0;
    while i < report.len() {
        columns[i] = report[i];
        i += 1;
    }
    columns[12] = "skipped";
    columns
};

/// One row: a key and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The game and rule.
    pub key: RowKey,
    /// Solved, or skipped with a reason.
    pub outcome: Outcome,
}

/// What became of a row's game.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The tree was built: its figures.
    Solved(Figures),
    /// The game was not solved (it does not fit the memory limit, or cannot exist): why.
    Skipped(String),
}

/// The figures of a solved row, as `solve` reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    /// The first guess, written with the default symbols `1-9A-Z`.
    pub first_guess: String,
    /// Most guesses any secret needs.
    pub max: u32,
    /// Guesses summed over all secrets.
    pub total: u64,
    /// `histogram[i]`: secrets found with `i + 1` guesses.
    pub histogram: Vec<u64>,
}

impl Figures {
    /// Secrets counted by the histogram.
    pub fn secrets(&self) -> u128 {
        self.histogram.iter().map(|&h| u128::from(h)).sum()
    }

    /// Average guesses per secret, `total / secrets` (0 for an empty histogram).
    ///
    /// ```
    /// use mmtree_sweep::Figures;
    /// let knuth = Figures { first_guess: "1122".into(), max: 5, total: 5801, histogram: vec![1, 6, 62, 533, 694] };
    /// assert_eq!(format!("{:.3}", knuth.average()), "4.476");
    /// ```
    pub fn average(&self) -> f64 {
        let secrets = self.secrets();
        if secrets == 0 {
            0.0
        } else {
            self.total as f64 / secrets as f64
        }
    }

    /// Checks the figures against the game: the first guess is a code of it, the histogram
    /// counts each of its secrets once, finds exactly one (the first guess) with one guess
    /// and never more at a depth than a tree can have nodes there (one per feedback of each
    /// node above), and agrees with `max` and `total`. Sums are checked for overflow.
    fn check(&self, game: &Game) -> Result<(), RowError> {
        Alphabet::default().parse(game, &self.first_guess).map_err(RowError::FirstGuess)?;
        let counted =
            self.histogram.iter().try_fold(0u64, |s, &h| s.checked_add(h)).ok_or(RowError::Overflow("sum"))?;
        if u128::from(counted) != game.code_count() {
            return Err(RowError::Secrets { counted, game: game.to_string(), codes: game.code_count() });
        }
        let weighted = self
            .histogram
            .iter()
            .zip(1u64..)
            .try_fold(0u64, |s, (&h, guesses)| h.checked_mul(guesses).and_then(|w| s.checked_add(w)))
            .ok_or(RowError::Overflow("weighted sum"))?;
        if weighted != self.total {
            return Err(RowError::Total { total: self.total, weighted });
        }
        if self.histogram.last() == Some(&0) || self.max as usize != self.histogram.len() {
            return Err(RowError::Max { max: self.max, depth: self.histogram.len() });
        }
        // Nodes at depth d + 1: at most (feedbacks - 1) children of each node at depth d, and
        // at most the secrets not yet found; each node finds at most one secret.
        let branching = FeedbackScheme::new(game).len() as u64 - 1;
        if self.histogram.first() != Some(&1) {
            return Err(RowError::FirstRound(self.histogram.first().copied().unwrap_or(0)));
        }
        let (mut nodes, mut left) = (1u64, counted);
        for (depth, &count) in self.histogram.iter().enumerate() {
            if count > nodes {
                return Err(RowError::Depth { guesses: depth + 1, count, game: game.to_string(), most: nodes });
            }
            left -= count;
            nodes = nodes.saturating_mul(branching).min(left);
        }
        Ok(())
    }
}

impl Row {
    /// A skipped row.
    pub fn skipped(key: RowKey, reason: impl Into<String>) -> Row {
        Row { key, outcome: Outcome::Skipped(reason.into()) }
    }

    /// The figures of a solved row.
    pub fn figures(&self) -> Option<&Figures> {
        match &self.outcome {
            Outcome::Solved(f) => Some(f),
            Outcome::Skipped(_) => None,
        }
    }

    /// Whether the row was skipped.
    pub fn is_skipped(&self) -> bool {
        matches!(self.outcome, Outcome::Skipped(_))
    }

    /// Checks that the row can be a row of a sweep: `n` and `k` in range and, for a solved
    /// row, a game that exists and figures that fit it (see [`Figures`]). `merge` and
    /// `--resume` refuse rows that fail this.
    ///
    /// ```
    /// use mmtree_core::{FeedbackKind, Variant};
    /// use mmtree_strategy::{Pool, Ties, Valuation};
    /// use mmtree_sweep::{Figures, Outcome, Row, RowKey};
    /// let key = RowKey {
    ///     n: 2, k: 2, variant: Variant::Repetition, feedback: FeedbackKind::BlackWhite,
    ///     valuation: Valuation::Minimax, pool: Pool::All, ties: Ties::Smallest,
    /// };
    /// let row = |first: &str, histogram: Vec<u64>| {
    ///     let total = histogram.iter().zip(1..).map(|(h, g)| h * g).sum();
    ///     let max = histogram.len() as u32;
    ///     Row { key, outcome: Outcome::Solved(Figures { first_guess: first.into(), max, total, histogram }) }
    /// };
    /// assert!(row("11", vec![1, 2, 1]).check().is_ok());
    /// assert!(row("13", vec![1, 2, 1]).check().is_err()); // colour 3 of 2
    /// assert!(row("11", vec![0, 2, 2]).check().is_err()); // the first guess finds itself
    /// assert!(row("11", vec![1, 2]).check().is_err()); // 3 secrets, the game has 4
    /// assert!(Row::skipped(RowKey { n: 0, ..key }, "no pegs").check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), RowError> {
        // n and k in range whatever the variant: a skipped row may be a game with n > k.
        Game::new(GameSpec { variant: Variant::Repetition, ..self.key.spec() }).map_err(RowError::Game)?;
        match &self.outcome {
            Outcome::Skipped(_) => Ok(()),
            Outcome::Solved(figures) => figures.check(&Game::new(self.key.spec()).map_err(RowError::Game)?),
        }
    }

    /// The row's cells, in [`COLUMNS`] order (empty figures for a skipped row).
    pub fn cells(&self) -> Vec<Cell> {
        let key = &self.key;
        let mut cells = vec![
            Cell::Int(key.n.into()),
            Cell::Int(key.k.into()),
            key.variant.name().into(),
            key.feedback.name().into(),
            key.valuation.name().into(),
            key.pool.name().into(),
            key.ties.name().into(),
        ];
        match &self.outcome {
            Outcome::Solved(f) => cells.extend([
                f.first_guess.clone().into(),
                f.max.into(),
                f.total.into(),
                Cell::Float(f.average(), 3),
                Cell::List(f.histogram.clone()),
                "".into(),
            ]),
            Outcome::Skipped(reason) => {
                cells.extend(std::iter::repeat_n(Cell::Text(String::new()), 5));
                cells.push(reason.as_str().into());
            }
        }
        cells
    }

    /// The row as JSON: a solved row is exactly `solve --format json`'s object; a skipped
    /// row has the same keys with null figures, plus `skipped`.
    pub fn to_json(&self) -> Value {
        let key = &self.key;
        let mut value = serde_json::json!({
            "n": key.n, "k": key.k, "variant": key.variant.name(), "feedback": key.feedback.name(),
            "valuation": key.valuation.name(), "pool": key.pool.name(), "ties": key.ties.name(),
        });
        let figures = match &self.outcome {
            Outcome::Solved(f) => serde_json::json!({
                "first_guess": f.first_guess, "max": f.max, "total": f.total, "average": f.average(),
                "histogram": f.histogram,
            }),
            Outcome::Skipped(reason) => serde_json::json!({
                "first_guess": null, "max": null, "total": null, "average": null, "histogram": null,
                "skipped": reason,
            }),
        };
        if let (Value::Object(all), Value::Object(more)) = (&mut value, figures) {
            all.extend(more);
        }
        value
    }

    /// Reads a row from named text fields (`None`: no such column), then [`Row::check`]s it.
    /// The average is checked here, as it is not kept: it is always `total / secrets`.
    pub(crate) fn from_fields(get: &dyn Fn(&'static str) -> Option<String>) -> Result<Row, RowError> {
        let field = |name: &'static str| get(name).map(|t| t.trim().to_string()).ok_or(RowError::MissingColumn(name));
        let number = |name: &'static str| -> Result<u64, RowError> {
            let text = field(name)?;
            parse_number(&text).ok_or_else(|| bad_number(name, text))
        };
        let small = |name: &'static str| -> Result<u8, RowError> {
            let value = number(name)?;
            u8::try_from(value).map_err(|_| RowError::OutOfRange { column: name, text: value.to_string() })
        };
        let key = RowKey {
            n: small("n")?,
            k: small("k")?,
            variant: named(field("variant")?, "variant", variant_named)?,
            feedback: named(field("feedback")?, "feedback", feedback_named)?,
            valuation: named(field("valuation")?, "valuation", Valuation::from_name)?,
            pool: named(field("pool")?, "pool", pool_named)?,
            ties: named(field("ties")?, "ties", ties_named)?,
        };
        let reason = get("skipped").map(|t| t.trim().to_string()).unwrap_or_default();
        let row = if reason.is_empty() {
            let histogram = field("histogram")?
                .split_whitespace()
                .map(|t| parse_number(t).ok_or_else(|| bad_number("histogram entry", t.to_string())))
                .collect::<Result<Vec<u64>, _>>()?;
            let max = number("max")?;
            let max = u32::try_from(max).map_err(|_| RowError::OutOfRange { column: "max", text: max.to_string() })?;
            let figures = Figures { first_guess: field("first_guess")?, max, total: number("total")?, histogram };
            let row = Row { key, outcome: Outcome::Solved(figures) };
            row.check()?;
            let given = field("average")?;
            let computed = row.figures().map_or(0.0, Figures::average);
            // Written with three decimals; NaN never passes.
            if !given.parse::<f64>().is_ok_and(|g| (g - computed).abs() <= 0.0005 + 1e-9) {
                return Err(RowError::Average { given, computed });
            }
            row
        } else {
            for column in ["first_guess", "max", "total", "average", "histogram"] {
                if get(column).is_some_and(|t| !t.trim().is_empty()) {
                    return Err(RowError::SkippedWithFigures(column));
                }
            }
            let row = Row::skipped(key, reason);
            row.check()?;
            row
        };
        Ok(row)
    }
}

/// The value a column's text names.
fn named<T>(text: String, column: &'static str, find: fn(&str) -> Option<T>) -> Result<T, RowError> {
    find(&text).ok_or(RowError::UnknownName { column, text })
}

/// A decimal number; `None` when it is not one (too large ones are numbers, out of range).
fn parse_number(text: &str) -> Option<u64> {
    text.parse().ok()
}

/// "is not a number", or "is out of range" for digits that do not fit.
fn bad_number(column: &'static str, text: String) -> RowError {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        RowError::OutOfRange { column, text }
    } else {
        RowError::NotANumber { column, text }
    }
}
