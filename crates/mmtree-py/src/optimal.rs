//! `mmtree.optimal`: the exact search, stoppable by a time limit, a node limit or Ctrl-C.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use mmtree_io::RuleInfo;
use mmtree_strategy::{Objective, OptimalConfig, OptimalError, OptimalSearch};
use mmtree_sweep::{SolveReport, OPTIMAL_TIES};

use crate::errors::{bad, raise};
use crate::game::{pool, PyGame};
use crate::tree::PyTree;
use crate::work;

/// Largest feedback table built for the search, as `mmtree optimal` builds it: the search
/// scores every guess at every node, so the table pays off far beyond one tree's size.
const OPTIMAL_TABLE_CAP: u64 = 2 << 30;

/// The exact optimal strategy, like `mmtree optimal`: least total guesses
/// (`objective="average"`) or least maximum, then least total (`"worst"`).
///
/// Returns a `Tree` (its `stats["valuation"]` is `optimal-average` or `optimal-worst`).
/// When `time_limit` (seconds) or `stop_after_nodes` stops the search first, returns a dict
/// with `exact` False, the game and rule keys, `nodes` searched, and `lower_bound` and
/// `upper_bound` (proven totals over all secrets; average objective without `max_depth`)
/// with `tree`, the best strategy found (its total is `upper_bound`); otherwise both `None`.
/// Ctrl-C raises `KeyboardInterrupt`.
///
/// >>> import mmtree
/// >>> mmtree.optimal(2, 3).total  # Chen and Lin
/// 21
#[pyfunction]
#[pyo3(signature = (game_or_n, k = None, objective = "average", pool = "all", max_depth = None, time_limit = None,
    stop_after_nodes = None, *, memory_limit = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn optimal<'py>(
    py: Python<'py>,
    game_or_n: &Bound<'py, PyAny>,
    k: Option<i128>,
    objective: &str,
    pool: &str,
    max_depth: Option<i64>,
    time_limit: Option<f64>,
    stop_after_nodes: Option<u64>,
    memory_limit: Option<&str>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let game = PyGame::resolve(game_or_n, k, memory_limit)?;
    let (objective, valuation) = match objective {
        "average" => (Objective::Average, "optimal-average"),
        "worst" => (Objective::Worst, "optimal-worst"),
        other => return Err(bad(format!("unknown objective '{other}': expected one of average, worst"))),
    };
    let pool = self::pool(pool)?;
    let max_depth = match max_depth {
        None => None,
        Some(d) => match u8::try_from(d) {
            Ok(d) if (1..=254).contains(&d) => Some(d),
            _ => return Err(bad(format!("max_depth {d} is not between 1 and 254"))),
        },
    };
    let time_limit = match time_limit {
        Some(t) if t.is_finite() && t >= 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => return Err(bad(format!("time_limit {t} is not a number of seconds >= 0"))),
        None => None,
    };
    let space = game.space_with_table((game.limit.0 / 2).min(OPTIMAL_TABLE_CAP))?;
    let config = OptimalConfig { max_depth, pool, node_limit: stop_after_nodes, ..OptimalConfig::new(objective) };
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let report_nodes = |n: u64| nodes.store(n, Ordering::Relaxed);
    let search = OptimalSearch::new(&space, config).with_stop_flag(&stop).with_progress(&report_nodes);
    let start = Instant::now();
    let mut reported = None;
    let tick = |_: Python<'_>| -> PyResult<()> {
        if time_limit.is_some_and(|limit| start.elapsed() >= limit) {
            stop.store(true, Ordering::Relaxed);
        }
        let now = nodes.load(Ordering::Relaxed);
        match &progress {
            Some(callback) if reported != Some(now) => {
                reported = Some(now);
                callback.call1((now,)).map(|_| ())
            }
            _ => Ok(()),
        }
    };
    let stopped = |nodes: u64| -> PyResult<Bound<'py, PyDict>> {
        let stopped = PyDict::new(py);
        stopped.set_item("n", game.game.n())?;
        stopped.set_item("k", game.game.k())?;
        stopped.set_item("variant", game.game.variant().name())?;
        stopped.set_item("feedback", game.game.feedback_kind().name())?;
        stopped.set_item("valuation", valuation)?;
        stopped.set_item("pool", pool.name())?;
        stopped.set_item("exact", false)?;
        stopped.set_item("nodes", nodes)?;
        Ok(stopped)
    };
    match work::run(py, &stop, || search.run_anytime(), tick)? {
        Ok(bracket) if bracket.exact => {
            let tree = bracket.tree;
            let report = SolveReport::optimal(&game.game, valuation, pool, &tree, &space, &game.alphabet);
            let info = RuleInfo::new(valuation, pool.name(), OPTIMAL_TIES, true, None);
            Ok(Bound::new(py, PyTree::new(tree, space, game.clone(), info, report))?.into_any())
        }
        Ok(bracket) => {
            // Stopped with proven bounds (average objective, no depth limit): the best tree
            // found is a real strategy whose total is the upper bound.
            let dict = stopped(search.stats().nodes)?;
            dict.set_item("lower_bound", bracket.lower_bound)?;
            dict.set_item("upper_bound", bracket.upper_bound)?;
            let anytime = "anytime-average";
            let report = SolveReport::optimal(&game.game, anytime, pool, &bracket.tree, &space, &game.alphabet);
            let info = RuleInfo::new(anytime, pool.name(), OPTIMAL_TIES, true, None);
            dict.set_item("tree", Bound::new(py, PyTree::new(bracket.tree, space, game.clone(), info, report))?)?;
            Ok(dict.into_any())
        }
        Err(OptimalError::Stopped { nodes }) => {
            // The worst-case objective and depth limits keep no proven bounds across a stop.
            let dict = stopped(nodes)?;
            dict.set_item("lower_bound", py.None())?;
            dict.set_item("upper_bound", py.None())?;
            Ok(dict.into_any())
        }
        Err(e) => Err(raise(None, &e)),
    }
}
