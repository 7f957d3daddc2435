//! Classes in closed form: the first guesses (colour multiplicities), and the codes whose
//! interchangeable colours come in canonical order.

use crate::code::Code;
use crate::game::{Game, Variant, MAX_PEGS};

/// One representative per class of first guesses under colour and position permutations,
/// each the lexicographically smallest code of its class, in increasing order.
///
/// For repetition games these are the partitions of `n` into at most `k` parts
/// (`1111, 1112, 1122, 1123, 1234` for \[4,6\]); without repetition there is one class.
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

/// Calls `visit` on every code of `game` whose colours from each class of `free` (see
/// [`Symmetry::free_colours`](crate::Symmetry::free_colours)) appear, by first appearance, as that class's smallest colours
/// in increasing order (with `largest`, its largest in decreasing order), in increasing
/// lexicographic order, with its index in the code space. Relabelling a code's free colours
/// so maps it to a member of the list that is no later in tie order and scores the same
/// partition, so scanning the list finds the same first best guess as scanning every code.
///
/// ```
/// use mmtree_core::{canonical_codes, Alphabet, Game, GameSpec};
/// let game = Game::new(GameSpec::mastermind(2, 3))?;
/// let abc = Alphabet::default();
/// let mut codes = Vec::new();
/// // Colours 2 and 3 are interchangeable: 13 stands for 12, 31 for 21, 33 for 22, 32 for 23.
/// canonical_codes(&game, [0b110, 0], false, |c, _| codes.push(abc.format(c)));
/// assert_eq!(codes, ["11", "12", "21", "22", "23"]);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn canonical_codes(game: &Game, free: [u64; 2], largest: bool, mut visit: impl FnMut(&Code, u32)) {
    walk_canonical(game, free, 0, largest, &mut |pegs, i| {
        visit(&Code::from_colours(pegs).expect("colours of the game"), i)
    });
}

/// The indices of the codes [`canonical_codes`] lists that have none of the colours `blank`,
/// in increasing order. Blank colours are pruned during the walk, so the work is that of
/// the list, not of the code space.
///
/// ```
/// use mmtree_core::{canonical_codes, canonical_indices, Game, GameSpec};
/// let game = Game::new(GameSpec::mastermind(3, 5))?;
/// let (free, blank) = ([0b11100, 0], 0b11000); // 3, 4, 5 interchangeable; 4 and 5 left out
/// let mut expected = Vec::new();
/// canonical_codes(&game, free, false, |c, i| {
///     if c.pegs().iter().all(|&p| blank >> p & 1 == 0) {
///         expected.push(i)
///     }
/// });
/// assert_eq!(canonical_indices(&game, free, blank, false), expected);
/// assert_eq!(expected.len(), 27); // every code of colours 1, 2, 3
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn canonical_indices(game: &Game, free: [u64; 2], blank: u64, largest: bool) -> Vec<u32> {
    let mut out = Vec::new();
    walk_canonical(game, free, blank, largest, &mut |_, i| out.push(i));
    out
}

/// The walk behind [`canonical_codes`] and [`canonical_indices`]: `visit(pegs, index)`.
fn walk_canonical(game: &Game, free: [u64; 2], blank: u64, largest: bool, visit: &mut dyn FnMut(&[u8], u32)) {
    let (n, k) = (game.n() as usize, game.k());
    let distinct = game.variant() == Variant::Distinct;
    // Each class's colours in the order they must first appear.
    let order = |mask: u64| -> Vec<u8> {
        let mut colours: Vec<u8> = (0..k).filter(|&c| mask & (1 << c) != 0).collect();
        if largest {
            colours.reverse();
        }
        colours
    };
    // What one step of the colour at position p adds to the lexicographic index.
    let mut weights = [0u64; MAX_PEGS as usize];
    for (p, w) in weights[..n].iter_mut().enumerate() {
        *w = if distinct {
            (0..n - 1 - p).map(|j| u64::from(k) - 1 - p as u64 - j as u64).product()
        } else {
            u64::from(k).pow((n - 1 - p) as u32)
        };
    }
    struct Walk<'v> {
        n: usize,
        distinct: bool,
        free: [u64; 2],
        orders: [Vec<u8>; 2],
        /// Colours outside the classes, less the blank ones.
        open: u64,
        blank: u64,
        weights: [u64; MAX_PEGS as usize],
        pegs: [u8; MAX_PEGS as usize],
        visit: &'v mut dyn FnMut(&[u8], u32),
    }
    fn walk(w: &mut Walk<'_>, pos: usize, next: [usize; 2], used: u64, index: u64) {
        if pos == w.n {
            (w.visit)(&w.pegs[..w.n], index as u32);
            return;
        }
        // Colours allowed here: any colour outside the classes, any class colour already
        // used, and each class's next colour (first appearances come in canonical order).
        // A blank class colour blocks the rest of its class: they may only follow it.
        let mut allowed = w.open | (used & (w.free[0] | w.free[1]));
        for (order, &next) in w.orders.iter().zip(&next) {
            if let Some(&c) = order.get(next) {
                allowed |= 1 << c;
            }
        }
        allowed &= !w.blank;
        if w.distinct {
            allowed &= !used;
        }
        while allowed != 0 {
            let c = allowed.trailing_zeros() as u8;
            let bit = 1u64 << c;
            allowed &= !bit;
            let mut after = next;
            for (count, class) in after.iter_mut().zip(w.free) {
                if class & bit != 0 && used & bit == 0 {
                    *count += 1;
                }
            }
            let digit = if w.distinct { u64::from((!used & (bit - 1)).count_ones()) } else { u64::from(c) };
            w.pegs[pos] = c;
            walk(w, pos + 1, after, used | bit, index + digit * w.weights[pos]);
        }
    }
    let all = (1u64 << k) - 1;
    let orders = [order(free[0]), order(free[1])];
    let open = all & !(free[0] | free[1]) & !blank;
    let mut w = Walk { n, distinct, free, orders, open, blank, weights, pegs: [0; MAX_PEGS as usize], visit };
    walk(&mut w, 0, [0, 0], 0, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameSpec;

    /// Every relabelling of each class of `free` applied to `code`.
    fn orbit(code: &Code, free: [u64; 2], k: u8) -> Vec<Code> {
        let mut maps: Vec<Vec<u8>> = vec![(0..k).collect()];
        for class in free {
            let colours: Vec<u8> = (0..k).filter(|&c| class & (1 << c) != 0).collect();
            let mut next = Vec::new();
            for map in &maps {
                let mut images = colours.clone();
                super::super::permutations(&mut images, 0, &mut |perm| {
                    let mut m = map.clone();
                    for (&c, &img) in colours.iter().zip(perm) {
                        m[c as usize] = img;
                    }
                    next.push(m);
                });
            }
            maps = next;
        }
        maps.iter()
            .map(|m| Code::from_colours(&code.pegs().iter().map(|&c| m[c as usize]).collect::<Vec<_>>()).unwrap())
            .collect()
    }

    #[test]
    fn canonical_codes_are_the_extreme_members_of_their_orbits() {
        let mut distinct = GameSpec::mastermind(3, 5);
        distinct.variant = Variant::Distinct;
        for spec in [GameSpec::mastermind(3, 5), GameSpec::mastermind(4, 4), distinct] {
            let game = Game::new(spec).unwrap();
            let space = crate::CodeSpace::new(game, crate::MemoryLimit(1 << 30)).unwrap();
            let k = game.k();
            for free in [[0, 0], [0b11, 0], [0b1010, 0b10100 & ((1 << k) - 1)], [0, (1 << k) - 1], [0b101, 0b10]] {
                for largest in [false, true] {
                    let mut listed = Vec::new();
                    canonical_codes(&game, free, largest, |c, i| {
                        assert_eq!(space.index(c).unwrap().index(), i);
                        listed.push(*c);
                    });
                    let expected: Vec<Code> = space
                        .iter()
                        .map(|(_, c)| c)
                        .filter(|c| {
                            let members = orbit(c, free, k);
                            let extreme = if largest { members.iter().max() } else { members.iter().min() };
                            extreme == Some(c)
                        })
                        .collect();
                    assert_eq!(listed, expected, "{spec:?} {free:?} largest={largest}");
                    for blank in [0b1, 0b110, 0b1010, (1 << k) - 2] {
                        let indices = canonical_indices(&game, free, blank, largest);
                        let without: Vec<u32> = listed
                            .iter()
                            .filter(|c| c.pegs().iter().all(|&p| blank >> p & 1 == 0))
                            .map(|c| space.index(c).unwrap().get() as u32)
                            .collect();
                        assert_eq!(indices, without, "{spec:?} {free:?} blank={blank:b} largest={largest}");
                    }
                }
            }
        }
    }
}
