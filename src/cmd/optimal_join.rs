//! `mmtree join PLAN PART...` for a plan of the exact optimum: per first guess class, the
//! number of codes plus the sum of its parts' bounds (a missing part counts with the plan's
//! lower bound); the best class is the one with the least upper bound (ties: the plan's
//! order of first guesses). The bracket is exact when every part of the best class is exact
//! and no other class's lower bound is below the best upper bound. The best class's tree is
//! written when all its parts are there.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, Result};
use serde::Serialize;

use mmtree_core::{format_bytes, CodeIndex, StrategyTree, Subtree, BYTES_PER_CODE};
use mmtree_io::{refuse_same_file, Cell, Format, OutputPath, PartBounds, PartFile, Table, TreeFile};

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
    classes: Vec<ClassBracket>,
}

pub fn run(args: &JoinArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let output = OutputPath::check(&args.output, "-o")?;
    let inputs: Vec<(&Path, &str)> = std::iter::once((args.plan.as_path(), "the plan"))
        .chain(args.parts.iter().map(|p| (p.as_path(), "a part")))
        .collect();
    refuse_same_file(&inputs, &[&output])?;
    let open = OpenOptimalPlan::read(&args.plan, args.memory_limit.as_deref())?;
    let plan = &open.plan;
    let part_bytes: u64 = args.parts.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let needed = open.game.code_count() * BYTES_PER_CODE + u128::from(part_bytes) * 2;
    if needed > u128::from(open.limit.0) {
        return Err(UsageError(format!(
            "joining {} needs about {}, more than the memory limit of {} (--memory-limit)",
            open.game,
            format_bytes(needed),
            format_bytes(open.limit.0.into())
        ))
        .into());
    }
    let mut by_shard: HashMap<u32, &Path> = HashMap::new();
    let mut jobs: Vec<Option<(Subtree, PartBounds)>> = vec![None; plan.subtrees.len()];
    for path in &args.parts {
        let part = PartFile::read(path, open.limit)?;
        let bad = |what: String| UsageError(format!("'{}': {what}", path.display()));
        let shard = part.header.shard;
        if part.header.plan_digest == plan.digest {
            if let Some(other) = by_shard.insert(shard, path) {
                return Err(bad(format!("shard {shard} again (also in '{}')", other.display())).into());
            }
        }
        check_part(&part, &open, shard, None).map_err(bad)?;
        for ((i, subtree), bounds) in part.subtrees.into_iter().zip(part.bounds) {
            jobs[i as usize] = Some((subtree, bounds));
        }
    }
    let n = open.space.len() as u64;
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
    let classes: Vec<ClassBracket> = (plan.top.iter())
        .map(|t| {
            let of_class: Vec<usize> =
                (0..plan.subtrees.len()).filter(|&i| plan.subtrees[i].history[0].0 == t.guess).collect();
            let bound = |i: &usize| match &jobs[*i] {
                Some((_, b)) => (b.lower, Some(b.upper), b.exact),
                None => (plan.subtrees[*i].lower_bound.unwrap_or(0), None, false),
            };
            let lower_bound = n + of_class.iter().map(|i| bound(i).0).sum::<u64>();
            let upper_bound = of_class.iter().map(|i| bound(i).1).sum::<Option<u64>>().map(|u| n + u);
            ClassBracket {
                first_guess: t.guess_code.clone(),
                lower_bound,
                upper_bound,
                parts: of_class.len(),
                exact_parts: of_class.iter().filter(|i| bound(i).2).count(),
                missing_parts: of_class.iter().filter(|&&i| jobs[i].is_none()).count(),
            }
        })
        .collect();
    // The least upper bound (the first class on ties); with none complete, the least lower.
    let best = (0..classes.len())
        .min_by_key(|&c| (classes[c].upper_bound.unwrap_or(u64::MAX), classes[c].lower_bound))
        .ok_or_else(|| UsageError(format!("'{}': no first guess", args.plan.display())))?;
    let lower_bound = classes.iter().map(|c| c.lower_bound).min().expect("at least one class");
    let upper_bound = classes[best].upper_bound;
    let exact = upper_bound.is_some_and(|u| {
        classes[best].exact_parts == classes[best].parts && classes.iter().all(|c| c.lower_bound >= u)
    });
    let mut report = OptimalJoinReport {
        game: open.game.to_string(),
        objective: if plan.part_depth.is_some() { "worst" } else { "average" },
        first_guess: classes[best].first_guess.clone(),
        lower_bound,
        upper_bound,
        gap_percent: upper_bound.map(|u| 100.0 * (u - lower_bound) as f64 / lower_bound.max(1) as f64),
        exact,
        max: None,
        output: None,
        missing,
        classes,
    };
    if upper_bound.is_some() {
        let first = CodeIndex::from_index(plan.top[best].guess);
        let tree = assemble(&open, first, &mut jobs);
        report.max = Some(tree.stats().max);
        let bytes = TreeFile::new(tree, plan.symbols.clone(), open.rule_info(exact)).to_bytes();
        if args.self_check {
            mmtree_verify::verify_bytes(&bytes, open.limit).map_err(|e| anyhow!(e).context("self-check failed"))?;
        }
        output.write(&bytes, out)?;
        if !quiet && !output.is_stdout() {
            eprintln!("mmtree: wrote {} ({} bytes)", output.path().display(), bytes.len());
        }
        report.output = Some(output.path().display().to_string());
    } else if !quiet {
        eprintln!("mmtree: no tree written: every first guess lacks parts ({} jobs missing)", report.missing.len());
    }
    if output.is_stdout() && report.output.is_some() {
        return Ok(());
    }
    print(&report, config::format(args.format), out)
}

/// The whole tree: the first guess, then each part's subtree under its feedback.
fn assemble(open: &OpenOptimalPlan, first: CodeIndex, jobs: &mut [Option<(Subtree, PartBounds)>]) -> StrategyTree {
    let plan = &open.plan;
    let win = open.space.scheme().win();
    let all = open.space.all_indices();
    let children = (open.space.split(first, &all).into_iter())
        .map(|(f, _)| {
            if f == win {
                return (f, Subtree::Leaf(first));
            }
            let i = (plan.subtrees.iter())
                .position(|s| s.history[0] == (first.index(), f.index()))
                .expect("OpenOptimalPlan::part checked every part of the first guess");
            (f, jobs[i].take().expect("the best class has all its parts").0)
        })
        .collect();
    let root = Subtree::Guess { guess: first, candidates: all.len() as u32, children };
    StrategyTree::from_subtree(open.game, root)
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
    Ok(())
}
