//! `mmtree join PLAN PART...` for a plan of the exact optimum: per first guess class, the
//! number of codes plus the sum of its parts' bounds (a missing part counts with the plan's
//! lower bound); the best class is the one with the least upper bound (ties: the plan's
//! order of first guesses). The bracket is exact when every part of the best class is exact
//! and no other class's lower bound is below the best upper bound. The best class's tree is
//! written when all its parts are there.

use std::collections::HashMap;
use std::io::Write;

use anyhow::{anyhow, Result};
use serde::Serialize;

use mmtree_core::{CodeIndex, StrategyTree, Subtree};
use mmtree_io::{Cell, Format, PartBounds, Table, TreeFile};

use super::join::{check_memory, output_of, read_parts};
use super::optimal_jobs::check_part;
use super::optimal_plan::OpenOptimalPlan;
use crate::cli::JoinArgs;
use crate::config;
use crate::UsageError;

/// A job with no part given. Its JSON keys are a contract.
#[derive(Serialize)]
struct Missing {
    shard: u32,
    job: u32,
    path: String,
    candidates: u32,
    /// The plan's lower bound, counted in its place.
    lower_bound: u64,
}

/// A job whose part is there but only bracketed, in a first guess class whose lower bound
/// is below the best upper bound: the jobs to rerun (longer, or resumed from a checkpoint)
/// to narrow the bracket. Its JSON keys are a contract.
#[derive(Serialize)]
struct Open {
    shard: u32,
    job: u32,
    path: String,
    candidates: u32,
    lower_bound: u64,
    upper_bound: u64,
    /// The lower bound of the job's first guess class.
    class_lower_bound: u64,
}

/// The bracket of one first guess class.
#[derive(Serialize)]
struct ClassBracket {
    first_guess: String,
    lower_bound: u64,
    /// `None` while a part is missing.
    upper_bound: Option<u64>,
    parts: usize,
    exact_parts: usize,
    missing_parts: usize,
}

/// What `join` prints for an optimal plan. Its JSON keys are a contract.
#[derive(Serialize)]
struct OptimalJoinReport {
    game: String,
    objective: &'static str,
    /// The best class's first guess.
    first_guess: String,
    lower_bound: u64,
    /// `None` when no class has all its parts.
    upper_bound: Option<u64>,
    gap_percent: Option<f64>,
    exact: bool,
    /// Most guesses of the written tree.
    max: Option<u32>,
    /// The tree file written, `None` when the best class lacks parts.
    output: Option<String>,
    missing: Vec<Missing>,
    /// By increasing class lower bound (the order that raises the game's lower bound), then
    /// fewest candidates.
    open: Vec<Open>,
    classes: Vec<ClassBracket>,
}

pub fn run(args: &JoinArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let output = output_of(args)?;
    let open = OpenOptimalPlan::read(&args.plan, args.memory_limit.as_deref())?;
    let plan = &open.plan;
    check_memory(args, &open.game, open.limit)?;
    let (parts, _) =
        read_parts(&args.parts, &plan.digest, open.limit, |part| check_part(part, &open, part.header.shard, None))?;
    let mut jobs: Vec<Option<(Subtree, PartBounds)>> = vec![None; plan.subtrees.len()];
    for part in parts {
        for ((i, subtree), bounds) in part.subtrees.into_iter().zip(part.bounds) {
            jobs[i as usize] = Some((subtree, bounds));
        }
    }
    let results: Vec<Option<Bounds>> = jobs
        .iter()
        .map(|j| j.as_ref().map(|(_, b)| Bounds { lower: b.lower, upper: Some(b.upper), exact: b.exact }))
        .collect();
    let missing: Vec<Missing> = (plan.subtrees.iter().enumerate())
        .filter(|(i, _)| jobs[*i].is_none())
        .map(|(i, s)| Missing {
            shard: s.shard,
            job: i as u32,
            path: s.path.clone(),
            candidates: s.candidates,
            lower_bound: s.lower_bound.unwrap_or(0),
        })
        .collect();
    let values = Values::new(&open, &results);
    let all = open.space.all_indices();
    let (root, best) = values.position(&[], &all);
    let best = best.ok_or_else(|| UsageError(format!("'{}': no first guess", args.plan.display())))?;
    let classes = values.classes(&all);
    let open_jobs = values.open(&classes, root.upper);
    let mut report = OptimalJoinReport {
        game: open.game.to_string(),
        objective: if plan.part_depth.is_some() { "worst" } else { "average" },
        first_guess: plan.top[best].guess_code.clone(),
        lower_bound: root.lower,
        upper_bound: root.upper,
        gap_percent: root.upper.map(|u| 100.0 * (u - root.lower) as f64 / root.lower.max(1) as f64),
        exact: root.exact,
        max: None,
        output: None,
        missing,
        open: open_jobs,
        classes,
    };
    if root.upper.is_some() {
        let tree = StrategyTree::from_subtree(open.game, values.build(&[], all, &mut jobs));
        report.max = Some(tree.stats().max);
        let bytes = TreeFile::new(tree, plan.symbols.clone(), open.rule_info(root.exact)).to_bytes();
        if args.self_check {
            mmtree_verify::verify_bytes(&bytes, open.limit).map_err(|e| anyhow!(e).context("self-check failed"))?;
        }
        output.write(&bytes, out)?;
        if !quiet && !output.is_stdout() {
            eprintln!("mmtree: wrote {} ({} bytes)", output.path().display(), bytes.len());
        }
        report.output = Some(output.path().display().to_string());
    } else if !quiet {
        eprintln!("mmtree: no tree written: the best first guess lacks parts ({} jobs missing)", report.missing.len());
    }
    if output.is_stdout() && report.output.is_some() {
        return Ok(());
    }
    print(&report, config::format(args.format), out)
}

/// Rounds as stored in a plan: `(guess index, feedback index)`.
type History = Vec<(u32, u8)>;

/// What is known of a job, a position or a guess: a lower bound, the total of a real
/// strategy when every part below is there, and whether that total is proven optimal.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub lower: u64,
    pub upper: Option<u64>,
    pub exact: bool,
}

/// The plan's positions valued from its jobs' bounds: a job's own bounds (a missing job: the
/// plan's lower bound); a position with guesses to choose from: the least lower bound and the
/// least upper bound over them (exact when that guess is exact and no other guess's lower
/// bound is below it); a guess: the codes it is played on plus the sum over its parts.
pub struct Values<'a> {
    open: &'a OpenOptimalPlan,
    results: &'a [Option<Bounds>],
    jobs: HashMap<&'a [(u32, u8)], usize>,
}

impl<'a> Values<'a> {
    pub fn new(open: &'a OpenOptimalPlan, results: &'a [Option<Bounds>]) -> Values<'a> {
        let jobs = open.plan.subtrees.iter().enumerate().map(|(i, s)| (&s.history[..], i)).collect();
        Values { open, results, jobs }
    }

    /// The bounds of the position after `history` (candidates `set`) and the guess chosen
    /// there (a position of the top: the least upper bound, the first on ties).
    pub fn position(&self, history: &[(u32, u8)], set: &[CodeIndex]) -> (Bounds, Option<usize>) {
        if let Some(&i) = self.jobs.get(history) {
            let planned = self.open.plan.subtrees[i].lower_bound.unwrap_or(0);
            let bounds = self.results[i].unwrap_or(Bounds { lower: planned, upper: None, exact: false });
            return (bounds, None);
        }
        let plan = &self.open.plan;
        let guesses: Vec<(usize, Bounds)> = (0..plan.top.len())
            .filter(|&t| plan.top[t].history[..] == history[..])
            .map(|t| (t, self.guess(t, set)))
            .collect();
        let Some(&(best, chosen)) = guesses.iter().min_by_key(|(_, b)| (b.upper.unwrap_or(u64::MAX), b.lower)) else {
            return (Bounds { lower: 0, upper: None, exact: false }, None);
        };
        let lower = guesses.iter().map(|(_, b)| b.lower).min().expect("at least one guess");
        let exact = chosen.upper.is_some_and(|u| chosen.exact && guesses.iter().all(|(_, b)| b.lower >= u));
        (Bounds { lower: if exact { chosen.lower } else { lower }, upper: chosen.upper, exact }, Some(best))
    }

    /// The bounds of top node `t`'s guess played on its position's candidates `set`.
    fn guess(&self, t: usize, set: &[CodeIndex]) -> Bounds {
        let node = &self.open.plan.top[t];
        let mut bounds = Bounds { lower: set.len() as u64, upper: Some(set.len() as u64), exact: true };
        for (history, part) in self.parts(&node.history, node.guess, set) {
            let (b, _) = self.position(&history, &part);
            bounds.lower += b.lower;
            bounds.upper = bounds.upper.zip(b.upper).map(|(a, b)| a + b);
            bounds.exact &= b.exact;
        }
        bounds
    }

    /// The non-winning parts of `guess` on `set` after `history`, with their histories.
    fn parts(&self, history: &[(u32, u8)], guess: u32, set: &[CodeIndex]) -> Vec<(History, Vec<CodeIndex>)> {
        let space = &self.open.space;
        let win = space.scheme().win();
        (space.split(CodeIndex::from_index(guess), set).into_iter())
            .filter(|(f, _)| *f != win)
            .map(|(f, part)| (history.iter().copied().chain([(guess, f.index())]).collect(), part))
            .collect()
    }

    /// The first guess classes with their bounds and jobs.
    fn classes(&self, all: &[CodeIndex]) -> Vec<ClassBracket> {
        let plan = &self.open.plan;
        (0..plan.top.len())
            .filter(|&t| plan.top[t].history.is_empty())
            .map(|t| {
                let b = self.guess(t, all);
                let jobs: Vec<usize> =
                    (0..plan.subtrees.len()).filter(|&i| plan.subtrees[i].history[0].0 == plan.top[t].guess).collect();
                ClassBracket {
                    first_guess: plan.top[t].guess_code.clone(),
                    lower_bound: b.lower,
                    upper_bound: b.upper,
                    parts: jobs.len(),
                    exact_parts: jobs.iter().filter(|&&i| self.results[i].is_some_and(|r| r.exact)).count(),
                    missing_parts: jobs.iter().filter(|&&i| self.results[i].is_none()).count(),
                }
            })
            .collect()
    }

    /// The jobs of [`Open`], given the classes and the best upper bound (`None`: every
    /// class may still be best).
    fn open(&self, classes: &[ClassBracket], best_upper: Option<u64>) -> Vec<Open> {
        let plan = &self.open.plan;
        let firsts: Vec<u32> =
            (0..plan.top.len()).filter(|&t| plan.top[t].history.is_empty()).map(|t| plan.top[t].guess).collect();
        let mut open: Vec<Open> = (plan.subtrees.iter().enumerate())
            .filter_map(|(i, job)| {
                let bounds = self.results[i].filter(|b| !b.exact)?;
                let class = firsts.iter().position(|&g| g == job.history[0].0)?;
                let class_lower_bound = classes[class].lower_bound;
                best_upper.is_none_or(|u| class_lower_bound < u).then(|| Open {
                    shard: job.shard,
                    job: i as u32,
                    path: job.path.clone(),
                    candidates: job.candidates,
                    lower_bound: bounds.lower,
                    upper_bound: bounds.upper.unwrap_or(bounds.lower),
                    class_lower_bound,
                })
            })
            .collect();
        open.sort_by_key(|o| (o.class_lower_bound, o.candidates, o.job));
        open
    }

    /// The tree of the position after `history`: the job's subtree, or the chosen guess and
    /// the trees of its parts (every part below it is there: its upper bound is known).
    fn build(&self, history: &[(u32, u8)], set: Vec<CodeIndex>, jobs: &mut [Option<(Subtree, PartBounds)>]) -> Subtree {
        if let Some(&i) = self.jobs.get(history) {
            return jobs[i].take().expect("a position with an upper bound has its jobs").0;
        }
        let (_, best) = self.position(history, &set);
        let guess = self.open.plan.top[best.expect("a position with an upper bound has a guess")].guess;
        let space = &self.open.space;
        let win = space.scheme().win();
        let g = CodeIndex::from_index(guess);
        let children = (space.split(g, &set).into_iter())
            .map(|(f, part)| {
                if f == win {
                    return (f, Subtree::Leaf(g));
                }
                let history: Vec<(u32, u8)> = history.iter().copied().chain([(guess, f.index())]).collect();
                (f, self.build(&history, part, jobs))
            })
            .collect();
        Subtree::Guess { guess: g, candidates: set.len() as u32, children }
    }
}

fn print(report: &OptimalJoinReport, format: Format, out: &mut dyn Write) -> Result<()> {
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
        return Ok(());
    }
    let mut table = Table::new(
        &format!("{} optimal-{} by first guess", report.game, report.objective),
        &["first_guess", "lower_bound", "upper_bound", "parts", "exact", "missing"],
    );
    for c in &report.classes {
        table.push(vec![
            Cell::Text(c.first_guess.clone()),
            Cell::Int(c.lower_bound.into()),
            c.upper_bound.map_or(Cell::Text("-".to_string()), |u| Cell::Int(u.into())),
            Cell::Int(c.parts as i128),
            Cell::Int(c.exact_parts as i128),
            Cell::Int(c.missing_parts as i128),
        ]);
    }
    write!(out, "{}", table.render(format))?;
    let upper = report.upper_bound.map_or("none (parts missing)".to_string(), |u| u.to_string());
    let verdict = if report.exact { "exact" } else { "not proven optimal" };
    let gap = report.gap_percent.map(|g| format!(", gap {g:.3} %")).unwrap_or_default();
    writeln!(
        out,
        "\nBest first guess {}: lower bound {}, upper bound {upper}{gap} ({verdict}).",
        report.first_guess, report.lower_bound
    )?;
    for m in &report.missing {
        writeln!(out, "missing: shard {} job {} ({}, {} codes)", m.shard, m.job, m.path, m.candidates)?;
    }
    for o in &report.open {
        let (path, codes, lower, upper) = (&o.path, o.candidates, o.lower_bound, o.upper_bound);
        writeln!(out, "open: shard {} job {} ({path}, {codes} codes, {lower} to {upper})", o.shard, o.job)?;
    }
    if !report.open.is_empty() {
        let mut shards: Vec<u32> = Vec::new();
        for o in &report.open {
            if !shards.contains(&o.shard) {
                shards.push(o.shard);
            }
        }
        let list: Vec<String> = shards.iter().map(u32::to_string).collect();
        writeln!(out, "To narrow the bracket, rerun shards {} (in this order).", list.join(","))?;
    }
    Ok(())
}
