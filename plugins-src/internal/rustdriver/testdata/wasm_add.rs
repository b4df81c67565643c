//! A cdylib for TestBuildWasm: one export, no imports.

/// add returns a + b.
#[no_mangle]
pub extern "C" fn add(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}
