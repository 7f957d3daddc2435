//! Shared by the commands that write files: output paths checked before the work starts.

use std::path::Path;

use mmtree_io::{OutputError, OutputPath};

/// Checks an optional output path given as `role` (e.g. `-o`); see [`OutputPath::check`].
pub fn check_output(path: Option<&Path>, role: &str) -> Result<Option<OutputPath>, OutputError> {
    path.map(|p| OutputPath::check(p, role)).transpose()
}
