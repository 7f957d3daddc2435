//! `mmtree completions` and `mmtree man`: shell completion scripts and man pages, generated
//! from the same clap definitions that parse the command line, so they list exactly its flags.

use std::io::Write;

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs, ShellArg};
use crate::UsageError;

pub fn completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<()> {
    let shell = match args.shell {
        ShellArg::Bash => clap_complete::Shell::Bash,
        ShellArg::Zsh => clap_complete::Shell::Zsh,
        ShellArg::Fish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(shell, &mut Cli::command(), "mmtree", out);
    Ok(())
}

pub fn man(args: &ManArgs, out: &mut dyn Write) -> Result<()> {
    let mut command = Cli::command();
    // Building names the subcommands `mmtree-solve` (page title) and `mmtree solve` (synopsis).
    command.build();
    let source = format!("mmtree {}", command.get_version().unwrap_or_default());
    let page = match &args.command {
        None => command,
        Some(name) => {
            let sub = command.find_subcommand(name).ok_or_else(|| {
                let names: Vec<&str> =
                    command.get_subcommands().map(|c| c.get_name()).filter(|&n| n != "help").collect();
                UsageError(format!("no subcommand '{name}' (one of: {})", names.join(", ")))
            })?;
            sub.clone()
        }
    };
    clap_mangen::Man::new(page).source(source).render(out)?;
    Ok(())
}
