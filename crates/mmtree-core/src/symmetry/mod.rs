//! The symmetry of a history: the permutations of positions and colours that fix every guess
//! played so far, used by every search to score one guess per class and to recognise
//! candidate sets that are images of each other.
//!
//! A group element `(σ, π)` maps a code `x` to `y` with `y[σ(i)] = π(x[i])`. Permuting
//! positions and colours preserves every score, so an element that fixes every guess played
//! maps the candidate set onto itself and any guess onto one with the same partition sizes.
//!
//! The group is kept as a list of position permutations, each with the colour map it forces on
//! the colours played so far, times every permutation of the colours never played (the *free*
//! colours), which is handled in closed form: the smallest relabelling of free colours assigns
//! them in order of first appearance. Colours that no candidate contains (*absent* colours)
//! are interchangeable too, whether played or not; they depend on the candidate set rather
//! than on the history, so they are passed where needed. Before any guess, every position
//! permutation is in the group and classes have a closed form (colour multiplicities).
//!
//! * [`Symmetry::is_representative`] and [`Symmetry::representative`]: the smallest (or
//!   largest) member of a code's class, the guess a scan keeps;
//! * [`canonical_codes`]: the codes whose free and absent colours come in canonical order,
//!   enumerated directly (a pool cut down without testing every code);
//! * [`Symmetry::canonical_set`]: one member of a candidate set's class, the same for every
//!   member, to key tables by; [`standard_image`]: one image of a set under the whole
//!   group, the same for most members, cheap enough for every small set a search meets;
//! * [`first_guess_classes`]: the classes before any guess.

mod classes;
mod sets;

pub use classes::{canonical_codes, canonical_indices, first_guess_classes};
pub use sets::standard_image;

use crate::code::{Code, CodeIndex};
use crate::game::{Game, MAX_COLOURS, MAX_PEGS};
use crate::space::CodeSpace;

/// Most pegs for which the position permutations are listed (8! = 40320); beyond, only the
/// root's closed form and colour relabelling are used.
const MAX_PERMUTED_PEGS: u8 = 8;
/// A colour not played yet, in an element's colour map.
const FREE: u8 = u8::MAX;

/// One permutation of positions with the colour map it forces on the colours played so far
/// (`FREE` for colours never played: those are relabelled canonically).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Element {
    sigma: [u8; MAX_PEGS as usize],
    /// `sigma`'s inverse: the image of a code has at position `p` the peg at `inverse[p]`.
    inverse: [u8; MAX_PEGS as usize],
    pi: [u8; MAX_COLOURS as usize],
}

impl Element {
    const IDENTITY: Element = {
        let mut sigma = [0u8; MAX_PEGS as usize];
        let mut p = 0;
        while p < sigma.len() {
            sigma[p] = p as u8;
            p += 1;
        }
        Element { sigma, inverse: sigma, pi: [FREE; MAX_COLOURS as usize] }
    };
}

/// The permutations of positions and colours that fix every guess played so far. Each maps
/// the candidate set onto itself and preserves every partition table, so only one guess per
/// class needs scoring; colours never played are interchangeable, and so are colours absent
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
/// assert_eq!(abc.format(&after.representative(&code("2131"), false)), "1213");
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
/// Two groups are equal when they list the same elements in the same order over the same
/// colours played; groups filtered from the same root list their elements in one order, so
/// equal groups from different histories compare equal and can share their classes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    n: u8,
    k: u8,
    /// Colours of the guesses played.
    used: u64,
    elements: Vec<Element>,
    /// No guess played: every position permutation is in the group (listed or not), and a
    /// class is its colour multiplicities.
    root: bool,
}

impl Symmetry {
    /// Before any guess: every permutation of positions and colours.
    pub fn root(game: &Game) -> Symmetry {
        let n = game.n();
        let mut elements = Vec::new();
        if n <= MAX_PERMUTED_PEGS {
            let mut sigma: Vec<u8> = (0..n).collect();
            permutations(&mut sigma, 0, &mut |s| {
                let mut e = Element::IDENTITY;
                e.sigma[..s.len()].copy_from_slice(s);
                for (i, &p) in s.iter().enumerate() {
                    e.inverse[p as usize] = i as u8;
                }
                elements.push(e);
            });
        } else {
            elements.push(Element::IDENTITY);
        }
        Symmetry { n, k: game.k(), used: 0, elements, root: true }
    }

    /// The group fixing every guess of `history`, in the order played.
    ///
    /// ```
    /// use mmtree_core::{Alphabet, Game, GameSpec, Symmetry};
    /// let game = Game::new(GameSpec::mastermind(4, 6))?;
    /// let abc = Alphabet::default();
    /// let history = [abc.parse(&game, "1122")?, abc.parse(&game, "1344")?];
    /// // Swapping the first two positions fixes both guesses (and nothing else does).
    /// assert_eq!(Symmetry::of_history(&game, &history).position_permutations(), 2);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn of_history(game: &Game, history: &[Code]) -> Symmetry {
        history.iter().fold(Symmetry::root(game), |s, g| s.after(g))
    }

    /// No permutation but the identity, every colour counted as played: for candidate sets
    /// whose history is unknown (only colours absent from the candidates are relabelled).
    pub fn trivial(game: &Game) -> Symmetry {
        Symmetry::of_colours(game, all_colours(game.k()))
    }

    /// No permutation of positions, only those of the colours outside `played`: the group a
    /// deep search keeps, where the position permutations that fix a long history are too
    /// few to be worth listing.
    ///
    /// ```
    /// use mmtree_core::{Alphabet, Game, GameSpec, Symmetry};
    /// let game = Game::new(GameSpec::mastermind(4, 6))?;
    /// let abc = Alphabet::default();
    /// let group = Symmetry::of_colours(&game, 0b11); // colours 1 and 2 played
    /// assert_eq!(group.position_permutations(), 1);
    /// assert!(group.is_representative(&abc.parse(&game, "1213")?, 0, false));
    /// assert!(!group.is_representative(&abc.parse(&game, "1214")?, 0, false)); // 4 -> 3
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn of_colours(game: &Game, played: u64) -> Symmetry {
        let played = played & all_colours(game.k());
        let mut identity = Element::IDENTITY;
        for c in 0..game.k() {
            if played & 1 << c != 0 {
                identity.pi[c as usize] = c;
            }
        }
        Symmetry { n: game.n(), k: game.k(), used: played, elements: vec![identity], root: false }
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
        Symmetry { n: self.n, k: self.k, used, elements, root: false }
    }

    /// Whether every guess is alone in its class: no position permutation but the identity,
    /// and no two colours interchangeable among the free ones nor among those of `absent`.
    pub fn moves_nothing(&self, absent: u64) -> bool {
        !self.root && self.elements.len() == 1 && self.free_colours(absent).iter().all(|c| c.count_ones() <= 1)
    }

    /// The colours that are interchangeable in any guess, as two classes: those in `absent`
    /// (no candidate has them: they never score), and the colours never played that some
    /// candidate has (permuting them maps the candidates onto themselves).
    pub fn free_colours(&self, absent: u64) -> [u64; 2] {
        let all = all_colours(self.k);
        [absent & all, all & !self.used & !absent]
    }

    /// Number of position permutations (with their forced colour maps) in the group.
    pub fn position_permutations(&self) -> usize {
        self.elements.len()
    }

    /// Whether `code` is the smallest (or, with `largest`, the largest) member of its class
    /// under this group, and of its class under relabelling the colours in `absent` (a bitmask
    /// of colours no candidate contains). The true smallest member of a class under both
    /// together passes both checks, so scanning only codes that pass, in tie order, finds the
    /// same guess as scanning all.
    pub fn is_representative(&self, code: &Code, absent: u64, largest: bool) -> bool {
        let g = code.pegs();
        if !canonical_relabel_ok(g, absent, self.k, largest) {
            return false;
        }
        if self.root {
            return root_representative(code, self.k, largest) == *code;
        }
        let beats = if largest { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less };
        for e in &self.elements {
            // The image, position by position, compared with the code as it is built: most
            // elements are decided at the first position or two.
            let mut image = Image::new(self, e, largest);
            for (p, &own) in g.iter().enumerate() {
                match image.peg(g, p).cmp(&own) {
                    std::cmp::Ordering::Equal => continue,
                    ord if ord == beats => return false,
                    _ => break,
                }
            }
        }
        true
    }

    /// Every code that [`Symmetry::is_representative`] keeps with no absent colour, in
    /// increasing index order. Only codes with their never-played colours in canonical order
    /// can be kept; each is met in tie order, and the first met of a class strikes off the
    /// others (one image per listed permutation), so the work is an image per permutation and
    /// class rather than a test of every code against every permutation. One thread,
    /// callgrind: [6,4]'s exact search 27.77 -> 26.66 G instructions (its pools after one
    /// and two guesses had taken 2.60 G of tests).
    ///
    /// ```
    /// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit, Symmetry};
    /// let game = Game::new(GameSpec::mastermind(4, 6))?;
    /// let space = CodeSpace::new(game, MemoryLimit(1 << 30))?;
    /// let after = Symmetry::root(&game).after(&Alphabet::default().parse(&game, "1122")?);
    /// let kept: Vec<_> = space.iter().filter(|(_, c)| after.is_representative(c, 0, false)).map(|(i, _)| i).collect();
    /// assert_eq!(after.representatives(&space, false), kept);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn representatives(&self, space: &CodeSpace, largest: bool) -> Vec<CodeIndex> {
        let game = space.game();
        let free = self.free_colours(0);
        let mut canonical = if free.iter().all(|c| c.count_ones() <= 1) {
            (0..space.len() as u32).collect() // every code is canonical: no walk
        } else {
            canonical_indices(game, free, 0, largest)
        };
        if self.root {
            // The closed form decides each code alone.
            canonical.retain(|&i| self.is_representative(&space.code(CodeIndex::from_index(i)), 0, largest));
        }
        if self.root || self.elements.len() == 1 {
            return canonical.into_iter().map(CodeIndex::from_index).collect();
        }
        if largest {
            canonical.reverse();
        }
        let n = usize::from(self.n);
        let k = usize::from(self.k);
        let repetition = game.variant() == crate::game::Variant::Repetition;
        // Every colour played and repetition allowed: an image's index is a sum over the
        // code's pegs of `pi(colour) k^(n - 1 - sigma(position))`, with no relabelling.
        let places = (repetition && free[1] == 0).then(|| {
            let place = |p: usize| k.pow((n - 1 - p) as u32);
            self.elements
                .iter()
                .map(|e| {
                    std::array::from_fn::<usize, { MAX_PEGS as usize }, _>(|i| {
                        if i < n {
                            place(usize::from(e.sigma[i]))
                        } else {
                            0
                        }
                    })
                })
                .collect::<Vec<_>>()
        });
        let mut struck = bitvec::bitvec![0; space.len()];
        let mut kept = Vec::new();
        let mut pegs = [0u8; MAX_PEGS as usize];
        for i in canonical {
            if struck[i as usize] {
                continue;
            }
            kept.push(CodeIndex::from_index(i));
            let code = space.code(CodeIndex::from_index(i));
            let g = code.pegs();
            if let Some(places) = &places {
                for (e, weights) in self.elements.iter().zip(places) {
                    let image = g.iter().zip(weights).map(|(&c, &w)| usize::from(e.pi[usize::from(c)]) * w).sum();
                    struck.set(image, true);
                }
                continue;
            }
            for e in &self.elements {
                let mut image = Image::new(self, e, largest);
                for (p, slot) in pegs[..n].iter_mut().enumerate() {
                    *slot = image.peg(g, p);
                }
                let image = Code::from_colours(&pegs[..n]).expect("an image of a code");
                struck.set(space.index(&image).expect("an image of a code is a code").get(), true);
            }
        }
        if largest {
            kept.reverse();
        }
        kept
    }

    /// The smallest (or, with `largest`, the largest) member of `code`'s class under this
    /// group: the one [`Symmetry::is_representative`] keeps when no colour is absent.
    pub fn representative(&self, code: &Code, largest: bool) -> Code {
        if self.root {
            return root_representative(code, self.k, largest);
        }
        let g = code.pegs();
        let mut best = *code;
        let mut pegs = [0u8; MAX_PEGS as usize];
        for e in &self.elements {
            let mut image = Image::new(self, e, largest);
            for (p, slot) in pegs[..g.len()].iter_mut().enumerate() {
                *slot = image.peg(g, p);
            }
            let candidate = Code::from_colours(&pegs[..g.len()]).expect("an image of a code");
            if (largest && candidate > best) || (!largest && candidate < best) {
                best = candidate;
            }
        }
        best
    }
}

/// The image of one code under one element, position by position, with the free colours
/// relabelled by first appearance.
struct Image<'a> {
    symmetry: &'a Symmetry,
    element: &'a Element,
    relabel: [u8; MAX_COLOURS as usize],
    assigned: u64,
    next_free: Cursor,
}

impl<'a> Image<'a> {
    fn new(symmetry: &'a Symmetry, element: &'a Element, largest: bool) -> Image<'a> {
        Image {
            symmetry,
            element,
            relabel: [0; MAX_COLOURS as usize],
            assigned: 0,
            next_free: Cursor::new(symmetry.used, symmetry.k, largest),
        }
    }

    /// The image's peg at position `p` (positions must be asked in increasing order).
    #[inline]
    fn peg(&mut self, g: &[u8], p: usize) -> u8 {
        let c = g[self.element.inverse[p] as usize];
        if self.symmetry.used & (1 << c) != 0 {
            return self.element.pi[c as usize];
        }
        if self.assigned & (1 << c) == 0 {
            self.assigned |= 1 << c;
            self.relabel[c as usize] = self.next_free.next();
        }
        self.relabel[c as usize]
    }
}

/// The smallest (or largest) member of a class of the whole group: the colours by decreasing
/// multiplicity (ties by first appearance), written as `0^a 1^b ...` (or `(k-1)^a (k-2)^b ...`).
fn root_representative(code: &Code, k: u8, largest: bool) -> Code {
    let mut counts = [0u8; MAX_COLOURS as usize];
    for &c in code.pegs() {
        counts[c as usize] += 1;
    }
    let mut multiplicities: Vec<u8> = counts.into_iter().filter(|&c| c > 0).collect();
    multiplicities.sort_unstable_by(|a, b| b.cmp(a));
    let pegs: Vec<u8> = multiplicities
        .iter()
        .enumerate()
        .flat_map(|(i, &m)| std::iter::repeat_n(if largest { k - 1 - i as u8 } else { i as u8 }, m as usize))
        .collect();
    Code::from_colours(&pegs).expect("as many pegs and colours as the code")
}

/// Every colour of a game with `k` colours, as a bitmask.
fn all_colours(k: u8) -> u64 {
    (1u64 << k) - 1
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
    use crate::game::{GameSpec, Variant};
    use crate::MemoryLimit;

    /// Permutations of positions and colours, as `(sigma, pi)` pairs.
    type Group = Vec<(Vec<u8>, Vec<u8>)>;

    /// Every (position, colour) permutation of `game` that fixes each code of `history`, as
    /// `(sigma, pi)` with `y[sigma[i]] = pi[x[i]]`: the group by its definition.
    fn brute_group(game: &Game, history: &[Code]) -> Group {
        let (n, k) = (game.n(), game.k());
        let mut sigmas = Vec::new();
        permutations(&mut (0..n).collect(), 0, &mut |s| sigmas.push(s.to_vec()));
        let mut pis = Vec::new();
        permutations(&mut (0..k).collect(), 0, &mut |p| pis.push(p.to_vec()));
        let mut out = Vec::new();
        for sigma in &sigmas {
            for pi in &pis {
                if history.iter().all(|h| apply(sigma, pi, h) == *h) {
                    out.push((sigma.clone(), pi.clone()));
                }
            }
        }
        out
    }

    pub(super) fn apply(sigma: &[u8], pi: &[u8], x: &Code) -> Code {
        let mut y = vec![0u8; x.len()];
        for (i, &c) in x.pegs().iter().enumerate() {
            y[sigma[i] as usize] = pi[c as usize];
        }
        Code::from_colours(&y).unwrap()
    }

    fn games() -> Vec<Game> {
        let mut distinct = GameSpec::mastermind(3, 5);
        distinct.variant = Variant::Distinct;
        [GameSpec::mastermind(3, 4), GameSpec::mastermind(4, 3), GameSpec::mastermind(2, 5), distinct]
            .into_iter()
            .map(|s| Game::new(s).unwrap())
            .collect()
    }

    #[test]
    fn representatives_are_the_extreme_members_of_the_classes() {
        for game in games() {
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
            // Histories of up to two guesses, a few of each length.
            let mut histories: Vec<Vec<Code>> = vec![vec![]];
            for (i, &a) in codes.iter().enumerate().step_by(9) {
                histories.push(vec![a]);
                histories.push(vec![a, codes[(i * 7 + 3) % codes.len()]]);
            }
            for history in &histories {
                let symmetry = Symmetry::of_history(&game, history);
                let group = brute_group(&game, history);
                for largest in [false, true] {
                    let mut extremes = Vec::new();
                    for (i, x) in codes.iter().enumerate() {
                        let orbit = group.iter().map(|(s, p)| apply(s, p, x));
                        let extreme = if largest { orbit.max() } else { orbit.min() }.unwrap();
                        assert_eq!(symmetry.representative(x, largest), extreme, "{game} {history:?} {x:?}");
                        assert_eq!(
                            symmetry.is_representative(x, 0, largest),
                            extreme == *x,
                            "{game} {history:?} {x:?}"
                        );
                        if extreme == *x {
                            extremes.push(CodeIndex::from_index(i as u32));
                        }
                    }
                    assert_eq!(symmetry.representatives(&space, largest), extremes, "{game} {history:?}");
                }
            }
        }
    }

    #[test]
    fn groups_that_compare_equal_fix_the_same_permutations() {
        // The exact search shares one pool between histories whose groups compare equal.
        let mut shared = 0;
        for game in games() {
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
            let first = codes[codes.len() / 3];
            let mut seen: Vec<(Symmetry, Group)> = Vec::new();
            for &second in &codes {
                let history = [first, second];
                let symmetry = Symmetry::of_history(&game, &history);
                let mut group = brute_group(&game, &history);
                group.sort();
                match seen.iter().find(|(s, _)| *s == symmetry) {
                    Some((_, earlier)) => {
                        assert_eq!(*earlier, group, "{game} {history:?}");
                        shared += 1;
                    }
                    None => seen.push((symmetry, group)),
                }
            }
        }
        assert!(shared > 0, "no two histories share a group");
    }

    #[test]
    fn the_root_closed_form_matches_the_listed_permutations() {
        for game in games() {
            let root = Symmetry::root(&game);
            let listed = Symmetry { root: false, ..root.clone() };
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            for (_, x) in space.iter() {
                for largest in [false, true] {
                    assert_eq!(root.representative(&x, largest), listed.representative(&x, largest), "{x:?}");
                }
            }
            let reps: Vec<Code> =
                space.iter().map(|(_, c)| c).filter(|c| root.is_representative(c, 0, false)).collect();
            assert_eq!(reps, first_guess_classes(&game), "{game}");
        }
    }

    #[test]
    fn classes_after_1123_in_4_6() {
        // Permutations fixing 1123: swap the two 1s' positions, and swap colours 2 and 3 with
        // positions 3 and 4; colours 4, 5, 6 are free. Every class has one representative.
        let game = Game::new(GameSpec::mastermind(4, 6)).unwrap();
        let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
        let g = space.code(CodeIndex::from_index(8)); // 1123
        let sym = Symmetry::root(&game).after(&g);
        assert_eq!(sym.position_permutations(), 4);
        let reps = space.iter().filter(|(_, c)| sym.is_representative(c, 0, false)).count();
        let classes: std::collections::BTreeSet<Code> =
            space.iter().map(|(_, c)| sym.representative(&c, false)).collect();
        assert_eq!(reps, classes.len());
        let brute: std::collections::BTreeSet<Code> = space
            .iter()
            .map(|(_, c)| brute_group(&game, &[g]).iter().map(|(s, p)| apply(s, p, &c)).min().unwrap())
            .collect();
        assert_eq!(classes, brute);
    }
}
