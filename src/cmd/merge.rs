//! `mmtree merge`: sweep slices (e.g. from `--shard i/N`) combined into one table.
//!
//! Every row is checked as `--resume` checks it (mmtree-sweep's `Row::check`: a game that
//! exists, a first guess of it, a histogram that fits it and agrees with max, total and
//! average), and a row key present twice, in one file or in two, is refused rather than
//! silently picked: slices of one grid are disjoint. A file whose last line is cut off is
//! refused too (resume the sweep that wrote it).

use std::io::Write;

use anyhow::{Context, Result};

use mmtree_io::write_atomic;
use mmtree_sweep::{merge, render, SweepFile};

use crate::cli::MergeArgs;
use crate::cmd::sweep::{check_output, sweep_error};
use crate::config;

pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &args.output {
        check_output(path)?;
    }
    let files = args.inputs.iter().map(|path| SweepFile::read(path)).collect::<Result<Vec<_>, _>>();
    let rows = merge(files.map_err(sweep_error)?).map_err(sweep_error)?;
    let text = render(&rows, config::format(args.format), "Sweep");
    match &args.output {
        Some(path) => {
            write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => write!(out, "{text}")?,
    }
    Ok(())
}
