//! `mmtree html FILE -o tree.html`: the tree file as one self-contained interactive page.

use anyhow::{Context, Result};

use mmtree_io::{explorer_html, write_atomic, HtmlOptions};

use crate::cli::HtmlArgs;

pub fn run(args: &HtmlArgs) -> Result<()> {
    super::tree_file::check_output_dir(&args.output)?;
    // Loading checks the file and that the game fits in memory, as every tree command does.
    let loaded = super::tree_file::load(&args.file, args.memory_limit.as_deref())?;
    let page = explorer_html(&loaded.file, HtmlOptions { max_set: args.max_set });
    write_atomic(&args.output, page.as_bytes()).with_context(|| format!("cannot write '{}'", args.output.display()))
}
