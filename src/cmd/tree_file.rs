//! Shared by the tree-file commands: loading a file with its alphabet and code space, and
//! describing a rule as plain data for the header.

use std::path::Path;

use anyhow::{Context, Result};

use mmtree_core::{Alphabet, CodeSpace, MemoryLimit};
use mmtree_io::{RuleInfo, TreeFile};
use mmtree_strategy::GuessRule;
use mmtree_sweep::recorded_rule;

/// A tree file with what is needed to print its codes.
pub struct Loaded {
    pub file: TreeFile,
    pub alphabet: Alphabet,
    pub space: CodeSpace,
    pub limit: MemoryLimit,
}

pub fn memory_limit(text: Option<&str>) -> Result<MemoryLimit> {
    Ok(match text {
        Some(t) => MemoryLimit::parse(t).map_err(crate::UsageError)?,
        None => MemoryLimit::machine_default(),
    })
}

/// Reads, decodes and prepares a tree file (the file is named in every error). Every command
/// reading tree files comes through here, so they all accept and refuse the same files.
pub fn load(path: &Path, limit: Option<&str>) -> Result<Loaded> {
    let limit = memory_limit(limit)?;
    let file = TreeFile::read(path, limit)?;
    recorded_rule(&file.header.rule).with_context(|| format!("'{}'", path.display()))?;
    let alphabet = Alphabet::new(&file.header.symbols)
        .with_context(|| format!("'{}': invalid symbols in the header", path.display()))?;
    if alphabet.len() < file.tree.game().k() as usize {
        return Err(crate::UsageError(format!(
            "'{}': the header's symbols '{}' cannot write {} colours",
            path.display(),
            file.header.symbols,
            file.tree.game().k()
        ))
        .into());
    }
    let space = CodeSpace::new(*file.tree.game(), limit).with_context(|| format!("'{}'", path.display()))?;
    Ok(Loaded { file, alphabet, space, limit })
}

/// The rule as the header stores it.
pub fn rule_info(rule: &GuessRule, space: &CodeSpace, alphabet: &Alphabet) -> RuleInfo {
    RuleInfo::new(
        rule.name(),
        rule.pool.name(),
        rule.ties.name(),
        rule.prefer_candidates,
        rule.first_guess.map(|g| alphabet.format(&space.code(g))),
    )
}
