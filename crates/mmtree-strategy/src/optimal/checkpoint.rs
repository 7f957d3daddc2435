//! Checkpoints: the finished subtrees of a search, saved so an interrupted search can resume,
//! and proven again before use so that no file can change a result.
//!
//! An entry claims that a candidate set costs `cost` within a depth limit, playing `guess`.
//! It is accepted only if its subtree is there to check: the guess splits the set (and is a
//! candidate when the pool is the candidates), and `cost` is `|K|` plus the costs of its
//! parts, each part being 1 or 2 codes (closed forms), a set whose optimum its own candidates
//! prove (see `Bounds::small_set`), or an entry accepted before it (entries are checked
//! smallest first). So every accepted cost is the total of a real strategy tree, the one the
//! search then builds, and it is at least the set's admissible bound. A file with an entry
//! that fails is refused, naming the entry. Saving keeps exactly the entries that pass.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use mmtree_core::{CodeIndex, GameSpec};

use super::bounds::Small;
use super::table::Entry;
use super::{OptimalError, OptimalSearch, INFINITE, UNLIMITED};
use crate::rule::Pool;

/// Candidate sets at least this large go into a checkpoint (smaller ones are closed forms).
const CHECKPOINT_MIN: usize = 3;

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

/// Costs already proven, by (depth limit, set).
type Proven = HashMap<(u8, Vec<u32>), u32>;

impl OptimalSearch<'_> {
    /// The finished subtrees (candidate sets of at least 3 codes with exact costs), each one
    /// whose subtree the checkpoint itself proves.
    pub fn checkpoint(&self) -> Checkpoint {
        let mut found = Vec::new();
        self.table.for_each(|depth, set, entry| {
            if let Entry::Exact(cost, guess) = entry {
                if set.len() >= CHECKPOINT_MIN {
                    found.push(CheckpointEntry { depth, cost, guess: guess.index(), set: set.to_vec() });
                }
            }
        });
        let mut entries: Vec<CheckpointEntry> =
            self.prove_entries(&found).into_iter().filter_map(|(i, ok)| ok.is_ok().then(|| found[i].clone())).collect();
        entries.sort_by(|a, b| (b.set.len(), &a.set, a.depth).cmp(&(a.set.len(), &b.set, b.depth)));
        Checkpoint { game: self.space.game().spec(), pool: self.config.pool.name().to_string(), entries }
    }

    /// Loads the finished subtrees of an earlier run of the same game and pool, after proving
    /// each one (see the module documentation); refuses the whole file if one fails.
    pub fn resume(&self, checkpoint: &Checkpoint) -> Result<(), OptimalError> {
        if checkpoint.game != self.space.game().spec() || checkpoint.pool != self.config.pool.name() {
            let found = match mmtree_core::Game::new(checkpoint.game) {
                Ok(g) => format!("{g} pool {}", checkpoint.pool),
                Err(_) => "an invalid game".to_string(),
            };
            let expected = format!("{} pool {}", self.space.game(), self.config.pool.name());
            return Err(OptimalError::CheckpointMismatch { found, expected });
        }
        let checked = self.prove_entries(&checkpoint.entries);
        if let Some((entry, Err(reason))) = checked.iter().filter(|(_, r)| r.is_err()).min_by_key(|(i, _)| *i) {
            return Err(OptimalError::CheckpointCorrupt { entry: *entry, reason: reason.clone() });
        }
        for e in &checkpoint.entries {
            let set: Vec<CodeIndex> = e.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
            self.store(&set, e.depth, Entry::Exact(e.cost, CodeIndex::from_index(e.guess)));
        }
        Ok(())
    }

    /// Checks `entries`, smallest sets first: for each entry (by position), `Ok` or why it
    /// fails.
    fn prove_entries(&self, entries: &[CheckpointEntry]) -> Vec<(usize, Result<(), String>)> {
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| entries[i].set.len());
        let mut proven = Proven::new();
        order
            .into_iter()
            .map(|i| {
                let e = &entries[i];
                let checked = self.prove_entry(e, &proven);
                if checked.is_ok() {
                    proven.insert((e.depth, e.set.clone()), e.cost);
                }
                (i, checked)
            })
            .collect()
    }

    /// Whether one entry's subtree is proven by closed forms and the entries in `proven`.
    fn prove_entry(&self, e: &CheckpointEntry, proven: &Proven) -> Result<(), String> {
        let len = self.space.len() as u32;
        if e.set.len() < CHECKPOINT_MIN {
            return Err(format!("a set of {} codes (at least {CHECKPOINT_MIN} expected)", e.set.len()));
        }
        if !e.set.windows(2).all(|w| w[0] < w[1]) || e.set.iter().any(|&c| c >= len) {
            return Err("the set is not a list of increasing code indices of this game".to_string());
        }
        if e.guess >= len {
            return Err(format!("guess {} is not a code of this game", e.guess));
        }
        if e.depth == 0 {
            return Err("depth limit 0".to_string());
        }
        let guess = CodeIndex::from_index(e.guess);
        let set: Vec<CodeIndex> = e.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
        let code = |c: CodeIndex| mmtree_core::Alphabet::default().format(&self.space.code(c));
        if self.config.pool == Pool::Candidates && set.binary_search(&guess).is_err() {
            return Err(format!("guess {} is not a candidate", code(guess)));
        }
        let win = self.space.scheme().win();
        let parts = self.space.split(guess, &set);
        if parts.len() == 1 && parts[0].0 != win {
            return Err(format!("guess {} does not split the set", code(guess)));
        }
        let child_depth = if e.depth == UNLIMITED { UNLIMITED } else { e.depth - 1 };
        let mut total = set.len() as u32;
        for (feedback, part) in parts.into_iter().filter(|(f, _)| *f != win) {
            let cost = self.proven_cost(&part, child_depth, proven).ok_or_else(|| {
                format!(
                    "after guess {} the part of {} codes with feedback {} is not proven by the checkpoint",
                    code(guess),
                    part.len(),
                    self.space.scheme().feedback(feedback)
                )
            })?;
            total = total.saturating_add(cost);
        }
        if total != e.cost {
            return Err(format!("cost {} but guess {} leads to {total}", e.cost, code(guess)));
        }
        let bound = self.bounds.bound(set.len(), e.depth);
        if e.cost < bound || bound == INFINITE {
            return Err(format!("cost {} is below the lower bound {bound}", e.cost));
        }
        Ok(())
    }

    /// The optimum of a part if closed forms or `proven` give it.
    fn proven_cost(&self, part: &[CodeIndex], depth: u8, proven: &Proven) -> Option<u32> {
        match part.len() {
            1 if depth >= 1 => return Some(1),
            2 if depth >= 2 => return Some(3),
            0..=2 => return None,
            _ => {}
        }
        if let Small::Exact(cost, _) = self.bounds.small_set(self.space, self.config.pool, part, depth) {
            return Some(cost);
        }
        let key = (depth, part.iter().map(|c| c.index()).collect::<Vec<u32>>());
        proven.get(&key).copied()
    }
}
