package pluginpkg

import (
	"fmt"
	"strings"
)

// Error is one problem of a manifest: where it is, the field, the bad
// value (quoted as written, or ""), what is wrong and how to fix it.
type Error struct {
	File      string
	Line, Col int
	Field     string
	Value     string
	Problem   string
	Fix       string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	fmt.Fprintf(&b, "%d:%d: ", e.Line, e.Col)
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteByte(' ')
	}
	if e.Value != "" {
		b.WriteString(e.Value)
		b.WriteByte(' ')
	}
	b.WriteString(e.Problem)
	if e.Fix != "" {
		b.WriteString("; ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Errors are every problem of one manifest, in file order.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}
