package hostops

import (
	"context"
	"errors"
	"io/fs"
	"os"
)

// ContentStore keeps file contents so that one effect can be shown later
// as exactly what it changed (`smith session diff --effect`): the
// session's shadow repository. Keep stores b and returns its id; Tree
// records the whole worktree and returns its id, or fails when that would
// cost too much (a large tree). It must be safe for concurrent use.
type ContentStore interface {
	Keep(b []byte) (string, error)
	Tree(ctx context.Context) (string, error)
}

// KeptContent names the contents an effect replaced and left, as ids of
// its [Ops.Contents]: a write's or an edit's file, a command's whole
// worktree. It is part of the effect's completion output ("kept"); absent
// when they were not kept (no store, a file over KeepMaxBytes, a tree too
// large, a store failure).
type KeptContent struct {
	// Before is the content the effect replaced; "" when there was no
	// file.
	Before string `json:"before,omitempty"`
	// After is the content it left.
	After string `json:"after"`
}

// treeBefore records the worktree before a command, when the ops keep
// contents; "" when they do not, or it failed.
func (o *Ops) treeBefore(ctx context.Context) string {
	if o.Contents == nil {
		return ""
	}
	id, err := o.Contents.Tree(ctx)
	if err != nil {
		return ""
	}
	return id
}

// treeAfter records the worktree after a command that started, whose
// tree before is before; nil when either is unknown. It runs even when
// the command was cancelled: what it changed so far is recorded.
func (o *Ops) treeAfter(ctx context.Context, before string) *KeptContent {
	if before == "" {
		return nil
	}
	id, err := o.Contents.Tree(context.WithoutCancel(ctx))
	if err != nil {
		return nil
	}
	return &KeptContent{Before: before, After: id}
}

// KeepMaxBytes is the largest file whose contents a write or an edit
// keeps: 16 MiB, the snapshots' bound.
const KeepMaxBytes = 16 << 20

// priorContent is a file's content before an effect, read for keeping.
type priorContent struct {
	b       []byte
	existed bool
	ok      bool // known: read, or known absent
}

// prior reads the file at abs for keeping, when the ops keep contents.
func (o *Ops) prior(abs string) priorContent {
	if o.Contents == nil || abs == "" {
		return priorContent{}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return priorContent{ok: true}
	case err != nil || !fi.Mode().IsRegular() || fi.Size() > KeepMaxBytes:
		return priorContent{}
	}
	b, err := os.ReadFile(abs)
	if err != nil || len(b) > KeepMaxBytes {
		return priorContent{}
	}
	return priorContent{b: b, existed: true, ok: true}
}

// keep stores what an applied effect replaced and left; nil when it
// cannot say both.
func (o *Ops) keep(p priorContent, after []byte) *KeptContent {
	if !p.ok || len(after) > KeepMaxBytes {
		return nil
	}
	var k KeptContent
	var err error
	if p.existed {
		if k.Before, err = o.Contents.Keep(p.b); err != nil {
			return nil
		}
	}
	if k.After, err = o.Contents.Keep(after); err != nil {
		return nil
	}
	return &k
}
