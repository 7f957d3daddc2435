//! Input files: every file mmtree reads is opened the same way and read with a bound.
//!
//! `-` is standard input. A directory, a missing file or an unreadable one is refused with
//! its name; nothing is read past a bound fixed by the caller (from the memory limit or the
//! kind of file), so `/dev/zero` or a huge file cannot exhaust memory; text must be UTF-8
//! (a leading byte-order mark is dropped).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

use mmtree_core::format_bytes;

/// Why an input file could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum InputError {
    /// No file at the path.
    #[error("cannot read {}: no such file", named(path))]
    Missing {
        /// The path.
        path: PathBuf,
    },
    /// A directory where a file was expected.
    #[error("cannot read {}: it is a directory, not a file", named(path))]
    Directory {
        /// The path.
        path: PathBuf,
    },
    /// The file cannot be opened (permissions, a file used as a directory...).
    #[error("cannot read {}", named(path))]
    Open {
        /// The path.
        path: PathBuf,
        /// Cause.
        #[source]
        source: std::io::Error,
    },
    /// More bytes than the bound the caller set for this kind of file.
    #[error("{} is larger than {}, the most mmtree reads as {what}", named(path), format_bytes(u128::from(*limit)))]
    TooLarge {
        /// The path.
        path: PathBuf,
        /// The bound, in bytes.
        limit: u64,
        /// The kind of file, e.g. `a tree file`.
        what: String,
    },
    /// A line longer than the caller's bound (e.g. `/dev/zero` on standard input).
    #[error("{}: line {line} is longer than {max} bytes", named(path))]
    LongLine {
        /// The path (`-` for standard input).
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The bound.
        max: u64,
    },
    /// Text that is not UTF-8.
    #[error("{} is not UTF-8 text (invalid bytes on line {line})", named(path))]
    NotUtf8 {
        /// The path.
        path: PathBuf,
        /// First line with invalid bytes, from 1.
        line: usize,
    },
    /// Reading failed after the file was opened (an I/O error): a failure, not bad input.
    #[error("cannot read {}", named(path))]
    Read {
        /// The path.
        path: PathBuf,
        /// Cause.
        #[source]
        source: std::io::Error,
    },
}

/// A path for messages: quoted, or `standard input` for `-`.
fn named(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        format!("'{}'", path.display())
    }
}

impl InputError {
    /// True when the path or its contents are at fault (exit code 2); false for an I/O error.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, InputError::Read { .. })
    }
}

/// An opened input: a file or standard input, with its size when it has one.
pub struct Input {
    path: PathBuf,
    reader: Box<dyn Read>,
    size: Option<u64>,
}

impl Input {
    /// Opens `path` for reading (`-` is standard input); a directory or a missing file is an
    /// error naming the path.
    ///
    /// ```
    /// let dir = std::env::temp_dir();
    /// assert!(mmtree_io::Input::open(&dir).is_err());
    /// ```
    pub fn open(path: &Path) -> Result<Input, InputError> {
        if path.as_os_str() == "-" {
            return Ok(Input { path: path.to_path_buf(), reader: Box::new(std::io::stdin()), size: None });
        }
        let file = File::open(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => InputError::Missing { path: path.to_path_buf() },
            _ => InputError::Open { path: path.to_path_buf(), source },
        })?;
        let meta = file.metadata().map_err(|source| InputError::Open { path: path.to_path_buf(), source })?;
        if meta.is_dir() {
            return Err(InputError::Directory { path: path.to_path_buf() });
        }
        // Devices and FIFOs report 0 bytes: their size is unknown until read.
        let size = meta.is_file().then_some(meta.len());
        Ok(Input { path: path.to_path_buf(), reader: Box::new(file), size })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The size of a regular file; `None` for standard input, devices and FIFOs.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// Reads up to `max` more bytes (fewer only at the end of the input).
    pub fn read_up_to(&mut self, max: u64) -> Result<Vec<u8>, InputError> {
        let mut bytes = Vec::with_capacity(max.min(self.size.unwrap_or(1 << 16)).min(1 << 30) as usize);
        (&mut self.reader)
            .take(max)
            .read_to_end(&mut bytes)
            .map_err(|source| InputError::Read { path: self.path.clone(), source })?;
        Ok(bytes)
    }

    /// The rest of the input as a buffered reader that stops after `limit` bytes, refused at
    /// once if the file is larger (`what` names the kind of file in the message): for files
    /// decoded as they are read, whose bytes would double what a large one costs in memory.
    ///
    /// ```
    /// use std::io::Read;
    /// let path = std::env::temp_dir().join(format!("mmtree-doc-reader-{}", std::process::id()));
    /// std::fs::write(&path, b"0123456789")?;
    /// let mut text = String::new();
    /// mmtree_io::Input::open(&path)?.into_reader(10, "a test file")?.read_to_string(&mut text)?;
    /// assert_eq!(text, "0123456789");
    /// assert!(mmtree_io::Input::open(&path)?.into_reader(9, "a test file").is_err());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_reader(self, limit: u64, what: &str) -> Result<impl std::io::BufRead, InputError> {
        if self.size.is_some_and(|size| size > limit) {
            return Err(InputError::TooLarge { path: self.path, limit, what: what.to_string() });
        }
        Ok(std::io::BufReader::with_capacity(1 << 20, self.reader.take(limit)))
    }

    /// Reads everything left, refusing more than `limit` bytes in all (`what` names the kind
    /// of file in the message).
    pub fn read_all(mut self, limit: u64, what: &str) -> Result<Vec<u8>, InputError> {
        let too_large = |path: &Path| InputError::TooLarge { path: path.to_path_buf(), limit, what: what.to_string() };
        if self.size.is_some_and(|size| size > limit) {
            return Err(too_large(&self.path));
        }
        let bytes = self.read_up_to(limit.saturating_add(1))?;
        if bytes.len() as u64 > limit {
            return Err(too_large(&self.path));
        }
        Ok(bytes)
    }
}

/// Line `number` (from 1) of an interactive input such as standard input, without its line
/// end; `None` at the end of the input. A line longer than `max` bytes or not UTF-8 is an
/// error, so no input makes the line grow without bound.
///
/// ```
/// let mut input = std::io::Cursor::new(b"1122\nhint\n".to_vec());
/// assert_eq!(mmtree_io::read_line(&mut input, 80, 1)?, Some("1122".to_string()));
/// assert_eq!(mmtree_io::read_line(&mut input, 80, 2)?, Some("hint".to_string()));
/// assert_eq!(mmtree_io::read_line(&mut input, 80, 3)?, None);
/// let mut zeros = std::io::Cursor::new(vec![0u8; 100]);
/// assert!(mmtree_io::read_line(&mut zeros, 80, 1).is_err());
/// # Ok::<(), mmtree_io::InputError>(())
/// ```
pub fn read_line(input: &mut dyn std::io::BufRead, max: u64, number: usize) -> Result<Option<String>, InputError> {
    let stdin = || PathBuf::from("-");
    let mut bytes = Vec::new();
    let mut bounded = std::io::Read::take(input, max.saturating_add(1));
    std::io::BufRead::read_until(&mut bounded, b'\n', &mut bytes)
        .map_err(|source| InputError::Read { path: stdin(), source })?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() as u64 > max {
        return Err(InputError::LongLine { path: stdin(), line: number, max });
    }
    String::from_utf8(bytes).map(Some).map_err(|_| InputError::NotUtf8 { path: stdin(), line: number })
}

/// The bytes of a file (`-` is standard input), at most `limit` of them.
///
/// ```
/// let path = std::env::temp_dir().join(format!("mmtree-doc-input-{}", std::process::id()));
/// std::fs::write(&path, b"0123456789")?;
/// assert_eq!(mmtree_io::read_bytes(&path, 10, "a test file")?.len(), 10);
/// assert!(mmtree_io::read_bytes(&path, 9, "a test file").is_err());
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_bytes(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, InputError> {
    Input::open(path)?.read_all(limit, what)
}

/// The UTF-8 text of a file (`-` is standard input), at most `limit` bytes, without a leading
/// byte-order mark.
///
/// ```
/// let path = std::env::temp_dir().join(format!("mmtree-doc-text-{}", std::process::id()));
/// std::fs::write(&path, b"\xef\xbb\xbfn,k\n4,6\n")?;
/// assert_eq!(mmtree_io::read_text(&path, 1 << 20, "a table")?, "n,k\n4,6\n");
/// std::fs::write(&path, b"n,k\n4,\xff\n")?;
/// let err = mmtree_io::read_text(&path, 1 << 20, "a table").unwrap_err();
/// assert!(err.to_string().contains("line 2"));
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, InputError> {
    let bytes = read_bytes(path, limit, what)?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
        InputError::NotUtf8 { path: path.to_path_buf(), line }
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}
