//! Reading the rows of a sweep (or `solve`) output: CSV, JSON lines, a JSON array of row
//! objects, or a Markdown or LaTeX table as `sweep --format md|latex` writes it. Every row
//! goes through [`Row::check`](crate::Row::check); errors name the file and line.
//!
//! A streamed file whose writer was killed may end in a line cut off part way: the last line
//! of a file that does not end with a newline is, when it is not a valid solved row (a cut
//! solved row never is: its figures stop adding up), reported as [`SweepFile::cut_off`]
//! instead of refusing the file.

mod csv_rows;
mod json_rows;
mod tables;

use std::io::Read;
use std::path::Path;

use crate::error::{RowError, SweepError};
use crate::row::Row;

/// Most bytes read from a file: every key there can be (all games, variants, feedback kinds,
/// valuations, pools and tie orders: 22,400 rows) takes under 10 MiB in any format, so a
/// longer input (`/dev/zero`, a wrong file) is refused before it fills memory.
pub(crate) const MAX_FILE_BYTES: u64 = 64 << 20;

/// The rows of one file, each with its line.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepFile {
    /// The file, as messages name it.
    pub origin: String,
    /// Rows with their 1-based line (in a JSON array: their 1-based place in it).
    pub rows: Vec<(usize, Row)>,
    /// The last line, when it is cut off part way.
    pub cut_off: Option<CutOff>,
}

/// A last line cut off part way: no newline after it, and not a valid solved row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutOff {
    /// 1-based line.
    pub line: usize,
    /// How it fails to parse.
    pub detail: String,
}

impl SweepFile {
    /// Reads a file. A missing file, a directory, more than 64 MiB or text that is not UTF-8
    /// are bad input; other failures to read are [`SweepError::Read`].
    pub fn read(path: &Path) -> Result<SweepFile, SweepError> {
        if path.is_dir() {
            return Err(SweepError::Directory(path.to_path_buf()));
        }
        let file = match std::fs::File::open(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SweepError::NoSuchFile(path.into())),
            Err(source) => return Err(SweepError::Read { path: path.into(), source }),
            Ok(file) => file,
        };
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| SweepError::Read { path: path.into(), source })?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(SweepError::TooLarge(path.into()));
        }
        let text = String::from_utf8(bytes).map_err(|_| SweepError::NotUtf8(path.into()))?;
        SweepFile::parse(&text, &path.display().to_string())
    }

    /// Reads rows from text; `origin` names it in messages. The format is told by the first
    /// line that is not blank: `[` a JSON array, `{` JSON lines, `\begin{table}` LaTeX, `|`
    /// (or `###` then `|`) Markdown, anything else CSV with a header line (`#` lines are
    /// comments). A UTF-8 byte order mark is ignored.
    ///
    /// ```
    /// use mmtree_sweep::SweepFile;
    /// let text = "\u{feff}n,k,variant,feedback,valuation,pool,ties,first_guess,max,total,average,histogram\n\
    ///             2,2,repetition,black-white,minimax,all,smallest,11,3,8,2.000,1 2 1\n\
    ///             2,3,repetition,black-white,minimax,all,smallest,12,4,";
    /// let file = SweepFile::parse(text, "s.csv")?;
    /// assert_eq!(file.rows.len(), 1);
    /// assert_eq!(file.rows[0].1.figures().unwrap().total, 8);
    /// assert_eq!(file.cut_off.unwrap().line, 3);
    ///
    /// let bad = "{\"n\":2,\"k\":2,\"variant\":\"repetition\",\"feedback\":\"black-white\",\"valuation\":\"minimax\",\
    ///            \"pool\":\"all\",\"ties\":\"smallest\",\"first_guess\":\"11\",\"max\":3,\"total\":9,\"average\":2.25,\
    ///            \"histogram\":[1,2,1]}\n";
    /// let err = SweepFile::parse(bad, "s.json").unwrap_err();
    /// assert_eq!(err.to_string(), "s.json:1: total 9 differs from the histogram's 8");
    /// # Ok::<(), mmtree_sweep::SweepError>(())
    /// ```
    pub fn parse(text: &str, origin: &str) -> Result<SweepFile, SweepError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut rows = Collector {
            file: SweepFile { origin: origin.to_string(), rows: Vec::new(), cut_off: None },
            terminated: text.ends_with('\n'),
        };
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        match lines.next() {
            None => {}
            Some(first) if first.starts_with('[') => json_rows::array(text, &mut rows)?,
            Some(first) if first.starts_with('{') => json_rows::lines(text, &mut rows)?,
            Some(first) if first.starts_with("\\begin{table}") => tables::latex(text, &mut rows)?,
            Some(first) if first.starts_with('|') => tables::markdown(text, &mut rows)?,
            Some(first) if first.starts_with("###") && lines.next().is_some_and(|l| l.starts_with('|')) => {
                tables::markdown(text, &mut rows)?
            }
            Some(_) => csv_rows::read(text, &mut rows)?,
        }
        Ok(rows.file)
    }

    /// Refuses a file whose last line is cut off (for `merge`, which cannot recompute it).
    pub fn complete(self) -> Result<SweepFile, SweepError> {
        match self.cut_off {
            Some(CutOff { line, detail }) => Err(SweepError::CutOff { origin: self.origin, line, detail }),
            None => Ok(self),
        }
    }
}

/// Why one record is not a row.
enum Problem {
    /// Not a record of the format (or the wrong number of fields).
    Format(String),
    /// A record whose fields are not a valid row.
    Row(RowError),
}

impl From<RowError> for Problem {
    fn from(e: RowError) -> Problem {
        Problem::Row(e)
    }
}

/// Collects a file's rows, turning a bad last line that has no newline into a cut-off line.
struct Collector {
    file: SweepFile,
    terminated: bool,
}

impl Collector {
    /// Takes one record's row: `last` when nothing but blank text follows it.
    fn take(&mut self, line: usize, last: bool, row: Result<Row, Problem>) -> Result<(), SweepError> {
        let origin = || self.file.origin.clone();
        let cut_off = last && !self.terminated;
        match row {
            // A skip's reason may have lost its end; a skip carries no figures, so set it aside.
            Ok(row) if cut_off && row.is_skipped() => {
                self.file.cut_off = Some(CutOff { line, detail: "a skipped row without its newline".into() });
                Ok(())
            }
            Ok(row) => {
                self.file.rows.push((line, row));
                Ok(())
            }
            Err(problem) if cut_off => {
                let detail = match problem {
                    Problem::Format(detail) => detail,
                    Problem::Row(e) => e.to_string(),
                };
                self.file.cut_off = Some(CutOff { line, detail });
                Ok(())
            }
            Err(Problem::Format(detail)) => Err(SweepError::Format { origin: origin(), line, detail }),
            Err(Problem::Row(e)) => Err(SweepError::Row { origin: origin(), line, source: Box::new(e) }),
        }
    }

    /// An error at a line that is not a row (a header, a whole document).
    fn format_error(&self, line: usize, detail: String) -> SweepError {
        SweepError::Format { origin: self.file.origin.clone(), line, detail }
    }
}
