//! `mmtree join PLAN PART...`: checks that the parts are exactly the plan's shards (checksums,
//! digest, shard numbers, each subtree's candidate count where the top leads), assembles the
//! top and the subtrees, and writes the same bytes a one-process `solve -o` writes
//! (`--self-check`: checked by the independent verifier first, as `solve --self-check` does).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};

use mmtree_core::{format_bytes, Game, MemoryLimit, StrategyTree, Subtree, BYTES_PER_CODE};
use mmtree_io::{refuse_same_file, Format, OutputPath, PartFile, TreeFile};

use super::plan::OpenPlan;
use super::plan_jobs::check_part;
use crate::cli::JoinArgs;
use crate::config;
use crate::UsageError;
use mmtree_sweep::SolveReport;

pub fn run(args: &JoinArgs, quiet: bool, out: &mut dyn Write) -> Result<()> {
    if mmtree_io::Plan::read(&args.plan)?.kind == super::optimal_plan::OPTIMAL_KIND {
        return super::optimal_join::run(args, quiet, out);
    }
    let output = output_of(args)?;
    let open = OpenPlan::read(&args.plan, args.memory_limit.as_deref())?;
    let plan = &open.plan;
    let needed = check_memory(args, &open.game, open.limit)?;
    if !quiet {
        eprintln!(
            "mmtree: joining {} parts of {}: about {} of memory",
            args.parts.len(),
            open.game,
            format_bytes(needed)
        );
    }
    let (parts, by_shard) =
        read_parts(&args.parts, &plan.digest, open.limit, |part| check_part(part, &open, part.header.shard, None))?;
    let mut subtrees: Vec<Option<Subtree>> = vec![None; plan.subtrees.len()];
    for (i, subtree) in parts.into_iter().flat_map(|part| part.subtrees) {
        subtrees[i as usize] = Some(subtree);
    }
    if let Some(missing) = (1..=plan.shards).find(|s| !by_shard.contains_key(s)) {
        return Err(UsageError(format!(
            "'{}': no part given for shard {missing} of {}",
            args.plan.display(),
            plan.shards
        ))
        .into());
    }
    // Every shard is present and holds exactly its subtrees, so every subtree is here.
    let subtrees: Vec<Subtree> = subtrees.into_iter().map(|s| s.expect("every shard's subtrees checked")).collect();
    let root = open.top().join(&open.space, subtrees).map_err(|e| {
        let at = super::plan::path_text(&open.space, &open.alphabet, &e.history);
        UsageError(format!("'{}': at {at}: {e}", args.plan.display()))
    })?;
    let tree = StrategyTree::from_subtree(open.game, root);
    let report = SolveReport::new(&open.game, &open.rule, &tree, &open.space, &open.alphabet);
    let bytes = TreeFile::new(tree, plan.symbols.clone(), plan.rule.clone()).to_bytes();
    if args.self_check {
        // The bytes exactly as they will be written, with the independent checker.
        mmtree_verify::verify_bytes(&bytes, open.limit).map_err(|e| anyhow!(e).context("self-check failed"))?;
    }
    output.write(&bytes, out)?;
    if !quiet && !output.is_stdout() {
        eprintln!("mmtree: wrote {} ({} bytes)", output.path().display(), bytes.len());
    }
    if output.is_stdout() {
        return Ok(());
    }
    match config::format(args.format) {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?,
        format => write!(
            out,
            "{}",
            SolveReport::table(std::slice::from_ref(&report), &format!("{} {}", open.game, open.rule.name()))
                .render(format)
        )?,
    }
    Ok(())
}

/// The joined file's output, checked before any work: its directory exists and it is none of
/// the inputs.
pub(super) fn output_of(args: &JoinArgs) -> Result<OutputPath> {
    let output = OutputPath::check(&args.output, "-o")?;
    let inputs: Vec<(&Path, &str)> = std::iter::once((args.plan.as_path(), "the plan"))
        .chain(args.parts.iter().map(|p| (p.as_path(), "a part")))
        .collect();
    refuse_same_file(&inputs, &[&output])?;
    Ok(output)
}

/// The bytes a join needs, refused when over `limit`: the tree, its nodes in preorder and the
/// file's bytes, what a one-process solve holds at the end, without the scans.
pub(super) fn check_memory(args: &JoinArgs, game: &Game, limit: MemoryLimit) -> Result<u128> {
    let part_bytes: u64 = args.parts.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let needed = game.code_count() * BYTES_PER_CODE + u128::from(part_bytes) * 2;
    if needed > u128::from(limit.0) {
        return Err(UsageError(format!(
            "joining {game} needs about {}, more than the memory limit of {} (--memory-limit)",
            format_bytes(needed),
            format_bytes(limit.0.into())
        ))
        .into());
    }
    Ok(needed)
}

/// Reads the part files given to `join` in order, each checked by its job kind's `check`
/// before the next is read; one of this plan's shards given twice is refused. Returns the
/// parts and the file each shard came from.
pub(super) fn read_parts<'a>(
    paths: &'a [PathBuf],
    digest: &str,
    limit: MemoryLimit,
    mut check: impl FnMut(&PartFile) -> std::result::Result<(), String>,
) -> Result<(Vec<PartFile>, HashMap<u32, &'a Path>)> {
    let mut by_shard: HashMap<u32, &Path> = HashMap::new();
    let mut parts = Vec::with_capacity(paths.len());
    for path in paths {
        let part = PartFile::read(path, limit)?;
        let bad = |what: String| UsageError(format!("'{}': {what}", path.display()));
        let shard = part.header.shard;
        if part.header.plan_digest == digest {
            if let Some(other) = by_shard.insert(shard, path) {
                return Err(bad(format!("shard {shard} again (also in '{}')", other.display())).into());
            }
        }
        check(&part).map_err(bad)?;
        parts.push(part);
    }
    Ok((parts, by_shard))
}
