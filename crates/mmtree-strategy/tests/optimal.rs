//! The exact search against published optima and against an independent exhaustive recursion.
//!
//! The exhaustive check uses only the literal scorer `score_reference`, no bounds, no symmetry,
//! no guess ordering: every splitting guess of the pool is tried on every candidate set. It
//! memoises set → optimum (plain dynamic programming, which prunes nothing) so that every game
//! of at most 64 codes finishes in the test suite.

use std::collections::HashMap;

use mmtree_core::{
    score_reference, Code, CodeIndex, CodeSpace, Feedback, FeedbackKind, Game, GameSpec, MemoryLimit, Node, NodeId,
    StrategyTree, Variant,
};
use mmtree_strategy::{CheckpointBound, Objective, OptimalConfig, OptimalError, OptimalSearch, Pool};

fn space(spec: GameSpec) -> CodeSpace {
    let mut space = CodeSpace::new(Game::new(spec).unwrap(), MemoryLimit(1 << 32)).unwrap();
    space.build_table(1 << 28);
    space
}

fn optimal(
    space: &CodeSpace,
    objective: Objective,
    max_depth: Option<u8>,
    pool: Pool,
) -> Result<StrategyTree, OptimalError> {
    let config = OptimalConfig { max_depth, pool, ..OptimalConfig::new(objective) };
    OptimalSearch::new(space, config).run()
}

/// Checks the tree with the reference scorer: each node's edges are exactly the non-empty
/// parts of its candidates, wins are leaves of the guess, every secret ends at one leaf.
fn check_tree(tree: &StrategyTree, codes: &[Code], pool: Pool) {
    let game = *tree.game();
    let scheme = mmtree_core::FeedbackScheme::new(&game);
    #[allow(clippy::too_many_arguments)] // a recursive helper carrying its context
    fn walk(
        tree: &StrategyTree,
        id: NodeId,
        cands: Vec<usize>,
        codes: &[Code],
        game: &Game,
        scheme: &mmtree_core::FeedbackScheme,
        pool: Pool,
        found: &mut Vec<usize>,
    ) {
        match *tree.node(id) {
            Node::Leaf { .. } => panic!("leaf reached without a winning edge"),
            Node::Guess { guess, candidates, .. } => {
                assert_eq!(candidates as usize, cands.len());
                if pool == Pool::Candidates {
                    assert!(cands.contains(&guess.get()), "guess outside the candidates");
                }
                let mut parts: std::collections::BTreeMap<Feedback, Vec<usize>> = Default::default();
                for &c in &cands {
                    parts.entry(score_reference(game, &codes[guess.get()], &codes[c])).or_default().push(c);
                }
                let edges = tree.children(id);
                assert_eq!(edges.len(), parts.len(), "edges are not the parts");
                for e in edges {
                    let fb = scheme.feedback(e.feedback);
                    let part = parts.remove(&fb).expect("edge with an empty part");
                    if fb.black == game.n() {
                        assert_eq!(*tree.node(e.child), Node::Leaf { secret: guess });
                        found.push(guess.get());
                    } else {
                        walk(tree, e.child, part, codes, game, scheme, pool, found);
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(tree, tree.root(), (0..codes.len()).collect(), codes, &game, &scheme, pool, &mut found);
    found.sort_unstable();
    assert_eq!(found, (0..codes.len()).collect::<Vec<_>>());
}

/// Plain exhaustive optimum over candidate sets as 64-bit masks (games of at most 64 codes):
/// least total guesses for `cands` with at most `depth` guesses (`u32::MAX`: no limit).
struct Exhaustive {
    /// `parts[g]`: the non-winning parts of the whole space under guess `g`, as masks.
    parts: Vec<Vec<u64>>,
    pool: Pool,
    memo: HashMap<(u64, u32), Option<u64>>,
}

impl Exhaustive {
    fn new(game: Game, codes: &[Code], pool: Pool) -> Exhaustive {
        let win = Feedback { black: game.n(), white: 0 };
        let parts = codes
            .iter()
            .map(|g| {
                let mut by_feedback: std::collections::BTreeMap<Feedback, u64> = Default::default();
                for (i, c) in codes.iter().enumerate() {
                    let fb = score_reference(&game, g, c);
                    if fb != win {
                        *by_feedback.entry(fb).or_default() |= 1 << i;
                    }
                }
                by_feedback.into_values().collect()
            })
            .collect();
        Exhaustive { parts, pool, memo: HashMap::new() }
    }

    fn opt(&mut self, cands: u64, depth: u32) -> Option<u64> {
        if depth == 0 {
            return None;
        }
        let child_depth = if depth == u32::MAX { u32::MAX } else { depth - 1 };
        if let Some(&v) = self.memo.get(&(cands, depth)) {
            return v;
        }
        let mut best: Option<u64> = None;
        for g in 0..self.parts.len() {
            if self.pool == Pool::Candidates && cands & (1 << g) == 0 {
                continue;
            }
            let parts: Vec<u64> = self.parts[g].iter().map(|p| p & cands).filter(|&p| p != 0).collect();
            if parts.contains(&cands) {
                continue; // learns nothing: would recurse on the same set forever
            }
            let mut total = Some(u64::from(cands.count_ones()));
            for part in parts {
                total = match (total, self.opt(part, child_depth)) {
                    (Some(t), Some(c)) => Some(t + c),
                    _ => None,
                };
            }
            if let Some(t) = total {
                best = Some(best.map_or(t, |b| b.min(t)));
            }
        }
        self.memo.insert((cands, depth), best);
        best
    }
}

fn small_games() -> Vec<GameSpec> {
    let mut out = Vec::new();
    for n in 1..=6u8 {
        for k in 1..=35u8 {
            for variant in [Variant::Repetition, Variant::Distinct] {
                for feedback in [FeedbackKind::BlackWhite, FeedbackKind::Black] {
                    let spec = GameSpec { n, k, variant, feedback };
                    // One peg: every candidate set is reachable, so the exhaustive check stops at
                    // 12 colours; `one_peg_games_cost_triangular_numbers` covers the rest. With
                    // black pegs only (few, large parts) the plain recursion needs minutes
                    // beyond 36 codes, so those games stop there.
                    let max = if feedback == FeedbackKind::Black { 36 } else { 64 };
                    if Game::new(spec).is_ok_and(|g| g.code_count() <= max) && (n > 1 || k <= 12) {
                        out.push(spec);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_game_of_at_most_64_codes_matches_exhaustive_search() {
    let games = small_games();
    assert!(games.len() > 60);
    for spec in games {
        let space = space(spec);
        let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
        let all: u64 = if codes.len() == 64 { u64::MAX } else { (1u64 << codes.len()) - 1 };
        for pool in [Pool::All, Pool::Candidates] {
            let mut brute = Exhaustive::new(*space.game(), &codes, pool);
            let unlimited = codes.len() as u32;
            let best_total = brute.opt(all, u32::MAX).expect("some strategy always exists");
            let worst = (1..=unlimited).find(|&d| brute.opt(all, d).is_some()).unwrap();
            let worst_total = brute.opt(all, worst).unwrap();
            let label = format!("{} pool {}", space.game(), pool.name());

            let tree = optimal(&space, Objective::Average, None, pool).unwrap();
            check_tree(&tree, &codes, pool);
            assert_eq!(tree.stats().total, best_total, "{label} average");

            let tree = optimal(&space, Objective::Worst, None, pool).unwrap();
            check_tree(&tree, &codes, pool);
            assert_eq!((tree.stats().max, tree.stats().total), (worst, worst_total), "{label} worst");

            // Depth-limited average at the least feasible depth, and one below it.
            let tree = optimal(&space, Objective::Average, Some(worst as u8), pool).unwrap();
            assert_eq!(tree.stats().total, worst_total, "{label} max-depth {worst}");
            if worst > 1 {
                let none = optimal(&space, Objective::Average, Some(worst as u8 - 1), pool);
                assert_eq!(none.unwrap_err(), OptimalError::NoStrategy { max_depth: worst as u8 - 1 }, "{label}");
            }
        }
    }
}

#[test]
fn one_peg_games_cost_triangular_numbers() {
    // One peg: each guess rules out at most one code, so the optimum is 1 + 2 + ... + k.
    for k in 1..=35u8 {
        let space = space(GameSpec::mastermind(1, k));
        let tree = optimal(&space, Objective::Average, None, Pool::All).unwrap();
        assert_eq!(tree.stats().total, u64::from(k) * u64::from(k + 1) / 2, "[1,{k}]");
    }
}

#[test]
fn mastermind_4_6_average_is_5625() {
    // Koyama & Lai 1993.
    let space = space(GameSpec::mastermind(4, 6));
    let tree = optimal(&space, Objective::Average, None, Pool::All).unwrap();
    let stats = tree.stats();
    assert_eq!((stats.total, stats.max), (5625, 6));
    let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
    check_tree(&tree, &codes, Pool::All);
}

#[test]
fn mastermind_4_6_within_5_guesses_is_5626() {
    let space = space(GameSpec::mastermind(4, 6));
    let tree = optimal(&space, Objective::Average, Some(5), Pool::All).unwrap();
    let stats = tree.stats();
    assert_eq!((stats.total, stats.max), (5626, 5));
}

#[test]
fn mastermind_4_6_worst_case_is_5() {
    // Knuth 1977: 5 guesses always suffice and 4 do not; the least total within 5 is 5626.
    let space = space(GameSpec::mastermind(4, 6));
    let tree = optimal(&space, Objective::Worst, None, Pool::All).unwrap();
    let stats = tree.stats();
    assert_eq!((stats.max, stats.total), (5, 5626));
}

#[test]
fn two_pegs_match_chen_and_lin() {
    // Chen & Lin 2004, optimal totals for [2,k], k = 3..10.
    let published = [21u64, 45, 81, 132, 198, 284, 388, 517];
    for (k, total) in (3u8..=10).zip(published) {
        let space = space(GameSpec::mastermind(2, k));
        let tree = optimal(&space, Objective::Average, None, Pool::All).unwrap();
        assert_eq!(tree.stats().total, total, "[2,{k}]");
    }
}

#[test]
fn three_pegs_match_other_programs() {
    for (k, total) in [(3u8, 73u64), (4, 206)] {
        let space = space(GameSpec::mastermind(3, k));
        let tree = optimal(&space, Objective::Average, None, Pool::All).unwrap();
        assert_eq!(tree.stats().total, total, "[3,{k}]");
    }
}

#[test]
fn mastermind_4_6_candidates_only_is_5660() {
    let space = space(GameSpec::mastermind(4, 6));
    let tree = optimal(&space, Objective::Average, None, Pool::Candidates).unwrap();
    assert_eq!(tree.stats().total, 5660);
}

#[test]
fn resuming_from_a_checkpoint_gives_the_same_optimum() {
    let space = space(GameSpec::mastermind(4, 6));
    let mut config = OptimalConfig::new(Objective::Average);
    config.node_limit = Some(400);
    let first = OptimalSearch::new(&space, config);
    assert!(matches!(first.run(), Err(OptimalError::Stopped { .. })));
    let checkpoint = first.checkpoint();
    assert!(!checkpoint.entries.is_empty());
    let second = OptimalSearch::new(&space, OptimalConfig::new(Objective::Average));
    second.resume(&checkpoint).unwrap();
    let tree = second.run().unwrap();
    assert_eq!(tree.stats().total, 5625);
    assert!(second.stats().table_hits > 0);
    let other = space_of_other_game();
    assert!(matches!(
        OptimalSearch::new(&other, OptimalConfig::new(Objective::Average)).resume(&checkpoint),
        Err(OptimalError::CheckpointMismatch { .. })
    ));
}

#[test]
fn a_checkpoint_written_in_place_is_the_copy_and_resumes_as_it_is_read() {
    let space = space(GameSpec::mastermind(4, 6));
    let mut config = OptimalConfig::new(Objective::Average);
    config.node_limit = Some(400);
    let first = OptimalSearch::new(&space, config);
    assert!(matches!(first.run(), Err(OptimalError::Stopped { .. })));
    let copied = first.checkpoint();
    assert!(!copied.entries.is_empty() && !copied.bounds.is_empty());
    let mut written = Vec::new();
    first.write_checkpoint(&mut written).unwrap();
    assert_eq!(written, serde_json::to_vec(&copied).unwrap());
    let fresh = || OptimalSearch::new(&space, OptimalConfig::new(Objective::Average));
    let streamed = fresh();
    streamed.resume_json(&written[..]).unwrap();
    assert_eq!(streamed.checkpoint(), copied);
    assert_eq!(streamed.run().unwrap().stats().total, 5625);
    // Fields in any order (a JSON value sorts them: bounds first, game last) read the same.
    let value: serde_json::Value = serde_json::from_slice(&written).unwrap();
    let sorted = fresh();
    sorted.resume_json(&serde_json::to_vec(&value).unwrap()[..]).unwrap();
    assert_eq!(sorted.checkpoint(), copied);
    // Not a checkpoint, or a wrong one: refused, and the search keeps nothing of it.
    let mut no_entries = value.clone();
    no_entries.as_object_mut().unwrap().remove("entries");
    let mut cheaper = value.clone();
    cheaper["entries"][0]["cost"] = serde_json::json!(copied.entries[0].cost - 1);
    let mut bound_above = value.clone();
    let set = copied.entries.iter().find(|e| e.set.len() >= 12).expect("an entry of 12 codes or more");
    let above = serde_json::json!({"depth": set.depth, "bound": set.cost + 1, "set": set.set});
    bound_above["bounds"].as_array_mut().unwrap().insert(0, above);
    let other = serde_json::to_vec(&OptimalSearch::new(&space_of_other_game(), config).checkpoint()).unwrap();
    let refused = |bytes: &[u8]| {
        let search = fresh();
        let result = search.resume_json(bytes);
        assert_eq!(search.stats().table_entries, 0, "{result:?}");
        result
    };
    assert!(matches!(refused(b"{not json"), Err(OptimalError::NotACheckpoint(_))));
    assert!(matches!(refused(&serde_json::to_vec(&no_entries).unwrap()), Err(OptimalError::NotACheckpoint(_))));
    assert!(matches!(refused(&other), Err(OptimalError::CheckpointMismatch { .. })));
    assert!(matches!(
        refused(&serde_json::to_vec(&cheaper).unwrap()),
        Err(OptimalError::CheckpointCorrupt { entry: 0, .. })
    ));
    assert!(matches!(refused(&serde_json::to_vec(&bound_above).unwrap()), Err(OptimalError::CheckpointCorrupt { .. })));
}

fn space_of_other_game() -> CodeSpace {
    space(GameSpec::mastermind(3, 3))
}

#[test]
// Measured in release: about 26 s wall for the optimum and 2.5 s for the depth limit on the
// shared 2-core machine. Unoptimised builds are many times slower, so they skip it.
#[cfg_attr(debug_assertions, ignore = "Bulls and Cows needs an optimised build: cargo test --profile ci")]
fn bulls_and_cows_is_26274_within_7_and_not_6() {
    // Tanaka 1996.
    let space = space(GameSpec::bulls_and_cows(4, 10));
    let tree = optimal(&space, Objective::Average, None, Pool::All).unwrap();
    let stats = tree.stats();
    assert_eq!((stats.total, stats.max), (26274, 7));
    assert_eq!(
        optimal(&space, Objective::Average, Some(6), Pool::All).unwrap_err(),
        OptimalError::NoStrategy { max_depth: 6 }
    );
}

/// The guesses a tree plays, depth first.
fn played(tree: &StrategyTree) -> Vec<CodeIndex> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        if let Node::Guess { guess, .. } = *tree.node(id) {
            out.push(guess);
            stack.extend(tree.children(id).iter().map(|e| e.child));
        }
    }
    out
}

/// The optimal tree of `space` on a pool of each of these many threads.
fn on_threads(space: &CodeSpace, threads: &[usize], max_depth: Option<u8>) -> Vec<StrategyTree> {
    threads
        .iter()
        .map(|&threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| optimal(space, Objective::Average, max_depth, Pool::All).unwrap())
        })
        .collect()
}

#[test]
fn the_tree_does_not_depend_on_the_thread_count() {
    // Parallel branches share bounds and the table, in whatever order threads finish: the
    // played guesses must still be the same.
    for (spec, max_depth) in [(GameSpec::mastermind(4, 6), None), (GameSpec::mastermind(4, 6), Some(5))] {
        let trees = on_threads(&space(spec), &[1, 2, 4], max_depth);
        assert_eq!(played(&trees[0]), played(&trees[1]), "{spec:?} {max_depth:?}");
        assert_eq!(played(&trees[0]), played(&trees[2]), "{spec:?} {max_depth:?}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "needs an optimised build: cargo test --profile ci")]
fn bulls_and_cows_tree_does_not_depend_on_the_thread_count() {
    // A set's shortcut (a guess proven optimal by its scan alone) was once judged against a
    // bound sharpened by the set it is a part of, so it depended on which context scanned the
    // set first: one thread and two played different optimal guesses on a 16-code set here.
    let trees = on_threads(&space(GameSpec::bulls_and_cows(4, 10)), &[1, 2], None);
    let (one, two) = (played(&trees[0]), played(&trees[1]));
    let first = one.iter().zip(&two).position(|(a, b)| a != b);
    assert!(one == two, "guess {first:?} differs ({} and {} guesses)", one.len(), two.len());
}

#[test]
#[cfg_attr(debug_assertions, ignore = "needs an optimised build: cargo test --profile ci")]
fn mastermind_4_7_average_is_11228() {
    // Ville 2013.
    let space = space(GameSpec::mastermind(4, 7));
    let tree = optimal(&space, Objective::Average, None, Pool::All).unwrap();
    assert_eq!(tree.stats().total, 11228);
    let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
    check_tree(&tree, &codes, Pool::All);
}

#[test]
fn node_limits_bracket_the_optimum_on_every_game_of_at_most_256_codes() {
    // (With black pegs only, every game of at most 64 codes.)
    // The optimum each bracket must contain: published where known (Chen & Lin's 2-peg totals,
    // [3,3] 73, [3,4] 206), the exhaustive recursion on games of at most 36 codes, and
    // otherwise the unlimited search, itself checked against those.
    let chen_lin = [21u64, 45, 81, 132, 198, 284, 388, 517];
    let mut games = 0;
    for n in 1..=8u8 {
        for k in 2..=16u8 {
            for variant in [Variant::Repetition, Variant::Distinct] {
                for feedback in [FeedbackKind::BlackWhite, FeedbackKind::Black] {
                    let spec = GameSpec { n, k, variant, feedback };
                    let Ok(game) = Game::new(spec) else { continue };
                    // Black pegs only: few, large parts make exact searches slow; up to 64.
                    let max = if feedback == FeedbackKind::Black { 64 } else { 256 };
                    if game.code_count() > max || game.code_count() < 3 {
                        continue;
                    }
                    games += 1;
                    let space = space(spec);
                    let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
                    let optimum = optimal(&space, Objective::Average, None, Pool::All).unwrap().stats().total;
                    if codes.len() <= 36 {
                        let all = if codes.len() == 64 { u64::MAX } else { (1u64 << codes.len()) - 1 };
                        let brute = Exhaustive::new(*space.game(), &codes, Pool::All).opt(all, u32::MAX);
                        assert_eq!(Some(optimum), brute, "{spec:?}");
                    }
                    if spec == GameSpec::mastermind(2, k) && (3..=10).contains(&k) {
                        assert_eq!(optimum, chen_lin[usize::from(k) - 3], "{spec:?}");
                    }
                    if spec == GameSpec::mastermind(3, 3) || spec == GameSpec::mastermind(3, 4) {
                        assert_eq!(optimum, if k == 3 { 73 } else { 206 }, "{spec:?}");
                    }
                    for limit in [1, 4, 30] {
                        let mut config = OptimalConfig::new(Objective::Average);
                        config.node_limit = Some(limit);
                        let b = OptimalSearch::new(&space, config).run_anytime().unwrap();
                        let label = format!("{spec:?} node limit {limit}");
                        assert!(b.lower_bound <= optimum && optimum <= b.upper_bound, "{label}: {b:?}");
                        assert_eq!(b.upper_bound, b.tree.stats().total, "{label}");
                        assert_eq!(b.exact, b.lower_bound == b.upper_bound, "{label}");
                        if b.exact {
                            assert_eq!(b.upper_bound, optimum, "{label}");
                        }
                        check_tree(&b.tree, &codes, Pool::All);
                        // Deterministic: the same limit gives the same bracket and tree.
                        let again = OptimalSearch::new(&space, config).run_anytime().unwrap();
                        assert_eq!((again.lower_bound, again.upper_bound), (b.lower_bound, b.upper_bound), "{label}");
                        assert_eq!(again.tree, b.tree, "{label}");
                    }
                }
            }
        }
    }
    assert!(games > 40, "{games} games");
}

#[test]
fn a_small_table_forgets_entries_but_not_the_optimum() {
    // Koyama & Lai 1993: 5625, whatever the table keeps.
    let space = space(GameSpec::mastermind(4, 6));
    let config = OptimalConfig { table_memory: 50_000, ..OptimalConfig::new(Objective::Average) };
    let search = OptimalSearch::new(&space, config);
    assert_eq!(search.run().unwrap().stats().total, 5625);
    assert!(search.stats().table_evictions > 0);
}

#[test]
fn a_node_limit_gives_a_bracket_that_closes_with_more_nodes() {
    let space = space(GameSpec::mastermind(4, 6));
    let mut last_gap = u64::MAX;
    for limit in [10, 200, 450] {
        let mut config = OptimalConfig::new(Objective::Average);
        config.node_limit = Some(limit);
        let b = OptimalSearch::new(&space, config).run_anytime().unwrap();
        // Koyama & Lai 1993: 5625.
        assert!(b.lower_bound <= 5625 && 5625 <= b.upper_bound, "{b:?}");
        assert!(!b.exact && b.lower_bound > 5000 && b.upper_bound < 5801, "{b:?}");
        last_gap = last_gap.min(b.upper_bound - b.lower_bound);
    }
    assert!(last_gap < 200);
    // The worst-case objective has no bracket: the stop is reported.
    let mut config = OptimalConfig::new(Objective::Worst);
    config.node_limit = Some(10);
    assert!(matches!(OptimalSearch::new(&space, config).run_anytime(), Err(OptimalError::Stopped { .. })));
}

#[test]
fn rising_budgets_reach_the_optimum_from_any_proven_start_and_any_hint() {
    // Koyama & Lai 1993: 5625. Under a node limit the search rises through budgets; from a
    // proven start (the optimum itself, or none) and with an upper hint that is right, too
    // high or no strategy's total (too low), it still proves 5625.
    let space = space(GameSpec::mastermind(4, 6));
    let all = space.all_indices();
    for (known, hint) in [(0, None), (5625, None), (0, Some(5625)), (5000, Some(6000)), (0, Some(4000))] {
        let mut config = OptimalConfig::new(Objective::Average);
        config.node_limit = Some(1_000_000);
        let b = OptimalSearch::new(&space, config).run_part_between(&all, &[], known, hint).unwrap();
        assert!(b.exact && b.lower_bound == 5625 && b.upper_bound == 5625, "from {known} with {hint:?}: {b:?}");
    }
    // Stopped early, the bracket still holds the optimum and keeps the proven start.
    let mut config = OptimalConfig::new(Objective::Average);
    config.node_limit = Some(50);
    let b = OptimalSearch::new(&space, config).run_part_between(&all, &[], 5600, None).unwrap();
    assert!(5600 <= b.lower_bound && b.lower_bound <= 5625 && 5625 <= b.upper_bound, "{b:?}");
}

#[test]
fn a_checkpoint_carries_proven_bounds_into_the_next_stopped_run() {
    // Koyama & Lai 1993: 5625. Runs stopped by a node limit, each resuming the last one's
    // checkpoint, against the same runs resuming only its finished subtrees (at 200 nodes a
    // run: 15 runs against 34).
    let space = space(GameSpec::mastermind(4, 6));
    let all = space.all_indices();
    let mut config = OptimalConfig::new(Objective::Average);
    config.node_limit = Some(200);
    let chain = |with_bounds: bool| {
        let (mut checkpoint, mut known, mut runs) = (None, 0, 0);
        loop {
            runs += 1;
            let search = OptimalSearch::new(&space, config);
            if let Some(c) = &checkpoint {
                search.resume(c).unwrap();
            }
            let b = search.run_part_between(&all, &[], known, None).unwrap();
            assert!(b.lower_bound <= 5625 && 5625 <= b.upper_bound, "{b:?}");
            if b.exact || runs == 40 {
                return (runs, b.lower_bound);
            }
            let mut saved = search.checkpoint();
            if with_bounds {
                assert!(!saved.bounds.is_empty());
            } else {
                saved.bounds.clear();
            }
            (checkpoint, known) = (Some(saved), b.lower_bound);
        }
    };
    let (with, reached) = chain(true);
    assert_eq!(reached, 5625, "not exact after {with} runs");
    let (without, _) = chain(false);
    assert!(with < without, "{with} runs with the bounds, {without} without");
}

#[test]
fn checkpointed_bounds_hold_and_malformed_ones_are_refused() {
    let space = space(GameSpec::mastermind(4, 6));
    let mut config = OptimalConfig::new(Objective::Average);
    config.node_limit = Some(400);
    let first = OptimalSearch::new(&space, config);
    first.run_part_between(&space.all_indices(), &[], 0, None).unwrap();
    let checkpoint = first.checkpoint();
    // Each saved bound is at most the set's optimum, found by a search with no limit. The
    // sets come without their histories; three guesses that play every colour fix no
    // permutation of the colours present, so the search tries every guess that matters.
    let every_colour: Vec<_> = [[0, 1, 2, 3], [4, 5, 0, 1], [2, 3, 4, 5]]
        .iter()
        .map(|c| space.index(&Code::from_colours(c).unwrap()).unwrap())
        .collect();
    for b in checkpoint.bounds.iter().filter(|b| b.depth == 255).take(12) {
        let set: Vec<_> = b.set.iter().map(|&c| mmtree_core::CodeIndex::from_index(c)).collect();
        let exact =
            OptimalSearch::new(&space, OptimalConfig::new(Objective::Average)).run_part(&set, &every_colour).unwrap();
        assert!(exact.exact && u64::from(b.bound) <= exact.lower_bound, "{b:?} against {exact:?}");
    }
    let refused = |edit: &dyn Fn(&mut CheckpointBound)| {
        let mut bad = checkpoint.clone();
        edit(&mut bad.bounds[0]);
        OptimalSearch::new(&space, OptimalConfig::new(Objective::Average)).resume(&bad)
    };
    assert_eq!(refused(&|_| {}), Ok(()));
    let edits: [&dyn Fn(&mut CheckpointBound); 5] =
        [&|b| b.set.reverse(), &|b| b.set.truncate(3), &|b| b.set.push(1296), &|b| b.bound = 0, &|b| b.depth = 0];
    for edit in edits {
        assert!(matches!(refused(edit), Err(OptimalError::CheckpointCorrupt { .. })));
    }
    // A checkpoint written before bounds were kept still loads.
    let mut old = serde_json::to_value(&checkpoint).unwrap();
    old.as_object_mut().unwrap().remove("bounds");
    let old: mmtree_strategy::Checkpoint = serde_json::from_value(old).unwrap();
    assert!(old.bounds.is_empty() && old.entries == checkpoint.entries);
}

#[test]
fn a_stopped_bracket_keeps_the_part_bounds_it_refined() {
    // Stopped after one node, the search has proven nothing itself: the bounds its checkpoint
    // holds are those the bracket refined (parts after one guess), and each one holds.
    let space = space(GameSpec::mastermind(4, 6));
    let mut config = OptimalConfig::new(Objective::Average);
    config.node_limit = Some(1);
    let search = OptimalSearch::new(&space, config);
    let b = search.run_part_between(&space.all_indices(), &[], 0, None).unwrap();
    assert!(!b.exact && b.lower_bound <= 5625 && 5625 <= b.upper_bound, "{b:?}");
    let bounds: Vec<_> = search.checkpoint().bounds.into_iter().filter(|b| b.depth == 255).collect();
    assert!(bounds.len() >= 10, "{} bounds kept", bounds.len());
    let all = space.all_indices();
    for saved in &bounds {
        let set: Vec<_> = saved.set.iter().map(|&c| mmtree_core::CodeIndex::from_index(c)).collect();
        if set == all {
            assert!(saved.bound <= 5625, "{saved:?}");
            continue;
        }
        // The guess it is a part of, so that the exact search uses that guess's symmetry.
        let first = all.iter().copied().find(|&g| space.split(g, &all).iter().any(|(_, part)| *part == set));
        let first = first.unwrap_or_else(|| panic!("{saved:?} is no part after one guess"));
        let exact =
            OptimalSearch::new(&space, OptimalConfig::new(Objective::Average)).run_part(&set, &[first]).unwrap();
        assert!(exact.exact && u64::from(saved.bound) <= exact.lower_bound, "{saved:?} against {exact:?}");
    }
}

#[test]
fn a_set_that_is_not_the_candidates_of_its_history_is_refused() {
    // The pool keeps one guess per class of the permutations fixing the history, which is
    // only right if they map the set onto itself.
    let space = space(GameSpec::mastermind(4, 6));
    let code = |c: [u8; 4]| space.index(&Code::from_colours(&c).unwrap()).unwrap();
    let search = || OptimalSearch::new(&space, OptimalConfig::new(Objective::Average));
    let all = space.all_indices();
    let refused = |set: &[_], history: &[_]| {
        matches!(search().run_part(set, history), Err(OptimalError::NotCandidates))
            && matches!(search().part_lower_bound(set, history), Err(OptimalError::NotCandidates))
    };
    // At the root: every code but one.
    assert!(refused(&all[1..], &[]));
    // After one guess: a part less one code that the guess's group moves onto another.
    let first = code([0, 0, 1, 1]);
    let (_, part) = space.split(first, &all).into_iter().find(|(_, p)| p.contains(&code([0, 0, 2, 2]))).unwrap();
    let less: Vec<_> = part.iter().copied().filter(|&c| c != code([0, 0, 3, 3])).collect();
    assert!(refused(&less, &[first]));
    assert!(search().part_lower_bound(&part, &[first]).is_ok());
    // Deeper, only the colours never played count: 5 and 6 here.
    let history = [code([0, 1, 2, 3]), code([0, 1, 0, 1]), code([2, 3, 2, 3])];
    assert!(refused(&[code([0, 0, 4, 4]), code([0, 1, 4, 5])], &history));
    assert!(refused(&[code([0, 0, 4, 4]), code([0, 0, 5, 5]), code([0, 1, 4, 5])], &history));
    assert!(search()
        .run_part(&[code([0, 0, 4, 4]), code([0, 0, 5, 5]), code([0, 1, 4, 5]), code([0, 1, 5, 4])], &history)
        .is_ok());
    // A colour absent from the set is no constraint: 6 may go unmatched.
    assert!(search().run_part(&[code([0, 0, 4, 4]), code([0, 1, 4, 0])], &history).is_ok());
}
