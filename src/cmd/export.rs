//! `mmtree export FILE --format json`: the tree as nested JSON (schema in the README).

use std::io::Write;

use anyhow::{Context, Result};

use mmtree_io::refuse_same_file;

use crate::cli::{ExportArgs, ExportFormatArg};

pub fn run(args: &ExportArgs, out: &mut dyn Write) -> Result<()> {
    let output = super::files::check_output(args.output.as_deref(), "-o")?;
    refuse_same_file(&[(&args.file, "the input")], &output.iter().collect::<Vec<_>>())?;
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
    match &output {
        Some(output) => output.write(text.as_bytes(), out)?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}
