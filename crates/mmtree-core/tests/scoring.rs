//! Scoring properties of docs/definitions.md (feedback), and the fast paths checked against the literal definition.

use std::collections::BTreeSet;

use mmtree_core::test_util::small_game;
use mmtree_core::*;
use proptest::prelude::*;

fn space(game: Game) -> CodeSpace {
    CodeSpace::new(game, MemoryLimit(1 << 30)).expect("small game fits")
}

fn occurring_feedbacks(game: Game) -> BTreeSet<Feedback> {
    let s = space(game);
    let mut seen = BTreeSet::new();
    for (_, u) in s.iter() {
        for (_, v) in s.iter() {
            seen.insert(score_reference(&game, &u, &v));
        }
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn score_is_symmetric_and_bounded(game in small_game(400), a in any::<u32>(), b in any::<u32>()) {
        let s = space(game);
        let (u, v) = (s.code(CodeIndex::from_index(a % s.len() as u32)), s.code(CodeIndex::from_index(b % s.len() as u32)));
        let (f, g) = (score_reference(&game, &u, &v), score_reference(&game, &v, &u));
        prop_assert_eq!(f, g);
        prop_assert!(f.black + f.white <= game.n());
        prop_assert!(!(game.feedback_kind() == FeedbackKind::BlackWhite && f.black + 1 == game.n() && f.white == 1));
        if game.feedback_kind() == FeedbackKind::Black {
            prop_assert_eq!(f.white, 0);
        }
        if game.k() == 2 && game.variant() == Variant::Repetition {
            prop_assert_eq!(f.white % 2, 0);
        }
        prop_assert_eq!(f.black == game.n(), u == v);
    }

    #[test]
    fn fast_paths_match_reference_on_every_pair(game in small_game(300)) {
        let mut s = space(game);
        let check = |s: &CodeSpace| -> Result<(), TestCaseError> {
            for (gi, u) in s.iter() {
                for (si, v) in s.iter() {
                    let expected = s.scheme().index(score_reference(&game, &u, &v)).expect("possible feedback");
                    prop_assert_eq!(s.feedback(gi, si), expected);
                }
            }
            Ok(())
        };
        check(&s)?;
        prop_assert!(s.build_table(1 << 30));
        check(&s)?;
    }

    #[test]
    fn index_round_trips(game in small_game(2000)) {
        let s = space(game);
        let mut prev: Option<Code> = None;
        for (i, c) in s.iter() {
            prop_assert_eq!(s.index(&c), Some(i));
            if let Some(p) = prev { prop_assert!(p < c, "lexicographic order"); }
            prev = Some(c);
        }
        prop_assert_eq!(s.len() as u128, game.code_count());
    }
}

#[test]
fn feedback_count_is_n2_plus_3n_over_2_for_k_at_least_3() {
    for n in 1..=4u8 {
        for k in 3..=5u8 {
            let game = Game::new(GameSpec::mastermind(n, k)).unwrap();
            let expected = (n as usize * n as usize + 3 * n as usize) / 2;
            assert_eq!(occurring_feedbacks(game).len(), expected, "[{n},{k}]");
            assert_eq!(FeedbackScheme::new(&game).len(), expected);
        }
    }
}

#[test]
fn black_only_feedbacks_are_0_to_n() {
    let game = Game::new(GameSpec { feedback: FeedbackKind::Black, ..GameSpec::mastermind(4, 3) }).unwrap();
    let seen: Vec<u8> = occurring_feedbacks(game).into_iter().map(|f| f.black).collect();
    assert_eq!(seen, vec![0, 1, 2, 3, 4]);
}

#[test]
fn classic_sizes() {
    assert_eq!(space(Game::new(GameSpec::mastermind(4, 6)).unwrap()).len(), 1296);
    assert_eq!(space(Game::new(GameSpec::bulls_and_cows(4, 10)).unwrap()).len(), 5040);
}

#[test]
fn too_large_is_refused_before_allocating() {
    let game = Game::new(GameSpec::mastermind(8, 16)).unwrap();
    let err = CodeSpace::new(game, MemoryLimit(16 << 30)).err().expect("refused");
    let msg = err.to_string();
    assert!(msg.contains("4294967296 codes") && msg.contains("GiB"), "{msg}");
}
