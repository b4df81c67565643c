//! The granted import the plugin uses, behind a trait so the context
//! transform can be tested natively against a recording host.

use smith_plugin::fs::{FileFault, FileText, ReadOptions};

/// Files is the fs import the transform reads through: on wasm32 the
/// smith:plugin fs import (Imports).
pub(crate) trait Files {
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault>;
}

/// Imports calls the smith:plugin fs import.
#[cfg(target_arch = "wasm32")]
pub(crate) struct Imports;

#[cfg(target_arch = "wasm32")]
impl Files for Imports {
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault> {
        smith_plugin::fs::read_file(path, o)
    }
}
