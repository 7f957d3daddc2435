//! Canonical forms of candidate sets: one member of a set's class under a history's group,
//! the same for every member, so that tables of solved sets can be keyed by it.
//!
//! For each listed position permutation (with its forced colour map) the free colours are
//! relabelled canonically: each free colour gets a signature that no relabelling changes (the
//! sorted patterns of the codes that hold it, other free colours left anonymous), colours are
//! ranked by signature and handed the free colours in increasing order; colours with equal
//! signatures are tried in every order unless the set is symmetric in them (then every order
//! gives the same set). The least result over all of this is the form.

use super::{Element, Symmetry, FREE};
use crate::code::{Code, CodeIndex};
use crate::game::{MAX_COLOURS, MAX_PEGS};
use crate::space::CodeSpace;

impl Symmetry {
    /// A canonical form of `set` (sorted indices of `space`'s codes) under the group: an
    /// image of `set` under the group, as a sorted list, the same for every image of `set`.
    ///
    /// Every permutation of positions and colours preserves partitions, so anything that
    /// depends on the set alone (such as its optimal cost) is the same for the set and its
    /// form. The cost grows with the number of listed position permutations times the size
    /// of the set; candidate sets of a history are fixed by that history's own group (their
    /// form is themselves), so the form is for sets met under a larger group, such as the
    /// parts of guesses tried under an earlier one.
    ///
    /// ```
    /// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit, Symmetry};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
    /// let abc = Alphabet::default();
    /// let code = |s: &str| space.index(&abc.parse(space.game(), s).unwrap()).unwrap();
    /// let after = Symmetry::root(space.game()).after(&abc.parse(space.game(), "1122")?);
    /// // Any permutation of the colours 3 to 6 fixes 1122: here 3 <-> 5 and 4 <-> 6.
    /// let a = after.canonical_set(&space, &[code("1213"), code("3456")]);
    /// let b = after.canonical_set(&space, &[code("1215"), code("5634")]);
    /// assert_eq!(a, b);
    /// assert_ne!(a, after.canonical_set(&space, &[code("1213"), code("3455")]));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn canonical_set(&self, space: &CodeSpace, set: &[CodeIndex]) -> Vec<CodeIndex> {
        let codes: Vec<Code> = set.iter().map(|&x| space.code(x)).collect();
        let free = super::all_colours(self.k) & !self.used;
        let mut best: Option<Vec<CodeIndex>> = None;
        let mut moved = Vec::with_capacity(codes.len());
        for e in &self.elements {
            // The set under the element, free colours left in place.
            let map = ColourMap::of(e);
            moved.clear();
            moved.extend(codes.iter().map(|x| map.apply(e, x)));
            relabel_free(&moved, free, self.k, &mut |image| {
                let mut indices: Vec<CodeIndex> =
                    image.iter().map(|y| space.index(y).expect("an image of a code is a code")).collect();
                indices.sort_unstable();
                if best.as_ref().is_none_or(|b| indices < *b) {
                    best = Some(indices);
                }
            });
        }
        best.unwrap_or_default()
    }

    /// Whether every permutation of the group maps `set` onto itself, as it maps the
    /// candidates any feedbacks leave after the guesses it fixes: a search that keeps one
    /// guess per class of the group is right only on such sets.
    ///
    /// ```
    /// use mmtree_core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit, Symmetry};
    /// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
    /// let abc = Alphabet::default();
    /// let code = |s: &str| space.index(&abc.parse(space.game(), s).unwrap()).unwrap();
    /// let after = Symmetry::root(space.game()).after(&space.code(code("1122")));
    /// // The candidates left by 1122 with the feedback 1133 gets (2 blacks) ...
    /// let parts = space.split(code("1122"), &space.all_indices());
    /// let (_, left) = parts.into_iter().find(|(_, part)| part.contains(&code("1133"))).unwrap();
    /// assert!(after.fixes(&space, &left));
    /// // ... but not all of them but 1144.
    /// let some: Vec<_> = left.iter().copied().filter(|&c| c != code("1144")).collect();
    /// assert!(!after.fixes(&space, &some));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn fixes(&self, space: &CodeSpace, set: &[CodeIndex]) -> bool {
        let mut member = vec![false; space.len()];
        for &c in set {
            member[c.get()] = true;
        }
        // Generators: the listed permutations, colours never played left in place; at the
        // root of a game with too many positions to list, the swaps of neighbouring
        // positions; and the swaps of neighbouring colours never played.
        let mut generators: Vec<(Element, ColourMap)> = self.elements.iter().map(|e| (*e, ColourMap::of(e))).collect();
        if self.root && self.elements.len() == 1 {
            for p in 1..usize::from(self.n) {
                let mut e = Element::IDENTITY;
                e.sigma.swap(p - 1, p);
                e.inverse.swap(p - 1, p);
                generators.push((e, ColourMap::of(&e)));
            }
        }
        let free = super::all_colours(self.k) & !self.used;
        let colours: Vec<u8> = (0..self.k).filter(|&c| free & 1 << c != 0).collect();
        for pair in colours.windows(2) {
            let mut map = ColourMap::of(&Element::IDENTITY);
            map.0.swap(usize::from(pair[0]), usize::from(pair[1]));
            generators.push((Element::IDENTITY, map));
        }
        generators.iter().all(|(e, map)| {
            set.iter().all(|&x| space.index(&map.apply(e, &space.code(x))).is_some_and(|y| member[y.get()]))
        })
    }
}

/// An image of `set` under the game's whole group (every permutation of positions and of
/// colours), picked by invariants, so that the images of one set often give the same one.
///
/// Positions are ranked by the counts of the colours in them (each colour known by its
/// count in the set), colours by their count in the set and then by their counts at the
/// positions (each position known by its rank key); ties are left in index order. Two sets
/// with the same image are images of each other, so anything that depends on a set alone,
/// such as its optimal cost, holds for both. Unlike [`Symmetry::canonical_set`], two images
/// of one set may still differ when invariants tie, but the cost is a few passes over the
/// set instead of one per permutation of positions, cheap enough to look up every small set
/// a search meets. `image` receives the sorted indices.
///
/// ```
/// use mmtree_core::{standard_image, Alphabet, CodeSpace, Game, GameSpec, MemoryLimit};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let abc = Alphabet::default();
/// let set = |codes: &[&str]| -> Vec<_> {
///     let mut set: Vec<_> = codes.iter().map(|s| space.index(&abc.parse(space.game(), s).unwrap()).unwrap()).collect();
///     set.sort_unstable();
///     set
/// };
/// let (mut a, mut b) = (Vec::new(), Vec::new());
/// // The second set is the first with positions reversed and colours 1, 2, 3 -> 5, 6, 4.
/// standard_image(&space, &set(&["1111", "1122", "1233"]), &mut a);
/// standard_image(&space, &set(&["5555", "6655", "4465"]), &mut b);
/// assert_eq!(a, b);
/// // Not an image of the first: no image of it is this image.
/// standard_image(&space, &set(&["1111", "1122", "1234"]), &mut b);
/// assert_ne!(a, b);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn standard_image(space: &CodeSpace, set: &[CodeIndex], image: &mut Vec<CodeIndex>) {
    const PEGS: usize = MAX_PEGS as usize;
    const COLOURS: usize = MAX_COLOURS as usize;
    let (n, k) = (usize::from(space.game().n()), usize::from(space.game().k()));
    let mix = |h: u64, v: u64| (h.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut counts = [[0u32; COLOURS]; PEGS];
    let mut total = [0u32; COLOURS];
    for &x in set {
        for (at, &c) in counts.iter_mut().zip(space.code(x).pegs()) {
            at[usize::from(c)] += 1;
            total[usize::from(c)] += 1;
        }
    }
    // A position's key: the sorted (count in the set, count here) of its colours.
    let mut position_key = [0u64; PEGS];
    let mut pairs = [0u64; COLOURS];
    for (key, at) in position_key.iter_mut().zip(&counts).take(n) {
        let mut len = 0;
        for (c, &here) in at[..k].iter().enumerate().filter(|&(_, &here)| here > 0) {
            pairs[len] = u64::from(total[c]) << 32 | u64::from(here);
            len += 1;
        }
        pairs[..len].sort_unstable();
        *key = pairs[..len].iter().fold(0, |h, &v| mix(h, v));
    }
    // A colour's key: its count, then the sorted (position key, count there) of its positions.
    let mut colour_key = [(0u32, 0u64); COLOURS];
    let mut places = [(0u64, 0u32); PEGS];
    for (c, key) in colour_key.iter_mut().enumerate().take(k).filter(|&(c, _)| total[c] > 0) {
        let mut len = 0;
        for (at, &pk) in counts.iter().zip(&position_key).take(n).filter(|(at, _)| at[c] > 0) {
            places[len] = (pk, at[c]);
            len += 1;
        }
        places[..len].sort_unstable();
        *key = (u32::MAX - total[c], places[..len].iter().fold(0, |h, &(p, v)| mix(mix(h, p), u64::from(v))));
    }
    let mut positions: [usize; PEGS] = std::array::from_fn(|i| i);
    positions[..n].sort_unstable_by_key(|&i| (position_key[i], i));
    let mut colours: [usize; COLOURS] = std::array::from_fn(|c| c);
    colours[..k].sort_unstable_by_key(|&c| (colour_key[c], c));
    let mut map = [0u8; COLOURS];
    for (to, &from) in colours[..k].iter().enumerate() {
        map[from] = to as u8;
    }
    image.clear();
    image.extend(set.iter().map(|&x| {
        let code = space.code(x);
        let pegs = code.pegs();
        let mut y = [0u8; PEGS];
        for (slot, &from) in y.iter_mut().zip(&positions[..n]) {
            *slot = map[usize::from(pegs[from])];
        }
        let y = Code::from_colours(&y[..n]).expect("a recoloured code");
        space.index(&y).expect("an image of a code is a code")
    }));
    image.sort_unstable();
}

/// Calls `visit` with every canonical relabelling of the colours of `free` in `codes` (see the
/// module documentation).
fn relabel_free(codes: &[Code], free: u64, k: u8, visit: &mut impl FnMut(&[Code])) {
    let present = codes.iter().flat_map(|x| x.pegs()).fold(0u64, |acc, &c| acc | 1 << c) & free;
    let mut ranked: Vec<(Vec<u64>, u8)> =
        (0..k).filter(|&c| present & (1 << c) != 0).map(|c| (signature(codes, c, free), c)).collect();
    ranked.sort();
    // Runs of equal signatures, each either symmetric (one order will do) or to be permuted.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=ranked.len() {
        if i == ranked.len() || ranked[i].0 != ranked[start].0 {
            let colours: Vec<u8> = ranked[start..i].iter().map(|r| r.1).collect();
            if !symmetric(codes, &colours) {
                runs.push((start, i));
            }
            start = i;
        }
    }
    let order: Vec<u8> = ranked.into_iter().map(|r| r.1).collect();
    let targets: Vec<u8> = (0..k).filter(|&c| free & (1 << c) != 0).collect();
    permute_runs(&order, &runs, 0, &mut |order| {
        let mut map: [u8; MAX_COLOURS as usize] = std::array::from_fn(|c| c as u8);
        for (&from, &to) in order.iter().zip(&targets) {
            map[from as usize] = to;
        }
        let image: Vec<Code> = codes.iter().map(|x| recolour(x, &map)).collect();
        visit(&image);
    });
}

/// Every arrangement of `order` that permutes the colours within each run.
fn permute_runs(order: &[u8], runs: &[(usize, usize)], run: usize, visit: &mut impl FnMut(&[u8])) {
    let Some(&(start, end)) = runs.get(run) else {
        visit(order);
        return;
    };
    let mut within: Vec<u8> = order[start..end].to_vec();
    super::permutations(&mut within, 0, &mut |perm| {
        let mut arranged = order.to_vec();
        arranged[start..end].copy_from_slice(perm);
        permute_runs(&arranged, runs, run + 1, visit);
    });
}

/// What a relabelling of the free colours cannot change about colour `c`: the sorted patterns
/// of the codes holding it, with `c` marked, played colours as they are, other free colours
/// anonymous.
fn signature(codes: &[Code], c: u8, free: u64) -> Vec<u64> {
    const MARK: u64 = 63;
    const OTHER: u64 = 62;
    let mut patterns: Vec<u64> = codes
        .iter()
        .filter(|x| x.pegs().contains(&c))
        .map(|x| {
            x.pegs().iter().fold(0u64, |acc, &p| {
                let symbol = if p == c {
                    MARK
                } else if free & (1 << p) != 0 {
                    OTHER
                } else {
                    u64::from(p)
                };
                acc << 6 | symbol
            })
        })
        .collect();
    patterns.sort_unstable();
    patterns
}

/// Whether swapping any two of `colours` maps the set of `codes` onto itself.
fn symmetric(codes: &[Code], colours: &[u8]) -> bool {
    let sorted = |v: Vec<Code>| {
        let mut v = v;
        v.sort_unstable();
        v
    };
    let own = sorted(codes.to_vec());
    colours.windows(2).all(|pair| {
        let mut map: [u8; MAX_COLOURS as usize] = std::array::from_fn(|c| c as u8);
        map.swap(pair[0] as usize, pair[1] as usize);
        sorted(codes.iter().map(|x| recolour(x, &map)).collect()) == own
    })
}

fn recolour(x: &Code, map: &[u8; MAX_COLOURS as usize]) -> Code {
    let mut y = [0u8; MAX_PEGS as usize];
    for (slot, &c) in y.iter_mut().zip(x.pegs()) {
        *slot = map[c as usize];
    }
    Code::from_colours(&y[..x.len()]).expect("a recoloured code")
}

/// An element's colour map extended by the identity on the colours never played.
struct ColourMap([u8; MAX_COLOURS as usize]);

impl ColourMap {
    fn of(e: &Element) -> ColourMap {
        ColourMap(std::array::from_fn(|c| if e.pi[c] == FREE { c as u8 } else { e.pi[c] }))
    }

    fn apply(&self, e: &Element, x: &Code) -> Code {
        let mut y = [0u8; MAX_PEGS as usize];
        for (i, &c) in x.pegs().iter().enumerate() {
            y[e.sigma[i] as usize] = self.0[c as usize];
        }
        Code::from_colours(&y[..x.len()]).expect("an image of a code")
    }
}

#[cfg(test)]
mod tests {
    use super::super::permutations;
    use super::super::tests::apply;
    use super::*;
    use crate::game::{Game, GameSpec};
    use crate::MemoryLimit;

    /// The parts of `set` under `guess`.
    fn parts(space: &CodeSpace, guess: CodeIndex, set: &[CodeIndex]) -> Vec<Vec<CodeIndex>> {
        space.split(guess, set).into_iter().map(|(_, p)| p).collect()
    }

    /// The images of `set` (sorted) under each `(sigma, pi)` of `group`.
    fn images(space: &CodeSpace, group: &[(Vec<u8>, Vec<u8>)], set: &[CodeIndex]) -> Vec<Vec<CodeIndex>> {
        group
            .iter()
            .map(|(s, p)| {
                let mut image: Vec<CodeIndex> =
                    set.iter().map(|&x| space.index(&apply(s, p, &space.code(x))).unwrap()).collect();
                image.sort_unstable();
                image
            })
            .collect()
    }

    #[test]
    fn every_image_of_a_set_has_the_same_form() {
        for spec in [GameSpec::mastermind(3, 4), GameSpec::mastermind(2, 5), GameSpec::bulls_and_cows(3, 5)] {
            let game = Game::new(spec).unwrap();
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            let (n, k) = (game.n(), game.k());
            let codes = space.all_indices();
            // Histories of no guess and of one; sets: parts of further guesses, and a few
            // arbitrary sets.
            let mut histories = vec![vec![]];
            histories.extend(codes.iter().step_by(13).map(|&g| vec![g]));
            for history in histories {
                let played: Vec<Code> = history.iter().map(|&g| space.code(g)).collect();
                let symmetry = Symmetry::of_history(&game, &played);
                let mut group = Vec::new();
                let mut sigmas = Vec::new();
                permutations(&mut (0..n).collect(), 0, &mut |s| sigmas.push(s.to_vec()));
                permutations(&mut (0..k).collect(), 0, &mut |p| {
                    for s in &sigmas {
                        if played.iter().all(|h| apply(s, p, h) == *h) {
                            group.push((s.clone(), p.to_vec()));
                        }
                    }
                });
                let mut sets: Vec<Vec<CodeIndex>> = Vec::new();
                for g in codes.iter().step_by(5) {
                    sets.extend(parts(&space, *g, &codes).into_iter().filter(|p| p.len() <= 12));
                }
                sets.push(codes.iter().step_by(3).copied().take(6).collect());
                sets.push(vec![codes[1], codes[codes.len() / 2]]);
                for set in &sets {
                    let images = images(&space, &group, set);
                    let form = symmetry.canonical_set(&space, set);
                    assert!(images.contains(&form), "{spec:?} {history:?}: {form:?} is not an image of {set:?}");
                    for image in images.iter().step_by(7) {
                        assert_eq!(symmetry.canonical_set(&space, image), form, "{spec:?} {history:?} {set:?}");
                    }
                }
            }
        }
    }

    /// The standard image of a set is one of its images under the whole group (checked
    /// against the group listed by its definition), and images of a set often share it.
    #[test]
    fn the_standard_image_is_an_image() {
        for spec in [GameSpec::mastermind(3, 4), GameSpec::mastermind(4, 3), GameSpec::bulls_and_cows(3, 5)] {
            let game = Game::new(spec).unwrap();
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            let (n, k) = (game.n(), game.k());
            let codes = space.all_indices();
            let mut group = Vec::new();
            let mut sigmas = Vec::new();
            permutations(&mut (0..n).collect(), 0, &mut |s| sigmas.push(s.to_vec()));
            permutations(&mut (0..k).collect(), 0, &mut |p| {
                group.extend(sigmas.iter().map(|s| (s.clone(), p.to_vec())))
            });
            let mut sets: Vec<Vec<CodeIndex>> = Vec::new();
            for g in codes.iter().step_by(5) {
                for part in parts(&space, *g, &codes) {
                    sets.extend(parts(&space, codes[codes.len() / 3], &part));
                    sets.push(part);
                }
            }
            sets.push(codes.clone());
            let (mut shared, mut images_seen) = (0, 0);
            let mut standard = Vec::new();
            for set in &sets {
                let images = images(&space, &group, set);
                standard_image(&space, set, &mut standard);
                assert!(images.contains(&standard), "{spec:?}: {standard:?} is not an image of {set:?}");
                let own = standard.clone();
                for image in images.iter().step_by(5) {
                    standard_image(&space, image, &mut standard);
                    images_seen += 1;
                    shared += usize::from(standard == own);
                }
            }
            // Ties left in index order make some images differ (a third of the time without
            // repeated colours, which tie more); a floor against keys that see nothing.
            assert!(4 * shared >= images_seen, "{spec:?}: {shared} of {images_seen} images share the standard one");
        }
    }
}
