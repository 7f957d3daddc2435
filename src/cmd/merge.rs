//! `mmtree merge`: sweep slices (e.g. from `--shard i/N`) combined into one table.
//!
//! Every row is checked as `--resume` checks it (mmtree-sweep's `Row::check`: a game that
//! exists, a first guess of it, a histogram that fits it and agrees with max, total and
//! average), and a row key present twice, in one file or in two, is refused rather than
//! silently picked: slices of one grid are disjoint. A file whose last line is cut off is
//! refused too (resume the sweep that wrote it).

use std::io::Write;

use anyhow::Result;

use mmtree_io::refuse_same_file;
use mmtree_sweep::{merge, render, SweepFile};

use crate::cli::MergeArgs;
use crate::cmd::sweep::sweep_error;
use crate::config;

pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<()> {
    let output = crate::cmd::files::check_output(args.output.as_deref(), "-o")?;
    let inputs: Vec<_> = args.inputs.iter().map(|p| (p.as_path(), "the input")).collect();
    refuse_same_file(&inputs, &output.iter().collect::<Vec<_>>())?;
    let files = args.inputs.iter().map(|path| SweepFile::read(path)).collect::<Result<Vec<_>, _>>();
    let rows = merge(files.map_err(sweep_error)?).map_err(sweep_error)?;
    let text = render(&rows, config::format(args.format), "Sweep");
    match &output {
        Some(output) => output.write(text.as_bytes(), out)?,
        None => write!(out, "{text}")?,
    }
    Ok(())
}
