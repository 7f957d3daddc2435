//! Game graphs from DOT: parsing, SG values, round trip, and errors.

use mmtree_games::{subtraction_sg, GameGraph, GamesError, Outcome};

fn sg_of(g: &GameGraph, id: &str) -> u32 {
    let values = g.sg_values().unwrap();
    values[g.position(id).unwrap().index()]
}

#[test]
fn parses_the_supported_dot_subset() {
    let src = r#"
        // a comment
        # a preprocessor line
        strict digraph "My game" {
            graph [rankdir=LR];
            node [shape=circle]; edge [color=gray]
            rankdir = LR
            /* block
               comment */
            start -> "pos 1" -> end;
            start -> "pos \"2\"" [label="take 2", weight=3]
            "pos \"2\"" -> end
            lonely;
            n1:port -> -2.5
            <<b>html</b>> -> end;
        }
    "#;
    let g = GameGraph::from_dot(src).unwrap();
    assert_eq!(g.name(), Some("My game"));
    let ids: Vec<&str> = g.graph().node_weights().map(String::as_str).collect();
    assert_eq!(ids, ["start", "pos 1", "end", "pos \"2\"", "lonely", "n1", "-2.5", "<b>html</b>"]);
    assert_eq!(g.graph().edge_count(), 6);
    assert_eq!(sg_of(&g, "end"), 0);
    assert_eq!(sg_of(&g, "pos 1"), 1);
    assert_eq!(sg_of(&g, "start"), 0); // both options have value 1
    assert_eq!(sg_of(&g, "lonely"), 0);
}

#[test]
fn sg_values_of_a_small_game() {
    // a -> {b, c, d}, b -> {c, d}, c -> d: d = 0, c = 1, b = 2, a = 3.
    let g = GameGraph::from_dot("digraph { a -> b; a -> c; a -> d; b -> c -> d; b -> d }").unwrap();
    assert_eq!(["a", "b", "c", "d"].map(|id| sg_of(&g, id)), [3, 2, 1, 0]);
    let outcomes = g.outcomes().unwrap();
    assert_eq!(outcomes[g.position("d").unwrap().index()], Outcome::P);
    assert_eq!(outcomes[g.position("a").unwrap().index()], Outcome::N);
}

#[test]
fn subtraction_game_as_a_graph_agrees() {
    // Backward induction on the explicit position graph of the subtraction
    // game {1, 3, 4} must agree with the direct computation.
    let moves = [1usize, 3, 4];
    let mut dot = String::from("digraph S {\n");
    for n in 0..=60usize {
        dot.push_str(&format!("  {n};\n"));
        for m in moves.iter().filter(|&&m| m <= n) {
            dot.push_str(&format!("  {n} -> {};\n", n - m));
        }
    }
    dot.push('}');
    let g = GameGraph::from_dot(&dot).unwrap();
    let direct = subtraction_sg(&moves, 60);
    for (n, &v) in direct.iter().enumerate() {
        assert_eq!(sg_of(&g, &n.to_string()), v, "g({n})");
    }
}

#[test]
fn dot_round_trip_keeps_game_and_values() {
    let src = r#"digraph G { a -> b -> c; a -> c; "x y" -> a; "q\"uote" -> c; iso }"#;
    let g = GameGraph::from_dot(src).unwrap();
    let values = g.sg_values().unwrap();
    let out = g.to_dot(&values);
    assert!(out.starts_with("digraph \"G\" {"));
    assert!(out.contains(r#""a" [label="a\nSG=2 N"];"#), "{out}");
    assert!(out.contains(r#""c" [label="c\nSG=0 P", shape=doublecircle];"#), "{out}");
    let back = GameGraph::from_dot(&out).unwrap();
    assert_eq!(back.name(), Some("G"));
    let nodes = |g: &GameGraph| -> Vec<String> { g.graph().node_weights().cloned().collect() };
    let edges = |g: &GameGraph| -> Vec<(String, String)> {
        let gr = g.graph();
        let mut e: Vec<_> = gr
            .edge_indices()
            .map(|e| {
                let (a, b) = gr.edge_endpoints(e).unwrap();
                (gr[a].clone(), gr[b].clone())
            })
            .collect();
        e.sort();
        e
    };
    assert_eq!(nodes(&back), nodes(&g));
    assert_eq!(edges(&back), edges(&g));
    assert_eq!(back.sg_values().unwrap(), values);
    // Writing again is a fixed point.
    assert_eq!(back.to_dot(&back.sg_values().unwrap()), out);
}

#[test]
fn cycle_is_an_error_naming_a_node_on_it() {
    let g = GameGraph::from_dot("digraph { s -> a; a -> b; b -> c; c -> a; c -> t }").unwrap();
    match g.sg_values() {
        Err(GamesError::Cycle { node, cycle }) => {
            assert!(["a", "b", "c"].contains(&node.as_str()), "{node}");
            let parts: Vec<&str> = cycle.split(" -> ").collect();
            assert_eq!(parts.len(), 4, "{cycle}");
            assert_eq!(parts.first(), parts.last());
            let msg = GamesError::Cycle { node: node.clone(), cycle: cycle.clone() }.to_string();
            assert!(msg.contains("cycle") && !msg.contains('\n'), "{msg}");
        }
        other => panic!("expected a cycle error, got {other:?}"),
    }
    let selfloop = GameGraph::from_dot("digraph { a -> a }").unwrap();
    assert!(matches!(
        selfloop.sg_values(),
        Err(GamesError::Cycle { node, .. }) if node == "a"
    ));
}

#[test]
fn malformed_dot_is_a_clear_error() {
    let cases = [
        ("", "expected 'digraph'"),
        ("graph G { a -- b }", "undirected"),
        ("digraph { a -- b }", "undirected edge"),
        ("digraph { a -> }", "expected a node id"),
        ("digraph { a -> b", "missing closing"),
        ("digraph { subgraph s { a } }", "subgraphs"),
        ("digraph { \"a -> b }", "unterminated quoted string"),
        ("digraph { a [label=] }", "attribute value"),
        ("digraph { a } digraph { b }", "one graph per file"),
        ("digraph { 1a -> b }", "starting with a digit"),
        ("digraph { a -> b @ }", "unexpected character"),
        ("digraph {\n a -> b;\n c -> ; }", "line 3"),
    ];
    for (src, want) in cases {
        match GameGraph::from_dot(src) {
            Err(e @ GamesError::Dot { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains(want), "{src:?}: {msg}");
                assert!(!msg.contains('\n'));
            }
            other => panic!("{src:?}: expected a DOT error, got {other:?}"),
        }
    }
}

#[test]
fn long_cycles_and_chains_need_no_recursion() {
    // 200,000 positions on a 256 KiB stack: a recursive walk would overflow it.
    let run = std::thread::Builder::new().stack_size(256 << 10).spawn(|| {
        let n = 200_000;
        let mut cycle = GameGraph::new();
        let mut chain = GameGraph::new();
        for i in 0..n {
            cycle.add_move(&format!("p{i}"), &format!("p{}", (i + 1) % n));
            if i + 1 < n {
                chain.add_move(&format!("p{i}"), &format!("p{}", i + 1));
            }
        }
        let cycle_error = cycle.sg_values().unwrap_err().to_string();
        let chain_values = chain.sg_values().unwrap();
        (cycle_error, chain_values[0], chain_values[n - 1])
    });
    let (error, first, last) = run.unwrap().join().unwrap();
    assert!(error.contains("p0 -> p1") && error.contains("200000 moves") && !error.contains('\n'), "{error}");
    // From the terminal end the values alternate 0, 1, 0, ...: p0 is 199,999 moves away.
    assert_eq!((first, last), (1, 0));
}
