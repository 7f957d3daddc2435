//! `mmtree solve`: one game, one rule, the figures of its tree.

use std::io::Write;

use anyhow::Result;

use mmtree_io::Format;
use mmtree_strategy::Solver;

use crate::cli::SolveArgs;
use crate::config::{self, GameConfig};
use crate::progress;
use crate::report::SolveReport;

pub fn run(args: &SolveArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    let game = GameConfig::resolve(&args.game)?;
    let space = game.space()?;
    let rule = config::rule(&args.rule, &game, &space)?;
    let bar = progress::bar(space.len() as u64, "secrets", quiet);
    let report_progress = |n: u64| bar.inc(n);
    let tree = Solver::new(&space, rule).with_progress(&report_progress).build();
    bar.finish_and_clear();
    let report = SolveReport::new(&game.game, &rule, &tree, &space, &game.alphabet);
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
