//! `mmtree plan`: the top of one game's tree and its subtrees at a split depth, balanced over
//! shards (longest-processing-time first by the builder's cost estimate), written as a plan
//! for `solve --plan` jobs and `join`; `--refine` takes a plan one level deeper with the
//! guesses its jobs chose.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::hash::Hash;
use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, FeedbackIndex, Game};
use mmtree_io::{Format, OutputPath, Plan, PlanGuesses, PlanNode, PlanSubtree, RuleInfo, PLAN_FORMAT, PLAN_VERSION};
use mmtree_strategy::{GuessRule, Round, Solver, SplitNode, Top, TopNode};

use crate::cli::PlanArgs;
use crate::config::{self, GameConfig};
use crate::UsageError;

/// The kind of plan whose jobs build whole subtrees under a guess rule.
pub const TREE_KIND: &str = "tree";
/// Deepest split accepted (deeper tops are as costly to plan as the tree itself).
const MAX_SPLIT_DEPTH: u32 = 6;
/// Most shards of one plan.
const MAX_SHARDS: u32 = 1 << 20;

/// A plan opened for work: its game, symbols, code space and rule.
pub struct OpenPlan {
    pub plan: Plan,
    pub game: Game,
    pub alphabet: Alphabet,
    pub space: CodeSpace,
    pub rule: GuessRule,
    pub limit: mmtree_core::MemoryLimit,
}

impl OpenPlan {
    /// Reads a plan and prepares its game (every error names the file).
    pub fn read(path: &Path, memory_limit: Option<&str>) -> Result<OpenPlan> {
        let plan = Plan::read(path)?;
        let bad = |what: String| UsageError(format!("'{}' is not a valid plan: {what}", path.display()));
        if plan.kind == super::optimal_plan::OPTIMAL_KIND {
            return Err(UsageError(format!(
                "'{}' is a plan of the exact optimum: run its jobs with `mmtree optimal --plan`",
                path.display()
            ))
            .into());
        }
        if plan.kind != TREE_KIND {
            return Err(bad(format!("kind '{}', this build runs '{TREE_KIND}' plans", plan.kind)).into());
        }
        let (game, alphabet, space, limit) = open_game(&plan, path, memory_limit)?;
        let rule = config::recorded_guess_rule(&plan.rule, &space, &alphabet)
            .ok_or_else(|| bad(format!("unknown rule {:?}", plan.rule)))?;
        for (i, s) in plan.subtrees.iter().enumerate() {
            history_rounds(&space, &s.history).ok_or_else(|| bad(format!("subtree {i} has an impossible history")))?;
        }
        for (i, n) in plan.top.iter().enumerate() {
            if history_rounds(&space, &n.history).is_none() || n.guess as usize >= space.len() {
                return Err(bad(format!("top node {i} has an impossible history or guess")).into());
            }
        }
        Ok(OpenPlan { plan, game, alphabet, space, rule, limit })
    }

    /// The plan's top as the builder's type.
    pub fn top(&self) -> Top {
        let rounds = |h: &[(u32, u8)]| history_rounds(&self.space, h).unwrap_or_default();
        Top {
            nodes: (self.plan.top.iter())
                .map(|n| TopNode {
                    history: rounds(&n.history),
                    candidates: n.candidates,
                    guess: CodeIndex::from_index(n.guess),
                })
                .collect(),
            split: (self.plan.subtrees.iter())
                .map(|s| SplitNode { history: rounds(&s.history), candidates: s.candidates })
                .collect(),
        }
    }

    /// The rounds of subtree `i`.
    pub fn rounds(&self, i: u32) -> Vec<Round> {
        history_rounds(&self.space, &self.plan.subtrees[i as usize].history).expect("histories checked on reading")
    }
}

/// A plan's game, symbols, code space and memory limit (every error names the file).
pub fn open_game(
    plan: &Plan,
    path: &Path,
    memory_limit: Option<&str>,
) -> Result<(Game, Alphabet, CodeSpace, mmtree_core::MemoryLimit)> {
    let bad = |what: String| UsageError(format!("'{}' is not a valid plan: {what}", path.display()));
    let game = Game::new(plan.game).map_err(|e| bad(e.to_string()))?;
    let alphabet = Alphabet::new(&plan.symbols).map_err(|e| bad(e.to_string()))?;
    if alphabet.len() < game.k() as usize {
        return Err(bad(format!("symbols '{}' cannot write {} colours", plan.symbols, game.k())).into());
    }
    let limit = super::tree_file::memory_limit(memory_limit)?;
    let space = GameConfig { game, alphabet: alphabet.clone(), limit }.space()?;
    Ok((game, alphabet, space, limit))
}

/// A stored history as rounds, if every index is in range.
pub fn history_rounds(space: &CodeSpace, history: &[(u32, u8)]) -> Option<Vec<Round>> {
    history
        .iter()
        .map(|&(g, f)| {
            ((g as usize) < space.len() && (f as usize) < space.scheme().len())
                .then(|| (CodeIndex::from_index(g), FeedbackIndex::from_index(f)))
        })
        .collect()
}

pub fn stored(history: &[Round]) -> Vec<(u32, u8)> {
    history.iter().map(|&(g, f)| (g.index(), f.index())).collect()
}

/// `1122 (1,0) → 1344 (0,2)`, or `root`.
pub fn path_text(space: &CodeSpace, alphabet: &Alphabet, history: &[Round]) -> String {
    if history.is_empty() {
        return "root".to_string();
    }
    let rounds: Vec<String> = history
        .iter()
        .map(|&(g, f)| format!("{} {}", alphabet.format(&space.code(g)), space.scheme().format(f)))
        .collect();
    rounds.join(" → ")
}

/// The summary `plan` prints. Its JSON keys are a contract.
#[derive(Serialize)]
struct PlanSummary {
    plan: String,
    digest: String,
    game: String,
    valuation: String,
    split_depth: u32,
    shards: u32,
    top_nodes: usize,
    subtrees: usize,
    largest_shard_cost: u64,
    mean_shard_cost: f64,
    largest_over_mean: f64,
    largest_subtree_cost: u64,
    empty_shards: u32,
    jobs: Vec<String>,
}

pub fn run(args: &PlanArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    if args.optimal {
        return super::optimal_plan::run(args, quiet, out);
    }
    let output = OutputPath::check(&args.output, "-o")?;
    let (plan, game) = match &args.refine {
        Some(path) => refine(args, path)?,
        None => fresh(args, quiet)?,
    };
    plan.write(&output, out)?;
    let summary = summary(&plan, &game, &args.output);
    let mut text = Vec::new();
    match config::format(args.format) {
        Format::Json => writeln!(text, "{}", serde_json::to_string_pretty(&summary)?)?,
        _ => {
            writeln!(
                text,
                "{} {}: split depth {}, {} top nodes, {} subtrees in {} shards ({} empty); \
                 largest shard {:.3}x the mean estimated cost (largest subtree {:.3}x); digest {}",
                summary.game,
                summary.valuation,
                summary.split_depth,
                summary.top_nodes,
                summary.subtrees,
                summary.shards,
                summary.empty_shards,
                summary.largest_over_mean,
                summary.largest_subtree_cost as f64 / summary.mean_shard_cost.max(1.0),
                summary.digest
            )?;
            for job in &summary.jobs {
                writeln!(text, "{job}")?;
            }
        }
    }
    print_summary(&text, &output, quiet, out)
}

/// A plan's summary: on `out`, or on standard error (unless `quiet`) when the plan itself is
/// going to standard output.
pub fn print_summary(text: &[u8], output: &OutputPath, quiet: bool, out: &mut dyn Write) -> Result<()> {
    if output.is_stdout() {
        if !quiet {
            std::io::stderr().write_all(text)?;
        }
    } else {
        out.write_all(text)?;
    }
    Ok(())
}

/// A plan computed from the game and rule flags.
fn fresh(args: &PlanArgs, quiet: bool) -> Result<(Plan, Game)> {
    let game = GameConfig::resolve(&args.game.require("plan")?)?;
    let space = game.space()?;
    let rule = config::rule(&args.rule, &game, &space)?;
    let depth = args.split_depth.expect("clap requires --split-depth without --refine");
    let shards = args.shards.expect("clap requires --shards without --refine");
    check_sizes(depth, shards)?;
    let solver = Solver::new(&space, rule);
    let spinner = crate::progress::bar(0, "top nodes", quiet);
    let top = solver.top(depth as usize);
    spinner.finish_and_clear();
    let info = super::tree_file::rule_info(&rule, &space, &game.alphabet);
    let plan = assemble(&solver, &space, &game.alphabet, info, depth, shards, top);
    Ok((plan, game.game))
}

pub fn check_sizes(depth: u32, shards: u32) -> Result<()> {
    if depth == 0 || depth > MAX_SPLIT_DEPTH {
        return Err(UsageError(format!("--split-depth {depth}: must be 1 to {MAX_SPLIT_DEPTH}")).into());
    }
    if shards == 0 || shards > MAX_SHARDS {
        return Err(UsageError(format!("--shards {shards}: must be 1 to {MAX_SHARDS}")).into());
    }
    Ok(())
}

/// The plan one level deeper than `path`, with the guesses its jobs chose.
fn refine(args: &PlanArgs, path: &Path) -> Result<(Plan, Game)> {
    let open = OpenPlan::read(path, args.game.memory_limit.as_deref())?;
    let old = &open.plan;
    let shards = args.shards.unwrap_or(old.shards);
    check_sizes(old.split_depth + 1, shards)?;
    if args.guesses.is_empty() {
        return Err(UsageError("plan --refine: give the guess lists of every shard (solve --guesses)".into()).into());
    }
    // Guesses of the old plan's top, then of its subtree roots from the lists.
    let mut known: HashMap<Vec<(u32, u8)>, u32> = old.top.iter().map(|n| (n.history.clone(), n.guess)).collect();
    let mut seen: HashMap<u32, &Path> = HashMap::new();
    for file in &args.guesses {
        let list = PlanGuesses::read(file)?;
        let bad = |what: String| UsageError(format!("'{}': {what}", file.display()));
        if list.plan_digest != old.digest {
            return Err(bad(format!(
                "guesses of another plan (digest {}, '{}' has {})",
                list.plan_digest,
                path.display(),
                old.digest
            ))
            .into());
        }
        if list.shard == 0 || list.shard > old.shards || list.shards != old.shards {
            return Err(bad(format!("shard {}/{} is not a shard of the plan", list.shard, list.shards)).into());
        }
        if let Some(other) = seen.insert(list.shard, file) {
            return Err(bad(format!("shard {} again (also in '{}')", list.shard, other.display())).into());
        }
        let ids: Vec<u32> = list.guesses.iter().map(|g| g.0).collect();
        if ids != old.subtrees_of(list.shard) {
            return Err(bad(format!("does not hold exactly the subtrees of shard {}", list.shard)).into());
        }
        for &(id, guess, _) in &list.guesses {
            if guess as usize >= open.space.len() {
                return Err(bad(format!("guess index {guess} is not a code of the game")).into());
            }
            known.insert(old.subtrees[id as usize].history.clone(), guess);
        }
    }
    if let Some(missing) = (1..=old.shards).find(|s| !seen.contains_key(s)) {
        return Err(UsageError(format!(
            "'{}': no guess list given for shard {missing} of {}",
            path.display(),
            old.shards
        ))
        .into());
    }
    let win = open.space.scheme().win();
    let top = Top::expand(&open.space, old.split_depth as usize + 1, &mut |history, candidates| {
        let at = stored(history);
        let guess = *known.get(&at).ok_or_else(|| {
            UsageError(format!(
                "'{}': no guess for {}",
                path.display(),
                path_text(&open.space, &open.alphabet, history)
            ))
        })?;
        let guess = CodeIndex::from_index(guess);
        // A guess that splits nothing would never end the game.
        let parts = open.space.split(guess, candidates);
        if parts.len() == 1 && parts[0].0 != win {
            return Err(UsageError(format!(
                "the guess {} at {} does not split its {} candidates",
                open.alphabet.format(&open.space.code(guess)),
                path_text(&open.space, &open.alphabet, history),
                candidates.len()
            )));
        }
        Ok(guess)
    })?;
    let solver = Solver::new(&open.space, open.rule);
    let plan = assemble(&solver, &open.space, &open.alphabet, old.rule.clone(), old.split_depth + 1, shards, top);
    Ok((plan, open.game))
}

/// The sealed plan of a top: costs estimated, subtrees assigned by [`balance`] with siblings
/// (same parent) as families: siblings share the reduced guess pools and the group's
/// representatives, which a job otherwise builds again.
fn assemble(
    solver: &Solver,
    space: &CodeSpace,
    alphabet: &Alphabet,
    rule: RuleInfo,
    depth: u32,
    shards: u32,
    top: Top,
) -> Plan {
    let costs: Vec<u64> =
        top.split.iter().map(|s| solver.estimated_cost(s.candidates as usize).ceil() as u64).collect();
    let shard_of = balance(&costs, shards, |i| &top.split[i].history[..top.split[i].history.len() - 1]);
    let nodes = top
        .nodes
        .iter()
        .map(|n| PlanNode {
            path: path_text(space, alphabet, &n.history),
            history: stored(&n.history),
            candidates: n.candidates,
            guess: n.guess.index(),
            guess_code: alphabet.format(&space.code(n.guess)),
        })
        .collect();
    let subtrees = top
        .split
        .iter()
        .enumerate()
        .map(|(i, s)| PlanSubtree {
            path: path_text(space, alphabet, &s.history),
            history: stored(&s.history),
            candidates: s.candidates,
            cost: costs[i],
            shard: shard_of[i],
            lower_bound: None,
        })
        .collect();
    let mut plan = Plan {
        format: PLAN_FORMAT.to_string(),
        version: PLAN_VERSION,
        kind: TREE_KIND.to_string(),
        game: space.game().spec(),
        symbols: alphabet.first(space.game().k()),
        rule,
        split_depth: depth,
        shards,
        part_depth: None,
        top: nodes,
        subtrees,
        digest: String::new(),
    };
    plan.seal();
    plan
}

/// The shard (1-based) of each job: longest first to the least loaded shard (ties: the
/// earlier job, the lower shard), or to a shard already holding some of its `family` when
/// that keeps the shard within the mean load (or within what the least loaded would reach)
/// and the family's share of it within a quarter of the mean. The estimate errs alike on a
/// family, so each shard keeps a mix of families for its errors to average out. With every
/// job its own family this is plain longest-first.
pub fn balance<F: Hash + Eq>(costs: &[u64], shards: u32, family: impl Fn(usize) -> F) -> Vec<u32> {
    let mean = costs.iter().map(|&c| c as f64).sum::<f64>() / f64::from(shards);
    let share = (mean / 4.0) as u64;
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (Reverse(costs[i]), i));
    let mut loads = vec![0u64; shards as usize];
    // By family, the shards holding some of it and how much.
    let mut holding: HashMap<F, Vec<(usize, u64)>> = HashMap::new();
    let mut shard_of = vec![0u32; costs.len()];
    for i in order {
        let least = (0..loads.len()).min_by_key(|&s| (loads[s], s)).expect("at least one shard");
        let limit = (mean as u64).max(loads[least].saturating_add(costs[i]));
        let held_by = holding.entry(family(i)).or_default();
        let near = held_by
            .iter()
            .filter(|&&(s, held)| loads[s].saturating_add(costs[i]) <= limit && held.saturating_add(costs[i]) <= share)
            .map(|&(s, _)| s)
            .min_by_key(|&s| (loads[s], s));
        let shard = near.unwrap_or(least);
        match held_by.iter_mut().find(|(s, _)| *s == shard) {
            Some((_, held)) => *held = held.saturating_add(costs[i]),
            None => held_by.push((shard, costs[i])),
        }
        loads[shard] = loads[shard].saturating_add(costs[i]);
        shard_of[i] = shard as u32 + 1;
    }
    shard_of
}

/// How a plan's estimated cost falls on its shards, and the command line of each job.
pub struct ShardFigures {
    pub largest: u64,
    pub mean: f64,
    pub empty: u32,
    pub commands: Vec<String>,
}

impl ShardFigures {
    /// The figures of `plan` (read from `path`), whose jobs run `mmtree <command> --plan`.
    pub fn of(plan: &Plan, path: &Path, command: &str) -> ShardFigures {
        let mut loads = vec![0u64; plan.shards as usize];
        for s in &plan.subtrees {
            loads[s.shard as usize - 1] += s.cost;
        }
        let width = plan.shards.to_string().len();
        let commands = (1..=plan.shards)
            .map(|i| {
                let (path, n) = (path.display(), plan.shards);
                format!("mmtree {command} --plan {path} --shard {i}/{n} -o part-{i:0width$}.mmt")
            })
            .collect();
        ShardFigures {
            largest: loads.iter().copied().max().unwrap_or(0),
            mean: loads.iter().sum::<u64>() as f64 / f64::from(plan.shards),
            empty: loads.iter().filter(|&&l| l == 0).count() as u32,
            commands,
        }
    }

    /// The largest shard's cost over the mean (1 when nothing is estimated).
    pub fn largest_over_mean(&self) -> f64 {
        if self.mean > 0.0 {
            self.largest as f64 / self.mean
        } else {
            1.0
        }
    }
}

/// Figures of a plan and the command line of each job.
fn summary(plan: &Plan, game: &Game, path: &Path) -> PlanSummary {
    let figures = ShardFigures::of(plan, path, "solve");
    PlanSummary {
        plan: path.display().to_string(),
        digest: plan.digest.clone(),
        game: game.to_string(),
        valuation: plan.rule.valuation.clone(),
        split_depth: plan.split_depth,
        shards: plan.shards,
        top_nodes: plan.top.len(),
        subtrees: plan.subtrees.len(),
        largest_shard_cost: figures.largest,
        mean_shard_cost: figures.mean,
        largest_over_mean: figures.largest_over_mean(),
        largest_subtree_cost: plan.subtrees.iter().map(|s| s.cost).max().unwrap_or(0),
        empty_shards: figures.empty,
        jobs: figures.commands,
    }
}
