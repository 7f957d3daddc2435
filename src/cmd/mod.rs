pub mod first_guesses;
pub mod merge;
pub mod solve;
pub mod sweep;
pub mod thesis;
