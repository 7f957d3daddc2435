//! The plan of a tree split into independent jobs (JSON): the game, the rule, the top of the
//! tree above the split depth, the subtrees at that depth with their estimated cost and shard,
//! and a digest of all of it that every part file repeats.
//!
//! Histories are stored as `[guess, feedback]` index pairs (what jobs read) and, for people, as
//! a `path` written in the plan's symbols, e.g. `1122 (1,0) → 1344 (0,2)`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use mmtree_core::GameSpec;

use crate::input::{read_bytes, InputError};
use crate::output::{OutputError, OutputPath};
use crate::tree_file::{fnv1a64, RuleInfo};

/// The value of a plan's `format` key.
pub const PLAN_FORMAT: &str = "mmtree-plan";
/// The plan format version this build writes and reads.
pub const PLAN_VERSION: u32 = 1;
/// Largest plan file read (a plan of a million subtrees is about 200 MB).
const PLAN_MAX_BYTES: u64 = 1 << 30;

/// A node of the top of the tree, where the plan fixed the guess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanNode {
    /// The rounds leading here, for people (`root` at the root).
    pub path: String,
    /// The rounds leading here as `[guess index, feedback index]`.
    pub history: Vec<(u32, u8)>,
    /// How many candidates the node has.
    pub candidates: u32,
    /// The guess played, as a code index.
    pub guess: u32,
    /// The guess played, written in the plan's symbols.
    pub guess_code: String,
}

/// A node at the split depth: one subtree, built by one shard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanSubtree {
    /// The rounds leading here, for people.
    pub path: String,
    /// The rounds leading here as `[guess index, feedback index]`.
    pub history: Vec<(u32, u8)>,
    /// How many candidates the node has.
    pub candidates: u32,
    /// Estimated cost of building its subtree (model in the README; only ratios matter).
    pub cost: u64,
    /// The shard that builds it, 1-based.
    pub shard: u32,
    /// Plans of kind `optimal`: a proven lower bound on the part's optimum (what a join counts
    /// for a missing part).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
}

/// A plan: everything a job needs, and what a join checks parts against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// [`PLAN_VERSION`].
    pub version: u32,
    /// The kind of jobs: `tree` (whole subtrees under a guess rule) or `optimal` (the exact
    /// optimum of each part left by each first guess class in `top`).
    pub kind: String,
    /// The game.
    pub game: GameSpec,
    /// The symbols of colours `1..k`.
    pub symbols: String,
    /// The rule, as a tree file's header records it.
    pub rule: RuleInfo,
    /// Depth of the subtree roots (the root has depth 0).
    pub split_depth: u32,
    /// Number of shards.
    pub shards: u32,
    /// Plans of kind `optimal` minimising the worst case: the most guesses a part's strategy
    /// may take (one less than the least worst case of the game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part_depth: Option<u8>,
    /// The nodes above the split depth, in preorder. In plans of kind `optimal` they are the
    /// guesses to choose from: several nodes may share a history (the first guess classes at
    /// the root; at depth 2, the second guesses that may be optimal on each part).
    pub top: Vec<PlanNode>,
    /// The subtrees at the split depth, in preorder; a part names them by position here.
    pub subtrees: Vec<PlanSubtree>,
    /// FNV-1a 64 (16 hex digits) of this JSON with `digest` empty.
    pub digest: String,
}

/// A plan file that cannot be read or written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PlanError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] InputError),
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] OutputError),
    /// The file is not a plan of this format.
    #[error("'{}' is not a valid plan: {reason}", path.display())]
    Invalid {
        /// File.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

impl PlanError {
    /// True when the user gave a bad file or path (exit code 2), false for an I/O failure.
    pub fn is_bad_input(&self) -> bool {
        match self {
            PlanError::Read(e) => e.is_bad_input(),
            PlanError::Write(e) => e.is_bad_input(),
            PlanError::Invalid { .. } => true,
        }
    }
}

impl Plan {
    /// The digest of everything but the `digest` key.
    ///
    /// ```
    /// use mmtree_core::GameSpec;
    /// use mmtree_io::{Plan, RuleInfo};
    /// let mut plan = Plan {
    ///     format: "mmtree-plan".into(), version: 1, kind: "tree".into(), game: GameSpec::mastermind(4, 6),
    ///     symbols: "123456".into(), rule: RuleInfo::new("minimax", "all", "smallest", true, None),
    ///     split_depth: 1, shards: 2, part_depth: None, top: vec![], subtrees: vec![], digest: String::new(),
    /// };
    /// plan.seal();
    /// assert_eq!(plan.digest, plan.compute_digest());
    /// plan.shards = 3;
    /// assert_ne!(plan.digest, plan.compute_digest());
    /// ```
    pub fn compute_digest(&self) -> String {
        let unsealed = Plan { digest: String::new(), ..self.clone() };
        let json = serde_json::to_vec(&unsealed).expect("BUG: a plan serialises");
        format!("{:016x}", fnv1a64(&json))
    }

    /// Stores the digest.
    pub fn seal(&mut self) {
        self.digest = self.compute_digest();
    }

    /// The plan as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("BUG: a plan serialises") + "\n"
    }

    /// Parses a plan and checks its format, version, digest and shape (shards in range,
    /// every subtree at the split depth).
    pub fn from_json(text: &[u8]) -> Result<Plan, String> {
        let value: serde_json::Value = serde_json::from_slice(text).map_err(|e| format!("not JSON ({e})"))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(PLAN_FORMAT) {
            return Err(format!("no \"format\": \"{PLAN_FORMAT}\" key"));
        }
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(PLAN_VERSION) => {}
            v => return Err(format!("version {v:?}, this build reads version {PLAN_VERSION}")),
        }
        let plan: Plan = serde_json::from_value(value).map_err(|e| e.to_string())?;
        let digest = plan.compute_digest();
        if plan.digest != digest {
            return Err(format!("digest {} does not match its contents ({digest}): the plan was edited", plan.digest));
        }
        if plan.shards == 0 {
            return Err("0 shards".to_string());
        }
        for (i, s) in plan.subtrees.iter().enumerate() {
            if s.shard == 0 || s.shard > plan.shards {
                return Err(format!("subtree {i} is assigned to shard {} of {}", s.shard, plan.shards));
            }
            if s.history.len() != plan.split_depth as usize {
                return Err(format!("subtree {i} is not at the split depth {}", plan.split_depth));
            }
        }
        Ok(plan)
    }

    /// Reads a plan file (`-` is standard input).
    pub fn read(path: &Path) -> Result<Plan, PlanError> {
        let bytes = read_bytes(path, PLAN_MAX_BYTES, "a plan")?;
        Plan::from_json(&bytes).map_err(|reason| PlanError::Invalid { path: path.to_path_buf(), reason })
    }

    /// Writes the plan atomically to a checked output path.
    pub fn write(&self, output: &OutputPath, stdout: &mut dyn std::io::Write) -> Result<(), PlanError> {
        Ok(output.write(self.to_json().as_bytes(), stdout)?)
    }

    /// The numbers (positions in [`Plan::subtrees`]) of the subtrees of `shard` (1-based).
    pub fn subtrees_of(&self, shard: u32) -> Vec<u32> {
        (0..self.subtrees.len() as u32).filter(|&i| self.subtrees[i as usize].shard == shard).collect()
    }
}

/// The value of a guess list's `format` key.
pub const GUESSES_FORMAT: &str = "mmtree-plan-guesses";

/// The guesses one shard chose at the roots of its subtrees: what refining a plan to the next
/// depth needs when the top is too much for one process.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanGuesses {
    /// Always [`GUESSES_FORMAT`].
    pub format: String,
    /// The digest of the plan whose subtrees these are.
    pub plan_digest: String,
    /// The shard, 1-based.
    pub shard: u32,
    /// Shards in the plan.
    pub shards: u32,
    /// `(number of the subtree in the plan, guess index, guess in the plan's symbols)`.
    pub guesses: Vec<(u32, u32, String)>,
    /// FNV-1a 64 of this JSON with `digest` empty.
    pub digest: String,
}

impl PlanGuesses {
    /// Stores the digest.
    pub fn seal(&mut self) {
        self.digest = self.compute_digest();
    }

    fn compute_digest(&self) -> String {
        let unsealed = PlanGuesses { digest: String::new(), ..self.clone() };
        format!("{:016x}", fnv1a64(&serde_json::to_vec(&unsealed).expect("BUG: guesses serialise")))
    }

    /// The list as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("BUG: guesses serialise") + "\n"
    }

    /// Reads a guess list, checking its format and digest.
    ///
    /// ```
    /// let mut g = mmtree_io::PlanGuesses {
    ///     format: "mmtree-plan-guesses".into(), plan_digest: "0".repeat(16), shard: 1, shards: 1,
    ///     guesses: vec![(0, 7, "1122".into())], digest: String::new(),
    /// };
    /// g.seal();
    /// let dir = std::env::temp_dir().join(format!("mmtree-guesses-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("g.json");
    /// std::fs::write(&path, g.to_json())?;
    /// assert_eq!(mmtree_io::PlanGuesses::read(&path).unwrap(), g);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(path: &Path) -> Result<PlanGuesses, PlanError> {
        let invalid = |reason: String| PlanError::Invalid { path: path.to_path_buf(), reason };
        let bytes = read_bytes(path, PLAN_MAX_BYTES, "a guess list")?;
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| invalid(format!("not JSON ({e})")))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(GUESSES_FORMAT) {
            return Err(invalid(format!("no \"format\": \"{GUESSES_FORMAT}\" key")));
        }
        let guesses: PlanGuesses = serde_json::from_value(value).map_err(|e| invalid(e.to_string()))?;
        if guesses.digest != guesses.compute_digest() {
            return Err(invalid("its digest does not match its contents: the file was edited".to_string()));
        }
        Ok(guesses)
    }
}
