//! The grid a sweep covers: pegs × colours × valuations × pools for one variant, feedback
//! kind and tie order, optionally one round-robin slice ([`Shard`]) of it.

use std::fmt;

use mmtree_core::{FeedbackKind, Variant, MAX_COLOURS, MAX_PEGS};
use mmtree_strategy::{Pool, Ties, Valuation};

use crate::error::SweepError;
use crate::key::RowKey;

/// The `index`-th of `count` disjoint slices of a grid (1-based): keys number `index`,
/// `index + count`, ... in grid order, so large games spread over the slices.
///
/// ```
/// use mmtree_sweep::Shard;
/// let shard = Shard::new(2, 8)?;
/// assert_eq!((shard.index(), shard.count(), shard.to_string()), (2, 8, "2/8".to_string()));
/// assert!(Shard::new(9, 8).is_err());
/// # Ok::<(), mmtree_sweep::SweepError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Slice `index` of `count`, `1 <= index <= count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, SweepError> {
        if index == 0 || index > count {
            return Err(SweepError::Shard { index, count });
        }
        Ok(Shard { index, count })
    }

    /// `i`, 1-based.
    pub fn index(&self) -> usize {
        self.index
    }

    /// `N`.
    pub fn count(&self) -> usize {
        self.count
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A grid of games and rules: every (n, k, valuation, pool) for one variant, feedback kind
/// and tie order. Plain data: [`Grid::keys`] checks it.
///
/// ```
/// use mmtree_strategy::{Pool, Valuation};
/// use mmtree_sweep::{Grid, Shard};
/// let mut grid = Grid::new([3, 2], [4, 2]);
/// grid.pools = vec![Pool::All, Pool::Candidates];
/// let keys = grid.keys()?;
/// assert_eq!(keys.len(), 2 * 2 * 4 * 2);
/// assert_eq!((keys[0].n, keys[0].k, keys[0].valuation, keys[0].pool), (2, 2, Valuation::Minimax, Pool::All));
/// grid.shard = Some(Shard::new(2, 3)?);
/// assert_eq!(grid.keys()?[0], keys[1]);
/// # Ok::<(), mmtree_sweep::SweepError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Pegs (any order; repeats are ignored).
    pub ns: Vec<u8>,
    /// Colours (any order; repeats are ignored).
    pub ks: Vec<u8>,
    /// Repetition or distinct symbols, for every game.
    pub variant: Variant,
    /// Feedback kind, for every game.
    pub feedback: FeedbackKind,
    /// Valuations (listed in table order whatever the order here).
    pub valuations: Vec<Valuation>,
    /// Guess pools (all first).
    pub pools: Vec<Pool>,
    /// Tie order, for every rule.
    pub ties: Ties,
    /// Only this slice of the grid.
    pub shard: Option<Shard>,
}

impl Grid {
    /// Every valuation, guesses from all codes, the thesis's tie order, repetition and
    /// black-white feedback: the defaults of `mmtree sweep`.
    pub fn new(ns: impl IntoIterator<Item = u8>, ks: impl IntoIterator<Item = u8>) -> Grid {
        Grid {
            ns: ns.into_iter().collect(),
            ks: ks.into_iter().collect(),
            variant: Variant::Repetition,
            feedback: FeedbackKind::BlackWhite,
            valuations: Valuation::ALL.to_vec(),
            pools: vec![Pool::All],
            ties: Ties::Smallest,
            shard: None,
        }
    }

    /// The keys of the grid (of its shard), in grid order. Refuses an empty grid and `n`, `k`
    /// outside `1..=MAX_PEGS`, `1..=MAX_COLOURS`. Games without repetition with `n > k` are
    /// keys: they become skipped rows.
    pub fn keys(&self) -> Result<Vec<RowKey>, SweepError> {
        let within = |values: &[u8], what: &str, max: u8| -> Result<(), SweepError> {
            if values.is_empty() {
                return Err(SweepError::Grid(format!("no values of {what}")));
            }
            match values.iter().find(|&&v| v == 0 || v > max) {
                Some(v) => Err(SweepError::Grid(format!("{what} = {v} is not between 1 and {max}"))),
                None => Ok(()),
            }
        };
        within(&self.ns, "n", MAX_PEGS)?;
        within(&self.ks, "k", MAX_COLOURS)?;
        if self.valuations.is_empty() || self.pools.is_empty() {
            return Err(SweepError::Grid("no valuations or no pools".into()));
        }
        let mut keys = Vec::new();
        for &n in &self.ns {
            for &k in &self.ks {
                for &valuation in &self.valuations {
                    for &pool in &self.pools {
                        let (variant, feedback, ties) = (self.variant, self.feedback, self.ties);
                        keys.push(RowKey { n, k, variant, feedback, valuation, pool, ties });
                    }
                }
            }
        }
        keys.sort_unstable();
        keys.dedup();
        if let Some(shard) = self.shard {
            keys = keys.into_iter().skip(shard.index - 1).step_by(shard.count).collect();
        }
        Ok(keys)
    }
}
