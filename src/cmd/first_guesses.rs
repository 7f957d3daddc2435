//! `mmtree first-guesses`: every first guess up to colour and position symmetry, each
//! valuation run after each of them, and the thesis's consistency verdict (docs/definitions.md).
//!
//! For [4,6] the tables are the thesis's: the valuation of the five first guesses, the
//! results by first guess (max / average, the valuation's own pick marked), and whether each
//! valuation is consistent (no other first guess gives a smaller total).

use std::io::Write;

use anyhow::Result;
use rayon::prelude::*;

use mmtree_core::{first_guess_classes, CodeIndex, Stats, Symmetry, MAX_FEEDBACKS};
use mmtree_io::plot::{histograms_svg, HistogramPanel};
use mmtree_io::{refuse_same_file, render_tables, Cell, Table};
use mmtree_strategy::{GuessRule, Pool, Solver, Valuation};

use crate::cli::FirstGuessesArgs;
use crate::cmd::sweep::{pools, valuations};
use crate::config::{self, GameConfig};
use crate::progress;

/// The tree figures of one (valuation, pool) after each first guess class.
struct Line {
    valuation: Valuation,
    pool: Pool,
    /// Index into the classes of the guess the rule picks itself.
    own: usize,
    stats: Vec<Stats>,
}

fn max_avg(stats: &Stats) -> String {
    format!("{} / {:.3}", stats.max, stats.average())
}

pub fn run(args: &FirstGuessesArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let config = GameConfig::resolve(&args.game)?;
    let output = super::files::check_output(args.output.as_deref(), "-o")?;
    let plot = super::files::check_output(args.plot.as_deref(), "--plot")?;
    refuse_same_file(&[], &output.iter().chain(&plot).collect::<Vec<_>>())?;
    let space = config.space()?;
    let abc = &config.alphabet;
    // One first guess per class of the whole group (the smallest member of each).
    let codes = first_guess_classes(&config.game);
    let root = Symmetry::root(&config.game);
    let classes: Vec<CodeIndex> =
        codes.iter().map(|c| space.index(c).expect("a class representative is a code of the game")).collect();
    let names: Vec<String> = codes.iter().map(|c| abc.format(c)).collect();
    let all = space.all_indices();
    let rules: Vec<(Valuation, Pool)> = valuations(&args.valuation)
        .into_iter()
        .flat_map(|v| pools(&args.pool).into_iter().map(move |p| (v, p)))
        .collect();

    // Table 1: the first guesses valued on the whole code space.
    let mut valued = Table::new(
        &format!("Valuation of the first guesses on {}", config.game),
        &["first_guess", "largest_part", "expected_size", "entropy", "parts"],
    );
    for (&g, name) in classes.iter().zip(&names) {
        let mut counts = [0u32; MAX_FEEDBACKS];
        space.count_parts(g, &all, &mut counts);
        let total = all.len() as u32;
        valued.push(vec![
            name.as_str().into(),
            Cell::Int(Valuation::Minimax.value(&counts, total) as i128),
            Cell::Real(Valuation::ExpectedSize.value(&counts, total), 2),
            Cell::Real(Valuation::Entropy.value(&counts, total), 2),
            Cell::Int(Valuation::MostParts.value(&counts, total) as i128),
        ]);
    }

    // Every (rule, first guess) tree, in parallel.
    let jobs: Vec<GuessRule> = rules
        .iter()
        .flat_map(|&(v, p)| {
            classes.iter().map(move |&g| GuessRule { pool: p, first_guess: Some(g), ..GuessRule::new(v) })
        })
        .collect();
    let bar = progress::bar((jobs.len() * space.len()) as u64, "secrets", quiet);
    let report = |n: u64| bar.inc(n);
    let stats: Vec<Stats> =
        jobs.par_iter().map(|&rule| Solver::new(&space, rule).with_progress(&report).build().stats()).collect();
    bar.finish_and_clear();
    let lines: Vec<Line> = rules
        .iter()
        .zip(stats.chunks(classes.len()))
        .map(|(&(valuation, pool), stats)| {
            let pick = Solver::new(&space, GuessRule { pool, ..GuessRule::new(valuation) }).choose(&all);
            let class = root.representative(&space.code(pick), false);
            let own = codes.iter().position(|c| *c == class).expect("every code is in a first-guess class");
            Line { valuation, pool, own, stats: stats.to_vec() }
        })
        .collect();

    // Table 2: the thesis layout, max / average per first guess, the own pick marked.
    let mut columns = vec!["valuation", "pool"];
    columns.extend(names.iter().map(String::as_str));
    let mut pivot = Table::new("Results by first guess: max / average (* = the valuation's own first guess)", &columns);
    for line in &lines {
        let mut cells: Vec<Cell> = vec![line.valuation.name().into(), line.pool.name().into()];
        for (i, s) in line.stats.iter().enumerate() {
            let mark = if i == line.own { "*" } else { "" };
            cells.push(format!("{}{mark}", max_avg(s)).into());
        }
        pivot.push(cells);
    }

    // Table 3: the same figures, one row per (rule, first guess), for machines.
    let mut long = Table::new(
        "Results by first guess",
        &["valuation", "pool", "first_guess", "max", "total", "average", "histogram", "picked_by_itself"],
    );
    for line in &lines {
        for (i, s) in line.stats.iter().enumerate() {
            long.push(vec![
                line.valuation.name().into(),
                line.pool.name().into(),
                names[i].as_str().into(),
                s.max.into(),
                s.total.into(),
                Cell::Real(s.average(), 3),
                Cell::List(s.histogram.clone()),
                (i == line.own).into(),
            ]);
        }
    }

    // Table 4: consistency.
    let mut verdict = Table::new(
        "Consistency: no other first guess gives a smaller total",
        &[
            "valuation",
            "pool",
            "own_first_guess",
            "max",
            "total",
            "average",
            "best_first_guess",
            "best_total",
            "consistent",
        ],
    );
    for line in &lines {
        let own = &line.stats[line.own];
        let best_total = line.stats.iter().map(|s| s.total).min().unwrap_or(own.total);
        let best: Vec<&str> = line
            .stats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.total == best_total)
            .map(|(i, _)| names[i].as_str())
            .collect();
        verdict.push(vec![
            line.valuation.name().into(),
            line.pool.name().into(),
            names[line.own].as_str().into(),
            own.max.into(),
            own.total.into(),
            Cell::Real(own.average(), 3),
            best.join(" ").into(),
            best_total.into(),
            (own.total <= best_total).into(),
        ]);
    }

    let text = render_tables(&[valued, pivot, long, verdict], config::format(args.format));
    match &output {
        Some(output) => output.write(text.as_bytes(), out)?,
        None => write!(out, "{text}")?,
    }
    if let Some(plot) = &plot {
        let several_pools = rules.iter().any(|r| r.1 != rules[0].1);
        let panels: Vec<HistogramPanel> = lines
            .iter()
            .map(|line| HistogramPanel {
                title: if several_pools {
                    format!("{} ({})", line.valuation.name(), line.pool.name())
                } else {
                    line.valuation.name().to_string()
                },
                groups: names.iter().cloned().zip(line.stats.iter().map(|s| s.histogram.clone())).collect(),
            })
            .collect();
        let svg = histograms_svg(&panels, "guesses", "secrets")?;
        plot.write(svg.as_bytes(), out)?;
    }
    Ok(())
}
