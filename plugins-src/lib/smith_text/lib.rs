//! Text helpers the Rust plugins share: which characters are printable
//! ([`printable`]) and quoting of paths, values and offending characters
//! in messages ([`quote`]).
//!
//! Built by tools/pluginbuild as the rlib `smith_text`.

#[rustfmt::skip]
pub mod printable;
pub mod quote;
