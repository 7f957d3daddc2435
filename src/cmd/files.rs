//! Shared by the commands that read or write files: output paths checked before the work
//! starts, and the bounds on text inputs.

use std::path::Path;

use mmtree_io::{OutputError, OutputPath};

/// Most bytes read from a sweep table (CSV or JSON lines): far above any real sweep, far below
/// what would strain memory.
pub const TABLE_LIMIT: u64 = 256 << 20;

/// Checks an optional output path given as `role` (e.g. `-o`); see [`OutputPath::check`].
pub fn check_output(path: Option<&Path>, role: &str) -> Result<Option<OutputPath>, OutputError> {
    path.map(|p| OutputPath::check(p, role)).transpose()
}
