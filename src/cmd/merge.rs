//! `mmtree merge`: sweep slices (e.g. from `--shard i/N`) combined into one table.
//!
//! Every row is re-checked (its histogram must count the game's secrets and agree with its
//! max, total and average), and a row key present twice, in one file or in two, is refused
//! rather than silently picked: slices of one grid are disjoint.

use std::collections::HashMap;
use std::io::Write;

use anyhow::Result;

use mmtree_io::refuse_same_file;

use crate::cli::MergeArgs;
use crate::cmd::sweep::{read_rows, render, sort_rows, Row, RowKey};
use crate::config;
use crate::UsageError;

pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<()> {
    let output = crate::cmd::files::check_output(args.output.as_deref(), "-o")?;
    let inputs: Vec<_> = args.inputs.iter().map(|p| (p.as_path(), "the input")).collect();
    refuse_same_file(&inputs, &output.iter().collect::<Vec<_>>())?;
    let mut seen: HashMap<RowKey, String> = HashMap::new();
    let mut rows: Vec<Row> = Vec::new();
    for path in &args.inputs {
        for (line, row) in read_rows(path)? {
            let here = format!("{}:{line}", path.display());
            let key = row.key();
            if let Some(there) = seen.get(&key) {
                return Err(UsageError(format!(
                    "overlapping rows: {} is in {there} and in {here}; slices to merge must be disjoint",
                    key.describe()
                ))
                .into());
            }
            seen.insert(key, here);
            rows.push(row);
        }
    }
    sort_rows(&mut rows);
    let text = render(&rows, config::format(args.format), "Sweep");
    match &output {
        Some(output) => output.write(text.as_bytes(), out)?,
        None => write!(out, "{text}")?,
    }
    Ok(())
}
