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

	"github.com/smith-agent/smith/core/internal/hostproc"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// maxPromptFile bounds a replacement system prompt read from a file.
const maxPromptFile = 256 << 10

// facts gathers what the prompts are rendered from. Called with s.mu held,
// after prepare.
func (s *Session) facts() plugin.Facts {
	f := plugin.Facts{Cwd: s.rt.cfg.Cwd, OS: goruntime.GOOS, Arch: goruntime.GOARCH, Shell: hostproc.Shell(),
		Date: s.rt.cfg.Now().Format("2006-01-02"), ConfigDir: s.rt.paths.ConfigDir()}
	if root, branch := gitState(f.Cwd); root != "" {
		f.Repository = &plugin.Repository{Root: root, Branch: branch}
	}
	if s.bound != nil && len(s.bound.state.Targets) > 0 {
		provider, name, _ := strings.Cut(s.bound.state.Targets[0], "/")
		f.Model = plugin.ModelIdentity{Provider: provider, Name: name}
		if s.bound.described != nil {
			f.Model.DisplayName = s.bound.described.Name
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
// facts, followed by what the context transforms add (the project's
// AGENTS.md files). The transforms' reads are effects in the session's
// journal; a cut file or a failed transform is a notice, never a failure.
// Called with s.mu held, after prepare.
func (s *Session) resolvePrompt(ctx context.Context) (string, error) {
	f := s.facts()
	base, err := s.basePrompt(ctx, f)
	if err != nil {
		return "", err
	}
	adds, err := s.binding.Context(ctx, f)
	if err != nil {
		s.notice(protocol.NoticeWarning, fmt.Sprintf("the project's instructions were not all read: %v; the session goes on without them", strings.TrimPrefix(err.Error(), "plugin: ")))
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(base, "\n"))
	for _, a := range adds {
		if a.Cut {
			s.notice(protocol.NoticeWarning, fmt.Sprintf("%s is longer than the model is shown: it was cut to fit the instructions' bound (%d KiB in all); keep it shorter, or split it", a.Source, plugin.ContextLimit>>10))
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(strings.TrimRight(a.Text, "\n"))
	}
	return b.String(), nil
}

// basePrompt is the configured replacement or the product plugin's
// prompt.
func (s *Session) basePrompt(ctx context.Context, f plugin.Facts) (string, error) {
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
	p, err := s.binding.SystemPrompt(ctx, f)
	if err != nil {
		return "", fmt.Errorf("runtime: %w", err)
	}
	return p, nil
}

// SystemPrompt returns the system prompt the session's requests carry,
// resolving it (and the model) now if no run has yet; resolving reads the
// project's instructions, which records the session's metadata and those
// reads in it.
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
	if err := s.beginFile(); err != nil {
		return "", err
	}
	p, err := s.resolvePrompt(ctx)
	if err != nil {
		return "", err
	}
	s.system, s.prompted = p, true
	if err := s.agent.Retarget(s.bound.provider, s.bound.modelID, p); err != nil {
		return "", err
	}
	return p, nil
}
