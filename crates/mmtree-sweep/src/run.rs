//! Computing rows: game by game (one code space, and feedback table, at a time), the rules of
//! a game in parallel, each row handed to the caller's thread as soon as it is done.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

use mmtree_core::{Alphabet, CodeSpace, Game, GameError, MemoryLimit};
use mmtree_strategy::Solver;

use crate::key::RowKey;
use crate::row::{Figures, Outcome, Row};

/// A sweep over some keys: solves each key's game under its rule, or skips it with the
/// reason when the game cannot exist or does not fit the memory limit.
///
/// Rows are computed game by game and handed to [`Sweep::run`]'s callback on the calling
/// thread as they finish (in any order); [`Sweep::rows`] collects them in grid order.
/// Rows do not depend on the thread count.
///
/// ```
/// use mmtree_core::MemoryLimit;
/// use mmtree_strategy::Valuation;
/// use mmtree_sweep::{Grid, Sweep};
/// let mut grid = Grid::new([2], [3, 4]);
/// grid.valuations = vec![Valuation::ExpectedSize];
/// let rows = Sweep::new(grid.keys()?, MemoryLimit(1 << 30)).rows();
/// // Chen and Lin's optimal totals for two pegs: 21 with 3 colours, 45 with 4.
/// let totals: Vec<u64> = rows.iter().map(|r| r.figures().unwrap().total).collect();
/// assert_eq!(totals, [21, 45]);
/// # Ok::<(), mmtree_sweep::SweepError>(())
/// ```
pub struct Sweep<'a> {
    keys: Vec<RowKey>,
    limit: MemoryLimit,
    progress: Option<&'a (dyn Fn(u64) + Sync)>,
    stop: Option<&'a AtomicBool>,
}

impl<'a> Sweep<'a> {
    /// A sweep of these keys (in any order), refusing games over `limit`.
    pub fn new(mut keys: Vec<RowKey>, limit: MemoryLimit) -> Sweep<'a> {
        keys.sort_unstable();
        keys.dedup();
        Sweep { keys, limit, progress: None, stop: None }
    }

    /// Reports solved secrets (see [`Sweep::work`]) as they are placed in trees; called from
    /// worker threads.
    pub fn with_progress(mut self, progress: &'a (dyn Fn(u64) + Sync)) -> Sweep<'a> {
        self.progress = Some(progress);
        self
    }

    /// Starts no new row once `stop` is set (rows being built finish and are handed over).
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Sweep<'a> {
        self.stop = Some(stop);
        self
    }

    /// The keys, in grid order.
    pub fn keys(&self) -> &[RowKey] {
        &self.keys
    }

    /// Secrets to place in trees: the length of a progress bar fed by
    /// [`Sweep::with_progress`] (skipped games count nothing).
    pub fn work(&self) -> u64 {
        self.keys
            .iter()
            .filter_map(|k| self.game(k).ok())
            .map(|g| u64::try_from(g.code_count()).unwrap_or(u64::MAX))
            .fold(0, u64::saturating_add)
    }

    /// Computes every row, calling `on_row` on this thread with each as it finishes. An error
    /// from `on_row` stops the sweep (no new row starts) and is returned.
    pub fn run<E>(&self, mut on_row: impl FnMut(Row) -> Result<(), E>) -> Result<(), E> {
        let halt = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Row>();
        std::thread::scope(|scope| {
            let halt = &halt;
            scope.spawn(move || self.compute(halt, tx));
            let mut result = Ok(());
            for row in rx {
                if result.is_ok() {
                    result = on_row(row);
                    if result.is_err() {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
            }
            result
        })
    }

    /// Every row, in grid order.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::with_capacity(self.keys.len());
        let Ok(()) = self.run::<Infallible>(|row| {
            rows.push(row);
            Ok(())
        });
        rows.sort_by_key(|r| r.key);
        rows
    }

    /// The game of a key if it exists and fits the limit.
    fn game(&self, key: &RowKey) -> Result<Game, GameError> {
        let game = Game::new(key.spec())?;
        self.limit.check(&game)?;
        Ok(game)
    }

    fn stopped(&self, halt: &AtomicBool) -> bool {
        halt.load(Ordering::Relaxed) || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Solves the keys game by game (the keys of one game are adjacent in grid order).
    fn compute(&self, halt: &AtomicBool, tx: mpsc::Sender<Row>) {
        let no_progress = |_: u64| {};
        let progress = self.progress.unwrap_or(&no_progress);
        for group in self.keys.chunk_by(|a, b| a.spec() == b.spec()) {
            if self.stopped(halt) {
                return;
            }
            let space = self.game(&group[0]).and_then(|game| space(game, self.limit));
            let space = match space {
                Ok(space) => space,
                Err(e) => {
                    for &key in group {
                        if tx.send(Row::skipped(key, e.to_string())).is_err() {
                            return;
                        }
                    }
                    continue;
                }
            };
            group.par_iter().for_each(|key| {
                if self.stopped(halt) {
                    return;
                }
                let tree = Solver::new(&space, key.rule()).with_progress(progress).build();
                let stats = tree.stats();
                let first_guess =
                    tree.first_guess().map(|g| Alphabet::default().format(&space.code(g))).unwrap_or_default();
                let figures = Figures { first_guess, max: stats.max, total: stats.total, histogram: stats.histogram };
                if tx.send(Row { key: *key, outcome: Outcome::Solved(figures) }).is_err() {
                    halt.store(true, Ordering::Relaxed);
                }
            });
        }
    }
}

/// The code space of a game, without a feedback table (as `mmtree solve`: the scanner's
/// kernels score a game's sets in less time than its table takes to build).
fn space(game: Game, limit: MemoryLimit) -> Result<CodeSpace, GameError> {
    CodeSpace::new(game, limit)
}
