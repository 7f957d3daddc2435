//! Tables of figures rendered as Markdown, CSV, JSON or LaTeX (booktabs).

use serde_json::{Map, Value};

/// Output format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// GitHub-flavoured Markdown (the default).
    Markdown,
    /// Comma-separated values with a header row.
    Csv,
    /// JSON: objects keyed by column name.
    Json,
    /// LaTeX `booktabs` tables.
    Latex,
}

/// One typed cell, so JSON gets numbers and text formats get fixed decimals.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text.
    Text(String),
    /// An integer.
    Int(i128),
    /// A float shown with the given number of decimals.
    Float(f64, usize),
    /// A measured value: the given number of decimals in Markdown and LaTeX, full precision
    /// in JSON and CSV (for machines, which round themselves).
    Real(f64, usize),
    /// A list of integers (histograms).
    List(Vec<u64>),
    /// A yes/no flag.
    Bool(bool),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Int(i) => i.to_string(),
            Cell::Float(x, d) | Cell::Real(x, d) => format!("{x:.d$}"),
            Cell::List(v) => v.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
            Cell::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Text(s) => Value::String(s.clone()),
            Cell::Int(i) => serde_json::json!(i),
            // Round as printed: the JSON consumer sees the same figure as the table.
            Cell::Float(x, d) => serde_json::json!(format!("{x:.d$}").parse::<f64>().unwrap_or(*x)),
            Cell::Real(x, _) => serde_json::json!(x),
            Cell::List(v) => serde_json::json!(v),
            Cell::Bool(b) => Value::Bool(*b),
        }
    }
}

impl Cell {
    /// The text of a CSV field: as displayed, except full precision for [`Cell::Real`].
    fn csv_text(&self) -> String {
        match self {
            Cell::Real(x, _) => x.to_string(),
            other => other.text(),
        }
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}
impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}
impl From<u64> for Cell {
    fn from(i: u64) -> Cell {
        Cell::Int(i.into())
    }
}
impl From<u32> for Cell {
    fn from(i: u32) -> Cell {
        Cell::Int(i.into())
    }
}
impl From<bool> for Cell {
    fn from(b: bool) -> Cell {
        Cell::Bool(b)
    }
}

/// A titled table: column keys (JSON/CSV names) and rows of cells.
///
/// ```
/// use mmtree_io::{Cell, Format, Table};
/// let mut t = Table::new("Results", &["valuation", "total"]);
/// t.push(vec!["minimax".into(), Cell::Int(5801)]);
/// assert!(t.render(Format::Markdown).contains("| minimax | 5801 |"));
/// assert_eq!(t.render(Format::Csv), "valuation,total\nminimax,5801\n");
/// let mut avg = Table::new("Average", &["average"]);
/// avg.push(vec![Cell::Real(5801.0 / 1296.0, 3)]);
/// assert!(avg.render(Format::Markdown).contains("| 4.476 |"));
/// assert!(avg.render(Format::Json).contains("4.476080246913"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Caption.
    pub title: String,
    /// Column keys.
    pub columns: Vec<String>,
    /// Rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table.
    pub fn new(title: &str, columns: &[&str]) -> Table {
        Table { title: title.to_string(), columns: columns.iter().map(|c| c.to_string()).collect(), rows: Vec::new() }
    }

    /// Appends a row; panics if its length differs from the columns' (a bug in the caller).
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "BUG: row length differs from column count");
        self.rows.push(row);
    }

    /// The rows as JSON objects keyed by column.
    pub fn json_rows(&self) -> Vec<Value> {
        self.rows
            .iter()
            .map(|row| {
                let mut obj = Map::new();
                for (c, cell) in self.columns.iter().zip(row) {
                    obj.insert(c.clone(), cell.json());
                }
                Value::Object(obj)
            })
            .collect()
    }

    /// Renders one table.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Markdown => self.markdown(),
            Format::Csv => self.csv(),
            Format::Json => serde_json::to_string_pretty(&self.json_rows()).unwrap_or_default() + "\n",
            Format::Latex => self.latex(),
        }
    }

    /// One CSV line of a row (no header), for streaming writers.
    pub fn csv_line(cells: &[Cell]) -> String {
        cells.iter().map(|c| csv_field(&c.csv_text())).collect::<Vec<_>>().join(",") + "\n"
    }

    fn markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.title);
        out += &format!("| {} |\n", self.columns.iter().map(|c| c.replace('_', " ")).collect::<Vec<_>>().join(" | "));
        out += &format!(
            "|{}|\n",
            self.rows
                .first()
                .map(|r| r
                    .iter()
                    .map(|c| if matches!(c, Cell::Text(_) | Cell::List(_) | Cell::Bool(_)) { "---" } else { "--:" })
                    .collect::<Vec<_>>())
                .unwrap_or_else(|| vec!["---"; self.columns.len()])
                .join("|")
        );
        for row in &self.rows {
            out +=
                &format!("| {} |\n", row.iter().map(|c| c.text().replace('|', "\\|")).collect::<Vec<_>>().join(" | "));
        }
        out
    }

    fn csv(&self) -> String {
        let mut out = self.columns.iter().map(|c| csv_field(c)).collect::<Vec<_>>().join(",") + "\n";
        for row in &self.rows {
            out += &Table::csv_line(row);
        }
        out
    }

    fn latex(&self) -> String {
        let align: String = match self.rows.first() {
            Some(r) => r
                .iter()
                .map(|c| if matches!(c, Cell::Text(_) | Cell::List(_) | Cell::Bool(_)) { 'l' } else { 'r' })
                .collect(),
            None => "l".repeat(self.columns.len()),
        };
        let mut out = String::from("\\begin{table}[ht]\n\\centering\n");
        out += &format!("\\begin{{tabular}}{{{align}}}\n\\toprule\n");
        out += &format!(
            "{} \\\\\n\\midrule\n",
            self.columns.iter().map(|c| latex_escape(&c.replace('_', " "))).collect::<Vec<_>>().join(" & ")
        );
        for row in &self.rows {
            out += &format!("{} \\\\\n", row.iter().map(|c| latex_escape(&c.text())).collect::<Vec<_>>().join(" & "));
        }
        out += &format!("\\bottomrule\n\\end{{tabular}}\n\\caption{{{}}}\n\\end{{table}}\n", latex_escape(&self.title));
        out
    }
}

/// Renders several tables: one after another for text formats, one JSON array of
/// `{title, rows}` objects for JSON.
pub fn render_tables(tables: &[Table], format: Format) -> String {
    match format {
        Format::Json => {
            let all: Vec<Value> =
                tables.iter().map(|t| serde_json::json!({ "title": t.title, "rows": t.json_rows() })).collect();
            serde_json::to_string_pretty(&all).unwrap_or_default() + "\n"
        }
        Format::Csv => {
            tables.iter().map(|t| format!("# {}\n{}", t.title, t.render(format))).collect::<Vec<_>>().join("\n")
        }
        _ => tables.iter().map(|t| t.render(format)).collect::<Vec<_>>().join("\n"),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out += "\\textasciitilde{}",
            '^' => out += "\\textasciicircum{}",
            '\\' => out += "\\textbackslash{}",
            _ => out.push(ch),
        }
    }
    out
}
