//! JSON values (the CLI's `--format json` objects) as Python objects; a row's dict lists
//! its keys in the CLI's column order.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use serde_json::Value;

/// `value` as a Python object: `None`, `bool`, `int`, `float`, `str`, `list` or `dict`.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (None, Some(i)) => i.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            Ok(list.into_any())
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_py(py, item)?)?;
            }
            Ok(dict.into_any())
        }
    }
}

/// A JSON object as a dict with its keys in `columns` order (then any others, sorted): the
/// order of the CLI's table columns, which a `pandas.DataFrame` keeps.
pub fn row_to_py<'py>(py: Python<'py>, value: &Value, columns: &[&str]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    if let Value::Object(map) = value {
        for column in columns {
            if let Some(item) = map.get(*column) {
                dict.set_item(column, to_py(py, item)?)?;
            }
        }
        for (key, item) in map.iter().filter(|(k, _)| !columns.contains(&k.as_str())) {
            dict.set_item(key, to_py(py, item)?)?;
        }
    }
    Ok(dict)
}
