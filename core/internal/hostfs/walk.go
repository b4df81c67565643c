package hostfs

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// SetIgnore sets the configured ignore patterns (gitignore syntax, relative
// to each root), applied by Find, Grep and Ls on top of .gitignore files.
// Call it before the FS is shared.
func (h *FS) SetIgnore(patterns ...string) {
	var ps []gitignore.Pattern
	for _, p := range patterns {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
			ps = append(ps, gitignore.ParsePattern(p, nil))
		}
	}
	h.mu.Lock()
	h.ignore = ps
	h.mu.Unlock()
}

// ignorer decides which paths (slash-separated, relative to a root) are
// ignored: ".git" always, the configured patterns, and every .gitignore
// from the root down to the path.
type ignorer struct {
	all        bool // only ".git" is ignored
	t          target
	configured gitignore.Matcher
	patterns   []gitignore.Pattern
}

func (h *FS) newIgnorer(t target) *ignorer {
	h.mu.Lock()
	conf := h.ignore
	h.mu.Unlock()
	ig := &ignorer{t: t, configured: gitignore.NewMatcher(conf)}
	// .gitignore files of the ancestors of the search root apply too.
	rel := path.Clean(strings.ReplaceAll(t.rel, "\\", "/"))
	if rel != "." {
		parts := strings.Split(rel, "/")
		for i := range parts {
			ig.load(strings.Join(parts[:i], "/"))
		}
	}
	return ig
}

// load adds the patterns of dir/.gitignore (dir relative to the root).
func (ig *ignorer) load(dir string) {
	name := ".gitignore"
	var domain []string
	if dir != "" && dir != "." {
		name = dir + "/.gitignore"
		domain = strings.Split(dir, "/")
	}
	data, err := ig.t.root.r.ReadFile(name)
	if err != nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ig.patterns = append(ig.patterns, gitignore.ParsePattern(line, domain))
	}
}

func (ig *ignorer) ignored(p string, dir bool) bool {
	if p == "." {
		return false
	}
	parts := strings.Split(p, "/")
	if parts[len(parts)-1] == ".git" {
		return true
	}
	if ig.all {
		return false
	}
	return ig.configured.Match(parts, dir) || gitignore.NewMatcher(ig.patterns).Match(parts, dir)
}

// walk visits the non-ignored entries beneath t in lexical order (symbolic
// links are reported, never followed); with all, only ".git" is skipped. fn
// returns fs.SkipAll to stop.
func (h *FS) walk(ctx context.Context, t target, all bool, fn func(p string, d fs.DirEntry) error) error {
	ig := h.newIgnorer(t)
	ig.all = all
	start := path.Clean(strings.ReplaceAll(t.rel, "\\", "/"))
	return fs.WalkDir(t.root.r.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil // an unreadable entry is skipped, not fatal
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if ig.ignored(p, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			ig.load(p)
		}
		return fn(p, d)
	})
}

// relTo returns p (relative to the root) relative to base (also relative
// to the root), slash-separated.
func relTo(base, p string) string {
	if base == "." {
		return p
	}
	if p == base {
		return "."
	}
	return strings.TrimPrefix(p, base+"/")
}
