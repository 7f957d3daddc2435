//! The `mmtree` command-line tool: parsing, progress and error reporting; no algorithms.
//!
//! One rule for exit codes, applied here for every command: 0 on success (and on a closed
//! pipe), 2 for bad input (flags, games, files, paths: anything the user can fix by changing
//! the command), 1 for a failure of the work itself (a write or read failing midway, an
//! interrupted search, a failed self-check).

mod cli;
mod cmd;
mod config;
mod progress;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};

/// Bad usage or input detected by the binary itself (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Most worker threads per core: more only slows the start (each thread is created up front)
/// and never the results, which do not depend on the thread count.
const THREADS_PER_CORE: usize = 4;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap's whole message: the problem, the usage line and the hint (help and
            // version exit 0, usage errors 2).
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    if let Some(n) = cli.threads {
        if n == 0 {
            eprintln!("mmtree: --threads must be at least 1");
            return ExitCode::from(2);
        }
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let cap = THREADS_PER_CORE * cores;
        let n = if n > cap {
            eprintln!("mmtree: --threads {n} is more than {THREADS_PER_CORE} per core ({cores} cores); using {cap}");
            cap
        } else {
            n
        };
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
        Command::Html(args) => cmd::html::run(args, &mut out),
        Command::States(args) => cmd::states::run(args, &mut out),
        Command::Export(args) => cmd::export::run(args, &mut out),
        Command::Sweep(args) => cmd::sweep::run(args, cli.quiet, &mut out),
        Command::FirstGuesses(args) => cmd::first_guesses::run(args, cli.quiet, &mut out),
        Command::Merge(args) => cmd::merge::run(args, &mut out),
        Command::Advise(args) => cmd::advise::run(args, &mut out),
        Command::Play(args) => cmd::play::run(args, &mut std::io::stdin().lock(), &mut out),
        Command::Optimal(args) => cmd::optimal::run(args, cli.quiet, &mut out),
        Command::Plan(args) => cmd::plan::run(args, cli.quiet, &mut out),
        Command::Join(args) => cmd::join::run(args, cli.quiet, &mut out),
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
    // Each cause once: transparent wrappers repeat their source's message.
    let mut message: Vec<String> = Vec::new();
    for text in err.chain().map(|e| e.to_string()) {
        if message.last() != Some(&text) {
            message.push(text);
        }
    }
    // One line, and nothing from a file or flag can reach the terminal as a control sequence.
    eprintln!("mmtree: {}", mmtree_core::printable(&message.join(": ")));
    ExitCode::from(if is_bad_input(err) { 2 } else { 1 })
}

/// Whether an error is the user's to fix: the outermost cause of a known kind decides.
fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain()
        .find_map(|e| {
            if e.is::<UsageError>() || e.is::<mmtree_core::GameError>() || e.is::<mmtree_sweep::UnknownRule>() {
                return Some(true);
            }
            (e.downcast_ref::<mmtree_games::GamesError>().map(mmtree_games::GamesError::is_bad_input))
                .or_else(|| e.downcast_ref::<mmtree_io::TreeFileError>().map(mmtree_io::TreeFileError::is_bad_input))
                .or_else(|| e.downcast_ref::<mmtree_io::InputError>().map(mmtree_io::InputError::is_bad_input))
                .or_else(|| e.downcast_ref::<mmtree_io::OutputError>().map(mmtree_io::OutputError::is_bad_input))
                .or_else(|| e.downcast_ref::<mmtree_io::PlanError>().map(mmtree_io::PlanError::is_bad_input))
                .or_else(|| e.downcast_ref::<mmtree_io::PartFileError>().map(mmtree_io::PartFileError::is_bad_input))
        })
        .unwrap_or(false)
}
