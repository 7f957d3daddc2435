//! The simple strategies and the two-step look-ahead, checked against published figures and
//! against independent brute-force implementations built on `score_reference` only.

use std::collections::BTreeMap;

use mmtree_core::test_util::games_up_to;
use mmtree_core::{
    score_reference, Alphabet, Code, CodeIndex, CodeSpace, Feedback, FeedbackKind, Game, GameSpec, MemoryLimit, Node,
    StrategyTree,
};
use mmtree_strategy::{GuessRule, Method, Pool, Solver, Valuation};

fn space(spec: GameSpec) -> CodeSpace {
    CodeSpace::new(Game::new(spec).unwrap(), MemoryLimit(1 << 30)).unwrap()
}

/// Every small game of both variants and both feedback kinds, up to `max` codes.
fn small_games(max: u128) -> Vec<GameSpec> {
    games_up_to(max).into_iter().filter(|s| s.n <= 4 && s.k <= 6).collect()
}

/// Plays every secret down the tree with the literal scorer; returns the total of guesses.
fn replay(space: &CodeSpace, tree: &StrategyTree) -> u64 {
    let game = space.game();
    let mut total = 0;
    for (secret, code) in space.iter() {
        let mut node = tree.root();
        let mut depth = 0u64;
        loop {
            match *tree.node(node) {
                Node::Leaf { secret: found } => {
                    assert_eq!(found, secret, "{game}: leaf of another secret");
                    break;
                }
                Node::Guess { guess, .. } => {
                    depth += 1;
                    assert!(depth <= space.len() as u64, "{game}: no progress");
                    let fb = score_reference(game, &space.code(guess), &code);
                    let index = space.scheme().index(fb).unwrap();
                    let edge = tree.children(node).iter().find(|e| e.feedback == index);
                    node = edge.unwrap_or_else(|| panic!("{game}: no edge for {fb}")).child;
                }
            }
        }
        total += depth;
    }
    total
}

#[test]
fn first_candidate_matches_shapiro_figures_for_4_6() {
    let space = space(GameSpec::mastermind(4, 6));
    let tree = Solver::new(&space, GuessRule::method(Method::FirstCandidate)).build();
    let stats = tree.stats();
    assert_eq!((stats.total, stats.max), (7471, 9));
    assert_eq!(tree.first_guess(), Some(CodeIndex::from_index(0))); // 1111
}

#[test]
fn simple_strategies_terminate_and_replay_on_every_small_game() {
    for spec in small_games(300) {
        let space = space(spec);
        for method in [Method::Human, Method::FirstCandidate] {
            let tree = Solver::new(&space, GuessRule::method(method)).build();
            let stats = tree.stats();
            assert_eq!(stats.secrets as usize, space.len());
            assert_eq!(replay(&space, &tree), stats.total, "{spec:?} {method:?}");
        }
    }
}

#[test]
fn human_reproduces_the_papers_example() {
    // The Bulls-and-Cows paper's example (docs/references.md): candidates {098, 198, ..., 798}:
    // 0..7 occur once, 9 and 8 eight times, so the guess is built from the least frequent
    // digits: 012.
    let abc = Alphabet::new("0123456789").unwrap();
    let space = space(GameSpec::bulls_and_cows(3, 10));
    let cands: Vec<CodeIndex> = (0..8)
        .map(|d| space.index(&abc.parse(space.game(), &format!("{d}98")).unwrap()).unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let guess = mmtree_strategy::human_guess(&space, &cands);
    assert_eq!(abc.format(&space.code(guess)), "012");
}

#[test]
fn human_falls_back_to_the_smallest_candidate_when_its_guess_does_not_split() {
    // [2,3]: candidates {12, 21}: both symbols occur twice; the guess 12 is itself a candidate
    // and splits. With {11, 22} the cyclic guess 12 scores (1,0) on both: fallback to 11.
    let abc = Alphabet::default();
    let space = space(GameSpec::mastermind(2, 3));
    let idx = |t: &str| space.index(&abc.parse(space.game(), t).unwrap()).unwrap();
    assert_eq!(mmtree_strategy::human_guess(&space, &[idx("11"), idx("22")]), idx("11"));
    assert_eq!(mmtree_strategy::human_guess(&space, &[idx("12"), idx("21")]), idx("12"));
}

/// Straightforward two-step rule: literal scores, every guess, every second guess.
struct Brute {
    codes: Vec<Code>,
    score: Vec<Vec<Feedback>>,
}

impl Brute {
    fn new(space: &CodeSpace) -> Brute {
        let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
        let score = codes.iter().map(|u| codes.iter().map(|v| score_reference(space.game(), u, v)).collect()).collect();
        Brute { codes, score }
    }

    fn parts(&self, g: usize, set: &[usize]) -> Vec<Vec<usize>> {
        let mut map: BTreeMap<Feedback, Vec<usize>> = BTreeMap::new();
        for &c in set {
            map.entry(self.score[g][c]).or_default().push(c);
        }
        map.into_values().collect()
    }

    /// One-step key (smaller is better) of part sizes.
    fn key(v: Valuation, sizes: &[usize]) -> f64 {
        match v {
            Valuation::Minimax => *sizes.iter().max().unwrap() as f64,
            Valuation::ExpectedSize => sizes.iter().map(|&s| (s * s) as f64).sum(),
            Valuation::Entropy => sizes.iter().map(|&s| s as f64 * (s as f64).log2()).sum(),
            Valuation::MostParts => -(sizes.len() as f64),
        }
    }

    /// Two-step key of `g`: each part's best second-guess key, combined.
    fn two_step(&self, v: Valuation, pool: Pool, g: usize, set: &[usize]) -> f64 {
        let per_part: Vec<f64> = self
            .parts(g, set)
            .iter()
            .map(|p| {
                let hs: Vec<usize> = if pool == Pool::All { (0..self.codes.len()).collect() } else { p.clone() };
                hs.iter()
                    .map(|&h| {
                        let sizes: Vec<usize> = self.parts(h, p).iter().map(Vec::len).collect();
                        Brute::key(v, &sizes)
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        match v {
            Valuation::Minimax => per_part.iter().copied().fold(0.0, f64::max),
            _ => per_part.iter().sum(),
        }
    }

    /// The rule: best (two-step, then one-step) key; ties to candidates, then smaller codes.
    fn choose(&self, v: Valuation, pool: Pool, set: &[usize]) -> usize {
        let mut order: Vec<usize> = set.to_vec();
        if pool == Pool::All {
            order.extend((0..self.codes.len()).filter(|c| !set.contains(c)));
        }
        let mut best: Option<(f64, f64, usize)> = None;
        for g in order {
            let parts = self.parts(g, set);
            if parts.len() == 1 && set.len() > 1 {
                continue;
            }
            let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
            let (two, one) = (self.two_step(v, pool, g, set), Brute::key(v, &sizes));
            let better = match best {
                None => true,
                Some((bt, bo, _)) => two < bt - 1e-9 || ((two - bt).abs() <= 1e-9 && one < bo - 1e-9),
            };
            if better {
                best = Some((two, one, g));
            }
        }
        best.unwrap().2
    }
}

#[test]
fn lookahead_choice_matches_a_brute_force_two_step_search() {
    let games = [
        GameSpec::mastermind(3, 4),
        GameSpec::mastermind(2, 6),
        GameSpec::bulls_and_cows(3, 4),
        GameSpec { feedback: FeedbackKind::Black, ..GameSpec::mastermind(3, 4) },
        GameSpec::mastermind(3, 3),
    ];
    let mut checked = 0;
    for spec in games {
        let space = space(spec);
        let brute = Brute::new(&space);
        let all: Vec<usize> = (0..space.len()).collect();
        // Candidate sets: the whole space, the parts after a few first guesses, and
        // pseudo-random subsets.
        let mut sets: Vec<Vec<usize>> = vec![all.clone()];
        for g in [0, space.len() / 3, space.len() - 1] {
            sets.extend(brute.parts(g, &all).into_iter().filter(|p| p.len() > 2));
        }
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..6 {
            let set: Vec<usize> = all
                .iter()
                .copied()
                .filter(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x % 3 == 0
                })
                .collect();
            if set.len() > 1 {
                sets.push(set);
            }
        }
        for set in &sets {
            let cands: Vec<CodeIndex> = set.iter().map(|&i| CodeIndex::from_index(i as u32)).collect();
            for v in Valuation::ALL {
                for pool in [Pool::All, Pool::Candidates] {
                    let rule = GuessRule { method: Method::Lookahead2, pool, ..GuessRule::new(v) };
                    let ours = Solver::new(&space, rule).choose(&cands).get();
                    assert_eq!(ours, brute.choose(v, pool, set), "{spec:?} {v:?} {pool:?} on {set:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200);
}

#[test]
fn lookahead_trees_replay_on_small_games() {
    for spec in small_games(64) {
        let space = space(spec);
        for v in Valuation::ALL {
            let rule = GuessRule { method: Method::Lookahead2, ..GuessRule::new(v) };
            let tree = Solver::new(&space, rule).build();
            assert_eq!(replay(&space, &tree), tree.stats().total, "{spec:?} {v:?}");
        }
    }
}

#[test]
fn the_advisors_first_guess_is_the_rules_choice() {
    let space = space(GameSpec::mastermind(4, 4));
    let all = space.all_indices();
    for g in [0u32, 5, 27, 100] {
        for (_, part) in space.split(CodeIndex::from_index(g), &all) {
            for v in Valuation::ALL {
                for pool in [Pool::All, Pool::Candidates] {
                    let rule = GuessRule { pool, ..GuessRule::new(v) };
                    let ranked = mmtree_strategy::rank_guesses(&space, &rule, &part, 3);
                    assert_eq!(ranked[0].guess, Solver::new(&space, rule).choose(&part), "{v:?} {pool:?}");
                    let sign = if v.best() == mmtree_strategy::Best::Min { 1.0 } else { -1.0 };
                    assert!(ranked.windows(2).all(|w| sign * (w[0].value - w[1].value) <= 1e-9), "{v:?}");
                }
            }
        }
    }
}
