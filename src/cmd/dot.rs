//! `mmtree dot FILE`: a Graphviz drawing of a tree file, optionally rendered by `dot`.

use std::io::Write;
use std::process::{Command, Stdio};

use anyhow::{anyhow, bail, Context, Result};

use mmtree_io::{refuse_same_file, strategy_graph, to_dot_with, DotLabels, DotOptions, RankDir};

use crate::cli::{DotArgs, LabelsArg, RankDirArg, RenderArg};

pub fn run(args: &DotArgs, out: &mut dyn Write) -> Result<()> {
    if args.render.is_some() && args.output.is_none() {
        bail!(crate::UsageError("--render needs an output file: add -o FILE".into()));
    }
    let output = super::files::check_output(args.output.as_deref(), "-o")?;
    refuse_same_file(&[(&args.file, "the input")], &output.iter().collect::<Vec<_>>())?;
    let loaded = super::tree_file::load(&args.file, args.memory_limit.as_deref())?;
    let options = DotOptions {
        max_depth: args.max_depth,
        max_set: args.max_set,
        labels: match args.labels {
            LabelsArg::Set => DotLabels::Set,
            LabelsArg::Rounds => DotLabels::Rounds,
            LabelsArg::Size => DotLabels::Size,
        },
        win_edges: args.win_edges,
        rankdir: args.rankdir.map(rankdir),
    };
    let graph = strategy_graph(&loaded.file.tree, &loaded.space, &loaded.alphabet, options);
    let text = to_dot_with(&graph, &options);
    let bytes = match args.render {
        Some(kind) => render(&text, kind)?,
        None => text.into_bytes(),
    };
    match &output {
        Some(output) => output.write(&bytes, out)?,
        None => out.write_all(&bytes)?,
    }
    Ok(())
}

pub fn rankdir(arg: RankDirArg) -> RankDir {
    match arg {
        RankDirArg::Tb => RankDir::TopBottom,
        RankDirArg::Lr => RankDir::LeftRight,
        RankDirArg::Bt => RankDir::BottomTop,
        RankDirArg::Rl => RankDir::RightLeft,
    }
}

/// Runs Graphviz `dot -Tsvg|-Tpng` on the DOT text.
fn render(text: &str, kind: RenderArg) -> Result<Vec<u8>> {
    let format = match kind {
        RenderArg::Svg => "-Tsvg",
        RenderArg::Png => "-Tpng",
    };
    let mut child = match Command::new("dot").arg(format).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "--render needs Graphviz, but its `dot` program is not installed (e.g. `apt-get install graphviz`); without --render, mmtree writes the DOT text"
        ),
        Err(e) => return Err(anyhow!(e).context("cannot run Graphviz `dot`")),
    };
    // Feed stdin from a thread so a large drawing cannot deadlock on full pipes.
    let mut stdin = child.stdin.take().ok_or_else(|| anyhow!("cannot open the input of Graphviz `dot`"))?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().context("Graphviz `dot` failed")?;
    writer
        .join()
        .map_err(|_| anyhow!("writing to Graphviz `dot` panicked"))?
        .context("cannot write to Graphviz `dot`")?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        bail!("Graphviz `dot` failed ({}): {}", output.status, err.lines().next().unwrap_or("no message"));
    }
    Ok(output.stdout)
}
