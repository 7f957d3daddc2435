//! Errors across the boundary: bad input raises `ValueError` and a failure of the work
//! `RuntimeError` (where the CLI exits 2 and 1), with the CLI's one-line message.

use std::error::Error;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

use mmtree_core::{printable, GameError};
use mmtree_io::{InputError, OutputError, TreeFileError};
use mmtree_strategy::OptimalError;
use mmtree_sweep::{SweepError, UnknownRule};
use mmtree_verify::VerifyError;

/// Bad input: `ValueError`.
pub fn bad(message: impl AsRef<str>) -> PyErr {
    PyValueError::new_err(printable(message.as_ref()))
}

/// A failure of the work: `RuntimeError`.
pub fn failed(message: impl AsRef<str>) -> PyErr {
    PyRuntimeError::new_err(printable(message.as_ref()))
}

/// Whether a library error is the user's to fix, by the CLI's exit-code rule.
pub trait Blame: Error {
    /// True for bad input.
    fn is_bad_input(&self) -> bool;
}

impl Blame for GameError {
    fn is_bad_input(&self) -> bool {
        true
    }
}

impl Blame for UnknownRule {
    fn is_bad_input(&self) -> bool {
        true
    }
}

impl Blame for TreeFileError {
    fn is_bad_input(&self) -> bool {
        TreeFileError::is_bad_input(self)
    }
}

impl Blame for InputError {
    fn is_bad_input(&self) -> bool {
        InputError::is_bad_input(self)
    }
}

impl Blame for OutputError {
    fn is_bad_input(&self) -> bool {
        OutputError::is_bad_input(self)
    }
}

impl Blame for SweepError {
    fn is_bad_input(&self) -> bool {
        SweepError::is_bad_input(self)
    }
}

impl Blame for VerifyError {
    fn is_bad_input(&self) -> bool {
        false
    }
}

impl Blame for OptimalError {
    fn is_bad_input(&self) -> bool {
        false
    }
}

/// The exception for `err`, its message prefixed by `context` (e.g. the file), each cause of
/// its chain once, on one line, as the CLI prints it.
pub fn raise(context: Option<&str>, err: &dyn Blame) -> PyErr {
    let mut parts: Vec<String> = context.into_iter().map(str::to_string).collect();
    let mut cause: Option<&dyn Error> = Some(err);
    while let Some(e) = cause {
        let text = e.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        cause = e.source();
    }
    let message = parts.join(": ");
    if err.is_bad_input() {
        bad(message)
    } else {
        failed(message)
    }
}

/// `?` on a library result: `lib(x)?` raises the exception for its error.
pub fn lib<T, E: Blame>(result: Result<T, E>) -> Result<T, PyErr> {
    result.map_err(|e| raise(None, &e))
}
