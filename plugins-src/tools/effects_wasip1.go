//go:build wasip1

package main

import (
	"github.com/smith-agent/smith/wit/fs"
	"github.com/smith-agent/smith/wit/process"
)

func init() { effects = imports{} }

// imports calls the smith:plugin fs and process imports.
type imports struct{}

func (imports) ReadFile(path string, o fs.ReadOptions) (fs.FileText, error) {
	return fs.ReadFile(path, o)
}

func (imports) WriteFile(path, content string, o fs.WriteOptions) (uint64, error) {
	return fs.WriteFile(path, content, o)
}

func (imports) EditFile(path string, edits []fs.TextEdit, o fs.EditOptions) (fs.EditOutcome, error) {
	return fs.EditFile(path, edits, o)
}

func (imports) ListDirectory(path string, o fs.ListOptions) ([]fs.DirectoryEntry, error) {
	return fs.ListDirectory(path, o)
}

func (imports) FindFiles(pattern, directory string, o fs.FindOptions) ([]string, error) {
	return fs.FindFiles(pattern, directory, o)
}

func (imports) SearchText(pattern, directory string, o fs.SearchOptions) ([]fs.TextMatch, error) {
	return fs.SearchText(pattern, directory, o)
}

func (imports) RunProcess(c process.Command, o process.RunOptions) (process.ProcessOutcome, error) {
	return process.RunProcess(c, o)
}
