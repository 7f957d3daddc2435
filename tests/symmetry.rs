//! The symmetry reduction never changes a tree: building with and without it gives the same
//! tree on every game of at most 4096 codes, for all valuations and rule options (the full
//! product of options up to 1296 codes; above, each option varied alone, to keep CI short).

use rayon::prelude::*;

mod common;
use common::rule_product;

use mmtree::core::test_util::games_up_to;
use mmtree::core::{CodeIndex, CodeSpace, Game, GameSpec, MemoryLimit};
use mmtree::strategy::{GuessRule, Pool, Solver, Ties, Valuation};

/// The rule options: every combination on small games, each option alone on the others. The
/// fixed first guess is the middle code, not a class representative.
fn rules(space: &CodeSpace, full_product: bool) -> Vec<GuessRule> {
    let middle = CodeIndex::from_index(space.len() as u32 / 2);
    rule_product(middle)
        .into_iter()
        .filter(|r| {
            let changed = usize::from(r.pool != Pool::All)
                + usize::from(r.ties != Ties::Smallest)
                + usize::from(!r.prefer_candidates)
                + usize::from(r.first_guess.is_some());
            full_product || changed <= 1
        })
        .collect()
}

#[test]
fn trees_are_identical_with_and_without_symmetry_reduction() {
    let specs = games_up_to(4096);
    let pairs: usize = specs
        .par_iter()
        .map(|&spec| {
            let mut space = CodeSpace::new(Game::new(spec).unwrap(), MemoryLimit(1 << 30)).unwrap();
            space.build_table(1 << 28);
            let rules = rules(&space, space.len() <= 1296);
            for rule in &rules {
                let reduced = Solver::new(&space, *rule).build();
                let plain = Solver::new(&space, *rule).without_symmetry().build();
                assert!(reduced == plain, "{} under {rule:?}", space.game());
            }
            rules.len()
        })
        .sum();
    assert!(pairs > 8_000, "{pairs} (game, rule) pairs");
}

/// [6,5] is the smallest game whose pools cut down by symmetry are large enough to be grouped
/// by colour multiset for the one-step pass (at least a block of codes per group on average):
/// that pass, too, gives the tree of the plain scan without symmetry.
#[test]
fn pools_grouped_by_multiset_give_the_same_trees() {
    let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(6, 5)).unwrap(), MemoryLimit(1 << 30)).unwrap();
    space.build_table(1 << 28);
    let rules: Vec<GuessRule> = Valuation::ALL
        .into_iter()
        .flat_map(|v| [Ties::Smallest, Ties::Largest].map(|ties| GuessRule { ties, ..GuessRule::new(v) }))
        .collect();
    rules.par_iter().for_each(|rule| {
        let reduced = Solver::new(&space, *rule).build();
        let plain = Solver::new(&space, *rule).without_symmetry().build();
        assert!(reduced == plain, "{} under {rule:?}", space.game());
    });
}
