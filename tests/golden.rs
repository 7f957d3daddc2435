//! Tree files byte for byte: every game of `tests/data/golden/games.txt` is built again by the
//! binary and compared with the size and SHA-256 recorded in `trees.csv`, which
//! `scripts/golden-trees.sh --write` made before the search code was reorganised. A change
//! that alters any tree (a guess, the order of children, a header field) fails here.
//! Rows marked `slow` in games.txt run only with `MMTREE_SLOW_TESTS=1`.

use std::collections::HashMap;
use std::process::Command;

use sha2::{Digest, Sha256};

const GAMES: &str = include_str!("data/golden/games.txt");
const TREES: &str = include_str!("data/golden/trees.csv");

#[test]
fn tree_files_are_unchanged() {
    let recorded: HashMap<&str, (u64, &str)> = TREES
        .lines()
        .filter(|l| !l.starts_with('#') && *l != "args,bytes,sha256")
        .map(|l| {
            let mut f = l.rsplitn(3, ',');
            let (sum, bytes, args) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            (args, (bytes.parse().unwrap(), sum))
        })
        .collect();
    let slow = std::env::var_os("MMTREE_SLOW_TESTS").is_some();
    // Removed when dropped, also after a failed assertion.
    let dir = tempfile::Builder::new().prefix("mmtree-golden-").tempdir().unwrap();
    let path = dir.path().join("t.mmt");
    let mut checked = 0;
    for line in GAMES.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (is_slow, args) = match line.strip_prefix("slow ") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        if is_slow && !slow {
            continue;
        }
        let &(bytes, sum) = recorded.get(args).unwrap_or_else(|| panic!("no recorded tree for '{args}'"));
        let status = Command::new(env!("CARGO_BIN_EXE_mmtree"))
            .args(args.split_whitespace())
            .args(["-q", "-o"])
            .arg(&path)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "mmtree {args} failed");
        let file = std::fs::read(&path).unwrap();
        let digest: String = Sha256::digest(&file).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!((file.len() as u64, digest.as_str()), (bytes, sum), "the tree of 'mmtree {args}' changed");
        checked += 1;
    }
    assert!(checked >= 70, "only {checked} trees checked");
}
