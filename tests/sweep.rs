//! `sweep`, `first-guesses` and `merge` end to end: sweep rows are `solve` rows, Chen and
//! Lin's optimal two-peg totals, shards, merge refusals, resume, skipped rows, and plots.

use std::collections::HashSet;
use std::process::{Command, Output};

use serde_json::Value;
use tempfile::TempDir;

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

/// A fresh directory per test, removed when dropped (also after a failed assertion).
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("mmtree-sweep-test-{name}-")).tempdir().expect("temp dir")
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
        let file = dir.path().join(format!("s{i}.csv"));
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
    let a = dir.path().join("a.csv");
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
        let file = dir.path().join(format!("bad{column}.csv"));
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
    let file = dir.path().join("out.csv");
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
    let file = dir.path().join("out.md");
    ok(&["sweep", "-n", "2", "-k", "2..=3", "-o", file.to_str().unwrap(), "-q"]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("| 2 | 3 | repetition | black-white | minimax |"));
    assert!(!dir.path().join("out.md.partial.csv").exists(), "the progress file is removed");
    for bad in [
        &["sweep", "-n", "0..=3", "-k", "2"][..],
        &["sweep", "-n", "5..2", "-k", "2"],
        &["sweep", "-n", "2", "-k", "2", "--shard", "4/3"],
        &["merge", "/nonexistent/sweep.csv"],
    ] {
        let out = mmtree(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{bad:?}: one-line message");
    }
    // A flag clap refuses gets clap's whole message (problem, usage, hint), still exit 2.
    assert_eq!(mmtree(&["sweep", "-n", "2", "-k", "2", "--valuation", "best"]).status.code(), Some(2));
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
    let file = dir.path().join("sweep.svg");
    ok(&["sweep", "-n", "2..=3", "-k", "2..=4", "--plot", file.to_str().unwrap(), "-q"]);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let texts = svg_texts(&svg);
    for name in ["minimax", "expected-size", "entropy", "most-parts", "n = 2", "n = 3"] {
        assert!(texts.iter().any(|t| t == name), "{name} in the legend or captions");
    }
    // Series are drawn 2 px wide: 2 panels x 4 valuations, plus one legend mark each.
    assert_eq!(svg.split("<polyline").skip(1).filter(|p| p.contains("stroke-width=\"2\"")).count(), 2 * 4 + 4);

    let file = dir.path().join("first.svg");
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
    // The thesis (docs/references.md): largest part and parts of the five first guesses.
    let valued = rows("Valuation of the first guesses on [4,6]");
    let guesses: Vec<&str> = valued.iter().map(|r| r["first_guess"].as_str().unwrap()).collect();
    assert_eq!(guesses, ["1111", "1112", "1122", "1123", "1234"]);
    let largest: Vec<u64> = valued.iter().map(|r| r["largest_part"].as_u64().unwrap()).collect();
    assert_eq!(largest, [625, 317, 256, 276, 312]);
    // The thesis: max / average by first guess; the own pick is the one it marks in bold.
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

// Interrupted and resumed sweeps, and hostile sweep files: `merge` and `--resume` check rows
// the same way, never lose a computed row, and refuse bad input with one line and exit 2.

const HEADER: &str = "n,k,variant,feedback,valuation,pool,ties,first_guess,max,total,average,histogram,skipped";

/// Runs mmtree expecting bad input: exit 2 and a one-line message containing `expected`.
fn refused(args: &[&str], expected: &str) {
    let out = mmtree(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line, got {stderr}");
    assert!(stderr.contains(expected), "{args:?}: '{expected}' not in {stderr}");
}

/// `line` with its `column`-th field (split by `separator`) replaced.
fn with_field(line: &str, separator: &str, column: usize, value: &str) -> String {
    let mut fields: Vec<&str> = line.split(separator).collect();
    fields[column] = value;
    fields.join(separator)
}

/// Another code of the game than `code` (same length, colours 1 and 2), to show a row kept.
fn other_code(code: &str) -> String {
    let other = if code.starts_with('1') { '2' } else { '1' };
    std::iter::once(other).chain(code.chars().skip(1)).collect()
}

#[test]
fn resume_keeps_rows_outside_the_grid() {
    let dir = scratch("outside");
    let grid = ["-n", "2..=3", "-k", "2..=3", "--valuation", "minimax,entropy", "--format", "csv", "-q"];
    let full = ok(&[&["sweep"][..], &grid].concat());
    let file = dir.path().join("slice.csv");
    let path = file.to_str().unwrap();
    // Slice 1 resumed with --shard 2/2 (say, a wrong job-array index): slice 1's rows stay.
    ok(&[&["sweep", "--shard", "1/2", "-o", path][..], &grid].concat());
    let slice1 = std::fs::read_to_string(&file).unwrap();
    let out =
        mmtree(&[&["sweep", "--shard", "2/2", "-o", path, "--resume", path][..], &grid[..grid.len() - 1]].concat());
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside this grid; they are kept"));
    let both = std::fs::read_to_string(&file).unwrap();
    assert!(slice1.lines().all(|l| both.lines().any(|m| m == l)), "every row of slice 1 is kept");
    assert_eq!(both, full, "slices 1 and 2 together are the whole grid");
    // A narrower -n and -k keep the rest too.
    ok(&[
        "sweep",
        "-n",
        "2",
        "-k",
        "3",
        "--valuation",
        "minimax",
        "--format",
        "csv",
        "-q",
        "-o",
        path,
        "--resume",
        path,
    ]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), full);
}

#[test]
fn resume_recomputes_skipped_rows_that_now_fit() {
    let dir = scratch("skipped");
    let file = dir.path().join("s.json");
    let path = file.to_str().unwrap();
    let grid = ["-n", "2,4", "-k", "6", "--valuation", "minimax", "--format", "json", "-q", "-o", path];
    ok(&[&["sweep", "--memory-limit", "100K"][..], &grid].concat());
    let rows = json_lines(&std::fs::read_to_string(&file).unwrap());
    assert!(rows[1]["skipped"].as_str().unwrap().contains("memory"), "[4,6] does not fit 100K");
    // The same small limit: still skipped.
    ok(&[&["sweep", "--memory-limit", "100K", "--resume", path][..], &grid].concat());
    assert!(json_lines(&std::fs::read_to_string(&file).unwrap())[1]["skipped"].is_string());
    // The default limit: solved, Knuth's 5801 guesses, at most 5.
    ok(&[&["sweep", "--resume", path][..], &grid].concat());
    let rows = json_lines(&std::fs::read_to_string(&file).unwrap());
    assert_eq!((rows[1]["total"].as_u64(), rows[1]["max"].as_u64()), (Some(5801), Some(5)));
    assert!(rows[1].get("skipped").is_none());
}

#[test]
fn markdown_and_latex_sweeps_resume() {
    let dir = scratch("md-resume");
    // (format, extension, cell separator, line start of the [2,3] minimax row)
    let formats = [
        ("md", "md", " | ", "| 2 | 3 | repetition | black-white | minimax |"),
        ("latex", "tex", " & ", "2 & 3 & repetition & black-white & minimax &"),
    ];
    for (format, ext, separator, start) in formats {
        let grid =
            |k: &'static str| vec!["sweep", "-n", "2..=3", "-k", k, "--valuation", "minimax", "--format", format, "-q"];
        let full = ok(&grid("2..=4"));
        let first_of = |text: &str| text.lines().find(|l| l.starts_with(start)).unwrap().to_string();
        let original = first_of(&full);
        let code = original.split(separator).nth(7).unwrap().to_string();
        let changed = with_field(&original, separator, 7, &other_code(&code));
        let expected = full.replace(&original, &changed);

        // A finished table, resumed with a wider grid: its rows are kept, the new ones added.
        let file = dir.path().join(format!("finished.{ext}"));
        let path = file.to_str().unwrap();
        ok(&[&grid("2..=3")[..], &["-o", path]].concat());
        let finished = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, finished.replace(&original, &changed)).unwrap();
        ok(&[&grid("2..=4")[..], &["-o", path, "--resume", path]].concat());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), expected, "{format}: finished table resumed");

        // An interrupted run: only FILE.partial.csv exists; its rows are kept.
        let file = dir.path().join(format!("killed.{ext}"));
        let path = file.to_str().unwrap();
        let partial = dir.path().join(format!("killed.{ext}.partial.csv"));
        let csv = ok(&["sweep", "-n", "2..=3", "-k", "3", "--valuation", "minimax", "--format", "csv", "-q"]);
        let row = csv.lines().find(|l| l.starts_with("2,3,")).unwrap();
        std::fs::write(&partial, csv.replace(row, &with_field(row, ",", 7, &other_code(&code)))).unwrap();
        ok(&[&grid("2..=4")[..], &["-o", path, "--resume", path]].concat());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), expected, "{format}: interrupted run resumed");
        assert!(!partial.exists(), "the progress file is removed");
    }
}

#[test]
fn a_cut_off_last_line_is_computed_again() {
    let dir = scratch("cut");
    for format in ["csv", "json"] {
        let grid = ["-n", "2..=3", "-k", "2..=3", "--format", format, "-q"];
        let full = ok(&[&["sweep"][..], &grid].concat());
        let file = dir.path().join(format!("r.{format}"));
        let path = file.to_str().unwrap();
        // Killed while writing the last row: 20 bytes short, no newline.
        std::fs::write(&file, &full[..full.len() - 20]).unwrap();
        refused(&["merge", path], "the last line is cut off");
        ok(&[&["sweep", "-o", path, "--resume", path][..], &grid].concat());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), full, "{format}");
    }
}

#[test]
fn merge_and_resume_check_rows_the_same_way() {
    let dir = scratch("rows");
    let good = "2,2,repetition,black-white,minimax,all,smallest,11,3,8,2.000,1 2 1,";
    let bad_rows = [
        // Histogram sums must not wrap around.
        ("2,2,repetition,black-white,minimax,all,smallest,11,3,8,2.000,2 18446744073709551615 3,", "overflows"),
        ("2,2,repetition,black-white,minimax,all,smallest,11,2,8,2.000,1 18446744073709551615,", "overflows"),
        // Impossible games, solved or skipped.
        ("99,99,repetition,black-white,minimax,all,smallest,,,,,,too large", "pegs"),
        ("0,0,repetition,black-white,minimax,all,smallest,,,,,,none", "pegs"),
        ("3,2,distinct,black-white,minimax,all,smallest,12,1,1,1.000,1,", "n <= k"),
        // A first guess that is not a code of the game.
        ("2,2,repetition,black-white,minimax,all,smallest,zz,3,8,2.000,1 2 1,", "first guess"),
        ("2,2,repetition,black-white,minimax,all,smallest,13,3,8,2.000,1 2 1,", "first guess"),
        // Histograms that count the 4 secrets but no tree of [2,2] can have.
        ("2,2,repetition,black-white,minimax,all,smallest,11,3,10,2.500,0 2 2,", "one guess"),
        ("1,4,repetition,black-white,minimax,all,smallest,1,2,7,1.750,1 3,", "at most 1"),
        // Figures that disagree, and skipped rows with figures.
        ("2,2,repetition,black-white,minimax,all,smallest,11,3,8,nan,1 2 1,", "average"),
        ("2,2,repetition,black-white,minimax,all,smallest,11,3,8,2.000,1 2 1,oops", "skipped row has figures"),
        ("2,2,repetition,black-white,minimax,all,smallest,11,3,18446744073709551616,2.000,1 2 1,", "out of range"),
    ];
    for (i, (row, expected)) in bad_rows.iter().enumerate() {
        let file = dir.path().join(format!("bad{i}.csv"));
        let path = file.to_str().unwrap();
        let text = format!("{HEADER}\n{good}\n{row}\n");
        std::fs::write(&file, &text).unwrap();
        refused(&["merge", path], expected);
        refused(&["sweep", "-n", "2", "-k", "2", "--format", "csv", "-o", path, "--resume", path], expected);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "a refused resume file is left as it was");
    }

    // The same key twice: merge refuses any overlap; resume accepts a copy but refuses two
    // different solved rows instead of picking one.
    let same = dir.path().join("same.csv");
    std::fs::write(&same, format!("{HEADER}\n{good}\n{good}\n")).unwrap();
    refused(&["merge", same.to_str().unwrap()], "overlapping rows");
    let path = same.to_str().unwrap();
    ok(&[
        "sweep",
        "-n",
        "2",
        "-k",
        "2",
        "--valuation",
        "minimax",
        "--format",
        "csv",
        "-q",
        "-o",
        path,
        "--resume",
        path,
    ]);
    assert_eq!(std::fs::read_to_string(&same).unwrap(), format!("{HEADER}\n{good}\n"));
    let conflict = dir.path().join("conflict.csv");
    let other = good.replace(",11,", ",12,");
    std::fs::write(&conflict, format!("{HEADER}\n{good}\n{other}\n")).unwrap();
    let path = conflict.to_str().unwrap();
    refused(&["merge", path], "overlapping rows");
    refused(&["sweep", "-n", "2", "-k", "2", "-o", path, "--resume", path], "conflicting rows");
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let dir = scratch("input");
    // Numbers too large for any type are out of range, not "not a number".
    refused(&["sweep", "-n", "18446744073709551615", "-k", "2"], "out of range");
    refused(&["sweep", "-n", "2", "-k", "99999999999999999999999"], "out of range");
    // A byte order mark (as spreadsheet programs write) is not part of the first column's name.
    for format in ["csv", "json"] {
        let rows = ok(&["sweep", "-n", "2", "-k", "2..=3", "--format", format, "-q"]);
        let file = dir.path().join(format!("bom.{format}"));
        std::fs::write(&file, format!("\u{feff}{rows}")).unwrap();
        assert_eq!(ok(&["merge", file.to_str().unwrap(), "--format", format]), rows);
    }
    // Not text, a directory, a missing output directory, an output that is a directory.
    let binary = dir.path().join("binary.csv");
    std::fs::write(&binary, b"n,k\n\xff\xfe\n").unwrap();
    let binary = binary.to_str().unwrap();
    refused(&["merge", binary], "not UTF-8");
    refused(&["sweep", "-n", "2", "-k", "2", "--resume", binary], "not UTF-8");
    let folder = dir.path().to_str().unwrap();
    refused(&["merge", folder], "is a directory");
    refused(&["merge", "/dev/zero"], "is larger than 64.0 MiB");
    refused(&["sweep", "-n", "2", "-k", "2", "--resume", folder], "is a directory");
    refused(&["sweep", "-n", "2", "-k", "2", "-o", folder], "is a directory");
    refused(&["sweep", "-n", "2", "-k", "2", "-o", "/nonexistent/s.csv"], "does not exist");
    refused(&["sweep", "-n", "2", "-k", "2", "--plot", "/nonexistent/s.svg"], "does not exist");
    let rows = dir.path().join("rows.csv");
    ok(&["sweep", "-n", "2", "-k", "2", "--format", "csv", "-q", "-o", rows.to_str().unwrap()]);
    refused(&["merge", rows.to_str().unwrap(), "-o", "/nonexistent/m.csv"], "does not exist");
}
