package main

import (
	"github.com/smith-agent/smith/wit/fs"
	"github.com/smith-agent/smith/wit/process"
)

// host is the set of granted imports the tools use. On wasip1 it is served
// by the smith:plugin fs and process imports (effects_wasip1.go).
type host interface {
	ReadFile(path string, o fs.ReadOptions) (fs.FileText, error)
	WriteFile(path, content string, o fs.WriteOptions) (uint64, error)
	EditFile(path string, edits []fs.TextEdit, o fs.EditOptions) (fs.EditOutcome, error)
	ListDirectory(path string, o fs.ListOptions) ([]fs.DirectoryEntry, error)
	FindFiles(pattern, directory string, o fs.FindOptions) ([]string, error)
	SearchText(pattern, directory string, o fs.SearchOptions) ([]fs.TextMatch, error)
	RunProcess(c process.Command, o process.RunOptions) (process.ProcessOutcome, error)
}

// effects is the host the tools run against; nil outside wasip1.
var effects host
