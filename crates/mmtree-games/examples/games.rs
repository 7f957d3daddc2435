//! Stand-alone driver for the `games` subcommands, wired the way the main
//! `mmtree` binary wires them: `cargo run -p mmtree-games --example games -- nim 5 7 9`.

use clap::Parser;
use mmtree_games::{run, GamesCommand};

#[derive(Parser)]
#[command(name = "games", about = "Impartial games by backward induction")]
struct Cli {
    #[command(subcommand)]
    cmd: GamesCommand,
}

fn main() {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = run(&cli.cmd, &mut out) {
        eprintln!("error: {e}");
        std::process::exit(if e.is_bad_input() { 2 } else { 1 });
    }
}
