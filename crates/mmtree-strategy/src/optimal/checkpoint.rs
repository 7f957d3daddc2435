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
//!
//! A checkpoint also keeps the lower bounds the search proved of sets it did not finish (by
//! budgets they failed), because a search stopped by a time limit has finished little. On the
//! 1,632 codes [7,4] leaves after 1111223 answered (1,2), proven at least 6,151 by earlier
//! runs, a rerun of 300 s without them proved nothing new (the time went into proving again
//! what those runs had), and the rerun after it, resuming them, solved the part (6,152) in
//! 102 s. These bounds cannot be proven again without that search, so they are taken on trust
//! as a part file's bounds are: each one is checked for its form only (a set of this game of
//! at least [`BOUND_MIN`] codes, above the set's admissible bound and not above an exact entry
//! for the same set), and a checkpoint is only as sound as the runs that wrote it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use mmtree_core::{CodeIndex, GameSpec};

use super::bounds::Small;
use super::table::Entry;
use super::{OptimalError, OptimalSearch, INFINITE, UNLIMITED};
use crate::rule::Pool;

/// Candidate sets at least this large go into a checkpoint (smaller ones are closed forms).
const CHECKPOINT_MIN: usize = 3;

/// Sets at least this large keep their lower bounds in a checkpoint: the smaller ones are many
/// and quick to search again.
const BOUND_MIN: usize = 12;

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
    /// Lower bounds of unfinished sets (absent in checkpoints of earlier versions).
    #[serde(default)]
    pub bounds: Vec<CheckpointBound>,
}

/// A lower bound a search proved of a candidate set's cost within a depth limit (255: none).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointBound {
    /// Depth limit of the subproblem (255 = unlimited).
    pub depth: u8,
    /// The least cost of the set is at least this.
    pub bound: u32,
    /// Candidate code indices, increasing.
    pub set: Vec<u32>,
}

/// Costs already proven, by (depth limit, set), borrowing the sets from the entries: a
/// checkpoint's sets run to hundreds of megabytes, so they are not copied to be looked up.
type Proven<'a> = HashMap<(u8, &'a [u32]), u32>;

impl OptimalSearch<'_> {
    /// The finished subtrees (candidate sets of at least 3 codes with exact costs), each one
    /// whose subtree the checkpoint itself proves, and the lower bounds proven of unfinished
    /// sets of at least 12 codes where they beat the admissible bound.
    pub fn checkpoint(&self) -> Checkpoint {
        let mut found = Vec::new();
        let mut bounds = Vec::new();
        self.table.for_each(|depth, set, entry| match entry {
            Entry::Exact(cost, guess) if set.len() >= CHECKPOINT_MIN => {
                found.push(CheckpointEntry { depth, cost, guess: guess.index(), set: set.to_vec() });
            }
            Entry::Lower(bound) if set.len() >= BOUND_MIN && bound > self.bounds.bound(set.len(), depth) => {
                bounds.push(CheckpointBound { depth, bound, set: set.to_vec() });
            }
            _ => {}
        });
        bounds.sort_by(|a, b| file_order((&a.set, a.depth), (&b.set, b.depth)));
        let mut passed = vec![false; found.len()];
        for (i, checked) in self.prove_entries(&found) {
            passed[i] = checked.is_ok();
        }
        let mut entries: Vec<CheckpointEntry> =
            found.into_iter().zip(passed).filter_map(|(entry, ok)| ok.then_some(entry)).collect();
        entries.sort_by(|a, b| file_order((&a.set, a.depth), (&b.set, b.depth)));
        Checkpoint { game: self.space.game().spec(), pool: self.config.pool.name().to_string(), entries, bounds }
    }

    /// Loads the finished subtrees of an earlier run of the same game and pool, after proving
    /// each one, and its lower bounds after checking their form (see the module
    /// documentation); refuses the whole file if one fails.
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
        let exact: Proven = checkpoint.entries.iter().map(|e| ((e.depth, &e.set[..]), e.cost)).collect();
        for (i, b) in checkpoint.bounds.iter().enumerate() {
            // Numbered after the subtrees, as they come after them in the file.
            self.check_bound(b, &exact).map_err(|reason| OptimalError::CheckpointCorrupt {
                entry: checkpoint.entries.len() + i,
                reason: format!("bound {i} of `bounds`: {reason}"),
            })?;
        }
        for e in &checkpoint.entries {
            let set: Vec<CodeIndex> = e.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
            self.store(&set, e.depth, Entry::Exact(e.cost, CodeIndex::from_index(e.guess)));
        }
        for b in &checkpoint.bounds {
            let set: Vec<CodeIndex> = b.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
            self.store_lower(&set, b.depth, b.bound);
        }
        Ok(())
    }

    /// Whether a saved lower bound has the form of one this game's search proves.
    fn check_bound(&self, b: &CheckpointBound, exact: &Proven) -> Result<(), String> {
        if b.set.len() < BOUND_MIN {
            return Err(format!("a bound on a set of {} codes (at least {BOUND_MIN} expected)", b.set.len()));
        }
        self.check_key(b.depth, &b.set)?;
        let admissible = self.bounds.bound(b.set.len(), b.depth);
        if b.bound <= admissible || admissible == INFINITE {
            return Err(format!("bound {} is not above the admissible bound {admissible}", b.bound));
        }
        match exact.get(&(b.depth, &b.set[..])) {
            Some(&cost) if cost < b.bound => Err(format!("bound {} is above the set's exact cost {cost}", b.bound)),
            _ => Ok(()),
        }
    }

    /// Checks `entries`, smallest sets first: for each entry (by position), `Ok` or why it
    /// fails.
    fn prove_entries<'a>(&self, entries: &'a [CheckpointEntry]) -> Vec<(usize, Result<(), String>)> {
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| entries[i].set.len());
        let mut proven: Proven<'a> = Proven::new();
        order
            .into_iter()
            .map(|i| {
                let e = &entries[i];
                let checked = self.prove_entry(e, &proven);
                if checked.is_ok() {
                    proven.insert((e.depth, &e.set[..]), e.cost);
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
        self.check_key(e.depth, &e.set)?;
        if e.guess >= len {
            return Err(format!("guess {} is not a code of this game", e.guess));
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

    /// Whether a saved set and depth limit are ones of this game's search.
    fn check_key(&self, depth: u8, set: &[u32]) -> Result<(), String> {
        let len = self.space.len() as u32;
        if !set.windows(2).all(|w| w[0] < w[1]) || set.iter().any(|&c| c >= len) {
            return Err("the set is not a list of increasing code indices of this game".to_string());
        }
        if depth == 0 {
            return Err("depth limit 0".to_string());
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
        let key: Vec<u32> = part.iter().map(|c| c.index()).collect();
        proven.get(&(depth, &key[..])).copied()
    }
}

/// The order of a checkpoint's lists: largest sets first, then by set and depth limit, so the
/// same table always writes the same file.
fn file_order((a, da): (&[u32], u8), (b, db): (&[u32], u8)) -> std::cmp::Ordering {
    (b.len(), a, da).cmp(&(a.len(), b, db))
}
