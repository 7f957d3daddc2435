//! `mmtree html FILE [-o tree.html]`: the tree file as one self-contained interactive page.

use anyhow::{Context, Result};

use mmtree_io::{explorer_html, write_atomic, HtmlOptions};

use crate::cli::HtmlArgs;

pub fn run(args: &HtmlArgs) -> Result<()> {
    let output = args.output.clone().unwrap_or_else(|| args.file.with_extension("html"));
    if output == args.file {
        return Err(
            crate::UsageError(format!("'{}' is the tree file itself: give another -o", output.display())).into()
        );
    }
    super::tree_file::check_output_dir(&output)?;
    // Loading checks the file and that the game fits in memory, as every tree command does.
    let loaded = super::tree_file::load(&args.file, args.memory_limit.as_deref())?;
    let page = explorer_html(&loaded.file, HtmlOptions { max_set: args.max_set });
    write_atomic(&output, page.as_bytes()).with_context(|| format!("cannot write '{}'", output.display()))
}
