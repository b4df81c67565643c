package hostfs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/smith-agent/smith/core/model"
)

// Entry is one directory entry listed by Ls.
type Entry struct {
	Name    string
	Dir     bool
	Symlink bool
}

// LsResult is a bounded directory listing, sorted by name.
type LsResult struct {
	Entries   []Entry
	Total     int // entries not ignored, listed or not
	Truncated bool
}

// Ls lists the directory at path (relative to cwd), skipping ignored
// entries; at most limit entries (0 means 500).
func (h *FS) Ls(ctx context.Context, cwd, p string, limit int) (LsResult, error) {
	fail := func(err error) (LsResult, error) {
		return LsResult{}, &Error{Op: "ls", Path: p, Mutation: model.MutationNotApplied, Err: err}
	}
	if limit <= 0 {
		limit = 500
	}
	if p == "" {
		p = "."
	}
	t, err := h.resolve(cwd, p)
	if err != nil {
		return fail(err)
	}
	ig := h.newIgnorer(t, false)
	dir := t.fsPath()
	ig.load(dir)
	entries, err := fs.ReadDir(t.root.r.FS(), dir)
	if err != nil {
		return fail(err)
	}
	// The entries share dir's ancestry: if a pattern excludes dir or a
	// directory above it, every entry is excluded; otherwise each entry's
	// own name decides, judged once instead of with its whole path.
	excluded := ig.excludes(dir)
	var res LsResult
	for _, e := range entries { // fs.ReadDir sorts by name
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		full := e.Name()
		if dir != "." {
			full = dir + "/" + e.Name()
		}
		if excluded || ig.check(full, e.IsDir(), true) {
			continue
		}
		res.Total++
		if len(res.Entries) < limit {
			res.Entries = append(res.Entries, Entry{Name: e.Name(), Dir: e.IsDir(), Symlink: e.Type()&fs.ModeSymlink != 0})
		}
	}
	res.Truncated = res.Total > len(res.Entries)
	return res, nil
}

// FindResult is a bounded list of paths, relative to the search directory,
// in lexical walk order.
type FindResult struct {
	Paths     []string
	Truncated bool
}

// FindOptions bounds Find. The zero value means 1000 paths, ignores
// respected.
type FindOptions struct {
	// Limit bounds the paths returned; 0 means 1000.
	Limit int
	// IncludeIgnored also returns paths that ignore files exclude (".git"
	// stays excluded).
	IncludeIgnored bool
}

// Find returns the files and directories beneath dir (relative to cwd;
// "" means cwd) matching the glob pattern, skipping ignored paths. A
// pattern with a "/" matches the path relative to dir ("**" crosses
// directories); one without matches the base name.
func (h *FS) Find(ctx context.Context, cwd, dir, pattern string, o FindOptions) (FindResult, error) {
	limit := o.Limit
	fail := func(err error) (FindResult, error) {
		return FindResult{}, &Error{Op: "find", Path: dir, Mutation: model.MutationNotApplied, Err: err}
	}
	if !doublestar.ValidatePattern(pattern) || pattern == "" {
		return fail(fmt.Errorf("pattern %q is not a valid glob; use * ? [abc] {a,b} and ** (for example **/*.go)", pattern))
	}
	if limit <= 0 {
		limit = 1000
	}
	if dir == "" {
		dir = "."
	}
	t, err := h.resolve(cwd, dir)
	if err != nil {
		return fail(err)
	}
	base := t.fsPath()
	var res FindResult
	err = h.walk(ctx, t, o.IncludeIgnored, func(p string, d fs.DirEntry) error {
		rel := relTo(base, p)
		if rel == "." {
			return nil
		}
		subject := rel
		if !strings.Contains(pattern, "/") {
			subject = path.Base(rel)
		}
		if ok, _ := doublestar.Match(pattern, subject); !ok {
			return nil
		}
		if len(res.Paths) == limit {
			res.Truncated = true
			return fs.SkipAll
		}
		if d.IsDir() {
			rel += "/"
		}
		res.Paths = append(res.Paths, rel)
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return res, nil
}

// GrepOptions configures Grep. The zero value searches cwd
// case-sensitively for a regular expression.
type GrepOptions struct {
	// Dir is the file or directory to search, relative to cwd; "" is cwd.
	Dir string
	// Glob restricts the files searched (as Find's pattern).
	Glob string
	// Literal treats the pattern as plain text.
	Literal bool
	// IgnoreCase matches case-insensitively.
	IgnoreCase bool
	// Limit bounds the matches; 0 means 100.
	Limit int
	// MaxLineBytes cuts long matching lines; 0 means 500.
	MaxLineBytes int
	// MaxFileBytes is the largest file read whole; 0 means 4 MiB. Larger
	// files are searched as a stream.
	MaxFileBytes int64
}

// Match is one matching line.
type Match struct {
	Path string // relative to the searched directory
	Line int    // 1-based
	Text string // the line, cut at MaxLineBytes (then ending in "…")
}

// GrepResult lists matches in walk order (lexical per directory, depth
// first, as Find), then line order.
type GrepResult struct {
	Matches   []Match
	Truncated bool
	// Skipped counts files not searched: binary, or unreadable.
	Skipped int
}

// Grep searches text files beneath o.Dir for pattern (RE2 syntax unless
// Literal), skipping ignored paths and binary files.
func (h *FS) Grep(ctx context.Context, cwd, pattern string, o GrepOptions) (GrepResult, error) {
	fail := func(err error) (GrepResult, error) {
		return GrepResult{}, &Error{Op: "grep", Path: o.Dir, Mutation: model.MutationNotApplied, Err: err}
	}
	if pattern == "" {
		return fail(errors.New("empty pattern; pass the text or regular expression to search for"))
	}
	expr := pattern
	if o.Literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if o.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return fail(fmt.Errorf("pattern %q is not a valid RE2 regular expression (%v); escape special characters or set literal", pattern, err))
	}
	if o.Glob != "" && !doublestar.ValidatePattern(o.Glob) {
		return fail(fmt.Errorf("glob %q is not valid; for example **/*.go", o.Glob))
	}
	if o.Limit <= 0 {
		o.Limit = 100
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = 500
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 4 << 20
	}
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	t, err := h.resolve(cwd, dir)
	if err != nil {
		return fail(err)
	}
	base := t.fsPath()
	if info, err := t.root.r.Stat(base); err == nil && !info.IsDir() {
		base = path.Dir(base) // a single file: paths relative to its directory
	}
	var res GrepResult
	err = h.walk(ctx, t, false, func(p string, d fs.DirEntry) error {
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel := relTo(base, p)
		if o.Glob != "" {
			subject := rel
			if !strings.Contains(o.Glob, "/") {
				subject = path.Base(rel)
			}
			if ok, _ := doublestar.Match(o.Glob, subject); !ok {
				return nil
			}
		}
		stop := false
		ok := h.grepFile(ctx, t, p, o.MaxFileBytes, func(line int, text []byte) bool {
			if !re.Match(text) {
				return true
			}
			if len(res.Matches) == o.Limit {
				res.Truncated, stop = true, true
				return false
			}
			res.Matches = append(res.Matches, Match{Path: rel, Line: line, Text: cut(text, o.MaxLineBytes)})
			return true
		})
		if !ok {
			res.Skipped++
		}
		if stop {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return res, nil
}

// grepFile calls match with each line of the text file p (numbered from
// 1, without its newline) until match returns false; ok is false when the
// file is binary (a NUL byte in its first 8 KiB) or cannot be opened. A
// file up to bound bytes is read whole; a larger one is streamed, so no
// file is left unsearched for its size; a line longer than maxGrepLine is
// matched on its first maxGrepLine bytes.
func (h *FS) grepFile(ctx context.Context, t target, p string, bound int64, match func(line int, text []byte) bool) bool {
	f, info, err := openRegular(t.root.r, p)
	if err != nil {
		return false
	}
	defer f.Close()
	if info.Size() > bound {
		return grepStream(ctx, f, match)
	}
	data := make([]byte, info.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return false
	}
	data = data[:n]
	if bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
		return false
	}
	for line := 1; len(data) > 0; line++ {
		end := bytes.IndexByte(data, '\n')
		var text []byte
		if end < 0 {
			text, data = data, nil
		} else {
			text, data = data[:end], data[end+1:]
		}
		if !match(line, text) {
			break
		}
	}
	return true
}

// maxGrepLine bounds the part of one line of a streamed file that grep
// matches.
const maxGrepLine = 1 << 20

// grepStream is grepFile for a file read a block at a time.
func grepStream(ctx context.Context, f io.Reader, match func(line int, text []byte) bool) bool {
	r := bufio.NewReaderSize(f, 64<<10)
	if head, _ := r.Peek(8192); bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	var long []byte
	for line := 1; ; {
		if line%4096 == 0 && ctx.Err() != nil {
			return true
		}
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long) < maxGrepLine {
				long = append(long, chunk[:min(len(chunk), maxGrepLine-len(long))]...)
			}
			continue
		}
		text := chunk
		if len(long) > 0 {
			if len(long) < maxGrepLine {
				long = append(long, chunk[:min(len(chunk), maxGrepLine-len(long))]...)
			}
			text, long = long, long[:0]
		}
		text = bytes.TrimSuffix(text, []byte{'\n'})
		if len(chunk) > 0 || len(text) > 0 {
			if !match(line, text) {
				return true
			}
			line++
		}
		if err != nil {
			return true
		}
	}
}

// cut shortens a line to at most n bytes on a rune boundary, marking it.
func cut(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "…"
}
