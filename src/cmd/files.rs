//! Shared by the commands that read and write files: output paths checked before the work
//! starts, and checkpoints written and read back.

use std::path::Path;

use mmtree_io::{Input, OutputError, OutputPath};
use mmtree_strategy::OptimalSearch;

use crate::progress::ReadThen;

/// Checks an optional output path given as `role` (e.g. `-o`); see [`OutputPath::check`].
pub fn check_output(path: Option<&Path>, role: &str) -> Result<Option<OutputPath>, OutputError> {
    path.map(|p| OutputPath::check(p, role)).transpose()
}

/// Resumes `search` from the checkpoint at `path`, each entry stored in its table as it is
/// read: decoded whole first, a checkpoint of gigabytes took as much memory again beside the
/// table. JSON takes at least as many bytes as the entries it holds, so `limit` (the memory
/// limit) bounds the file. Reading one of gigabytes takes minutes, hence the bar.
pub fn resume(search: &OptimalSearch, path: &Path, limit: u64, quiet: bool) -> anyhow::Result<()> {
    let input = Input::open(path)?;
    let bar = crate::progress::bytes(input.size(), "of checkpoint read", quiet);
    let input = input.into_reader(limit, "a checkpoint within the memory limit")?;
    // The bar counts whole buffers, not the decoder's single bytes.
    let reader = std::io::BufReader::new(ReadThen::new(input, bar.clone(), "proving entries"));
    let resumed = search.resume_json(reader);
    bar.finish_and_clear();
    resumed.map_err(|e| crate::UsageError(format!("checkpoint {}: {e}", path.display())).into())
}

/// Writes `search`'s checkpoint to `path` (atomically), from its table in place.
pub fn save_checkpoint(
    search: &OptimalSearch,
    path: &OutputPath,
    out: &mut dyn std::io::Write,
    quiet: bool,
) -> anyhow::Result<()> {
    let bar = crate::progress::bytes(None, "of checkpoint written", quiet);
    // The entries are proven before the first byte is written: the clock runs meanwhile.
    bar.enable_steady_tick(std::time::Duration::from_millis(100));
    let written = path.write_with(out, &mut |w| {
        let mut counted = std::io::BufWriter::new(bar.wrap_write(w));
        search.write_checkpoint(&mut counted)?;
        std::io::Write::flush(&mut counted)
    });
    bar.finish_and_clear();
    Ok(written?)
}
