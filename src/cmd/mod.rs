pub mod solve;
pub mod thesis;
pub mod advise;
pub mod play;
