//! `mmtree stats FILE`: the figures recorded in a tree file, with the keys of `solve`.

use std::io::Write;

use anyhow::Result;

use mmtree_io::Format;
use mmtree_sweep::SolveReport;

use crate::cli::StatsArgs;
use crate::config;

pub fn run(args: &StatsArgs, out: &mut dyn Write) -> Result<()> {
    let loaded = super::tree_file::load(&args.file, None)?;
    let report = SolveReport::from_file(&loaded.file, &loaded.space, &loaded.alphabet)?;
    print_report(&report, &format!("{} {}", loaded.file.tree.game(), report.valuation), args.format, out)
}

/// Prints one report row as `solve` does.
pub fn print_report(
    report: &SolveReport,
    title: &str,
    format: crate::cli::FormatArg,
    out: &mut dyn Write,
) -> Result<()> {
    match config::format(format) {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(report)?)?,
        format => write!(out, "{}", SolveReport::table(std::slice::from_ref(report), title).render(format))?,
    }
    Ok(())
}
