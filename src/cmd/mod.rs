pub mod solve;
pub mod thesis;
