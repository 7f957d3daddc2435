//! Strategy trees as Graphviz graphs, built with petgraph.
//!
//! The drawing follows the thesis figures: a state shows its candidate set (`{12, 21}`) when
//! small, else its size, and the guess played there; an edge shows `guess, (b,w)`. A state
//! with one candidate is drawn as one node (`{22}` solved by `22`) without its winning leaf;
//! a guess that wins directly leads to a leaf showing the secret. Below `max_depth`, each cut
//! subtree becomes one summary node.

use std::fmt;

use petgraph::dot::Dot;
use petgraph::graph::{DiGraph, NodeIndex};

use mmtree_core::{Alphabet, CodeIndex, CodeSpace, Node, NodeId, StrategyTree};

/// How much of a tree to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DotOptions {
    /// Deepest state drawn (the root is depth 0); deeper subtrees become summary nodes.
    pub max_depth: Option<u32>,
    /// Largest candidate set written out in full; larger ones show their size.
    pub max_set: usize,
}

impl Default for DotOptions {
    fn default() -> DotOptions {
        DotOptions { max_depth: None, max_set: 8 }
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
        let solved_singleton = candidates == 1
            && children.len() == 1
            && matches!(tree.node(children[0].child), Node::Leaf { secret } if *secret == guess);
        if (cut && candidates > 1) || solved_singleton {
            continue;
        }
        let parts = if space.try_code(guess.index()).is_some() { space.split(guess, &cands) } else { Vec::new() };
        for e in children.iter().rev() {
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

/// The DOT text of a drawing: states as boxes, found secrets doubly outlined, cut subtrees
/// dashed.
pub fn to_dot(graph: &DiGraph<DotNode, DotEdge>) -> String {
    let node_attrs = |_, (_, node): (NodeIndex, &DotNode)| {
        match node {
            DotNode::State { .. } => "shape = box",
            DotNode::Found { .. } => "shape = box, peripheries = 2",
            DotNode::Cut { .. } => "shape = box, style = dashed",
        }
        .to_string()
    };
    let edge_attrs = |_, _: petgraph::graph::EdgeReference<'_, DotEdge>| String::new();
    format!("{}", Dot::with_attr_getters(graph, &[], &edge_attrs, &node_attrs))
}
