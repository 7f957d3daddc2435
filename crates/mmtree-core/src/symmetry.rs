//! Symmetry of the code space under colour and position permutations.

use crate::code::Code;
use crate::game::{Game, Variant, MAX_COLOURS, MAX_PEGS};

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

/// Most pegs for which the position permutations are enumerated (8! = 40320); beyond,
/// only colour relabelling is used.
const MAX_PERMUTED_PEGS: u8 = 8;
const FREE: u8 = u8::MAX;

/// One permutation of positions with the colour map it forces on the colours played so far
/// (`FREE` for colours never played: those are relabelled canonically, see
/// [`Symmetry::is_representative`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Element {
    sigma: [u8; MAX_PEGS as usize],
    /// `sigma`'s inverse: the image of a code has at position `p` the peg at `inverse[p]`.
    inverse: [u8; MAX_PEGS as usize],
    pi: [u8; MAX_COLOURS as usize],
}

/// The permutations of positions and colours that fix every guess played so far. Each maps
/// the candidate set onto itself and preserves every partition table, so only one guess per
/// orbit needs scoring; colours never played are interchangeable, and so are colours absent
/// from every candidate.
///
/// ```
/// use mmtree_core::{Alphabet, Game, GameSpec, Symmetry};
/// let game = Game::new(GameSpec::mastermind(4, 6))?;
/// let abc = Alphabet::default();
/// let root = Symmetry::root(&game);
/// let code = |s: &str| abc.parse(&game, s).unwrap();
/// assert!(root.is_representative(&code("1122"), 0, false));
/// assert!(!root.is_representative(&code("2211"), 0, false)); // 1122 is smaller
/// let after = root.after(&code("1122"));
/// assert!(after.is_representative(&code("1213"), 0, false));
/// assert!(!after.is_representative(&code("2131"), 0, false)); // swap 1<->2 and the halves
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Symmetry {
    n: u8,
    k: u8,
    used: u64,
    elements: Vec<Element>,
}

impl Symmetry {
    /// Before any guess: every position permutation (up to 8 pegs) and every colour permutation.
    pub fn root(game: &Game) -> Symmetry {
        let n = game.n();
        let mut elements = Vec::new();
        let identity = Element {
            sigma: std::array::from_fn(|i| i as u8),
            inverse: std::array::from_fn(|i| i as u8),
            pi: [FREE; MAX_COLOURS as usize],
        };
        if n <= MAX_PERMUTED_PEGS {
            let mut sigma: Vec<u8> = (0..n).collect();
            permutations(&mut sigma, 0, &mut |s| {
                let mut e = identity;
                e.sigma[..s.len()].copy_from_slice(s);
                for (i, &p) in s.iter().enumerate() {
                    e.inverse[p as usize] = i as u8;
                }
                elements.push(e);
            });
        } else {
            elements.push(identity);
        }
        Symmetry { n, k: game.k(), used: 0, elements }
    }

    /// No permutation but the identity, every colour counted as played: for candidate sets
    /// whose history is unknown (only colours absent from the candidates are relabelled).
    pub fn trivial(game: &Game) -> Symmetry {
        let identity = Element {
            sigma: std::array::from_fn(|i| i as u8),
            inverse: std::array::from_fn(|i| i as u8),
            pi: std::array::from_fn(|c| c as u8),
        };
        Symmetry { n: game.n(), k: game.k(), used: (1u64 << game.k()) - 1, elements: vec![identity] }
    }

    /// The subgroup that also fixes `guess`.
    pub fn after(&self, guess: &Code) -> Symmetry {
        let g = guess.pegs();
        let mut used = self.used;
        for &c in g {
            used |= 1 << c;
        }
        let elements = self
            .elements
            .iter()
            .filter_map(|e| {
                let mut e = *e;
                // The image of guess must be guess: pi(g[i]) = g[sigma(i)].
                for (i, &c) in g.iter().enumerate() {
                    let target = g[e.sigma[i] as usize];
                    match e.pi[c as usize] {
                        FREE => {
                            // A colour new in this guess maps to a colour new in it too
                            // (played colours map among themselves), injectively.
                            if self.used & (1 << target) != 0 || e.pi.contains(&target) {
                                return None;
                            }
                            e.pi[c as usize] = target;
                        }
                        t if t != target => return None,
                        _ => {}
                    }
                }
                Some(e)
            })
            .collect();
        Symmetry { n: self.n, k: self.k, used, elements }
    }

    /// Whether the group is the identity alone and every colour has been played, so no guess
    /// has another member in its class (beyond colours absent from the candidates).
    pub fn is_trivial(&self) -> bool {
        self.elements.len() == 1 && self.used.count_ones() == u32::from(self.k)
    }

    /// The colours that are interchangeable in any guess, as two classes: those in `absent`
    /// (no candidate has them: they never score), and the colours never played that some
    /// candidate has (permuting them maps the candidates onto themselves).
    pub fn free_colours(&self, absent: u64) -> [u64; 2] {
        let all = (1u64 << self.k) - 1;
        [absent & all, all & !self.used & !absent]
    }

    /// Number of position permutations (with their forced colour maps) in the group.
    pub fn order_without_free_colours(&self) -> usize {
        self.elements.len()
    }

    /// Whether `code` is the smallest (or, with `largest`, the largest) member of its orbit
    /// under this group, and of its orbit under relabelling the colours in `absent` (a
    /// bitmask of colours no candidate contains). The true smallest member of a class under
    /// both together passes both checks, so scanning only codes that pass, in tie order,
    /// finds the same guess as scanning all.
    pub fn is_representative(&self, code: &Code, absent: u64, largest: bool) -> bool {
        let g = code.pegs();
        if !canonical_relabel_ok(g, absent, self.k, largest) {
            return false;
        }
        let beats = if largest { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less };
        for e in &self.elements {
            // The image, position by position, compared with the code as it is built: most
            // elements are decided at the first position or two.
            let mut relabel = [0u8; MAX_COLOURS as usize];
            let mut assigned = 0u64;
            let mut next_free = Cursor::new(self.used, self.k, largest);
            for (p, &own) in g.iter().enumerate() {
                let c = g[e.inverse[p] as usize];
                let image = if self.used & (1 << c) != 0 {
                    e.pi[c as usize]
                } else {
                    if assigned & (1 << c) == 0 {
                        assigned |= 1 << c;
                        relabel[c as usize] = next_free.next();
                    }
                    relabel[c as usize]
                };
                match image.cmp(&own) {
                    std::cmp::Ordering::Equal => continue,
                    ord if ord == beats => return false,
                    _ => break,
                }
            }
        }
        true
    }
}

/// Calls `visit` on every code of `game` whose colours from each class of `free` (see
/// [`Symmetry::free_colours`]) appear, by first appearance, as that class's smallest colours
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
    struct Walk<F> {
        n: usize,
        k: u8,
        distinct: bool,
        free: [u64; 2],
        orders: [Vec<u8>; 2],
        weights: [u64; MAX_PEGS as usize],
        pegs: [u8; MAX_PEGS as usize],
        visit: F,
    }
    fn walk<F: FnMut(&Code, u32)>(w: &mut Walk<F>, pos: usize, next: [usize; 2], used: u64, index: u64) {
        if pos == w.n {
            (w.visit)(&Code::from_colours(&w.pegs[..w.n]).expect("colours of the game"), index as u32);
            return;
        }
        // Colours allowed here: any colour outside the classes, any class colour already
        // used, and each class's next colour (first appearances come in canonical order).
        let all = (1u64 << w.k) - 1;
        let mut allowed = (all & !(w.free[0] | w.free[1])) | (used & (w.free[0] | w.free[1]));
        for (order, &next) in w.orders.iter().zip(&next) {
            if let Some(&c) = order.get(next) {
                allowed |= 1 << c;
            }
        }
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
    let orders = [order(free[0]), order(free[1])];
    let mut w = Walk { n, k, distinct, free, orders, weights, pegs: [0; MAX_PEGS as usize], visit: &mut visit };
    walk(&mut w, 0, [0, 0], 0, 0);
}

/// Colours of a mask handed out in increasing (or decreasing) order.
struct Cursor {
    mask_excluded: u64,
    k: u8,
    largest: bool,
    pos: i16,
}

impl Cursor {
    fn new(excluded: u64, k: u8, largest: bool) -> Cursor {
        Cursor { mask_excluded: excluded, k, largest, pos: if largest { k as i16 - 1 } else { 0 } }
    }
    fn next(&mut self) -> u8 {
        loop {
            let c = self.pos;
            self.pos += if self.largest { -1 } else { 1 };
            if c < 0 || c >= self.k as i16 {
                return FREE; // more distinct free colours than exist: cannot happen for codes of the game
            }
            if self.mask_excluded & (1 << c) == 0 {
                return c as u8;
            }
        }
    }
}

/// Whether the colours of `absent` appear in `g`, by first appearance, as the smallest (or
/// largest) absent colours in order.
fn canonical_relabel_ok(g: &[u8], absent: u64, k: u8, largest: bool) -> bool {
    if absent == 0 {
        return true;
    }
    let mut cursor = Cursor::new(!absent, k, largest);
    let mut seen = 0u64;
    for &c in g {
        if absent & (1 << c) != 0 && seen & (1 << c) == 0 {
            if cursor.next() != c {
                return false;
            }
            seen |= 1 << c;
        }
    }
    true
}

/// Heap-free recursive enumeration of the permutations of `items`.
fn permutations(items: &mut Vec<u8>, start: usize, visit: &mut impl FnMut(&[u8])) {
    if start == items.len() {
        visit(items);
        return;
    }
    for i in start..items.len() {
        items.swap(start, i);
        permutations(items, start + 1, visit);
        items.swap(start, i);
    }
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
                permutations(&mut images, 0, &mut |perm| {
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
                }
            }
        }
    }
}
