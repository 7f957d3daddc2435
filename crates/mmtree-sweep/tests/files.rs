//! Rows written in every format read back as the same rows; a file cut at any byte of its
//! last line loses only that row; the stop flag and the progress callback.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use mmtree_core::{FeedbackKind, MemoryLimit, Variant};
use mmtree_io::Format;
use mmtree_strategy::{Pool, Ties, Valuation};
use mmtree_sweep::{render, Grid, Row, RowKey, Sweep, SweepFile};

/// Solved rows, rows skipped for memory and for n > k, and skip reasons with every
/// character the formats escape.
fn rows() -> Vec<Row> {
    let mut grid = Grid::new([1, 2, 4], [1, 3, 8]);
    grid.variant = Variant::Distinct;
    grid.pools = vec![Pool::All, Pool::Candidates];
    let mut rows = Sweep::new(grid.keys().unwrap(), MemoryLimit(4 << 10)).rows();
    assert!(rows.iter().any(|r| r.figures().is_some()));
    assert!(rows.iter().any(|r| r.is_skipped()));
    let key = RowKey {
        n: 10,
        k: 35,
        variant: Variant::Repetition,
        feedback: FeedbackKind::Black,
        valuation: Valuation::MostParts,
        pool: Pool::Candidates,
        ties: Ties::Largest,
    };
    rows.push(Row::skipped(key, "a, \"quoted\" | piped & amp; 100% $ # _ {} ~ ^ \\ done"));
    rows
}

#[test]
fn every_format_reads_back() {
    let rows = rows();
    for format in [Format::Csv, Format::Json, Format::Markdown, Format::Latex] {
        let text = render(&rows, format, "Sweep, shard 1/2");
        let file = SweepFile::parse(&text, "f").unwrap_or_else(|e| panic!("{format:?}: {e}"));
        assert_eq!(file.cut_off, None);
        let read: Vec<Row> = file.rows.into_iter().map(|(_, r)| r).collect();
        assert_eq!(read, rows, "{format:?}");
    }
}

#[test]
fn a_cut_last_line_loses_only_its_row() {
    let rows = rows();
    let solved_last: Vec<Row> = rows.iter().filter(|r| r.figures().is_some()).cloned().collect();
    for (rows, what) in [(&rows, "a skipped row last"), (&solved_last, "a solved row last")] {
        for format in [Format::Csv, Format::Json] {
            let text = render(rows, format, "Sweep");
            let last_line = text.trim_end().rfind('\n').unwrap() + 1;
            for cut in last_line + 1..text.len() {
                let file = SweepFile::parse(&text[..cut], "f").unwrap_or_else(|e| panic!("{format:?} {cut}: {e}"));
                let read: Vec<&Row> = file.rows.iter().map(|(_, r)| r).collect();
                let complete = cut == text.len() - 1 && rows.last().is_some_and(|r| r.figures().is_some());
                if complete {
                    // Only the newline is missing: a solved row that adds up is whole.
                    assert_eq!(read, rows.iter().collect::<Vec<_>>(), "{what} {format:?} cut at {cut}");
                    assert_eq!(file.cut_off, None);
                } else {
                    assert_eq!(read, rows[..rows.len() - 1].iter().collect::<Vec<_>>(), "{what} {format:?} {cut}");
                    assert!(file.cut_off.is_some(), "{what} {format:?} cut at {cut}");
                }
            }
        }
    }
}

#[test]
fn stop_and_progress() {
    let keys = Grid::new([2, 3], [3, 4]).keys().unwrap();
    let done = AtomicU64::new(0);
    let progress = |n: u64| {
        done.fetch_add(n, Ordering::Relaxed);
    };
    let sweep = Sweep::new(keys.clone(), MemoryLimit(1 << 30)).with_progress(&progress);
    let rows = sweep.rows();
    assert_eq!(rows.len(), keys.len());
    // Every rule of a game places each of its secrets once: 4 rules x (9 + 16 + 27 + 64).
    assert_eq!(sweep.work(), 4 * (9 + 16 + 27 + 64));
    assert_eq!(done.load(Ordering::Relaxed), sweep.work());

    let stop = AtomicBool::new(true);
    assert!(Sweep::new(keys.clone(), MemoryLimit(1 << 30)).with_stop(&stop).rows().is_empty());
    // An error from the caller stops the sweep and is returned.
    let mut seen = 0;
    let result = Sweep::new(keys, MemoryLimit(1 << 30)).run(|_| {
        seen += 1;
        Err("disk full")
    });
    assert_eq!((result, seen), (Err("disk full"), 1));
}
