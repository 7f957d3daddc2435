//! Every path of the scanner against the literal scoring formula.

use super::*;
use crate::feedback::MAX_FEEDBACKS;
use crate::game::{FeedbackKind, Game, GameSpec};
use crate::score::score_reference;
use crate::{Counts, MemoryLimit};

/// What one visit showed, everything read through the partition.
#[derive(Debug, PartialEq)]
struct Seen {
    position: usize,
    guess: CodeIndex,
    counts: Vec<u32>,
    sizes: Vec<u32>,
    largest: u32,
    sum_squares: u64,
    parts: u32,
    xlogx: f64,
    feedbacks: u128,
}

/// Records every visit under a fixed cut, stopping after position `stop`.
struct Record {
    cut: Cut,
    stop: usize,
    seen: Vec<Seen>,
}

impl Fold for Record {
    fn cut(&self) -> Cut {
        self.cut
    }
    fn visit(&mut self, p: &Partition) -> bool {
        let mut sizes: Vec<u32> = p.sizes().into_iter().filter(|&s| s > 0).collect();
        sizes.sort_unstable();
        self.seen.push(Seen {
            position: p.position(),
            guess: p.guess(),
            counts: p.counts().into_owned(),
            sizes,
            largest: p.largest(),
            sum_squares: p.sum_squares(),
            parts: p.parts(),
            xlogx: p.xlogx(),
            feedbacks: p.feedbacks(),
        });
        p.position() < self.stop
    }
    fn merge(mut self, later: Self) -> Self {
        self.seen.extend(later.seen);
        self
    }
}

/// The partition of `candidates` by `guess`, from the literal formula.
fn reference(space: &CodeSpace, guess: CodeIndex, candidates: &[CodeIndex]) -> Vec<u32> {
    let game = space.game();
    let mut counts: Counts = [0; MAX_FEEDBACKS];
    for &c in candidates {
        let fb = score_reference(game, &space.code(guess), &space.code(c));
        counts[space.scheme().index(fb).unwrap().get()] += 1;
    }
    counts[..space.scheme().len()].to_vec()
}

fn expected(position: usize, guess: CodeIndex, counts: Vec<u32>) -> Seen {
    let mut sizes: Vec<u32> = counts.iter().copied().filter(|&s| s > 0).collect();
    sizes.sort_unstable();
    Seen {
        position,
        guess,
        largest: sizes.last().copied().unwrap_or(0),
        sum_squares: sizes.iter().map(|&s| u64::from(s) * u64::from(s)).sum(),
        parts: sizes.len() as u32,
        xlogx: sizes.iter().map(|&s| xlogx(s)).sum(),
        feedbacks: counts.iter().enumerate().filter(|&(_, &s)| s > 0).fold(0, |m, (f, _)| m | 1 << f),
        counts,
        sizes,
    }
}

fn games() -> Vec<Game> {
    let mut black = GameSpec::mastermind(5, 3);
    black.feedback = FeedbackKind::Black;
    [GameSpec::mastermind(4, 6), GameSpec::bulls_and_cows(4, 8), GameSpec::mastermind(3, 9), black]
        .into_iter()
        .map(|s| Game::new(s).unwrap())
        .collect()
}

const PATHS: [Path; 7] =
    [Path::Masks, Path::Pairwise, Path::Single, Path::Columns, Path::CandidateBlocks, Path::Rows, Path::Histograms];

/// Whether `path` can answer a scan of this shape at all.
fn applies(path: Path, space: &CodeSpace, m: usize) -> bool {
    match path {
        Path::Masks => space.scheme().len() <= 32,
        Path::Pairwise => m <= MAX_PROBES,
        Path::Columns | Path::Rows => space.has_table(),
        Path::Single | Path::CandidateBlocks | Path::Histograms => true,
    }
}

/// Each applicable path, on lists and pools (both directions), sequentially and in chunks,
/// under `cut`, stopping after position `stop`: every guess shown is exact and in order,
/// every guess left out is past the cut, nothing after the stop is shown.
fn check(cut: Cut, stop: usize) {
    for game in games() {
        let mut space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
        for with_table in [false, true] {
            if with_table {
                space.build_table(1 << 26);
            }
            let all = space.all_indices();
            let pool = CodePool::new(&space, all.iter().copied().step_by(3).collect());
            let list: Vec<CodeIndex> = all.iter().rev().copied().step_by(2).collect();
            let increasing: Vec<CodeIndex> = all.iter().copied().skip(1).step_by(2).collect();
            // Dense, with a gap wider than a block of feedback masks.
            let gapped: Vec<CodeIndex> = all.iter().copied().filter(|c| !(100..620).contains(&c.get())).collect();
            for m in [1, 3, 30, 128, 300] {
                let candidates: Vec<CodeIndex> =
                    all.iter().copied().skip(5).step_by((all.len() / m).max(1)).take(m).collect();
                let truth: std::collections::HashMap<CodeIndex, Vec<u32>> =
                    all.iter().map(|&g| (g, reference(&space, g, &candidates))).collect();
                let kinds = [
                    Guesses::List(&list),
                    Guesses::Increasing(&increasing),
                    Guesses::Increasing(&gapped),
                    Guesses::Pool(&pool, false),
                    Guesses::Pool(&pool, true),
                ];
                for guesses in kinds {
                    for path in PATHS.into_iter().filter(|&p| applies(p, &space, candidates.len())) {
                        for parallel in [false, true] {
                            // The detail matters only to the pairwise path (ranks kept or not).
                            let details: &[Detail] = match path {
                                Path::Pairwise => &[Detail::Moments, Detail::Sizes],
                                _ => &[Detail::Counts],
                            };
                            for &detail in details {
                                let scan = Scan::new(&space, guesses, &candidates).detail(detail).parallel(parallel);
                                let got = scan.run_on(path, || Record { cut, stop, seen: Vec::new() }).seen;
                                let label =
                                    format!("{game} table {with_table} m {m} {path:?} {detail:?} par {parallel}");
                                let mut shown = got.iter().peekable();
                                for i in 0..guesses.len() {
                                    let g = guesses.get(i);
                                    let want = expected(i, g, truth[&g].clone());
                                    if shown.peek().is_some_and(|s| s.position == i) {
                                        let s = shown.next().unwrap();
                                        assert!(i <= stop || parallel, "{label}: {i} shown after the stop");
                                        assert_eq!(s.guess, want.guess, "{label}");
                                        assert_eq!(
                                            (s.largest, s.sum_squares, s.parts),
                                            (want.largest, want.sum_squares, want.parts),
                                            "{label} {i}"
                                        );
                                        assert_eq!(
                                            (&s.counts, &s.sizes, s.feedbacks),
                                            (&want.counts, &want.sizes, want.feedbacks),
                                            "{label} {i}"
                                        );
                                        assert!((s.xlogx - want.xlogx).abs() < 1e-9, "{label} {i}");
                                    } else if i <= stop && !parallel {
                                        let past =
                                            cut.rejects(want.largest, want.sum_squares, want.parts, || want.xlogx);
                                        assert!(past, "{label}: guess {i} left out but not past {cut:?}");
                                    }
                                }
                                assert!(shown.next().is_none(), "{label}: out of order");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_path_shows_every_partition_exactly() {
    check(Cut::Never, usize::MAX);
}

#[test]
fn cuts_leave_out_only_guesses_past_them() {
    for cut in [Cut::Largest(3), Cut::Largest(40), Cut::SumSquares(200), Cut::Parts(4), Cut::XLogX(30.0)] {
        check(cut, usize::MAX);
    }
}

#[test]
fn a_stopped_scan_shows_nothing_after_the_stop() {
    check(Cut::Never, 40);
}

#[test]
fn the_chosen_path_follows_the_sizes() {
    let mut space = CodeSpace::new(Game::new(GameSpec::mastermind(4, 6)).unwrap(), MemoryLimit(1 << 30)).unwrap();
    let all = space.all_indices();
    let few = &all[..10];
    fn path(space: &CodeSpace, guesses: Guesses, candidates: &[CodeIndex], detail: Detail) -> Path {
        Scan::new(space, guesses, candidates).detail(detail).path()
    }
    assert_eq!(path(&space, Guesses::List(&all), few, Detail::Feedbacks), Path::Masks);
    assert_eq!(path(&space, Guesses::Pool(space.pool(), false), few, Detail::Moments), Path::Pairwise);
    assert_eq!(path(&space, Guesses::List(&all), few, Detail::Moments), Path::Pairwise);
    assert_eq!(path(&space, Guesses::List(few), few, Detail::Moments), Path::Single);
    assert_eq!(path(&space, Guesses::List(&all), &all, Detail::Counts), Path::Histograms);
    space.build_table(1 << 24);
    assert_eq!(path(&space, Guesses::List(&all), &all, Detail::Counts), Path::Rows);
    assert_eq!(path(&space, Guesses::List(&all), &all, Detail::Moments), Path::Histograms);
}
