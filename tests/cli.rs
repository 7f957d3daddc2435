//! End-to-end tests of the `mmtree` binary: thesis, solve, and bad input.

use std::process::{Command, Output};

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

mod thesis {
    use super::*;

    #[test]
    fn json_tables_hold_the_published_figures() {
        let out = mmtree(&["thesis", "--format", "json"]);
        assert!(out.status.success());
        let tables: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let tables = tables.as_array().unwrap();
        assert_eq!(tables.len(), 5);
        // Results by first guess: minimax after 1122 is Knuth's 5801, max 5.
        let by_first = tables[1]["rows"].as_array().unwrap();
        assert_eq!(by_first.len(), 20);
        let knuth = by_first.iter().find(|r| r["valuation"] == "minimax" && r["first_guess"] == "1122").unwrap();
        assert_eq!((knuth["max"].as_u64(), knuth["total"].as_u64()), (Some(5), Some(5801)));
        assert_eq!(knuth["picked_by_itself"], true);
        // Every row whose thesis figure is published shows the same "max / avg".
        for table in tables.iter().skip(1).take(3) {
            for row in table["rows"].as_array().unwrap() {
                let thesis = row["thesis"].as_str().unwrap();
                if thesis != "-" {
                    assert_eq!(thesis, format!("{} / {:.3}", row["max"], row["average"].as_f64().unwrap()), "{row}");
                }
            }
        }
        let own = tables[4]["rows"].as_array().unwrap();
        let totals: Vec<u64> = own.iter().map(|r| r["total"].as_u64().unwrap()).collect();
        assert_eq!(totals, vec![5801, 5696, 5722, 5668]);
        // Entropy is not consistent: 1123 does better than its own 1234.
        assert_eq!(own[2]["consistent"], false);
    }

    #[test]
    fn every_format_renders() {
        for (format, marker) in [("md", "| guess |"), ("csv", "guess,largest_part"), ("latex", "\\toprule")] {
            let out = mmtree(&["thesis", "--format", format]);
            assert!(out.status.success());
            assert!(stdout(&out).contains(marker), "{format}");
        }
    }
}

mod solve {
    use super::*;

    fn json(args: &[&str]) -> serde_json::Value {
        let mut all = vec!["solve", "--format", "json"];
        all.extend_from_slice(args);
        let out = mmtree(&all);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    }

    #[test]
    fn json_has_exactly_the_contract_keys() {
        let v = json(&["-n", "4", "-k", "6", "--valuation", "minimax"]);
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        let mut expected = vec![
            "n",
            "k",
            "variant",
            "feedback",
            "valuation",
            "pool",
            "ties",
            "first_guess",
            "max",
            "total",
            "average",
            "histogram",
        ];
        expected.sort();
        let mut keys: Vec<&str> = keys.iter().map(|s| s.as_str()).collect();
        keys.sort();
        assert_eq!(keys, expected);
        assert_eq!(v["first_guess"], "1122");
        assert_eq!((v["max"].as_u64(), v["total"].as_u64()), (Some(5), Some(5801)));
        assert_eq!(v["histogram"], serde_json::json!([1, 6, 62, 533, 694]));
        assert_eq!((v["variant"].as_str(), v["feedback"].as_str()), (Some("repetition"), Some("black-white")));
    }

    #[test]
    fn rule_switches_reach_the_solver() {
        let v = json(&["-n", "4", "-k", "6", "--valuation", "most-parts", "--pool", "candidates"]);
        assert_eq!((v["max"].as_u64(), format!("{:.3}", v["average"].as_f64().unwrap())), (Some(7), "4.399".into()));
        let v = json(&["-n", "4", "-k", "6", "--valuation", "entropy", "--first", "6543"]);
        assert_eq!(format!("{:.3}", v["average"].as_f64().unwrap()), "4.416");
        let v = json(&["-n", "4", "-k", "6", "--ties", "largest"]);
        assert_eq!(v["first_guess"], "6655");
        assert_eq!(v["ties"], "largest");
        let v = json(&["-n", "4", "-k", "6", "--no-prefer-candidates"]);
        assert_eq!(v["histogram"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 1296);
    }

    #[test]
    fn variants_and_symbols() {
        let v = json(&["-n", "4", "-k", "10", "--distinct", "--symbols", "0123456789", "--valuation", "entropy"]);
        assert_eq!(v["variant"], "distinct");
        assert_eq!(v["histogram"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 5040);
        assert_eq!(v["first_guess"], "0123");
        let v = json(&["-n", "3", "-k", "4", "--black-only"]);
        assert_eq!(v["feedback"], "black");
        assert_eq!(v["histogram"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 64);
        // Colours 10 and up print as letters.
        let v = json(&["-n", "2", "-k", "12", "--first", "AB"]);
        assert_eq!(v["first_guess"], "AB");
    }

    #[test]
    fn markdown_and_csv() {
        let out = mmtree(&["solve", "-n", "3", "-k", "3", "--format", "csv"]);
        let text = stdout(&out);
        assert!(text.starts_with("n,k,variant,feedback,valuation,pool,ties,first_guess,max,total,average,histogram\n"));
        let out = mmtree(&["solve", "-n", "3", "-k", "3"]);
        assert!(stdout(&out).contains("| 3 | 3 | repetition |"));
    }
}

mod bad_input {
    use super::*;

    fn refused(args: &[&str], needle: &str) {
        let out = mmtree(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one-line message for {args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: expected '{needle}' in '{err}'");
        assert!(!err.contains("panicked"));
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn each_gets_exit_2_and_a_one_line_message() {
        refused(&["solve", "-n", "0", "-k", "6"], "pegs n = 0");
        refused(&["solve", "-n", "4", "-k", "0"], "colours k = 0");
        refused(&["solve", "-n", "4", "-k", "6", "--first", "1127"], "'7' is not one of the game's 6 colours");
        refused(&["solve", "-n", "4", "-k", "6", "--first", "112"], "has 3 symbols, the game has 4 pegs");
        refused(&["solve", "-n", "4", "-k", "6", "--distinct", "--first", "1123"], "repeats symbol '1'");
        refused(&["solve", "-n", "5", "-k", "4", "--distinct"], "needs n <= k");
        refused(&["solve", "-n", "4", "-k", "6", "--symbols", "0122"], "appears twice");
        refused(&["solve", "-n", "4", "-k", "6", "--memory-limit", "lots"], "invalid memory size");
    }

    #[test]
    fn flag_errors_show_clap_s_whole_message() {
        let out = mmtree(&["solve", "-n", "4", "-k", "6", "--valuation", "best"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("'best'") && err.contains("[possible values: minimax,"), "{err}");
        assert!(err.contains("For more information, try '--help'."), "{err}");
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn too_large_says_how_much_before_allocating() {
        refused(&["solve", "-n", "8", "-k", "16", "--memory-limit", "16G"], "4294967296 codes and needs about");
        refused(&["solve", "-n", "4", "-k", "6", "--memory-limit", "1K"], "more than the limit of 1.0 KiB");
    }
}
