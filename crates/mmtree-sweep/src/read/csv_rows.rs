//! CSV rows through the `csv` crate and serde: quoting, byte order marks, comment lines and
//! record positions are the library's; columns are found by name in the header.

use serde::Deserialize;

use super::{Collector, Problem};
use crate::error::SweepError;
use crate::row::Row;

/// One CSV record, by column name; a column missing from the header reads as empty (the
/// header is consulted to tell the two apart).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Record {
    n: String,
    k: String,
    variant: String,
    feedback: String,
    valuation: String,
    pool: String,
    ties: String,
    first_guess: String,
    max: String,
    total: String,
    average: String,
    histogram: String,
    skipped: String,
}

impl Record {
    fn field(&self, name: &str) -> Option<&str> {
        Some(match name {
            "n" => &self.n,
            "k" => &self.k,
            "variant" => &self.variant,
            "feedback" => &self.feedback,
            "valuation" => &self.valuation,
            "pool" => &self.pool,
            "ties" => &self.ties,
            "first_guess" => &self.first_guess,
            "max" => &self.max,
            "total" => &self.total,
            "average" => &self.average,
            "histogram" => &self.histogram,
            "skipped" => &self.skipped,
            _ => return None,
        })
    }
}

pub(super) fn read(text: &str, rows: &mut Collector) -> Result<(), SweepError> {
    let mut reader =
        csv::ReaderBuilder::new().comment(Some(b'#')).flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return Err(rows.format_error(line_of(&e), format!("not CSV: {e}"))),
    };
    let header_line = headers.position().map_or(1, |p| p.line() as usize);
    if !headers.iter().any(|c| c == "valuation") {
        return Err(
            rows.format_error(header_line, "expected a CSV header with the sweep's columns, or JSON lines".into())
        );
    }
    let mut record = csv::StringRecord::new();
    loop {
        let line = match reader.read_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => record.position().map_or(0, |p| p.line() as usize),
            Err(e) => return Err(rows.format_error(line_of(&e), format!("not CSV: {e}"))),
        };
        if record.iter().all(str::is_empty) {
            continue;
        }
        let last = reader.position().byte() as usize >= text.trim_end().len();
        let row = if record.len() != headers.len() {
            Err(Problem::Format(format!("{} fields, the header has {}", record.len(), headers.len())))
        } else {
            match record.deserialize::<Record>(Some(&headers)) {
                Err(e) => Err(Problem::Format(e.to_string())),
                Ok(fields) => {
                    let get = |name: &'static str| {
                        headers.iter().any(|c| c == name).then(|| fields.field(name).unwrap_or_default().to_string())
                    };
                    Row::from_fields(&get).map_err(Problem::Row)
                }
            }
        };
        rows.take(line, last, row)?;
    }
}

fn line_of(e: &csv::Error) -> usize {
    e.position().map_or(1, |p| p.line() as usize)
}
