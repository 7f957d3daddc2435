//! mmtree-core.
