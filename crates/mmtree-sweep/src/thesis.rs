//! The thesis's [4,6] tables (sources: docs/references.md), recomputed: what `mmtree thesis`
//! prints and the Python package's `thesis()` returns.
//!
//! The published figures (data/*.csv) are shown beside the computed ones in a `thesis`
//! column so a reader sees the agreement; they are never used to compute anything.

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use mmtree_core::{
    first_guess_classes, Alphabet, CodeIndex, CodeSpace, Game, GameError, GameSpec, MemoryLimit, Stats, MAX_FEEDBACKS,
};
use mmtree_io::{Cell, Table};
use mmtree_strategy::{GuessRule, Pool, Solver, Ties, Valuation};

const PUBLISHED_RESULTS: &str = include_str!("../../../data/thesis_4_6.csv");
const PUBLISHED_VALUATIONS: &str = include_str!("../../../data/thesis_first_guess_valuations.csv");

/// A row of `data/thesis_4_6.csv`: the thesis's figures for one rule and first guess.
#[derive(Deserialize)]
struct PublishedResult {
    valuation: String,
    pool: String,
    first_guess: String,
    max: String,
    avg: String,
}

/// A row of `data/thesis_first_guess_valuations.csv`: one first guess valued on H(4,6).
#[derive(Deserialize)]
struct PublishedValuation {
    guess: String,
    largest_part: String,
    entropy: String,
    parts: String,
}

/// The records of a published CSV (`#` lines are comments). The files are compiled in and
/// checked by the tests, so a record that does not read is a bug.
fn published<T: DeserializeOwned>(csv: &str) -> Vec<T> {
    csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(csv.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("BUG: a published data file does not read")
}

/// "max / avg" as the thesis prints it for (valuation, pool, first guess), or "-".
fn published_result(valuation: Valuation, pool: Pool, first: &str) -> String {
    published::<PublishedResult>(PUBLISHED_RESULTS)
        .into_iter()
        .find(|r| r.valuation == valuation.name() && r.pool == pool.name() && r.first_guess == first)
        .map_or_else(|| "-".to_string(), |r| format!("{} / {}", r.max, r.avg))
}

struct Run {
    valuation: Valuation,
    first: String,
    stats: Stats,
}

fn run_rule(space: &CodeSpace, abc: &Alphabet, rule: GuessRule) -> Run {
    let tree = Solver::new(space, rule).build();
    let first = abc.format(&space.code(tree.first_guess().expect("a game has a first guess")));
    Run { valuation: rule.valuation, first, stats: tree.stats() }
}

fn result_cells(run: &Run, pool: Pool) -> Vec<Cell> {
    vec![
        run.valuation.name().into(),
        run.first.clone().into(),
        run.stats.max.into(),
        Cell::Float(run.stats.average(), 3),
        run.stats.total.into(),
        published_result(run.valuation, pool, &run.first).into(),
    ]
}

/// The five tables: the first guesses valued, results by first guess, candidates-only
/// guesses, the largest first guess, and each valuation with its own first guess.
///
/// ```
/// let tables = mmtree_sweep::thesis::tables()?;
/// assert_eq!(tables[4].rows[0][4], mmtree_io::Cell::Int(5801)); // Knuth's total
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn tables() -> Result<Vec<Table>, GameError> {
    let game = Game::new(GameSpec::mastermind(4, 6))?;
    let mut space = CodeSpace::new(game, MemoryLimit(1 << 30))?;
    space.build_table(1 << 30);
    let abc = Alphabet::default();
    let classes: Vec<CodeIndex> =
        first_guess_classes(&game).iter().map(|c| space.index(c).expect("representative is a code")).collect();
    let all = space.all_indices();

    // Table 1: valuation of the first guesses.
    let mut t1 = Table::new(
        "Valuation of the first guesses on H(4,6)",
        &["guess", "largest_part", "expected_size", "entropy", "parts", "thesis"],
    );
    let pub_vals: Vec<PublishedValuation> = published(PUBLISHED_VALUATIONS);
    for &g in &classes {
        let mut counts = [0u32; MAX_FEEDBACKS];
        space.count_parts(g, &all, &mut counts);
        let total = all.len() as u32;
        let name = abc.format(&space.code(g));
        let thesis = pub_vals
            .iter()
            .find(|r| r.guess == name)
            .map_or_else(|| "-".to_string(), |r| format!("{} / {} / {}", r.largest_part, r.entropy, r.parts));
        t1.push(vec![
            name.into(),
            Cell::Int(Valuation::Minimax.value(&counts, total) as i128),
            Cell::Float(Valuation::ExpectedSize.value(&counts, total), 2),
            Cell::Float(Valuation::Entropy.value(&counts, total), 2),
            Cell::Int(Valuation::MostParts.value(&counts, total) as i128),
            thesis.into(),
        ]);
    }

    // Every tree the remaining tables need, built in parallel.
    let own_first: Vec<CodeIndex> =
        Valuation::ALL.iter().map(|&v| Solver::new(&space, GuessRule::new(v)).choose(&all)).collect();
    let largest_first: Vec<CodeIndex> = Valuation::ALL
        .iter()
        .map(|&v| Solver::new(&space, GuessRule { ties: Ties::Largest, ..GuessRule::new(v) }).choose(&all))
        .collect();
    let mut rules: Vec<GuessRule> = Vec::new();
    for &v in &Valuation::ALL {
        for &g in &classes {
            rules.push(GuessRule { first_guess: Some(g), ..GuessRule::new(v) });
        }
    }
    for (i, &v) in Valuation::ALL.iter().enumerate() {
        rules.push(GuessRule { pool: Pool::Candidates, ..GuessRule::new(v) });
        rules.push(GuessRule { first_guess: Some(largest_first[i]), ..GuessRule::new(v) });
    }
    let runs: Vec<Run> = rules.par_iter().map(|&r| run_rule(&space, &abc, r)).collect();
    let (by_first, rest) = runs.split_at(Valuation::ALL.len() * classes.len());

    let mut t2 = Table::new(
        "Results by first guess, guesses from all codes",
        &["valuation", "first_guess", "max", "average", "total", "thesis", "picked_by_itself"],
    );
    for (i, run) in by_first.iter().enumerate() {
        let own = classes[i % classes.len()] == own_first[i / classes.len()];
        let mut cells = result_cells(run, Pool::All);
        cells.push(own.into());
        t2.push(cells);
    }
    let mut t3 = Table::new(
        "Guesses from the candidates only (each valuation's own first guess)",
        &["valuation", "first_guess", "max", "average", "total", "thesis"],
    );
    let mut t4 = Table::new(
        "First guess taken lexicographically largest, smallest-first afterwards",
        &["valuation", "first_guess", "max", "average", "total", "thesis"],
    );
    for pair in rest.chunks(2) {
        t3.push(result_cells(&pair[0], Pool::Candidates));
        t4.push(result_cells(&pair[1], Pool::All));
    }
    let mut t5 = Table::new(
        "Each valuation with the first guess it picks itself",
        &["valuation", "first_guess", "max", "average", "total", "histogram", "consistent", "best_first_guess"],
    );
    for (vi, &v) in Valuation::ALL.iter().enumerate() {
        let row = &by_first[vi * classes.len()..(vi + 1) * classes.len()];
        let own =
            &row[classes.iter().position(|&g| g == own_first[vi]).expect("own first guess is a class representative")];
        let best = row.iter().min_by_key(|r| r.stats.total).expect("five first guesses");
        t5.push(vec![
            v.name().into(),
            own.first.clone().into(),
            own.stats.max.into(),
            Cell::Float(own.stats.average(), 3),
            own.stats.total.into(),
            Cell::List(own.stats.histogram.clone()),
            (own.stats.total <= best.stats.total).into(),
            format!("{} ({})", best.first, best.stats.total).into(),
        ]);
    }
    Ok(vec![t1, t2, t3, t4, t5])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_files_read() {
        assert_eq!(published::<PublishedResult>(PUBLISHED_RESULTS).len(), 21);
        assert_eq!(published::<PublishedValuation>(PUBLISHED_VALUATIONS).len(), 5);
        assert_eq!(published_result(Valuation::Minimax, Pool::All, "1122"), "5 / 4.476");
    }
}
