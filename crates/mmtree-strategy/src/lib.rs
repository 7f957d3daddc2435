//! mmtree-strategy.
