// Package mockscript selects the MOCK model provider for `--model mock`:
// the embedded demo script, another embedded script by name, or a script
// file. Everything the mock produces is labelled "mock"; it never contacts a
// model.
package mockscript
