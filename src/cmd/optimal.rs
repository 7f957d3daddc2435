//! `mmtree optimal`: the exact optimal strategy of one game, its figures and optionally its tree
//! (or, with `--plan`, one job of a split search: `optimal_jobs`).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;

use mmtree_io::{refuse_same_file, Format};
use mmtree_strategy::{Bracket, Objective, OptimalConfig, OptimalError, OptimalSearch, Pool};
use mmtree_sweep::SolveReport;

use crate::cli::{ObjectiveArg, OptimalArgs, PoolArg};
use crate::config::{self, GameConfig};

/// Largest feedback table built for the search, within half the memory limit (Bulls and
/// Cows: 25 MB; [5,8]: 1 GiB).
pub const OPTIMAL_TABLE_CAP: u64 = 2 << 30;

/// Set by the Ctrl-C handler; the search polls it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn run(args: &OptimalArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    if let Some(plan) = &args.plan {
        return super::optimal_jobs::run(args, plan, quiet, out);
    }
    let game = GameConfig::resolve(&args.game.require("optimal")?)?;
    let output = super::files::check_output(args.output.as_deref(), "-o")?;
    let checkpoint = super::files::check_output(args.checkpoint.as_deref(), "--checkpoint")?;
    refuse_same_file(&[], &output.iter().chain(&checkpoint).collect::<Vec<_>>())?;
    let mut space = game.space()?;
    // The search scores every guess at every node: the feedback table pays off far beyond
    // the size worth building for one tree.
    space.build_table((game.limit.0 / 2).min(OPTIMAL_TABLE_CAP));
    let objective = match args.objective {
        ObjectiveArg::Average => Objective::Average,
        ObjectiveArg::Worst => Objective::Worst,
    };
    let pool = match args.pool {
        PoolArg::All => Pool::All,
        PoolArg::Candidates => Pool::Candidates,
    };
    let config = OptimalConfig {
        objective,
        max_depth: args.max_depth,
        pool,
        node_limit: args.node_limit.or(args.stop_after_nodes),
        time_limit: args.time_limit.map(std::time::Duration::from_secs_f64),
        table_memory: match &args.table_memory {
            Some(text) => {
                mmtree_core::MemoryLimit::parse(text).map_err(|e| crate::UsageError(format!("--table-memory: {e}")))?.0
            }
            None => game.limit.0 / 2,
        },
    };
    // A second handler cannot be installed (e.g. in tests running several commands); the
    // search then just cannot be interrupted, which is harmless.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));

    let bar = indicatif::ProgressBar::with_draw_target(
        None,
        if quiet { indicatif::ProgressDrawTarget::hidden() } else { indicatif::ProgressDrawTarget::stderr() },
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} {spinner} {pos} nodes searched ({per_sec})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    let progress = |nodes: u64| bar.set_position(nodes);
    let search = OptimalSearch::new(&space, config).with_stop_flag(&INTERRUPTED).with_progress(&progress);
    if let Some(path) = &args.checkpoint {
        if path.exists() {
            super::files::resume(&search, path, game.limit.0, quiet)?;
        }
    }
    let start = Instant::now();
    // The hidden `--stop-after-nodes` stops as an interrupt does; the limits give a bracket.
    let result = if args.stop_after_nodes.is_some() { search.run().map(Bracket::exact) } else { search.run_anytime() };
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    if let Some(checkpoint) = &checkpoint {
        super::files::save_checkpoint(&search, checkpoint, out, quiet)?;
    }
    if args.verbose {
        let s = search.stats();
        eprintln!(
            "mmtree: {:.3} s, {} nodes, {} cut-offs, {} table hits, {} table entries, {} forgotten",
            elapsed.as_secs_f64(),
            s.nodes,
            s.cutoffs,
            s.table_hits,
            s.table_entries,
            s.table_evictions
        );
    }
    let bracket = match result {
        Ok(bracket) => bracket,
        Err(e @ OptimalError::Stopped { .. }) => {
            let hint = match &args.checkpoint {
                Some(p) => format!("finished subtrees saved to {}; rerun to resume", p.display()),
                None => "use --checkpoint FILE to keep finished subtrees".to_string(),
            };
            anyhow::bail!("{e}; {hint}");
        }
        Err(e) => return Err(e.into()),
    };
    let tree = &bracket.tree;
    let valuation = match (objective, bracket.exact) {
        (Objective::Average, true) => "optimal-average",
        (Objective::Worst, true) => "optimal-worst",
        (_, false) => "anytime-average",
    };
    if let Some(output) = &output {
        let info = mmtree_io::RuleInfo::new(valuation, pool.name(), mmtree_sweep::OPTIMAL_TIES, true, None);
        let bytes = mmtree_io::TreeFile::new(tree.clone(), game.alphabet.first(game.game.k()), info).to_bytes();
        output.write(&bytes, out)?;
    }
    let report = SolveReport::optimal(&game.game, valuation, pool, tree, &space, &game.alphabet);
    match config::format(args.format) {
        Format::Json => {
            let report = OptimalReport {
                row: report,
                lower_bound: bracket.lower_bound,
                upper_bound: bracket.upper_bound,
                exact: bracket.exact,
            };
            writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?
        }
        format => {
            write!(
                out,
                "{}",
                SolveReport::table(std::slice::from_ref(&report), &format!("{} {valuation}", game.game)).render(format)
            )?;
            if !bracket.exact {
                // The table's total is the upper bound; say what is proven below it.
                let gap = 100.0 * (bracket.upper_bound - bracket.lower_bound) as f64 / bracket.lower_bound as f64;
                writeln!(
                    out,
                    "\nNot proven optimal: lower bound {}, upper bound {} (the tree's total), gap {gap:.3} %.",
                    bracket.lower_bound, bracket.upper_bound
                )?;
            }
        }
    }
    // Everything is written and the process is about to end: freeing the tables entry by
    // entry would only delay the exit (25 ms of a 0.5 s run on [4,7]).
    std::mem::forget(search);
    Ok(())
}

/// The JSON of `optimal`: the `solve` row, and the bracket on the optimal total (`total` is
/// `upper_bound`; both bounds are the optimum when `exact`).
#[derive(serde::Serialize)]
struct OptimalReport {
    #[serde(flatten)]
    row: SolveReport,
    lower_bound: u64,
    upper_bound: u64,
    exact: bool,
}
