//! Hostile but realistic use of the `mmtree` binary (issue 15), end to end, by theme:
//! output paths, input files, messages and exit codes, and the impartial games.
//!
//! Nothing here needs root: the device-node case makes its own node only when run as root
//! (and uses `/dev/null` otherwise), and the normal-user case of `-o /dev/stdout` runs as
//! `nobody` only when root can switch to it.
#![cfg(unix)]

use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use mmtree::core::{CodeSpace, GameSpec, MemoryLimit, Node};
use mmtree::io::{fnv1a64, TreeFile};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_mmtree");

fn mmtree(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run mmtree")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit 2, one line on stderr containing `needle`, nothing on stdout.
fn refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "expected exit 2: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one-line message: {err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {}", stdout(out));
}

fn succeeded(out: &Output) {
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), stderr(out));
}

/// A fresh directory for one test, removed when dropped (also after a failed assertion).
fn scratch(name: &str) -> TempDir {
    let dir = tempfile::Builder::new().prefix(&format!("mmtree-hostile-{name}-")).tempdir().expect("scratch directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The Min-max tree of [3,3] saved by `solve -o`.
fn tree(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    succeeded(&mmtree(&["solve", "-n", "3", "-k", "3", "-q", "-o", p(&path)]));
    path
}

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().next()) == Some("0")
}

/// `bytes` with its last 8 bytes replaced by the checksum of the rest (a well-formed file
/// whose contents were edited).
fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let end = bytes.len() - 8;
    let sum = fnv1a64(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

mod outputs {
    use super::*;

    #[test]
    fn device_nodes_are_written_in_place() {
        let dir = scratch("device");
        // As root a bug could replace the machine's /dev/null: use a private node instead.
        let node = if is_root() {
            let node = dir.path().join("null");
            let made = Command::new("mknod").args([p(&node), "c", "1", "3"]).status();
            if !made.is_ok_and(|s| s.success()) {
                eprintln!("skipped: mknod is not available");
                return;
            }
            node
        } else {
            PathBuf::from("/dev/null")
        };
        for args in [
            vec!["solve", "-n", "2", "-k", "2", "-q", "-o", p(&node)],
            vec!["sweep", "-n", "2", "-k", "2", "-q", "--format", "csv", "-o", p(&node)],
        ] {
            succeeded(&mmtree(&args));
            assert!(std::fs::metadata(&node).unwrap().file_type().is_char_device(), "{args:?} replaced the device");
        }
    }

    #[test]
    fn fifos_are_written_in_place() {
        let dir = scratch("fifo");
        let input = tree(dir.path(), "a.mmt");
        let fifo = dir.path().join("pipe");
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        succeeded(&mmtree(&["dot", p(&input), "-o", p(&fifo)]));
        assert!(reader.join().unwrap().starts_with("digraph"));
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    }

    #[test]
    fn symbolic_links_are_followed_to_their_target() {
        let dir = scratch("links");
        let input = tree(dir.path(), "a.mmt");
        let target = dir.path().join("target.dot");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.dot");
        std::os::unix::fs::symlink("target.dot", &link).unwrap();
        succeeded(&mmtree(&["dot", p(&input), "-o", p(&link)]));
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
        assert!(std::fs::read_to_string(&target).unwrap().starts_with("digraph"));
        // A dangling link creates its target.
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("created.json", &dangling).unwrap();
        succeeded(&mmtree(&["export", p(&input), "-o", p(&dangling)]));
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert!(std::fs::read_to_string(dir.path().join("created.json")).unwrap().starts_with('{'));
    }

    #[test]
    fn read_only_files_are_refused_and_modes_are_kept() {
        let dir = scratch("modes");
        let input = tree(dir.path(), "a.mmt");
        let locked = dir.path().join("locked.dot");
        std::fs::write(&locked, "keep me").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
        refused(&mmtree(&["dot", p(&input), "-o", p(&locked)]), "read-only");
        assert_eq!(std::fs::read_to_string(&locked).unwrap(), "keep me");
        assert_eq!(std::fs::metadata(&locked).unwrap().permissions().mode() & 0o777, 0o444);
        let private = dir.path().join("private.dot");
        std::fs::write(&private, "old").unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o640)).unwrap();
        succeeded(&mmtree(&["dot", p(&input), "-o", p(&private)]));
        assert!(std::fs::read_to_string(&private).unwrap().starts_with("digraph"));
        assert_eq!(std::fs::metadata(&private).unwrap().permissions().mode() & 0o777, 0o640);
    }

    #[test]
    fn dash_and_dev_stdout_write_to_standard_output() {
        let dir = scratch("stdout");
        let input = tree(dir.path(), "a.mmt");
        for target in ["-", "/dev/stdout"] {
            let out = mmtree(&["dot", p(&input), "-o", target]);
            succeeded(&out);
            assert!(stdout(&out).starts_with("digraph"), "{target}");
        }
        assert!(std::fs::symlink_metadata("/dev/stdout").is_ok_and(|m| !m.is_file()));
        // A normal user cannot create files in /dev: the old temporary-file write failed.
        let setpriv = Path::new("/usr/bin/setpriv");
        if is_root() && setpriv.exists() {
            let out = Command::new(setpriv)
                .args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN, "dot", p(&input), "-o", "/dev/stdout"])
                .output()
                .unwrap();
            succeeded(&out);
            assert!(stdout(&out).starts_with("digraph"));
        }
    }

    #[test]
    fn an_output_naming_an_input_or_another_output_is_refused() {
        let dir = scratch("same");
        let a = tree(dir.path(), "a.mmt");
        let before = std::fs::read(&a).unwrap();
        let in_dir = |name: &str| p(&dir.path().join(name)).to_string();
        std::fs::hard_link(&a, dir.path().join("hard.mmt")).unwrap();
        std::os::unix::fs::symlink("a.mmt", dir.path().join("soft.mmt")).unwrap();
        let dotted = format!("{}/./a.mmt", p(dir.path()));
        let csv = in_dir("s.csv");
        succeeded(&mmtree(&["sweep", "-n", "2", "-k", "2", "-q", "--format", "csv", "-o", &csv]));
        let csv_before = std::fs::read(&csv).unwrap();
        for args in [
            vec!["export", p(&a), "-o", p(&a)],
            vec!["dot", p(&a), "-o", &dotted],
            vec!["dot", p(&a), "-o", &in_dir("hard.mmt")],
            vec!["export", p(&a), "-o", &in_dir("soft.mmt")],
            vec!["optimal", "-n", "2", "-k", "3", "-o", &in_dir("x"), "--checkpoint", &in_dir("x")],
            vec!["sweep", "-n", "2", "-k", "2", "-o", &in_dir("t.csv"), "--plot", &in_dir("t.csv")],
            vec!["sweep", "-n", "2", "-k", "2", "--resume", &csv, "--plot", &csv],
            vec!["first-guesses", "-n", "2", "-k", "3", "-o", &in_dir("f.md"), "--plot", &in_dir("f.md")],
            vec!["merge", &csv, "-o", &csv],
        ] {
            refused(&mmtree(&args), "names the same file");
        }
        assert_eq!(std::fs::read(&a).unwrap(), before, "the input is untouched");
        assert_eq!(std::fs::read(&csv).unwrap(), csv_before, "the input is untouched");
        for name in ["x", "t.csv", "f.md"] {
            assert!(!dir.path().join(name).exists(), "{name} was written");
        }
        // /dev/null may take any number of outputs.
        if !is_root() {
            succeeded(&mmtree(&["first-guesses", "-n", "2", "-k", "2", "-o", "/dev/null", "--plot", "/dev/null"]));
        }
    }

    #[test]
    fn output_paths_are_checked_before_the_work() {
        let dir = scratch("checked");
        let a = tree(dir.path(), "a.mmt");
        let csv = dir.path().join("s.csv");
        succeeded(&mmtree(&["sweep", "-n", "2", "-k", "2", "-q", "--format", "csv", "-o", p(&csv)]));
        let missing = "/nonexistent-mmtree-dir/out";
        for args in [
            vec!["solve", "-n", "3", "-k", "3", "-o", missing],
            vec!["optimal", "-n", "2", "-k", "3", "-o", missing],
            vec!["optimal", "-n", "2", "-k", "3", "--checkpoint", missing],
            vec!["dot", p(&a), "-o", missing],
            vec!["export", p(&a), "-o", missing],
            vec!["sweep", "-n", "2", "-k", "2", "-o", missing],
            vec!["sweep", "-n", "2", "-k", "2", "--plot", missing],
            vec!["first-guesses", "-n", "2", "-k", "2", "-o", missing],
            vec!["first-guesses", "-n", "2", "-k", "2", "--plot", missing],
            vec!["merge", p(&csv), "-o", missing],
        ] {
            refused(&mmtree(&args), "output directory '/nonexistent-mmtree-dir' does not exist");
        }
        refused(&mmtree(&["solve", "-n", "3", "-k", "3", "-o", p(dir.path())]), "it is a directory");
        refused(&mmtree(&["optimal", "-n", "2", "-k", "3", "--checkpoint", p(dir.path())]), "it is a directory");
    }

    #[test]
    fn an_unwritable_directory_is_refused_up_front() {
        if is_root() {
            eprintln!("skipped: root writes into any directory");
            return;
        }
        let dir = scratch("unwritable");
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        refused(&mmtree(&["solve", "-n", "3", "-k", "3", "-o", p(&locked.join("t.mmt"))]), "cannot write");
    }
}

mod inputs {
    use super::*;

    /// The [3,3] tree with its header's game replaced by [8,9] (43,046,721 codes), checksum
    /// valid: 289 bytes that claim a game of gigabytes.
    fn huge_claim(dir: &Path) -> PathBuf {
        let a = tree(dir, "a.mmt");
        let mut file = TreeFile::from_bytes(&std::fs::read(&a).unwrap()).unwrap();
        file.header.game = GameSpec::mastermind(8, 9);
        let path = dir.join("claims-8-9.mmt");
        std::fs::write(&path, file.to_bytes()).unwrap();
        path
    }

    #[test]
    fn a_header_claiming_a_huge_game_is_refused_before_allocating() {
        let dir = scratch("claim");
        let path = huge_claim(dir.path());
        for command in ["stats", "verify", "dot", "export"] {
            refused(&mmtree(&[command, p(&path)]), "cannot hold a strategy tree of [8,9]");
        }
        // Under a 1 GB address-space limit the refusal is clean, not an abort.
        let limited = format!("ulimit -v 1000000; exec '{BIN}' stats '{}'", p(&path));
        let out = Command::new("sh").args(["-c", &limited]).output().unwrap();
        refused(&out, "claims-8-9.mmt");
    }

    #[test]
    fn endless_and_oversized_inputs_are_read_with_a_bound() {
        refused(&mmtree(&["stats", "/dev/zero"]), "wrong magic bytes");
        // A stream announcing a 1 TiB body is refused after its 20-byte prefix.
        let mut prefix = TreeFile::from_bytes(&std::fs::read(tree(scratch("stream").path(), "a.mmt")).unwrap())
            .unwrap()
            .to_bytes()[..12]
            .to_vec();
        prefix.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let mut child = Command::new(BIN)
            .args(["stats", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stream = prefix.clone();
        // 1 MiB follows the prefix: reading it all would end in "truncated", not this refusal.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&stream).and_then(|()| stdin.write_all(&vec![0; 1 << 20]));
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        refused(&out, "the most mmtree reads as a tree file");
        // A regular file shorter than it announces is refused without reading on.
        let dir = scratch("short");
        let short = dir.path().join("short.mmt");
        std::fs::write(&short, &prefix).unwrap();
        refused(&mmtree(&["stats", p(&short)]), "truncated");
    }

    #[test]
    fn play_reads_bounded_utf8_lines() {
        let play = |stdin: Stdio| {
            Command::new(BIN).args(["play", "-n", "4", "-k", "6", "--seed", "1"]).stdin(stdin).output().unwrap()
        };
        let out = play(std::fs::File::open("/dev/zero").unwrap().into());
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("standard input: line 1 is longer than 4096 bytes"), "{}", stderr(&out));
        let dir = scratch("play");
        let latin1 = dir.path().join("moves.txt");
        std::fs::write(&latin1, b"1122\r\n12\xe94\n").unwrap();
        let out = play(std::fs::File::open(&latin1).unwrap().into());
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stdout(&out).contains("1122 (0,0): 256 candidate(s) left"),
            "the first line (CRLF) is played: {}",
            stdout(&out)
        );
        assert!(stderr(&out).contains("standard input is not UTF-8 text (invalid bytes on line 2)"));
    }

    #[test]
    fn directories_and_non_utf8_text_are_bad_input() {
        let dir = scratch("inputs");
        let d = p(dir.path());
        for args in [
            vec!["stats", d],
            vec!["verify", d],
            vec!["dot", d],
            vec!["export", d],
            vec!["trace", d, "--secret", "123"],
            vec!["merge", d],
            vec!["sweep", "-n", "2", "-k", "2", "--resume", d],
            vec!["games", "graph", d],
        ] {
            refused(&mmtree(&args), "is a directory");
        }
        let binary = dir.path().join("latin1.txt");
        std::fs::write(&binary, b"n,k\n4,6 caf\xe9\n").unwrap();
        let b = p(&binary);
        for args in [vec!["merge", b], vec!["sweep", "-n", "2", "-k", "2", "--resume", b], vec!["games", "graph", b]] {
            refused(&mmtree(&args), "is not UTF-8 text (invalid bytes on line 2)");
        }
        refused(&mmtree(&["merge", p(&dir.path().join("missing.csv"))]), "no such file");
    }
}

mod messages {
    use super::*;

    #[test]
    fn clap_errors_show_the_whole_message() {
        let out = mmtree(&["solve", "-n", "4"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2));
        assert!(err.contains("the following required arguments were not provided"), "{err}");
        assert!(err.contains("--colours <K>"), "names the missing flag: {err}");
        assert!(err.contains("Usage: mmtree solve"), "{err}");
        assert!(err.contains("For more information, try '--help'."), "{err}");
    }

    #[test]
    fn exit_codes_follow_one_rule() {
        let dir = scratch("codes");
        let a = tree(dir.path(), "a.mmt");
        let bad_checkpoint = dir.path().join("ck.json");
        std::fs::write(&bad_checkpoint, "{not json").unwrap();
        // Bad input: 2.
        for args in [
            vec!["merge", p(dir.path())],
            vec!["optimal", "-n", "2", "-k", "3", "--checkpoint", p(&bad_checkpoint)],
            vec!["first-guesses", "-n", "2", "-k", "2", "--plot", "/nonexistent-mmtree-dir/p.svg"],
            vec!["sweep", "-n", "2", "-k", "2", "--resume", p(dir.path())],
            vec!["stats", p(&dir.path().join("missing.mmt"))],
        ] {
            assert_eq!(mmtree(&args).status.code(), Some(2), "{args:?}");
        }
        // A failure of the work: 1 (an interrupted search, a tree that does not verify).
        let stopped = mmtree(&["optimal", "-n", "4", "-k", "6", "--stop-after-nodes", "100", "-q"]);
        assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
        let mut file = TreeFile::from_bytes(&std::fs::read(&a).unwrap()).unwrap();
        file.header.stats.total += 1;
        let tampered = dir.path().join("tampered.mmt");
        std::fs::write(&tampered, file.to_bytes()).unwrap();
        assert_eq!(mmtree(&["verify", p(&tampered)]).status.code(), Some(1));
    }

    #[test]
    fn too_many_threads_are_capped_with_a_message() {
        let out = mmtree(&["--threads", "10000", "solve", "-n", "2", "-k", "2", "--format", "csv"]);
        succeeded(&out);
        assert!(stderr(&out).contains("--threads 10000 is more than 4 per core"), "{}", stderr(&out));
        assert!(stdout(&out).contains("2,2,repetition,black-white,minimax"));
    }

    #[test]
    fn flags_that_would_be_ignored_are_refused() {
        let dir = scratch("ignored");
        let a = tree(dir.path(), "a.mmt");
        for flags in [&["--lookahead", "2"][..], &["--pool", "candidates"], &["--valuation", "entropy"], &["-n", "3"]] {
            let mut args = vec!["trace", p(&a), "--secret", "123"];
            args.extend_from_slice(flags);
            let out = mmtree(&args);
            assert_eq!(out.status.code(), Some(2), "{flags:?}");
            assert!(stderr(&out).contains("cannot be used with"), "{flags:?}: {}", stderr(&out));
        }
        let out = mmtree(&["advise", "-n", "4", "-k", "6", "--top", "0"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("must be at least 1"));
        let first = ["solve", "-n", "3", "-k", "3", "--valuation", "first-candidate"];
        refused(&mmtree(&[&first[..], &["--no-prefer-candidates"]].concat()), "--no-prefer-candidates does not apply");
        refused(&mmtree(&["solve", "-n", "3", "-k", "3", "--valuation", "human", "--pool", "candidates"]), "human");
        let advise = ["advise", "-n", "3", "-k", "3", "--pool", "candidates", "--valuation", "human"];
        refused(&mmtree(&advise), "--pool does not apply");
        // --ties is honoured by first-candidate: the largest candidate first.
        let out = mmtree(&[&first[..], &["--ties", "largest", "--format", "json"]].concat());
        succeeded(&out);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["first_guess"], "333");
    }

    #[test]
    fn first_candidate_honours_the_candidate_pool() {
        // First-candidate plays a candidate by construction: with --pool candidates every
        // guess of the tree is a candidate of its state, and the play is that of --pool all.
        let dir = scratch("first-candidate");
        let load = |pool: &str| {
            let path = dir.path().join(format!("{pool}.mmt"));
            let args = ["solve", "-n", "4", "-k", "4", "-q", "--valuation", "first-candidate", "--pool", pool];
            succeeded(&mmtree(&[&args[..], &["-o", p(&path)]].concat()));
            TreeFile::from_bytes(&std::fs::read(&path).unwrap()).unwrap()
        };
        let (all, candidates) = (load("all"), load("candidates"));
        assert_eq!(all.tree, candidates.tree);
        assert_eq!((all.header.rule.pool.as_str(), candidates.header.rule.pool.as_str()), ("all", "candidates"));
        let game = *candidates.tree.game();
        let space = CodeSpace::new(game, MemoryLimit(1 << 30)).unwrap();
        let tree = &candidates.tree;
        let mut states = vec![(tree.root(), space.all_indices())];
        let mut guesses = 0;
        while let Some((id, cands)) = states.pop() {
            let Node::Guess { guess, .. } = *tree.node(id) else { continue };
            assert!(cands.contains(&guess), "a guess outside the candidates");
            guesses += 1;
            for edge in tree.children(id) {
                let part: Vec<_> =
                    cands.iter().copied().filter(|&c| space.feedback(guess, c) == edge.feedback).collect();
                states.push((edge.child, part));
            }
        }
        assert!(guesses > 1);
    }

    /// The [3,3] tree file with one edit to its bytes, checksum recomputed.
    fn edited(dir: &Path, name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
        let mut bytes = std::fs::read(tree(dir, "a.mmt")).unwrap();
        edit(&mut bytes);
        let path = dir.join(name);
        std::fs::write(&path, with_checksum(bytes)).unwrap();
        path
    }

    fn position(bytes: &[u8], needle: &[u8]) -> usize {
        bytes.windows(needle.len()).position(|w| w == needle).unwrap()
    }

    #[test]
    fn corrupt_tree_files_are_described_in_words_the_same_by_every_command() {
        let dir = scratch("corrupt");
        // The flag `prefer_candidates` follows the tie order's name in the header.
        let flag = edited(dir.path(), "flag.mmt", |b| {
            let at = position(b, b"smallest") + "smallest".len();
            b[at] = 7;
        });
        // The game's variant (a two-valued tag) is the header's third byte.
        let variant = edited(dir.path(), "variant.mmt", |b| b[22] = 5);
        let bogus = edited(dir.path(), "bogus.mmt", |b| {
            let at = position(b, b"minimax");
            b[at..at + 7].copy_from_slice(b"maximin");
        });
        let last_node = edited(dir.path(), "node.mmt", |b| {
            let at = b.len() - 9;
            b[at] = 0xff;
        });
        for (path, words) in [
            (&flag, "a yes/no flag holds 7 instead of 0 or 1"),
            (&variant, "unknown kind number 5"),
            (&bogus, "unknown valuation 'maximin' recorded in the file"),
            (&last_node, "node "),
        ] {
            for command in [&["stats"][..], &["verify"], &["dot"], &["export"], &["trace", "--secret", "123"]] {
                let mut args = vec![command[0], p(path)];
                args.extend_from_slice(&command[1..]);
                let out = mmtree(&args);
                refused(&out, words);
                refused(&out, p(path));
                for debug in ["InvalidBooleanValue", "OtherString", "UnexpectedEnd", "Utf8 {"] {
                    assert!(!stderr(&out).contains(debug), "{args:?}: {}", stderr(&out));
                }
            }
        }
    }

    #[test]
    fn messages_say_what_is_wrong() {
        let out = mmtree(&["advise", "-n", "4", "-k", "6", "--black-only", "--history", "1122:1,2"]);
        refused(&out, "a black-only game scores a round with one number");
        assert!(!stderr(&out).contains("impossible"));
        for depth in ["255", "300", "0"] {
            let out = mmtree(&["optimal", "-n", "2", "-k", "2", "--max-depth", depth]);
            assert_eq!(out.status.code(), Some(2));
            assert!(stderr(&out).contains(&format!("{depth} is not in 1..=254")), "{}", stderr(&out));
        }
        succeeded(&mmtree(&["optimal", "-n", "2", "-k", "2", "--max-depth", "254"]));
        for symbols in ["a\u{1}bc", "ab\u{1b}[31mc", "ab\u{202e}cd"] {
            let out = mmtree(&["solve", "-n", "2", "-k", "2", "--symbols", symbols]);
            refused(&out, "control or invisible character");
            let err = stderr(&out);
            assert!(!err.trim_end().chars().any(|c| c.is_control() || c == '\u{202e}'), "raw: {err:?}");
        }
        let out = mmtree(&["solve", "-n", "2", "-k", "2", "--first", "1\u{1b}"]);
        refused(&out, "\\u{1b}");
        assert!(!stderr(&out).contains('\u{1b}'));
        // Text from a file is escaped too, in every message.
        let dir = scratch("escapes");
        let table = dir.path().join("s.csv");
        let header = "n,k,variant,feedback,valuation,pool,ties,first_guess,max,total,average,histogram,skipped";
        std::fs::write(
            &table,
            format!("{header}\n2,2,rep\u{1b}[2J,black-white,minimax,all,smallest,11,3,8,2.000,1 2 1,\n"),
        )
        .unwrap();
        let out = mmtree(&["merge", p(&table)]);
        refused(&out, "unknown variant 'rep\\u{1b}[2J'");
        assert!(!stderr(&out).contains('\u{1b}'));
    }
}

mod games {
    use super::*;

    fn graph_file(dir: &Path, name: &str, edges: impl Iterator<Item = (usize, usize)>) -> PathBuf {
        let mut text = String::from("digraph {\n");
        for (a, b) in edges {
            text.push_str(&format!("  n{a} -> n{b};\n"));
        }
        text.push_str("}\n");
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn long_cycles_and_chains_fit_the_stack() {
        let dir = scratch("graphs");
        let n = 100_000;
        let cycle = graph_file(dir.path(), "cycle.dot", (0..n).map(|i| (i, (i + 1) % n)));
        let out = mmtree(&["games", "graph", p(&cycle)]);
        refused(&out, "the game graph has a cycle through node \"n0\"");
        assert!(stderr(&out).contains("-> ... -> n99999 -> n0, 100000 moves"), "{}", stderr(&out));
        let chain = graph_file(dir.path(), "chain.dot", (0..n - 1).map(|i| (i, i + 1)));
        let out = mmtree(&["games", "graph", p(&chain), "--format", "csv"]);
        succeeded(&out);
        // Positions alternate from the terminal end: n99999 is P, n99998 N, ..., n0 N.
        assert!(stdout(&out).contains("\nn0,1,N\n") && stdout(&out).contains("\nn99999,0,P\n"));
    }

    #[test]
    fn work_beyond_a_few_seconds_is_refused_naming_what_fits() {
        let octal = format!("0.{}", "7".repeat(100));
        let out = mmtree(&["games", "octal", &octal, "--up-to", "50000"]);
        refused(&out, "lower --up-to to at most");
        let moves: Vec<String> = (1..=20_000).map(|m| m.to_string()).collect();
        let out = mmtree(&["games", "subtraction", "--moves", &moves.join(","), "--up-to", "1000000"]);
        refused(&out, "lower --up-to to at most");
        // Kayles to the largest --up-to still runs.
        succeeded(&mmtree(&["games", "octal", "0.77", "--up-to", "50000", "--format", "csv"]));
    }

    #[test]
    fn nim_with_ten_thousand_heaps() {
        let heaps: Vec<u64> = (1..=10_000).collect();
        let mut args = vec!["games".to_string(), "nim".into(), "--misere".into(), "--format".into(), "json".into()];
        args.extend(heaps.iter().map(u64::to_string));
        let out = Command::new(BIN).args(&args).output().unwrap();
        succeeded(&out);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // Some heap has 2 or more tokens, so misère play wins like normal play: move a heap
        // h to h XOR s wherever that is smaller (Bouton).
        let s = heaps.iter().fold(0, |a, h| a ^ h);
        let expected: Vec<u64> = heaps.iter().copied().filter(|&h| h ^ s < h).collect();
        let moves = v["winning_moves"].as_array().unwrap();
        assert_eq!(moves.len(), expected.len());
        for (m, h) in moves.iter().zip(&expected) {
            assert_eq!((m["from"].as_u64(), m["to"].as_u64()), (Some(*h), Some(h ^ s)));
        }
    }

    #[test]
    fn a_move_near_the_largest_integer_proves_no_period() {
        let out = mmtree(&["games", "subtraction", "--moves", "18446744073709551615", "--format", "json"]);
        succeeded(&out);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["periodicity"]["proved"], false, "{v}");
        let md = stdout(&mmtree(&["games", "subtraction", "--moves", "18446744073709551615"]));
        assert!(md.contains("not proved") && md.contains("beyond the largest supported"), "{md}");
    }
}
