//! mmtree: complete strategy trees for Mastermind-like code-breaking games.
//!
//! A thin facade over the workspace crates (the `mmtree` binary is the command-line tool):
//! [`core`] (codes, feedback, candidate sets, the tree type), [`strategy`] (valuations, guess
//! rules, the builder) and [`io`] (tables and files).
//!
//! ```
//! use mmtree::core::{CodeSpace, Game, GameSpec, MemoryLimit};
//! use mmtree::strategy::{GuessRule, Solver, Valuation};
//! let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
//! let stats = Solver::new(&space, GuessRule::new(Valuation::Minimax)).build().stats();
//! assert_eq!((stats.max, stats.total), (5, 5801));
//! # Ok::<(), mmtree::core::GameError>(())
//! ```
#![deny(missing_docs)]

pub use mmtree_core as core;
pub use mmtree_io as io;
pub use mmtree_strategy as strategy;
