// Package widget holds the reusable widgets of a chat-style terminal UI,
// all drawing into a [screen.Buffer]:
//
//   - [ScrollView], a virtualized transcript view whose work scales with
//     the visible rows.
//   - [Editor], a multi-line prompt box: grapheme-correct cursor motion,
//     word wrap, emacs-style bindings, undo/redo, shell-like history and
//     bracketed pastes, where a large paste becomes one marker token
//     ("[paste #1 +120 lines]") that [Editor.Value] expands. An edit costs
//     O(length of the edited line), however long the text.
//   - [Selector], a bordered, fuzzy-filtered list overlay for pickers, with
//     [Fuzzy], its case-insensitive subsequence matcher.
//   - [DrawStatus], a one-row status line of left- and right-aligned
//     [Segment] values.
//
// Widgets take keys as [input.Key] values from termkit/input and report
// whether they consumed them, so the application keeps its own bindings
// for the rest (the editor leaves plain enter to the app, which submits).
// All text is measured with [screen.Width] and drawn through the buffer's
// sanitizing setters, so no input can emit a control sequence.
//
// # Concurrency
//
// Widgets are not safe for concurrent use; handle keys and draw from one
// goroutine. [Fuzzy] is safe to call concurrently.
package widget
