//! mmtree-games.
