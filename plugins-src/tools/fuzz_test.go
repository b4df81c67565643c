package tools_test

import (
	"testing"

	"github.com/smith-agent/smith/core/plugin"
)

// fuzzTools are the tools FuzzInvoke calls: all but bash, whose arbitrary
// command lines would run on this machine.
var fuzzTools = []string{"read", "write", "edit", "find", "grep", "ls"}

// FuzzInvoke sends arbitrary arguments to the built module through the
// real host: every call ends in output or a tool fault (an error result),
// never a trap or a host error.
func FuzzInvoke(f *testing.F) {
	for _, s := range []struct {
		tool uint8
		args string
	}{
		{0, `{"path":"a.txt","offset":2,"limit":1}`},
		{1, `{"path":"d/a.txt","content":"x\ny\n"}`},
		{2, `{"path":"a.txt","old_text":"x","new_text":"z"}`},
		{2, `{"path":"a.txt","edits":[{"old_text":"y","new_text":"w"},{"old_text":"x","new_text":"v"}]}`},
		{3, `{"pattern":"**/*","include_ignored":true,"limit":3}`},
		{4, `{"pattern":"x","literal":true,"ignore_case":true,"glob":"*.txt"}`},
		{5, `{"path":"d","limit":1}`},
		{0, `{"path":"\u00e9\ud800"}`},
	} {
		f.Add(s.tool, s.args)
	}
	p := newProject(f, plugin.Effects{})
	write(f, p, "a.txt", "x\ny\n")
	write(f, p, "d/b.txt", "x\n")
	f.Fuzz(func(t *testing.T, tool uint8, args string) {
		name := fuzzTools[int(tool)%len(fuzzTools)]
		res, out, err := p.call(t, name, args)
		if err != nil {
			t.Fatalf("%s %s: the host failed (a trap?): %v", name, args, err)
		}
		if out == "" {
			t.Fatalf("%s %s: empty output (IsError %v)", name, args, res.IsError)
		}
	})
}
