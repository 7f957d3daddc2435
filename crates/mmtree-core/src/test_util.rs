//! Proptest generators shared by the crates' tests (feature `test-util`).

use proptest::prelude::*;

use crate::game::{FeedbackKind, Game, GameSpec, Variant, MAX_COLOURS, MAX_PEGS};

/// Small games (at most `max_codes` codes) of every variant and feedback kind.
pub fn small_game(max_codes: u128) -> impl Strategy<Value = Game> {
    (1u8..=6, 1u8..=10, any::<bool>(), any::<bool>()).prop_filter_map(
        "too large or invalid",
        move |(n, k, distinct, black)| {
            let spec = GameSpec {
                n,
                k,
                variant: if distinct { Variant::Distinct } else { Variant::Repetition },
                feedback: if black { FeedbackKind::Black } else { FeedbackKind::BlackWhite },
            };
            Game::new(spec).ok().filter(|g| g.code_count() <= max_codes)
        },
    )
}

/// Every valid game (both variants, both feedback kinds) with at most `max_codes` codes, in
/// order of n, k, variant, feedback: the grids the exhaustive tests run over.
pub fn games_up_to(max_codes: u128) -> Vec<GameSpec> {
    let mut out = Vec::new();
    for n in 1..=MAX_PEGS {
        for k in 1..=MAX_COLOURS {
            for variant in [Variant::Repetition, Variant::Distinct] {
                for feedback in [FeedbackKind::BlackWhite, FeedbackKind::Black] {
                    let spec = GameSpec { n, k, variant, feedback };
                    if Game::new(spec).is_ok_and(|g| g.code_count() <= max_codes) {
                        out.push(spec);
                    }
                }
            }
        }
    }
    out
}
