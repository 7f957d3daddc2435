//! `mmtree thesis`: every [4,6] table of the thesis, recomputed (mmtree-sweep's `thesis`).

use std::io::Write;

use anyhow::Result;

use mmtree_io::render_tables;
use mmtree_sweep::thesis::tables;

use crate::cli::ThesisArgs;
use crate::config;

pub fn run(args: &ThesisArgs, out: &mut dyn Write) -> Result<()> {
    let tables = tables()?;
    write!(out, "{}", render_tables(&tables, config::format(args.format)))?;
    Ok(())
}
