//! `mmtree optimal --plan PLAN --shard I/N`: one job of a plan of the exact optimum. Each part
//! of the shard is searched exactly, or, when `--time-limit` / `--node-limit` (per part) stop
//! it, bracketed: a proven lower bound, and the best subtree found with its total. The part
//! file records per part whether it is exact, both bounds and the subtree; it is written
//! atomically at the end. An output that already holds the shard is carried forward: with
//! every part exact it is kept; otherwise only its open parts are searched again, and each
//! keeps the higher of the two lower bounds and the cheaper of the two subtrees (both runs'
//! bounds are proven, so a rerun with a shorter limit never loses what an earlier one proved).
//! Ctrl-C or SIGTERM leave no output (finished subtrees go to `--checkpoint`).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use serde::Serialize;

use mmtree_core::{StrategyTree, Subtree};
use mmtree_io::{Cell, Format, PartBounds, PartFile, PartHeader, Table};
use mmtree_strategy::{Objective, OptimalConfig, OptimalError, OptimalSearch, Pool};
use mmtree_verify::SubtreeChecker;

use super::optimal_plan::{OpenOptimalPlan, OPTIMAL_KIND};
use super::plan_jobs::{check_part_frame, parse_shard, part_output};
use crate::cli::OptimalArgs;
use crate::config;
use crate::UsageError;

/// Set by the Ctrl-C / SIGTERM handler; the search polls it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What a job prints. Its JSON keys are a contract.
#[derive(Serialize)]
struct JobReport {
    shard: u32,
    shards: u32,
    jobs: usize,
    secrets: u64,
    /// Parts solved exactly.
    exact: usize,
    /// Sums over the shard's parts.
    lower_bound: u64,
    upper_bound: u64,
    /// Search nodes of this run (0 when kept).
    nodes: u64,
    /// `searched` or `kept` (the output already held the shard, every part exact).
    status: &'static str,
    seconds: f64,
    output: String,
}

pub fn run(args: &OptimalArgs, plan_path: &Path, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let mut open = OpenOptimalPlan::read(plan_path, args.game.memory_limit.as_deref())?;
    let plan = &open.plan.clone();
    let shard = parse_shard(args.shard.as_deref().expect("clap requires --shard with --plan"), plan.shards, plan_path)?;
    let (path, output) = part_output("optimal", args.output.as_deref())?;
    let checkpoint = super::files::check_output(args.checkpoint.as_deref(), "--checkpoint")?;
    mmtree_io::refuse_same_file(
        &[(plan_path, "the plan")],
        &std::iter::once(&output).chain(&checkpoint).collect::<Vec<_>>(),
    )?;
    let ids = plan.subtrees_of(shard);
    let secrets: u64 = ids.iter().map(|&i| u64::from(plan.subtrees[i as usize].candidates)).sum();
    let start = Instant::now();
    let report = |status, part: &PartFile, nodes: u64, out: &mut dyn Write| -> Result<()> {
        let report = JobReport {
            shard,
            shards: plan.shards,
            jobs: ids.len(),
            secrets,
            exact: part.bounds.iter().filter(|b| b.exact).count(),
            lower_bound: part.bounds.iter().map(|b| b.lower).sum(),
            upper_bound: part.bounds.iter().map(|b| b.upper).sum(),
            nodes,
            status,
            seconds: start.elapsed().as_secs_f64(),
            output: path.display().to_string(),
        };
        print(&report, config::format(args.format), out)
    };
    let earlier = earlier_part(path, &open, shard, !args.resume);
    if let Some(part) = earlier.as_ref().filter(|p| p.bounds.iter().all(|b| b.exact)) {
        return report("kept", part, 0, out);
    }
    // The search scores every guess at every node: the feedback table pays off.
    open.space.build_table((open.limit.0 / 2).min(super::optimal::OPTIMAL_TABLE_CAP));
    let open = &open;
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let table_memory = match &args.table_memory {
        Some(text) => mmtree_core::MemoryLimit::parse(text).map_err(|e| UsageError(format!("--table-memory: {e}")))?.0,
        None => open.limit.0 / 2,
    };
    let config = OptimalConfig {
        objective: Objective::Average,
        max_depth: plan.part_depth,
        pool: Pool::All,
        node_limit: args.node_limit,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        table_memory,
    };
    let bar = crate::progress::bar(secrets, "secrets", quiet);
    let mut subtrees: Vec<(u32, Subtree)> = Vec::with_capacity(ids.len());
    let mut bounds = Vec::with_capacity(ids.len());
    let mut nodes = 0;
    for (k, &i) in ids.iter().enumerate() {
        let job = &plan.subtrees[i as usize];
        let before = earlier.as_ref().map(|p| (p.bounds[k], &p.subtrees[k].1));
        if let Some((b, subtree)) = before.filter(|(b, _)| b.exact) {
            bar.inc(u64::from(job.candidates));
            bounds.push(b);
            subtrees.push((i, subtree.clone()));
            continue;
        }
        let (guesses, set) = open.part(i).ok_or_else(|| {
            UsageError(format!("'{}': job {i} ({}) is not a part of the game", plan_path.display(), job.path))
        })?;
        let search = OptimalSearch::new(&open.space, config).with_stop_flag(&INTERRUPTED);
        // Each part resumes from what the shard's parts before it saved, which includes
        // what the file held when the job started.
        if let Some(file) = args.checkpoint.as_deref().filter(|f| f.is_file()) {
            bar.suspend(|| super::files::resume(&search, file, open.limit.0, quiet))?;
        }
        // What the plan and an earlier run proved: the search's budgets rise from there.
        let known = before.map_or(0, |(b, _)| b.lower).max(job.lower_bound.unwrap_or(0));
        let result = search.run_part_between(&set, &guesses, known, before.map(|(b, _)| b.upper));
        if let Some(file) = &checkpoint {
            bar.suspend(|| super::files::save_checkpoint(&search, file, &mut std::io::sink(), quiet))?;
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            bail!("interrupted; no output written");
        }
        let bracket = match result {
            Ok(bracket) => bracket,
            Err(OptimalError::Stopped { nodes }) => bail!(
                "job {i} ({}) stopped after {nodes} nodes: under the worst-case objective a stopped part \
                 has no bracket; rerun with a larger limit",
                job.path
            ),
            Err(e) => bail!("job {i} ({}): {e}", job.path),
        };
        bar.inc(u64::from(job.candidates));
        nodes += search.stats().nodes;
        // The plan's bound is proven too, and so is the earlier run's (neither is ever above a
        // real subtree's total).
        let (mut lower, mut upper, mut subtree) =
            (bracket.lower_bound.max(job.lower_bound.unwrap_or(0)), bracket.upper_bound, bracket.subtree);
        if let Some((b, old)) = before {
            lower = lower.max(b.lower);
            if b.upper < upper {
                (upper, subtree) = (b.upper, old.clone());
            }
        }
        let lower = lower.min(upper);
        bounds.push(PartBounds { exact: lower == upper, lower, upper });
        subtrees.push((i, subtree));
    }
    bar.finish_and_clear();
    let header =
        PartHeader { kind: OPTIMAL_KIND.to_string(), plan_digest: plan.digest.clone(), shard, shards: plan.shards };
    let part = PartFile { header, subtrees, bounds };
    output.write(&part.to_bytes(), out)?;
    report("searched", &part, nodes, out)
}

/// The existing part at `path` if it holds exactly this shard of this plan (with `deep`, each
/// subtree also checked by the independent verifier).
fn earlier_part(path: &Path, open: &OpenOptimalPlan, shard: u32, deep: bool) -> Option<PartFile> {
    if !path.is_file() {
        return None;
    }
    let part = PartFile::read(path, open.limit).ok()?;
    let mut checker =
        if deep { Some(SubtreeChecker::new(open.game, open.alphabet.clone(), open.limit).ok()?) } else { None };
    check_part(&part, open, shard, checker.as_mut()).ok()?;
    Some(part)
}

/// Why a part is not exactly shard `shard` of the optimal plan: its header, its list of
/// jobs, and for each job the candidate count, the subtree's total against the recorded upper
/// bound, and an exact result against the plan's lower bound.
pub fn check_part(
    part: &PartFile,
    open: &OpenOptimalPlan,
    shard: u32,
    mut deep: Option<&mut SubtreeChecker>,
) -> std::result::Result<(), String> {
    let plan = &open.plan;
    check_part_frame(part, plan, shard, "job")?;
    if part.bounds.len() != part.subtrees.len() {
        return Err(format!("does not hold exactly the jobs of shard {shard}"));
    }
    for ((i, subtree), b) in part.subtrees.iter().zip(&part.bounds) {
        let s = &plan.subtrees[*i as usize];
        let tree = StrategyTree::from_subtree(open.game, subtree.clone());
        let stats = tree.stats();
        if stats.total != b.upper {
            return Err(format!("job {i} ({}): its subtree totals {}, the part says {}", s.path, stats.total, b.upper));
        }
        if b.upper < s.lower_bound.unwrap_or(0) {
            return Err(format!(
                "job {i} ({}): total {} below the plan's proven lower bound {}",
                s.path,
                b.upper,
                s.lower_bound.unwrap_or(0)
            ));
        }
        if let Some(depth) = plan.part_depth {
            if stats.max > u32::from(depth) {
                return Err(format!("job {i} ({}): {} guesses, more than the plan's {depth}", s.path, stats.max));
            }
        }
        if let Some(checker) = deep.as_deref_mut() {
            checker.check(&tree, &s.history).map_err(|e| format!("job {i} ({}): {e}", s.path))?;
        }
    }
    Ok(())
}

fn print(report: &JobReport, format: Format, out: &mut dyn Write) -> Result<()> {
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(report)?)?,
        format => {
            let mut table = Table::new(
                &format!("shard {}/{}", report.shard, report.shards),
                &["jobs", "secrets", "exact", "lower bound", "upper bound", "nodes", "status", "seconds", "output"],
            );
            table.push(vec![
                Cell::Int(report.jobs as i128),
                Cell::Int(report.secrets.into()),
                Cell::Int(report.exact as i128),
                Cell::Int(report.lower_bound.into()),
                Cell::Int(report.upper_bound.into()),
                Cell::Int(report.nodes.into()),
                Cell::Text(report.status.to_string()),
                Cell::Real(report.seconds, 3),
                Cell::Text(report.output.clone()),
            ]);
            write!(out, "{}", table.render(format))?;
        }
    }
    Ok(())
}
