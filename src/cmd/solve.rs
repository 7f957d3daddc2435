//! `mmtree solve`: one game, one rule, the figures of its tree (or, with `--plan`, one job of
//! a split tree: `plan_jobs`).

use std::io::Write;

use anyhow::{anyhow, Result};

use mmtree_io::{Format, TreeFile};
use mmtree_strategy::Solver;
use mmtree_sweep::SolveReport;

use crate::cli::SolveArgs;
use crate::config::{self, GameConfig};
use crate::progress;

pub fn run(args: &SolveArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    if let Some(plan) = &args.plan {
        return super::plan_jobs::run(args, plan, quiet, out);
    }
    let game = GameConfig::resolve(&args.game.require("solve")?)?;
    let space = game.space()?;
    let rule = config::rule(&args.rule, &game, &space)?;
    let output = super::files::check_output(args.output.as_deref(), "-o")?;
    let bar = progress::bar(space.len() as u64, "secrets", quiet);
    let report_progress = |n: u64| bar.inc(n);
    let tree = Solver::new(&space, rule).with_progress(&report_progress).build();
    bar.finish_and_clear();
    let report = SolveReport::new(&game.game, &rule, &tree, &space, &game.alphabet);
    if output.is_some() || args.self_check {
        let info = super::tree_file::rule_info(&rule, &space, &game.alphabet);
        let bytes = TreeFile::new(tree, game.alphabet.first(game.game.k()), info).to_bytes();
        if args.self_check {
            // Check the bytes exactly as they will be written, with the independent checker.
            mmtree_verify::verify_bytes(&bytes, game.limit).map_err(|e| anyhow!(e).context("self-check failed"))?;
        }
        if let Some(output) = &output {
            output.write(&bytes, out)?;
            if !quiet && !output.is_stdout() {
                eprintln!("mmtree: wrote {} ({} bytes)", output.path().display(), bytes.len());
            }
        }
    }
    match config::format(args.format) {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
        format => write!(
            out,
            "{}",
            SolveReport::table(std::slice::from_ref(&report), &format!("{} {}", game.game, rule.name())).render(format)
        )?,
    }
    Ok(())
}
