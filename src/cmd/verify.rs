//! `mmtree verify FILE`: the independent checker (mmtree-verify) on a tree file.

use std::io::Write;

use anyhow::{Context, Result};

use mmtree_sweep::SolveReport;

use crate::cli::VerifyArgs;

pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> Result<()> {
    let loaded = super::tree_file::load(&args.file, args.memory_limit.as_deref())?;
    mmtree_verify::verify(&loaded.file, loaded.limit)
        .with_context(|| format!("'{}' is not a valid strategy tree", args.file.display()))?;
    // The recorded figures equal the re-derived ones, so the report shows both.
    let report = SolveReport::from_file(&loaded.file, &loaded.space, &loaded.alphabet)?;
    let title = format!("{} {} (verified)", loaded.file.tree.game(), report.valuation);
    super::stats::print_report(&report, &title, args.format, out)
}
