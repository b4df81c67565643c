//! response: the classification of a non-2xx Chat Completions or
//! Responses API answer — the Rust port of response.go beside it (being
//! written; see classify.rs for the in-stream half).
