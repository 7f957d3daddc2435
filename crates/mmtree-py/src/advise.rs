//! `mmtree.advise`: the candidates a history leaves and the best next guesses, as
//! `mmtree advise --format json` reports them.

use pyo3::prelude::*;

use mmtree_core::FeedbackKind;
use mmtree_strategy::Pool;
use mmtree_sweep::advice::{advise as advise_one, candidates_after, parse_history, AdviceReport, Adviser};

use crate::convert::to_py;
use crate::errors::{bad, failed};
use crate::game::{pool as pool_named, valuation as valuation_named, PyGame};

/// One round as the CLI writes it: a `"CODE:b,w"` string, or `(guess, (black, white))`
/// (`(guess, black)` in black-only games), as `Tree.path` gives them.
fn round_text(round: &Bound<'_, PyAny>, black_only: bool, number: usize) -> PyResult<String> {
    if let Ok(text) = round.extract::<String>() {
        return Ok(text);
    }
    let expected = || {
        bad(format!(
            "history round {number}: expected \"CODE:b,w\" or (guess, (black, white)){}",
            if black_only { " or (guess, black)" } else { "" }
        ))
    };
    let (guess, score): (String, Bound<'_, PyAny>) = round.extract().map_err(|_| expected())?;
    if let Ok((b, w)) = score.extract::<(i64, i64)>() {
        return Ok(format!("{guess}:{b},{w}"));
    }
    let b: i64 = score.extract().map_err(|_| expected())?;
    Ok(format!("{guess}:{b}"))
}

/// The advice after `history` in `game`, like `mmtree advise --format json`: the candidates
/// left and, per valuation or strategy, the `top` best guesses with their partitions.
///
/// `history` is a string `"1122:1,0 1344:0,2"` or a list of rounds (`"CODE:b,w"` strings or
/// `(guess, (black, white))` pairs); `valuation` is "all" or one of minimax, expected-size,
/// entropy, most-parts, first-candidate, human; `codes` lists the codes of each part.
///
/// >>> import mmtree
/// >>> a = mmtree.advise(mmtree.Game(4, 6), "1122:1,0", valuation="minimax", top=1)
/// >>> a["remaining"], a["advice"][0]["guesses"][0]["guess"]
/// (256, '1344')
#[pyfunction]
#[pyo3(signature = (game, history = None, valuation = "all", pool = "all", top = 5, codes = false))]
pub fn advise<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    history: Option<&Bound<'py, PyAny>>,
    valuation: &str,
    pool: &str,
    top: i64,
    codes: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let game = game.get();
    let black_only = game.game.feedback_kind() == FeedbackKind::Black;
    let text = match history {
        None => String::new(),
        Some(h) => match h.extract::<String>() {
            Ok(text) => text,
            Err(_) => {
                let rounds = h.try_iter().map_err(|_| bad("history: expected a string or a list of rounds"))?;
                let mut texts = Vec::new();
                for (i, round) in rounds.enumerate() {
                    texts.push(round_text(&round?, black_only, i + 1)?);
                }
                texts.join(" ")
            }
        },
    };
    let top =
        usize::try_from(top).ok().filter(|&t| t >= 1).ok_or_else(|| bad(format!("top {top}: must be at least 1")))?;
    let pool = pool_named(pool)?;
    let which: Vec<Adviser> = match valuation.trim().to_ascii_lowercase().replace('_', "-").as_str() {
        "all" => Adviser::ALL.to_vec(),
        "first-candidate" => vec![Adviser::FirstCandidate],
        "human" => vec![Adviser::Human],
        _ => vec![Adviser::Valuation(valuation_named(valuation).map_err(|_| {
            bad(format!(
                "unknown valuation '{valuation}': expected one of all, minimax, expected-size, entropy, most-parts, \
                 first-candidate, human"
            ))
        })?)],
    };
    if pool != Pool::All && which == [Adviser::Human] {
        return Err(bad("valuation human has its own rules: pool does not apply"));
    }
    let space = game.space()?;
    let rounds = parse_history(&text, &game.alphabet, &space).map_err(|e| bad(e.0))?;
    let cands = candidates_after(&rounds, &space).map_err(|e| bad(e.0))?;
    let advice = which.into_iter().map(|a| advise_one(a, pool, top, &space, &cands, &game.alphabet, codes)).collect();
    let report = AdviceReport::new(&space, &game.alphabet, &rounds, &cands, advice);
    to_py(py, &serde_json::to_value(&report).map_err(|e| failed(e.to_string()))?)
}
