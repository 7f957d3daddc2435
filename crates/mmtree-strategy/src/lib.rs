//! Choosing guesses: the one-step valuations, the guess rule, the tree builder, the
//! look-ahead, the advisor and the exact search.
//!
//! # Brief overview
//!
//! * [`Valuation`] scores a guess from its partition table (minimax, expected size,
//!   entropy, most parts), with exact ties.
//! * [`GuessRule`] adds the switches: guess [`Pool`], [`Ties`] order, candidate preference,
//!   a fixed first guess.
//! * [`Method`] switches a rule to a two-step look-ahead of its valuation, or to one of the
//!   simple strategies ([`first_candidate`], the human-friendly [`human_guess`]).
//! * [`rank_guesses`] lists the best guesses of a state with their partition tables (the
//!   advisor).
//! * [`Solver`] applies a rule on a [`mmtree_core::CodeSpace`] and builds the complete
//!   [`mmtree_core::StrategyTree`] by recursive partitioning, in parallel, deterministically.
//! * [`OptimalSearch`] finds a strategy of least total (or least maximum) by branch and
//!   bound.
//!
//! Every search scores guesses through the core's partition scanner
//! ([`mmtree_core::Scan`]) and scores one guess per class of the history's symmetry
//! ([`mmtree_core::Symmetry`]); the choices are exactly those of the plain rules.
//!
//! ```
//! use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit};
//! use mmtree_strategy::{GuessRule, Solver, Valuation};
//! let space = CodeSpace::new(Game::new(GameSpec::mastermind(3, 3))?, MemoryLimit(1 << 30))?;
//! let tree = Solver::new(&space, GuessRule::new(Valuation::MostParts)).build();
//! assert_eq!(tree.stats().secrets, 27);
//! # Ok::<(), mmtree_core::GameError>(())
//! ```
#![deny(missing_docs)]

mod advice;
mod builder;
mod lookahead;
mod optimal;
mod rule;
mod simple;
mod valuation;

pub use advice::{rank_guesses, RankedGuess};
pub use builder::{candidates_after, CandidateCache, JoinError, Round, Solver, SplitNode, Top, TopNode};
pub use lookahead::two_step_partition;
pub use optimal::{
    Bracket, Checkpoint, CheckpointBound, CheckpointEntry, Objective, OptimalConfig, OptimalError, OptimalSearch,
    PartBracket, SearchStats,
};
pub use rule::{GuessRule, Method, Pool, Ties};
pub use simple::{first_candidate, human_guess};
pub use valuation::{Best, Valuation};
