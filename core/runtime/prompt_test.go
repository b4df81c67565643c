package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestSystemPromptAndInstructions: a session's requests carry the product
// plugin's prompt rendered from the facts (working directory, repository
// and branch, date, model, tools) followed by the project's AGENTS.md from
// the repository root down and the user's own; the reads are effects of
// the session; a file cut to its bound is a notice; a configured prompt
// replaces the plugin's and keeps the instructions.
func TestSystemPromptAndInstructions(t *testing.T) {
	w := newWorld(t)
	w.write(".git/HEAD", "ref: refs/heads/feature-x\n")
	w.write("AGENTS.md", "Run tests with make check.\n")
	w.write("app/AGENTS.md", strings.Repeat("Use tabs. ", 5000))
	w.write("app/hi.mock.json", `{"mock_script":1,"responses":[{"text":"ok"}]}`)
	if err := os.WriteFile(filepath.Join(w.home, "AGENTS.md"), []byte("Answer in French.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(w.project, "app")
	rt := w.open(map[string]string{"model": "mock/hi.mock.json"}, func(c *Config) { c.Cwd = app })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe()
	defer sub.Close()
	prompt, err := s.SystemPrompt(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"You are Smith", "Working directory: " + app, "Git repository: " + w.project + ", branch feature-x",
		"Date: 2026-12-01", "mock/hi.mock.json", "edit", "Run tests with make check.", "Use tabs.", "Answer in French."} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the system prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Index(prompt, "make check") > strings.Index(prompt, "Use tabs") || strings.Index(prompt, "Use tabs") > strings.Index(prompt, "French") {
		t.Error("instructions are not outermost first, the user's last")
	}
	ev, err := sub.Next(context.Background())
	if n, ok := ev.(protocol.Notice); err != nil || !ok || !strings.Contains(n.Text, filepath.Join(app, "AGENTS.md")+" is longer than the model is shown") {
		t.Errorf("first event %#v, %v; want the notice of the cut file", ev, err)
	}
	evs := runPrompt(t, s, "hi")
	if lastText(evs) != "ok" {
		t.Fatal("the run did not answer")
	}
	sess := mustLoad(t, s.Info().Path)
	reads := 0
	for i := range sess.Len() {
		if sess.Kind(i) == sessionfmt.KindEffectIntent && strings.Contains(string(sess.Entry(i).Content), "fs.read") {
			reads++
		}
	}
	if reads < 3 {
		t.Errorf("%d fs.read effects recorded; the instruction reads are effects of the session", reads)
	}

	// A configured prompt replaces the plugin's; the instructions stay.
	w.config(`system-prompt "You review code and change nothing."` + "\n")
	rt2 := w.open(map[string]string{"model": "mock/hi.mock.json"}, func(c *Config) { c.Cwd = app; c.Ephemeral = true })
	s2, _ := rt2.NewSession(context.Background(), NewSessionOptions{})
	p2, err := s2.SystemPrompt(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p2, "You review code and change nothing.") || strings.Contains(p2, "You are Smith") || !strings.Contains(p2, "make check") {
		t.Errorf("replaced prompt:\n%s", p2)
	}
}

// TestCommands: the product plugin's init command is listed and asks the
// frontend to submit a prompt; an unknown command names the known ones.
func TestCommands(t *testing.T) {
	w := newWorld(t)
	w.write("x.mock.json", `{"mock_script":1,"responses":[]}`)
	rt := w.open(map[string]string{"model": "mock/x.mock.json"}, func(c *Config) { c.Ephemeral = true })
	cmds, err := rt.Commands(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cmds {
		found = found || c.Name == "init" && c.Plugin == "product" && c.Description != ""
	}
	if !found {
		t.Fatalf("commands %+v lack the product plugin's init", cmds)
	}
	s, _ := rt.NewSession(context.Background(), NewSessionOptions{})
	res, err := s.RunCommand(context.Background(), protocol.RunCommandParams{Name: "init"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Prompt, "AGENTS.md") {
		t.Errorf("init result %+v; want a prompt about AGENTS.md", res)
	}
	if _, err := s.RunCommand(context.Background(), protocol.RunCommandParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), "init") {
		t.Errorf("unknown command = %v", err)
	}
}
