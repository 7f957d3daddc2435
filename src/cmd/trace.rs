//! `mmtree trace`: one game against one secret, round by round (the thesis's Solve
//! procedure): the guess, the feedback, and how many candidates are left.
//!
//! From a tree file the rounds are read off the tree; without one, the rule chooses each
//! guess on the current candidate set, exactly as the builder does at that node.

use std::io::Write;

use anyhow::{bail, Result};

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, Node};
use mmtree_io::{Cell, Table};
use mmtree_strategy::{Pool, Solver, Ties, Valuation};

use crate::cli::{GameArgs, TraceArgs};
use crate::config::{self, GameConfig};
use crate::UsageError;

struct Round {
    guess: CodeIndex,
    feedback: String,
    left: u64,
}

pub fn run(args: &TraceArgs, out: &mut dyn Write) -> Result<()> {
    let (rounds, title, space, alphabet) = match &args.file {
        Some(path) => {
            // clap refuses the game and rule flags beside FILE (`conflicts_with_all`).
            let loaded = super::tree_file::load(path, args.memory_limit.as_deref())?;
            let secret = parse_secret(&loaded.space, &loaded.alphabet, &args.secret)?;
            let rounds = from_tree(&loaded.file.tree, &loaded.space, secret, path)?;
            let title =
                format!("{} {} ({})", loaded.file.tree.game(), loaded.file.header.rule.valuation, path.display());
            (rounds, title, loaded.space, loaded.alphabet)
        }
        None => {
            let (Some(n), Some(k)) = (args.n, args.k) else {
                bail!(UsageError("trace: give a tree FILE, or the game with -n and -k".into()));
            };
            let game_args = GameArgs {
                n,
                k,
                distinct: args.distinct,
                black_only: args.black_only,
                symbols: args.symbols.clone(),
                memory_limit: args.memory_limit.clone(),
            };
            let game = GameConfig::resolve(&game_args)?;
            let space = game.space()?;
            let rule = config::rule(&args.rule, &game, &space)?;
            let secret = parse_secret(&space, &game.alphabet, &args.secret)?;
            let solver = Solver::new(&space, rule);
            let mut candidates = space.all_indices();
            let mut rounds = Vec::new();
            let win = space.scheme().win();
            loop {
                let guess = match (rounds.is_empty(), rule.first_guess) {
                    (true, Some(first)) => first,
                    _ => solver.choose(&candidates),
                };
                let f = space.feedback(guess, secret);
                candidates.retain(|&c| space.feedback(guess, c) == f);
                rounds.push(Round { guess, feedback: space.scheme().format(f), left: candidates.len() as u64 });
                if f == win {
                    break;
                }
            }
            let title = format!("{} {}", game.game, describe(rule.valuation, rule.pool, rule.ties));
            (rounds, title, space, game.alphabet)
        }
    };
    let mut table = Table::new(&format!("{title}: secret {}", args.secret), &["round", "guess", "feedback", "left"]);
    for (i, r) in rounds.iter().enumerate() {
        table.push(vec![
            Cell::Int(i as i128 + 1),
            alphabet.format(&space.code(r.guess)).into(),
            r.feedback.clone().into(),
            Cell::Int(r.left.into()),
        ]);
    }
    write!(out, "{}", table.render(config::format(args.format)))?;
    Ok(())
}

fn describe(valuation: Valuation, pool: Pool, ties: Ties) -> String {
    let mut s = valuation.name().to_string();
    if pool != Pool::All {
        s.push_str(&format!(", pool {}", pool.name()));
    }
    if ties != Ties::Smallest {
        s.push_str(&format!(", ties {}", ties.name()));
    }
    s
}

fn parse_secret(space: &CodeSpace, alphabet: &Alphabet, text: &str) -> Result<CodeIndex> {
    let code = alphabet.parse(space.game(), text).map_err(|e| anyhow::Error::new(e).context("--secret"))?;
    Ok(space.index(&code).expect("a parsed code of the game has an index"))
}

/// Follows the tree from the root along the secret's feedbacks.
fn from_tree(
    tree: &mmtree_core::StrategyTree,
    space: &CodeSpace,
    secret: CodeIndex,
    path: &std::path::Path,
) -> Result<Vec<Round>> {
    let mut rounds = Vec::new();
    let mut at = tree.root();
    loop {
        let Node::Guess { guess, .. } = *tree.node(at) else {
            bail!("'{}': reached a leaf without a winning guess (run `mmtree verify`)", path.display());
        };
        if space.try_code(guess.index()).is_none() {
            bail!("'{}': a guess is not a code of the game (run `mmtree verify`)", path.display());
        }
        let f = space.feedback(guess, secret);
        let Some(edge) = tree.children(at).iter().find(|e| e.feedback == f) else {
            bail!(
                "'{}': the tree has no branch for feedback {} after guess {} (run `mmtree verify`)",
                path.display(),
                space.scheme().format(f),
                rounds.len() + 1
            );
        };
        let left = match *tree.node(edge.child) {
            Node::Guess { candidates, .. } => u64::from(candidates),
            Node::Leaf { .. } => 1,
        };
        rounds.push(Round { guess, feedback: space.scheme().format(f), left });
        if f == space.scheme().win() {
            return Ok(rounds);
        }
        at = edge.child;
    }
}
