//! The advisor's report: a history of rounds read as the CLI writes it, the candidates it
//! leaves, and the best next guesses of each valuation or simple strategy with their
//! partitions. `mmtree advise` renders it; the Python package's `advise()` returns it.

use serde::Serialize;
use thiserror::Error;

use mmtree_core::{
    printable, Alphabet, CodeIndex, CodeSpace, Counts, Feedback, FeedbackIndex, FeedbackKind, Game, MAX_FEEDBACKS,
};
use mmtree_strategy::{first_candidate, human_guess, rank_guesses, GuessRule, Pool, Ties, Valuation};

/// A history that cannot be read, or that no code satisfies (bad input).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct HistoryError(pub String);

/// One parsed round: the guess and the feedback it got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The guess played.
    pub guess: CodeIndex,
    /// The feedback it got.
    pub feedback: FeedbackIndex,
}

/// Parses round `number` (1-based) written `CODE:b,w` (`CODE:b` in black-only games).
pub fn parse_round(text: &str, number: usize, alphabet: &Alphabet, space: &CodeSpace) -> Result<Round, HistoryError> {
    let bad = |why: String| HistoryError(format!("history round {number} '{}': {why}", printable(text)));
    let game: &Game = space.game();
    let black_only = game.feedback_kind() == FeedbackKind::Black;
    let expected = if black_only { "CODE:b" } else { "CODE:b,w" };
    let (code, score) = text.split_once(':').ok_or_else(|| bad(format!("expected {expected}")))?;
    let code = alphabet.parse(game, code).map_err(|e| bad(e.to_string()))?;
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

/// Parses a whole history, rounds separated by white space, each with its text.
///
/// ```
/// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_sweep::advice::{candidates_after, parse_history};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let rounds = parse_history("1122:1,0", &Alphabet::default(), &space).unwrap();
/// // Knuth's first guess scored (1,0) leaves 256 candidates.
/// assert_eq!(candidates_after(&rounds, &space).unwrap().len(), 256);
/// assert!(parse_history("1122:5,0", &Alphabet::default(), &space).is_err());
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn parse_history(text: &str, alphabet: &Alphabet, space: &CodeSpace) -> Result<Vec<(String, Round)>, HistoryError> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, t)| parse_round(t, i + 1, alphabet, space).map(|r| (t.to_string(), r)))
        .collect()
}

/// The candidates consistent with every round; an error names the first round after which
/// none is left.
pub fn candidates_after(rounds: &[(String, Round)], space: &CodeSpace) -> Result<Vec<CodeIndex>, HistoryError> {
    let mut cands = space.all_indices();
    for (i, (text, round)) in rounds.iter().enumerate() {
        cands.retain(|&c| space.feedback(round.guess, c) == round.feedback);
        if cands.is_empty() {
            return Err(HistoryError(format!(
                "inconsistent history: no code satisfies rounds 1 to {n}; the first inconsistent round is {n} '{}'",
                printable(text),
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

/// Who advises: a valuation ranking guesses, or one of the simple strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adviser {
    /// The best guesses by a one-step valuation.
    Valuation(Valuation),
    /// The smallest candidate.
    FirstCandidate,
    /// The human-friendly strategy's guess.
    Human,
}

impl Adviser {
    /// The four valuations, then the two simple strategies.
    pub const ALL: [Adviser; 6] = [
        Adviser::Valuation(Valuation::Minimax),
        Adviser::Valuation(Valuation::ExpectedSize),
        Adviser::Valuation(Valuation::Entropy),
        Adviser::Valuation(Valuation::MostParts),
        Adviser::FirstCandidate,
        Adviser::Human,
    ];

    /// The name the CLI and the report use.
    pub fn name(self) -> &'static str {
        match self {
            Adviser::Valuation(v) => v.name(),
            Adviser::FirstCandidate => "first-candidate",
            Adviser::Human => "human",
        }
    }
}

/// One part of a guess's partition.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AdvisedPart {
    /// The feedback, `(b,w)`.
    pub feedback: String,
    /// Candidates that would get it.
    pub size: u32,
    /// The codes of the part, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codes: Option<Vec<String>>,
}

/// One advised guess.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AdvisedGuess {
    /// 1 for the best.
    pub rank: usize,
    /// The guess.
    pub guess: String,
    /// Whether it may be the secret.
    pub candidate: bool,
    /// The valuation's value (none for the simple strategies).
    pub value: Option<f64>,
    /// Non-empty parts.
    pub parts: usize,
    /// The parts in feedback order.
    pub partition: Vec<AdvisedPart>,
}

/// The advice of one adviser.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Advice {
    /// The adviser's name.
    pub valuation: &'static str,
    /// Its guesses, best first.
    pub guesses: Vec<AdvisedGuess>,
}

/// The whole report: its JSON keys are `advise --format json`'s.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AdviceReport {
    /// The game, e.g. `[4,6]`.
    pub game: String,
    /// The rounds as written.
    pub history: Vec<String>,
    /// Candidates left.
    pub remaining: usize,
    /// The candidates.
    pub candidates: Vec<String>,
    /// One entry per adviser.
    pub advice: Vec<Advice>,
}

impl AdviceReport {
    /// The report for a history's rounds and the candidates they leave.
    pub fn new(
        space: &CodeSpace,
        abc: &Alphabet,
        rounds: &[(String, Round)],
        cands: &[CodeIndex],
        advice: Vec<Advice>,
    ) -> AdviceReport {
        AdviceReport {
            game: space.game().to_string(),
            history: rounds.iter().map(|(t, _)| t.clone()).collect(),
            remaining: cands.len(),
            candidates: cands.iter().map(|&c| abc.format(&space.code(c))).collect(),
            advice,
        }
    }
}

/// The `top` best guesses of one adviser on the candidates `cands` (one guess for the
/// simple strategies), with their partitions and, if `with_codes`, the codes of each part.
pub fn advise(
    adviser: Adviser,
    pool: Pool,
    top: usize,
    space: &CodeSpace,
    cands: &[CodeIndex],
    abc: &Alphabet,
    with_codes: bool,
) -> Advice {
    let partition = |g: CodeIndex| -> Vec<(FeedbackIndex, u32)> {
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        space.count_parts(g, cands, &mut counts);
        (0..space.scheme().len())
            .filter(|&r| counts[r] > 0)
            .map(|r| (FeedbackIndex::from_index(r as u8), counts[r]))
            .collect()
    };
    let entry = |rank: usize, g: CodeIndex, value: Option<f64>, parts: Vec<(FeedbackIndex, u32)>| AdvisedGuess {
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
                .map(|&(f, size)| AdvisedPart {
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
    let valuation = match adviser {
        Adviser::Valuation(v) => v,
        Adviser::FirstCandidate | Adviser::Human => {
            let g = if adviser == Adviser::Human {
                human_guess(space, cands)
            } else {
                first_candidate(Ties::Smallest, cands)
            };
            return Advice { valuation: adviser.name(), guesses: vec![entry(1, g, None, partition(g))] };
        }
    };
    let rule = GuessRule { pool, ..GuessRule::new(valuation) };
    let guesses = rank_guesses(space, &rule, cands, top)
        .into_iter()
        .enumerate()
        .map(|(i, r)| entry(i + 1, r.guess, Some(r.value), r.parts))
        .collect();
    Advice { valuation: valuation.name(), guesses }
}
