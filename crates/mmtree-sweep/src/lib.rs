//! Sweeps: the figures of many games under many rules, one row each, computed, written,
//! resumed after an interruption, checked and merged.
//!
//! # Brief overview
//!
//! * A [`Grid`] describes the games and rules (pegs × colours × valuations × pools, one
//!   variant, feedback kind and tie order, optionally one [`Shard`] of it); its
//!   [`keys`](Grid::keys) are [`RowKey`]s in grid order.
//! * A [`Sweep`] computes the [`Row`] of each key, game by game, with an optional progress
//!   callback and stop flag: a solved row holds `solve`'s [`Figures`], a game that cannot
//!   exist or does not fit the memory limit becomes a skipped row with the reason.
//! * [`render`] writes rows as CSV, JSON lines, Markdown or LaTeX; a [`RowWriter`] streams
//!   them one at a time, flushed, so an interrupted sweep keeps every finished row.
//! * [`SweepFile`] reads rows back from any of those formats, each through [`Row::check`]
//!   (the figures must fit the game); a last line cut off by a killed writer is set aside.
//! * A [`RowSet`] gathers rows from several files: [`merge`] refuses overlapping slices, and
//!   [`Resume::plan`] keeps every earlier row and lists the keys still to compute.
//!
//! * [`SolveReport`] is the row of one tree (`solve --format json`'s object),
//!   [`thesis::tables`] recomputes the thesis's [4,6] tables, and [`advice`] reads a
//!   history and ranks the next guesses: shared by the `mmtree` binary and the Python
//!   package.
//!
//! The columns are `solve --format json`'s keys plus `skipped` ([`COLUMNS`]); a solved row's
//! JSON is exactly `solve --format json`'s object.
//!
//! ```
//! use mmtree_core::MemoryLimit;
//! use mmtree_io::Format;
//! use mmtree_strategy::Valuation;
//! use mmtree_sweep::{render, Duplicates, Grid, Resume, RowSet, Sweep, SweepFile};
//!
//! // [2,3] and [2,4] under expected size reach Chen and Lin's optimal totals, 21 and 45.
//! let mut grid = Grid::new([2], [3, 4]);
//! grid.valuations = vec![Valuation::ExpectedSize];
//! let limit = MemoryLimit(1 << 30);
//! let rows = Sweep::new(grid.keys()?, limit).rows();
//! let csv = render(&rows, Format::Csv, "Sweep");
//!
//! // An interrupted run kept the first row; resuming computes only the second.
//! let first_row_only: String = csv.lines().take(2).map(|l| l.to_string() + "\n").collect();
//! let mut earlier = RowSet::new();
//! earlier.add(SweepFile::parse(&first_row_only, "s.csv")?, Duplicates::Agree)?;
//! let plan = Resume::plan(&grid.keys()?, earlier);
//! assert_eq!(plan.kept.len(), 1);
//! let mut rows = plan.kept;
//! rows.extend(Sweep::new(plan.todo, limit).rows());
//! assert_eq!(render(&rows, Format::Csv, "Sweep"), csv);
//! assert_eq!(rows[1].figures().map(|f| f.total), Some(45));
//! # Ok::<(), mmtree_sweep::SweepError>(())
//! ```
#![deny(missing_docs)]

pub mod advice;
mod error;
mod grid;
mod key;
mod read;
mod report;
mod row;
mod run;
mod set;
pub mod thesis;
mod write;

pub use error::{RowError, SweepError};
pub use grid::{Grid, Shard};
pub use key::RowKey;
pub use read::{CutOff, SweepFile};
pub use report::{recorded_rule, SolveReport, UnknownRule, OPTIMAL_TIES};
pub use row::{Figures, Outcome, Row, COLUMNS};
pub use run::Sweep;
pub use set::{merge, Duplicates, Resume, RowSet};
pub use write::{render, RowWriter, Stream};
