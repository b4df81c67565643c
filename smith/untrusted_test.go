package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUntrustedTextIsNeutralized: model text, a tool's output and a
// provider error carrying terminal control sequences (CSI, OSC, DCS, APC,
// C1, a bare ESC, BEL) reach no terminal through eval's text output,
// session show or replay; JSON output keeps them, escaped.
func TestUntrustedTextIsNeutralized(t *testing.T) {
	e := newEnv(t)
	hostile := `\u001b[2J\u001b]0;pwned\u0007\u001bPq\u001b\\\u001b_G\u001b\\\u009b31m\u001bc`
	if err := os.WriteFile(filepath.Join(e.cwd, "evil.txt"), []byte("\x1b]52;c;ZXZpbA==\x07file\x1b[2J\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := e.script("evil.json", `{"mock_script":1,"responses":[
		{"text":"a`+hostile+`b","tool_calls":[{"id":"c1","name":"read","arguments":{"path":"evil.txt"}}]},
		{"error":{"kind":"server","message":"body echoed `+hostile+`"}}]}`)
	r := e.run("", "eval", "--model", m, "--session", "evil", "go")
	if r.code != exitFailure {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	show := e.run("", "session", "show", "evil")
	replay := e.run("", "replay", "evil")
	for _, out := range []struct{ name, text string }{
		{"eval stdout", r.stdout}, {"eval stderr", r.stderr},
		{"session show", show.stdout + show.stderr}, {"replay", replay.stdout + replay.stderr},
	} {
		if strings.ContainsAny(out.text, "\x1b\x07\u009b") {
			t.Errorf("%s lets a control sequence through: %q", out.name, out.text)
		}
		if !strings.Contains(out.text, "␛") {
			t.Errorf("%s does not show the neutralized ESC: %q", out.name, out.text)
		}
	}
	if j := e.run("", "replay", "evil", "-o", "json"); !strings.Contains(j.stdout, `\u001b[2J`) {
		t.Errorf("replay json lost the escaped text: %q", j.stdout)
	}
}
