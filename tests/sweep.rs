//! `sweep`, `first-guesses` and `merge` end to end: sweep rows are `solve` rows, Chen and
//! Lin's optimal two-peg totals, shards, merge refusals, resume, skipped rows, and plots.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("the mmtree binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = mmtree(args);
    assert!(out.status.success(), "mmtree {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mmtree-sweep-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn key(row: &Value) -> String {
    ["n", "k", "variant", "feedback", "valuation", "pool", "ties"].iter().map(|c| row[*c].to_string()).collect()
}

#[test]
fn sweep_rows_equal_solve_rows() {
    let cases: [&[&str]; 2] = [
        &["-n", "2..=3", "-k", "3..5", "--valuation", "all", "--pool", "all,candidates"],
        &["-n", "3", "-k", "4", "--valuation", "minimax,entropy", "--distinct", "--black-only"],
    ];
    for flags in cases {
        let mut args = vec!["sweep", "--format", "json", "-q"];
        args.extend_from_slice(flags);
        let rows = json_lines(&ok(&args));
        assert!(rows.len() >= 2);
        for row in rows {
            let (n, k) = (row["n"].to_string(), row["k"].to_string());
            let mut solve = vec!["solve", "--format", "json", "-q", "-n", &n, "-k", &k];
            let (v, p) = (row["valuation"].as_str().unwrap(), row["pool"].as_str().unwrap());
            solve.extend(["--valuation", v, "--pool", p]);
            if row["variant"] == "distinct" {
                solve.push("--distinct");
            }
            if row["feedback"] == "black" {
                solve.push("--black-only");
            }
            let expected: Value = serde_json::from_str(&ok(&solve)).unwrap();
            assert_eq!(row, expected, "sweep row differs from solve {solve:?}");
        }
    }
}

/// Chen and Lin: the optimal total for 2 pegs and k colours.
fn chen_lin(k: u64) -> u64 {
    if k % 2 == 0 {
        (8 * k.pow(3) + 51 * k.pow(2) - 74 * k + 48) / 24
    } else {
        (8 * k.pow(3) + 51 * k.pow(2) - 80 * k + 69) / 24
    }
}

#[test]
fn two_pegs_reach_chen_and_lin_optimum() {
    for k in 3..=10u64 {
        for valuation in ["expected-size", "entropy"] {
            let row: Value = serde_json::from_str(&ok(&[
                "solve",
                "-n",
                "2",
                "-k",
                &k.to_string(),
                "--valuation",
                valuation,
                "--format",
                "json",
                "-q",
            ]))
            .unwrap();
            assert_eq!(row["total"], chen_lin(k), "[2,{k}] {valuation}");
        }
    }
    let rows = json_lines(&ok(&[
        "sweep",
        "-n",
        "2",
        "-k",
        "3..=10",
        "--valuation",
        "expected-size,entropy",
        "--format",
        "json",
    ]));
    assert_eq!(rows.len(), 16);
    for row in rows {
        assert_eq!(row["total"], chen_lin(row["k"].as_u64().unwrap()), "{row}");
    }
}

#[test]
fn shards_are_disjoint_cover_the_grid_and_merge_back() {
    let dir = scratch("shards");
    let grid = ["-n", "2..=3", "-k", "2,4", "--pool", "all,candidates", "-q"];
    let full_csv = ok(&[&["sweep", "--format", "csv"][..], &grid].concat());
    let full: Vec<String> =
        json_lines(&ok(&[&["sweep", "--format", "json"][..], &grid].concat())).iter().map(key).collect();
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let rows = json_lines(&ok(&[&["sweep", "--format", "json", "--shard", &shard][..], &grid].concat()));
        assert!(!rows.is_empty());
        for row in &rows {
            assert!(seen.insert(key(row)), "row {row} in two shards");
        }
        let file = dir.join(format!("s{i}.csv"));
        ok(&[&["sweep", "--format", "csv", "--shard", &shard, "-o", file.to_str().unwrap()][..], &grid].concat());
        files.push(file);
    }
    assert_eq!(seen, full.iter().cloned().collect::<HashSet<_>>());
    assert_eq!(seen.len(), full.len());
    let names: Vec<&str> = files.iter().rev().map(|f| f.to_str().unwrap()).collect();
    assert_eq!(ok(&[&["merge"][..], &names].concat()), full_csv, "merged slices equal the whole sweep");
}

#[test]
fn merge_refuses_overlapping_and_inconsistent_rows() {
    let dir = scratch("merge");
    let a = dir.join("a.csv");
    let a = a.to_str().unwrap();
    ok(&["sweep", "-n", "3", "-k", "3", "--valuation", "minimax", "--format", "csv", "-o", a, "-q"]);
    let out = mmtree(&["merge", a, a]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("overlapping"));

    // [3,3] minimax: a consistent row, then one figure changed at a time.
    let text = std::fs::read_to_string(a).unwrap();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    for (column, value) in [(9, "999"), (8, "9"), (11, "1 2 3"), (10, "1.234")] {
        let mut bad = row.clone();
        bad[column] = value;
        let file = dir.join(format!("bad{column}.csv"));
        std::fs::write(&file, format!("{}\n{}\n", text.lines().next().unwrap(), bad.join(","))).unwrap();
        let out = mmtree(&["merge", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "column {column} changed to {value}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("bad"), "message names the file");
    }
}

#[test]
fn resume_keeps_earlier_rows_and_computes_the_rest() {
    let dir = scratch("resume");
    let grid = ["-n", "2..=3", "-k", "3", "--valuation", "all", "--format", "csv", "-q"];
    let full = ok(&[&["sweep"][..], &grid].concat());
    // An interrupted run: the header and the first two rows; the first row's opening is
    // changed to a code the rule would not play, so a recomputed row would show.
    let lines: Vec<&str> = full.lines().collect();
    let mut first: Vec<&str> = lines[1].split(',').collect();
    let original = first[7].to_string();
    let changed = if original == "13" { "12" } else { "13" };
    first[7] = changed;
    let partial = format!("{}\n{}\n{}\n", lines[0], first.join(","), lines[2]);
    let file = dir.join("out.csv");
    std::fs::write(&file, partial).unwrap();
    let path = file.to_str().unwrap();
    ok(&[&["sweep", "--resume", path, "-o", path][..], &grid].concat());
    let resumed = std::fs::read_to_string(&file).unwrap();
    assert_eq!(resumed.lines().count(), full.lines().count());
    assert!(resumed.lines().nth(1).unwrap().contains(&format!(",{changed},")), "the resumed row is kept");
    assert_eq!(resumed.replacen(&format!(",{changed},"), &format!(",{original},"), 1), full);
}

#[test]
fn games_that_do_not_fit_become_skipped_rows() {
    let rows = json_lines(&ok(&[
        "sweep",
        "-n",
        "2,5",
        "-k",
        "8",
        "--valuation",
        "minimax",
        "--memory-limit",
        "1M",
        "--format",
        "json",
        "-q",
    ]));
    assert_eq!(rows.len(), 2);
    let secrets: u64 = rows[0]["histogram"].as_array().unwrap().iter().map(|h| h.as_u64().unwrap()).sum();
    assert_eq!(secrets, 64, "[2,8] is solved");
    assert!(rows[0].get("skipped").is_none());
    assert!(rows[1]["total"].is_null());
    assert!(rows[1]["skipped"].as_str().unwrap().contains("memory"), "{}", rows[1]);

    let rows = json_lines(&ok(&[
        "sweep",
        "-n",
        "2..=3",
        "-k",
        "2",
        "--distinct",
        "--valuation",
        "minimax",
        "--format",
        "json",
    ]));
    assert!(rows[0]["skipped"].is_null() && rows[0]["total"].is_u64());
    assert!(rows[1]["skipped"].as_str().unwrap().contains("n <= k"));
}

#[test]
fn markdown_output_file_and_bad_input() {
    let dir = scratch("md");
    let file = dir.join("out.md");
    ok(&["sweep", "-n", "2", "-k", "2..=3", "-o", file.to_str().unwrap(), "-q"]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("| 2 | 3 | repetition | black-white | minimax |"));
    assert!(!dir.join("out.md.partial.csv").exists(), "the progress file is removed");
    for bad in [
        &["sweep", "-n", "0..=3", "-k", "2"][..],
        &["sweep", "-n", "5..2", "-k", "2"],
        &["sweep", "-n", "2", "-k", "2", "--shard", "4/3"],
        &["sweep", "-n", "2", "-k", "2", "--valuation", "best"],
        &["merge", "/nonexistent/sweep.csv"],
    ] {
        let out = mmtree(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{bad:?}: one-line message");
    }
}

/// Texts of `<text>` elements.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>'))
        .map(|(_, rest)| rest.split("</text>").next().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn plots_are_svg_with_one_line_per_series() {
    let dir = scratch("plot");
    let file = dir.join("sweep.svg");
    ok(&["sweep", "-n", "2..=3", "-k", "2..=4", "--plot", file.to_str().unwrap(), "-q"]);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let texts = svg_texts(&svg);
    for name in ["minimax", "expected-size", "entropy", "most-parts", "n = 2", "n = 3"] {
        assert!(texts.iter().any(|t| t == name), "{name} in the legend or captions");
    }
    // Series are drawn 2 px wide: 2 panels x 4 valuations, plus one legend mark each.
    assert_eq!(svg.split("<polyline").skip(1).filter(|p| p.contains("stroke-width=\"2\"")).count(), 2 * 4 + 4);

    let file = dir.join("first.svg");
    ok(&[
        "first-guesses",
        "-n",
        "3",
        "-k",
        "3",
        "--valuation",
        "minimax,entropy",
        "--plot",
        file.to_str().unwrap(),
        "-q",
    ]);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    let texts = svg_texts(&svg);
    for name in ["minimax", "entropy", "111", "112", "123"] {
        assert!(texts.iter().any(|t| t == name), "{name} in the legend or captions");
    }
}

#[test]
fn first_guesses_reproduce_the_thesis_tables() {
    let tables: Value =
        serde_json::from_str(&ok(&["first-guesses", "-n", "4", "-k", "6", "--format", "json", "-q"])).unwrap();
    let rows = |title: &str| -> Vec<Value> {
        tables.as_array().unwrap().iter().find(|t| t["title"] == title).unwrap()["rows"].as_array().unwrap().clone()
    };
    // spec.md §5: largest part and parts of the five first guesses.
    let valued = rows("Valuation of the first guesses on [4,6]");
    let guesses: Vec<&str> = valued.iter().map(|r| r["first_guess"].as_str().unwrap()).collect();
    assert_eq!(guesses, ["1111", "1112", "1122", "1123", "1234"]);
    let largest: Vec<u64> = valued.iter().map(|r| r["largest_part"].as_u64().unwrap()).collect();
    assert_eq!(largest, [625, 317, 256, 276, 312]);
    // spec.md §5: max / average by first guess; the own pick is the bold one.
    let published = [
        ("minimax", [(6, 5.065), (6, 4.556), (5, 4.476), (6, 4.478), (6, 4.478)], "1122"),
        ("entropy", [(6, 4.911), (6, 4.494), (6, 4.428), (6, 4.383), (6, 4.415)], "1234"),
        ("most-parts", [(7, 4.911), (6, 4.503), (6, 4.420), (6, 4.373), (6, 4.444)], "1123"),
    ];
    let results = rows("Results by first guess");
    for (valuation, figures, own) in published {
        let mine: Vec<&Value> = results.iter().filter(|r| r["valuation"] == valuation).collect();
        assert_eq!(mine.len(), 5);
        for (row, (max, avg)) in mine.iter().zip(figures) {
            // JSON keeps full precision: the average is total / 1296; published to 3 places.
            let average = row["average"].as_f64().unwrap();
            assert_eq!(average, row["total"].as_u64().unwrap() as f64 / 1296.0, "{row}");
            assert_eq!((row["max"].as_u64().unwrap(), (average * 1000.0).round() / 1000.0), (max, avg), "{row}");
            assert_eq!(row["picked_by_itself"], row["first_guess"] == own, "{row}");
        }
    }
    // Consistency: Min-max and Most parts pick their best first guess, Max entropy does not
    // (1123 gives 4.383 < 4.415).
    let verdict = rows("Consistency: no other first guess gives a smaller total");
    let consistent = |v: &str| verdict.iter().find(|r| r["valuation"] == v).unwrap()["consistent"].clone();
    assert_eq!(consistent("minimax"), true);
    assert_eq!(consistent("most-parts"), true);
    assert_eq!(consistent("entropy"), false);
    let minimax = verdict.iter().find(|r| r["valuation"] == "minimax").unwrap();
    assert_eq!(minimax["total"], 5801);

    // Without repetition there is one class, trivially consistent.
    let tables: Value =
        serde_json::from_str(&ok(&["first-guesses", "-n", "3", "-k", "5", "--distinct", "--format", "json", "-q"]))
            .unwrap();
    let verdict = &tables.as_array().unwrap()[3]["rows"];
    assert!(verdict.as_array().unwrap().iter().all(|r| r["own_first_guess"] == "123" && r["consistent"] == true));
}
