package hostops

import (
	"errors"
	"io/fs"
	"os"
)

// ContentStore keeps file contents so that a write or an edit can be
// shown later as exactly what it changed (`smith session diff --effect`):
// the session's shadow repository. Keep stores b and returns its id. It
// must be safe for concurrent use.
type ContentStore interface {
	Keep(b []byte) (string, error)
}

// KeptContent names the contents a write or an edit replaced and left,
// as ids of its [Ops.Contents]. It is part of the effect's completion
// output ("kept"); absent when the contents were not kept (no store, a
// file over KeepMaxBytes, a store failure).
type KeptContent struct {
	// Before is the content the effect replaced; "" when there was no
	// file.
	Before string `json:"before,omitempty"`
	// After is the content it left.
	After string `json:"after"`
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
