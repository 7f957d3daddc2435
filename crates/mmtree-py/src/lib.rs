//! The `mmtree` Python package's native module: Python objects over the workspace crates
//! (games, trees, sweeps, the exact search, the advisor, the thesis tables). No algorithm
//! lives here: each function converts its arguments, calls the library the CLI calls, and
//! converts the result; long work runs off the interpreter and stops on Ctrl-C.

mod advise;
mod convert;
mod errors;
mod game;
mod optimal;
mod sweep;
mod tree;
mod work;

use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::row_to_py;
use crate::errors::lib;

/// The thesis's [4,6] tables, recomputed as `mmtree thesis` prints them: a dict from each
/// table's title to its rows, each row a dict keyed by column (`pandas.DataFrame(rows)`).
#[pyfunction]
fn thesis<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let never = AtomicBool::new(false);
    let tables = lib(work::run(py, &never, mmtree_sweep::thesis::tables, |_| Ok(()))?)?;
    let out = PyDict::new(py);
    for table in tables {
        let columns: Vec<&str> = table.columns.iter().map(String::as_str).collect();
        let rows = table.json_rows().iter().map(|row| row_to_py(py, row, &columns)).collect::<PyResult<Vec<_>>>()?;
        out.set_item(table.title, rows)?;
    }
    Ok(out)
}

#[pymodule]
fn _mmtree(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::PyGame>()?;
    m.add_class::<tree::PyTree>()?;
    m.add_function(wrap_pyfunction!(tree::solve, m)?)?;
    m.add_function(wrap_pyfunction!(tree::load, m)?)?;
    m.add_function(wrap_pyfunction!(tree::verify, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(optimal::optimal, m)?)?;
    m.add_function(wrap_pyfunction!(advise::advise, m)?)?;
    m.add_function(wrap_pyfunction!(thesis, m)?)?;
    m.add("MAX_PEGS", mmtree_core::MAX_PEGS)?;
    m.add("MAX_COLOURS", mmtree_core::MAX_COLOURS)?;
    Ok(())
}
