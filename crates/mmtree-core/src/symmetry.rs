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
        let identity = Element { sigma: std::array::from_fn(|i| i as u8), pi: [FREE; MAX_COLOURS as usize] };
        if n <= MAX_PERMUTED_PEGS {
            let mut sigma: Vec<u8> = (0..n).collect();
            permutations(&mut sigma, 0, &mut |s| {
                let mut e = identity;
                e.sigma[..s.len()].copy_from_slice(s);
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
        let identity = Element { sigma: std::array::from_fn(|i| i as u8), pi: std::array::from_fn(|c| c as u8) };
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
        let n = self.n as usize;
        let mut image = [0u8; MAX_PEGS as usize];
        for e in &self.elements {
            let mut relabel = [FREE; MAX_COLOURS as usize];
            let mut next_free = Cursor::new(self.used, self.k, largest);
            for i in 0..n {
                image[e.sigma[i] as usize] = g[i];
            }
            for slot in image[..n].iter_mut() {
                let c = *slot;
                *slot = if self.used & (1 << c) != 0 {
                    e.pi[c as usize]
                } else {
                    if relabel[c as usize] == FREE {
                        relabel[c as usize] = next_free.next();
                    }
                    relabel[c as usize]
                };
            }
            let ord = image[..n].cmp(g);
            if (largest && ord == std::cmp::Ordering::Greater) || (!largest && ord == std::cmp::Ordering::Less) {
                return false;
            }
        }
        true
    }
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
