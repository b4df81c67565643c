package config

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/internal/ident"
)

// Error is one invalid piece of configuration. Its message names where it
// is (file:line:col, env NAME or flag --NAME), the field path, the bad
// value, what is wrong and a valid example. Value is never a credential:
// a literal key is shown as [redacted].
type Error struct {
	Source Source
	// Path is the field path, such as provider.anthropic.base-url.
	Path string
	// Value is the offending value as written, quoted when a string; empty
	// when the problem is the field itself.
	Value string
	// Problem says what is wrong; Example shows a valid form.
	Problem, Example string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config: ")
	b.WriteString(e.Source.String())
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	if e.Value != "" {
		b.WriteString(e.Value)
		b.WriteString(" ")
	}
	b.WriteString(e.Problem)
	if e.Example != "" {
		b.WriteString("; for example: ")
		b.WriteString(e.Example)
	}
	return b.String()
}

// maxReported bounds the errors listed in an [Errors] message.
const maxReported = 20

// Errors is every problem found, in source order. [Load] returns all of
// them at once so one edit can fix them all.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i == maxReported {
			fmt.Fprintf(&b, "\n... and %d more", len(es)-maxReported)
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors, for errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// suggest returns "; did you mean X?" for the known name nearest to name,
// or "" when none is close.
func suggest(name string, known []string) string {
	best := nearest(name, known)
	if best < 0 {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", known[best])
}

// nearest returns the index of the known name within two edits of name
// and nearest to it, or -1.
func nearest(name string, known []string) int {
	best, bestD := -1, 3
	for i, k := range known {
		if d := ident.Distance(name, k); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// Nearest returns the name of known within two edits of name and nearest
// to it, or "" when none is that close: the "did you mean" of smith.kdl
// errors, for any frontend's names.
func Nearest(name string, known []string) string {
	if i := nearest(name, known); i >= 0 {
		return known[i]
	}
	return ""
}
