package hostfs

import (
	"context"
	"io"
	"io/fs"
	"strings"

	"github.com/smith-agent/smith/core/internal/gitignore"
)

// SetIgnore sets the configured ignore patterns (gitignore syntax, relative
// to each root), applied by Find, Grep and Ls on top of .gitignore files: a
// path either ignores is ignored, so a negation in a .gitignore file does
// not re-include what a configured pattern excludes. Call it before the FS
// is shared.
func (h *FS) SetIgnore(patterns ...string) {
	m := new(gitignore.Matcher)
	for _, p := range patterns {
		m.AddLine("", strings.TrimSpace(p))
	}
	h.mu.Lock()
	h.ignore = m
	h.mu.Unlock()
}

// ignorer decides which paths (slash-separated, relative to a root) are
// ignored: ".git" always, the configured patterns, and every .gitignore
// from the root down to the path.
type ignorer struct {
	all        bool // only ".git" is ignored
	t          target
	configured *gitignore.Matcher // shared, read-only
	files      gitignore.Matcher  // the .gitignore files loaded so far
}

// noPatterns is the configured matcher of an FS without SetIgnore; matching
// only reads it, so every walk shares it.
var noPatterns gitignore.Matcher

// newIgnorer returns the ignorer of a search beneath t; with all, only
// ".git" is ignored and no .gitignore file is read.
func (h *FS) newIgnorer(t target, all bool) *ignorer {
	h.mu.Lock()
	conf := h.ignore
	h.mu.Unlock()
	if conf == nil {
		conf = &noPatterns
	}
	ig := &ignorer{all: all, t: t, configured: conf}
	// .gitignore files of the ancestors of the search root apply too.
	rel := t.fsPath()
	if rel != "." {
		parts := strings.Split(rel, "/")
		for i := range parts {
			ig.load(strings.Join(parts[:i], "/"))
		}
	}
	return ig
}

// load adds the patterns of dir/.gitignore (dir relative to the root),
// unless all.
func (ig *ignorer) load(dir string) {
	if ig.all {
		return
	}
	name := ".gitignore"
	if dir != "" && dir != "." {
		name = dir + "/.gitignore"
	}
	f, info, err := openRegular(ig.t.root.r, name)
	if err != nil {
		return
	}
	defer f.Close()
	data := make([]byte, info.Size())
	n, _ := io.ReadFull(f, data)
	data = data[:n]
	ig.files.Add(dir, data)
}

// check reports whether p is ignored, its parent directories included;
// with entry, p's parent directories are known not to be ignored (a walk
// skipped the ignored ones), so only p itself is judged.
func (ig *ignorer) check(p string, dir, entry bool) bool {
	if p == "." {
		return false
	}
	if p == ".git" || strings.HasSuffix(p, "/.git") {
		return true
	}
	if ig.all {
		return false
	}
	if entry {
		return ig.configured.MatchEntry(p, dir) || ig.files.MatchEntry(p, dir)
	}
	return ig.configured.Match(p, dir) || ig.files.Match(p, dir)
}

// excludes reports whether a pattern excludes the directory d or one above
// it, and with it everything below d. (The ".git" rule of check judges an
// entry's own name only, so it does not apply here.)
func (ig *ignorer) excludes(d string) bool {
	if ig.all || d == "." {
		return false
	}
	return ig.configured.Match(d, true) || ig.files.Match(d, true)
}

// walk visits the non-ignored entries beneath t in lexical order (symbolic
// links are reported, never followed); with all, only ".git" is skipped. fn
// returns fs.SkipAll to stop.
func (h *FS) walk(ctx context.Context, t target, all bool, fn func(p string, d fs.DirEntry) error) error {
	ig := h.newIgnorer(t, all)
	start := t.fsPath()
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
		if ig.check(p, d.IsDir(), p != start) {
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
