//! The plain strategy-tree data type: what a builder produces and a checker reads.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::code::CodeIndex;
use crate::feedback::FeedbackIndex;
use crate::game::Game;

/// Index of a node in a [`StrategyTree`]'s arena; the root is 0.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct NodeId(pub u32);

/// One node: either a state where a guess is played, or a leaf where the secret was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Node {
    /// A state with `candidates` codes left, where `guess` is played; its children are the
    /// edges `first_edge .. first_edge + edge_count`.
    Guess {
        /// The guess played.
        guess: CodeIndex,
        /// How many candidates the state has.
        candidates: u32,
        /// First outgoing edge in [`StrategyTree::edges`].
        first_edge: u32,
        /// Number of outgoing edges (non-empty parts).
        edge_count: u8,
    },
    /// The secret found: reached through the winning feedback `(n,0)`.
    Leaf {
        /// The secret.
        secret: CodeIndex,
    },
}

/// An edge: the feedback received and the state it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    /// Feedback on the parent's guess.
    pub feedback: FeedbackIndex,
    /// The child node.
    pub child: NodeId,
}

/// A nested tree, convenient to build recursively and to write in tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subtree {
    /// The secret found.
    Leaf(CodeIndex),
    /// A guess with its children per feedback.
    Guess {
        /// The guess played.
        guess: CodeIndex,
        /// Number of candidates at this state.
        candidates: u32,
        /// Children in feedback order.
        children: Vec<(FeedbackIndex, Subtree)>,
    },
}

/// Why a node/edge arena is not a tree.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TreeShapeError {
    /// No nodes at all.
    #[error("the tree has no nodes")]
    Empty,
    /// An edge range outside the edge array.
    #[error("node {node}: edges {start}..{end} outside the {len} edges")]
    EdgeRange {
        /// Node.
        node: u32,
        /// Range start.
        start: u64,
        /// Range end.
        end: u64,
        /// Edge count.
        len: usize,
    },
    /// A child that does not come after its parent, or twice.
    #[error("node {child} is not a proper child of node {parent} (arena order or second parent)")]
    Child {
        /// Parent node.
        parent: u32,
        /// Child node.
        child: u32,
    },
    /// A node nobody points to.
    #[error("node {node} is unreachable from the root")]
    Orphan {
        /// Node.
        node: u32,
    },
    /// Edges not used by exactly one node.
    #[error("edge {edge} is not owned by exactly one node")]
    Edge {
        /// Edge.
        edge: usize,
    },
}

/// A complete strategy tree in an arena: nodes in preorder, each node's edges contiguous.
///
/// Every way of constructing one checks that the arena is a tree (in-range edges, children
/// after parents, one parent each), so traversals terminate even on data read from a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategyTree {
    game: Game,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

/// The figures of a tree: guesses per secret counted with the final one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Number of secrets (leaves).
    pub secrets: u64,
    /// Sum over secrets of the guesses needed.
    pub total: u64,
    /// Most guesses any secret needs.
    pub max: u32,
    /// `histogram[d - 1]`: secrets solved in exactly `d` guesses.
    pub histogram: Vec<u64>,
}

impl Stats {
    /// `total / secrets`.
    pub fn average(&self) -> f64 {
        if self.secrets == 0 {
            0.0
        } else {
            self.total as f64 / self.secrets as f64
        }
    }
}

impl StrategyTree {
    /// Flattens a nested tree into preorder.
    ///
    /// ```
    /// use mmtree_core::{CodeIndex, FeedbackIndex, Game, GameSpec, StrategyTree, Subtree};
    /// let game = Game::new(GameSpec::mastermind(1, 2))?;
    /// let c = CodeIndex::from_index;
    /// let f = FeedbackIndex::from_index;
    /// // Guess 1: (1,0) wins; (0,0) leaves {2}, solved by guessing it.
    /// let tree = StrategyTree::from_subtree(game, Subtree::Guess {
    ///     guess: c(0),
    ///     candidates: 2,
    ///     children: vec![
    ///         (f(0), Subtree::Guess { guess: c(1), candidates: 1, children: vec![(f(1), Subtree::Leaf(c(1)))] }),
    ///         (f(1), Subtree::Leaf(c(0))),
    ///     ],
    /// });
    /// let stats = tree.stats();
    /// assert_eq!((stats.max, stats.total, stats.histogram.clone()), (2, 3, vec![1, 1]));
    /// # Ok::<(), mmtree_core::GameError>(())
    /// ```
    pub fn from_subtree(game: Game, root: Subtree) -> StrategyTree {
        let mut tree = StrategyTree { game, nodes: Vec::new(), edges: Vec::new() };
        tree.push(root);
        tree
    }

    fn push(&mut self, sub: Subtree) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        match sub {
            Subtree::Leaf(secret) => self.nodes.push(Node::Leaf { secret }),
            Subtree::Guess { guess, candidates, children } => {
                let first_edge = self.edges.len() as u32;
                self.nodes.push(Node::Guess { guess, candidates, first_edge, edge_count: children.len() as u8 });
                self.edges.extend(children.iter().map(|(f, _)| Edge { feedback: *f, child: NodeId(0) }));
                for (i, (_, child)) in children.into_iter().enumerate() {
                    let cid = self.push(child);
                    self.edges[first_edge as usize + i].child = cid;
                }
            }
        }
        id
    }

    /// Rebuilds a tree from its arena (e.g. after deserialising), checking it is a tree.
    pub fn from_parts(game: Game, nodes: Vec<Node>, edges: Vec<Edge>) -> Result<StrategyTree, TreeShapeError> {
        if nodes.is_empty() {
            return Err(TreeShapeError::Empty);
        }
        let mut has_parent = vec![false; nodes.len()];
        let mut edge_owned = vec![false; edges.len()];
        for (i, node) in nodes.iter().enumerate() {
            if let Node::Guess { first_edge, edge_count, .. } = *node {
                let (start, end) = (u64::from(first_edge), u64::from(first_edge) + u64::from(edge_count));
                if end > edges.len() as u64 {
                    return Err(TreeShapeError::EdgeRange { node: i as u32, start, end, len: edges.len() });
                }
                for e in start as usize..end as usize {
                    if std::mem::replace(&mut edge_owned[e], true) {
                        return Err(TreeShapeError::Edge { edge: e });
                    }
                    let child = edges[e].child.0 as usize;
                    if child <= i || child >= nodes.len() || std::mem::replace(&mut has_parent[child], true) {
                        return Err(TreeShapeError::Child { parent: i as u32, child: child as u32 });
                    }
                }
            }
        }
        if let Some(node) = has_parent.iter().skip(1).position(|p| !p) {
            return Err(TreeShapeError::Orphan { node: node as u32 + 1 });
        }
        if has_parent[0] {
            return Err(TreeShapeError::Child { parent: 0, child: 0 });
        }
        if let Some(edge) = edge_owned.iter().position(|o| !o) {
            return Err(TreeShapeError::Edge { edge });
        }
        Ok(StrategyTree { game, nodes, edges })
    }

    /// The game the tree plays.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The root node id.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// All nodes in preorder.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// All edges.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// A node.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// The outgoing edges of a node (empty for a leaf).
    pub fn children(&self, id: NodeId) -> &[Edge] {
        match *self.node(id) {
            Node::Guess { first_edge, edge_count, .. } => {
                &self.edges[first_edge as usize..first_edge as usize + edge_count as usize]
            }
            Node::Leaf { .. } => &[],
        }
    }

    /// The guess played at the root (`None` if the root is a leaf, which no game produces).
    pub fn first_guess(&self) -> Option<CodeIndex> {
        match self.nodes[0] {
            Node::Guess { guess, .. } => Some(guess),
            Node::Leaf { .. } => None,
        }
    }

    /// Each leaf's secret with its depth (number of guesses), in preorder.
    pub fn leaf_depths(&self) -> Vec<(CodeIndex, u32)> {
        let mut depth = vec![0u32; self.nodes.len()];
        let mut out = Vec::new();
        // Preorder: a parent always precedes its children, so one forward pass suffices.
        for (i, node) in self.nodes.iter().enumerate() {
            match *node {
                Node::Guess { .. } => {
                    for e in self.children(NodeId(i as u32)) {
                        depth[e.child.0 as usize] = depth[i] + 1;
                    }
                }
                Node::Leaf { secret } => out.push((secret, depth[i])),
            }
        }
        out
    }

    /// Max, total, histogram.
    pub fn stats(&self) -> Stats {
        let mut histogram: Vec<u64> = Vec::new();
        let (mut total, mut secrets, mut max) = (0u64, 0u64, 0u32);
        for (_, d) in self.leaf_depths() {
            if histogram.len() < d as usize {
                histogram.resize(d as usize, 0);
            }
            if d > 0 {
                histogram[d as usize - 1] += 1;
            }
            total += u64::from(d);
            secrets += 1;
            max = max.max(d);
        }
        Stats { secrets, total, max, histogram }
    }
}
