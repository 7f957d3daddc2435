//! An obviously-correct reference for the thesis's Algorithm 1, sharing nothing with the fast
//! path but the public types used to read its results: codes as plain vectors, feedback from
//! the formula, parts in a BTreeMap, entropy compared as the big integers `prod s^s`, every
//! guess of the pool valued, then the tie rule applied literally. It must agree with `Solver`
//! secret by secret (the whole sequence of guesses) on every game of at most 256 codes under
//! every rule option.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use rayon::prelude::*;

mod common;
use common::rule_product;

use mmtree::core::test_util::games_up_to;
use mmtree::core::{CodeIndex, CodeSpace, FeedbackKind, Game, MemoryLimit, Node, NodeId, StrategyTree, Variant};
use mmtree::strategy::{GuessRule, Pool, Solver, Ties, Valuation};

type Code = Vec<u8>;

fn codes(n: u8, k: u8, distinct: bool) -> Vec<Code> {
    let mut all: Vec<Code> = vec![vec![]];
    for _ in 0..n {
        all = all.into_iter().flat_map(|c| (0..k).map(move |x| [c.clone(), vec![x]].concat())).collect();
    }
    if distinct {
        all.retain(|c| (0..c.len()).all(|i| !c[..i].contains(&c[i])));
    }
    all
}

fn score(u: &Code, v: &Code, black_only: bool) -> (u8, u8) {
    let b = u.iter().zip(v).filter(|(x, y)| x == y).count() as u8;
    let common: u8 =
        (0..35u8).map(|c| u.iter().filter(|&&x| x == c).count().min(v.iter().filter(|&&x| x == c).count()) as u8).sum();
    if black_only {
        (b, 0)
    } else {
        (b, common - b)
    }
}

/// The value of a partition as a number where smaller is better, exactly.
#[derive(PartialEq, Eq, PartialOrd, Ord, Clone)]
enum Key {
    Int(u64),
    Big(BigUint),
}

fn key(valuation: Valuation, parts: &[u64]) -> Key {
    match valuation {
        Valuation::Minimax => Key::Int(*parts.iter().max().unwrap()),
        Valuation::ExpectedSize => Key::Int(parts.iter().map(|s| s * s).sum()),
        // Max entropy = min sum s log s = min prod s^s.
        Valuation::Entropy => {
            Key::Big(parts.iter().fold(BigUint::from(1u32), |acc, &s| acc * BigUint::from(s).pow(s as u32)))
        }
        Valuation::MostParts => Key::Int(u64::MAX - parts.len() as u64),
    }
}

struct Reference<'a> {
    codes: &'a [Code],
    black_only: bool,
    n: u8,
    rule: GuessRule,
}

impl Reference<'_> {
    fn parts(&self, guess: usize, cands: &[usize]) -> BTreeMap<(u8, u8), Vec<usize>> {
        let mut parts: BTreeMap<(u8, u8), Vec<usize>> = BTreeMap::new();
        for &c in cands {
            parts.entry(score(&self.codes[guess], &self.codes[c], self.black_only)).or_default().push(c);
        }
        parts
    }

    fn choose(&self, cands: &[usize]) -> usize {
        if cands.len() == 1 {
            return cands[0];
        }
        let pool: Vec<usize> = match self.rule.pool {
            Pool::All => (0..self.codes.len()).collect(),
            Pool::Candidates => cands.to_vec(),
        };
        let side = self.n as usize + 1;
        let sizes = |g: usize| {
            let mut table = vec![0u64; side * side];
            for &c in cands {
                let (b, w) = score(&self.codes[g], &self.codes[c], self.black_only);
                table[b as usize * side + w as usize] += 1;
            }
            table.retain(|&s| s > 0);
            table
        };
        let valued: Vec<(usize, Key)> = pool.iter().map(|&g| (g, key(self.rule.valuation, &sizes(g)))).collect();
        let best = valued.iter().map(|(_, v)| v).min().unwrap().clone();
        let u: Vec<usize> = valued.into_iter().filter(|(_, v)| *v == best).map(|(g, _)| g).collect();
        let in_k: Vec<usize> = u.iter().copied().filter(|g| cands.contains(g)).collect();
        let from = if self.rule.prefer_candidates && !in_k.is_empty() { in_k } else { u };
        match self.rule.ties {
            Ties::Smallest => *from.iter().min().unwrap(),
            Ties::Largest => *from.iter().max().unwrap(),
        }
    }

    /// For every secret, the guesses played until it is found (the last one is the secret).
    fn paths(
        &self,
        cands: Vec<usize>,
        first: Option<usize>,
        prefix: &mut Vec<usize>,
        out: &mut BTreeMap<usize, Vec<usize>>,
    ) {
        let guess = first.unwrap_or_else(|| self.choose(&cands));
        prefix.push(guess);
        for (fb, part) in self.parts(guess, &cands) {
            if fb == (self.n, 0) {
                out.insert(guess, prefix.clone());
            } else {
                self.paths(part, None, prefix, out);
            }
        }
        prefix.pop();
    }
}

fn tree_paths(tree: &StrategyTree) -> BTreeMap<usize, Vec<usize>> {
    fn walk(tree: &StrategyTree, id: NodeId, prefix: &mut Vec<usize>, out: &mut BTreeMap<usize, Vec<usize>>) {
        match *tree.node(id) {
            Node::Leaf { secret } => {
                out.insert(secret.get(), prefix.clone());
            }
            Node::Guess { guess, .. } => {
                prefix.push(guess.get());
                for e in tree.children(id) {
                    walk(tree, e.child, prefix, out);
                }
                prefix.pop();
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(tree, tree.root(), &mut Vec::new(), &mut out);
    out
}

#[test]
fn solver_agrees_with_brute_force_on_every_game_up_to_256_codes() {
    let specs = games_up_to(256);
    assert!(specs.len() > 200, "the grid covers {} games", specs.len());
    let checked: usize = specs
        .par_iter()
        .map(|&spec| {
            let game = Game::new(spec).unwrap();
            let all = codes(spec.n, spec.k, spec.variant == Variant::Distinct);
            let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
            assert_eq!(all.len(), space.len());
            let last = CodeIndex::from_index(space.len() as u32 - 1);
            let mut n_rules = 0;
            for rule in rule_product(last) {
                let reference =
                    Reference { codes: &all, black_only: spec.feedback == FeedbackKind::Black, n: spec.n, rule };
                let mut expected = BTreeMap::new();
                reference.paths(
                    (0..all.len()).collect(),
                    rule.first_guess.map(|c| c.get()),
                    &mut Vec::new(),
                    &mut expected,
                );
                let tree = Solver::new(&space, rule).build();
                assert_eq!(tree_paths(&tree), expected, "{game} under {rule:?}");
                n_rules += 1;
            }
            n_rules
        })
        .sum();
    assert!(checked > 5000, "{checked} (game, rule) pairs checked");
}
