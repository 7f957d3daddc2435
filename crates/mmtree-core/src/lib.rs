//! The game side of mmtree: codes, feedback, candidate sets, partitions, symmetry, and the
//! plain strategy-tree type.
//!
//! # Brief overview
//!
//! * [`Game`] is a validated [`GameSpec`] (pegs, colours, repetition, feedback kind).
//! * [`CodeSpace`] enumerates its codes lexicographically, maps [`Code`] ↔ [`CodeIndex`],
//!   and scores guesses ([`CodeSpace::count_parts`]: one guess's partition table).
//! * [`score_reference`] is the literal definition the fast paths are tested against.
//! * [`Scan`] is the partition scanner every search calls: partition tables, or statistics of
//!   them, of many guesses on one candidate set, with a cut-off ([`Cut`]), folded by the
//!   caller ([`Fold`]); it picks among the 32-wide [`CodeBlocks`] kernels, the streamed
//!   feedback table and one-guess-at-a-time counting by the sizes involved.
//! * [`Symmetry`] is the group of position and colour permutations fixing the guesses played:
//!   one representative guess per class, canonical forms of candidate sets.
//! * [`CandidateSet`] is a bitset of codes; [`StrategyTree`] is the arena a builder fills
//!   and a checker reads, with [`Stats`] (max, total, histogram).
//!
//! This crate knows nothing of valuations: choosing guesses is `mmtree-strategy`'s job, and
//! the scanner's cut-offs and statistics are in terms of part sizes (largest part, sum of
//! squares, number of parts, `sum s log2 s`).
//!
//! ```
//! use mmtree_core::{CodeSpace, Game, GameSpec, MemoryLimit, CodeIndex};
//! let space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6))?, MemoryLimit(1 << 30))?;
//! let mut counts = [0u32; mmtree_core::MAX_FEEDBACKS];
//! // Partition table of the first guess 1122 (index 7): its largest part has 256 codes.
//! space.count_parts(CodeIndex::from_index(7), &space.all_indices(), &mut counts);
//! assert_eq!(counts.iter().max(), Some(&256));
//! # Ok::<(), mmtree_core::GameError>(())
//! ```
#![deny(missing_docs)]

mod candidates;
mod code;
mod error;
mod feedback;
mod game;
mod lanes;
mod memory;
mod printable;
mod scan;
mod score;
mod space;
mod states;
mod symmetry;
#[cfg(feature = "test-util")]
pub mod test_util;
mod tree;

pub use candidates::CandidateSet;
pub use code::{Alphabet, Code, CodeIndex};
pub use error::GameError;
pub use feedback::{Feedback, FeedbackIndex, FeedbackScheme, MAX_FEEDBACKS};
pub use game::{FeedbackKind, Game, GameSpec, Variant, MAX_COLOURS, MAX_PEGS};
pub use lanes::{CodeBlocks, LaneRows, LaneStats, Probe, ProbeSet, Shares, BLOCK, MAX_PROBES};
pub use memory::{format_bytes, MemoryLimit, BYTES_PER_CODE};
pub use printable::{printable, printable_char};
pub use scan::{xlogx, CodePool, Cut, Detail, Fold, Guesses, MaskRun, Partition, Prepared, Scan};
pub use score::{score_reference, PackedCode};
pub use space::{CodeSpace, Counts};
pub use states::{
    state_graph, StateEdge, StateGraph, StateNode, StateOptions, StatesError, MAX_STATE_CODES, MAX_STATE_EDGES,
    MAX_STATE_NODES,
};
pub use symmetry::{canonical_codes, canonical_indices, first_guess_classes, standard_image, Symmetry};
pub use tree::{Edge, Node, NodeId, Stats, StrategyTree, Subtree, TreeShapeError};
