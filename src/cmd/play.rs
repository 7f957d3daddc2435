//! `mmtree play`: a line-based game where the program keeps the secret and the person guesses.
//!
//! The random secret comes from a hand-written splitmix64 generator (ten lines, no dependency),
//! seeded by `--seed` or, without it, by the clock.

use std::io::{BufRead, Write};

use anyhow::Result;

use mmtree_core::{CodeIndex, Counts, MAX_FEEDBACKS};
use mmtree_strategy::{GuessRule, Solver, Valuation};
use mmtree_sweep::advice::partition_text;

use crate::cli::PlayArgs;
use crate::config::GameConfig;

/// Candidates are listed after a guess when at most this many are left.
const SHOW_CANDIDATES: usize = 12;
/// Longest input line read (a code, `hint` or `quit` is a few bytes; `/dev/zero` is endless).
const MAX_LINE: u64 = 4096;

/// splitmix64 (Steele, Lea & Flood 2014): a small, well-mixed seedable generator.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-high; the bias is below 2^-40 for any game size).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

pub fn run(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let game = GameConfig::resolve(&args.game)?;
    let space = game.space()?;
    let abc = &game.alphabet;
    let secret = match &args.secret {
        Some(text) => space.index(&abc.parse(&game.game, text)?).expect("a parsed code of the game has an index"),
        None => {
            let seed = args.seed.unwrap_or_else(|| {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                now.as_nanos() as u64 ^ u64::from(std::process::id()).rotate_left(32)
            });
            CodeIndex::from_index(SplitMix64(seed).below(space.len()) as u32)
        }
    };
    let show = |c: CodeIndex| abc.format(&space.code(c));
    let f = space.scheme().len();
    writeln!(
        out,
        "mmtree play {}: guess my secret of {} symbols from {}{}.",
        game.game,
        game.game.n(),
        abc.first(game.game.k()),
        if game.game.variant() == mmtree_core::Variant::Distinct { ", all different" } else { "" }
    )?;
    writeln!(out, "Type a code, 'hint' for the advisor's guess, or 'quit'.")?;
    let mut cands = space.all_indices();
    let mut guesses = 0u32;
    let mut lines = 0;
    loop {
        write!(out, "guess {}> ", guesses + 1)?;
        out.flush()?;
        lines += 1;
        let Some(line) = mmtree_io::read_line(input, MAX_LINE, lines)? else {
            writeln!(out, "\nEnd of input after {guesses} guess(es); the secret was {}.", show(secret))?;
            return Ok(());
        };
        let word = line.trim();
        match word {
            "" => continue,
            "quit" | "q" => {
                writeln!(out, "You gave up after {guesses} guess(es); the secret was {}.", show(secret))?;
                return Ok(());
            }
            "hint" | "h" => {
                let hint = Solver::new(&space, GuessRule::new(Valuation::Minimax)).choose(&cands);
                let mut counts: Counts = [0; MAX_FEEDBACKS];
                space.count_parts(hint, &cands, &mut counts);
                let parts: Vec<_> = (0..f)
                    .filter(|&r| counts[r] > 0)
                    .map(|r| (mmtree_core::FeedbackIndex::from_index(r as u8), counts[r]))
                    .collect();
                writeln!(
                    out,
                    "hint: {} (minimax: largest part {} of {} candidates; {})",
                    show(hint),
                    counts[..f].iter().max().copied().unwrap_or(0),
                    cands.len(),
                    partition_text(&space, &parts)
                )?;
                continue;
            }
            _ => {}
        }
        let guess = match abc.parse(&game.game, word) {
            Ok(code) => space.index(&code).expect("a parsed code of the game has an index"),
            Err(e) => {
                writeln!(out, "not a guess: {e}; type a code, 'hint' or 'quit'")?;
                continue;
            }
        };
        guesses += 1;
        let feedback = space.feedback(guess, secret);
        if feedback == space.scheme().win() {
            writeln!(out, "{} {}: solved in {guesses} guess(es)!", show(guess), space.scheme().format(feedback))?;
            return Ok(());
        }
        cands.retain(|&c| space.feedback(guess, c) == feedback);
        write!(out, "{} {}: {} candidate(s) left", show(guess), space.scheme().format(feedback), cands.len())?;
        if cands.len() <= SHOW_CANDIDATES {
            write!(out, ": {}", cands.iter().map(|&c| show(c)).collect::<Vec<_>>().join(" "))?;
        }
        writeln!(out)?;
    }
}
