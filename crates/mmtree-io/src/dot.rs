//! Strategy trees and state graphs as Graphviz graphs, built with petgraph.
//!
//! The drawing follows the thesis figures: a state shows its candidate set (`{12, 21}`) when
//! small, else its size, and the guess played there; an edge shows `guess, (b,w)`. A state
//! with one candidate is drawn as one node (`{22}` solved by `22`) without its winning leaf,
//! unless [`DotOptions::win_edges`] asks for the winning guess as its own edge; a guess that
//! wins directly leads to a leaf showing the secret. Below `max_depth`, each cut subtree
//! becomes one summary node. [`DotLabels`] chooses what a node says: its candidate set, its
//! rounds `((11,(0,0)),(22,(2,0)))` as in the thesis, or only its size (compact: the cut
//! subtrees of a state are one node and edges show only the feedback).
//!
//! [`state_graph_dot`] draws the graph of candidate sets of `mmtree_core::state_graph`.

use std::fmt;

use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, Node, NodeId, StateGraph, StrategyTree};

/// What a node of a tree drawing says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DotLabels {
    /// The candidate set (up to `max_set` codes, else its size) and the guess played.
    #[default]
    Set,
    /// The rounds that led to the state, `((11,(0,0)),(22,(2,0)))`; the root is `()`.
    Rounds,
    /// Compact: `256: 1344` (candidates: guess); edges show only the feedback and everything
    /// below the depth limit under a state is one node `… 254, ≤ 5` (secrets, most guesses).
    Size,
}

/// Direction of a Graphviz layout (`rankdir`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankDir {
    /// Top to bottom (Graphviz's default).
    TopBottom,
    /// Left to right: deep trees use the width of a page.
    LeftRight,
    /// Bottom to top.
    BottomTop,
    /// Right to left.
    RightLeft,
}

impl RankDir {
    fn petgraph(self) -> petgraph::dot::RankDir {
        match self {
            RankDir::TopBottom => petgraph::dot::RankDir::TB,
            RankDir::LeftRight => petgraph::dot::RankDir::LR,
            RankDir::BottomTop => petgraph::dot::RankDir::BT,
            RankDir::RightLeft => petgraph::dot::RankDir::RL,
        }
    }
}

/// How much of a tree to draw, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DotOptions {
    /// Deepest state drawn (the root is depth 0); deeper subtrees become summary nodes.
    pub max_depth: Option<u32>,
    /// Largest candidate set written out in full; larger ones show their size.
    pub max_set: usize,
    /// What the nodes say.
    pub labels: DotLabels,
    /// Draw the winning guess of a one-candidate state as its own edge to a leaf.
    pub win_edges: bool,
    /// Layout direction; `None` leaves Graphviz's default (top to bottom).
    pub rankdir: Option<RankDir>,
}

impl Default for DotOptions {
    fn default() -> DotOptions {
        DotOptions { max_depth: None, max_set: 8, labels: DotLabels::Set, win_edges: false, rankdir: None }
    }
}

/// A node of the drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DotNode {
    /// A state: its candidates (written out when small), their number, the guess played.
    State {
        /// The candidate codes, if at most `max_set` of them.
        set: Option<Vec<String>>,
        /// Number of candidates.
        size: u32,
        /// The guess played.
        guess: String,
    },
    /// A secret found by a guess played in the parent state.
    Found {
        /// The secret.
        secret: String,
    },
    /// A subtree cut by `max_depth`.
    Cut {
        /// Secrets in the subtree.
        secrets: u64,
        /// Most guesses any of them needs (from the start of the game).
        max_guesses: u32,
    },
}

/// An edge of the drawing: the guess played and the feedback received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DotEdge {
    /// Guess, as written.
    pub guess: String,
    /// Feedback, e.g. `(1,0)`.
    pub feedback: String,
}

impl fmt::Display for DotNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DotNode::State { set: Some(set), guess, .. } => write!(f, "{{{}}}\n{guess}", set.join(", ")),
            DotNode::State { set: None, size, guess } => write!(f, "{size} codes\n{guess}"),
            DotNode::Found { secret } => f.write_str(secret),
            DotNode::Cut { secrets, max_guesses } => write!(f, "… {secrets} secrets, depth ≤ {max_guesses}"),
        }
    }
}

impl fmt::Display for DotEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.guess, self.feedback)
    }
}

/// The drawing of a tree as a petgraph graph (node 0 is the root).
///
/// ```
/// use mmtree_core::{Alphabet, CodeIndex, CodeSpace, FeedbackIndex, Game, GameSpec, MemoryLimit, StrategyTree, Subtree};
/// use mmtree_io::{strategy_graph, DotOptions};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(1, 2))?, MemoryLimit(1 << 30))?;
/// let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
/// let tree = StrategyTree::from_subtree(*space.game(), Subtree::Guess {
///     guess: c(0),
///     candidates: 2,
///     children: vec![
///         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
///         (f(1), Subtree::Leaf(c(0))),
///     ],
/// });
/// let graph = strategy_graph(&tree, &space, &Alphabet::default(), DotOptions::default());
/// // Root {1, 2} playing 1; (0,0) leads to {2} solved by 2; (1,0) to the leaf 1.
/// assert_eq!((graph.node_count(), graph.edge_count()), (3, 2));
/// assert!(mmtree_io::to_dot(&graph).contains("label = \"1, (0,0)\""));
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn strategy_graph(
    tree: &StrategyTree,
    space: &CodeSpace,
    alphabet: &Alphabet,
    options: DotOptions,
) -> DiGraph<DotNode, DotEdge> {
    let name = |c: CodeIndex| match space.try_code(c.index()) {
        Some(code) => alphabet.format(&code),
        None => format!("#{}", c.index()),
    };
    // Secrets and deepest leaf per subtree: children follow parents in preorder.
    let nodes = tree.nodes();
    let mut depth = vec![0u32; nodes.len()];
    for i in 0..nodes.len() {
        for e in tree.children(NodeId(i as u32)) {
            depth[e.child.0 as usize] = depth[i] + 1;
        }
    }
    let mut secrets = vec![0u64; nodes.len()];
    let mut deepest = depth.clone();
    for i in (0..nodes.len()).rev() {
        if let Node::Leaf { .. } = nodes[i] {
            secrets[i] = 1;
        }
        for e in tree.children(NodeId(i as u32)) {
            let c = e.child.0 as usize;
            secrets[i] += secrets[c];
            deepest[i] = deepest[i].max(deepest[c]);
        }
    }

    let mut graph = DiGraph::new();
    let mut stack: Vec<Pending> = vec![(tree.root(), space.all_indices(), None)];
    while let Some((id, cands, parent)) = stack.pop() {
        let node = *tree.node(id);
        let cut = options.max_depth.is_some_and(|d| depth[id.0 as usize] > d);
        let weight = match node {
            Node::Leaf { secret } => DotNode::Found { secret: name(secret) },
            Node::Guess { candidates, .. } if cut && candidates > 1 => {
                DotNode::Cut { secrets: secrets[id.0 as usize], max_guesses: deepest[id.0 as usize] }
            }
            Node::Guess { guess, candidates, .. } => DotNode::State {
                set: (cands.len() <= options.max_set).then(|| cands.iter().map(|&c| name(c)).collect()),
                size: candidates,
                guess: name(guess),
            },
        };
        let here = graph.add_node(weight);
        if let Some((p, label)) = parent {
            graph.add_edge(p, here, label);
        }
        let Node::Guess { guess, candidates, .. } = node else { continue };
        let children = tree.children(id);
        let solved_singleton = !options.win_edges
            && candidates == 1
            && children.len() == 1
            && matches!(tree.node(children[0].child), Node::Leaf { secret } if *secret == guess);
        if (cut && candidates > 1) || solved_singleton {
            continue;
        }
        let parts = if space.try_code(guess.index()).is_some() { space.split(guess, &cands) } else { Vec::new() };
        // Compact drawings merge every child below the depth limit into one summary node.
        let cut_child = |c: NodeId| options.max_depth.is_some_and(|d| depth[c.0 as usize] > d);
        if options.labels == DotLabels::Size && children.iter().any(|e| cut_child(e.child)) {
            let (mut secrets_cut, mut max_guesses) = (0, 0);
            for e in children.iter().filter(|e| cut_child(e.child)) {
                secrets_cut += secrets[e.child.0 as usize];
                max_guesses = max_guesses.max(deepest[e.child.0 as usize]);
            }
            let summary = graph.add_node(DotNode::Cut { secrets: secrets_cut, max_guesses });
            graph.add_edge(here, summary, DotEdge { guess: name(guess), feedback: String::new() });
        }
        for e in children.iter().rev() {
            if options.labels == DotLabels::Size && cut_child(e.child) {
                continue;
            }
            let part = parts.iter().find(|(f, _)| *f == e.feedback).map(|(_, p)| p.clone()).unwrap_or_default();
            let feedback = if e.feedback.get() < space.scheme().len() {
                space.scheme().format(e.feedback)
            } else {
                format!("#{}", e.feedback.index())
            };
            stack.push((e.child, part, Some((here, DotEdge { guess: name(guess), feedback }))));
        }
    }
    graph
}

/// A tree node still to draw: its candidates, and the drawn parent with the edge label.
type Pending = (NodeId, Vec<CodeIndex>, Option<(NodeIndex, DotEdge)>);

/// The DOT text of a drawing with the default labels (candidate sets): states as boxes,
/// found secrets doubly outlined, cut subtrees dashed.
pub fn to_dot(graph: &DiGraph<DotNode, DotEdge>) -> String {
    to_dot_with(graph, &DotOptions::default())
}

/// The DOT text of a drawing, labelled and laid out as `options` say.
///
/// ```
/// use mmtree_core::{Alphabet, CodeIndex, CodeSpace, FeedbackIndex, Game, GameSpec, MemoryLimit, StrategyTree, Subtree};
/// use mmtree_io::{strategy_graph, to_dot_with, DotLabels, DotOptions};
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(1, 2))?, MemoryLimit(1 << 30))?;
/// let (c, f) = (CodeIndex::from_index, FeedbackIndex::from_index);
/// let tree = StrategyTree::from_subtree(*space.game(), Subtree::Guess {
///     guess: c(0),
///     candidates: 2,
///     children: vec![
///         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
///         (f(1), Subtree::Leaf(c(0))),
///     ],
/// });
/// let options = DotOptions { labels: DotLabels::Rounds, win_edges: true, ..DotOptions::default() };
/// let text = to_dot_with(&strategy_graph(&tree, &space, &Alphabet::default(), options), &options);
/// assert!(text.contains(r#"label = "((1,(0,0)),(2,(1,0)))""#));
/// # Ok::<(), mmtree_core::GameError>(())
/// ```
pub fn to_dot_with(graph: &DiGraph<DotNode, DotEdge>, options: &DotOptions) -> String {
    let history = rounds(graph);
    let labelled = graph.map(
        |i, node| match options.labels {
            DotLabels::Set => node.to_string(),
            DotLabels::Rounds => match node {
                DotNode::Cut { secrets, max_guesses } => {
                    format!("{}\n… {secrets} secrets, depth ≤ {max_guesses}", history[i.index()])
                }
                _ => history[i.index()].clone(),
            },
            DotLabels::Size => match node {
                DotNode::State { size, guess, .. } => format!("{size}: {guess}"),
                DotNode::Found { secret } => secret.clone(),
                DotNode::Cut { secrets, max_guesses } => format!("… {secrets}, ≤ {max_guesses}"),
            },
        },
        |_, edge| match options.labels {
            DotLabels::Size => edge.feedback.clone(),
            DotLabels::Set | DotLabels::Rounds => edge.to_string(),
        },
    );
    let node_attrs = |_, (i, _): (NodeIndex, &String)| {
        let shape = match graph[i] {
            DotNode::State { .. } => "shape = box",
            DotNode::Found { .. } => "shape = box, peripheries = 2",
            DotNode::Cut { .. } => "shape = box, style = dashed",
        };
        match options.labels {
            DotLabels::Size => format!("{shape}, fontsize = 10, height = 0.2, margin = \"0.05,0.02\""),
            DotLabels::Set | DotLabels::Rounds => shape.to_string(),
        }
    };
    let edge_attrs = |_, _: petgraph::graph::EdgeReference<'_, String>| match options.labels {
        DotLabels::Size => "fontsize = 9".to_string(),
        DotLabels::Set | DotLabels::Rounds => String::new(),
    };
    let config: Vec<Config> = options.rankdir.map(|r| Config::RankDir(r.petgraph())).into_iter().collect();
    format!("{}", Dot::with_attr_getters(&labelled, &config, &edge_attrs, &node_attrs))
}

/// Each node's rounds from the root, `((11,(0,0)),(22,(2,0)))` (node 0 is the root, `()`).
fn rounds(graph: &DiGraph<DotNode, DotEdge>) -> Vec<String> {
    let mut path: Vec<Vec<String>> = vec![Vec::new(); graph.node_count()];
    let mut stack = vec![NodeIndex::new(0)];
    while let Some(n) = stack.pop() {
        for e in graph.edges(n) {
            // Summary nodes of a compact drawing have no feedback of their own.
            let mut p = path[n.index()].clone();
            if !e.weight().feedback.is_empty() {
                p.push(format!("({},{})", e.weight().guess, e.weight().feedback));
            }
            path[e.target().index()] = p;
            stack.push(e.target());
        }
    }
    path.into_iter().map(|p| format!("({})", p.join(","))).collect()
}

/// Edge styles per guess in a state graph: colours that differ in hue and, for grey print,
/// in line style.
const GUESS_STYLES: [&str; 6] = [
    "color = \"#0072b2\", fontcolor = \"#0072b2\"",
    "color = \"#009e73\", fontcolor = \"#009e73\", style = dashed",
    "color = \"#000000\", fontcolor = \"#000000\", style = dotted",
    "color = \"#d55e00\", fontcolor = \"#d55e00\", style = bold",
    "color = \"#cc79a7\", fontcolor = \"#cc79a7\", style = dashed",
    "color = \"#e69f00\", fontcolor = \"#e69f00\", style = dotted",
];

/// The DOT text of a state graph: each node is a candidate set (`{12, 21}`, `{}` when empty),
/// each edge `guess, (b,w)`, coloured by guess; self-loops where a guess learns nothing.
///
/// ```
/// use mmtree_core::{state_graph, Alphabet, CodeSpace, Game, GameSpec, MemoryLimit, StateOptions};
/// use mmtree_io::state_graph_dot;
/// let space = CodeSpace::new(Game::new(GameSpec::mastermind(1, 2))?, MemoryLimit(1 << 30))?;
/// let merged = StateOptions { merge_equal: true, ..StateOptions::default() };
/// let text = state_graph_dot(&state_graph(&space, merged)?, &space, &Alphabet::default(), None);
/// assert!(text.contains(r#"0 [ label = "{1, 2}""#));
/// assert!(text.contains(r#"1 -> 1 [ label = "1, (0,0)""#)); // in {2}, guessing 1 learns nothing
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn state_graph_dot(graph: &StateGraph, space: &CodeSpace, alphabet: &Alphabet, rankdir: Option<RankDir>) -> String {
    let name = |c: CodeIndex| alphabet.format(&space.code(c));
    let mut drawing: DiGraph<String, (String, usize)> = DiGraph::new();
    for node in &graph.nodes {
        let codes: Vec<String> = node.codes.iter().map(|&c| name(c)).collect();
        drawing.add_node(format!("{{{}}}", codes.join(", ")));
    }
    for e in &graph.edges {
        let label = format!("{}, {}", name(e.guess), space.scheme().format(e.feedback));
        drawing.add_edge(NodeIndex::new(e.from), NodeIndex::new(e.to), (label, e.guess.get()));
    }
    let labelled = drawing.map(|_, n| n.clone(), |_, (label, _)| label.clone());
    let node_attrs = |_, (i, _): (NodeIndex, &String)| {
        if graph.nodes[i.index()].codes.is_empty() {
            "shape = box, style = dashed".to_string()
        } else {
            "shape = box".to_string()
        }
    };
    let edge_attrs = |_, e: petgraph::graph::EdgeReference<'_, String>| {
        GUESS_STYLES[drawing[e.id()].1 % GUESS_STYLES.len()].to_string()
    };
    let config: Vec<Config> = rankdir.map(|r| Config::RankDir(r.petgraph())).into_iter().collect();
    format!("{}", Dot::with_attr_getters(&labelled, &config, &edge_attrs, &node_attrs))
}
