//! The crate root TestRustEndpointsUnit builds with --test to run the
//! #[test]s of ../endpoints.rs, under the plugin crate's module names.
#![allow(dead_code)]

#[path = "../../../../tools/src/printable.rs"]
mod printable;
#[path = "../../openaichat/quirks.rs"]
mod quirks;
#[path = "../../../../tools/src/quote.rs"]
mod quote;
#[path = "../endpoints.rs"]
mod endpoints;
