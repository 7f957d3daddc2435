//! mmtree-io.
