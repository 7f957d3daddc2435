//! Criterion benches of the hot paths: scoring, partitioning one node, whole trees.
//! `scripts/bench.sh` complements them with whole-process wall time and peak memory.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

use mmtree::core::{CodeIndex, CodeSpace, Game, GameSpec, MemoryLimit, MAX_FEEDBACKS};
use mmtree::strategy::{GuessRule, Solver, Valuation};

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

fn whole_trees(c: &mut Criterion) {
    let mut group = c.benchmark_group("tree");
    group.sample_size(10);
    for (name, spec) in [("4_6", GameSpec::mastermind(4, 6)), ("bulls_cows", GameSpec::bulls_and_cows(4, 10))] {
        let s = space(spec, true);
        for v in Valuation::ALL {
            group.bench_function(BenchmarkId::new(name, v.name()), |b| {
                b.iter(|| black_box(Solver::new(&s, GuessRule::new(v)).build().stats()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, scoring, partition_root, whole_trees);
criterion_main!(benches);
