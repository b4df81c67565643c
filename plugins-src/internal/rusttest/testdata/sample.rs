//! The rusttest tests' crate: its tests pass, fail under --cfg fail, and
//! vanish under --cfg none; under --cfg broken it does not compile.

#[cfg(broken)]
fn broken() -> u8 {
    "not a u8"
}

#[cfg(all(test, not(none)))]
mod tests {
    #[test]
    fn passes_or_fails_on_request() {
        assert!(!cfg!(fail), "asked to fail");
    }

    #[test]
    fn links_the_library_crates() {
        let mut out = Vec::new();
        smith_json::write::append_uint(&mut out, 42);
        assert_eq!(out, b"42");
    }
}
