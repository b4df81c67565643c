package hostops

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/model"
)

// fileKinds are the effects whose completions say what a file held.
var fileKinds = []string{"fs.read", "fs.write", "fs.edit"}

// Recall seeds the FS's stale-edit memory from the file effects already in
// the journal — those of earlier processes over the same session — in the
// order they completed, the latest per file winning:
//
//   - an applied fs.read, fs.write or fs.edit remembers the file's real path
//     and content hash from its completion output;
//   - an fs.write or fs.edit of unknown outcome (interrupted, recovered)
//     puts the file in doubt: the change may or may not have happened, so
//     an edit is refused until the file is read or written again;
//   - a not_applied effect, a read of unknown outcome (it changed nothing,
//     and its text never reached the model), and records without the
//     fields (written before they existed) change nothing.
//
// Call it once, before the first tool call.
func (o *Ops) Recall(ctx context.Context) error {
	done, err := o.Journal.Completed(ctx, fileKinds...)
	if err != nil {
		return fmt.Errorf("hostops: recall the files read and written earlier in the session: %w", err)
	}
	for _, d := range done {
		switch d.Completion.Mutation {
		case model.MutationApplied:
			if f, ok := recordedFile(d.Completion.Output); ok {
				o.FS.Recall(f)
			}
		case model.MutationUnknown:
			if d.Intent.Kind == "fs.read" {
				continue
			}
			var in struct {
				AbsPath string `json:"abs_path"`
			}
			if json.Unmarshal(d.Intent.Input, &in) == nil && filepath.IsAbs(in.AbsPath) {
				o.FS.Doubt(in.AbsPath)
			}
		}
	}
	return nil
}

// recordedFile reads the leading real_path and sha256 of a file effect's
// completion output. It stops as soon as both are found, so it neither
// scans a read's text nor minds an output cut short after them.
func recordedFile(out []byte) (hostfs.FileHash, bool) {
	var f hostfs.FileHash
	d := json.NewDecoder(bytes.NewReader(out))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return f, false
	}
	var sum string
	for f.Path == "" || sum == "" {
		k, err := d.Token()
		if err != nil {
			return f, false
		}
		v, err := d.Token()
		if err != nil {
			return f, false
		}
		s, isString := v.(string)
		switch {
		case k == "real_path" && isString:
			f.Path = s
		case k == "sha256" && isString:
			sum = s
		default:
			return f, false // the fields lead the output, or are absent
		}
	}
	if !filepath.IsAbs(f.Path) || len(sum) != hex.EncodedLen(sha256.Size) {
		return f, false
	}
	if _, err := hex.Decode(f.SHA256[:], []byte(sum)); err != nil {
		return f, false
	}
	return f, true
}
