//! Checkpoints: the finished subtrees of a search, saved so an interrupted search can resume.

use serde::{Deserialize, Serialize};

use mmtree_core::{CodeIndex, GameSpec};

use super::table::Entry;
use super::{OptimalError, OptimalSearch};

/// Candidate sets at least this large go into a checkpoint.
const CHECKPOINT_MIN: usize = 6;

/// A finished subtree saved in a checkpoint: the candidate set, its depth limit (255: none),
/// its exact cost and the best guess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointEntry {
    /// Depth limit of the subproblem (255 = unlimited).
    pub depth: u8,
    /// Exact optimal cost.
    pub cost: u32,
    /// Best guess (code index).
    pub guess: u32,
    /// Candidate code indices, increasing.
    pub set: Vec<u32>,
}

/// What a search has proven so far, to resume an interrupted search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The game.
    pub game: GameSpec,
    /// `all` or `candidates`.
    pub pool: String,
    /// Finished subtrees.
    pub entries: Vec<CheckpointEntry>,
}

impl OptimalSearch<'_> {
    /// The finished subtrees (candidate sets of at least a few codes with exact costs).
    pub fn checkpoint(&self) -> Checkpoint {
        let mut entries = Vec::new();
        self.table.for_each(|depth, set, entry| {
            if let Entry::Exact(cost, guess) = entry {
                if set.len() >= CHECKPOINT_MIN {
                    entries.push(CheckpointEntry { depth, cost, guess: guess.index(), set: set.to_vec() });
                }
            }
        });
        entries.sort_by(|a, b| (b.set.len(), &a.set, a.depth).cmp(&(a.set.len(), &b.set, b.depth)));
        Checkpoint { game: self.space.game().spec(), pool: self.config.pool.name().to_string(), entries }
    }

    /// Loads the finished subtrees of an earlier run of the same game and pool.
    pub fn resume(&self, checkpoint: &Checkpoint) -> Result<(), OptimalError> {
        if checkpoint.game != self.space.game().spec() || checkpoint.pool != self.config.pool.name() {
            let found = match mmtree_core::Game::new(checkpoint.game) {
                Ok(g) => format!("{g} pool {}", checkpoint.pool),
                Err(_) => "an invalid game".to_string(),
            };
            let expected = format!("{} pool {}", self.space.game(), self.config.pool.name());
            return Err(OptimalError::CheckpointMismatch { found, expected });
        }
        let len = self.space.len() as u32;
        for (i, e) in checkpoint.entries.iter().enumerate() {
            let sorted = e.set.windows(2).all(|w| w[0] < w[1]);
            if e.set.is_empty() || !sorted || e.set.iter().any(|&c| c >= len) || e.guess >= len || e.cost == 0 {
                return Err(OptimalError::CheckpointCorrupt { entry: i });
            }
            let set: Vec<CodeIndex> = e.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
            // A guess that splits nothing would send the tree builder round in circles.
            let parts = self.space.split(CodeIndex::from_index(e.guess), &set);
            if parts.len() == 1 && parts[0].0 != self.space.scheme().win() {
                return Err(OptimalError::CheckpointCorrupt { entry: i });
            }
            self.store(&set, e.depth, Entry::Exact(e.cost, CodeIndex::from_index(e.guess)));
        }
        Ok(())
    }
}
