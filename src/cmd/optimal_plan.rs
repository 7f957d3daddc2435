//! `mmtree plan --optimal`: the exact optimum split into independent jobs, one per (first
//! guess class, part of the code space that guess leaves) or, at split depth 2, per (first
//! guess, second guess that may be optimal, part), balanced over shards by an estimate of
//! their difficulty; and the reading of such plans for jobs (`optimal --plan`) and joins.
//!
//! For a fixed first guess `g` the optimum is the number of codes plus the sum over `g`'s
//! non-winning parts of each part's own optimum (guesses from all codes), so the parts are
//! independent; the optimum of the game is the least of these over the first guess classes.
//! Under the worst-case objective the plan first finds the least worst case `D` of the game
//! (the depth-first feasibility search) and keeps the classes that reach it; every job then
//! minimises its part's total within `D - 1` guesses. At depth 2 the same argument applies to
//! each part after the first guess, over the second guesses a real strategy's total does not
//! rule out.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use mmtree_core::{first_guess_classes, Alphabet, CodeIndex, CodeSpace, FeedbackIndex, Game, MemoryLimit};
use mmtree_io::{Format, OutputPath, Plan, PlanNode, PlanSubtree, RuleInfo, PLAN_FORMAT, PLAN_VERSION};
use mmtree_strategy::{Objective, OptimalConfig, OptimalSearch, Pool, Round};
use mmtree_sweep::OPTIMAL_TIES;

use super::optimal_join::Values;
use super::plan::{balance, check_sizes, open_game, path_text, stored};
use crate::cli::{ObjectiveArg, PlanArgs};
use crate::config::{self, GameConfig};
use crate::UsageError;

/// The kind of plan whose jobs search parts of the exact optimum.
pub const OPTIMAL_KIND: &str = "optimal";
/// Deepest split of the exact optimum (depth 2: every second guess that may be optimal).
const MAX_OPTIMAL_DEPTH: usize = 2;
/// Search nodes spent on each part after the first guess to find a strategy whose total
/// caps the second guesses worth a job (split depth 2).
const CAP_NODES: u64 = 2000;
/// The exponent of the difficulty model: a part of `m` codes is estimated to cost
/// `(m / 10)^DIFFICULTY_EXPONENT` (the search nodes of Bulls and Cows' parts grow about as
/// `m³`; README).
const DIFFICULTY_EXPONENT: f64 = 3.0;

/// The rule name an optimal plan records for its objective.
fn objective_name(objective: Objective) -> &'static str {
    match objective {
        Objective::Average => "optimal-average",
        Objective::Worst => "optimal-worst",
    }
}

/// The estimated difficulty of the exact search of a part of `m` codes (only ratios matter).
pub fn difficulty(m: usize) -> u64 {
    (m as f64 / 10.0).powf(DIFFICULTY_EXPONENT).ceil().max(1.0) as u64
}

/// An optimal plan opened for work: its game, symbols, code space and objective.
pub struct OpenOptimalPlan {
    pub plan: Plan,
    pub game: Game,
    pub alphabet: Alphabet,
    pub space: CodeSpace,
    pub limit: MemoryLimit,
    pub objective: Objective,
}

impl OpenOptimalPlan {
    /// Reads a plan of kind `optimal` and prepares its game (every error names the file).
    pub fn read(path: &Path, memory_limit: Option<&str>) -> Result<OpenOptimalPlan> {
        let plan = Plan::read(path)?;
        let bad = |what: String| UsageError(format!("'{}' is not a valid plan: {what}", path.display()));
        if plan.kind != OPTIMAL_KIND {
            return Err(UsageError(format!(
                "'{}' is a plan of kind '{}', not of the exact optimum: run its jobs with `mmtree solve --plan`",
                path.display(),
                plan.kind
            ))
            .into());
        }
        let (game, alphabet, space, limit) = open_game(&plan, path, memory_limit)?;
        let objective = [Objective::Average, Objective::Worst]
            .into_iter()
            .find(|&o| objective_name(o) == plan.rule.valuation)
            .ok_or_else(|| bad(format!("unknown objective '{}'", plan.rule.valuation)))?;
        let depth = plan.split_depth as usize;
        if (objective == Objective::Worst) != plan.part_depth.is_some()
            || !(1..=MAX_OPTIMAL_DEPTH).contains(&depth)
            || (depth > 1 && objective == Objective::Worst)
        {
            return Err(bad("its objective, depth limit and split depth do not agree".to_string()).into());
        }
        let n = space.len();
        let fb = space.scheme().len();
        // Every round of a history is a guess the top plays at the history before it.
        let guesses: HashSet<(&[(u32, u8)], u32)> = plan.top.iter().map(|t| (&t.history[..], t.guess)).collect();
        let played = |history: &[(u32, u8)]| {
            (0..history.len()).all(|l| {
                let (g, f) = history[l];
                usize::from(f) < fb && guesses.contains(&(&history[..l], g))
            })
        };
        for (i, node) in plan.top.iter().enumerate() {
            if node.history.len() >= depth || node.guess as usize >= n || !played(&node.history) {
                return Err(bad(format!("top node {i} is not a guess of the game after its history")).into());
            }
        }
        for (i, s) in plan.subtrees.iter().enumerate() {
            if !played(&s.history) || s.lower_bound.is_none() {
                return Err(bad(format!("job {i} is not a part left by the plan's guesses")).into());
            }
        }
        Ok(OpenOptimalPlan { plan, game, alphabet, space, limit, objective })
    }

    /// The guesses played before job `i` and its candidates (`None` if the plan's size is
    /// wrong or the part is empty or won).
    pub fn part(&self, i: u32) -> Option<(Vec<CodeIndex>, Vec<CodeIndex>)> {
        let s = &self.plan.subtrees[i as usize];
        let (guesses, set) = self.after(&s.history)?;
        (set.len() == s.candidates as usize).then_some((guesses, set))
    }

    /// The guesses of `history` and the candidates they leave (`None` if a feedback is the
    /// winning one or leaves nothing).
    pub fn after(&self, history: &[(u32, u8)]) -> Option<(Vec<CodeIndex>, Vec<CodeIndex>)> {
        let win = self.space.scheme().win();
        let mut set = self.space.all_indices();
        let mut guesses = Vec::with_capacity(history.len());
        for &(g, f) in history {
            let (g, f) = (CodeIndex::from_index(g), FeedbackIndex::from_index(f));
            if f == win {
                return None;
            }
            set = self.space.split(g, &set).into_iter().find(|(fb, _)| *fb == f)?.1;
            guesses.push(g);
        }
        Some((guesses, set))
    }

    /// The rule recorded in trees joined from this plan.
    pub fn rule_info(&self, exact: bool) -> RuleInfo {
        let name = if exact { objective_name(self.objective) } else { "anytime-average" };
        RuleInfo::new(name, Pool::All.name(), OPTIMAL_TIES, true, self.plan.rule.first_guess.clone())
    }
}

/// The summary `plan --optimal` prints. Its JSON keys are a contract.
#[derive(Serialize)]
struct OptimalPlanSummary {
    plan: String,
    digest: String,
    game: String,
    objective: &'static str,
    first_guesses: Vec<String>,
    /// Worst case: the least worst case of the game; the jobs' limit is one less.
    max_guesses: Option<u8>,
    split_depth: u32,
    /// Split depth 2: the second guesses that may be optimal, over all parts.
    second_guesses: usize,
    shards: u32,
    jobs: usize,
    largest_part: u32,
    /// The least over the first guesses of the codes plus the plan's bounds of their parts.
    lower_bound: u64,
    largest_shard_cost: u64,
    mean_shard_cost: f64,
    largest_over_mean: f64,
    empty_shards: u32,
    commands: Vec<String>,
}

pub fn run(args: &PlanArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let output = OutputPath::check(&args.output, "-o")?;
    let game = GameConfig::resolve(&args.game.require("plan")?)?;
    let depth = args.split_depth.expect("clap requires --split-depth without --refine");
    let shards = args.shards.expect("clap requires --shards without --refine");
    let objective = match args.objective {
        ObjectiveArg::Average => Objective::Average,
        ObjectiveArg::Worst => Objective::Worst,
    };
    if depth as usize > MAX_OPTIMAL_DEPTH || (depth > 1 && objective == Objective::Worst) {
        return Err(UsageError(format!(
            "--split-depth {depth}: with --optimal 1 (one job per first guess class and part), or 2 with \
             --objective average (one per second guess that may be optimal and part)"
        ))
        .into());
    }
    check_sizes(depth, shards)?;
    let mut space = game.space()?;
    space.build_table((game.limit.0 / 2).min(super::optimal::OPTIMAL_TABLE_CAP));
    let first = match &args.rule.first {
        Some(_) => vec![config::rule(&args.rule, &game, &space)?.first_guess.expect("--first was given")],
        None => (first_guess_classes(&game.game).iter())
            .map(|c| space.index(c).expect("a class representative is a code of the game"))
            .collect(),
    };
    let spinner = crate::progress::bar(0, "first guesses", quiet);
    let plan = assemble(&space, &game.alphabet, objective, &first, args.rule.first.is_some(), depth, shards)?;
    spinner.finish_and_clear();
    plan.write(&output, out)?;
    let open =
        OpenOptimalPlan { plan, game: game.game, alphabet: game.alphabet.clone(), space, limit: game.limit, objective };
    let summary = summary(&open, &args.output);
    let mut text = Vec::new();
    match config::format(args.format) {
        Format::Json => writeln!(text, "{}", serde_json::to_string_pretty(&summary)?)?,
        _ => {
            let worst = summary.max_guesses.map(|d| format!(" (worst case {d})")).unwrap_or_default();
            writeln!(
                text,
                "{} {}{worst}: {} first guesses ({}), {} second guesses, {} jobs (largest part {}) in {} shards \
                 ({} empty); largest shard {:.3}x the mean estimated difficulty; proven lower bound {}; digest {}",
                summary.game,
                summary.objective,
                summary.first_guesses.len(),
                summary.first_guesses.join(", "),
                summary.second_guesses,
                summary.jobs,
                summary.largest_part,
                summary.shards,
                summary.empty_shards,
                summary.largest_over_mean,
                summary.lower_bound,
                summary.digest
            )?;
            for job in &summary.commands {
                writeln!(text, "{job}")?;
            }
        }
    }
    super::plan::print_summary(&text, &output, quiet, out)
}

/// The sealed plan: the first guess classes (under the worst case, those reaching the least
/// worst case), their parts with the search's lower bound and estimated difficulty, balanced.
fn assemble(
    space: &CodeSpace,
    alphabet: &Alphabet,
    objective: Objective,
    first: &[CodeIndex],
    fixed_first: bool,
    depth: u32,
    shards: u32,
) -> Result<Plan> {
    let all = space.all_indices();
    let win = space.scheme().win();
    let search = OptimalSearch::new(space, OptimalConfig::new(Objective::Average));
    let parts_of = |g: CodeIndex| -> Vec<(FeedbackIndex, Vec<CodeIndex>)> {
        space.split(g, &all).into_iter().filter(|(f, _)| *f != win).collect()
    };
    // Worst case: each class's least worst case, and the classes reaching the least of them.
    let (first, part_depth): (Vec<CodeIndex>, Option<u8>) = match objective {
        Objective::Average => (first.to_vec(), None),
        Objective::Worst => {
            let mut depths = Vec::with_capacity(first.len());
            for &g in first {
                let mut d = 1u8;
                for (_, part) in parts_of(g) {
                    d = d.max(1 + search.least_depth(&part, &[g]).map_err(|e| anyhow::anyhow!("{e}"))?);
                }
                depths.push(d);
            }
            let least = *depths.iter().min().expect("at least one first guess");
            let kept = first.iter().zip(&depths).filter(|&(_, &d)| d == least).map(|(&g, _)| g).collect();
            (kept, Some(least - 1))
        }
    };
    let mut top = Vec::new();
    let mut subtrees = Vec::new();
    let node = |history: &[Round], candidates: usize, guess: CodeIndex| PlanNode {
        path: path_text(space, alphabet, history),
        history: stored(history),
        candidates: candidates as u32,
        guess: guess.index(),
        guess_code: alphabet.format(&space.code(guess)),
    };
    // The jobs of the parts `guess` leaves of `set` after `history`.
    let mut jobs = |history: &[Round], set: &[CodeIndex], guess: CodeIndex| -> Result<()> {
        let guesses: Vec<CodeIndex> = history.iter().map(|r| r.0).chain([guess]).collect();
        for (f, part) in space.split(guess, set).into_iter().filter(|(f, _)| *f != win) {
            let history: Vec<Round> = history.iter().copied().chain([(guess, f)]).collect();
            subtrees.push(PlanSubtree {
                path: path_text(space, alphabet, &history),
                history: stored(&history),
                candidates: part.len() as u32,
                cost: difficulty(part.len()),
                shard: 0,
                lower_bound: Some(search.part_lower_bound(&part, &guesses)?),
            });
        }
        Ok(())
    };
    for &g in &first {
        top.push(node(&[], all.len(), g));
        if depth == 1 {
            jobs(&[], &all, g)?;
            continue;
        }
        for (f, part) in parts_of(g) {
            // A real strategy's total caps the second guesses that may be optimal.
            let config = OptimalConfig { node_limit: Some(CAP_NODES), ..OptimalConfig::new(Objective::Average) };
            let cap = OptimalSearch::new(space, config).run_part(&part, &[g]).map_err(|e| anyhow::anyhow!("{e}"))?;
            for (_, h) in search.promising_guesses(&part, &[g], cap.upper_bound) {
                top.push(node(&[(g, f)], part.len(), h));
                jobs(&[(g, f)], &part, h)?;
            }
        }
    }
    let costs: Vec<u64> = subtrees.iter().map(|s| s.cost).collect();
    for (s, shard) in subtrees.iter_mut().zip(balance(&costs, shards, |i| i)) {
        s.shard = shard;
    }
    let first_guess = fixed_first.then(|| alphabet.format(&space.code(first[0])));
    let mut plan = Plan {
        format: PLAN_FORMAT.to_string(),
        version: PLAN_VERSION,
        kind: OPTIMAL_KIND.to_string(),
        game: space.game().spec(),
        symbols: alphabet.first(space.game().k()),
        rule: RuleInfo::new(objective_name(objective), Pool::All.name(), OPTIMAL_TIES, true, first_guess),
        split_depth: depth,
        shards,
        // (A game of one code has no parts, and no depth left for them.)
        part_depth: part_depth.map(|d| d.max(1)),
        top,
        subtrees,
        digest: String::new(),
    };
    plan.seal();
    Ok(plan)
}

/// Figures of an optimal plan and the command line of each job.
fn summary(open: &OpenOptimalPlan, path: &Path) -> OptimalPlanSummary {
    let plan = &open.plan;
    let figures = super::plan::ShardFigures::of(plan, path, "optimal");
    let nothing = vec![None; plan.subtrees.len()];
    let lower_bound = Values::new(open, &nothing).position(&[], &open.space.all_indices()).0.lower;
    let game = &open.game;
    OptimalPlanSummary {
        plan: path.display().to_string(),
        digest: plan.digest.clone(),
        game: game.to_string(),
        objective: if plan.part_depth.is_some() { "worst" } else { "average" },
        first_guesses: plan.top.iter().filter(|t| t.history.is_empty()).map(|t| t.guess_code.clone()).collect(),
        max_guesses: plan.part_depth.map(|d| d + 1),
        split_depth: plan.split_depth,
        second_guesses: plan.top.iter().filter(|t| t.history.len() == 1).count(),
        shards: plan.shards,
        jobs: plan.subtrees.len(),
        largest_part: plan.subtrees.iter().map(|s| s.candidates).max().unwrap_or(0),
        lower_bound,
        largest_shard_cost: figures.largest,
        mean_shard_cost: figures.mean,
        largest_over_mean: figures.largest_over_mean(),
        empty_shards: figures.empty,
        commands: figures.commands,
    }
}
