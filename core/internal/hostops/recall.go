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

// recordedFile reads the real_path and sha256 that lead a file effect's
// completion output, as [fileOutput] writes them. It reads nothing past
// them: neither a read's text nor whether the output was cut short after
// them. Any other start (an older record, a failed effect) is not a file.
func recordedFile(out []byte) (hostfs.FileHash, bool) {
	var f hostfs.FileHash
	rest, ok := bytes.CutPrefix(out, []byte(`{"real_path":"`))
	if !ok {
		return f, false
	}
	end := 0 // the closing quote of the path string
	for end < len(rest) && rest[end] != '"' {
		if rest[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(rest) {
		return f, false
	}
	if printable(rest[:end]) {
		f.Path = string(rest[:end])
	} else if err := json.Unmarshal(out[len(`{"real_path":`):len(`{"real_path":`)+end+2], &f.Path); err != nil {
		return f, false
	}
	rest, ok = bytes.CutPrefix(rest[end+1:], []byte(`,"sha256":"`))
	n := hex.EncodedLen(sha256.Size)
	if !ok || len(rest) <= n || rest[n] != '"' || !filepath.IsAbs(f.Path) {
		return f, false
	}
	if _, err := hex.Decode(f.SHA256[:], rest[:n]); err != nil {
		return f, false
	}
	return f, true
}

// printable reports whether b is plain printable ASCII without a backslash:
// a JSON string body that means itself.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}
