//! `mmtree.sweep`: a grid of games and rules, one dict per row with the columns of
//! `mmtree sweep` (so `pandas.DataFrame(rows)` is the CLI's table).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use pyo3::prelude::*;

use mmtree_core::{FeedbackKind, Variant, MAX_COLOURS, MAX_PEGS};
use mmtree_strategy::{Pool, Valuation};
use mmtree_sweep::{Grid, Sweep, COLUMNS};

use crate::convert::row_to_py;
use crate::errors::{bad, lib};
use crate::game::{memory_limit_of, pool, ties, valuation};
use crate::work;

/// `values`: an int or an iterable of ints, each in `1..=max`, sorted and distinct.
fn range_of(
    values: Option<&Bound<'_, PyAny>>,
    what: &str,
    default: std::ops::RangeInclusive<u8>,
    max: u8,
) -> PyResult<Vec<u8>> {
    let Some(values) = values else { return Ok(default.collect()) };
    let items: Vec<i128> = match values.extract::<i128>() {
        Ok(one) => vec![one],
        Err(_) => values
            .try_iter()
            .map_err(|_| bad(format!("invalid {what} range: expected an int or an iterable of ints")))?
            .map(|item| item.and_then(|i| i.extract::<i128>()))
            .collect::<PyResult<_>>()
            .map_err(|_| bad(format!("invalid {what} range: expected an int or an iterable of ints")))?,
    };
    let mut out = Vec::with_capacity(items.len());
    for v in items {
        match u8::try_from(v) {
            Ok(v) if (1..=max).contains(&v) => out.push(v),
            _ => return Err(bad(format!("invalid {what} range: {v} is not between 1 and {max}"))),
        }
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err(bad(format!("invalid {what} range: the range is empty")));
    }
    Ok(out)
}

/// `names`: one name or an iterable of names.
fn names_of(names: Option<&Bound<'_, PyAny>>, default: &str, what: &str) -> PyResult<Vec<String>> {
    let Some(names) = names else { return Ok(vec![default.to_string()]) };
    if let Ok(one) = names.extract::<String>() {
        return Ok(vec![one]);
    }
    let expected = || bad(format!("{what}: expected a name or an iterable of names"));
    names
        .try_iter()
        .map_err(|_| expected())?
        .map(|item| item.and_then(|i| i.extract::<String>()))
        .collect::<PyResult<_>>()
        .map_err(|_| expected())
}

/// Computes one row per (n, k, valuation, pool), like `mmtree sweep`, and returns them in
/// grid order as dicts with the CSV's columns (`skipped` is `None` for a solved row and the
/// reason for a game that cannot exist or does not fit the memory limit).
///
/// `n` and `k` are ints or iterables of ints (default `range(2, 6)` and `range(2, 9)`);
/// `valuations` is "all" or names among minimax, expected-size, entropy, most-parts;
/// `pools` holds "all" and/or "candidates". `progress(done, total)` is called on this
/// thread as secrets are placed in trees. Ctrl-C stops the sweep (`KeyboardInterrupt`).
///
/// >>> import mmtree
/// >>> rows = mmtree.sweep(n=2, k=[3, 4], valuations="expected-size")
/// >>> [r["total"] for r in rows]
/// [21, 45]
#[pyfunction]
#[pyo3(signature = (n = None, k = None, valuations = None, pools = None, *, distinct = false, black_only = false,
    ties = "smallest", memory_limit = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn sweep<'py>(
    py: Python<'py>,
    n: Option<&Bound<'py, PyAny>>,
    k: Option<&Bound<'py, PyAny>>,
    valuations: Option<&Bound<'py, PyAny>>,
    pools: Option<&Bound<'py, PyAny>>,
    distinct: bool,
    black_only: bool,
    ties: &str,
    memory_limit: Option<&str>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut chosen: Vec<Valuation> = Vec::new();
    for name in names_of(valuations, "all", "valuations")? {
        if name.trim().eq_ignore_ascii_case("all") {
            chosen.extend(Valuation::ALL);
        } else {
            chosen.push(valuation(&name)?);
        }
    }
    let mut chosen_pools: Vec<Pool> = Vec::new();
    for name in names_of(pools, "all", "pools")? {
        chosen_pools.push(pool(&name)?);
    }
    if chosen.is_empty() || chosen_pools.is_empty() {
        return Err(bad("the sweep has no rule: give at least one valuation and one pool"));
    }
    let grid = Grid {
        ns: range_of(n, "n", 2..=5, MAX_PEGS)?,
        ks: range_of(k, "k", 2..=8, MAX_COLOURS)?,
        variant: if distinct { Variant::Distinct } else { Variant::Repetition },
        feedback: if black_only { FeedbackKind::Black } else { FeedbackKind::BlackWhite },
        // Table order, each once, as the CLI lists them.
        valuations: Valuation::ALL.into_iter().filter(|v| chosen.contains(v)).collect(),
        pools: [Pool::All, Pool::Candidates].into_iter().filter(|p| chosen_pools.contains(p)).collect(),
        ties: self::ties(ties)?,
        shard: None,
    };
    let keys = lib(grid.keys())?;
    let limit = memory_limit_of(memory_limit)?;
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let add = |secrets: u64| {
        done.fetch_add(secrets, Ordering::Relaxed);
    };
    let total = Sweep::new(keys.clone(), limit).work();
    let mut reported = None;
    let tick = |_: Python<'_>| -> PyResult<()> {
        let now = done.load(Ordering::Relaxed);
        match &progress {
            Some(callback) if reported != Some(now) => {
                reported = Some(now);
                callback.call1((now, total)).map(|_| ())
            }
            _ => Ok(()),
        }
    };
    let rows = work::run(py, &stop, || Sweep::new(keys, limit).with_progress(&add).with_stop(&stop).rows(), tick)?;
    rows.iter()
        .map(|row| {
            let dict = row_to_py(py, &row.to_json(), &COLUMNS)?;
            if !dict.contains("skipped")? {
                dict.set_item("skipped", py.None())?;
            }
            Ok(dict.into_any())
        })
        .collect()
}
