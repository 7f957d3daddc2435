//! Output files: every path mmtree writes is checked before the work starts, then written the
//! way what it names needs.
//!
//! - `-` is standard output, and so is any path naming the same file (e.g. `/dev/stdout`);
//! - a regular file or a new path is replaced atomically: a temporary file in the same
//!   directory, then a rename, so readers see the old file or the complete new one; an
//!   existing file keeps its permissions (and, where allowed, its owner);
//! - a symbolic link is followed: its target is written, the link stays;
//! - a device, FIFO or socket is written straight through, never replaced;
//! - a directory, a read-only file, a path in a missing or unwritable directory, and an output
//!   that names the same file as an input or as another output are refused before any work.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// Symbolic links followed before a path is given up as a loop (as Linux's `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// Why an output path cannot be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum OutputError {
    /// The path's directory does not exist.
    #[error("cannot write '{}': output directory '{}' does not exist", path.display(), dir.display())]
    MissingDirectory {
        /// The output path.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
    },
    /// The path is a directory.
    #[error("cannot write '{}': it is a directory", path.display())]
    Directory {
        /// The output path.
        path: PathBuf,
    },
    /// An existing file without write permission: refused rather than replaced.
    #[error("cannot write '{}': the file is read-only", path.display())]
    ReadOnly {
        /// The output path.
        path: PathBuf,
    },
    /// The path or its directory cannot be written (permissions, a file used as a directory,
    /// a symbolic link loop...).
    #[error("cannot write '{}'", path.display())]
    Unwritable {
        /// The output path.
        path: PathBuf,
        /// Cause.
        #[source]
        source: std::io::Error,
    },
    /// An output names the same file as an input or another output.
    #[error("{role} '{}' names the same file as {other_role} '{}': give each its own path", path.display(), other.display())]
    SameFile {
        /// The output path.
        path: PathBuf,
        /// How the output was given, e.g. `-o`.
        role: String,
        /// The other path.
        other: PathBuf,
        /// How the other path was given, e.g. `the input` or `--plot`.
        other_role: String,
    },
    /// Writing failed after the checks passed (disk full, I/O error): a failure of the work.
    #[error("cannot write '{}'", path.display())]
    Write {
        /// The output path.
        path: PathBuf,
        /// Cause.
        #[source]
        source: std::io::Error,
    },
}

impl OutputError {
    /// True when the path itself is at fault (exit code 2); false when writing failed.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, OutputError::Write { .. })
    }
}

/// Where the bytes of a checked output go.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// Standard output.
    Stdout,
    /// A device, FIFO or socket, opened and written in place.
    Direct(PathBuf),
    /// A regular file or a new path (links resolved), replaced atomically.
    Atomic(PathBuf),
}

/// What makes two paths the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    /// An existing file: device and inode; `shared` for character devices such as
    /// `/dev/null`, which any number of outputs may name.
    Inode { dev: u64, ino: u64, shared: bool },
    /// A file still to be created (its directory resolved, then its name), or an existing
    /// file's resolved path where inodes are not available.
    New(PathBuf),
}

impl Identity {
    fn clashes(&self, other: &Identity) -> bool {
        match (self, other) {
            (Identity::Inode { shared: true, .. }, _) | (_, Identity::Inode { shared: true, .. }) => false,
            _ => self == other,
        }
    }

    #[cfg(unix)]
    fn of(_path: &Path, meta: &Metadata) -> Identity {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        Identity::Inode { dev: meta.dev(), ino: meta.ino(), shared: meta.file_type().is_char_device() }
    }

    #[cfg(not(unix))]
    fn of(path: &Path, _meta: &Metadata) -> Identity {
        Identity::New(fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }

    /// The identity of an existing path (`-` is standard input), if it can be read.
    fn of_input(path: &Path) -> Option<Identity> {
        if path.as_os_str() == "-" {
            return stream_identity(Stream::Stdin);
        }
        fs::metadata(path).ok().map(|m| Identity::of(path, &m))
    }
}

#[derive(Clone, Copy)]
enum Stream {
    Stdin,
    Stdout,
}

/// The file behind standard input or output (a terminal, pipe, file or device).
#[cfg(unix)]
fn stream_identity(stream: Stream) -> Option<Identity> {
    use std::os::fd::AsFd;
    let fd = match stream {
        Stream::Stdin => std::io::stdin().as_fd().try_clone_to_owned(),
        Stream::Stdout => std::io::stdout().as_fd().try_clone_to_owned(),
    };
    fd.ok().and_then(|fd| File::from(fd).metadata().ok()).map(|m| Identity::of(Path::new("-"), &m))
}

#[cfg(not(unix))]
fn stream_identity(_stream: Stream) -> Option<Identity> {
    None
}

/// An output path, checked: it can be written, and how.
///
/// ```
/// use mmtree_io::OutputPath;
/// let dir = std::env::temp_dir().join(format!("mmtree-doc-output-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("table.csv");
/// let output = OutputPath::check(&path, "-o")?;
/// output.write(b"n,k\n", &mut std::io::sink())?;
/// assert_eq!(std::fs::read(&path)?, b"n,k\n");
/// // A directory, or a file in a missing directory, is refused before any work.
/// assert!(OutputPath::check(&dir, "-o").is_err());
/// assert!(OutputPath::check(&dir.join("missing/table.csv"), "-o").is_err());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct OutputPath {
    given: PathBuf,
    role: String,
    target: Target,
    identity: Identity,
}

impl OutputPath {
    /// Checks `path` (given as `role`, e.g. `-o`, for messages): it must be `-`, a device, a
    /// FIFO, a writable regular file, or a new file in a writable directory.
    pub fn check(path: &Path, role: &str) -> Result<OutputPath, OutputError> {
        let make =
            |target, identity| OutputPath { given: path.to_path_buf(), role: role.to_string(), target, identity };
        let stdout = stream_identity(Stream::Stdout);
        if path.as_os_str() == "-" {
            return Ok(make(Target::Stdout, stdout.unwrap_or_else(|| Identity::New(path.to_path_buf()))));
        }
        let unwritable = |source| OutputError::Unwritable { path: path.to_path_buf(), source };
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Err(OutputError::Directory { path: path.to_path_buf() }),
            Ok(meta) => {
                let identity = Identity::of(path, &meta);
                if stdout.as_ref() == Some(&identity) {
                    // `/dev/stdout`, or the file standard output already goes to.
                    return Ok(make(Target::Stdout, identity));
                }
                if !meta.is_file() {
                    return Ok(make(Target::Direct(path.to_path_buf()), identity));
                }
                let target = fs::canonicalize(path).map_err(unwritable)?;
                check_writable(path, &target, &meta)?;
                probe_directory(path, parent(&target))?;
                Ok(make(Target::Atomic(target), identity))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let target = follow_dangling_links(path)?;
                let dir = parent(&target);
                if !dir.is_dir() {
                    return Err(OutputError::MissingDirectory { path: path.to_path_buf(), dir: dir.to_path_buf() });
                }
                probe_directory(path, dir)?;
                let name = target.file_name().ok_or_else(|| OutputError::Directory { path: path.to_path_buf() })?;
                let resolved = fs::canonicalize(dir).map_err(unwritable)?.join(name);
                Ok(make(Target::Atomic(target), Identity::New(resolved)))
            }
            Err(e) => Err(unwritable(e)),
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.given
    }

    /// True when the bytes go to standard output.
    pub fn is_stdout(&self) -> bool {
        self.target == Target::Stdout
    }

    /// True when the path is (or will be) a regular file, replaced atomically; false for
    /// standard output, devices and FIFOs, which are written once, in place.
    pub fn replaces_file(&self) -> bool {
        matches!(self.target, Target::Atomic(_))
    }

    /// Writes `bytes`: to `stdout` for standard output, in place for a device or FIFO,
    /// atomically for a file.
    pub fn write(&self, bytes: &[u8], stdout: &mut dyn Write) -> Result<(), OutputError> {
        self.write_with(stdout, &mut |w| w.write_all(bytes))
    }

    /// Writes what `fill` writes, as [`Self::write`] does, through a buffer: for outputs too
    /// large to hold in memory a second time (a checkpoint runs to gigabytes).
    ///
    /// ```
    /// use std::io::Write;
    /// use mmtree_io::OutputPath;
    /// let dir = std::env::temp_dir().join(format!("mmtree-doc-with-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("out.txt");
    /// let output = OutputPath::check(&path, "-o")?;
    /// output.write_with(&mut std::io::sink(), &mut |w| (1..=3).try_for_each(|i| write!(w, "{i} ")))?;
    /// assert_eq!(std::fs::read_to_string(&path)?, "1 2 3 ");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_with(
        &self,
        stdout: &mut dyn Write,
        fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<(), OutputError> {
        let failed = |source| OutputError::Write { path: self.given.clone(), source };
        let buffered = |w: &mut dyn Write, fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>| {
            let mut w = std::io::BufWriter::new(w);
            fill(&mut w)?;
            w.flush()
        };
        match &self.target {
            Target::Stdout => buffered(stdout, fill).map_err(failed),
            Target::Direct(path) => {
                OpenOptions::new().write(true).open(path).and_then(|mut f| buffered(&mut f, fill)).map_err(failed)
            }
            Target::Atomic(target) => replace_atomically(&self.given, target, &mut |f| buffered(f, fill)),
        }
    }
}

/// Refuses an output naming the same file as an input or as an earlier output; `inputs`
/// pairs each path with how it was given (e.g. `the input`). Character devices such as
/// `/dev/null` may be named more than once.
///
/// ```
/// use mmtree_io::{refuse_same_file, OutputPath};
/// let dir = std::env::temp_dir().join(format!("mmtree-doc-same-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let tree = dir.join("a.mmt");
/// std::fs::write(&tree, b"tree")?;
/// let output = OutputPath::check(&dir.join("./a.mmt"), "-o")?;
/// assert!(refuse_same_file(&[(&tree, "the input")], &[&output]).is_err());
/// let plot = OutputPath::check(&dir.join("a.svg"), "--plot")?;
/// assert!(refuse_same_file(&[], &[&output, &plot]).is_ok());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn refuse_same_file(inputs: &[(&Path, &str)], outputs: &[&OutputPath]) -> Result<(), OutputError> {
    let same = |output: &OutputPath, other: &Path, other_role: &str| OutputError::SameFile {
        path: output.given.clone(),
        role: output.role.clone(),
        other: other.to_path_buf(),
        other_role: other_role.to_string(),
    };
    for (i, output) in outputs.iter().enumerate() {
        for &(input, role) in inputs {
            if Identity::of_input(input).is_some_and(|id| id.clashes(&output.identity)) {
                return Err(same(output, input, role));
            }
        }
        for earlier in &outputs[..i] {
            if earlier.identity.clashes(&output.identity) {
                return Err(same(output, &earlier.given, &earlier.role));
            }
        }
    }
    Ok(())
}

/// Checks `path` and writes `bytes` to it (see [`OutputPath`]); `-` is standard output.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("mmtree-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("out.txt");
/// mmtree_io::write_atomic(&path, b"hello")?;
/// assert_eq!(std::fs::read(&path)?, b"hello");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    OutputPath::check(path, "the output")?.write(bytes, &mut std::io::stdout().lock())
}

/// The directory a path lives in (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A regular file must be writable: read-only files are refused, not replaced (even by root,
/// who could open them).
fn check_writable(given: &Path, target: &Path, meta: &Metadata) -> Result<(), OutputError> {
    if meta.permissions().readonly() {
        return Err(OutputError::ReadOnly { path: given.to_path_buf() });
    }
    match OpenOptions::new().write(true).open(target) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Err(OutputError::ReadOnly { path: given.to_path_buf() })
        }
        Err(source) => Err(OutputError::Unwritable { path: given.to_path_buf(), source }),
    }
}

/// The file a missing path will create: the path itself, or the target of the (chain of)
/// dangling symbolic link(s) it is.
fn follow_dangling_links(path: &Path) -> Result<PathBuf, OutputError> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&at)
                    .map_err(|source| OutputError::Unwritable { path: path.to_path_buf(), source })?;
                at = parent(&at).join(link);
            }
            _ => return Ok(at),
        }
    }
    Err(OutputError::Unwritable {
        path: path.to_path_buf(),
        source: std::io::Error::other("too many levels of symbolic links"),
    })
}

/// A fresh temporary name next to `target`, unique within this process.
fn temporary(target: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    parent(target).join(format!(".{name}.mmtree-{}-{n}.tmp", std::process::id()))
}

/// Creates and removes a temporary file, so an unwritable directory is refused up front.
fn probe_directory(given: &Path, dir: &Path) -> Result<(), OutputError> {
    let probe = temporary(&dir.join("probe"));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(source) => Err(OutputError::Unwritable { path: given.to_path_buf(), source }),
    }
}

/// Writes a temporary file beside `target` and renames it over `target`; an existing file's
/// permissions and owner carry over.
fn replace_atomically(
    given: &Path,
    target: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let existing = fs::metadata(target).ok().filter(Metadata::is_file);
    if existing.as_ref().is_some_and(|m| m.permissions().readonly()) {
        return Err(OutputError::ReadOnly { path: given.to_path_buf() });
    }
    let tmp = temporary(target);
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Some(meta) = &existing {
            file.set_permissions(meta.permissions())?;
            keep_owner(&file, meta);
        }
        fill(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(|source| OutputError::Write { path: given.to_path_buf(), source })
}

/// Gives the new file the old one's owner where allowed (root replacing a user's file);
/// elsewhere the new file is simply the writer's.
#[cfg(unix)]
fn keep_owner(file: &File, old: &Metadata) {
    use std::os::unix::fs::MetadataExt;
    if let Ok(new) = file.metadata() {
        if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
            let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
        }
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _old: &Metadata) {}
