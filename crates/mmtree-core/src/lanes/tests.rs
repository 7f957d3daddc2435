//! The kernels against the literal scoring formula, path by path.

use super::*;
use crate::game::GameSpec;
use crate::scan::Cut;
use crate::score::score_reference;

fn raw(game: &Game, g: &Code, s: &Code) -> u8 {
    let fb = score_reference(game, g, s);
    match game.feedback_kind() {
        FeedbackKind::BlackWhite => (fb.black << 4) | (fb.black + fb.white),
        FeedbackKind::Black => (fb.black << 4) | fb.black,
    }
}

fn games() -> Vec<Game> {
    let mut specs = vec![GameSpec::mastermind(4, 6), GameSpec::mastermind(3, 9), GameSpec::mastermind(2, 20)];
    let mut bc = GameSpec::mastermind(4, 10);
    bc.variant = crate::Variant::Distinct;
    specs.push(bc);
    let mut black = GameSpec::mastermind(5, 3);
    black.feedback = FeedbackKind::Black;
    specs.push(black);
    specs.into_iter().map(|s| Game::new(s).unwrap()).collect()
}

/// The ranks a kernel kept (`rows` must hold ranks).
fn ranks(rows: LaneRows) -> Vec<[u8; BLOCK]> {
    match rows {
        LaneRows::Ranks(ranks) => ranks.to_vec(),
        LaneRows::None | LaneRows::Sizes(_) => panic!("no ranks: {rows:?}"),
    }
}

/// Each lane's part sizes, sorted, from what a kernel kept (`valid` lanes).
fn lane_sizes(rows: LaneRows, valid: usize) -> Vec<Vec<u32>> {
    (0..valid)
        .map(|lane| {
            let mut sizes: Vec<u32> = match rows {
                LaneRows::None => panic!("no rows"),
                LaneRows::Sizes(sizes) => sizes.iter().map(|s| u32::from(s[lane])).filter(|&s| s > 0).collect(),
                LaneRows::Ranks(ranks) => {
                    // A part of size s holds ranks 0..s: the members of rank r are the parts past r.
                    let mut past = vec![0u32; ranks.len() + 1];
                    ranks.iter().for_each(|r| past[usize::from(r[lane])] += 1);
                    (0..ranks.len())
                        .flat_map(|r| std::iter::repeat_n(r as u32 + 1, (past[r] - past[r + 1]) as usize))
                        .collect()
                }
            };
            sizes.sort_unstable();
            sizes
        })
        .collect()
}

fn codes(game: &Game) -> Vec<Code> {
    let space = crate::CodeSpace::new(*game, crate::MemoryLimit(1 << 30)).unwrap();
    space.iter().map(|(_, c)| c).step_by(7).collect()
}

#[test]
fn keys_match_the_reference_on_every_path() {
    for game in games() {
        let codes = codes(&game);
        let blocks = CodeBlocks::new(&game, &codes);
        for g in codes.iter().step_by(5) {
            let probe = Probe::new(g);
            let expected: Vec<u8> = codes.iter().map(|s| raw(&game, g, s)).collect();
            let mut fast = Vec::new();
            blocks.try_for_each_block(&probe, |keys, valid| {
                fast.extend_from_slice(&keys[..valid]);
                true
            });
            let mut scalar = Vec::new();
            blocks.try_for_each_block_scalar(&probe, |keys, valid| {
                scalar.extend_from_slice(&keys[..valid]);
                true
            });
            assert_eq!(fast, expected, "{game:?} {g:?}");
            assert_eq!(scalar, expected, "{game:?} {g:?}");
        }
    }
}

#[test]
fn partitions_match_a_direct_count() {
    for game in games() {
        let codes = codes(&game);
        let blocks = CodeBlocks::new(&game, &codes);
        for m in [0, 1, 2, 7, 33, MAX_PROBES] {
            let secrets: Vec<Code> = codes.iter().rev().step_by(3).take(m).copied().collect();
            let m = secrets.len();
            let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
            let mut fast = Vec::new();
            blocks.for_each_partition((0..blocks.blocks()).rev(), &probes, None, true, Cut::Never, |b, stats, rows| {
                fast.push((b, stats.clone(), ranks(rows)));
                Some(Cut::Never)
            });
            let mut scalar = Vec::new();
            blocks.for_each_partition_scalar((0..blocks.blocks()).rev(), &probes, true, |b, stats, rows| {
                scalar.push((b, stats.clone(), ranks(rows)));
                Some(Cut::Never)
            });
            assert_eq!(fast, scalar);
            for (b, stats, ranks) in &fast {
                for lane in 0..blocks.block_len(*b) {
                    let g = &codes[b * BLOCK + lane];
                    let mut sizes = std::collections::HashMap::new();
                    for s in &secrets {
                        *sizes.entry(raw(&game, g, s)).or_insert(0u32) += 1;
                    }
                    let largest = sizes.values().copied().max().unwrap_or(0);
                    assert_eq!(u32::from(stats.largest[lane]), largest);
                    assert_eq!(stats.sum_squares[lane], sizes.values().map(|s| s * s).sum::<u32>());
                    assert_eq!(usize::from(stats.parts[lane]), sizes.len());
                    let mut from_ranks: Vec<u32> = sizes.values().copied().collect();
                    from_ranks.sort_unstable();
                    let mut rank_sizes: Vec<u32> = (0..m)
                        .filter(|&j| ranks[j][lane] == 0)
                        .map(|j| {
                            let key = raw(&game, g, &secrets[j]);
                            secrets.iter().filter(|s| raw(&game, g, s) == key).count() as u32
                        })
                        .collect();
                    rank_sizes.sort_unstable();
                    assert_eq!(rank_sizes, from_ranks);
                    assert!((0..m).all(|j| (ranks[j][lane] as usize) < sizes[&raw(&game, g, &secrets[j])] as usize));
                    // The floor of sum s log2 s in 32nds: never above it, and within one 32nd a
                    // probe when no part passes 16 (each step rounded down once).
                    let xlogx: f64 = sizes.values().map(|&s| f64::from(s) * f64::from(s).log2()).sum();
                    let floor = f64::from(stats.xlogx_floor[lane]);
                    assert!(floor <= 32.0 * xlogx + 1e-9, "{game:?} lane {lane}: {floor} vs {xlogx}");
                    if largest <= 16 {
                        assert!(floor > 32.0 * xlogx - m as f64 - 1e-9, "{game:?} lane {lane}: {floor} vs {xlogx}");
                    }
                }
            }
        }
    }
}

#[test]
fn histograms_match_a_direct_count() {
    for game in games() {
        let codes = codes(&game);
        let secrets: Vec<Code> = codes.iter().rev().step_by(2).take(300).copied().collect();
        let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
        let mut blocks = CodeBlocks::new(&game, &[]);
        for batch in codes.chunks(BLOCK - 3) {
            blocks.refill(batch);
            let mut hist = [[0u16; 256]; BLOCK];
            blocks.histograms(0, &probes, &mut hist);
            for (lane, g) in batch.iter().enumerate() {
                let mut expected = [0u16; 256];
                for s in &secrets {
                    expected[raw(&game, g, s) as usize] += 1;
                }
                assert_eq!(hist[lane], expected, "{game:?} {g:?}");
            }
            assert!(hist[batch.len()..].iter().all(|h| h.iter().all(|&c| c == 0)));
        }
    }
}

#[test]
fn histograms_given_up_only_past_the_cut() {
    let mut given_up = 0;
    for game in games() {
        let codes = codes(&game);
        let space = crate::CodeSpace::new(game, crate::MemoryLimit(1 << 30)).unwrap();
        let raws = space.raw_keys();
        // Every code, enough probes to be tested part-way.
        let all: Vec<Code> = space.iter().map(|(_, c)| c).collect();
        let secrets: Vec<Code> = all.iter().rev().step_by(2).take(300).copied().collect();
        let m = secrets.len() as u64;
        let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
        let mut blocks = CodeBlocks::new(&game, &[]);
        let half_xlogx = m as f64 * (m as f64).log2() / 2.0;
        let cuts = [
            Cut::Largest(m as u32 / 8),
            Cut::SumSquares(m * m / 10),
            Cut::Parts(6),
            Cut::XLogX(10.0),
            Cut::XLogX(half_xlogx),
        ];
        for cut in cuts {
            for batch in codes.chunks(BLOCK) {
                blocks.refill(batch);
                let mut hist = [[0u16; 256]; BLOCK];
                let complete = blocks.histograms_within(0, &probes, &mut hist, cut, &raws);
                given_up += usize::from(!complete);
                for (lane, g) in batch.iter().enumerate() {
                    let mut expected = [0u16; 256];
                    for s in &secrets {
                        expected[raw(&game, g, s) as usize] += 1;
                    }
                    let sizes = expected.iter().map(|&c| u64::from(c));
                    let past = match cut {
                        Cut::Largest(c) => sizes.max().unwrap_or(0) >= u64::from(c),
                        Cut::SumSquares(c) => sizes.map(|s| s * s).sum::<u64>() >= c,
                        Cut::Parts(p) => sizes.filter(|&s| s > 0).count() as u64 <= u64::from(p),
                        Cut::XLogX(x) => sizes.map(|s| s as f64 * (s as f64).log2().max(0.0)).sum::<f64>() > x,
                        Cut::Never => false,
                    };
                    if complete {
                        assert_eq!(hist[lane], expected, "{game:?} {cut:?} {g:?}");
                    } else {
                        assert!(past, "{game:?} {cut:?} {g:?} given up");
                    }
                }
            }
        }
    }
    assert!(given_up > 0, "no block was given up: the test shows nothing");
}

#[test]
fn raw_keys_name_the_feedbacks() {
    for game in games() {
        let space = crate::CodeSpace::new(game, crate::MemoryLimit(1 << 30)).unwrap();
        let raws = space.raw_keys();
        for (gi, g) in space.iter().step_by(11) {
            for (si, s) in space.iter().step_by(13) {
                let (key, fb) = (raw(&game, &g, &s), space.feedback(gi, si).get());
                assert_eq!(space.feedback_of_raw(key), fb);
                assert_eq!(raws[fb], key);
            }
        }
    }
}

#[test]
fn hopeless_blocks_report_values_past_the_bound() {
    for game in games() {
        let codes = codes(&game);
        let blocks = CodeBlocks::new(&game, &codes);
        let secrets: Vec<Code> = codes.iter().rev().step_by(3).take(40).copied().collect();
        let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
        let mut exact = Vec::new();
        blocks.for_each_partition(0..blocks.blocks(), &probes, None, true, Cut::Never, |_, stats, _| {
            exact.push(stats.clone());
            Some(Cut::Never)
        });
        let m = probes.len() as u32;
        let xlogx = |stats: &LaneStats, lane: usize| f64::from(stats.xlogx_floor[lane]) / 32.0;
        for bound in [
            Cut::Largest(2),
            Cut::Largest(4),
            Cut::Parts(5),
            Cut::Parts(20),
            Cut::SumSquares(u64::from(m) + 10),
            Cut::SumSquares(3 * u64::from(m)),
            Cut::XLogX(20.0),
            Cut::XLogX(60.5),
        ] {
            let mut cut = Vec::new();
            blocks.for_each_partition(0..blocks.blocks(), &probes, None, true, bound, |_, stats, _| {
                cut.push(stats.clone());
                Some(bound)
            });
            for (got, want) in cut.iter().zip(&exact) {
                for lane in 0..BLOCK {
                    let past = match bound {
                        Cut::Never => false,
                        Cut::XLogX(x) => xlogx(got, lane) > x && xlogx(want, lane) > x,
                        Cut::Largest(c) => u32::from(got.largest[lane]) >= c && u32::from(want.largest[lane]) >= c,
                        Cut::Parts(p) => u32::from(got.parts[lane]) <= p && u32::from(want.parts[lane]) <= p,
                        Cut::SumSquares(c) => {
                            u64::from(got.sum_squares[lane]) >= c && u64::from(want.sum_squares[lane]) >= c
                        }
                    };
                    let same = got == want;
                    assert!(same || past, "{game:?} {bound:?} lane {lane}: {got:?} vs {want:?}");
                }
            }
        }
    }
}

/// Codes grouped by colour multiset, each group laid out on its own, with the totals any
/// code of the group has with each of `secrets`.
fn groups_with_totals(game: &Game, codes: &[Code], secrets: &[Code]) -> Vec<(CodeBlocks, Vec<u8>)> {
    let mut groups: Vec<(Vec<u8>, Vec<Code>)> = Vec::new();
    for &c in codes {
        let mut key = c.pegs().to_vec();
        key.sort_unstable();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(c),
            None => groups.push((key, vec![c])),
        }
    }
    groups
        .into_iter()
        .map(|(_, members)| {
            let totals = secrets.iter().map(|s| raw(game, &members[0], s) & 15).collect();
            (CodeBlocks::new(game, &members), totals)
        })
        .collect()
}

#[test]
fn shares_give_the_partitions_of_a_plain_count() {
    // Lanes of blocks given up early, by cut.
    let mut hopeless = [0; 4];
    // [6,3] has groups of up to 90 codes: full blocks, which may be given up.
    let mut games = games();
    games.push(Game::new(GameSpec::mastermind(6, 3)).unwrap());
    for game in games.into_iter().filter(|g| g.feedback_kind() == FeedbackKind::BlackWhite) {
        let space = crate::CodeSpace::new(game, crate::MemoryLimit(1 << 30)).unwrap();
        let all: Vec<Code> = space.iter().map(|(_, c)| c).collect();
        for m in [1, 9, 40, MAX_PROBES] {
            let secrets: Vec<Code> = all.iter().rev().step_by(5).take(m).copied().collect();
            let probes = ProbeSet::new(&game, secrets.iter().map(Probe::new).collect());
            for (blocks, totals) in groups_with_totals(&game, &all, &secrets).iter().step_by(3) {
                let shares = Shares::by_total(totals);
                for ranks in [false, true] {
                    let run = |shares: Option<&Shares>, cut: Cut| {
                        let mut out = Vec::new();
                        blocks.for_each_partition(0..blocks.blocks(), &probes, shares, ranks, cut, |b, stats, r| {
                            let sizes = ranks.then(|| lane_sizes(r, blocks.block_len(b)));
                            out.push((stats.clone(), sizes));
                            Some(cut)
                        });
                        out
                    };
                    let plain = run(None, Cut::Never);
                    let shared = run(Some(&shares), Cut::Never);
                    assert_eq!(plain.len(), shared.len());
                    for (b, ((p, pr), (s, sr))) in plain.iter().zip(&shared).enumerate() {
                        // The same parts (the plain kernel's read off its ranks, the shared
                        // one's kept as sizes).
                        assert_eq!(pr, sr, "{game:?} {m} block {b}");
                        // Lanes past the block's codes are padding.
                        for lane in 0..blocks.block_len(b) {
                            let stats = |x: &LaneStats| (x.largest[lane], x.sum_squares[lane], x.parts[lane]);
                            assert_eq!(stats(p), stats(s), "{game:?} {m} lane {lane}");
                            if let Some(sizes) = sr {
                                // Both floors bound 32 sum s log2 s; the shared one rounds
                                // once per part, the plain one once per probe.
                                let xlogx: f64 = sizes[lane].iter().map(|&s| f64::from(s) * f64::from(s).log2()).sum();
                                let (floor, plain_floor) = (s.xlogx_floor[lane], p.xlogx_floor[lane]);
                                assert!(f64::from(floor) <= 32.0 * xlogx + 1e-9, "{game:?} lane {lane}");
                                assert!(floor >= plain_floor, "{game:?} lane {lane}: {floor} < {plain_floor}");
                                if sizes[lane].iter().all(|&s| s <= 15) {
                                    let parts = sizes[lane].len() as f64;
                                    assert!(f64::from(floor) > 32.0 * xlogx - parts - 1e-9, "{game:?} lane {lane}");
                                }
                            }
                        }
                    }
                    // Blocks given up early report values past the cut.
                    let mm = m as u32;
                    let m64 = u64::from(mm);
                    let cuts = [Cut::Largest((mm / 6).max(1)), Cut::Parts(mm / 3)]
                        .into_iter()
                        .map(|c| (0, c))
                        .chain([m64 + 2, 2 * m64, 4 * m64, m64 * m64 / 4].map(|c| (2, Cut::SumSquares(c))));
                    for (c, cut) in cuts {
                        let c = if let Cut::Parts(_) = cut { 1 } else { c };
                        let past = |x: &LaneStats, lane: usize| match cut {
                            Cut::Largest(c) => u32::from(x.largest[lane]) >= c,
                            Cut::Parts(p) => u32::from(x.parts[lane]) <= p,
                            Cut::SumSquares(c) => u64::from(x.sum_squares[lane]) >= c,
                            Cut::Never | Cut::XLogX(_) => false,
                        };
                        for (b, ((p, _), (s, _))) in plain.iter().zip(&run(Some(&shares), cut)).enumerate() {
                            for lane in 0..blocks.block_len(b) {
                                let same = (p.largest[lane], p.sum_squares[lane], p.parts[lane])
                                    == (s.largest[lane], s.sum_squares[lane], s.parts[lane]);
                                hopeless[c] += usize::from(!same);
                                assert!(same || (past(p, lane) && past(s, lane)), "{game:?} {cut:?} lane {lane}");
                            }
                        }
                    }
                    // Under entropy's cut a block given up has its floor past the bound, and
                    // so has the whole partition.
                    for bound in [m as f64, 2.0 * m as f64, m as f64 * (m as f64).log2() / 2.0] {
                        if !ranks {
                            break;
                        }
                        let cut = Cut::XLogX(bound);
                        for (b, ((_, pr), (s, sr))) in plain.iter().zip(&run(Some(&shares), cut)).enumerate() {
                            let (Some(pr), Some(sr)) = (pr, sr) else { panic!("sizes wanted") };
                            for lane in 0..blocks.block_len(b) {
                                if pr[lane] != sr[lane] {
                                    hopeless[3] += 1;
                                    let xlogx: f64 = pr[lane].iter().map(|&s| f64::from(s) * f64::from(s).log2()).sum();
                                    assert!(f64::from(s.xlogx_floor[lane]) / 32.0 > bound, "{game:?} {cut:?}");
                                    assert!(xlogx > bound, "{game:?} {cut:?} lane {lane}");
                                }
                            }
                        }
                    }
                }
                // Histograms by share, in full and given up past a cut.
                let raws = space.raw_keys();
                let xlogx_cut = Cut::XLogX(m as f64 * (m as f64).log2() / 3.0);
                for cut in [Cut::Never, Cut::Largest((m as u32 / 4).max(1)), Cut::Parts(3), xlogx_cut] {
                    for b in 0..blocks.blocks() {
                        let mut plain = [[0u16; 256]; BLOCK];
                        blocks.histograms(b, &probes, &mut plain);
                        let mut shared = [[0u16; 256]; BLOCK];
                        let complete = blocks.histograms_shares(b, &probes, &shares, &mut shared, cut, &raws);
                        for lane in 0..blocks.block_len(b) {
                            if complete {
                                assert_eq!(plain[lane], shared[lane], "{game:?} {cut:?}");
                            } else {
                                let sizes = raws.iter().map(|&k| u32::from(plain[lane][k as usize]));
                                match cut {
                                    Cut::Largest(c) => assert!(sizes.max().unwrap_or(0) >= c),
                                    Cut::Parts(p) => assert!(sizes.filter(|&s| s > 0).count() as u32 <= p),
                                    Cut::XLogX(x) => assert!(sizes.map(crate::xlogx).sum::<f64>() > x),
                                    _ => unreachable!(),
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(hopeless.iter().all(|&h| h > 0), "a cut gave up no block ({hopeless:?}): the test shows nothing");
}

/// The lanes open under a cut, 32 at a time against one by one, on statistics that straddle
/// every cut tried (values at, just below and just above it, and the types' extremes).
#[test]
fn passing_lanes_match_one_by_one() {
    let mut stats = LaneStats::default();
    let mut x = 0x9e37_79b9_u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for round in 0..200 {
        for l in 0..BLOCK {
            let r = next();
            stats.largest[l] = if round % 7 == 0 { u8::MAX } else { (r % 40) as u8 };
            stats.parts[l] = (r >> 8) as u8 % 40;
            stats.sum_squares[l] = if round % 5 == 0 { u32::MAX - (r % 3) } else { r % 2000 };
            stats.xlogx_floor[l] = if round % 3 == 0 { u16::MAX - (r % 3) as u16 } else { (r >> 16) as u16 % 3000 };
        }
        let mut cuts = vec![Cut::Never];
        for c in [0u32, 1, 2, 17, 39, 40, 255, 256, 1000] {
            cuts.extend([Cut::Largest(c), Cut::Parts(c)]);
        }
        for c in [0u64, 1, 500, 1999, 2000, u64::from(u32::MAX) - 1, u64::from(u32::MAX), 1 << 40] {
            cuts.push(Cut::SumSquares(c));
        }
        for c in [-1.0, 0.0, 0.01, 10.0, 47.3, 93.75, 2047.0, 2047.99, 2048.0, 1e6] {
            cuts.push(Cut::XLogX(c));
        }
        for cut in cuts {
            let expected = stats.passing_scalar(cut);
            assert_eq!(stats.passing(cut), expected, "{cut:?} round {round}");
        }
    }
}
