package config

import (
	"strings"
	"testing"
)

func nest(n int, open, close string) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// TestTooDeep: blocks and block comments are counted outside strings and
// line comments, and the first one past maxDepth is located.
func TestTooDeep(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int // 0: not too deep
	}{
		{name: "config", src: "provider \"a\" {\n  quirks { no-strict #true }\n}\n"},
		{name: "at the bound", src: nest(maxDepth, "a {", "}")},
		{name: "past the bound", src: nest(maxDepth+1, "a {", "}"), line: 1, col: 3*maxDepth + 3},
		{name: "on a later line", src: "model \"x\"\n// {{{{\n" + nest(maxDepth+1, "{", "}"), line: 3, col: maxDepth + 1},
		{name: "braces in a string", src: "a \"" + strings.Repeat("{", 200) + "\""},
		{name: "escaped quote in a string", src: "a \"\\\"" + strings.Repeat("{", 200) + "\""},
		{name: "braces in a raw string", src: "a #\"\\\"" + strings.Repeat("{", 200) + "\"#"},
		{name: "raw string with a quote inside", src: "a ##\"x\"#" + strings.Repeat("{", 200) + "\"##"},
		{name: "braces in a multi-line string", src: "a \"\"\"\n\"" + strings.Repeat("{", 200) + "\n\"\"\""},
		{name: "braces in a line comment", src: "// " + strings.Repeat("{", 200) + "\na 1"},
		{name: "braces in a block comment", src: "/* " + strings.Repeat("{", 200) + " */ a 1"},
		{name: "nested block comments", src: nest(maxDepth+1, "/*", "*/"), line: 1, col: 2*maxDepth + 1},
		{name: "keyword", src: "a #true {\n}"},
		{name: "unclosed string", src: "a \"" + strings.Repeat("{", 200)},
		{name: "line counted through a multi-line string", src: "a \"\"\"\nx\n\"\"\"\n" + nest(maxDepth+1, "{", "}"), line: 4, col: maxDepth + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, col, found := tooDeep([]byte(tt.src))
			if found != (tt.line != 0) || line != tt.line || col != tt.col {
				t.Errorf("tooDeep = %d:%d %v; want %d:%d", line, col, found, tt.line, tt.col)
			}
		})
	}
}

// TestDeepFileIsAnError: a file nested 200,000 levels deep (under the
// size cap) is an error naming the file, line and column and the bound,
// never a crash of the parser.
func TestDeepFileIsAnError(t *testing.T) {
	path := writeUser(t, "a "+nest(200_000, "{ b ", "}")+"\n")
	_, err := Load(Inputs{UserFile: path, LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), path+":1:") || !strings.Contains(err.Error(), "deeper than 64 levels") {
		t.Fatalf("error %v", err)
	}
}

// FuzzTooDeep: the scan never panics, a location it reports is inside the
// input, and any input opened by more than maxDepth blocks is found at the
// first block past the bound, whatever follows.
func FuzzTooDeep(f *testing.F) {
	f.Add([]byte("provider \"a\" { quirks { x #true } }"))
	f.Add([]byte("a ##\"}\"#\"##{/* { */}"))
	f.Add([]byte("a \"\"\"\n{\n\"\"\" // {"))
	f.Fuzz(func(t *testing.T, src []byte) {
		line, col, found := tooDeep(src)
		if found && (line < 1 || line > strings.Count(string(src), "\n")+1 || col < 1) {
			t.Fatalf("location %d:%d outside the input", line, col)
		}
		prefixed := append([]byte(strings.Repeat("a {", maxDepth+1)), src...)
		if line, col, found := tooDeep(prefixed); !found || line != 1 || col != 3*maxDepth+3 {
			t.Fatalf("opened past the bound: tooDeep = %d:%d %v", line, col, found)
		}
	})
}
