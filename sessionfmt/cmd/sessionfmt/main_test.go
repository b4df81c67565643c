package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/sessionfmt"
)

var bin string

// TestMain builds the real binary once; the tests run it on real files.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sessionfmt-bin")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "sessionfmt")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("build sessionfmt: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// rawFrame builds a frame by hand from the documented layout.
func rawFrame(typ, flags byte, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(payload)))
	b = append(b, typ, flags)
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// makeSession writes a session with two branches, a large compressible
// entry and an unknown frame in the middle; it returns the path and the
// offset of the unknown frame.
func makeSession(t *testing.T) (string, int64) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "chat.session")
	f, err := sessionfmt.Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []sessionfmt.ID
	var unknownAt int64
	for i := range 12 {
		text := "hello"
		if i == 4 {
			text = strings.Repeat("a long and repetitive tool output line\n", 300)
		}
		c, _ := sessionfmt.EncodeContent(map[string]string{"text": text})
		e := sessionfmt.Entry{ID: sessionfmt.NewID(), Time: time.Now(), Kind: sessionfmt.KindMessage, Content: c}
		if i > 0 {
			e.Parent = ids[len(ids)-1]
		}
		if i == 10 {
			e.Parent = ids[5]
		}
		if err := f.Append(e, sessionfmt.Buffered); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
		if i == 6 {
			f.Close()
			st, _ := os.Stat(p)
			unknownAt = st.Size()
			fh, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			fh.Write(rawFrame(0x42, 0, []byte("from the future")))
			fh.Close()
			if f, err = sessionfmt.Open(p, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.Close()
	return p, unknownAt
}

type result struct {
	code           int
	stdout, stderr string
}

func runBin(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, bytes.NewReader(stdin)
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

func TestCommands(t *testing.T) {
	p, unknownAt := makeSession(t)
	dir := filepath.Dir(p)
	orig, _ := os.ReadFile(p)
	damaged := filepath.Join(dir, "damaged.session")
	d := bytes.Clone(orig)
	d[unknownAt+8] ^= 0x20    // inside the unknown frame's payload
	d = append(d, 0x10, 0, 0) // a torn append
	os.WriteFile(damaged, d, 0o600)
	notSession := filepath.Join(dir, "notes.txt")
	os.WriteFile(notSession, []byte("just some notes, not a session"), 0o600)

	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string
		stderr   []string
		noStdout bool
	}{
		{name: "help", args: []string{"--help"}, stdout: []string{"sessionfmt dump FILE", "verify FILE", "repair FILE -o OUT", "stat FILE", "import JSONL -o FILE", "Exit status"}},
		{name: "no command", args: nil, code: 2, stderr: []string{"no command given", "Usage:"}},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: []string{`unknown command "frobnicate"`, "sessionfmt help"}},
		{name: "stat", args: []string{"stat", p}, stdout: []string{"entries\t12", "branches\t2", "unknown_frames\t1", "compressed_entries\t1", "compression_ratio\t", "bytes\t" + strconv.Itoa(len(orig))}},
		{name: "verify intact", args: []string{"verify", p}, stdout: []string{"intact", "12 entries"}},
		{name: "verify damaged", args: []string{"verify", damaged}, code: 1, stdout: []string{"offset " + strconv.Itoa(int(unknownAt)) + ": skipped", "truncated tail of 3 bytes", "sessionfmt repair"}},
		{name: "verify not a session", args: []string{"verify", notSession}, code: 2, stderr: []string{notSession, "offset 0", "not a session"}, noStdout: true},
		{name: "verify missing file", args: []string{"verify", filepath.Join(dir, "nope.session")}, code: 2, stderr: []string{"nope.session", "no such file", "check the path"}},
		{name: "verify two files", args: []string{"verify", p, p}, code: 2, stderr: []string{"want exactly one FILE"}},
		{name: "repair without -o", args: []string{"repair", damaged}, code: 2, stderr: []string{"-o OUTPUT", "example"}},
		{name: "dump damaged", args: []string{"dump", damaged}, code: 1, stdout: []string{`"frame":"header"`}, stderr: []string{"skipped"}},
		{name: "import bad jsonl", args: []string{"import", notSession, "-o", filepath.Join(dir, "x.session")}, code: 2, stderr: []string{"import: line 1", notSession}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runBin(t, nil, tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if tt.noStdout && r.stdout != "" {
				t.Errorf("unexpected stdout %q", r.stdout)
			}
		})
	}
}

func TestDumpImportRoundTrip(t *testing.T) {
	p, _ := makeSession(t)
	orig, _ := os.ReadFile(p)
	d := runBin(t, nil, "dump", p)
	if d.code != 0 {
		t.Fatalf("dump: %d %s", d.code, d.stderr)
	}
	jsonl := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(jsonl, []byte(d.stdout), 0o600)
	for _, src := range []string{jsonl, "-"} {
		out := filepath.Join(t.TempDir(), "again.session")
		r := runBin(t, []byte(d.stdout), "import", src, "-o", out)
		if r.code != 0 {
			t.Fatalf("import %s: %d %s", src, r.code, r.stderr)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, orig) {
			t.Fatalf("import(dump(f)) from %s differs from f", src)
		}
		if r := runBin(t, []byte(d.stdout), "import", src, "-o", out); r.code != 2 || !strings.Contains(r.stderr, "already exists") {
			t.Fatalf("import over an existing file: %d %s", r.code, r.stderr)
		}
	}
}

func TestRepair(t *testing.T) {
	p, unknownAt := makeSession(t)
	orig, _ := os.ReadFile(p)
	d := bytes.Clone(orig)
	d[unknownAt+8] ^= 0x20
	d = append(d, 0x10, 0, 0)
	damaged := filepath.Join(t.TempDir(), "damaged.session")
	os.WriteFile(damaged, d, 0o600)
	out := filepath.Join(t.TempDir(), "fixed.session")
	r := runBin(t, nil, "repair", damaged, "-o", out)
	if r.code != 1 || !strings.Contains(r.stdout, "wrote 12 entries to "+out) || !strings.Contains(r.stdout, "skipped") {
		t.Fatalf("repair: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if v := runBin(t, nil, "verify", out); v.code != 0 {
		t.Fatalf("verify repaired: %d %s", v.code, v.stdout)
	}
	fixed, _ := os.ReadFile(out)
	want := append(bytes.Clone(orig[:unknownAt]), orig[unknownAt+int64(len(rawFrame(0x42, 0, []byte("from the future")))):]...)
	if !bytes.Equal(fixed, want) {
		t.Fatal("repaired file is not the original minus the damaged frame")
	}
	// Flags may follow the input too.
	out2 := filepath.Join(t.TempDir(), "fixed2.session")
	if r := runBin(t, nil, "repair", "-o", out2, damaged); r.code != 1 {
		t.Fatalf("repair -o first: %d %s", r.code, r.stderr)
	}
}
