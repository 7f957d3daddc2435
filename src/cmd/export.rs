//! `mmtree export FILE --format json`: the tree as nested JSON (schema in the README).

use std::io::Write;

use anyhow::{Context, Result};

use crate::cli::{ExportArgs, ExportFormatArg};

pub fn run(args: &ExportArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &args.output {
        super::tree_file::check_output_dir(path)?;
    }
    let loaded = super::tree_file::load(&args.file, args.memory_limit.as_deref())?;
    let text = match args.format {
        ExportFormatArg::Json => {
            let value = mmtree_io::tree_json(&loaded.file, &loaded.space, &loaded.alphabet)
                .with_context(|| format!("cannot export '{}'", args.file.display()))?;
            let mut text = serde_json::to_string(&value)?;
            text.push('\n');
            text
        }
    };
    match &args.output {
        Some(path) => mmtree_io::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write '{}'", path.display()))?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}
