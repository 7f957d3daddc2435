//! `mmtree sweep`: arguments, progress and output of a sweep; the grid, the rows, resuming
//! and row checks are mmtree-sweep's.
//!
//! Rows are sent here as they finish and appended to the output file, flushed, so an
//! interrupted sweep keeps every finished row; at the end the file is rewritten, atomically,
//! in grid order. With `--format md|latex` the rows stream to `FILE.partial.csv`, removed once
//! FILE holds the final table. Standard output gets the rows in grid order (CSV and JSON lines
//! as soon as the rows before them are done; Markdown and LaTeX at the end).
//!
//! `--resume FILE` reads FILE and `FILE.partial.csv` (whichever exist, in any format a sweep
//! writes), keeps every valid row, and computes the rest of the grid.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use mmtree_core::{FeedbackKind, MemoryLimit, Variant, MAX_COLOURS, MAX_PEGS};
use mmtree_io::plot::{sweep_svg, SweepPlot, SweepPoint};
use mmtree_io::write_atomic;
use mmtree_strategy::{Pool, Ties, Valuation};
use mmtree_sweep::{
    render, Duplicates, Grid, Resume, Row, RowKey, RowSet, RowWriter, Shard, Stream, Sweep, SweepError, SweepFile,
};

use crate::cli::{FormatArg, PlotKindArg, PoolArg, SweepArgs, TiesArg, ValuationsArg};
use crate::config;
use crate::progress;
use crate::UsageError;

/// A library error as the binary reports it: bad input exits 2, other failures 1.
pub fn sweep_error(e: SweepError) -> anyhow::Error {
    if e.is_bad_input() {
        UsageError(e.to_string()).into()
    } else {
        e.into()
    }
}

/// Parses `2..=5`, `2..5`, `4`, `2,3,5` (and mixtures) into sorted distinct values.
pub fn parse_range(text: &str, what: &str, max: u8) -> Result<Vec<u8>, UsageError> {
    let bad = |detail: String| UsageError(format!("invalid {what} range '{text}': {detail}"));
    let number = |t: &str| -> Result<u8, UsageError> {
        let t = t.trim();
        let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        match t.parse::<u8>() {
            Ok(value) if (1..=max).contains(&value) => Ok(value),
            Ok(_) => Err(bad(format!("{t} is not between 1 and {max}"))),
            Err(_) if digits => Err(bad(format!("{t} is out of range: not between 1 and {max}"))),
            Err(_) => Err(bad(format!("'{t}' is not a number"))),
        }
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
pub fn parse_shard(text: &str) -> Result<Shard, UsageError> {
    let bad = || UsageError(format!("invalid --shard '{text}': expected i/N with 1 <= i <= N, e.g. 2/8"));
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    Shard::new(i, n).map_err(|_| bad())
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

/// The grid the flags describe.
fn grid(args: &SweepArgs) -> Result<Grid, UsageError> {
    Ok(Grid {
        ns: parse_range(&args.n, "-n", MAX_PEGS)?,
        ks: parse_range(&args.k, "-k", MAX_COLOURS)?,
        variant: if args.distinct { Variant::Distinct } else { Variant::Repetition },
        feedback: if args.black_only { FeedbackKind::Black } else { FeedbackKind::BlackWhite },
        valuations: valuations(&args.valuation),
        pools: pools(&args.pool),
        ties: match args.ties {
            TiesArg::Smallest => Ties::Smallest,
            TiesArg::Largest => Ties::Largest,
        },
        shard: args.shard.as_deref().map(parse_shard).transpose()?,
    })
}

/// `FILE.partial.csv`: where a Markdown or LaTeX sweep streams its rows.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".partial.csv");
    PathBuf::from(name)
}

/// The rows of an earlier run: FILE and FILE.partial.csv, whichever exist. A last line cut
/// off by a killed run is left out (its row is computed again).
fn earlier_rows(path: &Path, quiet: bool) -> Result<RowSet> {
    let mut set = RowSet::new();
    let sources: Vec<PathBuf> = [path.to_path_buf(), partial_path(path)].into_iter().filter(|p| p.exists()).collect();
    if sources.is_empty() && !quiet {
        eprintln!("mmtree: {} does not exist yet; nothing to resume", path.display());
    }
    for source in sources {
        let file = SweepFile::read(&source).map_err(sweep_error)?;
        if let (Some(cut), false) = (&file.cut_off, quiet) {
            eprintln!("mmtree: {}:{}: the last line is cut off; its row is computed again", file.origin, cut.line);
        }
        set.add(file, Duplicates::Agree).map_err(sweep_error)?;
    }
    Ok(set)
}

/// A stream file that starts, atomically, with the header and the rows kept from earlier,
/// then takes each new row as it finishes.
fn open_stream(path: &Path, stream: Stream, kept: &[Row]) -> Result<RowWriter<File>> {
    let cannot = || format!("cannot write {}", path.display());
    let mut start = RowWriter::new(Vec::new(), stream, true)?;
    for row in kept {
        start.push(row)?;
    }
    write_atomic(path, &start.into_inner()?).with_context(cannot)?;
    let file = OpenOptions::new().append(true).open(path).with_context(cannot)?;
    Ok(RowWriter::new(file, stream, false)?)
}

/// Rows come in any order; `push` hands them out in grid order as soon as all earlier rows
/// are in.
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
        if let Some(&i) = self.position.get(&row.key) {
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
    let keys = grid(args)?.keys().map_err(sweep_error)?;
    let limit = match &args.memory_limit {
        Some(text) => MemoryLimit::parse(text).map_err(UsageError)?,
        None => MemoryLimit::machine_default(),
    };
    let format = config::format(args.format);
    let output = crate::cmd::files::check_output(args.output.as_deref(), "-o")?;
    let plot_output = crate::cmd::files::check_output(args.plot.as_deref(), "--plot")?;
    // The resume file may be the output (the documented idiom), never the plot.
    let resume: Vec<(&Path, &str)> = args.resume.iter().map(|p| (p.as_path(), "--resume")).collect();
    mmtree_io::refuse_same_file(&resume, &plot_output.iter().collect::<Vec<_>>())?;
    mmtree_io::refuse_same_file(&[], &output.iter().chain(&plot_output).collect::<Vec<_>>())?;

    // Rows already computed, kept and not recomputed.
    let earlier = match &args.resume {
        Some(path) => earlier_rows(path, quiet)?,
        None => RowSet::new(),
    };
    let plan = Resume::plan(&keys, earlier);
    if let (Some(path), true) = (&args.resume, plan.outside > 0 && !quiet) {
        eprintln!("mmtree: {} rows of {} are outside this grid; they are kept", plan.outside, path.display());
    }
    let mut all: Vec<RowKey> = plan.kept.iter().map(|r| r.key).chain(plan.todo.iter().copied()).collect();
    all.sort_unstable();

    // Where rows go as they finish: into a file only; standard output, a device or a FIFO
    // gets the final table.
    let streamed = args.output.as_ref().filter(|_| output.as_ref().is_some_and(mmtree_io::OutputPath::replaces_file));
    let stream_file = match (streamed, args.format) {
        (Some(path), FormatArg::Csv) => Some((path.clone(), Stream::Csv)),
        (Some(path), FormatArg::Json) => Some((path.clone(), Stream::JsonLines)),
        (Some(path), _) => Some((partial_path(path), Stream::Csv)),
        (None, _) => None,
    };
    let mut file_stream = match &stream_file {
        Some((path, stream)) => Some((path, open_stream(path, *stream, &plan.kept)?)),
        None => None,
    };
    let streams_to_stdout = args.output.is_none() && matches!(args.format, FormatArg::Csv | FormatArg::Json);
    let mut stdout_stream = match (streams_to_stdout, args.format) {
        (true, FormatArg::Csv) => Some(RowWriter::new(&mut *out, Stream::Csv, true)?),
        (true, _) => Some(RowWriter::new(&mut *out, Stream::JsonLines, false)?),
        (false, _) => None,
    };
    let mut ordered = Ordered::new(&all);
    let mut rows: Vec<Row> = Vec::with_capacity(all.len());
    let mut accept = |row: Row, new: bool| -> Result<()> {
        if let (Some((path, stream)), true) = (&mut file_stream, new) {
            stream.push(&row).with_context(|| format!("cannot write {}", path.display()))?;
        }
        for ready in ordered.push(row.clone()) {
            if let Some(stream) = &mut stdout_stream {
                stream.push(&ready)?;
            }
        }
        rows.push(row);
        Ok(())
    };
    for row in plan.kept {
        accept(row, false)?;
    }
    let sweep = Sweep::new(plan.todo, limit);
    let bar = progress::bar(sweep.work(), "secrets", quiet);
    let report = |n: u64| bar.inc(n);
    sweep.with_progress(&report).run(|row| accept(row, true))?;
    bar.finish_and_clear();
    drop(stdout_stream);

    rows.sort_by_key(|r| r.key);
    let title = match &args.shard {
        Some(s) => format!("Sweep, shard {s}"),
        None => "Sweep".to_string(),
    };
    match (&args.output, &output) {
        (Some(path), Some(output)) => {
            output.write(render(&rows, format, &title).as_bytes(), out)?;
            if streamed.is_some() && !matches!(args.format, FormatArg::Csv | FormatArg::Json) {
                let partial = partial_path(path);
                std::fs::remove_file(&partial).with_context(|| format!("cannot remove {}", partial.display()))?;
            }
        }
        _ if !streams_to_stdout => write!(out, "{}", render(&rows, format, &title))?,
        _ => {}
    }
    if let Some(plot_output) = &plot_output {
        let kind = match args.plot_kind {
            PlotKindArg::Excess => SweepPlot::Excess,
            PlotKindArg::Average => SweepPlot::Average,
            PlotKindArg::Winners => SweepPlot::Winners,
        };
        plot_output.write(plot(&rows, kind)?.as_bytes(), out)?;
    }
    Ok(())
}

/// The solved rows as plot points (the drawing is `mmtree_io::plot::sweep_svg`): one rule per
/// valuation, and pool when several pools were swept. Sweep rows come from the one-step rules,
/// never from an optimal search, so none is an optimum.
pub fn plot(rows: &[Row], kind: SweepPlot) -> Result<String> {
    let solved: Vec<(&RowKey, u64, f64)> =
        rows.iter().filter_map(|r| r.figures().map(|f| (&r.key, f.total, f.average()))).collect();
    let several_pools = solved.iter().any(|(k, _, _)| k.pool != solved[0].0.pool);
    let points: Vec<SweepPoint> = solved
        .iter()
        .map(|&(key, total, average)| {
            let valuation = key.valuation.name();
            SweepPoint {
                n: key.n,
                k: key.k,
                rule: if several_pools { format!("{valuation} ({})", key.pool.name()) } else { valuation.to_string() },
                average,
                total,
                optimal: false,
            }
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
        let huge = parse_range("18446744073709551615", "-n", 10).unwrap_err().to_string();
        assert!(huge.contains("out of range") && !huge.contains("not a number"), "{huge}");
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("2/8").unwrap(), Shard::new(2, 8).unwrap());
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
