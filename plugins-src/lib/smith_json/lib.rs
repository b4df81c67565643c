//! The one JSON reader and writer of the Rust plugins: [`read`] reads a
//! JSON text front to back with little allocation (every decoder, request
//! document and tool argument goes through it); [`write`] writes request
//! bodies and tool output.
//!
//! Built by tools/pluginbuild as the rlib `smith_json`; a plugin crate
//! uses it as `smith_json::read::Decoder`.

pub mod read;
pub mod write;
