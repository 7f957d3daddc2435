//! Symmetry of the code space under colour and position permutations.

use crate::code::Code;
use crate::game::{Game, Variant};

/// One representative per class of first guesses under colour and position permutations,
/// each the lexicographically smallest code of its class, in increasing order.
///
/// For repetition games these are the partitions of `n` into at most `k` parts
/// (`1111, 1112, 1122, 1123, 1234` for [4,6]); without repetition there is one class.
///
/// ```
/// use mmtree_core::{first_guess_classes, Alphabet, Game, GameSpec};
/// let game = Game::new(GameSpec::mastermind(4, 6))?;
/// let abc = Alphabet::default();
/// let reps: Vec<String> = first_guess_classes(&game).iter().map(|c| abc.format(c)).collect();
/// assert_eq!(reps, ["1111", "1112", "1122", "1123", "1234"]);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn first_guess_classes(game: &Game) -> Vec<Code> {
    let (n, k) = (game.n(), game.k());
    if game.variant() == Variant::Distinct {
        let pegs: Vec<u8> = (0..n).collect();
        return vec![Code::from_colours(&pegs).expect("n <= k <= MAX_COLOURS")];
    }
    let mut out = Vec::new();
    let mut parts = Vec::new();
    partitions(n, n, k, &mut parts, &mut out);
    out.sort();
    out
}

/// Partitions of `rest` into at most `slots` parts, each at most `max`, as codes.
fn partitions(rest: u8, max: u8, slots: u8, parts: &mut Vec<u8>, out: &mut Vec<Code>) {
    if rest == 0 {
        let pegs: Vec<u8> =
            parts.iter().enumerate().flat_map(|(colour, &p)| std::iter::repeat_n(colour as u8, p as usize)).collect();
        out.push(Code::from_colours(&pegs).expect("within limits"));
        return;
    }
    if slots == 0 {
        return;
    }
    for p in (1..=max.min(rest)).rev() {
        parts.push(p);
        partitions(rest - p, p, slots - 1, parts, out);
        parts.pop();
    }
}
