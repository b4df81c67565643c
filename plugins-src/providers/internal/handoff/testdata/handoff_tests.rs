//! The crate root TestRustHandoffUnit builds with --test to run the
//! #[test]s of ../handoff.rs, under the plugin crate's module names.
#![allow(dead_code)]

#[path = "../../../../internal/jsonscan/jsonscan.rs"]
#[allow(dead_code)]
mod jsonscan;
#[path = "../../../../internal/jsonout/jsonout.rs"]
mod jsonout;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../norm/message.rs"]
mod norm_message;
#[path = "../handoff.rs"]
mod handoff;
