//! JSON rows through serde_json: one object per line (what `sweep --format json` streams), or
//! one array of objects.

use serde_json::{Map, Value};

use super::{Collector, Problem};
use crate::error::SweepError;
use crate::row::Row;

/// One object per line; blank lines are skipped.
pub(super) fn lines(text: &str, rows: &mut Collector) -> Result<(), SweepError> {
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim().is_empty()).collect();
    let count = lines.len();
    for (i, (no, line)) in lines.into_iter().enumerate() {
        let row = match serde_json::from_str::<Value>(line) {
            Err(e) => Err(Problem::Format(format!("not a JSON row: {e}"))),
            Ok(value) => object_row(&value),
        };
        rows.take(no, i + 1 == count, row)?;
    }
    Ok(())
}

/// One JSON array of row objects (written whole, so never cut off); rows are numbered by
/// their place in the array.
pub(super) fn array(text: &str, rows: &mut Collector) -> Result<(), SweepError> {
    let first = text.lines().position(|l| !l.trim().is_empty()).map_or(1, |i| i + 1);
    let values: Vec<Value> =
        serde_json::from_str(text).map_err(|e| rows.format_error(first, format!("not a JSON array of rows: {e}")))?;
    for (i, value) in values.iter().enumerate() {
        let row = object_row(value).map_err(|problem| match problem {
            Problem::Format(detail) => rows.format_error(first, format!("row {}: {detail}", i + 1)),
            Problem::Row(e) => rows.format_error(first, format!("row {}: {e}", i + 1)),
        })?;
        rows.take(i + 1, false, Ok(row))?;
    }
    Ok(())
}

fn object_row(value: &Value) -> Result<Row, Problem> {
    let object: &Map<String, Value> =
        value.as_object().ok_or_else(|| Problem::Format("a row must be a JSON object".into()))?;
    Ok(Row::from_fields(&|name| object.get(name).map(text))?)
}

/// A value as table text: null is empty, arrays are space-separated (histograms).
fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}
