//! The `mmtree` command-line tool: parsing, progress and error reporting; no algorithms.

mod cli;
mod cmd;
mod config;
mod progress;
mod report;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};

/// Bad usage or input detected by the binary itself (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = err.print();
                return ExitCode::from(if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    2
                } else {
                    0
                });
            }
            // One line: clap's first line names the problem; the rest is usage boilerplate.
            let rendered = err.render().to_string();
            let first = rendered.lines().next().unwrap_or("error: invalid arguments");
            let hint = rendered.lines().find(|l| l.trim_start().starts_with("[possible values")).map(str::trim);
            match hint {
                Some(h) => eprintln!("mmtree: {} {}", first.trim_start_matches("error: "), h),
                None => eprintln!("mmtree: {}", first.trim_start_matches("error: ")),
            }
            return ExitCode::from(2);
        }
    };
    if let Some(n) = cli.threads {
        if n == 0 {
            eprintln!("mmtree: --threads must be at least 1");
            return ExitCode::from(2);
        }
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n).build_global() {
            eprintln!("mmtree: cannot start {n} threads: {e}");
            return ExitCode::from(1);
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Solve(args) => cmd::solve::run(args, cli.quiet, &mut out),
        Command::Thesis(args) => cmd::thesis::run(args, &mut out),
        Command::Games { command } => mmtree_games::run(command, &mut out).map_err(anyhow::Error::from),
        Command::Stats(args) => cmd::stats::run(args, &mut out),
        Command::Verify(args) => cmd::verify::run(args, &mut out),
        Command::Trace(args) => cmd::trace::run(args, &mut out),
        Command::Dot(args) => cmd::dot::run(args, &mut out),
        Command::Html(args) => cmd::html::run(args),
        Command::States(args) => cmd::states::run(args, &mut out),
        Command::Export(args) => cmd::export::run(args, &mut out),
        Command::Sweep(args) => cmd::sweep::run(args, cli.quiet, &mut out),
        Command::FirstGuesses(args) => cmd::first_guesses::run(args, cli.quiet, &mut out),
        Command::Merge(args) => cmd::merge::run(args, &mut out),
        Command::Advise(args) => cmd::advise::run(args, &mut out),
        Command::Play(args) => cmd::play::run(args, &mut std::io::stdin().lock(), &mut out),
        Command::Optimal(args) => cmd::optimal::run(args, cli.quiet, &mut out),
        Command::Completions(args) => cmd::shell::completions(args, &mut out),
        Command::Man(args) => cmd::shell::man(args, &mut out),
    }
    .and_then(|()| out.flush().map_err(anyhow::Error::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => report(&err),
    }
}

/// Prints the error chain on one line; 2 for bad input, 1 for failures, 0 on a closed pipe.
fn report(err: &anyhow::Error) -> ExitCode {
    if err
        .chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
    {
        return ExitCode::SUCCESS;
    }
    let message: Vec<String> = err.chain().map(|e| e.to_string()).collect();
    eprintln!("mmtree: {}", message.join(": "));
    let usage = err.chain().any(|e| {
        e.is::<UsageError>()
            || e.is::<mmtree_core::GameError>()
            || e.is::<mmtree_games::GamesError>()
            || e.downcast_ref::<mmtree_io::TreeFileError>().is_some_and(|e| e.is_bad_input())
    });
    ExitCode::from(if usage { 2 } else { 1 })
}
