//! Criterion benches of the hot paths: scoring, partitioning one node, the 32-wide kernels, the
//! partition scanner's paths, the one-step rule on deep nodes, whole trees, exact optima.
//! `scripts/bench.sh` complements them with whole-process wall time and peak memory.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

use mmtree::core::{
    Alphabet, CodeBlocks, CodeIndex, CodeSpace, Cut, Detail, Fold, Game, GameSpec, Guesses, MemoryLimit, Partition,
    Probe, ProbeSet, Scan, Shares, BLOCK, MAX_FEEDBACKS,
};
use mmtree::strategy::{GuessRule, Objective, OptimalConfig, OptimalSearch, Solver, Valuation};

fn space(spec: GameSpec, table: bool) -> CodeSpace {
    let mut s = CodeSpace::new(Game::new(spec).unwrap(), MemoryLimit(8 << 30)).unwrap();
    if table {
        s.build_table(2 << 30);
    }
    s
}

fn scoring(c: &mut Criterion) {
    let mut group = c.benchmark_group("score_all_pairs_4_6");
    for table in [false, true] {
        let s = space(GameSpec::mastermind(4, 6), table);
        let all = s.all_indices();
        group.bench_function(if table { "table" } else { "packed" }, |b| {
            b.iter(|| {
                let mut acc = 0usize;
                for &g in &all {
                    for &x in &all {
                        acc += s.feedback(g, x).get();
                    }
                }
                black_box(acc)
            })
        });
    }
    group.finish();
}

fn partition_root(c: &mut Criterion) {
    let mut group = c.benchmark_group("partition_one_node");
    for (name, spec) in [("4_6", GameSpec::mastermind(4, 6)), ("5_8", GameSpec::mastermind(5, 8))] {
        for table in [false, true] {
            let s = space(spec, table);
            let all = s.all_indices();
            let guess = CodeIndex::from_index(7);
            group.bench_function(BenchmarkId::new(name, if table { "table" } else { "packed" }), |b| {
                b.iter(|| {
                    let mut counts = [0u32; MAX_FEEDBACKS];
                    s.count_parts(guess, &all, &mut counts);
                    black_box(counts)
                })
            });
        }
    }
    group.finish();
}

/// The two 32-wide kernels on [5,8]: one guess against every code, 32 guesses against 20
/// candidates (pairwise partitions), and 32 guesses against 500 candidates (histograms).
fn blocks(c: &mut Criterion) {
    let mut group = c.benchmark_group("blocks_5_8");
    let s = space(GameSpec::mastermind(5, 8), false);
    let game = *s.game();
    let codes: Vec<_> = s.iter().map(|(_, c)| c).collect();
    let all = CodeBlocks::new(&game, &codes);
    group.bench_function("one_guess_vs_all", |b| {
        let probe = Probe::new(&codes[7]);
        b.iter(|| {
            let mut acc = 0u64;
            all.try_for_each_block(&probe, |keys, valid| {
                acc += keys[..valid].iter().map(|&k| u64::from(k)).sum::<u64>();
                true
            });
            black_box(acc)
        })
    });
    let sample =
        |m: usize| ProbeSet::new(&game, codes.iter().step_by(codes.len() / m).take(m).map(Probe::new).collect());
    let few = sample(20);
    group.bench_function("all_guesses_vs_20_pairwise", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            all.for_each_partition(0..all.blocks(), &few, None, false, Cut::Never, |_, stats, _| {
                acc += u32::from(stats.largest[0]);
                Some(Cut::Never)
            });
            black_box(acc)
        })
    });
    let many = sample(500);
    let mut batch = CodeBlocks::new(&game, &[]);
    batch.refill(&codes[1000..1000 + BLOCK]);
    group.bench_function("32_guesses_vs_500_histograms", |b| {
        let mut hist = vec![[0u16; 256]; BLOCK];
        b.iter(|| {
            let hist: &mut [[u16; 256]; BLOCK] = hist.as_mut_slice().try_into().unwrap();
            batch.histograms(0, &many, hist);
            let out = hist[0][0x11];
            hist.iter_mut().for_each(|h| h.fill(0));
            black_box(out)
        })
    });
    // The arrangements of one colour multiset (11234: 60 codes), whose totals with each
    // candidate are known: plain, and by share of one total (blacks counted alone).
    let multiset = |c: &mmtree::core::Code| {
        let mut p = c.pegs().to_vec();
        p.sort_unstable();
        p
    };
    let group_codes: Vec<_> = codes.iter().filter(|c| multiset(c) == [0, 0, 1, 2, 3]).copied().collect();
    let group_blocks = CodeBlocks::new(&game, &group_codes);
    for m in [60, 500] {
        let probes = sample(m);
        let picked: Vec<_> = codes.iter().step_by(codes.len() / m).take(m).collect();
        let totals: Vec<u8> = picked
            .iter()
            .map(|v| {
                let fb = mmtree::core::score_reference(&game, &group_codes[0], v);
                fb.black + fb.white
            })
            .collect();
        let shares = Shares::by_total(&totals);
        if m <= mmtree::core::MAX_PROBES {
            // With sizes wanted (entropy): ranks from the plain kernel, part sizes from the
            // counted one.
            let runs = [("plain", None, false), ("shares", Some(&shares), false)]
                .into_iter()
                .chain([("plain_sizes", None, true), ("shares_sizes", Some(&shares), true)]);
            for (name, shares, sizes) in runs {
                group.bench_function(BenchmarkId::new("one_multiset_vs_60_pairwise", name), |b| {
                    b.iter(|| {
                        let mut acc = 0u32;
                        group_blocks.for_each_partition(
                            0..group_blocks.blocks(),
                            &probes,
                            shares,
                            sizes,
                            Cut::Never,
                            |_, stats, _| {
                                acc += u32::from(stats.largest[0]) + u32::from(stats.xlogx_floor[0]);
                                Some(Cut::Never)
                            },
                        );
                        black_box(acc)
                    })
                });
            }
        } else {
            let raws = s.raw_keys();
            for name in ["plain", "shares"] {
                group.bench_function(BenchmarkId::new("one_multiset_vs_500_histograms", name), |b| {
                    let mut hist = vec![[0u16; 256]; BLOCK];
                    b.iter(|| {
                        let hist: &mut [[u16; 256]; BLOCK] = hist.as_mut_slice().try_into().unwrap();
                        for block in 0..group_blocks.blocks() {
                            if name == "plain" {
                                group_blocks.histograms(block, &probes, hist);
                            } else {
                                group_blocks.histograms_shares(block, &probes, &shares, hist, Cut::Never, &raws);
                            }
                        }
                        let out = hist[0][0x11];
                        hist.iter_mut().for_each(|h| h.fill(0));
                        black_box(out)
                    })
                });
            }
        }
    }
    group.finish();
}

/// Sums the largest parts of every guess a scan shows.
struct Sum(u64);

impl Fold for Sum {
    fn cut(&self) -> Cut {
        Cut::Never
    }
    fn visit(&mut self, p: &Partition) -> bool {
        self.0 += u64::from(p.largest());
        true
    }
    fn merge(self, later: Self) -> Self {
        Sum(self.0 + later.0)
    }
}

/// The least largest part, or `sum s log2 s`, of the guesses a scan shows, cutting off the
/// rest as the one-step rule does.
struct Least {
    key: f64,
    entropy: bool,
}

impl Fold for Least {
    fn cut(&self) -> Cut {
        match (self.key.is_finite(), self.entropy) {
            (false, _) => Cut::Never,
            (true, true) => Cut::XLogX(self.key),
            (true, false) => Cut::Largest(self.key as u32),
        }
    }
    fn visit(&mut self, p: &Partition) -> bool {
        let key = if self.entropy { p.xlogx() } else { f64::from(p.largest()) };
        self.key = self.key.min(key);
        true
    }
    fn merge(self, later: Self) -> Self {
        Least { key: self.key.min(later.key), ..self }
    }
}

/// The partition scanner's paths on one node each: every code of [5,8] against 20 candidates
/// (pairwise, from the pool and from a list), against 500 (histograms), and every code of Bulls and Cows against 200 with its
/// feedback table (streamed rows, as the exact search asks).
fn scan(c: &mut Criterion) {
    let mut group = c.benchmark_group("scan");
    let s = space(GameSpec::mastermind(5, 8), false);
    let all = s.all_indices();
    let sample = |m: usize| all.iter().step_by(all.len() / m).take(m).copied().collect::<Vec<CodeIndex>>();
    let (few, many) = (sample(20), sample(500));
    group.bench_function("5_8_pairwise_20", |b| {
        b.iter(|| {
            black_box(Scan::new(&s, Guesses::Pool(s.pool(), false), &few).detail(Detail::Moments).run(|| Sum(0)).0)
        })
    });
    // A list (every other code, in decreasing order), laid out in blocks as it is read.
    let list: Vec<CodeIndex> = all.iter().rev().step_by(2).copied().collect();
    group.bench_function("5_8_list_pairwise_20", |b| {
        b.iter(|| black_box(Scan::new(&s, Guesses::List(&list), &few).detail(Detail::Moments).run(|| Sum(0)).0))
    });
    group.bench_function("5_8_histograms_500", |b| {
        b.iter(|| black_box(Scan::new(&s, Guesses::List(&all), &many).detail(Detail::Moments).run(|| Sum(0)).0))
    });
    // With the cut-offs of a search: hopeless blocks given up part-way.
    let least = |entropy: bool| move || Least { key: f64::INFINITY, entropy };
    group.bench_function("5_8_pairwise_60_entropy_cut", |b| {
        let set = sample(60);
        let pool = Guesses::Pool(s.pool(), false);
        b.iter(|| black_box(Scan::new(&s, pool, &set).detail(Detail::Sizes).run(least(true)).key))
    });
    group.bench_function("5_8_histograms_500_minimax_cut", |b| {
        b.iter(|| black_box(Scan::new(&s, Guesses::List(&all), &many).detail(Detail::Moments).run(least(false)).key))
    });
    let bc = space(GameSpec::bulls_and_cows(4, 10), true);
    let codes = bc.all_indices();
    let set: Vec<CodeIndex> = codes.iter().step_by(25).copied().collect();
    group.bench_function("bulls_cows_rows_200", |b| {
        b.iter(|| black_box(Scan::new(&bc, Guesses::List(&codes), &set).detail(Detail::Counts).run(|| Sum(0)).0))
    });
    group.finish();
}

/// The one-step rule on nodes of [7,6] after two guesses, where guesses are bounded by colour
/// multiset: eight parts of 20 to 128 candidates (pairwise scans), eight of 129 to 4,096
/// (lists of guesses).
fn deep_nodes(c: &mut Criterion) {
    let mut group = c.benchmark_group("choose");
    group.sample_size(10);
    let s = space(GameSpec::mastermind(7, 6), false);
    let code = |text: &str| s.index(&Alphabet::default().parse(s.game(), text).unwrap()).unwrap();
    let history = [code("1122334"), code("1234556")];
    let (mut small, mut mid) = (Vec::new(), Vec::new());
    for (_, part) in s.split(history[0], &s.all_indices()) {
        for (_, sub) in s.split(history[1], &part) {
            let nodes = if sub.len() <= 128 { &mut small } else { &mut mid };
            if (20..=4096).contains(&sub.len()) && nodes.len() < 8 {
                nodes.push(sub);
            }
        }
    }
    for v in [Valuation::Minimax, Valuation::Entropy] {
        let solver = Solver::new(&s, GuessRule::new(v));
        for (name, nodes) in [("7_6_eight_of_20_to_128", &small), ("7_6_eight_of_129_to_4096", &mid)] {
            group.bench_function(BenchmarkId::new(name, v.name()), |b| {
                b.iter(|| nodes.iter().map(|k| solver.choose_after(&history, k).get()).sum::<usize>())
            });
        }
    }
    group.finish();
}

fn whole_trees(c: &mut Criterion) {
    let mut group = c.benchmark_group("tree");
    group.sample_size(10);
    for (name, spec) in [("4_6", GameSpec::mastermind(4, 6)), ("bulls_cows", GameSpec::bulls_and_cows(4, 10))] {
        let s = space(spec, false);
        for v in Valuation::ALL {
            group.bench_function(BenchmarkId::new(name, v.name()), |b| {
                b.iter(|| black_box(Solver::new(&s, GuessRule::new(v)).build().stats()))
            });
        }
    }
    group.finish();
}

/// The exact search (least average, one thread, so the figure is the work done): [4,6] and
/// [4,7], where most of the time is small sets' own bounds and their scans of the pool.
fn exact_optima(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimal");
    group.sample_size(10);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for (name, spec) in [("4_6", GameSpec::mastermind(4, 6)), ("4_7", GameSpec::mastermind(4, 7))] {
        let s = space(spec, true);
        group.bench_function(name, |b| {
            b.iter(|| {
                let search = OptimalSearch::new(&s, OptimalConfig::new(Objective::Average));
                pool.install(|| black_box(search.run().unwrap().stats().total))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scoring, partition_root, blocks, scan, deep_nodes, whole_trees, exact_optima);
criterion_main!(benches);
