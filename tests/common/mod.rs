//! Helpers shared by the integration tests.

use mmtree::core::CodeIndex;
use mmtree::strategy::{GuessRule, Pool, Ties, Valuation};

/// Every rule option combined, for each valuation: pool, tie order, candidate preference (not
/// with the candidate pool, where every guess is a candidate and the switch changes nothing)
/// and no first guess or `first_guess`.
pub fn rule_product(first_guess: CodeIndex) -> Vec<GuessRule> {
    let mut out = Vec::new();
    for valuation in Valuation::ALL {
        for pool in [Pool::All, Pool::Candidates] {
            for ties in [Ties::Smallest, Ties::Largest] {
                for prefer_candidates in [true, false] {
                    if pool == Pool::Candidates && !prefer_candidates {
                        continue;
                    }
                    for first_guess in [None, Some(first_guess)] {
                        out.push(GuessRule { pool, ties, prefer_candidates, first_guess, ..GuessRule::new(valuation) });
                    }
                }
            }
        }
    }
    out
}
