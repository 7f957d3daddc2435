//! Proptest generators shared by the crates' tests (feature `test-util`).

use proptest::prelude::*;

use crate::game::{FeedbackKind, Game, GameSpec, Variant};

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
