//! The `mmtree games` subcommands and their md/csv/json output.

use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

use crate::sg::certified_period;
use crate::{
    detect_period, misere_nim_outcome, misere_winning_moves, nim_outcome, nim_sum, octal_sg, subtraction_sg,
    validate_moves, GameGraph, GamesError, Move, OctalGame, Outcome, Periodicity,
};

/// Largest `--up-to` accepted by `games subtraction`.
pub const MAX_SUBTRACTION_UP_TO: usize = 1_000_000;
/// Largest `--up-to` accepted by `games octal` (the cost grows quadratically).
pub const MAX_OCTAL_UP_TO: usize = 50_000;
/// Most elementary steps (one option's value looked up) one sequence may take: about five
/// seconds; Kayles to the largest `--up-to` takes 1.25e9.
const WORK_LIMIT: f64 = 4e9;
/// Largest game graph file read (the parser holds about 4 bytes per character).
const GRAPH_LIMIT: u64 = 64 << 20;

/// Refuses a sequence whose estimated cost `steps(up_to)` exceeds [`WORK_LIMIT`], naming the
/// largest `--up-to` that fits (`steps` grows with `up_to`).
fn check_work(what: String, up_to: usize, steps: impl Fn(usize) -> f64) -> Result<(), GamesError> {
    let total = steps(up_to);
    if total <= WORK_LIMIT {
        return Ok(());
    }
    let (mut fits, mut too_big) = (0, up_to);
    while too_big - fits > 1 {
        let mid = fits + (too_big - fits) / 2;
        if steps(mid) <= WORK_LIMIT {
            fits = mid;
        } else {
            too_big = mid;
        }
    }
    let hint = if steps(0) <= WORK_LIMIT {
        format!("lower --up-to to at most {fits}")
    } else {
        "give fewer moves".to_string()
    };
    Err(GamesError::TooMuchWork { what, steps: total, limit: WORK_LIMIT, hint })
}

/// Output format of the `games` subcommands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Markdown tables and prose (the default).
    #[default]
    Md,
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON document.
    Json,
}

/// `mmtree games <subcommand>`: impartial games analysed by backward induction.
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum GamesCommand {
    /// Sprague-Grundy values of a subtraction game (one heap; remove m tokens, m in the move set).
    Subtraction {
        /// The subtraction set, comma-separated, e.g. 1,2,3.
        #[arg(long, value_delimiter = ',', num_args = 1..)]
        moves: Vec<usize>,
        /// Compute g(0), ..., g(UP_TO).
        #[arg(long, default_value_t = 30)]
        up_to: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Md)]
        format: Format,
    },
    /// Nim: nim-sum, P or N (Bouton's theorem) and every winning move.
    Nim {
        /// Heap sizes, e.g. 5 7 9.
        #[arg(required = true)]
        heaps: Vec<u64>,
        /// Misère play: whoever takes the last token loses.
        #[arg(long)]
        misere: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Md)]
        format: Format,
    },
    /// Sprague-Grundy sequence of an octal game (Kayles 0.77, Dawson's Kayles 0.07) with its period.
    Octal {
        /// Octal code d0.d1d2..., e.g. 0.77.
        code: String,
        /// Compute g(0), ..., g(UP_TO).
        #[arg(long, default_value_t = 100)]
        up_to: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Md)]
        format: Format,
    },
    /// P/N positions and SG values of a finite acyclic game given as a DOT digraph.
    Graph {
        /// The DOT file (`-` reads standard input).
        file: PathBuf,
        /// Print only the annotated DOT graph (labels `id\nSG=g P|N`).
        #[arg(long)]
        dot: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Md)]
        format: Format,
    },
}

/// Run one `games` subcommand, writing its report to `out`.
///
/// Bad input (empty move set, move 0, malformed octal code, unreadable or
/// malformed DOT, a cyclic game graph) is reported as a [`GamesError`].
///
/// ```
/// use mmtree_games::{run, Format, GamesCommand};
/// let cmd = GamesCommand::Nim { heaps: vec![5, 7, 9], misere: false, format: Format::Csv };
/// let mut out = Vec::new();
/// run(&cmd, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("5 7 9,normal,11,N,3,9,2,7"));
/// ```
pub fn run(cmd: &GamesCommand, out: &mut dyn Write) -> Result<(), GamesError> {
    match cmd {
        GamesCommand::Subtraction { moves, up_to, format } => run_subtraction(moves, *up_to, *format, out),
        GamesCommand::Nim { heaps, misere, format } => run_nim(heaps, *misere, *format, out),
        GamesCommand::Octal { code, up_to, format } => run_octal(code, *up_to, *format, out),
        GamesCommand::Graph { file, dot, format } => run_graph(file, *dot, *format, out),
    }
}

// ---------------------------------------------------------------------------
// Sequences (subtraction and octal games)

#[derive(Serialize)]
struct PeriodReport {
    preperiod: usize,
    period: usize,
    last_exception: Option<usize>,
    /// true: proved by a periodicity theorem; false: only observed in range.
    proved: bool,
    /// When not proved: the `--up-to` that would prove this period.
    #[serde(skip_serializing_if = "Option::is_none")]
    up_to_needed: Option<usize>,
}

#[derive(Serialize)]
struct SequenceReport {
    game: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
    title: String,
    up_to: usize,
    values: Vec<u32>,
    p_positions: Vec<usize>,
    periodicity: Option<PeriodReport>,
    #[serde(skip)]
    theorem: &'static str,
    /// The largest `--up-to` the command accepts.
    #[serde(skip)]
    max_up_to: usize,
}

fn period_report(
    values: &[u32],
    proved: Option<Periodicity>,
    needed: impl Fn(usize, usize) -> usize,
) -> Option<PeriodReport> {
    if let Some(p) = proved {
        return Some(PeriodReport {
            preperiod: p.preperiod,
            period: p.period,
            last_exception: p.last_exception(),
            proved: true,
            up_to_needed: None,
        });
    }
    detect_period(values).map(|p| PeriodReport {
        preperiod: p.preperiod,
        period: p.period,
        last_exception: p.last_exception(),
        proved: false,
        up_to_needed: Some(needed(p.preperiod, p.period).saturating_sub(1)),
    })
}

fn run_subtraction(moves: &[usize], up_to: usize, format: Format, out: &mut dyn Write) -> Result<(), GamesError> {
    let moves = validate_moves(moves)?;
    if up_to > MAX_SUBTRACTION_UP_TO {
        return Err(GamesError::TooLarge { what: "--up-to", value: up_to, max: MAX_SUBTRACTION_UP_TO });
    }
    let what = format!("g(0), ..., g({up_to}) with {} moves", moves.len());
    check_work(what, up_to, |n| crate::sg::subtraction_steps(&moves, n))?;
    let values = subtraction_sg(&moves, up_to);
    let k = moves.iter().copied().max().unwrap_or(0);
    let needed = |i: usize, p: usize| crate::sg::needed_without_splits(i, p, k);
    let proved = certified_period(&values, needed);
    let list = moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ");
    let report = SequenceReport {
        game: "subtraction",
        moves: Some(moves.clone()),
        code: None,
        name: None,
        title: format!("Subtraction game S = {{{list}}}"),
        up_to,
        p_positions: p_positions(&values),
        periodicity: period_report(&values, proved, needed),
        values,
        theorem: "the window argument (g(n) depends only on the previous max(S) values)",
        max_up_to: MAX_SUBTRACTION_UP_TO,
    };
    write_sequence(&report, format, out)
}

fn run_octal(code: &str, up_to: usize, format: Format, out: &mut dyn Write) -> Result<(), GamesError> {
    let game = OctalGame::parse(code)?;
    if up_to > MAX_OCTAL_UP_TO {
        return Err(GamesError::TooLarge { what: "--up-to", value: up_to, max: MAX_OCTAL_UP_TO });
    }
    check_work(format!("g(0), ..., g({up_to}) of {game}"), up_to, |n| crate::octal::octal_steps(&game, n))?;
    let values = octal_sg(&game, up_to);
    let proved = crate::octal_periodicity(&game, &values);
    let needed = |i: usize, p: usize| crate::octal::values_needed(&game, i, p);
    let title = match game.name() {
        Some(name) => format!("Octal game {game} ({name})"),
        None => format!("Octal game {game}"),
    };
    let report = SequenceReport {
        game: "octal",
        moves: None,
        code: Some(game.to_string()),
        name: game.name(),
        title,
        up_to,
        p_positions: p_positions(&values),
        periodicity: period_report(&values, proved, needed),
        values,
        theorem: "the octal periodicity theorem",
        max_up_to: MAX_OCTAL_UP_TO,
    };
    write_sequence(&report, format, out)
}

fn p_positions(values: &[u32]) -> Vec<usize> {
    values.iter().enumerate().filter(|&(_, &g)| g == 0).map(|(n, _)| n).collect()
}

fn write_sequence(r: &SequenceReport, format: Format, out: &mut dyn Write) -> Result<(), GamesError> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, r)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "n,sg,outcome")?;
            for (n, &g) in r.values.iter().enumerate() {
                writeln!(out, "{n},{g},{}", Outcome::from_sg(g))?;
            }
        }
        Format::Md => {
            writeln!(out, "## {}, n = 0..{}\n", r.title, r.up_to)?;
            let width = match &r.periodicity {
                Some(p) if (2..=24).contains(&p.period) => p.period,
                _ => 10,
            };
            writeln!(out, "Sprague-Grundy values g(n); the row labelled r holds n = r + 0, ..., r + {}.\n", width - 1)?;
            write!(out, "| n |")?;
            for c in 0..width {
                write!(out, " +{c} |")?;
            }
            write!(out, "\n|---:|")?;
            for _ in 0..width {
                write!(out, "---:|")?;
            }
            writeln!(out)?;
            for (row, chunk) in r.values.chunks(width).enumerate() {
                write!(out, "| {} |", row * width)?;
                for g in chunk {
                    write!(out, " {g} |")?;
                }
                for _ in chunk.len()..width {
                    write!(out, " |")?;
                }
                writeln!(out)?;
            }
            let ps = r.p_positions.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
            writeln!(out, "\nP-positions (g = 0): {ps}\n")?;
            match &r.periodicity {
                Some(p) => {
                    let exception = match p.last_exception {
                        Some(e) => format!("last exceptional value at n = {e}"),
                        None => "purely periodic".to_string(),
                    };
                    if p.proved {
                        writeln!(
                            out,
                            "Periodic with period {} from n = {} ({exception}); proved from the computed values by {}.",
                            p.period, p.preperiod, r.theorem
                        )?;
                    } else {
                        let needed = p.up_to_needed.unwrap_or(0);
                        let how = if needed <= r.max_up_to {
                            format!("rerun with --up-to {needed} or more to apply {}", r.theorem)
                        } else {
                            format!(
                                "{} would need --up-to {needed}, beyond the largest supported ({})",
                                r.theorem, r.max_up_to
                            )
                        };
                        writeln!(
                            out,
                            "Period {} from n = {} ({exception}) observed in the computed range only, not proved; \
                             {how}.",
                            p.period, p.preperiod
                        )?;
                    }
                }
                None => writeln!(out, "No periodicity detected in the computed range.")?,
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Nim

#[derive(Serialize)]
struct MoveReport {
    /// 1-based heap number.
    heap: usize,
    from: u64,
    to: u64,
    take: u64,
}

impl From<&Move> for MoveReport {
    fn from(m: &Move) -> Self {
        MoveReport { heap: m.heap + 1, from: m.from, to: m.to, take: m.taken() }
    }
}

#[derive(Serialize)]
struct NimReport {
    heaps: Vec<u64>,
    rule: &'static str,
    nim_sum: u64,
    outcome: Outcome,
    winning_moves: Vec<MoveReport>,
}

fn run_nim(heaps: &[u64], misere: bool, format: Format, out: &mut dyn Write) -> Result<(), GamesError> {
    let (outcome, moves) = if misere {
        (misere_nim_outcome(heaps), misere_winning_moves(heaps))
    } else {
        (nim_outcome(heaps), crate::winning_moves(heaps))
    };
    let r = NimReport {
        heaps: heaps.to_vec(),
        rule: if misere { "misere" } else { "normal" },
        nim_sum: nim_sum(heaps),
        outcome,
        winning_moves: moves.iter().map(MoveReport::from).collect(),
    };
    let heap_list = heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ");
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &r)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "heaps,rule,nim_sum,outcome,heap,from,to,take")?;
            let prefix = format!("{heap_list},{},{},{}", r.rule, r.nim_sum, r.outcome);
            if r.winning_moves.is_empty() {
                writeln!(out, "{prefix},,,,")?;
            }
            for m in &r.winning_moves {
                writeln!(out, "{prefix},{},{},{},{}", m.heap, m.from, m.to, m.take)?;
            }
        }
        Format::Md => {
            let rule = if misere {
                "misère play: taking the last token loses"
            } else {
                "normal play: taking the last token wins"
            };
            writeln!(out, "## Nim {heap_list} ({rule})\n")?;
            let xor = heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ⊕ ");
            writeln!(out, "- nim-sum: {xor} = {} (binary {:b})", r.nim_sum, r.nim_sum)?;
            let who = match outcome {
                Outcome::P => "P-position: the previous player wins; every move loses",
                Outcome::N => "N-position: the player to move wins",
            };
            writeln!(out, "- outcome: {who}")?;
            if misere {
                let big = heaps.iter().filter(|&&h| h >= 2).count();
                let why = if big == 0 {
                    "every heap has at most one token, so the position is P iff the number of 1-heaps is odd"
                } else {
                    "some heap has two or more tokens, so P iff the nim-sum is 0 (as in normal play)"
                };
                writeln!(out, "- rule: {why}")?;
            }
            if r.winning_moves.is_empty() {
                writeln!(out, "\nNo winning moves.")?;
            } else {
                writeln!(out, "\nWinning moves ({}):\n", r.winning_moves.len())?;
                writeln!(out, "| heap | from | to | take |")?;
                writeln!(out, "|---:|---:|---:|---:|")?;
                for m in &r.winning_moves {
                    writeln!(out, "| {} | {} | {} | {} |", m.heap, m.from, m.to, m.take)?;
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Game graphs

#[derive(Serialize)]
struct NodeReport {
    id: String,
    sg: u32,
    outcome: Outcome,
    moves: Vec<String>,
}

#[derive(Serialize)]
struct GraphReport {
    name: Option<String>,
    nodes: Vec<NodeReport>,
    dot: String,
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn run_graph(file: &std::path::Path, dot_only: bool, format: Format, out: &mut dyn Write) -> Result<(), GamesError> {
    let src = mmtree_io::read_text(file, GRAPH_LIMIT, "a game graph")?;
    let game = GameGraph::from_dot(&src)?;
    let values = game.sg_values()?;
    let dot = game.to_dot(&values);
    if dot_only {
        out.write_all(dot.as_bytes())?;
        return Ok(());
    }
    let g = game.graph();
    let nodes: Vec<NodeReport> = g
        .node_indices()
        .map(|v| NodeReport {
            id: g[v].clone(),
            sg: values[v.index()],
            outcome: Outcome::from_sg(values[v.index()]),
            moves: {
                let mut m: Vec<String> = g.neighbors(v).map(|w| g[w].clone()).collect();
                m.reverse(); // petgraph lists neighbours newest first
                m
            },
        })
        .collect();
    let r = GraphReport { name: game.name().map(str::to_string), nodes, dot };
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &r)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "node,sg,outcome")?;
            for n in &r.nodes {
                writeln!(out, "{},{},{}", csv_field(&n.id), n.sg, n.outcome)?;
            }
        }
        Format::Md => {
            let title = r.name.as_deref().unwrap_or("game graph");
            writeln!(out, "## {} ({} positions, {} moves)\n", md_cell(title), g.node_count(), g.edge_count())?;
            writeln!(out, "| position | SG | outcome | moves to |")?;
            writeln!(out, "|---|---:|:---:|---|")?;
            for n in &r.nodes {
                let moves = if n.moves.is_empty() {
                    "(terminal)".to_string()
                } else {
                    n.moves.iter().map(|m| md_cell(m)).collect::<Vec<_>>().join(", ")
                };
                writeln!(out, "| {} | {} | {} | {} |", md_cell(&n.id), n.sg, n.outcome, moves)?;
            }
            let p = r.nodes.iter().filter(|n| n.outcome == Outcome::P).count();
            writeln!(out, "\n{p} P-positions, {} N-positions.\n", r.nodes.len() - p)?;
            writeln!(out, "```dot\n{}```", r.dot)?;
        }
    }
    Ok(())
}
