//! `mmtree solve --plan PLAN --shard I/N`: one job of a plan. It builds its shard's subtrees
//! (or, with `--guesses`, only the guesses at their roots) and writes them atomically; an
//! output that already holds the shard is kept, so a rerun or a resubmitted array costs
//! nothing; Ctrl-C or SIGTERM leave no partial file.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{anyhow, Result};
use rayon::prelude::*;
use serde::Serialize;

use mmtree_core::{CodeIndex, StrategyTree};
use mmtree_io::{Cell, Format, OutputPath, PartFile, PartHeader, Plan, PlanGuesses, Table, GUESSES_FORMAT};
use mmtree_strategy::{CandidateCache, Round, Solver};
use mmtree_verify::SubtreeChecker;

use super::plan::{OpenPlan, TREE_KIND};
use crate::cli::SolveArgs;
use crate::config;
use crate::UsageError;

/// Set while the output is being written: an interrupt then waits for the rename.
static WRITING: AtomicBool = AtomicBool::new(false);
/// An interrupt arrived while writing.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What a job prints. Its JSON keys are a contract.
#[derive(Serialize)]
struct JobReport {
    shard: u32,
    shards: u32,
    subtrees: usize,
    secrets: u64,
    estimated_cost: u64,
    /// `built`, `guesses`, or `kept` (the output already held the shard).
    status: &'static str,
    seconds: f64,
    output: String,
}

/// Parses `I/N` against the plan's shard count.
pub fn parse_shard(text: &str, shards: u32, plan: &Path) -> Result<u32> {
    let bad = || UsageError(format!("--shard '{text}': expected I/N with 1 <= I <= N, e.g. 3/{shards}"));
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n != shards {
        return Err(UsageError(format!("--shard {text}: '{}' has {shards} shards, not {n}", plan.display())).into());
    }
    if i == 0 || i > n {
        return Err(bad().into());
    }
    Ok(i)
}

pub fn run(args: &SolveArgs, plan_path: &Path, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let open = OpenPlan::read(plan_path, args.game.memory_limit.as_deref())?;
    let plan = &open.plan;
    let shard = parse_shard(args.shard.as_deref().expect("clap requires --shard with --plan"), plan.shards, plan_path)?;
    let (path, output) = part_output("solve", args.output.as_deref())?;
    let ids = plan.subtrees_of(shard);
    let secrets: u64 = ids.iter().map(|&i| u64::from(plan.subtrees[i as usize].candidates)).sum();
    let cost: u64 = ids.iter().map(|&i| plan.subtrees[i as usize].cost).sum();
    let start = Instant::now();
    let report = |status, out: &mut dyn Write| -> Result<()> {
        let report = JobReport {
            shard,
            shards: plan.shards,
            subtrees: ids.len(),
            secrets,
            estimated_cost: cost,
            status,
            seconds: start.elapsed().as_secs_f64(),
            output: path.display().to_string(),
        };
        print(&report, config::format(args.format), out)
    };
    if args.guesses {
        if existing_guesses(path, &open, shard).is_some() {
            return report("kept", out);
        }
    } else if existing_part(path, &open, shard, !args.resume).is_some() {
        return report("kept", out);
    }
    // Nothing is written before the end: an interrupt before then leaves no file at all.
    let _ = ctrlc::set_handler(|| {
        if WRITING.load(Ordering::SeqCst) {
            INTERRUPTED.store(true, Ordering::SeqCst);
        } else {
            eprintln!("mmtree: interrupted; no output written");
            std::process::exit(1);
        }
    });
    let bar = crate::progress::bar(if args.guesses { ids.len() as u64 } else { secrets }, "secrets", quiet);
    let progress = |n: u64| bar.inc(n);
    let solver = Solver::new(&open.space, open.rule).with_progress(&progress);
    let bytes = if args.guesses {
        let guesses = shard_nodes(&open, &ids)
            .into_par_iter()
            .map(|(i, history, candidates)| {
                let guess = solver.guess_with(&history, &candidates);
                bar.inc(1);
                (i, guess.index(), open.alphabet.format(&open.space.code(guess)))
            })
            .collect();
        let mut list = PlanGuesses {
            format: GUESSES_FORMAT.to_string(),
            plan_digest: plan.digest.clone(),
            shard,
            shards: plan.shards,
            guesses,
            digest: String::new(),
        };
        list.seal();
        list.to_json().into_bytes()
    } else {
        let nodes = shard_nodes(&open, &ids);
        let ids: Vec<u32> = nodes.iter().map(|(i, _, _)| *i).collect();
        let built =
            solver.subtrees_with(nodes.into_iter().map(|(_, history, candidates)| (history, candidates)).collect());
        let subtrees = ids
            .into_iter()
            .zip(built)
            .map(|(i, subtree)| {
                let subtree = subtree
                    .ok_or_else(|| UsageError(format!("'{}': subtree {i} has no candidates", plan_path.display())))?;
                Ok((i, subtree))
            })
            .collect::<Result<Vec<_>, UsageError>>()?;
        let header = header(&open, shard);
        PartFile { header, subtrees, bounds: Vec::new() }.to_bytes()
    };
    bar.finish_and_clear();
    WRITING.store(true, Ordering::SeqCst);
    let written = output.write(&bytes, out);
    WRITING.store(false, Ordering::SeqCst);
    written?;
    if INTERRUPTED.load(Ordering::SeqCst) {
        return Err(anyhow!("interrupted after writing {} (complete)", path.display()));
    }
    report(if args.guesses { "guesses" } else { "built" }, out)
}

/// The part file a job of `command --plan` writes: given with `-o`, in an existing directory,
/// and a file (a rerun reads it back), checked before any work.
pub fn part_output<'p>(command: &str, path: Option<&'p Path>) -> Result<(&'p Path, OutputPath)> {
    let Some(path) = path else {
        return Err(UsageError(format!("{command} --plan: give the part file with -o")).into());
    };
    let output = OutputPath::check(path, "-o")?;
    if output.is_stdout() {
        return Err(UsageError(format!("{command} --plan: -o must name a file (a rerun checks it)")).into());
    }
    Ok((path, output))
}

/// Each subtree of the shard with its history and candidates (each level of the code space
/// scanned once for the whole shard).
fn shard_nodes(open: &OpenPlan, ids: &[u32]) -> Vec<(u32, Vec<Round>, Vec<CodeIndex>)> {
    let mut cache = CandidateCache::new(&open.space);
    ids.iter()
        .map(|&i| {
            let history = open.rounds(i);
            let candidates = cache.candidates(&history);
            (i, history, candidates)
        })
        .collect()
}

fn header(open: &OpenPlan, shard: u32) -> PartHeader {
    PartHeader { kind: TREE_KIND.to_string(), plan_digest: open.plan.digest.clone(), shard, shards: open.plan.shards }
}

/// The existing part at `path` if it holds exactly this shard of this plan; with `deep`, each
/// subtree is also checked by the independent verifier against its node's candidates.
fn existing_part(path: &Path, open: &OpenPlan, shard: u32, deep: bool) -> Option<PartFile> {
    if !path.is_file() {
        return None;
    }
    let part = PartFile::read(path, open.limit).ok()?;
    let mut checker =
        if deep { Some(SubtreeChecker::new(open.game, open.alphabet.clone(), open.limit).ok()?) } else { None };
    check_part(&part, open, shard, checker.as_mut()).ok()?;
    Some(part)
}

/// Why a part is not shard `shard` of `plan` as its header and list say: another plan's
/// (digest, kind, shard count), another shard, not exactly the shard's `what`s (subtrees or
/// jobs), or a subtree whose candidate count is not its node's.
pub fn check_part_frame(part: &PartFile, plan: &Plan, shard: u32, what: &str) -> std::result::Result<(), String> {
    if part.header.plan_digest != plan.digest || part.header.kind != plan.kind || part.header.shards != plan.shards {
        return Err(format!(
            "a part of another plan (digest {}, the plan's is {})",
            part.header.plan_digest, plan.digest
        ));
    }
    if part.header.shard != shard || shard == 0 || shard > plan.shards {
        return Err(format!("holds shard {}, not {shard}", part.header.shard));
    }
    let ids: Vec<u32> = part.subtrees.iter().map(|(i, _)| *i).collect();
    if ids != plan.subtrees_of(shard) {
        return Err(format!("does not hold exactly the {what}s of shard {shard}"));
    }
    for (i, subtree) in &part.subtrees {
        let s = &plan.subtrees[*i as usize];
        let recorded = match subtree {
            mmtree_core::Subtree::Guess { candidates, .. } => *candidates,
            mmtree_core::Subtree::Leaf(_) => 0,
        };
        if recorded != s.candidates {
            return Err(format!("{what} {i} ({}) has {recorded} candidates, the plan {}", s.path, s.candidates));
        }
    }
    Ok(())
}

/// Why a part is not exactly shard `shard` of the plan.
pub fn check_part(
    part: &PartFile,
    open: &OpenPlan,
    shard: u32,
    mut deep: Option<&mut SubtreeChecker>,
) -> std::result::Result<(), String> {
    check_part_frame(part, &open.plan, shard, "subtree")?;
    for (i, subtree) in &part.subtrees {
        let s = &open.plan.subtrees[*i as usize];
        if let Some(checker) = deep.as_deref_mut() {
            let tree = StrategyTree::from_subtree(open.game, subtree.clone());
            checker.check(&tree, &s.history).map_err(|e| format!("subtree {i} ({}): {e}", s.path))?;
        }
    }
    Ok(())
}

/// The existing guess list at `path` if it holds exactly this shard's guesses.
fn existing_guesses(path: &Path, open: &OpenPlan, shard: u32) -> Option<PlanGuesses> {
    if !path.is_file() {
        return None;
    }
    let list = PlanGuesses::read(path).ok()?;
    let ids: Vec<u32> = list.guesses.iter().map(|g| g.0).collect();
    (list.plan_digest == open.plan.digest && list.shard == shard && ids == open.plan.subtrees_of(shard)).then_some(list)
}

fn print(report: &JobReport, format: Format, out: &mut dyn Write) -> Result<()> {
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(report)?)?,
        format => {
            let mut table = Table::new(
                &format!("shard {}/{}", report.shard, report.shards),
                &["subtrees", "secrets", "estimated cost", "status", "seconds", "output"],
            );
            table.push(vec![
                Cell::Int(report.subtrees as i128),
                Cell::Int(report.secrets.into()),
                Cell::Int(report.estimated_cost.into()),
                Cell::Text(report.status.to_string()),
                Cell::Real(report.seconds, 3),
                Cell::Text(report.output.clone()),
            ]);
            write!(out, "{}", table.render(format))?;
        }
    }
    Ok(())
}
