//! Shared by the commands that read and write files: output paths checked before the work
//! starts, and checkpoints read back.

use std::path::Path;

use mmtree_io::{Input, OutputError, OutputPath};
use mmtree_strategy::Checkpoint;

/// Checks an optional output path given as `role` (e.g. `-o`); see [`OutputPath::check`].
pub fn check_output(path: Option<&Path>, role: &str) -> Result<Option<OutputPath>, OutputError> {
    path.map(|p| OutputPath::check(p, role)).transpose()
}

/// The checkpoint at `path`, decoded as it is read: a resumed search holds the checkpoint
/// beside its table, and the text of a large one (gigabytes) besides would add as much again.
/// JSON takes at least as many bytes as the entries it decodes to, so `limit` (the memory
/// limit) bounds both.
pub fn read_checkpoint(path: &Path, limit: u64) -> anyhow::Result<Checkpoint> {
    let reader = Input::open(path)?.into_reader(limit, "a checkpoint within the memory limit")?;
    serde_json::from_reader(reader)
        .map_err(|e| crate::UsageError(format!("checkpoint {} is not valid: {e}", path.display())).into())
}
