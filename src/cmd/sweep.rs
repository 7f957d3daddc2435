//! `mmtree sweep`: one `solve` row per (n, k, variant, feedback, valuation, pool) of a grid.
//!
//! Rows are computed game by game (one code space, and feedback table, at a time; the rules
//! of a game run in parallel) and sent to the main thread, which appends each to the output
//! file as it finishes and flushes, so an interrupted sweep keeps every finished row. At the
//! end the file is rewritten, atomically, in grid order. With `--format md|latex` the rows
//! stream to `FILE.partial.csv`, which is removed once FILE holds the final table.
//! Standard output gets the rows in grid order (CSV and JSON lines as soon as the rows
//! before them are done; Markdown and LaTeX at the end).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde_json::Value;

use mmtree_core::{Alphabet, FeedbackKind, Game, GameSpec, MemoryLimit, Variant, MAX_COLOURS, MAX_PEGS};
use mmtree_io::plot::{sweep_svg, SweepPlot, SweepPoint};
use mmtree_io::{write_atomic, Cell, Format, Table};
use mmtree_strategy::{GuessRule, Pool, Solver, Ties, Valuation};

use crate::cli::{FormatArg, PlotKindArg, PoolArg, SweepArgs, TiesArg, ValuationsArg};
use crate::config::{self, GameConfig};
use crate::progress;
use crate::report::SolveReport;
use crate::UsageError;

/// The column a skipped row gives its reason in (empty for solved rows).
pub const SKIPPED: &str = "skipped";

/// What identifies a row: the game and the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowKey {
    pub n: u8,
    pub k: u8,
    pub variant: Variant,
    pub feedback: FeedbackKind,
    pub valuation: Valuation,
    pub pool: Pool,
    pub ties: Ties,
}

impl RowKey {
    /// Grid order: n, k, variant, feedback, valuation (table order), pool, ties.
    pub fn order(&self) -> (u8, u8, u8, u8, usize, u8, u8) {
        (
            self.n,
            self.k,
            (self.variant == Variant::Distinct) as u8,
            (self.feedback == FeedbackKind::Black) as u8,
            Valuation::ALL.iter().position(|&v| v == self.valuation).unwrap_or(usize::MAX),
            (self.pool == Pool::Candidates) as u8,
            (self.ties == Ties::Largest) as u8,
        )
    }

    pub fn spec(&self) -> GameSpec {
        GameSpec { n: self.n, k: self.k, variant: self.variant, feedback: self.feedback }
    }

    fn rule(&self) -> GuessRule {
        GuessRule { pool: self.pool, ties: self.ties, ..GuessRule::new(self.valuation) }
    }

    /// `[4,6] repetition black-white minimax all smallest`, for messages.
    pub fn describe(&self) -> String {
        format!(
            "[{},{}] {} {} {} {} {}",
            self.n,
            self.k,
            self.variant.name(),
            self.feedback.name(),
            self.valuation.name(),
            self.pool.name(),
            self.ties.name()
        )
    }
}

/// A row: a solved rule's figures, or why the game was skipped.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    Solved(SolveReport),
    Skipped(RowKey, String),
}

impl Row {
    pub fn key(&self) -> RowKey {
        match self {
            Row::Skipped(key, _) => *key,
            Row::Solved(r) => RowKey {
                n: r.n,
                k: r.k,
                variant: variant_named(r.variant).expect("a report names a known variant"),
                feedback: feedback_named(r.feedback).expect("a report names a known feedback"),
                valuation: Valuation::from_name(r.valuation).expect("a report names a known valuation"),
                pool: pool_named(r.pool).expect("a report names a known pool"),
                ties: ties_named(r.ties).expect("a report names a known tie order"),
            },
        }
    }

    /// The columns of [`SolveReport::COLUMNS`] then [`SKIPPED`].
    pub fn columns() -> Vec<&'static str> {
        let mut c = SolveReport::COLUMNS.to_vec();
        c.push(SKIPPED);
        c
    }

    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Row::Solved(r) => {
                let mut c = r.cells();
                c.push("".into());
                c
            }
            Row::Skipped(key, reason) => {
                let mut c = key_cells(key);
                c.extend(std::iter::repeat_n(Cell::Text(String::new()), 5));
                c.push(reason.as_str().into());
                c
            }
        }
    }

    /// A solved row is exactly `solve --format json`'s object; a skipped row has the same
    /// keys with null figures, plus `skipped`.
    pub fn json(&self) -> Value {
        match self {
            Row::Solved(r) => serde_json::to_value(r).expect("a report serialises"),
            Row::Skipped(key, reason) => serde_json::json!({
                "n": key.n, "k": key.k, "variant": key.variant.name(), "feedback": key.feedback.name(),
                "valuation": key.valuation.name(), "pool": key.pool.name(), "ties": key.ties.name(),
                "first_guess": null, "max": null, "total": null, "average": null, "histogram": null,
                SKIPPED: reason,
            }),
        }
    }

    /// One line of the streamed form: CSV (after the header) or JSON lines.
    fn line(&self, format: StreamFormat) -> String {
        match format {
            StreamFormat::Csv => Table::csv_line(&self.cells()),
            StreamFormat::JsonLines => self.json().to_string() + "\n",
        }
    }

    /// Reads a row from named text fields (CSV cells or JSON values as text), checking that
    /// its figures agree with each other and with the game.
    pub fn from_fields(get: &dyn Fn(&str) -> Option<String>) -> Result<Row, String> {
        let field = |name: &str| get(name).ok_or_else(|| format!("missing column '{name}'"));
        let number = |name: &str| -> Result<u64, String> {
            let text = field(name)?;
            text.trim().parse::<u64>().map_err(|_| format!("{name} '{text}' is not a number"))
        };
        let small = |name: &str| -> Result<u8, String> {
            u8::try_from(number(name)?).map_err(|_| format!("{name} is out of range"))
        };
        let named = |name: &str| field(name).map(|t| t.trim().to_string());
        let bad = |name: &str, value: &str| format!("unknown {name} '{value}'");
        let variant = named("variant")?;
        let feedback = named("feedback")?;
        let valuation = named("valuation")?;
        let pool = named("pool")?;
        let ties = named("ties")?;
        let key = RowKey {
            n: small("n")?,
            k: small("k")?,
            variant: variant_named(&variant).ok_or_else(|| bad("variant", &variant))?,
            feedback: feedback_named(&feedback).ok_or_else(|| bad("feedback", &feedback))?,
            valuation: Valuation::from_name(&valuation).ok_or_else(|| bad("valuation", &valuation))?,
            pool: pool_named(&pool).ok_or_else(|| bad("pool", &pool))?,
            ties: ties_named(&ties).ok_or_else(|| bad("ties", &ties))?,
        };
        let reason = get(SKIPPED).unwrap_or_default();
        if !reason.trim().is_empty() {
            return Ok(Row::Skipped(key, reason));
        }
        let game = Game::new(key.spec()).map_err(|e| e.to_string())?;
        let histogram: Vec<u64> = field("histogram")?
            .split_whitespace()
            .map(|t| t.parse::<u64>().map_err(|_| format!("histogram entry '{t}' is not a number")))
            .collect::<Result<_, _>>()?;
        let max = u32::try_from(number("max")?).map_err(|_| "max is out of range".to_string())?;
        let total = number("total")?;
        let secrets: u64 = histogram.iter().sum();
        if u128::from(secrets) != game.code_count() {
            return Err(format!("histogram counts {secrets} secrets, the game {game} has {}", game.code_count()));
        }
        let weighted: u64 = histogram.iter().enumerate().map(|(i, &h)| (i as u64 + 1) * h).sum();
        if weighted != total {
            return Err(format!("total {total} differs from the histogram's {weighted}"));
        }
        if histogram.last() == Some(&0) || max as usize != histogram.len() {
            return Err(format!("max {max} differs from the histogram's {}", histogram.len()));
        }
        let average = total as f64 / secrets as f64;
        let given = field("average")?;
        let given: f64 = given.trim().parse().map_err(|_| format!("average '{given}' is not a number"))?;
        if (given - average).abs() > 0.0005 + 1e-9 {
            return Err(format!("average {given} differs from total / secrets = {average:.3}"));
        }
        let first_guess = field("first_guess")?.trim().to_string();
        if first_guess.chars().count() != key.n as usize {
            return Err(format!("first guess '{first_guess}' does not have {} symbols", key.n));
        }
        Ok(Row::Solved(SolveReport {
            n: key.n,
            k: key.k,
            variant: key.variant.name(),
            feedback: key.feedback.name(),
            valuation: key.valuation.name(),
            pool: key.pool.name(),
            ties: key.ties.name(),
            first_guess,
            max,
            total,
            average,
            histogram,
        }))
    }
}

fn key_cells(key: &RowKey) -> Vec<Cell> {
    vec![
        Cell::Int(key.n.into()),
        Cell::Int(key.k.into()),
        key.variant.name().into(),
        key.feedback.name().into(),
        key.valuation.name().into(),
        key.pool.name().into(),
        key.ties.name().into(),
    ]
}

fn variant_named(name: &str) -> Option<Variant> {
    [Variant::Repetition, Variant::Distinct].into_iter().find(|v| v.name() == name)
}
fn feedback_named(name: &str) -> Option<FeedbackKind> {
    [FeedbackKind::BlackWhite, FeedbackKind::Black].into_iter().find(|v| v.name() == name)
}
fn pool_named(name: &str) -> Option<Pool> {
    [Pool::All, Pool::Candidates].into_iter().find(|v| v.name() == name)
}
fn ties_named(name: &str) -> Option<Ties> {
    [Ties::Smallest, Ties::Largest].into_iter().find(|v| v.name() == name)
}

/// Splits one CSV line into fields (quotes as `Table::csv_line` writes them).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn json_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(json_text).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// Reads the rows of a sweep (or `solve`) output: CSV with a header row, JSON lines, or a
/// JSON array of row objects. Every row is checked; errors name the file and line.
pub fn read_rows(path: &Path) -> Result<Vec<(usize, Row)>> {
    let text = match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(UsageError(format!("{}: no such file", path.display())).into())
        }
        other => other.with_context(|| format!("cannot read {}", path.display()))?,
    };
    let at = |line: usize, e: String| UsageError(format!("{}:{line}: {e}", path.display()));
    let mut rows = Vec::new();
    let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim().is_empty());
    let Some((first_no, first)) = lines.clone().next() else { return Ok(rows) };
    let trimmed = first.trim_start();
    if trimmed.starts_with('[') {
        let values: Vec<Value> =
            serde_json::from_str(&text).map_err(|e| at(first_no, format!("not a JSON array of rows: {e}")))?;
        for (i, v) in values.iter().enumerate() {
            rows.push((i + 1, json_row(v).map_err(|e| at(first_no, format!("row {}: {e}", i + 1)))?));
        }
    } else if trimmed.starts_with('{') {
        for (no, line) in lines {
            let value: Value = serde_json::from_str(line).map_err(|e| at(no, format!("not a JSON row: {e}")))?;
            rows.push((no, json_row(&value).map_err(|e| at(no, e))?));
        }
    } else {
        let mut lines = lines.filter(|(_, l)| !l.starts_with('#'));
        let Some((header_no, header)) = lines.next() else { return Ok(rows) };
        let columns = csv_fields(header);
        if !columns.iter().any(|c| c == "valuation") {
            return Err(at(header_no, "expected a CSV header with the sweep's columns, or JSON lines".into()).into());
        }
        for (no, line) in lines {
            let fields = csv_fields(line);
            if fields.len() != columns.len() {
                return Err(at(no, format!("{} fields, the header has {}", fields.len(), columns.len())).into());
            }
            let get = |name: &str| columns.iter().position(|c| c == name).map(|i| fields[i].clone());
            rows.push((no, Row::from_fields(&get).map_err(|e| at(no, e))?));
        }
    }
    Ok(rows)
}

fn json_row(value: &Value) -> Result<Row, String> {
    let object = value.as_object().ok_or("a row must be a JSON object")?;
    Row::from_fields(&|name: &str| object.get(name).map(json_text))
}

/// Renders rows (already in grid order) in a final format; JSON is one object per line.
pub fn render(rows: &[Row], format: Format, title: &str) -> String {
    match format {
        Format::Json => rows.iter().map(|r| r.json().to_string() + "\n").collect(),
        format => {
            let columns = Row::columns();
            let mut table = Table::new(title, &columns);
            for row in rows {
                table.push(row.cells());
            }
            table.render(format)
        }
    }
}

/// Sorts rows into grid order.
pub fn sort_rows(rows: &mut [Row]) {
    rows.sort_by_key(|r| r.key().order());
}

/// Parses `2..=5`, `2..5`, `4`, `2,3,5` (and mixtures) into sorted distinct values.
pub fn parse_range(text: &str, what: &str, max: u8) -> Result<Vec<u8>, UsageError> {
    let bad = |detail: String| UsageError(format!("invalid {what} range '{text}': {detail}"));
    let number = |t: &str| -> Result<u8, UsageError> {
        let value: u8 = t.trim().parse().map_err(|_| bad(format!("'{}' is not a number", t.trim())))?;
        if value == 0 || value > max {
            return Err(bad(format!("{value} is not between 1 and {max}")));
        }
        Ok(value)
    };
    let mut values = Vec::new();
    for item in text.split(',') {
        if let Some((a, b)) = item.split_once("..=") {
            values.extend(number(a)?..=number(b)?);
        } else if let Some((a, b)) = item.split_once("..") {
            values.extend(number(a)?..number(b)?);
        } else {
            values.push(number(item)?);
        }
    }
    values.sort_unstable();
    values.dedup();
    if values.is_empty() {
        return Err(bad("the range is empty".into()));
    }
    Ok(values)
}

/// `i/N` with `1 <= i <= N`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), UsageError> {
    let bad = || UsageError(format!("invalid --shard '{text}': expected i/N with 1 <= i <= N, e.g. 2/8"));
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The valuations a list names (`all` = the four, in table order).
pub fn valuations(args: &[ValuationsArg]) -> Vec<Valuation> {
    let mut out: Vec<Valuation> = Vec::new();
    for arg in args {
        let add: Vec<Valuation> = match arg {
            ValuationsArg::All => Valuation::ALL.to_vec(),
            ValuationsArg::Minimax => vec![Valuation::Minimax],
            ValuationsArg::ExpectedSize => vec![Valuation::ExpectedSize],
            ValuationsArg::Entropy => vec![Valuation::Entropy],
            ValuationsArg::MostParts => vec![Valuation::MostParts],
        };
        out.extend(add);
    }
    Valuation::ALL.into_iter().filter(|v| out.contains(v)).collect()
}

/// The pools a list names, in the order all, candidates.
pub fn pools(args: &[PoolArg]) -> Vec<Pool> {
    let mut out = Vec::new();
    if args.contains(&PoolArg::All) {
        out.push(Pool::All);
    }
    if args.contains(&PoolArg::Candidates) {
        out.push(Pool::Candidates);
    }
    out
}

/// Every key of the grid, in grid order.
fn grid(args: &SweepArgs) -> Result<Vec<RowKey>, UsageError> {
    let ns = parse_range(&args.n, "-n", MAX_PEGS)?;
    let ks = parse_range(&args.k, "-k", MAX_COLOURS)?;
    let variant = if args.distinct { Variant::Distinct } else { Variant::Repetition };
    let feedback = if args.black_only { FeedbackKind::Black } else { FeedbackKind::BlackWhite };
    let ties = match args.ties {
        TiesArg::Smallest => Ties::Smallest,
        TiesArg::Largest => Ties::Largest,
    };
    let mut keys = Vec::new();
    for &n in &ns {
        for &k in &ks {
            for &valuation in &valuations(&args.valuation) {
                for &pool in &pools(&args.pool) {
                    keys.push(RowKey { n, k, variant, feedback, valuation, pool, ties });
                }
            }
        }
    }
    Ok(keys)
}

#[derive(Clone, Copy)]
enum StreamFormat {
    Csv,
    JsonLines,
}

/// The file rows are appended to as they finish.
struct Stream {
    file: BufWriter<File>,
    path: PathBuf,
    format: StreamFormat,
}

impl Stream {
    fn create(path: &Path, format: StreamFormat) -> Result<Stream> {
        let file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut stream = Stream { file: BufWriter::new(file), path: path.to_path_buf(), format };
        if let StreamFormat::Csv = format {
            let header = Row::columns().join(",") + "\n";
            stream.file.write_all(header.as_bytes())?;
            stream.file.flush()?;
        }
        Ok(stream)
    }

    fn push(&mut self, row: &Row) -> Result<()> {
        self.file.write_all(row.line(self.format).as_bytes())?;
        self.file.flush().with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// Rows come in any order; `ready` hands them out in grid order as soon as all earlier
/// rows are in.
struct Ordered {
    position: HashMap<RowKey, usize>,
    pending: BTreeMap<usize, Row>,
    next: usize,
}

impl Ordered {
    fn new(keys: &[RowKey]) -> Ordered {
        Ordered { position: keys.iter().enumerate().map(|(i, &k)| (k, i)).collect(), pending: BTreeMap::new(), next: 0 }
    }

    fn push(&mut self, row: Row) -> Vec<Row> {
        if let Some(&i) = self.position.get(&row.key()) {
            self.pending.insert(i, row);
        }
        let mut ready = Vec::new();
        while let Some(row) = self.pending.remove(&self.next) {
            ready.push(row);
            self.next += 1;
        }
        ready
    }
}

pub fn run(args: &SweepArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let mut keys = grid(args)?;
    if let Some(text) = &args.shard {
        let (i, n) = parse_shard(text)?;
        keys = keys.into_iter().enumerate().filter(|(j, _)| j % n == i - 1).map(|(_, k)| k).collect();
    }
    let limit = match &args.memory_limit {
        Some(text) => MemoryLimit::parse(text).map_err(UsageError)?,
        None => MemoryLimit::machine_default(),
    };
    let format = config::format(args.format);

    // Rows already computed, kept and not recomputed.
    let wanted: HashSet<RowKey> = keys.iter().copied().collect();
    let mut done: Vec<Row> = Vec::new();
    if let Some(path) = &args.resume {
        if path.exists() {
            let mut seen = HashSet::new();
            for (_, row) in read_rows(path)? {
                let key = row.key();
                if wanted.contains(&key) && seen.insert(key) {
                    done.push(row);
                }
            }
        } else if !quiet {
            eprintln!("mmtree: {} does not exist yet; nothing to resume", path.display());
        }
    }
    let done_keys: HashSet<RowKey> = done.iter().map(Row::key).collect();
    let todo: Vec<RowKey> = keys.iter().copied().filter(|k| !done_keys.contains(k)).collect();

    // Where rows go as they finish.
    let mut stream = match (&args.output, args.format) {
        (Some(path), FormatArg::Csv) => Some(Stream::create(path, StreamFormat::Csv)?),
        (Some(path), FormatArg::Json) => Some(Stream::create(path, StreamFormat::JsonLines)?),
        (Some(path), _) => Some(Stream::create(&partial_path(path), StreamFormat::Csv)?),
        (None, _) => None,
    };
    let stdout_stream = match (&args.output, args.format) {
        (None, FormatArg::Csv) => {
            write!(out, "{}", Row::columns().join(",") + "\n")?;
            Some(StreamFormat::Csv)
        }
        (None, FormatArg::Json) => Some(StreamFormat::JsonLines),
        _ => None,
    };
    let mut ordered = Ordered::new(&keys);
    let mut rows: Vec<Row> = Vec::with_capacity(keys.len());
    let mut accept = |row: Row, out: &mut dyn Write| -> Result<()> {
        if let Some(stream) = &mut stream {
            stream.push(&row)?;
        }
        for ready in ordered.push(row.clone()) {
            if let Some(f) = stdout_stream {
                out.write_all(ready.line(f).as_bytes())?;
                out.flush()?;
            }
        }
        rows.push(row);
        Ok(())
    };
    for row in done {
        accept(row, out)?;
    }

    let work: u64 = todo
        .iter()
        .filter_map(|k| Game::new(k.spec()).ok().filter(|g| limit.check(g).is_ok()))
        .map(|g| g.code_count() as u64)
        .sum();
    let bar = progress::bar(work, "secrets", quiet);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Row>();
    std::thread::scope(|scope| -> Result<()> {
        let todo = &todo;
        let (bar, stop) = (&bar, &stop);
        scope.spawn(move || compute(todo, limit, bar, stop, tx));
        let mut result = Ok(());
        for row in rx {
            if result.is_ok() {
                result = accept(row, out);
                if result.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        result
    })?;
    bar.finish_and_clear();

    sort_rows(&mut rows);
    let title = match &args.shard {
        Some(s) => format!("Sweep, shard {s}"),
        None => "Sweep".to_string(),
    };
    match &args.output {
        Some(path) => {
            write_atomic(path, render(&rows, format, &title).as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            if !matches!(args.format, FormatArg::Csv | FormatArg::Json) {
                let partial = partial_path(path);
                std::fs::remove_file(&partial).with_context(|| format!("cannot remove {}", partial.display()))?;
            }
        }
        None if stdout_stream.is_none() => write!(out, "{}", render(&rows, format, &title))?,
        None => {}
    }
    if let Some(path) = &args.plot {
        let kind = match args.plot_kind {
            PlotKindArg::Excess => SweepPlot::Excess,
            PlotKindArg::Average => SweepPlot::Average,
            PlotKindArg::Winners => SweepPlot::Winners,
        };
        let svg = plot(&rows, kind)?;
        write_atomic(path, svg.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// `FILE.partial.csv`: where a Markdown or LaTeX sweep streams its rows.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".partial.csv");
    PathBuf::from(name)
}

/// Solves the keys game by game (keys of one game are adjacent in grid order), sending each
/// row as it finishes. Games that are invalid or too large become skipped rows.
fn compute(
    todo: &[RowKey],
    limit: MemoryLimit,
    bar: &indicatif::ProgressBar,
    stop: &AtomicBool,
    tx: mpsc::Sender<Row>,
) {
    let report = |n: u64| bar.inc(n);
    for group in todo.chunk_by(|a, b| a.spec() == b.spec()) {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let skip_all = |reason: String| {
            for &key in group {
                let _ = tx.send(Row::Skipped(key, reason.clone()));
            }
        };
        let game = match Game::new(group[0].spec()).and_then(|g| limit.check(&g).map(|()| g)) {
            Ok(game) => game,
            Err(e) => {
                skip_all(e.to_string());
                continue;
            }
        };
        let config = GameConfig { game, alphabet: Alphabet::default(), limit };
        let space = match config.space() {
            Ok(space) => space,
            Err(e) => {
                skip_all(e.to_string());
                continue;
            }
        };
        group.par_iter().for_each(|key| {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let rule = key.rule();
            let tree = Solver::new(&space, rule).with_progress(&report).build();
            let row = Row::Solved(SolveReport::new(&game, &rule, &tree, &space, &config.alphabet));
            if tx.send(row).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        });
    }
}

/// The solved rows as plot points (the drawing is `mmtree_io::plot::sweep_svg`): one rule per
/// valuation, and pool when several pools were swept.
pub fn plot(rows: &[Row], kind: SweepPlot) -> Result<String> {
    let solved: Vec<&SolveReport> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Solved(s) => Some(s),
            Row::Skipped(..) => None,
        })
        .collect();
    let several_pools = solved.iter().any(|r| r.pool != solved[0].pool);
    let points: Vec<SweepPoint> = solved
        .iter()
        .map(|r| SweepPoint {
            n: r.n,
            k: r.k,
            rule: if several_pools { format!("{} ({})", r.valuation, r.pool) } else { r.valuation.to_string() },
            average: r.average,
            total: r.total,
            optimal: r.valuation == "optimal-average",
        })
        .collect();
    Ok(sweep_svg(&points, kind)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("2..=5", "-n", 10).unwrap(), [2, 3, 4, 5]);
        assert_eq!(parse_range("2..5", "-n", 10).unwrap(), [2, 3, 4]);
        assert_eq!(parse_range("4", "-n", 10).unwrap(), [4]);
        assert_eq!(parse_range("5,2,3", "-n", 10).unwrap(), [2, 3, 5]);
        assert_eq!(parse_range("2..4,7", "-n", 10).unwrap(), [2, 3, 7]);
        assert!(parse_range("0..=3", "-n", 10).is_err());
        assert!(parse_range("5..2", "-n", 10).is_err());
        assert!(parse_range("2..=11", "-n", 10).is_err());
        assert!(parse_range("two", "-n", 10).is_err());
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("2/8").unwrap(), (2, 8));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(csv_fields("a,\"b,c\",\"d\"\"e\",,"), ["a", "b,c", "d\"e", "", ""]);
    }
}
