// Package screen holds the cell buffer and the diff renderer.
//
// A [Buffer] is a grid of [Cell]s, each one grapheme cluster with its
// display width and [Style]. Text enters a buffer only through
// [Buffer.SetString] and friends, which expand tabs and replace control
// characters by visible pictures, so nothing drawn can ever emit a terminal
// control sequence: model output, tool output and file names are inert.
// Widths come from one authority, [Width], which measures grapheme clusters
// (emoji ZWJ sequences, CJK, combining marks) with Unicode 17 tables.
//
// A [Renderer] keeps a model of what the terminal shows. Drawing is two
// steps: [Renderer.Render] diffs a buffer against that model and appends
// the escape sequences for the changed cells only, inside synchronized
// output brackets (mode 2026) when enabled, to an internal buffer;
// [Renderer.Flush] is the only method that performs I/O, one Write per
// frame.
//
// # Concurrency
//
// Buffers and renderers are not safe for concurrent use; draw and render
// from one goroutine.
package screen
