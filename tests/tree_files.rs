//! Tree files end to end at the library level: build with the solver, serialise, drop the
//! solver, check from the bytes with the independent verifier.
//!
//! These tests cannot live in mmtree-verify: building real trees needs mmtree-strategy, which
//! the checker must never depend on (not even as a dev-dependency), as in varisat's
//! `tests/checker.rs`.

use mmtree::core::{
    Alphabet, CodeIndex, CodeSpace, FeedbackIndex, Game, GameSpec, MemoryLimit, Node, NodeId, StrategyTree, Subtree,
};
use mmtree::io::{strategy_graph, tree_json, DotEdge, DotNode, DotOptions, RuleInfo, TreeFile};
use mmtree::strategy::{GuessRule, Solver, Valuation};
use mmtree_verify::{verify, verify_bytes, VerifyError};
use proptest::prelude::*;

const LIMIT: MemoryLimit = MemoryLimit(1 << 30);

fn space(n: u8, k: u8) -> CodeSpace {
    CodeSpace::new(Game::new(GameSpec::mastermind(n, k)).unwrap(), LIMIT).unwrap()
}

/// The Min-max tree of `[n,k]` as file bytes; the solver is dropped before returning.
fn minimax_bytes(n: u8, k: u8) -> Vec<u8> {
    let space = space(n, k);
    let tree = Solver::new(&space, GuessRule::new(Valuation::Minimax)).build();
    let symbols = Alphabet::default().first(k);
    TreeFile::new(tree, symbols, RuleInfo::new("minimax", "all", "smallest", true, None)).to_bytes()
}

fn code(space: &CodeSpace, text: &str) -> CodeIndex {
    space.index(&Alphabet::default().parse(space.game(), text).unwrap()).unwrap()
}

/// The nested form of a subtree, for editing.
fn nested(tree: &StrategyTree, id: NodeId) -> Subtree {
    match *tree.node(id) {
        Node::Leaf { secret } => Subtree::Leaf(secret),
        Node::Guess { guess, candidates, .. } => Subtree::Guess {
            guess,
            candidates,
            children: tree.children(id).iter().map(|e| (e.feedback, nested(tree, e.child))).collect(),
        },
    }
}

/// The file with its tree replaced by `edit(nested root)`, header (recorded figures) kept.
fn edited(file: &TreeFile, edit: impl FnOnce(&mut Subtree)) -> TreeFile {
    let mut root = nested(&file.tree, file.tree.root());
    edit(&mut root);
    TreeFile { header: file.header.clone(), tree: StrategyTree::from_subtree(*file.tree.game(), root) }
}

fn children(sub: &mut Subtree) -> &mut Vec<(FeedbackIndex, Subtree)> {
    match sub {
        Subtree::Guess { children, .. } => children,
        Subtree::Leaf(_) => panic!("not a guess node"),
    }
}

fn knuth() -> (CodeSpace, TreeFile) {
    let bytes = minimax_bytes(4, 6);
    (space(4, 6), TreeFile::from_bytes(&bytes).unwrap())
}

#[test]
fn real_trees_verify_from_bytes_with_published_figures() {
    // Knuth 1977: max 5, total 5801 over 1296 secrets.
    let stats = verify_bytes(&minimax_bytes(4, 6), LIMIT).unwrap();
    assert_eq!((stats.secrets, stats.max, stats.total), (1296, 5, 5801));
    for (n, k) in [(2, 2), (3, 3), (2, 4), (3, 2)] {
        let stats = verify_bytes(&minimax_bytes(n, k), LIMIT).unwrap();
        assert_eq!(stats.secrets, u64::from(k).pow(u32::from(n)));
    }
}

#[test]
fn changed_guess_is_named_with_its_path() {
    let (space, file) = knuth();
    // After 1122 (0,0) Knuth plays 3345; play 1111 instead: every candidate scores (0,0).
    let bad = edited(&file, |root| {
        let (f, child) = &mut children(root)[0];
        assert_eq!(*f, FeedbackIndex::from_index(0));
        if let Subtree::Guess { guess, .. } = child {
            assert_eq!(*guess, code(&space, "3345"));
            *guess = code(&space, "1111");
        }
    });
    match verify(&bad, LIMIT) {
        Err(VerifyError::Children { path, guess, expected, found }) => {
            assert_eq!(path, "1122 (0,0)");
            assert_eq!(guess, "1111");
            assert_eq!(expected, "(0,0):256");
            assert!(found.starts_with("(0,0):"), "{found}");
        }
        other => panic!("unexpected {other:?}"),
    }
    let message = verify(&bad, LIMIT).unwrap_err().to_string();
    assert!(message.contains("at 1122 (0,0), guess 1111: expected children (0,0):256, found"), "{message}");
}

#[test]
fn dropped_subtree_is_a_missing_part() {
    let (_, file) = knuth();
    let bad = edited(&file, |root| {
        children(root).remove(1); // the (0,1) part of 1122
    });
    match verify(&bad, LIMIT) {
        Err(VerifyError::Children { path, expected, found, .. }) => {
            assert_eq!(path, "root");
            assert!(expected.contains("(0,1):"), "{expected}");
            assert!(!found.contains("(0,1):"), "{found}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn duplicated_leaf_is_refused() {
    let (space, file) = knuth();
    // Under 1122 (4,0) the leaf 1122; add a second copy of that winning edge.
    let win = space.scheme().win();
    let bad = edited(&file, |root| {
        let kids = children(root);
        let last = kids.last().unwrap().clone();
        assert_eq!(last, (win, Subtree::Leaf(code(&space, "1122"))));
        kids.push(last);
    });
    let err = verify(&bad, LIMIT).unwrap_err();
    assert!(
        matches!(&err, VerifyError::Children { path, found, .. } if path == "root" && found.ends_with("(4,0):1 (4,0):1")),
        "{err}"
    );
    // A leaf replaced by another secret's leaf (found twice overall) is caught where it lies.
    let bad = edited(&file, |root| {
        children(root).last_mut().unwrap().1 = Subtree::Leaf(code(&space, "1111"));
    });
    let err = verify(&bad, LIMIT).unwrap_err();
    assert_eq!(
        err,
        VerifyError::Win { path: "1122 (4,0)".into(), expected: "1122".into(), found: "the leaf 1111".into() }
    );
}

#[test]
fn altered_figures_are_named() {
    let (_, mut file) = knuth();
    file.header.stats.total += 1;
    let err = verify_bytes(&file.to_bytes(), LIMIT).unwrap_err();
    assert_eq!(err, VerifyError::Figure { field: "total", expected: "5801".into(), found: "5802".into() });
    let (_, mut file) = knuth();
    file.header.stats.max = 6;
    assert!(matches!(verify(&file, LIMIT), Err(VerifyError::Figure { field: "max", .. })));
    let (_, mut file) = knuth();
    file.header.rule.first_guess = Some("1123".into());
    assert_eq!(
        verify(&file, LIMIT).unwrap_err(),
        VerifyError::FirstGuess { expected: "1122".into(), found: "1123".into() }
    );
}

#[test]
fn wrong_candidate_count_is_named() {
    let (_, file) = knuth();
    let bad = edited(&file, |root| {
        if let Subtree::Guess { candidates, .. } = &mut children(root)[0].1 {
            *candidates = 255;
        }
    });
    assert_eq!(
        verify(&bad, LIMIT).unwrap_err(),
        VerifyError::CandidateCount { path: "1122 (0,0)".into(), expected: 256, found: 255 }
    );
}

/// The figure of the thesis for [2,2] Min-max: root 11; (0,0) to {22} solved by 22; (1,0) to
/// {12, 21} played 12, whose (0,2) leads to {21} solved by 21 (and (2,0) to the leaf 12);
/// (2,0) the leaf 11.
#[test]
fn two_two_minimax_drawing_is_the_thesis_figure() {
    let space = space(2, 2);
    let file = TreeFile::from_bytes(&minimax_bytes(2, 2)).unwrap();
    let graph = strategy_graph(&file.tree, &space, &Alphabet::default(), DotOptions::default());
    let state = |set: &[&str], guess: &str| DotNode::State {
        set: Some(set.iter().map(|s| s.to_string()).collect()),
        size: set.len() as u32,
        guess: guess.into(),
    };
    let found = |s: &str| DotNode::Found { secret: s.into() };
    let mut edges: Vec<(DotNode, DotEdge, DotNode)> = graph
        .edge_indices()
        .map(|e| {
            let (a, b) = graph.edge_endpoints(e).unwrap();
            (graph[a].clone(), graph[e].clone(), graph[b].clone())
        })
        .collect();
    edges.sort_by_key(|(a, e, _)| (a.to_string(), e.to_string()));
    let edge = |g: &str, f: &str| DotEdge { guess: g.into(), feedback: f.into() };
    let root = state(&["11", "12", "21", "22"], "11");
    let mut expected = vec![
        (root.clone(), edge("11", "(0,0)"), state(&["22"], "22")),
        (root.clone(), edge("11", "(1,0)"), state(&["12", "21"], "12")),
        (root, edge("11", "(2,0)"), found("11")),
        (state(&["12", "21"], "12"), edge("12", "(0,2)"), state(&["21"], "21")),
        (state(&["12", "21"], "12"), edge("12", "(2,0)"), found("12")),
    ];
    expected.sort_by_key(|(a, e, _)| (a.to_string(), e.to_string()));
    assert_eq!(edges, expected);
    assert_eq!(graph.node_count(), 6);
}

#[test]
fn depth_cut_summarises_subtrees() {
    let (space, file) = knuth();
    let options = DotOptions { max_depth: Some(1), ..DotOptions::default() };
    let graph = strategy_graph(&file.tree, &space, &Alphabet::default(), options);
    let mut secrets = 0;
    for node in graph.node_weights() {
        match node {
            DotNode::Cut { secrets: s, max_guesses } => {
                secrets += s;
                assert!(*max_guesses <= 5);
            }
            DotNode::State { size, set, .. } if set.is_some() && *size <= 1 => secrets += 1,
            DotNode::Found { .. } => secrets += 1,
            _ => {}
        }
    }
    // Every secret is accounted for exactly once below the drawn levels.
    assert_eq!(secrets, 1296);
    assert!(graph.node_count() < 250, "{}", graph.node_count());
}

#[test]
fn json_export_counts_every_secret() {
    let (space, file) = knuth();
    let json = tree_json(&file, &space, &Alphabet::default()).unwrap();
    // Independent recount from the JSON: leaves and the sum of their depths.
    fn walk(v: &serde_json::Value, depth: u64, acc: &mut (u64, u64)) {
        if v.get("secret").is_some() {
            acc.0 += 1;
            acc.1 += depth;
        } else {
            for c in v["children"].as_array().unwrap() {
                walk(&c["node"], depth + 1, acc);
            }
        }
    }
    let mut acc = (0, 0);
    walk(&json["root"], 0, &mut acc);
    assert_eq!(acc, (1296, 5801));
    assert_eq!(json["root"]["guess"], "1122");
    assert_eq!(json["stats"]["max"], 5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// Random byte mutations: always an error or a tree that passes `verify`, never a panic.
    /// With `fix_checksum`, the mutated body gets a valid checksum so the decoder and the
    /// checker themselves face the damage.
    #[test]
    fn mutated_files_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        fix_checksum in any::<bool>(),
        cut in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let mut bytes = THREE_THREE.with(|b| b.clone());
        // With a repaired checksum, damage the body only (a broken prefix is refused anyway).
        let (start, end) = if fix_checksum { (20, bytes.len() - 8) } else { (0, bytes.len()) };
        for (at, value) in &edits {
            let i = start + at.index(end - start);
            bytes[i] = *value;
        }
        if let (Some(cut), false) = (cut, fix_checksum) {
            bytes.truncate(cut.index(bytes.len()));
        }
        if fix_checksum {
            let end = bytes.len() - 8;
            let sum = mmtree::io::fnv1a64(&bytes[..end]);
            bytes[end..].copy_from_slice(&sum.to_le_bytes());
        }
        if let Ok(file) = TreeFile::from_bytes(&bytes) {
            match verify(&file, LIMIT) {
                Ok(stats) => prop_assert_eq!(stats, file.tree.stats()),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
            // Drawing and exporting a damaged tree must not panic either.
            if let Ok(space) = CodeSpace::new(*file.tree.game(), LIMIT) {
                let _ = strategy_graph(&file.tree, &space, &Alphabet::default(), DotOptions::default());
                let _ = tree_json(&file, &space, &Alphabet::default());
            }
        }
    }
}

thread_local! {
    static THREE_THREE: Vec<u8> = minimax_bytes(3, 3);
}
