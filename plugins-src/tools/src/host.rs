//! The granted imports the tools use, behind a trait so the tools can be
//! tested natively against a recording host.

use smith_plugin::fs::{
    DirectoryEntry, EditOptions, EditOutcome, FileFault, FileText, FindOptions, ListOptions, ReadOptions,
    SearchOptions, TextEdit, TextMatch, WriteOptions,
};
use smith_plugin::process::{Command, ProcessFault, ProcessOutcome, RunOptions};

/// Host is the set of granted imports the tools call: on wasm32 the
/// smith:plugin fs and process imports (Imports).
pub(crate) trait Host {
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault>;
    fn write_file(&mut self, path: &str, content: &str, o: &WriteOptions) -> Result<u64, FileFault>;
    fn edit_file(&mut self, path: &str, edits: &[TextEdit], o: &EditOptions) -> Result<EditOutcome, FileFault>;
    fn list_directory(&mut self, path: &str, o: &ListOptions) -> Result<Vec<DirectoryEntry>, FileFault>;
    fn find_files(&mut self, pattern: &str, directory: &str, o: &FindOptions) -> Result<Vec<String>, FileFault>;
    fn search_text(&mut self, pattern: &str, directory: &str, o: &SearchOptions) -> Result<Vec<TextMatch>, FileFault>;
    fn run_process(&mut self, c: &Command, o: &RunOptions) -> Result<ProcessOutcome, ProcessFault>;
}

/// Imports calls the smith:plugin fs and process imports.
#[cfg(target_arch = "wasm32")]
pub(crate) struct Imports;

#[cfg(target_arch = "wasm32")]
impl Host for Imports {
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault> {
        smith_plugin::fs::read_file(path, o)
    }
    fn write_file(&mut self, path: &str, content: &str, o: &WriteOptions) -> Result<u64, FileFault> {
        smith_plugin::fs::write_file(path, content, o)
    }
    fn edit_file(&mut self, path: &str, edits: &[TextEdit], o: &EditOptions) -> Result<EditOutcome, FileFault> {
        smith_plugin::fs::edit_file(path, edits, o)
    }
    fn list_directory(&mut self, path: &str, o: &ListOptions) -> Result<Vec<DirectoryEntry>, FileFault> {
        smith_plugin::fs::list_directory(path, o)
    }
    fn find_files(&mut self, pattern: &str, directory: &str, o: &FindOptions) -> Result<Vec<String>, FileFault> {
        smith_plugin::fs::find_files(pattern, directory, o)
    }
    fn search_text(&mut self, pattern: &str, directory: &str, o: &SearchOptions) -> Result<Vec<TextMatch>, FileFault> {
        smith_plugin::fs::search_text(pattern, directory, o)
    }
    fn run_process(&mut self, c: &Command, o: &RunOptions) -> Result<ProcessOutcome, ProcessFault> {
        smith_plugin::process::run_process(c, o)
    }
}
