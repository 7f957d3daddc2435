//! Finite acyclic games given as directed graphs of positions.

use petgraph::algo::toposort;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::HashMap;
use std::fmt::Write as _;

use crate::dot;
use crate::sg::MexScratch;
use crate::{GamesError, Outcome};

/// A game played on a directed graph: nodes are positions, an edge `u -> v`
/// is a move from `u` to `v`. Positions without moves are terminal
/// (P-positions under the normal play rule).
#[derive(Debug, Clone, Default)]
pub struct GameGraph {
    name: Option<String>,
    graph: DiGraph<String, ()>,
    index: HashMap<String, NodeIndex>,
}

impl GameGraph {
    /// An empty game graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a position (no-op if it exists) and return its index.
    ///
    /// ```
    /// use mmtree_games::GameGraph;
    /// let mut g = GameGraph::new();
    /// let a = g.add_position("a");
    /// assert_eq!(g.add_position("a"), a);
    /// ```
    pub fn add_position(&mut self, id: &str) -> NodeIndex {
        if let Some(&ix) = self.index.get(id) {
            return ix;
        }
        let ix = self.graph.add_node(id.to_string());
        self.index.insert(id.to_string(), ix);
        ix
    }

    /// Add a move `from -> to`, creating the positions as needed.
    pub fn add_move(&mut self, from: &str, to: &str) {
        let a = self.add_position(from);
        let b = self.add_position(to);
        self.graph.add_edge(a, b, ());
    }

    /// Parse a DOT digraph such as `digraph G { a -> b; a -> c -> d; e; }`.
    ///
    /// Supports quoted ids, edge chains, attribute lists (ignored), ports
    /// (ignored) and comments; rejects undirected graphs and subgraphs.
    ///
    /// ```
    /// use mmtree_games::GameGraph;
    /// let g = GameGraph::from_dot("digraph G { a -> b -> c; a -> c [color=red]; }").unwrap();
    /// assert_eq!(g.graph().node_count(), 3);
    /// assert_eq!(g.graph().edge_count(), 3);
    /// assert!(GameGraph::from_dot("graph G { a -- b }").is_err());
    /// ```
    pub fn from_dot(src: &str) -> Result<GameGraph, GamesError> {
        let parsed = dot::parse(src)?;
        let mut g = GameGraph { name: parsed.name, ..GameGraph::default() };
        for n in &parsed.nodes {
            g.add_position(n);
        }
        for (a, b) in &parsed.edges {
            g.add_move(a, b);
        }
        Ok(g)
    }

    /// The graph's name from `digraph NAME { ... }`, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The underlying petgraph graph; node weights are the position ids.
    pub fn graph(&self) -> &DiGraph<String, ()> {
        &self.graph
    }

    /// The index of the position with id `id`.
    pub fn position(&self, id: &str) -> Option<NodeIndex> {
        self.index.get(id).copied()
    }

    /// Sprague-Grundy values of all positions, indexed by `NodeIndex::index()`,
    /// by backward induction in reverse topological order:
    /// `g(v) = mex{ g(u) : v -> u }`.
    ///
    /// A cycle is an error naming a node on it.
    ///
    /// ```
    /// use mmtree_games::GameGraph;
    /// let g = GameGraph::from_dot("digraph { a -> b; a -> c; b -> c }").unwrap();
    /// let sg = g.sg_values().unwrap();
    /// let a = g.position("a").unwrap().index();
    /// assert_eq!(sg[a], 2); // options have values 1 (b) and 0 (c)
    /// assert!(GameGraph::from_dot("digraph { a -> b -> a }").unwrap().sg_values().is_err());
    /// ```
    pub fn sg_values(&self) -> Result<Vec<u32>, GamesError> {
        let order = toposort(&self.graph, None).map_err(|_| self.cycle_error())?;
        let mut sg = vec![0u32; self.graph.node_count()];
        let mut scratch = MexScratch::new();
        for &v in order.iter().rev() {
            scratch.clear();
            for e in self.graph.edges_directed(v, Direction::Outgoing) {
                scratch.insert(sg[e.target().index()]);
            }
            sg[v.index()] = scratch.mex();
        }
        Ok(sg)
    }

    /// Normal-play outcomes (P iff SG value 0), indexed like [`GameGraph::sg_values`].
    pub fn outcomes(&self) -> Result<Vec<Outcome>, GamesError> {
        Ok(self.sg_values()?.into_iter().map(Outcome::from_sg).collect())
    }

    /// Build the error for a cyclic graph: an iterative depth-first search (no recursion, so
    /// a cycle of any length fits the stack) until a move returns to a position on the
    /// current path, which closes a cycle.
    fn cycle_error(&self) -> GamesError {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum Mark {
            Unseen,
            OnPath,
            Finished,
        }
        let g = &self.graph;
        let mut mark = vec![Mark::Unseen; g.node_count()];
        for root in g.node_indices() {
            if mark[root.index()] != Mark::Unseen {
                continue;
            }
            mark[root.index()] = Mark::OnPath;
            let mut path = vec![(root, g.neighbors(root))];
            while let Some((v, next)) = path.last_mut().map(|(v, moves)| (*v, moves.next())) {
                let Some(w) = next else {
                    mark[v.index()] = Mark::Finished;
                    path.pop();
                    continue;
                };
                match mark[w.index()] {
                    Mark::Unseen => {
                        mark[w.index()] = Mark::OnPath;
                        path.push((w, g.neighbors(w)));
                    }
                    Mark::OnPath => {
                        let start = path.iter().position(|(u, _)| *u == w).unwrap_or(0);
                        let cycle: Vec<&str> =
                            path[start..].iter().map(|(u, _)| g[*u].as_str()).chain([g[w].as_str()]).collect();
                        return GamesError::Cycle { node: g[w].clone(), cycle: describe_cycle(&cycle) };
                    }
                    Mark::Finished => {}
                }
            }
        }
        GamesError::Cycle { node: String::new(), cycle: "unknown".into() }
    }

    /// Compute the SG values and write the annotated DOT in one step
    /// (see [`GameGraph::to_dot`]); a cycle is an error.
    ///
    /// ```
    /// use mmtree_games::GameGraph;
    /// let g = GameGraph::from_dot("digraph { a -> b; a -> c; b -> c }").unwrap();
    /// assert!(g.annotated_dot().unwrap().contains(r#"label="a\nSG=2 N""#));
    /// ```
    pub fn annotated_dot(&self) -> Result<String, GamesError> {
        Ok(self.to_dot(&self.sg_values()?))
    }

    /// Write the graph as DOT with each position labelled by its id, its SG
    /// value and its outcome, e.g. `a\nSG=2 N`; P-positions are drawn as
    /// double circles. `values` must come from [`GameGraph::sg_values`].
    ///
    /// ```
    /// use mmtree_games::GameGraph;
    /// let g = GameGraph::from_dot("digraph G { a -> b }").unwrap();
    /// let dot = g.to_dot(&g.sg_values().unwrap());
    /// assert!(dot.contains(r#""a" [label="a\nSG=1 N"]"#));
    /// // The output parses back to the same game.
    /// let back = GameGraph::from_dot(&dot).unwrap();
    /// assert_eq!(back.graph().edge_count(), 1);
    /// ```
    pub fn to_dot(&self, values: &[u32]) -> String {
        let mut s = String::new();
        let name = self.name.as_deref().unwrap_or("game");
        let _ = writeln!(s, "digraph {} {{", dot::quote(name));
        for v in self.graph.node_indices() {
            let id = &self.graph[v];
            let sg = values.get(v.index()).copied();
            match sg {
                Some(sg) => {
                    let outcome = Outcome::from_sg(sg);
                    let shape = match outcome {
                        Outcome::P => ", shape=doublecircle",
                        Outcome::N => "",
                    };
                    let _ = writeln!(
                        s,
                        "  {} [label=\"{}\\nSG={sg} {outcome}\"{shape}];",
                        dot::quote(id),
                        dot::label_text(id)
                    );
                }
                None => {
                    let _ = writeln!(s, "  {};", dot::quote(id));
                }
            }
        }
        for e in self.graph.edge_references() {
            let _ =
                writeln!(s, "  {} -> {};", dot::quote(&self.graph[e.source()]), dot::quote(&self.graph[e.target()]));
        }
        s.push_str("}\n");
        s
    }
}

/// Positions of a cycle written in full, at most; longer cycles show their ends.
const CYCLE_SHOWN: usize = 12;

/// `a -> b -> a`, or for a long cycle its first and last positions and its length (a message
/// stays one readable line even for a cycle through 100,000 positions).
fn describe_cycle(cycle: &[&str]) -> String {
    if cycle.len() <= CYCLE_SHOWN {
        return cycle.join(" -> ");
    }
    let head = cycle[..CYCLE_SHOWN - 3].join(" -> ");
    let tail = cycle[cycle.len() - 2..].join(" -> ");
    format!("{head} -> ... -> {tail}, {} moves", cycle.len() - 1)
}
