//! The advisor: the best guesses of a state, ranked, with their partition tables.

use std::cmp::Ordering;

use mmtree_core::{
    CodeIndex, CodeSpace, Counts, Cut, Detail, FeedbackIndex, Fold, Guesses, Partition, Scan, MAX_FEEDBACKS,
};

use crate::rule::GuessRule;
use crate::valuation::Valuation;

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
    let scan = Scan::new(space, Guesses::List(&order), candidates).detail(Detail::Counts).parallel(true);
    let ranked = scan.run(|| Top { valuation, top, kept: Vec::new() });
    ranked
        .kept
        .into_iter()
        .map(|t| RankedGuess {
            guess: t.guess,
            candidate: candidates.binary_search(&t.guess).is_ok(),
            value: valuation.value(&t.counts[..f], candidates.len() as u32),
            parts: (0..f)
                .filter(|&r| t.counts[r] > 0)
                .map(|r| (FeedbackIndex::from_index(r as u8), t.counts[r]))
                .collect(),
        })
        .collect()
}

/// A scanned guess: position in priority order, key and partition table.
struct Table {
    position: usize,
    guess: CodeIndex,
    key: f64,
    counts: Counts,
}

/// The `top` best guesses seen so far, best first (equal values by position).
struct Top {
    valuation: Valuation,
    top: usize,
    kept: Vec<Table>,
}

impl Top {
    /// `a` before `b`: better value, or equal value and earlier.
    fn before(&self, a: &Table, b: &Table) -> bool {
        let value = if self.valuation.needs_exact(a.key, b.key) {
            self.valuation.compare(&a.counts, &b.counts)
        } else {
            a.key.partial_cmp(&b.key).unwrap_or(Ordering::Equal)
        };
        value.then(a.position.cmp(&b.position)) == Ordering::Less
    }

    fn insert(&mut self, table: Table) {
        let at = self.kept.iter().position(|k| self.before(&table, k)).unwrap_or(self.kept.len());
        if at < self.top {
            self.kept.insert(at, table);
            self.kept.truncate(self.top);
        }
    }
}

impl Fold for Top {
    fn cut(&self) -> Cut {
        match self.kept.get(self.top.saturating_sub(1)) {
            Some(last) if self.kept.len() == self.top => self.valuation.cut(last.key),
            _ => Cut::Never,
        }
    }

    #[inline]
    fn visit(&mut self, p: &Partition) -> bool {
        let mut counts: Counts = [0; MAX_FEEDBACKS];
        let table = p.counts();
        counts[..table.len()].copy_from_slice(&table);
        self.insert(Table { position: p.position(), guess: p.guess(), key: self.valuation.key_of(p), counts });
        true
    }

    fn merge(mut self, later: Self) -> Self {
        for table in later.kept {
            self.insert(table);
        }
        self
    }
}
