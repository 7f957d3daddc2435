//! Published facts about subtraction games, Nim, Kayles and Dawson's Kayles,
//! checked against the library and against independent brute force.

use std::collections::HashMap;

use mmtree_games::{
    detect_period, mex, misere_nim_outcome, misere_winning_moves, nim_outcome, nim_sum, octal_periodicity, octal_sg,
    subtraction_periodicity, subtraction_sg, winning_moves, Move, OctalGame, Outcome, Periodicity,
};

/// OEIS A002186, "Sprague-Grundy values for the game of Kayles (octal games
/// .77 and .771)", offset 0, terms a(0)..a(104) as published in the OEIS
/// (references: Guy & Smith 1956; Winning Ways p. 91). Reference data, not
/// output of this crate.
const OEIS_A002186: [u32; 105] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1,
    2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1,
];

/// OEIS A002187, "Sprague-Grundy values for Dawson's Chess (octal game
/// .137)", offset 0, as published in the OEIS. Its comment: "Octal game .07
/// (Dawson's Kayles) has values a(n-1)". Its formula: "Has period 34 with the
/// only exceptions at n=0, 14, 16, 17, 31, 34 and 51". Reference data.
const OEIS_A002187: [u32; 120] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2,
    0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1,
    0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2,
    2, 4, 4, 5, 5, 9,
];

// ---------------------------------------------------------------------------
// Subtraction games

#[test]
fn subtraction_123_is_x_mod_4_up_to_30() {
    let g = subtraction_sg(&[1, 2, 3], 30);
    assert_eq!(g.len(), 31);
    for (x, &v) in g.iter().enumerate() {
        assert_eq!(v as usize, x % 4, "g({x})");
    }
    // The lecture's opening game with 21 stones: P-positions are the multiples of 4.
    assert_eq!(Outcome::from_sg(g[21]), Outcome::N);
    assert_eq!(Outcome::from_sg(g[20]), Outcome::P);
    assert_eq!(subtraction_periodicity(&[1, 2, 3], &g), Some(Periodicity { preperiod: 0, period: 4 }));
}

#[test]
fn subtraction_1_to_k_is_x_mod_k_plus_1() {
    for k in 1..=9usize {
        let moves: Vec<usize> = (1..=k).collect();
        let g = subtraction_sg(&moves, 100);
        for (x, &v) in g.iter().enumerate() {
            assert_eq!(v as usize, x % (k + 1));
        }
    }
}

#[test]
fn subtraction_matches_naive_definition() {
    for moves in [vec![2, 5], vec![1, 4], vec![3, 7, 8], vec![2, 3, 7]] {
        let g = subtraction_sg(&moves, 200);
        for n in 0..=200usize {
            let naive = mex(moves.iter().filter(|&&m| m <= n).map(|&m| g[n - m]));
            assert_eq!(g[n], naive);
        }
        // A proved period must hold on everything computed.
        if let Some(p) = subtraction_periodicity(&moves, &g[..=100]) {
            for n in p.preperiod..=200 - p.period {
                assert_eq!(g[n], g[n + p.period], "{moves:?} n={n}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Nim

/// Outcome by plain backward induction over Nim positions, no nim-sums.
fn brute_outcome(heaps: &[u64], misere: bool, memo: &mut HashMap<Vec<u64>, Outcome>) -> Outcome {
    if let Some(&o) = memo.get(heaps) {
        return o;
    }
    let mut any_move = false;
    let mut to_p = false;
    let mut next = heaps.to_vec();
    for i in 0..heaps.len() {
        for t in 0..heaps[i] {
            any_move = true;
            next[i] = t;
            if brute_outcome(&next, misere, memo) == Outcome::P {
                to_p = true;
            }
        }
        next[i] = heaps[i];
    }
    let o = if !any_move {
        // Terminal: under normal play the player to move lost; under misère, won.
        if misere {
            Outcome::N
        } else {
            Outcome::P
        }
    } else if to_p {
        Outcome::N
    } else {
        Outcome::P
    };
    memo.insert(heaps.to_vec(), o);
    o
}

fn brute_winning_moves(heaps: &[u64], misere: bool, memo: &mut HashMap<Vec<u64>, Outcome>) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut next = heaps.to_vec();
    for i in 0..heaps.len() {
        for t in 0..heaps[i] {
            next[i] = t;
            if brute_outcome(&next, misere, memo) == Outcome::P {
                moves.push(Move { heap: i, from: heaps[i], to: t });
            }
        }
        next[i] = heaps[i];
    }
    moves
}

fn all_positions(heaps: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..heaps {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..=max).map(move |h| {
                    let mut q = p.clone();
                    q.push(h);
                    q
                })
            })
            .collect();
    }
    out
}

#[test]
fn bouton_p_iff_nim_sum_zero_by_brute_force() {
    let mut memo = HashMap::new();
    let mut checked = 0;
    for pos in all_positions(3, 7).into_iter().chain(all_positions(4, 4)) {
        let brute = brute_outcome(&pos, false, &mut memo);
        assert_eq!(nim_outcome(&pos), brute, "{pos:?}");
        assert_eq!(brute == Outcome::P, nim_sum(&pos) == 0, "{pos:?}");
        let mut fast = winning_moves(&pos);
        fast.sort();
        assert_eq!(fast, brute_winning_moves(&pos, false, &mut memo), "{pos:?}");
        checked += 1;
    }
    assert_eq!(checked, 512 + 625);
}

#[test]
fn lecture_nim_examples() {
    // N-positions (1,1,1), (1,1,2), (1,1,3), (1,2,2); P-position (1,2,3).
    for pos in [[1, 1, 1], [1, 1, 2], [1, 1, 3], [1, 2, 2]] {
        assert_eq!(nim_outcome(&pos), Outcome::N);
    }
    assert_eq!(nim_outcome(&[1, 2, 3]), Outcome::P);
    // 16 ⊕ 27 ⊕ 32 = 43.
    assert_eq!(nim_sum(&[16, 27, 32]), 43);
    // Classic 5, 7, 9: nim-sum 11, the only winning move is 9 -> 2.
    assert_eq!(nim_sum(&[5, 7, 9]), 11);
    assert_eq!(winning_moves(&[5, 7, 9]), vec![Move { heap: 2, from: 9, to: 2 }]);
}

#[test]
fn odd_number_of_winning_moves_exhaustive() {
    for pos in all_positions(3, 15).into_iter().chain(all_positions(5, 5)) {
        let s = nim_sum(&pos);
        let n = winning_moves(&pos).len();
        if s == 0 {
            assert_eq!(n, 0, "{pos:?}");
        } else {
            assert_eq!(n % 2, 1, "{pos:?}");
            // Exactly the heaps with a 1 in the leftmost column with an odd count.
            let top = 63 - s.leading_zeros();
            let heaps_with_bit = pos.iter().filter(|&&h| h >> top & 1 == 1).count();
            assert_eq!(n, heaps_with_bit, "{pos:?}");
        }
    }
}

#[test]
fn misere_nim_matches_brute_force() {
    let mut memo = HashMap::new();
    for pos in
        all_positions(3, 6).into_iter().chain(all_positions(4, 3)).chain(all_positions(1, 9)).chain(all_positions(2, 8))
    {
        let brute = brute_outcome(&pos, true, &mut memo);
        assert_eq!(misere_nim_outcome(&pos), brute, "{pos:?}");
        let mut fast = misere_winning_moves(&pos);
        fast.sort();
        assert_eq!(fast, brute_winning_moves(&pos, true, &mut memo), "{pos:?}");
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn winning_moves_are_odd_and_reach_p(heaps in prop::collection::vec(any::<u64>(), 1..8)) {
            let moves = winning_moves(&heaps);
            if nim_sum(&heaps) == 0 {
                prop_assert!(moves.is_empty());
            } else {
                prop_assert_eq!(moves.len() % 2, 1);
                for m in &moves {
                    prop_assert!(m.to < m.from);
                    let mut next = heaps.clone();
                    next[m.heap] = m.to;
                    prop_assert_eq!(nim_sum(&next), 0);
                }
            }
        }

        #[test]
        fn misere_moves_reach_misere_p(heaps in prop::collection::vec(0u64..6, 1..7)) {
            let moves = misere_winning_moves(&heaps);
            // The empty position is a misère N-position without any move.
            if heaps.iter().any(|&h| h > 0) {
                prop_assert_eq!(moves.is_empty(), misere_nim_outcome(&heaps) == Outcome::P);
            }
            for m in &moves {
                let mut next = heaps.clone();
                next[m.heap] = m.to;
                prop_assert_eq!(misere_nim_outcome(&next), Outcome::P);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Kayles and Dawson's Kayles

/// SG value of a multiset of rows of pins (sorted lengths) where a move
/// knocks down `knock` adjacent pins in one row. Pure mex recursion over
/// whole positions: no nim-sums, no octal code.
fn brute_rows(rows: &[u8], knocks: &[u8], memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
    if let Some(&v) = memo.get(rows) {
        return v;
    }
    let mut options = Vec::new();
    for (i, &len) in rows.iter().enumerate() {
        if i > 0 && rows[i - 1] == len {
            continue; // same row length: same options
        }
        for &k in knocks {
            if k > len {
                continue;
            }
            for left in 0..=(len - k) {
                let right = len - k - left;
                let mut next: Vec<u8> = rows.to_vec();
                next.remove(i);
                next.extend([left, right].into_iter().filter(|&r| r > 0));
                next.sort_unstable();
                options.push(brute_rows(&next, knocks, memo));
            }
        }
    }
    let v = mex(options);
    memo.insert(rows.to_vec(), v);
    v
}

#[test]
fn kayles_matches_brute_force_on_rows() {
    let kayles = OctalGame::parse("0.77").unwrap();
    let g = octal_sg(&kayles, 32);
    let mut memo = HashMap::new();
    for n in 0..=32u8 {
        let rows: Vec<u8> = if n == 0 { vec![] } else { vec![n] };
        let brute = brute_rows(&rows, &[1, 2], &mut memo);
        assert_eq!(g[n as usize], brute, "Kayles g({n})");
        assert_eq!(OEIS_A002186[n as usize], brute, "A002186({n})");
    }
    // Dudeney's puzzle from the lecture: 13 pins with the second knocked down,
    // i.e. rows (1, 11); brute force and the nim-sum agree.
    let pair = brute_rows(&[1, 11], &[1, 2], &mut memo);
    assert_eq!(pair, g[1] ^ g[11]);
}

#[test]
fn kayles_first_100_terms_are_oeis_a002186() {
    let kayles = OctalGame::parse("0.77").unwrap();
    let g = octal_sg(&kayles, 104);
    assert_eq!(&g[..100], &OEIS_A002186[..100]);
    assert_eq!(g.as_slice(), &OEIS_A002186[..]);
}

#[test]
fn kayles_period_12_after_last_exception_at_70() {
    let kayles = OctalGame::parse("0.77").unwrap();
    let g = octal_sg(&kayles, 200);
    let p = octal_periodicity(&kayles, &g).expect("period proved within 200 terms");
    assert_eq!(p, Periodicity { preperiod: 71, period: 12 });
    assert_eq!(p.last_exception(), Some(70));
    assert_ne!(g[70], g[82]);
    // The periodic row 4 1 2 8 1 4 7 2 1 8 2 7 for n ≡ 0..11 (mod 12).
    let row = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7];
    for (n, &v) in g.iter().enumerate().skip(71) {
        assert_eq!(v, row[n % 12], "g({n})");
    }
    // The OEIS list of exceptions: n where g(n) differs from the periodic row.
    let exceptions: Vec<usize> = (0..=70).filter(|&n| g[n] != row[n % 12]).collect();
    assert_eq!(exceptions, vec![0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]);
    // The observed period agrees.
    assert_eq!(detect_period(&g), Some(p));
}

#[test]
fn dawsons_kayles_matches_oeis_and_brute_force() {
    let dawson = OctalGame::parse("0.07").unwrap();
    let g = octal_sg(&dawson, 400);
    // 0.07 has values A002187(n - 1).
    for n in 1..=OEIS_A002187.len() {
        assert_eq!(g[n], OEIS_A002187[n - 1], "g({n})");
    }
    let mut memo = HashMap::new();
    for n in 0..=30u8 {
        let rows: Vec<u8> = if n == 0 { vec![] } else { vec![n] };
        assert_eq!(g[n as usize], brute_rows(&rows, &[2], &mut memo), "g({n})");
    }
    // Period 34; A002187's last exception at 51 is n = 52 for 0.07.
    let p = octal_periodicity(&dawson, &g).expect("period proved within 400 terms");
    assert_eq!(p, Periodicity { preperiod: 53, period: 34 });
    assert_eq!(p.last_exception(), Some(52));
}

#[test]
fn octal_codes_parse_and_reject() {
    for ok in ["0.77", ".77", "4.07", "0.137", "0.0", "0.770"] {
        assert!(OctalGame::parse(ok).is_ok(), "{ok}");
    }
    assert_eq!(OctalGame::parse("0.770").unwrap().to_string(), "0.77");
    for bad in ["", "77", "0.", "0.78", "1.07", "2.7", "0.7a", "x.77", "0..7"] {
        assert!(OctalGame::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn nim_is_not_periodic_but_subtraction_sets_are() {
    // 0.333... would be Nim; with finitely many digits 0.3333 is the
    // subtraction game {1, 2, 3, 4}: g(n) = n mod 5.
    let g = octal_sg(&OctalGame::parse("0.3333").unwrap(), 50);
    assert_eq!(g, subtraction_sg(&[1, 2, 3, 4], 50));
    assert_eq!(
        octal_periodicity(&OctalGame::parse("0.3333").unwrap(), &g),
        Some(Periodicity { preperiod: 0, period: 5 })
    );
}
