package main

import (
	"strings"
	"testing"
)

// TestRenderImports: a standard package is imported when the code uses it
// as a qualifier, never because a doc comment ends a sentence with its
// name.
func TestRenderImports(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool // whether package context is imported
	}{
		{name: "qualifier", body: "func f(ctx context.Context) {}\n", want: true},
		{name: "doc-comment", body: "// F adds text to the conversation's context.\nfunc F() {}\n"},
		{name: "indented-comment", body: "type T struct {\n\t// A is the context.\n\tA int\n}\n"},
		{name: "identifier-suffix", body: "var x = mycontext.Y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := goFile{pkg: "p"}
			f.body.WriteString(tt.body)
			out, err := f.render("test")
			if err != nil && !strings.Contains(err.Error(), "format") {
				t.Fatal(err)
			}
			if got := strings.Contains(string(out), `"context"`); got != tt.want {
				t.Errorf("render imports context = %v, want %v:\n%s", got, tt.want, out)
			}
		})
	}
}
