//! Rows gathered from several files: merging slices (which must be disjoint) and planning a
//! resumed sweep (which keeps every valid earlier row and recomputes the rest).

use std::collections::BTreeMap;

use crate::error::SweepError;
use crate::key::RowKey;
use crate::read::SweepFile;
use crate::row::{Outcome, Row};

/// What to do with a row key met twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplicates {
    /// Refuse it: slices of one grid are disjoint ([`SweepError::Overlap`]).
    Refuse,
    /// Accept it when the rows agree: the same row twice, or a skipped row and a solved one
    /// (the solved one is kept: a skip carries no figures). Refuse two solved rows with
    /// different figures ([`SweepError::Conflict`]) rather than pick one silently.
    Agree,
}

/// Rows by key, in grid order, each with where it was read (`file:line`).
///
/// ```
/// use mmtree_sweep::{Duplicates, RowSet, SweepFile};
/// let csv = "n,k,variant,feedback,valuation,pool,ties,first_guess,max,total,average,histogram,skipped\n\
///            2,2,repetition,black-white,minimax,all,smallest,11,3,8,2.000,1 2 1,\n";
/// let mut set = RowSet::new();
/// set.add(SweepFile::parse(csv, "a.csv")?, Duplicates::Refuse)?;
/// let again = set.add(SweepFile::parse(csv, "b.csv")?, Duplicates::Refuse).unwrap_err();
/// assert!(again.to_string().starts_with("overlapping rows: [2,2] repetition black-white minimax all smallest is in a.csv:2 and in b.csv:2"));
/// set.add(SweepFile::parse(csv, "b.csv")?, Duplicates::Agree)?;
/// let changed = csv.replace("11,3,8,2.000,1 2 1", "12,3,8,2.000,1 2 1");
/// assert!(set.add(SweepFile::parse(&changed, "c.csv")?, Duplicates::Agree).is_err());
/// assert_eq!(set.len(), 1);
/// # Ok::<(), mmtree_sweep::SweepError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RowSet {
    rows: BTreeMap<RowKey, (Row, String)>,
}

impl RowSet {
    /// No rows.
    pub fn new() -> RowSet {
        RowSet::default()
    }

    /// Adds one row read at `origin` (`file:line`).
    pub fn insert(&mut self, row: Row, origin: String, duplicates: Duplicates) -> Result<(), SweepError> {
        if let Some((earlier, first)) = self.rows.get(&row.key) {
            if duplicates == Duplicates::Agree && (*earlier == row || row.is_skipped()) {
                return Ok(());
            }
            if duplicates == Duplicates::Agree && earlier.is_skipped() {
                self.rows.insert(row.key, (row, origin));
                return Ok(());
            }
            let (key, first, second) = (row.key.to_string(), first.clone(), origin);
            return Err(match duplicates {
                Duplicates::Agree => SweepError::Conflict { key, first, second },
                Duplicates::Refuse => SweepError::Overlap { key, first, second },
            });
        }
        self.rows.insert(row.key, (row, origin));
        Ok(())
    }

    /// Adds every row of a file (a cut-off last line is not a row: it is left out).
    pub fn add(&mut self, file: SweepFile, duplicates: Duplicates) -> Result<(), SweepError> {
        for (line, row) in file.rows {
            self.insert(row, format!("{}:{line}", file.origin), duplicates)?;
        }
        Ok(())
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No rows?
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether a row of this key is in.
    pub fn contains(&self, key: &RowKey) -> bool {
        self.rows.contains_key(key)
    }

    /// The rows, in grid order.
    pub fn into_rows(self) -> Vec<Row> {
        self.rows.into_values().map(|(row, _)| row).collect()
    }
}

/// Merges sweep slices into one table in grid order: refuses a file whose last line is cut
/// off and a row key present twice.
pub fn merge(files: Vec<SweepFile>) -> Result<Vec<Row>, SweepError> {
    let mut set = RowSet::new();
    for file in files {
        set.add(file.complete()?, Duplicates::Refuse)?;
    }
    Ok(set.into_rows())
}

/// What a resumed sweep keeps and what it computes.
///
/// Every solved row read is kept, in the grid or not (a resumed file never loses a computed
/// row, whatever `-n`, `-k` or `--shard` the resume runs with). A skipped row of the grid is
/// computed again (it may fit a larger memory limit now); a skipped row outside the grid is
/// kept as it is.
///
/// ```
/// use mmtree_core::MemoryLimit;
/// use mmtree_sweep::{Grid, Resume, RowSet, Sweep};
/// let rows = Sweep::new(Grid::new([2], [2]).keys()?, MemoryLimit(1 << 30)).rows();
/// let mut earlier = RowSet::new();
/// for row in rows {
///     earlier.insert(row, "earlier".into(), mmtree_sweep::Duplicates::Refuse)?;
/// }
/// let plan = Resume::plan(&Grid::new([2], [2, 3]).keys()?, earlier);
/// assert_eq!((plan.kept.len(), plan.todo.len(), plan.outside), (4, 4, 0));
/// assert!(plan.todo.iter().all(|key| key.k == 3));
/// # Ok::<(), mmtree_sweep::SweepError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Resume {
    /// Rows kept as read, in grid order.
    pub kept: Vec<Row>,
    /// Keys of the grid to compute, in grid order.
    pub todo: Vec<RowKey>,
    /// How many kept rows are not in the grid.
    pub outside: usize,
}

impl Resume {
    /// Plans resuming the grid `keys` from the rows of `earlier`.
    pub fn plan(keys: &[RowKey], earlier: RowSet) -> Resume {
        let mut grid: Vec<RowKey> = keys.to_vec();
        grid.sort_unstable();
        let in_grid = |key: &RowKey| grid.binary_search(key).is_ok();
        let mut kept = Vec::new();
        for row in earlier.into_rows() {
            let recompute = in_grid(&row.key) && matches!(row.outcome, Outcome::Skipped(_));
            if !recompute {
                kept.push(row);
            }
        }
        let outside = kept.iter().filter(|r| !in_grid(&r.key)).count();
        let todo = grid.iter().copied().filter(|k| kept.binary_search_by_key(k, |r| r.key).is_err()).collect();
        Resume { kept, todo, outside }
    }
}
