// Package textout renders agent events as human-readable text: the
// assistant's text as it streams, one line per tool call and a short excerpt
// of each tool result.
package textout
