pub mod solve;
pub mod thesis;
pub mod dot;
pub mod export;
pub mod stats;
pub mod trace;
pub mod tree_file;
pub mod verify;
