//! Colour and position permutations that fix a history of guesses, used by the exact search
//! to try one guess per symmetry class.
//!
//! A group element `(σ, φ)` maps a code `x` to `y` with `y[σ(i)] = φ(x[i])`. Permuting
//! positions and colours preserves every score, so an element that fixes every guess played so
//! far maps the current candidate set onto itself and any guess onto a guess with an
//! isomorphic partition: only the lexicographically smallest member of each orbit needs trying.
//!
//! The group is kept as an explicit list of position permutations with the colour map they
//! force on the *bound* colours (those of the history), times every permutation of the *free*
//! colours (never played), which is handled in closed form: the lexicographically smallest
//! relabelling of free colours assigns them in order of first appearance.

use mmtree_core::{Code, MAX_COLOURS};

/// Most pegs for which position permutations are enumerated (`7! = 5040` of them).
const MAX_PERMUTED_PEGS: usize = 7;
/// Marks a free colour in an image under construction.
const FREE: u8 = 0x80;

/// A group of (position, colour) permutations fixing a history, with free colours.
pub(crate) struct Symmetry {
    n: usize,
    /// Position permutation with the colour map on bound colours (others `u8::MAX`).
    elements: Vec<(Vec<u8>, [u8; MAX_COLOURS as usize])>,
    /// Free colours in increasing order.
    free: Vec<u8>,
    free_mask: u64,
}

impl Symmetry {
    /// The permutations fixing every code of `history` (positions only when `n` is small
    /// enough to enumerate them), and every permutation of the colours in `free_mask` — which
    /// must appear in no history code.
    pub(crate) fn fixing(n: usize, k: u8, history: &[Code], permute_positions: bool, free_mask: u64) -> Symmetry {
        debug_assert!(history.iter().all(|h| h.pegs().iter().all(|&c| free_mask & (1 << c) == 0)));
        let free: Vec<u8> = (0..k).filter(|&c| free_mask & (1 << c) != 0).collect();
        let mut elements = Vec::new();
        let perms =
            if permute_positions && n <= MAX_PERMUTED_PEGS { permutations(n) } else { vec![(0..n as u8).collect()] };
        'sigma: for sigma in perms {
            let mut phi = [u8::MAX; MAX_COLOURS as usize];
            let mut used = 0u64;
            for h in history {
                let p = h.pegs();
                for i in 0..n {
                    let (from, to) = (p[i], p[sigma[i] as usize]);
                    if phi[from as usize] == u8::MAX {
                        if used & (1 << to) != 0 {
                            continue 'sigma;
                        }
                        phi[from as usize] = to;
                        used |= 1 << to;
                    } else if phi[from as usize] != to {
                        continue 'sigma;
                    }
                }
            }
            // Colours of no history code and not free are fixed.
            for c in 0..k {
                if free_mask & (1 << c) == 0 && phi[c as usize] == u8::MAX {
                    if used & (1 << c) != 0 {
                        continue 'sigma;
                    }
                    phi[c as usize] = c;
                    used |= 1 << c;
                }
            }
            elements.push((sigma, phi));
        }
        Symmetry { n, elements, free, free_mask }
    }

    /// Whether the group does nothing (so every guess is its own class).
    pub(crate) fn is_trivial(&self) -> bool {
        self.elements.len() <= 1 && self.free.len() <= 1
    }

    /// Whether `x` is the lexicographically smallest code of its orbit.
    pub(crate) fn is_canonical(&self, x: &Code) -> bool {
        let x = x.pegs();
        if self.elements.len() == 1 && self.elements[0].0.iter().enumerate().all(|(i, &p)| p as usize == i) {
            return self.free_in_order(x);
        }
        let mut y = [0u8; 16];
        for (sigma, phi) in &self.elements {
            for i in 0..self.n {
                let c = x[i];
                y[sigma[i] as usize] = if self.free_mask & (1 << c) != 0 { FREE | c } else { phi[c as usize] };
            }
            // Relabel free colours by first appearance, smallest first.
            let mut map = [u8::MAX; MAX_COLOURS as usize];
            let mut next = 0;
            for slot in y[..self.n].iter_mut() {
                if *slot & FREE != 0 {
                    let c = (*slot & !FREE) as usize;
                    if map[c] == u8::MAX {
                        map[c] = self.free[next];
                        next += 1;
                    }
                    *slot = map[c];
                }
            }
            // Lexicographic comparison, inline: these codes are a few bytes long.
            for i in 0..self.n {
                if y[i] != x[i] {
                    if y[i] < x[i] {
                        return false;
                    }
                    break;
                }
            }
        }
        true
    }
}

impl Symmetry {
    /// Identity on positions and bound colours: canonical iff the free colours of `x` first
    /// appear as the smallest free colours in increasing order.
    #[inline]
    fn free_in_order(&self, x: &[u8]) -> bool {
        let mut next = 0;
        for &c in x {
            if self.free_mask & (1 << c) == 0 {
                continue;
            }
            if next < self.free.len() && c == self.free[next] {
                next += 1;
            } else if next == 0 || c > self.free[next - 1] {
                return false; // a new free colour out of order
            }
        }
        true
    }
}

/// All permutations of `0..n`.
fn permutations(n: usize) -> Vec<Vec<u8>> {
    fn rec(prefix: &mut Vec<u8>, n: usize, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        for c in 0..n as u8 {
            if !prefix.contains(&c) {
                prefix.push(c);
                rec(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(&mut Vec::with_capacity(n), n, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmtree_core::{first_guess_classes, CodeSpace, Game, GameSpec, MemoryLimit};

    #[test]
    fn root_classes_are_the_first_guess_classes() {
        for (n, k) in [(4, 6), (3, 4), (2, 5), (5, 3)] {
            let game = Game::new(GameSpec::mastermind(n, k)).unwrap();
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            let all_free = (1u64 << k) - 1;
            let sym = Symmetry::fixing(n as usize, k, &[], true, all_free);
            let reps: Vec<Code> = space.iter().map(|(_, c)| c).filter(|c| sym.is_canonical(c)).collect();
            assert_eq!(reps, first_guess_classes(&game), "[{n},{k}]");
        }
    }

    #[test]
    fn classes_after_1123_in_4_6() {
        // Permutations fixing 1123: swap the two 1s' positions, and swap colours 2 and 3 with
        // positions 3 and 4; colours 4, 5, 6 are free. Every orbit has one canonical member.
        let game = Game::new(GameSpec::mastermind(4, 6)).unwrap();
        let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
        let g = space.code(mmtree_core::CodeIndex::from_index(8)); // 1123
        let sym = Symmetry::fixing(4, 6, &[g], true, 0b111000);
        assert_eq!(sym.elements.len(), 4);
        let reps = space.iter().filter(|(_, c)| sym.is_canonical(c)).count();
        // Brute-force orbit count: canonical images under all 4 * 3! elements.
        let mut seen = std::collections::BTreeSet::new();
        for (_, c) in space.iter() {
            let mut best = c.pegs().to_vec();
            for (sigma, phi) in &sym.elements {
                for free_perm in permutations(3) {
                    let mut y = vec![0u8; 4];
                    for i in 0..4 {
                        let col = c.pegs()[i];
                        y[sigma[i] as usize] =
                            if col >= 3 { 3 + free_perm[(col - 3) as usize] } else { phi[col as usize] };
                    }
                    best = best.min(y);
                }
            }
            seen.insert(best);
        }
        assert_eq!(reps, seen.len());
    }
}
