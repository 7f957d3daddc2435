//! Impartial combinatorial games analysed by backward induction.
//!
//! An impartial game is a directed graph of positions: both players have the
//! same moves, and under the normal play rule whoever cannot move loses.
//! Backward induction labels every position **P** (the previous player wins)
//! or **N** (the next player wins), and more finely with its
//! Sprague-Grundy value `g(v) = mex{ g(u) : v -> u }`; a position is P iff
//! `g(v) = 0`, and the value of a sum of games is the nim-sum (XOR) of the
//! values of its components.
//!
//! This crate covers the examples of the lecture *Kombinatorické hry*
//! (M. Bulant, Masaryk University):
//!
//! - subtraction games ([`subtraction_sg`]; `{1, 2, 3}` gives `g(x) = x mod 4`),
//! - Nim and Bouton's theorem ([`nim_sum`], [`winning_moves`]) and misère Nim
//!   ([`misere_nim_outcome`], [`misere_winning_moves`]),
//! - octal take-and-break games such as Kayles `0.77` ([`octal_sg`]) with
//!   periodicity proved by the octal periodicity theorem ([`octal_periodicity`]),
//! - arbitrary finite acyclic games given as DOT digraphs ([`GameGraph`]),
//!
//! and the `mmtree games` subcommands ([`GamesCommand`], [`run`]).
//!
//! # Example
//!
//! ```
//! use mmtree_games::{nim_sum, octal_periodicity, octal_sg, winning_moves, OctalGame};
//!
//! // Nim 5 7 9: nim-sum 11, an N-position with one winning move (9 -> 2).
//! assert_eq!(nim_sum(&[5, 7, 9]), 11);
//! assert_eq!(winning_moves(&[5, 7, 9]).len(), 1);
//!
//! // Kayles: from n = 71 on, g is periodic with period 12.
//! let kayles: OctalGame = "0.77".parse()?;
//! let g = octal_sg(&kayles, 200);
//! let p = octal_periodicity(&kayles, &g).expect("200 values prove the period");
//! assert_eq!((p.preperiod, p.period), (71, 12));
//! assert_eq!(p.last_exception(), Some(70));
//! # Ok::<(), mmtree_games::GamesError>(())
//! ```
#![deny(missing_docs)]

mod cli;
mod dot;
mod error;
mod graph;
mod nim;
mod octal;
mod sg;

pub use crate::{
    cli::{run, Format, GamesCommand, MAX_OCTAL_UP_TO, MAX_SUBTRACTION_UP_TO},
    error::GamesError,
    graph::GameGraph,
    nim::{misere_nim_outcome, misere_winning_moves, nim_outcome, nim_sum, winning_moves, Move},
    octal::{octal_periodicity, octal_sg, OctalGame},
    sg::{detect_period, mex, subtraction_periodicity, subtraction_sg, validate_moves, Outcome, Periodicity},
};
