//! Getting results out of mmtree: tables (Markdown, CSV, JSON, LaTeX), SVG plots ([`plot`])
//! and atomic file writes.
//!
//! This crate knows the tree type of `mmtree-core` but not how trees are built.
//!
//! ```
//! use mmtree_io::{render_tables, Cell, Format, Table};
//! let mut t = Table::new("Knuth", &["max", "total"]);
//! t.push(vec![Cell::Int(5), Cell::Int(5801)]);
//! assert!(render_tables(&[t], Format::Latex).contains("\\toprule"));
//! ```
#![deny(missing_docs)]

mod atomic;
pub mod plot;
mod table;

pub use atomic::write_atomic;
pub use table::{render_tables, Cell, Format, Table};
