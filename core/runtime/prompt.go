package runtime

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
)

// maxPromptFile bounds a replacement system prompt read from a file.
const maxPromptFile = 256 << 10

// Facts are what the runtime knows about where and how the agent works;
// the product plugin renders the system prompt from them.
type Facts struct {
	Cwd      string
	OS, Arch string
	// Shell is the user's shell ($SHELL), "/bin/sh" when unset.
	Shell string
	// Date is today's date, YYYY-MM-DD, in the local time zone.
	Date string
	// GitRoot is the repository root holding Cwd, "" when Cwd is in no
	// repository; GitBranch its checked-out branch ("" when detached or
	// unknown).
	GitRoot, GitBranch string
	// Model is the first target (PROVIDER/MODEL) and ModelName its display
	// name from the catalog ("" when unknown).
	Model, ModelName string
	// Tools are the active tools' names.
	Tools []string
	// ConfigDir is the directory of the user's smith.kdl, where their own
	// AGENTS.md lives.
	ConfigDir string
}

// facts gathers the session's facts. Called with s.mu held, after prepare.
func (s *Session) facts() Facts {
	f := Facts{Cwd: s.rt.cfg.Cwd, OS: goruntime.GOOS, Arch: goruntime.GOARCH, Shell: s.rt.getenv("SHELL"),
		Date: s.rt.cfg.Now().Format("2006-01-02"), ConfigDir: s.rt.paths.ConfigDir()}
	if f.Shell == "" {
		f.Shell = "/bin/sh"
	}
	f.GitRoot, f.GitBranch = gitState(f.Cwd)
	if s.bound != nil {
		if len(s.bound.state.Targets) > 0 {
			f.Model = s.bound.state.Targets[0]
		}
		if s.bound.described != nil {
			f.ModelName = s.bound.described.Name
		}
	}
	if s.binding != nil {
		for _, t := range s.binding.Tools() {
			f.Tools = append(f.Tools, t.Definition().Name)
		}
	}
	return f
}

// gitState finds the repository holding dir (a directory or file named
// .git in dir or an ancestor) and the branch its HEAD names.
func gitState(dir string) (root, branch string) {
	for d := dir; ; d = filepath.Dir(d) {
		git := filepath.Join(d, ".git")
		if st, err := os.Stat(git); err == nil {
			root = d
			head := filepath.Join(git, "HEAD")
			if !st.IsDir() {
				// A worktree or submodule: ".git" says "gitdir: PATH".
				if b, err := readBounded(git, 4096); err == nil {
					if p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
						if !filepath.IsAbs(p) {
							p = filepath.Join(d, p)
						}
						head = filepath.Join(p, "HEAD")
					}
				}
			}
			if b, err := readBounded(head, 4096); err == nil {
				if ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/"); ok {
					branch = ref
				}
			}
			return root, branch
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// readBounded reads at most max bytes of path.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// resolvePrompt returns the system prompt of the session's runs: the
// configured replacement (system-prompt in smith.kdl, --system-prompt-file,
// SMITH_SYSTEM_PROMPT_FILE) or the product plugin's, rendered from the
// facts. Called with s.mu held, after prepare.
func (s *Session) resolvePrompt(ctx context.Context) (string, error) {
	sp := s.rt.conf.SystemPrompt
	switch {
	case sp.Value.Text != "":
		return sp.Value.Text, nil
	case sp.Value.File != "":
		b, err := readBounded(sp.Value.File, maxPromptFile+1)
		if err != nil {
			return "", usagef("runtime: read the system prompt file %s (from %s): %w; fix the path, or remove the setting to use Smith's prompt", sp.Value.File, sp.Source, err)
		}
		if len(b) > maxPromptFile {
			return "", usagef("runtime: the system prompt file %s (from %s) exceeds %d KiB; shorten it", sp.Value.File, sp.Source, maxPromptFile>>10)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return "", usagef("runtime: the system prompt file %s (from %s) is empty; write the prompt in it, or remove the setting to use Smith's prompt", sp.Value.File, sp.Source)
		}
		return string(b), nil
	}
	return s.productPrompt(ctx, s.facts())
}

// productPrompt renders the product plugin's system prompt; "" when no
// plugin of the generation contributes one.
func (s *Session) productPrompt(ctx context.Context, f Facts) (string, error) {
	_ = ctx
	_ = f
	return "", nil
}

// SystemPrompt returns the system prompt the session's requests carry,
// resolving it (and the model) now if no run has yet.
func (s *Session) SystemPrompt(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errClosed
	}
	if s.prompted {
		return s.system, nil
	}
	if err := s.prepare(ctx); err != nil {
		return "", err
	}
	p, err := s.resolvePrompt(ctx)
	if err != nil {
		return "", fmt.Errorf("%w", err)
	}
	return p, nil
}
