pub mod optimal;
pub mod solve;
pub mod thesis;
