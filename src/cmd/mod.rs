pub mod dot;
pub mod export;
pub mod solve;
pub mod stats;
pub mod thesis;
pub mod trace;
pub mod tree_file;
pub mod verify;
