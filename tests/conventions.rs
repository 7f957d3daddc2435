//! The command-line conventions users expect: `--version` naming the tree-file format,
//! `mmtree completions bash|zsh|fish` and `mmtree man [COMMAND]`, all generated from the same
//! clap definitions as the parser.

use std::process::{Command, Output};

fn mmtree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmtree")).args(args).output().expect("run mmtree")
}

fn stdout(args: &[&str]) -> String {
    let out = mmtree(args);
    assert!(out.status.success(), "mmtree {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The subcommands, read from `mmtree --help` (the lines after "Commands:").
fn subcommands() -> Vec<String> {
    let help = stdout(&["--help"]);
    let names: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 15, "subcommands in --help: {names:?}");
    names
}

#[test]
fn version_names_the_program_and_the_tree_file_format() {
    let expected = format!("mmtree {} (tree file format {})\n", env!("CARGO_PKG_VERSION"), mmtree::io::FORMAT_VERSION);
    assert_eq!(stdout(&["--version"]), expected);
    assert_eq!(stdout(&["-V"]), expected);
}

#[test]
fn completions_cover_every_subcommand_in_each_shell() {
    let commands = subcommands();
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(&["completions", shell]);
        for name in &commands {
            assert!(script.contains(name.as_str()), "{shell} completion lacks {name}");
        }
        for flag in ["no-prefer-candidates", "black-only", "max-depth", "lookahead"] {
            assert!(script.contains(flag), "{shell} completion lacks --{flag}");
        }
    }
    // The bash script parses (bash is always there where the tests run; zsh and fish may not be).
    let script = stdout(&["completions", "bash"]);
    let check = Command::new("bash").args(["-n", "-c", &script]).output().expect("run bash");
    assert!(check.status.success(), "bash -n: {}", String::from_utf8_lossy(&check.stderr));
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let out = mmtree(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("tcsh") && stderr.contains("bash, zsh, fish"), "{stderr}");
}

#[test]
fn man_page_lists_every_subcommand_and_each_has_its_own_page() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH mmtree 1"), "roff title line");
    let version = format!("tree file format {}", mmtree::io::FORMAT_VERSION);
    assert!(page.contains(&version), "the page's source names the format version");
    assert!(page.contains("docs/definitions.md"), "the page points to the definitions");
    for name in subcommands() {
        // roff escapes the hyphen: mmtree\-solve(1).
        assert!(page.contains(&format!("mmtree\\-{}(1)", name.replace('-', "\\-"))), "{name} in SUBCOMMANDS");
        let sub = stdout(&["man", &name]);
        assert!(sub.contains(&format!(".TH mmtree-{name} 1")), "title of the {name} page");
    }
    let solve = stdout(&["man", "solve"]);
    for flag in ["no\\-prefer\\-candidates", "lookahead", "self\\-check"] {
        assert!(solve.contains(flag), "solve page lacks {flag}");
    }
}

#[test]
fn man_refuses_an_unknown_command() {
    let out = mmtree(&["man", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("'nope'") && stderr.contains("solve"), "{stderr}");
}
