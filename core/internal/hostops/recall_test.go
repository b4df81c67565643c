package hostops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/model"
)

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestFileEffectsRecordTheirFile: the completions of read, write and edit
// lead with the file's real path and the hash of its whole content after
// the effect; the rest of the output keeps its fields.
func TestFileEffectsRecordTheirFile(t *testing.T) {
	f := setup(t, nil)
	ctx := context.Background()
	if err := os.Symlink("a.txt", filepath.Join(f.dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(f.dir, "a.txt")
	steps := []struct {
		name string
		do   func() (effect.Completion, error)
		want string // the output's leading fields
		rest string // a later field the output keeps
	}{
		{"read a window through a link", func() (effect.Completion, error) {
			_, c, err := f.ops.Read(ctx, f.inv, ReadArgs{Path: "link.txt", Limit: 1})
			return c, err
		}, `{"real_path":"` + a + `","sha256":"` + hexSum("alpha\nbeta\n") + `",`, `"Text":"alpha\n","StartLine":1,"EndLine":1,"TotalLines":2`},
		{"write", func() (effect.Completion, error) {
			_, c, err := f.ops.Write(ctx, f.inv, "sub/b.txt", "hi\n")
			return c, err
		}, `{"real_path":"` + filepath.Join(f.dir, "sub", "b.txt") + `","sha256":"` + hexSum("hi\n") + `",`, `"Created":true,"Bytes":3`},
		{"edit", func() (effect.Completion, error) {
			_, c, err := f.ops.Edit(ctx, f.inv, "a.txt", "beta", "gamma")
			return c, err
		}, `{"real_path":"` + a + `","sha256":"` + hexSum("alpha\ngamma\n") + `",`, `"line":2,"bytes":12`},
	}
	for _, s := range steps {
		c, err := s.do()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if out := string(c.Output); !strings.HasPrefix(out, s.want) || !strings.Contains(out, s.rest) {
			t.Errorf("%s: output %s\nwant it to start %s and hold %s", s.name, out, s.want, s.rest)
		}
	}
	intents, _ := f.records(t)
	if got := string(intents[2].Input); !strings.Contains(got, `"abs_path":"`+a+`"`) {
		t.Errorf("edit intent %s lacks the absolute path", got)
	}
}

// TestRecall: a new FS bound to a journal over the same store remembers
// what the earlier one read and wrote, and doubts a file whose write has an
// unknown outcome.
func TestRecall(t *testing.T) {
	ctx := context.Background()
	f := setup(t, func(r effect.Record) error {
		if c, ok := r.(effect.Completion); ok && c.Mutation == model.MutationApplied && strings.Contains(string(c.Output), "doubt.txt") {
			return errors.New("disk full") // the process "dies" before the completion is recorded
		}
		return nil
	})
	for _, p := range []string{"changed.txt", "same.txt", "written.txt", "doubt.txt"} {
		if err := os.WriteFile(filepath.Join(f.dir, p), []byte(p+" v1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"changed.txt", "same.txt", "missing.txt", "written.txt"} {
		_, _, _ = f.ops.Read(ctx, f.inv, ReadArgs{Path: p})
	}
	if _, _, err := f.ops.Write(ctx, f.inv, "written.txt", "written.txt v1 (rewritten by the agent)\n"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.ops.Write(ctx, f.inv, "doubt.txt", "doubt.txt v2\n"); err == nil {
		t.Fatal("the completion was recorded")
	}
	f.store.Fail = nil
	// Behind the agent's back, between the processes:
	for p, c := range map[string]string{"changed.txt": "changed.txt v1\nby the user\n", "missing.txt": "missing.txt v1\n"} {
		if err := os.WriteFile(filepath.Join(f.dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	j, recovered, err := effect.Open(ctx, f.store, effect.Options{})
	if err != nil || len(recovered) != 1 {
		t.Fatalf("reopen: %v, recovered %v", err, recovered)
	}
	fs, err := hostfs.New(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	ops := &Ops{FS: fs, Journal: j}
	if err := ops.Recall(ctx); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string // error substring; "" means applied
	}{
		{"changed since the recorded read", "changed.txt", "changed since it was last read; read it again"},
		{"unchanged since the recorded read", "same.txt", ""},
		{"unchanged since the recorded write", "written.txt", ""},
		{"written with an unknown outcome", "doubt.txt", "may have changed since it was last read: an earlier change to it was interrupted"},
		{"the recorded read failed", "missing.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(filepath.Join(f.dir, tt.path))
			_, c, err := ops.Edit(ctx, f.inv, tt.path, "v1", "v3")
			after, _ := os.ReadFile(filepath.Join(f.dir, tt.path))
			if tt.want == "" {
				if err != nil || c.Mutation != model.MutationApplied || !strings.Contains(string(after), "v3") {
					t.Fatalf("edit: %v, completion %+v, file %q", err, c, after)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || c.Mutation != model.MutationNotApplied {
				t.Fatalf("edit: %v, completion %+v; want not_applied, %q", err, c, tt.want)
			}
			if string(after) != string(before) {
				t.Fatalf("the refused edit changed the file to %q", after)
			}
		})
	}
}

// TestRecallOrderAndOldRecords: the latest record per file wins, and
// records without the file fields (written before they existed), reads of
// unknown outcome and not_applied effects change nothing.
func TestRecallOrderAndOldRecords(t *testing.T) {
	ctx := context.Background()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(content string) string {
		return `{"real_path":"` + file + `","sha256":"` + hexSum(content) + `","Text":"` + strings.TrimSuffix(content, "\n") + `\n"}`
	}
	unknownWrite := `{"abs_path":"` + file + `","path":"f.txt"}`
	type rec struct {
		kind, input string
		mutation    model.Mutation
		output      string
	}
	tests := []struct {
		name string
		recs []rec
		want string // edit error substring; "" means applied
	}{
		{"older read, then the current one", []rec{{"fs.read", "{}", model.MutationApplied, read("then\n")}, {"fs.read", "{}", model.MutationApplied, read("now\n")}}, ""},
		{"current read, then an older write", []rec{{"fs.read", "{}", model.MutationApplied, read("now\n")}, {"fs.write", "{}", model.MutationApplied, read("then\n")}}, "changed since it was last read"},
		{"unknown write, then a read", []rec{{"fs.write", unknownWrite, model.MutationUnknown, ""}, {"fs.read", "{}", model.MutationApplied, read("now\n")}}, ""},
		{"read, then an unknown edit", []rec{{"fs.read", "{}", model.MutationApplied, read("now\n")}, {"fs.edit", unknownWrite, model.MutationUnknown, ""}}, "may have changed"},
		{"unknown read", []rec{{"fs.read", "{}", model.MutationApplied, read("then\n")}, {"fs.read", unknownWrite, model.MutationUnknown, ""}}, "changed since it was last read"},
		{"not applied write", []rec{{"fs.read", "{}", model.MutationApplied, read("then\n")}, {"fs.write", "{}", model.MutationNotApplied, read("now\n")}}, "changed since it was last read"},
		{"old record without the fields", []rec{{"fs.read", `{"path":"f.txt"}`, model.MutationApplied, `{"Text":"then\n","StartLine":1}`}}, ""},
		{"old unknown write without abs_path", []rec{{"fs.write", `{"path":"f.txt"}`, model.MutationUnknown, ""}}, ""},
		{"other kinds", []rec{{"process.run", unknownWrite, model.MutationUnknown, read("then\n")}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(file, []byte("now\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			store := &effect.MemStore{}
			for i, r := range tt.recs {
				id := "01J00000000000000000000" + string(rune('A'+i))
				_ = store.Append(ctx, effect.Intent{ID: id, Kind: r.kind, Input: json.RawMessage(r.input)})
				_ = store.Append(ctx, effect.Completion{ID: id, Mutation: r.mutation, Output: []byte(r.output)})
			}
			j, _, err := effect.Open(ctx, store, effect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fs, err := hostfs.New(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer fs.Close()
			ops := &Ops{FS: fs, Journal: j}
			if err := ops.Recall(ctx); err != nil {
				t.Fatal(err)
			}
			_, _, err = ops.Edit(ctx, Invocation{Cwd: dir, CallID: "call_1"}, "f.txt", "now", "later")
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("edit refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("edit: %v; want %q", err, tt.want)
			}
		})
	}
}

func TestRecordedFile(t *testing.T) {
	sum := hexSum("x")
	var want [sha256.Size]byte
	hex.Decode(want[:], []byte(sum))
	tests := []struct {
		name string
		out  string
		ok   bool
	}{
		{"leading fields", `{"real_path":"/p/f","sha256":"` + sum + `","Text":"x"}`, true},
		{"cut after the fields", `{"real_path":"/p/f","sha256":"` + sum + `","Text":"xxxx`, true},
		{"fields in another order", `{"sha256":"` + sum + `","real_path":"/p/f"}`, false},
		{"unterminated path", `{"real_path":"/p/f\"}`, false},
		{"bad escape in the path", `{"real_path":"/p/\x","sha256":"` + sum + `"}`, false},
		{"hash unterminated", `{"real_path":"/p/f","sha256":"` + sum, false},
		{"cut inside the fields", `{"real_path":"/p/f","sha2`, false},
		{"no fields (an older record)", `{"Text":"x","real_path":"/p/f","sha256":"` + sum + `"}`, false},
		{"empty", ``, false},
		{"not an object", `"x"`, false},
		{"relative path", `{"real_path":"p/f","sha256":"` + sum + `"}`, false},
		{"short hash", `{"real_path":"/p/f","sha256":"abcd"}`, false},
		{"hash not hex", `{"real_path":"/p/f","sha256":"` + strings.Repeat("z", 64) + `"}`, false},
		{"path not a string", `{"real_path":1,"sha256":"` + sum + `"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := recordedFile([]byte(tt.out))
			if ok != tt.ok || (ok && (f.Path != "/p/f" || f.SHA256 != want)) {
				t.Fatalf("recordedFile = %+v, %v; want ok=%v", f, ok, tt.ok)
			}
		})
	}
	// Paths that JSON escapes come back as they were written.
	for _, p := range []string{"/p/q\"uote", "/p/back\\slash", "/p/<&>", "/p/ünïcode", "/p/tab\tnl\n"} {
		t.Run("escaped "+p, func(t *testing.T) {
			out, err := json.Marshal(struct {
				fileOutput
				Text string
			}{fileOutput{RealPath: p, SHA256: sum}, "x"})
			if err != nil {
				t.Fatal(err)
			}
			f, ok := recordedFile(out)
			if !ok || f.Path != p || f.SHA256 != want {
				t.Fatalf("recordedFile(%s) = %+v, %v", out, f, ok)
			}
		})
	}
}
