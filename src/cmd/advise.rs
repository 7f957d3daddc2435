//! `mmtree advise`: the candidates left after a history of rounds, and the best next guesses.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, Counts, Feedback, FeedbackIndex, FeedbackKind, MAX_FEEDBACKS};
use mmtree_io::{render_tables, Cell, Format, Table};
use mmtree_strategy::{first_candidate, human_guess, rank_guesses, GuessRule, Pool, Ties, Valuation};

use crate::cli::{AdviseArgs, AdviseValuationArg, PoolArg};
use crate::config::{self, GameConfig};
use crate::UsageError;

/// One parsed round: the guess and the feedback it got.
pub struct Round {
    pub guess: CodeIndex,
    pub feedback: FeedbackIndex,
}

/// Parses round `number` (1-based) written `CODE:b,w` (`CODE:b` in black-only games).
pub fn parse_round(text: &str, number: usize, game: &GameConfig, space: &CodeSpace) -> Result<Round, UsageError> {
    let bad = |why: String| UsageError(format!("history round {number} '{}': {why}", mmtree_core::printable(text)));
    let black_only = game.game.feedback_kind() == FeedbackKind::Black;
    let expected = if black_only { "CODE:b" } else { "CODE:b,w" };
    let (code, score) = text.split_once(':').ok_or_else(|| bad(format!("expected {expected}")))?;
    let code = game.alphabet.parse(&game.game, code).map_err(|e| bad(e.to_string()))?;
    let guess = space.index(&code).ok_or_else(|| bad("not a code of the game".to_string()))?;
    let number_of = |s: &str| s.trim().parse::<u8>().map_err(|_| bad(format!("expected {expected}")));
    let fb = match score.split_once(',') {
        Some(_) if black_only => {
            return Err(bad("a black-only game scores a round with one number, the black pegs: CODE:b".into()))
        }
        Some((b, w)) => Feedback { black: number_of(b)?, white: number_of(w)? },
        None if black_only => Feedback { black: number_of(score)?, white: 0 },
        None => return Err(bad(format!("expected {expected}"))),
    };
    let feedback = space.scheme().index(fb).map_err(|e| bad(e.to_string()))?;
    Ok(Round { guess, feedback })
}

/// The candidates consistent with every round; an error names the first round after which
/// none is left.
pub fn candidates_after(rounds: &[(String, Round)], space: &CodeSpace) -> Result<Vec<CodeIndex>, UsageError> {
    let mut cands = space.all_indices();
    for (i, (text, round)) in rounds.iter().enumerate() {
        cands.retain(|&c| space.feedback(round.guess, c) == round.feedback);
        if cands.is_empty() {
            return Err(UsageError(format!(
                "inconsistent history: no code satisfies rounds 1 to {n}; the first inconsistent round is {n} '{}'",
                mmtree_core::printable(text),
                n = i + 1
            )));
        }
    }
    Ok(cands)
}

/// A partition table as `(b,w):size` pairs.
pub fn partition_text(space: &CodeSpace, parts: &[(FeedbackIndex, u32)]) -> String {
    parts.iter().map(|(f, s)| format!("{}:{s}", space.scheme().format(*f))).collect::<Vec<_>>().join(" ")
}

#[derive(Serialize)]
struct JsonPart {
    feedback: String,
    size: u32,
    /// The codes of the part, with `--codes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    codes: Option<Vec<String>>,
}

#[derive(Serialize)]
struct JsonGuess {
    rank: usize,
    guess: String,
    candidate: bool,
    value: Option<f64>,
    parts: usize,
    partition: Vec<JsonPart>,
}

#[derive(Serialize)]
struct JsonAdvice {
    valuation: &'static str,
    guesses: Vec<JsonGuess>,
}

#[derive(Serialize)]
struct JsonReport {
    game: String,
    history: Vec<String>,
    remaining: usize,
    candidates: Vec<String>,
    advice: Vec<JsonAdvice>,
}

/// Parses the whole `--history` string.
pub fn parse_history(text: &str, game: &GameConfig, space: &CodeSpace) -> Result<Vec<(String, Round)>, UsageError> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, t)| parse_round(t, i + 1, game, space).map(|r| (t.to_string(), r)))
        .collect()
}

pub fn run(args: &AdviseArgs, out: &mut dyn Write) -> Result<()> {
    let game = GameConfig::resolve(&args.game)?;
    let space = game.space()?;
    let rounds = parse_history(&args.history, &game, &space)?;
    let cands = candidates_after(&rounds, &space)?;
    let abc = &game.alphabet;
    let pool = match args.pool {
        PoolArg::All => Pool::All,
        PoolArg::Candidates => Pool::Candidates,
    };
    if pool != Pool::All && args.valuation == AdviseValuationArg::Human {
        return Err(UsageError("--valuation human has its own rules: --pool does not apply".into()).into());
    }
    let which: Vec<AdviseValuationArg> = match args.valuation {
        AdviseValuationArg::All => vec![
            AdviseValuationArg::Minimax,
            AdviseValuationArg::ExpectedSize,
            AdviseValuationArg::Entropy,
            AdviseValuationArg::MostParts,
            AdviseValuationArg::FirstCandidate,
            AdviseValuationArg::Human,
        ],
        one => vec![one],
    };
    let mut advice = Vec::new();
    for v in which {
        advice.push(advise_one(v, pool, args.top, &space, &cands, abc, args.codes));
    }
    let report = JsonReport {
        game: game.game.to_string(),
        history: rounds.iter().map(|(t, _)| t.clone()).collect(),
        remaining: cands.len(),
        candidates: cands.iter().map(|&c| abc.format(&space.code(c))).collect(),
        advice,
    };
    let format = config::format(args.format);
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let tables: Vec<Table> = report
        .advice
        .iter()
        .map(|a| {
            let mut t = Table::new(a.valuation, &["rank", "guess", "candidate", "value", "parts", "partition"]);
            for g in &a.guesses {
                t.push(vec![
                    Cell::Int(g.rank as i128),
                    g.guess.clone().into(),
                    Cell::Bool(g.candidate),
                    match g.value {
                        None => Cell::Text("-".to_string()),
                        Some(v) if v.fract() == 0.0 => Cell::Int(v as i128),
                        Some(v) => Cell::Float(v, 3),
                    },
                    Cell::Int(g.parts as i128),
                    g.partition
                        .iter()
                        .map(|p| match &p.codes {
                            Some(codes) => format!("{}:{} {{{}}}", p.feedback, p.size, codes.join(" ")),
                            None => format!("{}:{}", p.feedback, p.size),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                        .into(),
                ]);
            }
            t
        })
        .collect();
    if format == Format::Markdown {
        writeln!(out, "## {} after {} round(s): {} candidate(s) left\n", report.game, rounds.len(), cands.len())?;
        if cands.len() <= args.show {
            writeln!(out, "Candidates: {}\n", report.candidates.join(" "))?;
        }
    }
    write!(out, "{}", render_tables(&tables, format))?;
    Ok(())
}

fn advise_one(
    which: AdviseValuationArg,
    pool: Pool,
    top: usize,
    space: &CodeSpace,
    cands: &[CodeIndex],
    abc: &Alphabet,
    with_codes: bool,
) -> JsonAdvice {
    let partition = |g: CodeIndex| -> Vec<(FeedbackIndex, u32)> {
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        space.count_parts(g, cands, &mut counts);
        (0..space.scheme().len())
            .filter(|&r| counts[r] > 0)
            .map(|r| (FeedbackIndex::from_index(r as u8), counts[r]))
            .collect()
    };
    let entry = |rank: usize, g: CodeIndex, value: Option<f64>, parts: Vec<(FeedbackIndex, u32)>| JsonGuess {
        rank,
        guess: abc.format(&space.code(g)),
        candidate: cands.binary_search(&g).is_ok(),
        value,
        parts: parts.len(),
        partition: {
            // The codes of each part, in feedback order like `parts`.
            let split = if with_codes { space.split(g, cands) } else { Vec::new() };
            parts
                .iter()
                .map(|&(f, size)| JsonPart {
                    feedback: space.scheme().format(f),
                    size,
                    codes: with_codes.then(|| {
                        let part = split.iter().find(|(pf, _)| *pf == f).map(|(_, p)| p.as_slice()).unwrap_or(&[]);
                        part.iter().map(|&c| abc.format(&space.code(c))).collect()
                    }),
                })
                .collect()
        },
    };
    let valuation = match which {
        AdviseValuationArg::Minimax => Valuation::Minimax,
        AdviseValuationArg::ExpectedSize => Valuation::ExpectedSize,
        AdviseValuationArg::Entropy => Valuation::Entropy,
        AdviseValuationArg::MostParts => Valuation::MostParts,
        AdviseValuationArg::FirstCandidate | AdviseValuationArg::Human | AdviseValuationArg::All => {
            let (name, g) = if which == AdviseValuationArg::Human {
                ("human", human_guess(space, cands))
            } else {
                ("first-candidate", first_candidate(Ties::Smallest, cands))
            };
            return JsonAdvice { valuation: name, guesses: vec![entry(1, g, None, partition(g))] };
        }
    };
    let rule = GuessRule { pool, ..GuessRule::new(valuation) };
    let guesses = rank_guesses(space, &rule, cands, top)
        .into_iter()
        .enumerate()
        .map(|(i, r)| entry(i + 1, r.guess, Some(r.value), r.parts))
        .collect();
    JsonAdvice { valuation: valuation.name(), guesses }
}
