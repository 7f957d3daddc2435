//! `mmtree.Game`: a validated game with its symbols and memory limit, and the names the
//! functions take (valuations, pools, tie orders) turned into the library's types.

use pyo3::prelude::*;

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, FeedbackKind, Game, GameSpec, MemoryLimit, Variant};
use mmtree_strategy::{GuessRule, Method, Pool, Ties, Valuation};

use crate::errors::{bad, lib};

/// Largest feedback table worth building for one tree, as `mmtree solve` builds it: a large
/// table misses the cache where the packed scorer's codes stay in it.
const TABLE_CAP: u64 = 16 << 20;

/// A game: `n` pegs, `k` colours, with or without repeated colours, black-white or
/// black-only feedback, written with `symbols` (default `1-9A-Z`).
///
/// >>> import mmtree
/// >>> g = mmtree.Game(4, 6)
/// >>> (g.n, g.k, g.codes)
/// (4, 6, 1296)
/// >>> mmtree.Game(4, 10, distinct=True).codes  # Bulls and Cows
/// 5040
#[pyclass(module = "mmtree", name = "Game", frozen)]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
    pub alphabet: Alphabet,
    pub limit: MemoryLimit,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (n, k, distinct = false, black_only = false, symbols = None, memory_limit = None))]
    fn py_new(
        n: i128,
        k: i128,
        distinct: bool,
        black_only: bool,
        symbols: Option<&str>,
        memory_limit: Option<&str>,
    ) -> PyResult<PyGame> {
        PyGame::new(n, k, distinct, black_only, symbols, memory_limit)
    }

    /// Pegs.
    #[getter]
    fn n(&self) -> u8 {
        self.game.n()
    }

    /// Colours.
    #[getter]
    fn k(&self) -> u8 {
        self.game.k()
    }

    /// Whether colours may not repeat (Bulls and Cows).
    #[getter]
    fn distinct(&self) -> bool {
        self.game.variant() == Variant::Distinct
    }

    /// Whether the feedback counts black pegs only.
    #[getter]
    fn black_only(&self) -> bool {
        self.game.feedback_kind() == FeedbackKind::Black
    }

    /// The symbols of the colours, in order.
    #[getter]
    fn symbols(&self) -> String {
        self.alphabet.first(self.game.k())
    }

    /// Number of codes (possible secrets).
    #[getter]
    fn codes(&self) -> u128 {
        self.game.code_count()
    }

    /// The memory limit in bytes (games estimated to need more are refused).
    #[getter]
    fn memory_limit(&self) -> u64 {
        self.limit.0
    }

    fn __repr__(&self) -> String {
        let mut text = format!("Game({}, {}", self.game.n(), self.game.k());
        if self.distinct() {
            text.push_str(", distinct=True");
        }
        if self.black_only() {
            text.push_str(", black_only=True");
        }
        text + ")"
    }

    fn __str__(&self) -> String {
        self.game.to_string()
    }
}

impl PyGame {
    /// A game from the constructor's arguments, refused with the CLI's messages.
    pub fn new(
        n: i128,
        k: i128,
        distinct: bool,
        black_only: bool,
        symbols: Option<&str>,
        memory_limit: Option<&str>,
    ) -> PyResult<PyGame> {
        // Out-of-range numbers go through the library's check with the largest value it
        // can hold, so the message names the real limits.
        let small = |v: i128| u8::try_from(v).unwrap_or(if v < 0 { 0 } else { u8::MAX });
        let spec = GameSpec {
            n: small(n),
            k: small(k),
            variant: if distinct { Variant::Distinct } else { Variant::Repetition },
            feedback: if black_only { FeedbackKind::Black } else { FeedbackKind::BlackWhite },
        };
        let game = lib(Game::new(spec))?;
        let alphabet = match symbols {
            Some(s) => lib(Alphabet::new(s))?,
            None => Alphabet::default(),
        };
        if alphabet.len() < game.k() as usize {
            return Err(bad(format!(
                "symbols '{}' has {} symbols, the game needs k = {}",
                alphabet.first(35),
                alphabet.len(),
                game.k()
            )));
        }
        Ok(PyGame { game, alphabet, limit: memory_limit_of(memory_limit)? })
    }

    /// The game a function's `game_or_n, k` arguments name: a `Game`, or `n` and `k`.
    pub fn resolve(game_or_n: &Bound<'_, PyAny>, k: Option<i128>, memory_limit: Option<&str>) -> PyResult<PyGame> {
        if let Ok(game) = game_or_n.cast::<PyGame>() {
            if k.is_some() {
                return Err(bad("give a Game, or n and k: not a Game and k"));
            }
            let mut game = game.get().clone();
            if memory_limit.is_some() {
                game.limit = memory_limit_of(memory_limit)?;
            }
            return Ok(game);
        }
        let n: i128 = game_or_n.extract().map_err(|_| bad("the first argument is a Game or the number of pegs n"))?;
        let k = k.ok_or_else(|| bad(format!("n = {n} given without k: give the number of colours k too")))?;
        PyGame::new(n, k, false, false, None, memory_limit)
    }

    /// The code space, with its feedback table when that is small.
    pub fn space(&self) -> PyResult<CodeSpace> {
        self.space_with_table((self.limit.0 / 2).min(TABLE_CAP))
    }

    /// The code space with a feedback table of at most `table_bytes`.
    pub fn space_with_table(&self, table_bytes: u64) -> PyResult<CodeSpace> {
        let mut space = lib(CodeSpace::new(self.game, self.limit))?;
        space.build_table(table_bytes);
        Ok(space)
    }

    /// The index of a code written in the game's symbols; `what`, if given, names it in
    /// errors (as the CLI names `--secret` but not `--first`).
    pub fn code(&self, space: &CodeSpace, text: &str, what: Option<&str>) -> PyResult<CodeIndex> {
        let named = |e: String| bad(what.map_or(e.clone(), |w| format!("{w}: {e}")));
        let code = self.alphabet.parse(&self.game, text).map_err(|e| named(e.to_string()))?;
        space.index(&code).ok_or_else(|| named(format!("'{text}' is not a code of the game")))
    }
}

/// `memory_limit` as the CLI's `--memory-limit` reads it (e.g. `"8G"`); the default is the
/// machine's.
pub fn memory_limit_of(text: Option<&str>) -> PyResult<MemoryLimit> {
    match text {
        Some(t) => MemoryLimit::parse(t).map_err(bad),
        None => Ok(MemoryLimit::machine_default()),
    }
}

/// A name as the CLI writes it: `expected_size` is `expected-size`.
fn normal(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('_', "-")
}

fn unknown(what: &str, name: &str, names: &[&str]) -> PyErr {
    bad(format!("unknown {what} '{name}': expected one of {}", names.join(", ")))
}

/// One of the four one-step valuations.
pub fn valuation(name: &str) -> PyResult<Valuation> {
    let wanted = normal(name);
    Valuation::ALL
        .into_iter()
        .find(|v| v.name() == wanted)
        .ok_or_else(|| unknown("valuation", name, &Valuation::ALL.map(Valuation::name)))
}

pub fn pool(name: &str) -> PyResult<Pool> {
    let wanted = normal(name);
    [Pool::All, Pool::Candidates]
        .into_iter()
        .find(|p| p.name() == wanted)
        .ok_or_else(|| unknown("pool", name, &["all", "candidates"]))
}

pub fn ties(name: &str) -> PyResult<Ties> {
    let wanted = normal(name);
    [Ties::Smallest, Ties::Largest]
        .into_iter()
        .find(|t| t.name() == wanted)
        .ok_or_else(|| unknown("tie order", name, &["smallest", "largest"]))
}

/// The arguments of `solve` that make its rule.
pub struct RuleArgs<'a> {
    pub valuation: &'a str,
    pub pool: &'a str,
    pub first: Option<&'a str>,
    pub ties: &'a str,
    pub prefer_candidates: bool,
    pub lookahead: i64,
}

/// The rule, refusing the combinations the CLI refuses (with its messages, in the
/// argument names of Python).
pub fn rule(args: &RuleArgs<'_>, game: &PyGame, space: &CodeSpace) -> PyResult<GuessRule> {
    let simple = match normal(args.valuation).as_str() {
        "first-candidate" => Some(Method::FirstCandidate),
        "human" => Some(Method::Human),
        _ => None,
    };
    let mut rule = match simple {
        // The simple strategies ignore the valuation; minimax is a placeholder.
        Some(_) => GuessRule::new(Valuation::Minimax),
        None => GuessRule::new(valuation(args.valuation).map_err(|_| {
            unknown(
                "valuation",
                args.valuation,
                &["minimax", "expected-size", "entropy", "most-parts", "first-candidate", "human"],
            )
        })?),
    };
    rule.pool = pool(args.pool)?;
    rule.ties = ties(args.ties)?;
    rule.prefer_candidates = args.prefer_candidates;
    rule.method = match (args.lookahead, simple) {
        (1, Some(Method::Human)) => {
            if rule.pool != Pool::All || rule.ties != Ties::Smallest || !args.prefer_candidates {
                return Err(bad(
                    "valuation human has its own tie rules: pool, ties and prefer_candidates do not apply",
                ));
            }
            Method::Human
        }
        (1, Some(method)) => {
            if !args.prefer_candidates {
                return Err(bad(
                    "valuation first-candidate never weighs equally good guesses: prefer_candidates=False does \
                     not apply (ties picks the smallest or largest candidate)",
                ));
            }
            method
        }
        (1, None) => Method::OneStep,
        (2, None) => Method::Lookahead2,
        (2, Some(method)) => {
            return Err(bad(format!(
                "lookahead 2 needs a valuation (minimax, expected-size, entropy, most-parts), not {}",
                method.strategy_name().unwrap_or("this strategy")
            )))
        }
        (n, _) => return Err(bad(format!("lookahead {n}: only 1 and 2 are supported"))),
    };
    if let Some(text) = args.first {
        rule.first_guess = Some(game.code(space, text, None)?);
    }
    Ok(rule)
}
