package main

import (
	"strings"

	"github.com/smith-agent/smith/wit/fs"
)

type findArgs struct {
	Pattern        string
	Path           string
	IncludeIgnored bool
	Limit          int
}

// limitOf returns the limit to use and the one to ask the host for: one
// more, to learn whether results were cut.
func limitOf(n, def int) (int, uint32) {
	if n <= 0 {
		n = def
	}
	n = min(n, maxLimit)
	return n, uint32(n + 1)
}

// more is the notice ending a cut result list.
func more(n int, what, how string) string {
	return "[results truncated: showing the first " + itoa(n) + " " + what + "; more exist — " + how + "]"
}

// runFind lists paths matching a glob, sorted.
func runFind(h host, args, _ string) (string, error) {
	var a findArgs
	if err := decode("find", args, strField("pattern", &a.Pattern), strField("path", &a.Path),
		boolField("include_ignored", &a.IncludeIgnored), intField("limit", &a.Limit)); err != nil {
		return "", err
	}
	dir := a.Path
	if dir == "" {
		dir = "."
	}
	limit, ask := limitOf(a.Limit, findLimit)
	paths, err := h.FindFiles(a.Pattern, dir, fs.FindOptions{Limit: ask, IncludeIgnored: a.IncludeIgnored})
	if err != nil {
		return "", describe("find", dir, err)
	}
	if len(paths) == 0 {
		return "[no files match " + a.Pattern + " under " + dir + "]", nil
	}
	cut := len(paths) > limit
	if cut {
		paths = paths[:limit]
	}
	out := strings.Join(paths, "\n")
	if cut {
		out += "\n" + more(limit, "paths", "narrow the pattern or raise limit")
	}
	return out, nil
}

type grepArgs struct {
	Pattern    string
	Path       string
	Glob       string
	Literal    bool
	IgnoreCase bool
	Limit      int
}

// runGrep lists matching lines as path:line: text.
func runGrep(h host, args, _ string) (string, error) {
	var a grepArgs
	if err := decode("grep", args, strField("pattern", &a.Pattern), strField("path", &a.Path), strField("glob", &a.Glob),
		boolField("literal", &a.Literal), boolField("ignore_case", &a.IgnoreCase), intField("limit", &a.Limit)); err != nil {
		return "", err
	}
	dir := a.Path
	if dir == "" {
		dir = "."
	}
	limit, ask := limitOf(a.Limit, grepLimit)
	o := fs.SearchOptions{Literal: a.Literal, IgnoreCase: a.IgnoreCase, Limit: ask}
	if a.Glob != "" {
		o.Glob = &a.Glob
	}
	ms, err := h.SearchText(a.Pattern, dir, o)
	if err != nil {
		return "", describe("grep", dir, err)
	}
	if len(ms) == 0 {
		return "[no lines match " + a.Pattern + " under " + dir + "]", nil
	}
	cut := len(ms) > limit
	if cut {
		ms = ms[:limit]
	}
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.Path + ":" + itoa(int(m.Line)) + ": " + m.Text + "\n")
	}
	if cut {
		b.WriteString(more(limit, "matches", "narrow the pattern, path or glob, or raise limit"))
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

type lsArgs struct {
	Path  string
	Limit int
}

// runLs lists a directory sorted by name.
func runLs(h host, args, _ string) (string, error) {
	var a lsArgs
	if err := decode("ls", args, strField("path", &a.Path), intField("limit", &a.Limit)); err != nil {
		return "", err
	}
	dir := a.Path
	if dir == "" {
		dir = "."
	}
	limit, ask := limitOf(a.Limit, lsLimit)
	es, err := h.ListDirectory(dir, fs.ListOptions{Limit: ask})
	if err != nil {
		return "", describe("ls", dir, err)
	}
	if len(es) == 0 {
		return "[empty directory]", nil
	}
	cut := len(es) > limit
	if cut {
		es = es[:limit]
	}
	var b strings.Builder
	for _, e := range es {
		b.WriteString(e.Name)
		switch e.Kind {
		case fs.EntryKindDirectory:
			b.WriteByte('/')
		case fs.EntryKindSymlink:
			b.WriteByte('@')
		}
		b.WriteByte('\n')
	}
	if cut {
		b.WriteString(more(limit, "entries", "list a subdirectory or raise limit"))
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
