package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
)

// maxOutput bounds what a native tool returns to the model.
const maxOutput = 64 << 10

// Native is the interim in-process Source (read, edit, bash) used until the
// tools plugin manager is wired in. Every call goes through the journal.
func Native(_ context.Context, j *effect.Journal) (Set, error) {
	return Set{Tools: []agent.Tool{
		&nativeTool{j: j, def: def("read", "Read a file (path relative to the working directory).",
			`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`), run: readFile},
		&nativeTool{j: j, def: def("edit", "Replace exactly one occurrence of old_text with new_text in a file.",
			`{"type":"object","properties":{"path":{"type":"string"},"old_text":{"type":"string"},"new_text":{"type":"string"}},"required":["path","old_text","new_text"],"additionalProperties":false}`), run: editFile},
		&nativeTool{j: j, def: def("bash", "Run a shell command in the working directory.",
			`{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"integer","minimum":1}},"required":["command"],"additionalProperties":false}`), run: runBash},
	}}, nil
}

func def(name, desc, schema string) model.ToolDefinition {
	return model.ToolDefinition{Name: name, Description: desc, Parameters: json.RawMessage(schema)}
}

type nativeTool struct {
	j   *effect.Journal
	def model.ToolDefinition
	run func(ctx context.Context, cwd string, args json.RawMessage) (string, model.Mutation, error)
}

func (t *nativeTool) Definition() model.ToolDefinition { return t.def }

func (t *nativeTool) Execute(ctx context.Context, c *agent.Call) (agent.Result, error) {
	var out string
	c2, err := t.j.Run(ctx, effect.Intent{Kind: "tool." + t.def.Name, Parent: c.ID, Input: c.Arguments},
		func(ctx context.Context) effect.Outcome {
			o, m, err := t.run(ctx, c.Cwd, c.Arguments)
			out = o
			return effect.Outcome{Mutation: m, Output: []byte(o), Err: err}
		})
	if err != nil {
		return agent.Result{IsError: true, Mutation: c2.Mutation, Content: []model.Content{model.Text{Text: err.Error()}}}, nil
	}
	return agent.Result{Mutation: c2.Mutation, Content: []model.Content{model.Text{Text: out}}}, nil
}

// resolve joins p to cwd and refuses paths that leave cwd, symlinks included.
func resolve(cwd, p string) (string, error) {
	full := filepath.Join(cwd, p)
	if filepath.IsAbs(p) {
		full = filepath.Clean(p)
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", p, err)
	}
	root, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return "", fmt.Errorf("working directory %q: %w", cwd, err)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q resolves outside the working directory %s; use a path inside it", p, cwd)
	}
	return real, nil
}

func readFile(_ context.Context, cwd string, raw json.RawMessage) (string, model.Mutation, error) {
	var a struct{ Path string }
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", model.MutationNotApplied, err
	}
	p, err := resolve(cwd, a.Path)
	if err != nil {
		return "", model.MutationNotApplied, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", model.MutationNotApplied, err
	}
	return bounded(b), model.MutationApplied, nil
}

func editFile(_ context.Context, cwd string, raw json.RawMessage) (string, model.Mutation, error) {
	var a struct {
		Path    string
		OldText string `json:"old_text"`
		NewText string `json:"new_text"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", model.MutationNotApplied, err
	}
	p, err := resolve(cwd, a.Path)
	if err != nil {
		return "", model.MutationNotApplied, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", model.MutationNotApplied, err
	}
	switch n := strings.Count(string(b), a.OldText); {
	case a.OldText == "" || n == 0:
		return "", model.MutationNotApplied, fmt.Errorf("old_text not found in %s; read the file again and copy the text exactly", a.Path)
	case n > 1:
		return "", model.MutationNotApplied, fmt.Errorf("old_text occurs %d times in %s; include more context so it matches once", n, a.Path)
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", model.MutationNotApplied, err
	}
	tmp := p + ".smith-tmp"
	if err := os.WriteFile(tmp, []byte(strings.Replace(string(b), a.OldText, a.NewText, 1)), st.Mode().Perm()); err != nil {
		return "", model.MutationNotApplied, err
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return "", model.MutationNotApplied, err
	}
	return "edited " + a.Path, model.MutationApplied, nil
}

func runBash(ctx context.Context, cwd string, raw json.RawMessage) (string, model.Mutation, error) {
	var a struct {
		Command string
		Timeout int
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", model.MutationNotApplied, err
	}
	if a.Timeout <= 0 {
		a.Timeout = 120
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(a.Timeout)*time.Second)
	defer cancel()
	cmd := exec.Command("sh", "-c", a.Command)
	cmd.Dir = cwd
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", model.MutationNotApplied, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return bounded(out.Bytes()), model.MutationUnknown, fmt.Errorf("command stopped: %w", context.Cause(ctx))
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return withStatus(out.Bytes(), exit.ExitCode()), model.MutationApplied, nil
	}
	if err != nil {
		return bounded(out.Bytes()), model.MutationUnknown, err
	}
	return withStatus(out.Bytes(), 0), model.MutationApplied, nil
}

func withStatus(out []byte, code int) string {
	s := bounded(out)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + fmt.Sprintf("[exit status %d]", code)
}

func bounded(b []byte) string {
	if len(b) > maxOutput {
		return string(b[:maxOutput]) + fmt.Sprintf("\n[output truncated at %d bytes]", maxOutput)
	}
	return string(b)
}
