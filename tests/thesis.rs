//! The published [4,6] figures: every row of data/thesis_4_6.csv and
//! data/thesis_first_guess_valuations.csv (transcribed from the thesis's result tables; sources in
//! docs/references.md), plus the literature totals the foundation issue names.

use mmtree::core::{Alphabet, CodeSpace, Game, GameSpec, MemoryLimit, MAX_FEEDBACKS};
use mmtree::strategy::{GuessRule, Pool, Solver, Valuation};

fn space() -> CodeSpace {
    let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6)).unwrap(), MemoryLimit(1 << 30)).unwrap();
    space.build_table(1 << 30);
    space
}

fn rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn every_published_result_row_is_reproduced() {
    let space = space();
    let abc = Alphabet::default();
    let table = rows(include_str!("../data/thesis_4_6.csv"));
    assert_eq!(table.len(), 21, "the reference file has 21 rows");
    for row in table {
        let valuation = Valuation::from_name(&row[2]).expect("known valuation");
        let pool = if row[3] == "all" { Pool::All } else { Pool::Candidates };
        assert_eq!(row[4], "min", "tie rule of the thesis");
        let first = space.index(&abc.parse(space.game(), &row[5]).unwrap()).unwrap();
        // Candidates-only rows list the first guess the valuation picks itself.
        let rule = if pool == Pool::Candidates {
            let rule = GuessRule { pool, ..GuessRule::new(valuation) };
            assert_eq!(Solver::new(&space, rule).choose(&space.all_indices()), first, "{row:?}");
            rule
        } else {
            GuessRule { first_guess: Some(first), ..GuessRule::new(valuation) }
        };
        let stats = Solver::new(&space, rule).build().stats();
        assert_eq!(stats.max.to_string(), row[6], "max of {row:?}");
        assert_eq!(format!("{:.3}", stats.average()), row[7], "average of {row:?}");
        if !row[8].is_empty() {
            assert_eq!(stats.total.to_string(), row[8], "total of {row:?}");
        }
    }
}

#[test]
fn first_guess_valuations_match_the_thesis() {
    let space = space();
    let abc = Alphabet::default();
    let all = space.all_indices();
    let table = rows(include_str!("../data/thesis_first_guess_valuations.csv"));
    assert_eq!(table.len(), 5);
    for row in table {
        let guess = space.index(&abc.parse(space.game(), &row[0]).unwrap()).unwrap();
        let mut counts = [0u32; MAX_FEEDBACKS];
        space.count_parts(guess, &all, &mut counts);
        assert_eq!(Valuation::Minimax.value(&counts, 1296).to_string(), row[1]);
        assert_eq!(format!("{:.2}", Valuation::Entropy.value(&counts, 1296)), row[2]);
        assert_eq!(Valuation::MostParts.value(&counts, 1296).to_string(), row[3]);
    }
}

#[test]
fn literature_totals_with_each_valuations_own_first_guess() {
    // Knuth 1977 (minimax 5801, max 5); expected size 5696, entropy 5722, most parts 5668
    // (Kooi 2005 / the thesis), each with max 6.
    let space = space();
    let abc = Alphabet::default();
    for (valuation, first, max, total) in [
        (Valuation::Minimax, "1122", 5, 5801),
        (Valuation::ExpectedSize, "1123", 6, 5696),
        (Valuation::Entropy, "1234", 6, 5722),
        (Valuation::MostParts, "1123", 6, 5668),
    ] {
        let tree = Solver::new(&space, GuessRule::new(valuation)).build();
        let stats = tree.stats();
        assert_eq!(abc.format(&space.code(tree.first_guess().unwrap())), first, "{valuation:?}");
        assert_eq!((stats.max, stats.total, stats.secrets), (max, total, 1296), "{valuation:?}");
        assert_eq!(stats.histogram.iter().sum::<u64>(), 1296);
    }
}

#[test]
fn largest_first_guesses_are_the_thesis_ones() {
    let space = space();
    let abc = Alphabet::default();
    let all = space.all_indices();
    for (valuation, first) in
        [(Valuation::Minimax, "6655"), (Valuation::Entropy, "6543"), (Valuation::MostParts, "6654")]
    {
        let rule = GuessRule { ties: mmtree::strategy::Ties::Largest, ..GuessRule::new(valuation) };
        assert_eq!(abc.format(&space.code(Solver::new(&space, rule).choose(&all))), first);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let space = space();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    for valuation in Valuation::ALL {
        let rule = GuessRule::new(valuation);
        let a = one.install(|| Solver::new(&space, rule).build());
        let b = three.install(|| Solver::new(&space, rule).build());
        assert_eq!(a, b, "{valuation:?}");
    }
}
