//! The part file of one shard of a [`Plan`](crate::Plan): the subtrees a job built, tagged
//! with the plan's digest so that parts of different plans never mix.
//!
//! # Layout (part format version 1)
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic [`PART_MAGIC`] `MMTPART\x1a` |
//! | 4 | format version, `u32` little endian ([`PART_FORMAT_VERSION`]) |
//! | 8 | body length `L`, `u64` little endian |
//! | `L` | body: bincode 2 (standard config, varint integers) of the [`PartHeader`], then per subtree its number in the plan (`u32`), its node count (`u64`) and its nodes in preorder, encoded as in a tree file; then, in parts of exact searches only, the [`PartBounds`] of each subtree (a `u64` count, then each) |
//! | 8 | FNV-1a 64 of every byte before it, `u64` little endian |
//!
//! The bytes depend only on the plan and the shard, so a job run twice writes the same file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use mmtree_core::{format_bytes, MemoryLimit, Subtree};

use crate::input::{Input, InputError};
use crate::output::{write_atomic, OutputError};
use crate::tree_file::{body_error, check_len, decode_subtree, encode_subtree, fnv1a64, framed_len, FormatError};
use crate::tree_file::{CHECKSUM, HEADER_LIMIT, MEMORY_PER_BYTE, PREFIX};

/// The first 8 bytes of every part file.
pub const PART_MAGIC: [u8; 8] = *b"MMTPART\x1a";
/// The part format version this build writes and reads.
pub const PART_FORMAT_VERSION: u32 = 1;

/// Which plan and shard a part belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartHeader {
    /// The kind of job that wrote it (`tree`: whole subtrees).
    pub kind: String,
    /// The digest of the plan ([`Plan::digest`](crate::Plan)).
    pub plan_digest: String,
    /// The shard, 1-based.
    pub shard: u32,
    /// Shards in the plan.
    pub shards: u32,
}

/// What an exact search proved about one part: its optimum, or a bracket on it when a limit
/// stopped the search (costs count from the guess after the part's history on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartBounds {
    /// Whether the subtree is proven optimal (then both bounds are its total).
    pub exact: bool,
    /// A proven lower bound on the part's optimum.
    pub lower: u64,
    /// The total of the subtree stored with it.
    pub upper: u64,
}

/// A shard's subtrees, each with its number in the plan's list of subtrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartFile {
    /// Plan and shard.
    pub header: PartHeader,
    /// `(number in the plan, subtree)`, in the plan's order.
    pub subtrees: Vec<(u32, Subtree)>,
    /// Parts of exact searches: the bounds of each subtree, in the same order (empty in parts
    /// of trees built under a rule).
    pub bounds: Vec<PartBounds>,
}

/// A part file that could not be read or written, naming the file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PartFileError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] InputError),
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] OutputError),
    /// The file's contents are not a part file.
    #[error("'{}' is not a valid part file", path.display())]
    Format {
        /// File.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: FormatError,
    },
}

impl PartFileError {
    /// True when the user gave a bad file or path (exit code 2), false for an I/O failure.
    pub fn is_bad_input(&self) -> bool {
        match self {
            PartFileError::Read(e) => e.is_bad_input(),
            PartFileError::Write(e) => e.is_bad_input(),
            PartFileError::Format { .. } => true,
        }
    }
}

impl PartFile {
    /// The complete file contents.
    ///
    /// ```
    /// use mmtree_core::{CodeIndex, FeedbackIndex, Subtree};
    /// use mmtree_io::{PartFile, PartHeader};
    /// let header = PartHeader { kind: "tree".into(), plan_digest: "0123456789abcdef".into(), shard: 1, shards: 1 };
    /// let leaf = Subtree::Guess {
    ///     guess: CodeIndex::from_index(3),
    ///     candidates: 1,
    ///     children: vec![(FeedbackIndex::from_index(4), Subtree::Leaf(CodeIndex::from_index(3)))],
    /// };
    /// let part = PartFile { header, subtrees: vec![(7, leaf)], bounds: vec![] };
    /// assert_eq!(PartFile::from_bytes(&part.to_bytes()).unwrap(), part);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let config = bincode::config::standard();
        let mut body = bincode::serde::encode_to_vec(&self.header, config).expect("BUG: header encodes");
        body.extend(bincode::serde::encode_to_vec(self.subtrees.len() as u64, config).expect("BUG: count encodes"));
        let mut nodes = Vec::new();
        for (number, subtree) in &self.subtrees {
            nodes.clear();
            let count = encode_subtree(subtree, &mut nodes);
            body.extend(bincode::serde::encode_to_vec(number, config).expect("BUG: number encodes"));
            body.extend(bincode::serde::encode_to_vec(count, config).expect("BUG: count encodes"));
            body.extend_from_slice(&nodes);
        }
        if !self.bounds.is_empty() {
            body.extend(bincode::serde::encode_to_vec(&self.bounds, config).expect("BUG: bounds encode"));
        }
        let mut out = Vec::with_capacity(PREFIX + body.len() + CHECKSUM);
        out.extend_from_slice(&PART_MAGIC);
        out.extend_from_slice(&PART_FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Decodes a complete file (magic, version, length and checksum checked first).
    pub fn from_bytes(bytes: &[u8]) -> Result<PartFile, FormatError> {
        let body = body(bytes)?;
        let limited = bincode::config::standard().with_limit::<HEADER_LIMIT>();
        let (header, mut pos): (PartHeader, usize) =
            bincode::serde::decode_from_slice(body, limited).map_err(|e| body_error("the header", e))?;
        let number = |pos: &mut usize, what: &str| -> Result<u64, FormatError> {
            let (value, used): (u64, usize) =
                bincode::serde::decode_from_slice(&body[*pos..], limited).map_err(|e| body_error(what, e))?;
            *pos += used;
            Ok(value)
        };
        let count = number(&mut pos, "the subtree count")?;
        // Every subtree takes at least 4 bytes: a larger count is a lie, refused before allocating.
        if count > (body.len() - pos) as u64 / 4 {
            return Err(FormatError::Body(format!("{count} subtrees cannot fit in {} bytes", body.len() - pos)));
        }
        let mut subtrees = Vec::with_capacity(count as usize);
        for s in 0..count {
            let place = format!("subtree {s}");
            let number_in_plan = number(&mut pos, &place)?;
            let id = u32::try_from(number_in_plan)
                .map_err(|_| FormatError::Body(format!("{place}: number {number_in_plan} is out of range")))?;
            let nodes = number(&mut pos, &place)?;
            if nodes == 0 || nodes > (body.len() - pos) as u64 / 2 {
                return Err(FormatError::Body(format!(
                    "{place}: {nodes} nodes cannot fit in {} bytes",
                    body.len() - pos
                )));
            }
            subtrees.push((id, decode_subtree(body, &mut pos, nodes, &place)?));
        }
        let mut bounds = Vec::new();
        if pos != body.len() {
            // At least 3 bytes per entry: a larger count is refused before allocating.
            let count = number(&mut pos, "the bounds")?;
            if count != subtrees.len() as u64 || count > (body.len() - pos) as u64 / 3 {
                return Err(FormatError::Body(format!("{count} bounds for {} subtrees", subtrees.len())));
            }
            for b in 0..count {
                let (entry, used): (PartBounds, usize) = bincode::serde::decode_from_slice(&body[pos..], limited)
                    .map_err(|e| body_error(&format!("the bounds of subtree {b}"), e))?;
                if entry.lower > entry.upper || entry.exact != (entry.lower == entry.upper) {
                    return Err(FormatError::Body(format!("subtree {b}: bounds {} and {}", entry.lower, entry.upper)));
                }
                pos += used;
                bounds.push(entry);
            }
        }
        if pos != body.len() {
            return Err(FormatError::Body(format!("{} bytes left after the last subtree", body.len() - pos)));
        }
        Ok(PartFile { header, subtrees, bounds })
    }

    /// Reads and decodes a file whose decoded size fits `limit`.
    pub fn read(path: &Path, limit: MemoryLimit) -> Result<PartFile, PartFileError> {
        let format = |source| PartFileError::Format { path: path.to_path_buf(), source };
        let mut input = Input::open(path)?;
        let mut bytes = input.read_up_to(PREFIX as u64)?;
        let expected = expected_len(&bytes).map_err(format)?;
        if let Some(size) = input.size() {
            check_len(size, expected).map_err(format)?;
        }
        let bound = limit.0 / MEMORY_PER_BYTE;
        if expected > bound {
            let what = format!("a part file within the memory limit of {}", format_bytes(limit.0.into()));
            return Err(InputError::TooLarge { path: path.to_path_buf(), limit: bound, what }.into());
        }
        bytes.extend(input.read_up_to(expected + 1 - bytes.len() as u64)?);
        PartFile::from_bytes(&bytes).map_err(format)
    }

    /// Writes the file atomically: an interrupted job leaves no partial part.
    pub fn write(&self, path: &Path) -> Result<(), PartFileError> {
        Ok(write_atomic(path, &self.to_bytes())?)
    }
}

/// Checks magic, version and the announced length; the whole file's length.
fn expected_len(bytes: &[u8]) -> Result<u64, FormatError> {
    framed_len(bytes, &PART_MAGIC, PART_FORMAT_VERSION)
}

/// The body of a complete file, after every check of the frame.
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

#[cfg(test)]
mod tests {
    use super::*;
    use mmtree_core::{CodeIndex, FeedbackIndex};

    fn sample() -> PartFile {
        let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
        let two = Subtree::Guess {
            guess: c(0),
            candidates: 2,
            children: vec![
                (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
                (f(1), Subtree::Leaf(c(0))),
            ],
        };
        let header = PartHeader { kind: "tree".into(), plan_digest: "00ff00ff00ff00ff".into(), shard: 2, shards: 3 };
        PartFile { header, subtrees: vec![(0, two.clone()), (5, two)], bounds: vec![] }
    }

    #[test]
    fn bounds_round_trip() {
        let mut part = sample();
        part.header.kind = "optimal".into();
        part.bounds =
            vec![PartBounds { exact: true, lower: 5, upper: 5 }, PartBounds { exact: false, lower: 4, upper: 5 }];
        let bytes = part.to_bytes();
        assert_eq!(PartFile::from_bytes(&bytes).unwrap(), part);
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(PartFile::from_bytes(&bad).is_err(), "flip at {i}");
        }
    }

    #[test]
    fn round_trip_truncation_and_flips() {
        let part = sample();
        let bytes = part.to_bytes();
        assert_eq!(PartFile::from_bytes(&bytes).unwrap(), part);
        for len in 0..bytes.len() {
            assert!(PartFile::from_bytes(&bytes[..len]).is_err(), "prefix of {len} bytes");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(PartFile::from_bytes(&bad).is_err(), "flip at {i}");
        }
    }

    #[test]
    fn a_tree_file_is_not_a_part() {
        assert_eq!(PartFile::from_bytes(b"MMTREE\0\x1a0123456789abcdef"), Err(FormatError::Magic));
    }
}
