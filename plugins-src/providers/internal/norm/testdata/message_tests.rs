//! The crate root TestRustMessageUnit builds with --test to run the
//! #[test]s of ../message.rs, which needs norm and jsonout beside it.
#![allow(dead_code)]

#[path = "../norm.rs"]
mod norm;

#[path = "../../../../internal/jsonscan/jsonscan.rs"]
#[allow(dead_code)]
mod jsonscan;
#[path = "../../../../internal/jsonout/jsonout.rs"]
mod jsonout;

#[path = "../message.rs"]
mod norm_message;
