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
//!
//! A checkpoint of a long search runs to gigabytes, so neither direction copies it: entries
//! go into the table as they are decoded and are proven there (a refused file leaves the
//! table empty), and the file is written from the locked table, each set decoded as it is
//! written.

use std::collections::HashSet;
use std::fmt;
use std::io::{Read, Write};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use mmtree_core::{CodeIndex, GameSpec};

use super::bounds::Small;
use super::table::{Entry, Locked, Slot};
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

impl OptimalSearch<'_> {
    /// The checkpoint, copied out of the table: the finished subtrees (candidate sets of at
    /// least 3 codes with exact costs), each one whose subtree the checkpoint itself proves,
    /// and the lower bounds proven of unfinished sets of at least 12 codes where they beat
    /// the admissible bound. [`Self::write_checkpoint`] writes the same without the copy.
    pub fn checkpoint(&self) -> Checkpoint {
        self.with_saved(|saved| Checkpoint {
            game: saved.game,
            pool: saved.pool.to_string(),
            entries: saved
                .entries
                .iter()
                .map(|slot| match slot.value {
                    Entry::Exact(cost, guess) => CheckpointEntry {
                        depth: slot.depth,
                        cost,
                        guess: guess.index(),
                        set: saved.locked.codes(slot).collect(),
                    },
                    Entry::Lower(_) => unreachable!("only exact entries are saved as entries"),
                })
                .collect(),
            bounds: saved
                .bounds
                .iter()
                .map(|slot| match slot.value {
                    Entry::Lower(bound) => {
                        CheckpointBound { depth: slot.depth, bound, set: saved.locked.codes(slot).collect() }
                    }
                    Entry::Exact(..) => unreachable!("only lower bounds are saved as bounds"),
                })
                .collect(),
        })
    }

    /// Writes [`Self::checkpoint`] as JSON, read from the table in place: a checkpoint of a
    /// long search runs to gigabytes, and a copy of it beside the table was the peak of the
    /// job's memory.
    pub fn write_checkpoint(&self, writer: impl Write) -> serde_json::Result<()> {
        self.with_saved(|saved| serde_json::to_writer(writer, saved))
    }

    /// What a checkpoint keeps, read from the locked table, in file order.
    fn with_saved<R>(&self, use_saved: impl FnOnce(&Saved) -> R) -> R {
        let locked = self.table.locked();
        let mut bounds: Vec<&Slot<Entry>> = locked
            .iter()
            .filter(|slot| match slot.value {
                Entry::Lower(bound) => {
                    let m = locked.len(slot);
                    m >= BOUND_MIN && bound > self.bounds.bound(m, slot.depth)
                }
                Entry::Exact(..) => false,
            })
            .collect();
        let (passed, _) = self.prove_table(&locked);
        let mut entries: Vec<&Slot<Entry>> = locked.iter().filter(|slot| passed.contains(&slot.id())).collect();
        drop(passed);
        for list in [&mut entries, &mut bounds] {
            // Largest sets first, then by set and depth limit: the same table always writes
            // the same file.
            list.sort_unstable_by(|a, b| {
                (locked.len(b).cmp(&locked.len(a)))
                    .then_with(|| locked.codes(a).cmp(locked.codes(b)))
                    .then(a.depth.cmp(&b.depth))
            });
        }
        use_saved(&Saved {
            game: self.space.game().spec(),
            pool: self.config.pool.name(),
            locked: &locked,
            entries,
            bounds,
        })
    }

    /// Proves the table's exact entries of at least [`CHECKPOINT_MIN`] codes, smallest sets
    /// first, each from closed forms and the entries proven before it: the ids of those that
    /// pass, and those that fail with why.
    fn prove_table<'t>(&self, locked: &'t Locked<Entry>) -> (HashSet<usize>, Vec<(&'t Slot<Entry>, String)>) {
        let mut exact: Vec<&Slot<Entry>> = locked
            .iter()
            .filter(|slot| matches!(slot.value, Entry::Exact(..)) && locked.len(slot) >= CHECKPOINT_MIN)
            .collect();
        exact.sort_unstable_by_key(|slot| locked.len(slot));
        let mut passed = HashSet::with_capacity(exact.len());
        let mut failed = Vec::new();
        let mut set = Vec::new();
        for slot in exact {
            let Entry::Exact(cost, guess) = slot.value else { continue };
            set.clear();
            set.extend(locked.codes(slot).map(CodeIndex::from_index));
            let proven = |part: &[CodeIndex], depth: u8| match locked.get(part, depth) {
                Some(s) if passed.contains(&s.id()) => match s.value {
                    Entry::Exact(cost, _) => Some(cost),
                    Entry::Lower(_) => None,
                },
                _ => None,
            };
            match self.prove_entry(slot.depth, cost, guess, &set, &proven) {
                Ok(()) => {
                    passed.insert(slot.id());
                }
                Err(reason) => failed.push((slot, reason)),
            }
        }
        (passed, failed)
    }

    /// Loads the finished subtrees of an earlier run of the same game and pool, after proving
    /// each one, and its lower bounds after checking their form (see the module
    /// documentation); refuses the whole file if one fails, and the search then starts from
    /// nothing.
    pub fn resume(&self, checkpoint: &Checkpoint) -> Result<(), OptimalError> {
        self.load(|loader| {
            loader.header(checkpoint.game, &checkpoint.pool)?;
            checkpoint.entries.iter().try_for_each(|e| loader.entry(e))?;
            checkpoint.bounds.iter().try_for_each(|b| loader.bound(b))
        })
    }

    /// [`Self::resume`] from a checkpoint in JSON, each entry stored as it is read: a
    /// checkpoint decoded whole first would take twice the memory of the table it fills.
    pub fn resume_json(&self, reader: impl Read) -> Result<(), OptimalError> {
        self.load(|loader| {
            let mut json = serde_json::Deserializer::from_reader(reader);
            let decoded = LoadSeed(loader).deserialize(&mut json).and_then(|()| json.end());
            match (loader.refused.take(), decoded) {
                (Some(refused), _) => Err(refused),
                (None, Err(e)) => Err(OptimalError::NotACheckpoint(e.to_string())),
                (None, Ok(())) => Ok(()),
            }
        })
    }

    /// Fills the table with what `read` gives the loader, then proves it; on any failure the
    /// search forgets everything.
    fn load(&self, read: impl FnOnce(&mut Loader) -> Result<(), OptimalError>) -> Result<(), OptimalError> {
        let result = self.table.unforgetting(|| {
            let mut loader = Loader {
                search: self,
                header: false,
                entries: 0,
                listed: false,
                bounds: 0,
                ids: Vec::new(),
                refused: None,
            };
            read(&mut loader)?;
            let Loader { mut ids, .. } = loader;
            ids.sort_unstable();
            let locked = self.table.locked();
            let (_, failed) = self.prove_table(&locked);
            // The first failing entry of the file (the search's own entries cannot fail).
            let first = failed
                .into_iter()
                .filter_map(|(slot, reason)| {
                    let i = ids.binary_search_by_key(&slot.id(), |&(id, _)| id).ok()?;
                    Some((ids[i].1 as usize, reason))
                })
                .min_by_key(|(entry, _)| *entry);
            match first {
                Some((entry, reason)) => Err(OptimalError::CheckpointCorrupt { entry, reason }),
                None => Ok(()),
            }
        });
        if result.is_err() {
            self.table.clear();
            self.classes.clear();
        }
        result
    }

    /// Whether one entry's subtree (`guess` at `set` within `depth`, claimed to cost `cost`)
    /// is proven by closed forms and the costs `proven` gives.
    fn prove_entry(
        &self,
        depth: u8,
        cost: u32,
        guess: CodeIndex,
        set: &[CodeIndex],
        proven: &dyn Fn(&[CodeIndex], u8) -> Option<u32>,
    ) -> Result<(), String> {
        let code = |c: CodeIndex| mmtree_core::Alphabet::default().format(&self.space.code(c));
        if self.config.pool == Pool::Candidates && set.binary_search(&guess).is_err() {
            return Err(format!("guess {} is not a candidate", code(guess)));
        }
        let win = self.space.scheme().win();
        let parts = self.space.split(guess, set);
        if parts.len() == 1 && parts[0].0 != win {
            return Err(format!("guess {} does not split the set", code(guess)));
        }
        let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let mut total = set.len() as u32;
        for (feedback, part) in parts.into_iter().filter(|(f, _)| *f != win) {
            let part_cost = self.proven_cost(&part, child_depth, proven).ok_or_else(|| {
                format!(
                    "after guess {} the part of {} codes with feedback {} is not proven by the checkpoint",
                    code(guess),
                    part.len(),
                    self.space.scheme().feedback(feedback)
                )
            })?;
            total = total.saturating_add(part_cost);
        }
        if total != cost {
            return Err(format!("cost {cost} but guess {} leads to {total}", code(guess)));
        }
        let bound = self.bounds.bound(set.len(), depth);
        if cost < bound || bound == INFINITE {
            return Err(format!("cost {cost} is below the lower bound {bound}"));
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
    fn proven_cost(
        &self,
        part: &[CodeIndex],
        depth: u8,
        proven: &dyn Fn(&[CodeIndex], u8) -> Option<u32>,
    ) -> Option<u32> {
        match part.len() {
            1 if depth >= 1 => return Some(1),
            2 if depth >= 2 => return Some(3),
            0..=2 => return None,
            _ => {}
        }
        if let Small::Exact(cost, _) = self.bounds.small_set(self.space, self.config.pool, part, depth) {
            return Some(cost);
        }
        proven(part, depth)
    }
}

/// What a checkpoint keeps, read from the locked table (see
/// [`OptimalSearch::write_checkpoint`]); serialised as a [`Checkpoint`] is.
struct Saved<'l, 't> {
    game: GameSpec,
    pool: &'static str,
    locked: &'l Locked<'t, Entry>,
    entries: Vec<&'l Slot<Entry>>,
    bounds: Vec<&'l Slot<Entry>>,
}

impl Serialize for Saved<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Checkpoint", 4)?;
        out.serialize_field("game", &self.game)?;
        out.serialize_field("pool", self.pool)?;
        out.serialize_field("entries", &SavedList(self.locked, &self.entries))?;
        out.serialize_field("bounds", &SavedList(self.locked, &self.bounds))?;
        out.end()
    }
}

/// A list of saved entries or bounds.
struct SavedList<'a, 'l, 't>(&'l Locked<'t, Entry>, &'a [&'l Slot<Entry>]);

impl Serialize for SavedList<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let SavedList(locked, slots) = *self;
        serializer.collect_seq(slots.iter().map(|&slot| SavedSlot(locked, slot)))
    }
}

/// One saved entry (as a [`CheckpointEntry`]) or bound (as a [`CheckpointBound`]).
struct SavedSlot<'l, 't>(&'l Locked<'t, Entry>, &'l Slot<Entry>);

impl Serialize for SavedSlot<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let SavedSlot(locked, slot) = *self;
        let set = SavedSet(locked, slot);
        match slot.value {
            Entry::Exact(cost, guess) => {
                let mut out = serializer.serialize_struct("CheckpointEntry", 4)?;
                out.serialize_field("depth", &slot.depth)?;
                out.serialize_field("cost", &cost)?;
                out.serialize_field("guess", &guess.index())?;
                out.serialize_field("set", &set)?;
                out.end()
            }
            Entry::Lower(bound) => {
                let mut out = serializer.serialize_struct("CheckpointBound", 3)?;
                out.serialize_field("depth", &slot.depth)?;
                out.serialize_field("bound", &bound)?;
                out.serialize_field("set", &set)?;
                out.end()
            }
        }
    }
}

/// A saved entry's set, decoded as it is written.
struct SavedSet<'l, 't>(&'l Locked<'t, Entry>, &'l Slot<Entry>);

impl Serialize for SavedSet<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.codes(self.1))
    }
}

/// Stores a checkpoint's entries and bounds in a search's table as they are read, checking
/// each one's form; [`OptimalSearch::load`] proves the entries once all are in.
struct Loader<'a, 's> {
    search: &'a OptimalSearch<'s>,
    /// Whether the game and pool were read, and are the search's.
    header: bool,
    /// Entries read so far.
    entries: usize,
    /// Whether the list of entries was read.
    listed: bool,
    /// Bounds read so far.
    bounds: usize,
    /// Each stored entry's [`Slot::id`] and position in the file.
    ids: Vec<(usize, u32)>,
    /// Why the file is refused, when decoding stopped for it.
    refused: Option<OptimalError>,
}

impl Loader<'_, '_> {
    fn header(&mut self, game: GameSpec, pool: &str) -> Result<(), OptimalError> {
        let search = self.search;
        if game != search.space.game().spec() || pool != search.config.pool.name() {
            let found = match mmtree_core::Game::new(game) {
                Ok(g) => format!("{g} pool {pool}"),
                Err(_) => "an invalid game".to_string(),
            };
            let expected = format!("{} pool {}", search.space.game(), search.config.pool.name());
            return Err(OptimalError::CheckpointMismatch { found, expected });
        }
        self.header = true;
        Ok(())
    }

    /// Stores a finished subtree, unproven, after checking its form.
    fn entry(&mut self, e: &CheckpointEntry) -> Result<(), OptimalError> {
        let index = self.entries;
        self.entries += 1;
        let search = self.search;
        let refused = |reason: String| OptimalError::CheckpointCorrupt { entry: index, reason };
        if e.set.len() < CHECKPOINT_MIN {
            return Err(refused(format!("a set of {} codes (at least {CHECKPOINT_MIN} expected)", e.set.len())));
        }
        search.check_key(e.depth, &e.set).map_err(refused)?;
        if e.guess >= search.space.len() as u32 {
            return Err(refused(format!("guess {} is not a code of this game", e.guess)));
        }
        let set: Vec<CodeIndex> = e.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
        let value = Entry::Exact(e.cost, CodeIndex::from_index(e.guess));
        // A set twice in the file is proven once, as first given; a bound given for it before
        // must not be above its cost.
        let mut above = None;
        let stored = search.table.update(&set, e.depth, |old| match old {
            None => Some(value),
            Some(Entry::Lower(bound)) if bound <= e.cost => Some(value),
            Some(Entry::Lower(bound)) => {
                above = Some(bound);
                None
            }
            Some(Entry::Exact(..)) => None,
        });
        if let Some(bound) = above {
            return Err(refused(format!("cost {} is below the bound {bound} given for the set in `bounds`", e.cost)));
        }
        if let Some(id) = stored {
            self.ids.push((id, index as u32));
        }
        Ok(())
    }

    /// Stores a lower bound after checking its form: a set of this game of at least
    /// [`BOUND_MIN`] codes, above the set's admissible bound and not above an exact entry for
    /// the same set.
    fn bound(&mut self, b: &CheckpointBound) -> Result<(), OptimalError> {
        let i = self.bounds;
        self.bounds += 1;
        // Numbered after the subtrees, as they come after them in the files mmtree writes.
        let refused = |reason: String| OptimalError::CheckpointCorrupt {
            entry: self.entries + i,
            reason: format!("bound {i} of `bounds`: {reason}"),
        };
        let search = self.search;
        if b.set.len() < BOUND_MIN {
            return Err(refused(format!("a bound on a set of {} codes (at least {BOUND_MIN} expected)", b.set.len())));
        }
        search.check_key(b.depth, &b.set).map_err(refused)?;
        let admissible = search.bounds.bound(b.set.len(), b.depth);
        if b.bound <= admissible || admissible == INFINITE {
            return Err(refused(format!("bound {} is not above the admissible bound {admissible}", b.bound)));
        }
        let set: Vec<CodeIndex> = b.set.iter().map(|&c| CodeIndex::from_index(c)).collect();
        if let Some(Entry::Exact(cost, _)) = search.table.get(&set, b.depth) {
            if cost < b.bound {
                return Err(refused(format!("bound {} is above the set's exact cost {cost}", b.bound)));
            }
        }
        search.store_lower(&set, b.depth, b.bound);
        Ok(())
    }

    /// Keeps why the file is refused, and stops decoding with it.
    fn refuse<E: de::Error>(&mut self, refused: OptimalError) -> E {
        let message = refused.to_string();
        self.refused = Some(refused);
        E::custom(message)
    }
}

/// Decodes a checkpoint in JSON into a [`Loader`], one entry at a time.
struct LoadSeed<'l, 'a, 's>(&'l mut Loader<'a, 's>);

impl<'de> DeserializeSeed<'de> for LoadSeed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for LoadSeed<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a checkpoint (an object with `game`, `pool`, `entries` and `bounds`)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let loader = self.0;
        let (mut game, mut pool): (Option<GameSpec>, Option<String>) = (None, None);
        // Files mmtree writes give the game first, so another game is named before its
        // entries are read; any order of the fields is read.
        let header = |loader: &mut Loader, game: Option<GameSpec>, pool: Option<&String>| match (game, pool) {
            (Some(game), Some(pool)) if !loader.header => loader.header(game, pool).map_err(|e| loader.refuse(e)),
            _ => Ok(()),
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "game" => game = Some(map.next_value()?),
                "pool" => pool = Some(map.next_value()?),
                "entries" | "bounds" => {
                    header(loader, game, pool.as_ref())?;
                    map.next_value_seed(ItemSeed { loader: &mut *loader, entries: key == "entries" })?;
                }
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        header(loader, game, pool.as_ref())?;
        if !loader.header {
            return Err(de::Error::missing_field(if game.is_none() { "game" } else { "pool" }));
        }
        if !loader.listed {
            return Err(de::Error::missing_field("entries"));
        }
        Ok(())
    }
}

/// Decodes a checkpoint's list of entries or of bounds into a [`Loader`].
struct ItemSeed<'l, 'a, 's> {
    loader: &'l mut Loader<'a, 's>,
    entries: bool,
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(if self.entries { "a list of entries" } else { "a list of bounds" })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let loader = self.loader;
        if self.entries {
            loader.listed = true;
            while let Some(entry) = seq.next_element::<CheckpointEntry>()? {
                loader.entry(&entry).map_err(|e| loader.refuse(e))?;
            }
        } else {
            while let Some(bound) = seq.next_element::<CheckpointBound>()? {
                loader.bound(&bound).map_err(|e| loader.refuse(e))?;
            }
        }
        Ok(())
    }
}
