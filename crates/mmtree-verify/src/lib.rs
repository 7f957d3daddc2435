//! The checker: is a tree file really a strategy tree for its game?
//!
//! In the spirit of varisat-checker, this crate trusts nothing from the builder and never
//! depends on it (`mmtree-strategy`). It reads a tree from its bytes (through `mmtree-io`) and
//! re-derives everything with the literal scorer [`mmtree_core::score_reference`]:
//!
//! * walking from the root with the full code set, each state's recorded candidate count is
//!   the size of the set the path leads to;
//! * each state's children are exactly the non-empty parts of its candidate set under its
//!   guess: one edge per feedback that occurs, no other;
//! * the winning feedback `(n,0)` occurs iff the guess is a candidate, and its edge leads to
//!   the leaf of that secret; every other edge leads to a state;
//! * every secret reaches exactly one leaf;
//! * the header's figures (secrets, max, total, histogram) and fixed first guess match.
//!
//! The first violation in preorder is reported with the path of rounds leading to it.
//!
//! ```
//! use mmtree_core::{CodeIndex, FeedbackIndex, Game, GameSpec, MemoryLimit, StrategyTree, Subtree};
//! use mmtree_io::{RuleInfo, TreeFile};
//! let game = Game::new(GameSpec::mastermind(1, 2))?;
//! let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
//! // Guess 1: (1,0) wins; (0,0) leaves {2}, solved by playing it.
//! let tree = StrategyTree::from_subtree(game, Subtree::Guess {
//!     guess: c(0),
//!     candidates: 2,
//!     children: vec![
//!         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
//!         (f(1), Subtree::Leaf(c(0))),
//!     ],
//! });
//! let bytes = TreeFile::new(tree, "12".into(), RuleInfo::new("minimax", "all", "smallest", true, None)).to_bytes();
//! let stats = mmtree_verify::verify_bytes(&bytes, MemoryLimit(1 << 30)).unwrap();
//! assert_eq!((stats.max, stats.total), (2, 3));
//! # Ok::<(), mmtree_core::GameError>(())
//! ```
#![deny(missing_docs)]

use std::fmt::Write as _;

use thiserror::Error;

use mmtree_core::{
    score_reference, Alphabet, Code, CodeIndex, CodeSpace, FeedbackIndex, FeedbackScheme, Game, GameError, MemoryLimit,
    Node, NodeId, Stats, StrategyTree,
};
use mmtree_io::{FormatError, TreeFile, TreeHeader};

/// The first way in which a file is not a strategy tree of its game.
///
/// Every variant about a node carries `path`: the rounds leading to it, e.g.
/// `1122 (1,0) → 1344 (0,2)`, or `root`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The bytes are not a readable tree file.
    #[error("unreadable tree file")]
    Format(#[source] FormatError),
    /// The game cannot be enumerated (e.g. too large for the memory limit).
    #[error("cannot enumerate the game")]
    Game(#[source] GameError),
    /// The header's symbols cannot write the game's codes.
    #[error("header symbols '{symbols}' cannot write the game's {k} colours")]
    Symbols {
        /// As stored.
        symbols: String,
        /// Colours of the game.
        k: u8,
    },
    /// The root is a leaf: no guess was played.
    #[error("at root: expected a guess, found a leaf")]
    RootLeaf,
    /// A recorded candidate count differs from the set the path leads to.
    #[error("at {path}: expected {expected} candidates, found {found} recorded")]
    CandidateCount {
        /// Rounds leading here.
        path: String,
        /// Size of the re-derived set.
        expected: usize,
        /// Recorded.
        found: u32,
    },
    /// A guess index outside the code space.
    #[error("at {path}: expected a code of the game as guess, found index {found} (the game has {codes} codes)")]
    NotACode {
        /// Rounds leading here.
        path: String,
        /// Recorded index.
        found: u32,
        /// `|H|`.
        codes: usize,
    },
    /// The children are not exactly the non-empty parts of the candidate set under the guess.
    #[error("at {path}, guess {guess}: expected children {expected}, found {found}")]
    Children {
        /// Rounds leading here.
        path: String,
        /// The guess played.
        guess: String,
        /// Non-empty parts, `feedback:size`.
        expected: String,
        /// Recorded edges, `feedback:recorded size`.
        found: String,
    },
    /// The winning edge does not lead to the leaf of the guess.
    #[error("at {path}: expected the leaf {expected}, found {found}")]
    Win {
        /// Rounds leading here (the winning round included).
        path: String,
        /// The secret that must be found.
        expected: String,
        /// What the edge leads to.
        found: String,
    },
    /// A leaf reached by a feedback other than `(n,0)`.
    #[error("at {path}: expected a state (the feedback does not win), found the leaf {found}")]
    EarlyLeaf {
        /// Rounds leading here.
        path: String,
        /// Its secret.
        found: String,
    },
    /// A secret whose leaf appears twice.
    #[error("at {path}: secret {secret} already has a leaf")]
    DuplicateLeaf {
        /// Rounds leading here.
        path: String,
        /// The secret.
        secret: String,
    },
    /// A secret that no leaf holds.
    #[error("secret {secret}: expected one leaf, found none")]
    Unreached {
        /// The secret.
        secret: String,
    },
    /// A recorded figure that the tree does not have.
    #[error("header figure '{field}': expected {expected}, found {found} recorded")]
    Figure {
        /// `secrets`, `max`, `total` or `histogram`.
        field: &'static str,
        /// Recomputed from the tree.
        expected: String,
        /// Recorded.
        found: String,
    },
    /// The recorded fixed first guess is not the one played.
    #[error("header rule: expected first guess {expected} (played at the root), found {found} recorded")]
    FirstGuess {
        /// Played at the root.
        expected: String,
        /// Recorded.
        found: String,
    },
}

/// Decodes `bytes` and checks them with [`verify`]; returns the re-derived figures.
pub fn verify_bytes(bytes: &[u8], limit: MemoryLimit) -> Result<Stats, VerifyError> {
    let file = TreeFile::from_bytes(bytes).map_err(VerifyError::Format)?;
    verify(&file, limit)
}

/// Checks a decoded file against its game, using only the reference scorer; returns the
/// re-derived figures, which equal the recorded ones.
pub fn verify(file: &TreeFile, limit: MemoryLimit) -> Result<Stats, VerifyError> {
    let game = *file.tree.game();
    let alphabet = Alphabet::new(&file.header.symbols)
        .ok()
        .filter(|a| a.len() >= game.k() as usize)
        .ok_or_else(|| VerifyError::Symbols { symbols: file.header.symbols.clone(), k: game.k() })?;
    // The space is used only to enumerate codes in lexicographic order; scoring below is
    // the literal definition.
    let space = CodeSpace::new(game, limit).map_err(VerifyError::Game)?;
    let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
    let scheme = FeedbackScheme::new(&game);
    let checker = Checker { game, tree: &file.tree, codes: &codes, scheme: &scheme, alphabet: &alphabet };
    let all: Vec<CodeIndex> = (0..codes.len() as u32).map(CodeIndex::from_index).collect();
    let stats = checker.walk(all)?;
    checker.check_header(&file.header, &stats)?;
    Ok(stats)
}

/// Checks the pieces of a tree that the jobs of a split build wrote: each must be a strategy
/// tree for the codes consistent with its history (rounds of `(guess, feedback)` indices,
/// scored with the reference scorer). Candidate sets of history prefixes are kept, so checking
/// many subtrees below the same nodes re-scores little.
///
/// ```
/// use mmtree_core::{Alphabet, CodeIndex, FeedbackIndex, Game, GameSpec, MemoryLimit, StrategyTree, Subtree};
/// use mmtree_verify::SubtreeChecker;
/// let game = Game::new(GameSpec::mastermind(1, 3))?;
/// let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
/// // After guessing 1 and hearing (0,0), the secret is 2 or 3: guess 2, then 3.
/// let sub = StrategyTree::from_subtree(game, Subtree::Guess {
///     guess: c(1),
///     candidates: 2,
///     children: vec![
///         (f(0), Subtree::Guess { guess: c(2), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(2)))] }),
///         (f(1), Subtree::Leaf(c(1))),
///     ],
/// });
/// let mut checker = SubtreeChecker::new(game, Alphabet::default(), MemoryLimit(1 << 30)).unwrap();
/// let stats = checker.check(&sub, &[(0, 0)]).unwrap();
/// assert_eq!((stats.secrets, stats.total), (2, 3));
/// // Below (1,0) nothing is left to find.
/// assert!(checker.check(&sub, &[(0, 1)]).is_err());
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub struct SubtreeChecker {
    game: Game,
    codes: Vec<Code>,
    scheme: FeedbackScheme,
    alphabet: Alphabet,
    prefixes: std::collections::HashMap<Vec<(u32, u8)>, Vec<CodeIndex>>,
}

impl SubtreeChecker {
    /// A checker for the subtrees of one game, naming codes with `alphabet`.
    pub fn new(game: Game, alphabet: Alphabet, limit: MemoryLimit) -> Result<SubtreeChecker, VerifyError> {
        if alphabet.len() < game.k() as usize {
            return Err(VerifyError::Symbols { symbols: alphabet.first(35), k: game.k() });
        }
        let space = CodeSpace::new(game, limit).map_err(VerifyError::Game)?;
        let codes: Vec<Code> = space.iter().map(|(_, c)| c).collect();
        Ok(SubtreeChecker { game, codes, scheme: FeedbackScheme::new(&game), alphabet, prefixes: Default::default() })
    }

    /// Checks one subtree below `history`; returns its figures (depths counted from its root).
    pub fn check(&mut self, subtree: &StrategyTree, history: &[(u32, u8)]) -> Result<Stats, VerifyError> {
        let candidates = self.candidates(history)?;
        let checker = Checker {
            game: self.game,
            tree: subtree,
            codes: &self.codes,
            scheme: &self.scheme,
            alphabet: &self.alphabet,
        };
        checker.walk(candidates)
    }

    /// The codes consistent with `history`, from the longest kept prefix.
    fn candidates(&mut self, history: &[(u32, u8)]) -> Result<Vec<CodeIndex>, VerifyError> {
        if history.is_empty() {
            return Ok((0..self.codes.len() as u32).map(CodeIndex::from_index).collect());
        }
        let (last, prefix) = history.split_last().expect("non-empty");
        if !self.prefixes.contains_key(prefix) {
            let set = self.candidates(prefix)?;
            self.prefixes.insert(prefix.to_vec(), set);
        }
        let (guess, feedback) = *last;
        let guess = self.codes.get(guess as usize).ok_or_else(|| VerifyError::NotACode {
            path: "the history".to_string(),
            found: guess,
            codes: self.codes.len(),
        })?;
        let (game, codes, scheme) = (&self.game, &self.codes, &self.scheme);
        Ok(self.prefixes[prefix]
            .iter()
            .copied()
            .filter(|&c| {
                let fb = score_reference(game, guess, &codes[c.get()]);
                scheme.index(fb).is_ok_and(|f| f.index() == feedback)
            })
            .collect())
    }
}

struct Checker<'a> {
    game: Game,
    tree: &'a StrategyTree,
    codes: &'a [Code],
    scheme: &'a FeedbackScheme,
    alphabet: &'a Alphabet,
}

impl Checker<'_> {
    fn name(&self, c: CodeIndex) -> String {
        match self.codes.get(c.get()) {
            Some(code) => self.alphabet.format(code),
            None => format!("#{}", c.index()),
        }
    }

    fn feedback_name(&self, f: FeedbackIndex) -> String {
        if f.get() < self.scheme.len() {
            self.scheme.format(f)
        } else {
            format!("#{}", f.index())
        }
    }

    /// The rounds leading to `id`, from the parent links.
    fn path(&self, parents: &[Option<(NodeId, FeedbackIndex)>], id: NodeId) -> String {
        let tree = self.tree;
        let mut rounds = Vec::new();
        let mut at = id;
        while let Some((parent, f)) = parents[at.0 as usize] {
            if let Node::Guess { guess, .. } = *tree.node(parent) {
                rounds.push(format!("{} {}", self.name(guess), self.feedback_name(f)));
            }
            at = parent;
        }
        if rounds.is_empty() {
            return "root".to_string();
        }
        rounds.reverse();
        rounds.join(" → ")
    }

    /// Preorder walk with explicit stack from the candidate set `all`; returns the figures of
    /// the leaves reached.
    fn walk(&self, all: Vec<CodeIndex>) -> Result<Stats, VerifyError> {
        let tree = self.tree;
        let nodes = tree.nodes();
        let win = self.scheme.win();
        let mut parents: Vec<Option<(NodeId, FeedbackIndex)>> = vec![None; nodes.len()];
        let mut found = vec![false; self.codes.len()];
        let mut histogram: Vec<u64> = Vec::new();
        if let Node::Leaf { .. } = nodes[0] {
            return Err(VerifyError::RootLeaf);
        }
        let wanted = all.clone();
        let mut stack: Vec<(NodeId, Vec<CodeIndex>, u32)> = vec![(tree.root(), all, 0)];
        while let Some((id, cands, depth)) = stack.pop() {
            let path = || self.path(&parents, id);
            let Node::Guess { guess, candidates, .. } = *tree.node(id) else {
                // Only reachable through a winning edge, checked at the parent.
                continue;
            };
            if candidates as usize != cands.len() {
                return Err(VerifyError::CandidateCount { path: path(), expected: cands.len(), found: candidates });
            }
            let Some(guess_code) = self.codes.get(guess.get()) else {
                return Err(VerifyError::NotACode { path: path(), found: guess.index(), codes: self.codes.len() });
            };
            // The partition, from the definition.
            let mut parts: Vec<Vec<CodeIndex>> = vec![Vec::new(); self.scheme.len()];
            for &c in &cands {
                let fb = score_reference(&self.game, guess_code, &self.codes[c.get()]);
                let f = self.scheme.index(fb).expect("the reference scorer gives feedbacks of the game");
                parts[f.get()].push(c);
            }
            let edges = tree.children(id);
            let mut seen = vec![false; self.scheme.len()];
            let exact = edges.len() == parts.iter().filter(|p| !p.is_empty()).count()
                && edges.iter().all(|e| {
                    e.feedback.get() < parts.len()
                        && !parts[e.feedback.get()].is_empty()
                        && !std::mem::replace(&mut seen[e.feedback.get()], true)
                });
            if !exact {
                let mut expected = String::new();
                for (f, p) in parts.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
                    let sep = if expected.is_empty() { "" } else { " " };
                    let _ =
                        write!(expected, "{sep}{}:{}", self.feedback_name(FeedbackIndex::from_index(f as u8)), p.len());
                }
                let mut found = String::new();
                for e in edges {
                    let size = match *tree.node(e.child) {
                        Node::Guess { candidates, .. } => candidates,
                        Node::Leaf { .. } => 1,
                    };
                    let sep = if found.is_empty() { "" } else { " " };
                    let _ = write!(found, "{sep}{}:{size}", self.feedback_name(e.feedback));
                }
                if found.is_empty() {
                    found.push_str("none");
                }
                return Err(VerifyError::Children { path: path(), guess: self.name(guess), expected, found });
            }
            for e in edges.iter().rev() {
                parents[e.child.0 as usize] = Some((id, e.feedback));
                let part = std::mem::take(&mut parts[e.feedback.get()]);
                let child_path = || self.path(&parents, e.child);
                match (*tree.node(e.child), e.feedback == win) {
                    (Node::Leaf { secret }, true) => {
                        if secret != guess {
                            return Err(VerifyError::Win {
                                path: child_path(),
                                expected: self.name(guess),
                                found: format!("the leaf {}", self.name(secret)),
                            });
                        }
                        if std::mem::replace(&mut found[secret.get()], true) {
                            return Err(VerifyError::DuplicateLeaf { path: child_path(), secret: self.name(secret) });
                        }
                        let d = depth as usize + 1;
                        if histogram.len() < d {
                            histogram.resize(d, 0);
                        }
                        histogram[d - 1] += 1;
                    }
                    (Node::Guess { guess: g, .. }, true) => {
                        return Err(VerifyError::Win {
                            path: child_path(),
                            expected: self.name(guess),
                            found: format!("a state playing {}", self.name(g)),
                        });
                    }
                    (Node::Leaf { secret }, false) => {
                        return Err(VerifyError::EarlyLeaf { path: child_path(), found: self.name(secret) });
                    }
                    (Node::Guess { .. }, false) => stack.push((e.child, part, depth + 1)),
                }
            }
            // Children are pushed in reverse so the walk (and the first error) is in preorder;
            // errors about the edges of this node come first, which is also preorder.
        }
        if let Some(&s) = wanted.iter().find(|s| !found[s.get()]) {
            return Err(VerifyError::Unreached { secret: self.name(s) });
        }
        let secrets = histogram.iter().sum();
        let total = histogram.iter().enumerate().map(|(d, &c)| (d as u64 + 1) * c).sum();
        Ok(Stats { secrets, total, max: histogram.len() as u32, histogram })
    }

    fn check_header(&self, header: &TreeHeader, stats: &Stats) -> Result<(), VerifyError> {
        let recorded = &header.stats;
        let figure = |field, expected: String, found: String| Err(VerifyError::Figure { field, expected, found });
        if recorded.secrets != stats.secrets {
            return figure("secrets", stats.secrets.to_string(), recorded.secrets.to_string());
        }
        if recorded.max != stats.max {
            return figure("max", stats.max.to_string(), recorded.max.to_string());
        }
        if recorded.total != stats.total {
            return figure("total", stats.total.to_string(), recorded.total.to_string());
        }
        if recorded.histogram != stats.histogram {
            return figure("histogram", format!("{:?}", stats.histogram), format!("{:?}", recorded.histogram));
        }
        if let (Some(fixed), Some(played)) = (&header.rule.first_guess, self.tree.first_guess()) {
            let played = self.name(played);
            if *fixed != played {
                return Err(VerifyError::FirstGuess { expected: played, found: fixed.clone() });
            }
        }
        Ok(())
    }
}
