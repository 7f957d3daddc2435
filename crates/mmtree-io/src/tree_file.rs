//! The `.mmt` tree file: a header naming the game and the rule, a compact bincode body, and a
//! checksum.
//!
//! # Layout (format version 1)
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic [`MAGIC`] `MMTREE\0\x1a` |
//! | 4 | format version, `u32` little endian ([`FORMAT_VERSION`]) |
//! | 8 | body length `L`, `u64` little endian |
//! | `L` | body: bincode 2 (standard config, varint integers) of the [`TreeHeader`], then the node count (`u64`), then the nodes in preorder |
//! | 8 | FNV-1a 64 of every byte before it, `u64` little endian |
//!
//! A node is either `Guess { guess, candidates, feedbacks }` (its children follow in
//! preorder, one per listed feedback) or `Leaf { secret }`. Edges and child positions are
//! implied by the preorder, which halves the size of the arena form. Any arrangement of
//! values can be stored, so a checker (`mmtree-verify`) still has something to check.
//!
//! Reading never trusts a length: the magic bytes are checked first, the body length must match
//! the file and fit the memory limit before the body is read, every bincode read is bounded by
//! `with_limit`, node vectors grow only as nodes are actually decoded, and the game the header
//! claims must fit the memory limit and be covered by the nodes before anyone allocates for it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use mmtree_core::{
    CodeIndex, Edge, FeedbackIndex, Game, GameError, GameSpec, Node, NodeId, Stats, StrategyTree, Subtree,
};
use mmtree_core::{MemoryLimit, TreeShapeError, MAX_FEEDBACKS};

use crate::input::{Input, InputError};
use crate::output::{write_atomic, OutputError};

/// The first 8 bytes of every tree file.
pub const MAGIC: [u8; 8] = *b"MMTREE\0\x1a";
/// The format version this build writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

pub(crate) const PREFIX: usize = 8 + 4 + 8;
pub(crate) const CHECKSUM: usize = 8;
/// Most bytes one header may occupy when decoded.
pub(crate) const HEADER_LIMIT: usize = 1 << 16;
/// Most bytes one node may occupy when decoded (a guess lists at most `MAX_FEEDBACKS` edges).
const NODE_LIMIT: usize = 64 + MAX_FEEDBACKS;
/// Memory one byte of a file may take once decoded: a 2-byte leaf becomes a 16-byte node, an
/// 8-byte edge and the shape check's flags.
pub(crate) const MEMORY_PER_BYTE: u64 = 16;

/// The rule that built a tree, as plain data (io does not know the builder's types).
///
/// ```
/// let rule = mmtree_io::RuleInfo::new("minimax", "all", "smallest", true, None);
/// assert_eq!(rule.valuation, "minimax");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleInfo {
    /// Valuation name, e.g. `minimax`.
    pub valuation: String,
    /// Guess pool, `all` or `candidates`.
    pub pool: String,
    /// Tie order, `smallest` or `largest`.
    pub ties: String,
    /// Whether candidates are preferred among equally good guesses.
    pub prefer_candidates: bool,
    /// The fixed first guess as written (e.g. `1122`), if the rule had one.
    pub first_guess: Option<String>,
}

impl RuleInfo {
    /// All fields at once.
    pub fn new(
        valuation: &str,
        pool: &str,
        ties: &str,
        prefer_candidates: bool,
        first_guess: Option<String>,
    ) -> RuleInfo {
        RuleInfo {
            valuation: valuation.to_string(),
            pool: pool.to_string(),
            ties: ties.to_string(),
            prefer_candidates,
            first_guess,
        }
    }
}

/// What a tree file says about its tree: the game, how codes are written, the rule and the
/// recorded figures (so `stats` needs no recomputation and `verify` has claims to check).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeHeader {
    /// The game (validated again on reading).
    pub game: GameSpec,
    /// The symbols of colours `1..k` (e.g. `123456`).
    pub symbols: String,
    /// The rule that built the tree.
    pub rule: RuleInfo,
    /// The recorded figures.
    pub stats: Stats,
}

/// A tree with its header: what a `.mmt` file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeFile {
    /// Game, rule, figures.
    pub header: TreeHeader,
    /// The tree (its game equals the header's).
    pub tree: StrategyTree,
}

/// Why bytes are not a readable tree file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// Fewer bytes than the layout needs.
    #[error("truncated: {len} bytes, expected {expected}")]
    Truncated {
        /// Actual length.
        len: u64,
        /// Length the prefix announces (or the minimum).
        expected: u64,
    },
    /// More bytes than the layout announces.
    #[error("{extra} unexpected bytes after the checksum")]
    Trailing {
        /// Surplus bytes.
        extra: u64,
    },
    /// Not an mmtree tree file at all.
    #[error("not an mmtree tree file (wrong magic bytes)")]
    Magic,
    /// Written by a newer (or unknown) version.
    #[error("format version {found} is not supported (this mmtree reads version {supported}); upgrade mmtree")]
    Version {
        /// Version in the file.
        found: u32,
        /// Newest supported.
        supported: u32,
    },
    /// The bytes were changed after writing.
    #[error("checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt")]
    Checksum {
        /// Stored.
        stored: u64,
        /// Computed.
        computed: u64,
    },
    /// The body does not decode.
    #[error("corrupt body: {0}")]
    Body(String),
    /// The header names an impossible game.
    #[error("invalid game in header")]
    Game(#[source] GameError),
    /// The nodes do not form a tree.
    #[error("the nodes do not form a tree")]
    Shape(#[source] TreeShapeError),
    /// Fewer nodes than the game has codes: no strategy tree of the game is that small.
    #[error("{nodes} nodes cannot hold a strategy tree of {game}, which has {codes} codes (one leaf each)")]
    TooFewNodes {
        /// Nodes in the file.
        nodes: u64,
        /// The header's game.
        game: String,
        /// Its number of codes.
        codes: u128,
    },
}

/// A tree file that could not be read or written, naming the file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TreeFileError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] InputError),
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] OutputError),
    /// The file's contents are not a tree file.
    #[error("'{}' is not a valid tree file", path.display())]
    Format {
        /// File.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: FormatError,
    },
    /// The header's game is larger than the memory limit allows.
    #[error("'{}'", path.display())]
    Memory {
        /// File.
        path: PathBuf,
        /// The game and the limit.
        #[source]
        source: GameError,
    },
}

impl TreeFileError {
    /// True when the user gave a bad file or path (exit code 2), false for an I/O failure.
    pub fn is_bad_input(&self) -> bool {
        match self {
            TreeFileError::Read(e) => e.is_bad_input(),
            TreeFileError::Write(e) => e.is_bad_input(),
            TreeFileError::Format { .. } | TreeFileError::Memory { .. } => true,
        }
    }
}

/// One node in the stored preorder.
#[derive(Serialize, Deserialize)]
enum WireNode {
    Guess { guess: u32, candidates: u32, feedbacks: Vec<u8> },
    Leaf { secret: u32 },
}

/// Appends a subtree's nodes in preorder, as a tree file stores them; returns their number.
pub(crate) fn encode_subtree(sub: &Subtree, out: &mut Vec<u8>) -> u64 {
    let config = bincode::config::standard();
    match sub {
        Subtree::Leaf(secret) => {
            out.extend(
                bincode::serde::encode_to_vec(WireNode::Leaf { secret: secret.index() }, config)
                    .expect("BUG: node encodes"),
            );
            1
        }
        Subtree::Guess { guess, candidates, children } => {
            let wire = WireNode::Guess {
                guess: guess.index(),
                candidates: *candidates,
                feedbacks: children.iter().map(|(f, _)| f.index()).collect(),
            };
            out.extend(bincode::serde::encode_to_vec(&wire, config).expect("BUG: node encodes"));
            1 + children.iter().map(|(_, child)| encode_subtree(child, out)).sum::<u64>()
        }
    }
}

/// Decodes `count` nodes in preorder from `body[*pos..]` into one subtree (without recursion,
/// so no file can exhaust the stack); `place` names the subtree in errors.
pub(crate) fn decode_subtree(body: &[u8], pos: &mut usize, count: u64, place: &str) -> Result<Subtree, FormatError> {
    let limited = bincode::config::standard().with_limit::<NODE_LIMIT>();
    // Open guesses: (guess, candidates, feedbacks, children decoded so far).
    type Open = (CodeIndex, u32, Vec<u8>, Vec<(FeedbackIndex, Subtree)>);
    let mut open: Vec<Open> = Vec::new();
    for i in 0..count {
        let (wire, used): (WireNode, usize) = bincode::serde::decode_from_slice(&body[*pos..], limited)
            .map_err(|e| body_error(&format!("{place}, node {i}"), e))?;
        *pos += used;
        let mut done = match wire {
            WireNode::Leaf { secret } => Subtree::Leaf(CodeIndex::from_index(secret)),
            WireNode::Guess { guess, candidates, feedbacks } => {
                if feedbacks.is_empty() || feedbacks.len() > MAX_FEEDBACKS {
                    return Err(FormatError::Body(format!("{place}, node {i} has {} children", feedbacks.len())));
                }
                let n = feedbacks.len();
                open.push((CodeIndex::from_index(guess), candidates, feedbacks, Vec::with_capacity(n)));
                continue;
            }
        };
        // Attach the finished subtree to its parent, closing every parent it completes.
        loop {
            let Some(parent) = open.last_mut() else {
                if i + 1 != count {
                    return Err(FormatError::Body(format!(
                        "{place}: node {} comes after the subtree is complete",
                        i + 1
                    )));
                }
                return Ok(done);
            };
            let feedback = FeedbackIndex::from_index(parent.2[parent.3.len()]);
            parent.3.push((feedback, done));
            if parent.3.len() < parent.2.len() {
                break;
            }
            let (guess, candidates, _, children) = open.pop().expect("an open guess");
            done = Subtree::Guess { guess, candidates, children };
        }
    }
    Err(FormatError::Body(format!("{place}: children missing after the last node")))
}

/// FNV-1a, 64 bits: every single-byte change alters it (each step is a bijection).
///
/// ```
/// assert_eq!(mmtree_io::fnv1a64(b""), 0xcbf29ce484222325);
/// assert_eq!(mmtree_io::fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
/// ```
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A decoding error in words, with where it happened (`the header`, `node 17`).
pub(crate) fn body_error(place: &str, e: bincode::error::DecodeError) -> FormatError {
    use bincode::error::DecodeError as E;
    let words = match e {
        E::UnexpectedEnd { .. } => "the data ends in the middle of a value".to_string(),
        E::LimitExceeded => "a value is longer than any valid one".to_string(),
        E::InvalidIntegerType { .. } | E::OutsideUsizeRange(_) => "a number is out of range".to_string(),
        E::Utf8 { .. } | E::InvalidCharEncoding(_) => "text that is not UTF-8".to_string(),
        E::InvalidBooleanValue(v) => format!("a yes/no flag holds {v} instead of 0 or 1"),
        E::UnexpectedVariant { found, .. } => format!("unknown kind number {found}"),
        // serde's words for an enum tag out of range: "invalid value: integer `5`, expected variant index 0 <= i < 2".
        E::OtherString(text) if text.contains("expected variant index") => {
            let found = text.split('`').nth(1).unwrap_or("?");
            format!("unknown kind number {found}")
        }
        E::OtherString(text) => text,
        E::Other(text) => text.to_string(),
        _ => "the bytes do not decode".to_string(),
    };
    FormatError::Body(format!("{place}: {words}"))
}

/// Checks the magic bytes, the version and the announced body length in the first bytes of a
/// tree file, and returns the whole file's length (magic first: any other file is refused at
/// once).
fn expected_len(bytes: &[u8]) -> Result<u64, FormatError> {
    framed_len(bytes, &MAGIC, FORMAT_VERSION)
}

/// [`expected_len`] for any file framed like a tree file (magic, version, body length, body,
/// checksum), such as a part file of a split tree.
pub(crate) fn framed_len(bytes: &[u8], magic: &[u8; 8], format_version: u32) -> Result<u64, FormatError> {
    let len = bytes.len() as u64;
    if bytes.len() < magic.len() || bytes[..magic.len()] != magic[..] {
        // A short file that is a prefix of the magic is a truncated file of this kind.
        if bytes.len() < magic.len() && magic.starts_with(bytes) {
            return Err(FormatError::Truncated { len, expected: (PREFIX + CHECKSUM) as u64 });
        }
        return Err(FormatError::Magic);
    }
    if bytes.len() < PREFIX {
        return Err(FormatError::Truncated { len, expected: (PREFIX + CHECKSUM) as u64 });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != format_version {
        return Err(FormatError::Version { found: version, supported: format_version });
    }
    let body_len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    Ok(body_len.saturating_add((PREFIX + CHECKSUM) as u64))
}

/// Compares a file's length with the length its prefix announces.
pub(crate) fn check_len(len: u64, expected: u64) -> Result<(), FormatError> {
    if len < expected {
        return Err(FormatError::Truncated { len, expected });
    }
    if len > expected {
        return Err(FormatError::Trailing { extra: len - expected });
    }
    Ok(())
}

impl TreeFile {
    /// Pairs a tree with its header, recording the tree's figures.
    pub fn new(tree: StrategyTree, symbols: String, rule: RuleInfo) -> TreeFile {
        let header = TreeHeader { game: tree.game().spec(), symbols, rule, stats: tree.stats() };
        TreeFile { header, tree }
    }

    /// The complete file contents.
    ///
    /// ```
    /// use mmtree_core::{CodeIndex, FeedbackIndex, Game, GameSpec, StrategyTree, Subtree};
    /// use mmtree_io::{RuleInfo, TreeFile};
    /// let game = Game::new(GameSpec::mastermind(1, 2))?;
    /// let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
    /// let tree = StrategyTree::from_subtree(game, Subtree::Guess {
    ///     guess: c(0),
    ///     candidates: 2,
    ///     children: vec![
    ///         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
    ///         (f(1), Subtree::Leaf(c(0))),
    ///     ],
    /// });
    /// let file = TreeFile::new(tree, "12".into(), RuleInfo::new("minimax", "all", "smallest", true, None));
    /// let bytes = file.to_bytes();
    /// assert_eq!(TreeFile::from_bytes(&bytes).unwrap(), file);
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let config = bincode::config::standard();
        let mut body = bincode::serde::encode_to_vec(&self.header, config).expect("BUG: header encodes");
        let nodes = self.tree.nodes();
        body.extend(bincode::serde::encode_to_vec(nodes.len() as u64, config).expect("BUG: count encodes"));
        for (i, node) in nodes.iter().enumerate() {
            let wire = match *node {
                Node::Guess { guess, candidates, .. } => WireNode::Guess {
                    guess: guess.index(),
                    candidates,
                    feedbacks: self.tree.children(NodeId(i as u32)).iter().map(|e| e.feedback.index()).collect(),
                },
                Node::Leaf { secret } => WireNode::Leaf { secret: secret.index() },
            };
            body.extend(bincode::serde::encode_to_vec(&wire, config).expect("BUG: node encodes"));
        }
        let mut out = Vec::with_capacity(PREFIX + body.len() + CHECKSUM);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Checks magic, version, length and checksum and returns the body.
    fn body(bytes: &[u8]) -> Result<&[u8], FormatError> {
        let expected = expected_len(bytes)?;
        check_len(bytes.len() as u64, expected)?;
        let end = expected as usize - CHECKSUM;
        let stored = u64::from_le_bytes(bytes[end..end + CHECKSUM].try_into().expect("8 bytes"));
        let computed = fnv1a64(&bytes[..end]);
        if stored != computed {
            return Err(FormatError::Checksum { stored, computed });
        }
        Ok(&bytes[PREFIX..end])
    }

    /// Reads only the header (after checking the whole file's checksum).
    pub fn header_from_bytes(bytes: &[u8]) -> Result<TreeHeader, FormatError> {
        Ok(decode_header(Self::body(bytes)?)?.0)
    }

    /// Decodes a complete file, checking that its nodes form a tree of the header's game.
    pub fn from_bytes(bytes: &[u8]) -> Result<TreeFile, FormatError> {
        let body = Self::body(bytes)?;
        let (header, mut pos) = decode_header(body)?;
        let game = Game::new(header.game).map_err(FormatError::Game)?;
        let limited = bincode::config::standard().with_limit::<NODE_LIMIT>();
        let (count, used): (u64, usize) =
            bincode::serde::decode_from_slice(&body[pos..], limited).map_err(|e| body_error("the node count", e))?;
        pos += used;
        // Every node takes at least 2 bytes, so a larger count is a lie: no big allocation.
        let remaining = (body.len() - pos) as u64;
        if count > remaining / 2 {
            return Err(FormatError::Body(format!("{count} nodes cannot fit in {remaining} bytes")));
        }
        let mut nodes = Vec::with_capacity(count as usize);
        let mut edges: Vec<Edge> = Vec::with_capacity(count.saturating_sub(1) as usize);
        // Edges still waiting for their child, the next one on top.
        let mut pending: Vec<usize> = Vec::new();
        for i in 0..count {
            let (wire, used): (WireNode, usize) = bincode::serde::decode_from_slice(&body[pos..], limited)
                .map_err(|e| body_error(&format!("node {i}"), e))?;
            pos += used;
            if i > 0 {
                match pending.pop() {
                    Some(e) => edges[e].child = NodeId(i as u32),
                    None => return Err(FormatError::Body(format!("node {i} comes after the tree is complete"))),
                }
            }
            match wire {
                WireNode::Leaf { secret } => nodes.push(Node::Leaf { secret: CodeIndex::from_index(secret) }),
                WireNode::Guess { guess, candidates, feedbacks } => {
                    if feedbacks.len() > MAX_FEEDBACKS {
                        return Err(FormatError::Body(format!("node {i} has {} children", feedbacks.len())));
                    }
                    let first_edge = edges.len();
                    edges.extend(
                        feedbacks.iter().map(|&f| Edge { feedback: FeedbackIndex::from_index(f), child: NodeId(0) }),
                    );
                    pending.extend((first_edge..edges.len()).rev());
                    nodes.push(Node::Guess {
                        guess: CodeIndex::from_index(guess),
                        candidates,
                        first_edge: first_edge as u32,
                        edge_count: feedbacks.len() as u8,
                    });
                }
            }
        }
        if !pending.is_empty() {
            return Err(FormatError::Body(format!("{} children missing after the last node", pending.len())));
        }
        if pos != body.len() {
            return Err(FormatError::Body(format!("{} bytes left after the last node", body.len() - pos)));
        }
        let tree = StrategyTree::from_parts(game, nodes, edges).map_err(FormatError::Shape)?;
        Ok(TreeFile { header, tree })
    }

    /// Writes the file (see [`write_atomic`]): an existing file is replaced only by a complete
    /// new one.
    pub fn write(&self, path: &Path) -> Result<(), TreeFileError> {
        Ok(write_atomic(path, &self.to_bytes())?)
    }

    /// Reads and decodes a file within a memory limit: the magic bytes are checked before
    /// anything else is read, the announced length against the file's size and the limit
    /// before the body is read, and the header's game against the limit and the node count
    /// before it is returned. `-` is standard input.
    pub fn read(path: &Path, limit: MemoryLimit) -> Result<TreeFile, TreeFileError> {
        let format = |source| TreeFileError::Format { path: path.to_path_buf(), source };
        let mut input = Input::open(path)?;
        let mut bytes = input.read_up_to(PREFIX as u64)?;
        let expected = expected_len(&bytes).map_err(format)?;
        if let Some(size) = input.size() {
            check_len(size, expected).map_err(format)?;
        }
        let bound = limit.0 / MEMORY_PER_BYTE;
        if expected > bound {
            let what = format!("a tree file within the memory limit of {}", mmtree_core::format_bytes(limit.0.into()));
            return Err(InputError::TooLarge { path: path.to_path_buf(), limit: bound, what }.into());
        }
        // One byte more than announced, so trailing bytes of a stream are seen.
        bytes.extend(input.read_up_to(expected + 1 - bytes.len() as u64)?);
        let file = TreeFile::from_bytes(&bytes).map_err(format)?;
        let game = file.tree.game();
        limit.check(game).map_err(|source| TreeFileError::Memory { path: path.to_path_buf(), source })?;
        let nodes = file.tree.nodes().len() as u64;
        if u128::from(nodes) < game.code_count() {
            return Err(format(FormatError::TooFewNodes { nodes, game: game.to_string(), codes: game.code_count() }));
        }
        Ok(file)
    }
}

fn decode_header(body: &[u8]) -> Result<(TreeHeader, usize), FormatError> {
    let limited = bincode::config::standard().with_limit::<HEADER_LIMIT>();
    bincode::serde::decode_from_slice(body, limited).map_err(|e| body_error("the header", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TreeFile {
        let game = Game::new(GameSpec::mastermind(1, 2)).unwrap();
        let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
        let tree = StrategyTree::from_subtree(
            game,
            Subtree::Guess {
                guess: c(0),
                candidates: 2,
                children: vec![
                    (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
                    (f(1), Subtree::Leaf(c(0))),
                ],
            },
        );
        TreeFile::new(tree, "12".into(), RuleInfo::new("minimax", "all", "smallest", true, None))
    }

    #[test]
    fn round_trip_and_every_truncation_fails() {
        let file = sample();
        let bytes = file.to_bytes();
        assert_eq!(TreeFile::from_bytes(&bytes).unwrap(), file);
        for len in 0..bytes.len() {
            assert!(
                matches!(TreeFile::from_bytes(&bytes[..len]), Err(FormatError::Truncated { .. })),
                "prefix of {len} bytes"
            );
        }
    }

    #[test]
    fn every_single_byte_flip_is_detected() {
        let bytes = sample().to_bytes();
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(TreeFile::from_bytes(&bad).is_err(), "flip at {i}");
        }
    }

    #[test]
    fn magic_and_version() {
        let mut bytes = sample().to_bytes();
        assert_eq!(TreeFile::from_bytes(b"{\"not\": \"a tree\"}\n"), Err(FormatError::Magic));
        bytes[8] = 2;
        assert_eq!(TreeFile::from_bytes(&bytes), Err(FormatError::Version { found: 2, supported: 1 }));
    }

    #[test]
    fn huge_node_count_is_refused_without_allocating() {
        // A well-formed file (valid checksum) whose body claims 2^60 nodes.
        let file = sample();
        let config = bincode::config::standard();
        let mut body = bincode::serde::encode_to_vec(&file.header, config).unwrap();
        body.extend(bincode::serde::encode_to_vec(1u64 << 60, config).unwrap());
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(TreeFile::from_bytes(&out), Err(FormatError::Body(_))));
    }
}
