//! Writing rows: whole tables in every format, and streams (CSV or JSON lines) that take one
//! row at a time and flush it, so an interrupted sweep keeps every finished row.

use std::io::{self, Write};

use serde::Serialize;

use mmtree_io::{Format, Table};

use crate::row::{Outcome, Row, COLUMNS};

/// The formats rows can be streamed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// A header line, then one CSV line per row.
    Csv,
    /// One JSON object per line.
    JsonLines,
}

/// A CSV line of a row, through serde: the columns of [`COLUMNS`], empty cells for `None`.
#[derive(Serialize)]
struct CsvRow<'a> {
    n: u8,
    k: u8,
    variant: &'a str,
    feedback: &'a str,
    valuation: &'a str,
    pool: &'a str,
    ties: &'a str,
    first_guess: &'a str,
    max: Option<u32>,
    total: Option<u64>,
    /// Three decimals, as tables print it.
    average: Option<String>,
    /// Counts separated by spaces.
    histogram: String,
    skipped: &'a str,
}

impl<'a> CsvRow<'a> {
    fn new(row: &'a Row) -> CsvRow<'a> {
        let key = &row.key;
        let mut line = CsvRow {
            n: key.n,
            k: key.k,
            variant: key.variant.name(),
            feedback: key.feedback.name(),
            valuation: key.valuation.name(),
            pool: key.pool.name(),
            ties: key.ties.name(),
            first_guess: "",
            max: None,
            total: None,
            average: None,
            histogram: String::new(),
            skipped: "",
        };
        match &row.outcome {
            Outcome::Solved(f) => {
                line.first_guess = &f.first_guess;
                line.max = Some(f.max);
                line.total = Some(f.total);
                line.average = Some(format!("{:.3}", f.average()));
                line.histogram = f.histogram.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            }
            Outcome::Skipped(reason) => line.skipped = reason,
        }
        line
    }
}

/// Writes rows one at a time, flushing each.
///
/// ```
/// use mmtree_core::{FeedbackKind, Variant};
/// use mmtree_strategy::{Pool, Ties, Valuation};
/// use mmtree_sweep::{Row, RowKey, RowWriter, Stream};
/// let key = RowKey {
///     n: 5, k: 2, variant: Variant::Distinct, feedback: FeedbackKind::BlackWhite,
///     valuation: Valuation::Minimax, pool: Pool::All, ties: Ties::Smallest,
/// };
/// let mut out = RowWriter::new(Vec::new(), Stream::Csv, true)?;
/// out.push(&Row::skipped(key, "n > k, no game"))?;
/// let text = String::from_utf8(out.into_inner()?).unwrap();
/// assert_eq!(text.lines().nth(1), Some("5,2,distinct,black-white,minimax,all,smallest,,,,,,\"n > k, no game\""));
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct RowWriter<W: Write> {
    out: Sink<W>,
}

enum Sink<W: Write> {
    Csv(Box<csv::Writer<W>>),
    Json(W),
}

impl<W: Write> RowWriter<W> {
    /// A writer of `stream` rows to `out`, starting with the CSV header line if `header`.
    pub fn new(out: W, stream: Stream, header: bool) -> io::Result<RowWriter<W>> {
        let mut out = match stream {
            Stream::Csv => Sink::Csv(Box::new(csv::WriterBuilder::new().has_headers(false).from_writer(out))),
            Stream::JsonLines => Sink::Json(out),
        };
        if let (Sink::Csv(csv), true) = (&mut out, header) {
            csv.write_record(COLUMNS).map_err(io_error)?;
            csv.flush()?;
        }
        Ok(RowWriter { out })
    }

    /// Writes one row and flushes it.
    pub fn push(&mut self, row: &Row) -> io::Result<()> {
        match &mut self.out {
            Sink::Csv(csv) => {
                csv.serialize(CsvRow::new(row)).map_err(io_error)?;
                csv.flush()
            }
            Sink::Json(out) => {
                out.write_all((row.to_json().to_string() + "\n").as_bytes())?;
                out.flush()
            }
        }
    }

    /// The underlying writer, flushed.
    pub fn into_inner(self) -> io::Result<W> {
        match self.out {
            Sink::Csv(csv) => csv.into_inner().map_err(|e| e.into_error()),
            Sink::Json(out) => Ok(out),
        }
    }
}

/// The I/O error inside a CSV writer's error (the rows themselves always serialise).
fn io_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("CSV: {other:?}")),
    }
}

/// Renders rows (in the order given) as a whole table: CSV with a header line, JSON lines,
/// or a titled Markdown or LaTeX table.
///
/// ```
/// use mmtree_core::{FeedbackKind, Variant};
/// use mmtree_io::Format;
/// use mmtree_strategy::{Pool, Ties, Valuation};
/// use mmtree_sweep::{render, Figures, Outcome, Row, RowKey};
/// let key = RowKey {
///     n: 4, k: 6, variant: Variant::Repetition, feedback: FeedbackKind::BlackWhite,
///     valuation: Valuation::Minimax, pool: Pool::All, ties: Ties::Smallest,
/// };
/// let knuth = Figures { first_guess: "1122".into(), max: 5, total: 5801, histogram: vec![1, 6, 62, 533, 694] };
/// let rows = [Row { key, outcome: Outcome::Solved(knuth) }];
/// assert!(render(&rows, Format::Csv, "Sweep").ends_with("\n4,6,repetition,black-white,minimax,all,smallest,1122,5,5801,4.476,1 6 62 533 694,\n"));
/// assert!(render(&rows, Format::Markdown, "Sweep").contains("| 1122 | 5 | 5801 | 4.476 |"));
/// assert!(render(&rows, Format::Json, "Sweep").contains(r#""total":5801"#));
/// ```
pub fn render(rows: &[Row], format: Format, title: &str) -> String {
    match format {
        Format::Json => rows.iter().map(|r| r.to_json().to_string() + "\n").collect(),
        Format::Csv => {
            let written = RowWriter::new(Vec::new(), Stream::Csv, true)
                .and_then(|mut w| rows.iter().try_for_each(|r| w.push(r)).and_then(|()| w.into_inner()));
            // Writing to memory cannot fail, and CSV is ASCII plus the rows' own UTF-8 text.
            String::from_utf8(written.unwrap_or_default()).unwrap_or_default()
        }
        Format::Markdown | Format::Latex => {
            let mut table = Table::new(title, &COLUMNS);
            for row in rows {
                table.push(row.cells());
            }
            table.render(format)
        }
    }
}
