//! Getting results in and out of mmtree: tables (Markdown, CSV, JSON, LaTeX), output paths
//! checked before the work and written safely ([`OutputPath`]), bounded reading of input files
//! ([`Input`], [`read_text`]), `.mmt` tree files ([`TreeFile`]), Graphviz drawings
//! ([`strategy_graph`], [`to_dot`], [`state_graph_dot`]), nested JSON ([`tree_json`]), an
//! interactive HTML explorer ([`explorer_html`]), SVG plots ([`plot`]), and the plans and
//! part files of a tree split into jobs ([`Plan`], [`PartFile`]).
//!
//! This crate knows the tree type of `mmtree-core` but not how trees are built: the rule is
//! stored as plain data ([`RuleInfo`]).
//!
//! ```
//! use mmtree_io::{render_tables, Cell, Format, Table};
//! let mut t = Table::new("Knuth", &["max", "total"]);
//! t.push(vec![Cell::Int(5), Cell::Int(5801)]);
//! assert!(render_tables(&[t], Format::Latex).contains("\\toprule"));
//! ```
#![deny(missing_docs)]

mod dot;
mod export;
mod html;
mod input;
mod output;
mod part_file;
mod plan;
pub mod plot;
mod table;
mod tree_file;

pub use dot::{state_graph_dot, strategy_graph, to_dot, to_dot_with, DotEdge, DotLabels, DotNode, DotOptions, RankDir};
pub use export::{tree_json, ExportError, MAX_JSON_DEPTH};
pub use html::{explorer_html, HtmlOptions};
pub use input::{read_bytes, read_line, read_text, Input, InputError};
pub use output::{refuse_same_file, write_atomic, OutputError, OutputPath};
pub use part_file::{PartBounds, PartFile, PartFileError, PartHeader, PART_FORMAT_VERSION, PART_MAGIC};
pub use plan::{Plan, PlanError, PlanGuesses, PlanNode, PlanSubtree, GUESSES_FORMAT, PLAN_FORMAT, PLAN_VERSION};
pub use table::{render_tables, Cell, Format, Table};
pub use tree_file::{fnv1a64, FormatError, RuleInfo, TreeFile, TreeFileError, TreeHeader, FORMAT_VERSION, MAGIC};
