pub mod advise;
pub mod play;
pub mod solve;
pub mod thesis;
