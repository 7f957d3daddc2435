//! `mmtree html FILE [-o tree.html]`: the tree file as one self-contained interactive page.

use std::io::Write;

use anyhow::Result;

use mmtree_io::{explorer_html, refuse_same_file, HtmlOptions, OutputPath};

use crate::cli::HtmlArgs;

pub fn run(args: &HtmlArgs, out: &mut dyn Write) -> Result<()> {
    let path = args.output.clone().unwrap_or_else(|| args.file.with_extension("html"));
    let output = OutputPath::check(&path, "-o")?;
    refuse_same_file(&[(&args.file, "the tree file")], &[&output])?;
    // Loading checks the file and that the game fits in memory, as every tree command does.
    let loaded = super::tree_file::load(&args.file, args.memory_limit.as_deref())?;
    let page = explorer_html(&loaded.file, HtmlOptions { max_set: args.max_set });
    output.write(page.as_bytes(), out)?;
    Ok(())
}
