//! The advisor: the best guesses of a state, ranked, with their partition tables.

use std::cmp::Ordering;

use rayon::prelude::*;

use mmtree_core::{CodeIndex, CodeSpace, Counts, FeedbackIndex, MAX_FEEDBACKS};

use crate::rule::GuessRule;

/// One guess of a ranking: its one-step value and partition table.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedGuess {
    /// The guess.
    pub guess: CodeIndex,
    /// Whether it is still a candidate (could win now).
    pub candidate: bool,
    /// Its value as the literature prints it ([`Valuation::value`](crate::Valuation::value)).
    pub value: f64,
    /// The non-empty parts, in feedback order.
    pub parts: Vec<(FeedbackIndex, u32)>,
}

/// The `top` best guesses of `rule`'s pool on `candidates` (sorted, non-empty) by its
/// one-step valuation, best first; equally valued guesses in the rule's tie order
/// (candidates first when preferred, then smallest or largest). The first is the guess
/// the one-step rule plays.
///
/// ```
/// use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
/// use mmtree_strategy::{rank_guesses, GuessRule, Valuation};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
/// let ranked = rank_guesses(&space, &GuessRule::new(Valuation::Minimax), &space.all_indices(), 3);
/// assert_eq!(ranked[0].guess.index(), 7); // 1122, largest part 256 (Knuth)
/// assert_eq!(ranked[0].value, 256.0);
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
///
/// # Panics
/// On an empty candidate set (a bug of the caller).
pub fn rank_guesses(space: &CodeSpace, rule: &GuessRule, candidates: &[CodeIndex], top: usize) -> Vec<RankedGuess> {
    assert!(!candidates.is_empty(), "BUG: rank_guesses on an empty candidate set");
    let valuation = rule.valuation;
    let f = space.scheme().len();
    let order = crate::lookahead::priority_order(space, rule, candidates);
    let tables: Vec<Counts> = order
        .par_iter()
        .map(|&g| {
            let mut counts: Counts = [0; MAX_FEEDBACKS];
            space.count_parts(g, candidates, &mut counts);
            counts
        })
        .collect();
    let mut taken = vec![false; order.len()];
    let mut out = Vec::new();
    for _ in 0..top.min(order.len()) {
        let mut best: Option<usize> = None;
        for (i, table) in tables.iter().enumerate() {
            if taken[i] {
                continue;
            }
            if best.is_none_or(|b| valuation.compare(&table[..f], &tables[b][..f]) == Ordering::Less) {
                best = Some(i);
            }
        }
        let Some(i) = best else { break };
        taken[i] = true;
        let table = &tables[i];
        out.push(RankedGuess {
            guess: order[i],
            candidate: candidates.binary_search(&order[i]).is_ok(),
            value: valuation.value(&table[..f], candidates.len() as u32),
            parts: (0..f).filter(|&r| table[r] > 0).map(|r| (FeedbackIndex::from_index(r as u8), table[r])).collect(),
        });
    }
    out
}
