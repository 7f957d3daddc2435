//! mmtree-verify.
