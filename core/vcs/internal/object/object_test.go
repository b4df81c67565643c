package object

import (
	"bytes"
	"compress/zlib"
	"strings"
	"testing"
	"time"
)

func TestHashKnownIDs(t *testing.T) {
	tests := []struct {
		name string
		typ  Type
		body string
		want string // from git hash-object / git mktree
	}{
		{name: "empty-blob", typ: TypeBlob, body: "", want: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		{name: "hello-blob", typ: TypeBlob, body: "hello\n", want: "ce013625030ba8dba906f756967f9e9ca394464a"},
		{name: "empty-tree", typ: TypeTree, body: "", want: "4b825dc642cb6eb9a060e54bf8d69288fbee4904"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Hash(tt.typ, []byte(tt.body)).String(); got != tt.want {
				t.Fatalf("Hash = %s; want %s", got, tt.want)
			}
		})
	}
}

func TestTreeRoundTrip(t *testing.T) {
	id := Hash(TypeBlob, []byte("x"))
	in := []TreeEntry{
		{Mode: ModeFile, Name: "a.txt", ID: id},
		{Mode: ModeTree, Name: "a", ID: id},
		{Mode: ModeFile, Name: "a-b", ID: id},
		{Mode: ModeExec, Name: "run", ID: id},
		{Mode: ModeSymlink, Name: "link", ID: id},
	}
	b, err := EncodeTree(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ParseTree(b)
	if err != nil {
		t.Fatal(err)
	}
	// git order: "a-b" < "a.txt" < "a/" ('-' 0x2d < '.' 0x2e < '/' 0x2f).
	var names []string
	for _, e := range out {
		names = append(names, e.Name)
	}
	if got, want := strings.Join(names, ","), "a-b,a.txt,a,link,run"; got != want {
		t.Fatalf("order = %s; want %s", got, want)
	}
}

func TestEncodeTreeRejects(t *testing.T) {
	id := Hash(TypeBlob, nil)
	tests := []struct {
		name    string
		entries []TreeEntry
		want    string
	}{
		{name: "dotgit", entries: []TreeEntry{{Mode: ModeFile, Name: ".GIT", ID: id}}, want: "reserved"},
		{name: "dotdot", entries: []TreeEntry{{Mode: ModeFile, Name: "..", ID: id}}, want: "not allowed"},
		{name: "slash", entries: []TreeEntry{{Mode: ModeFile, Name: "a/b", ID: id}}, want: "contains"},
		{name: "mode", entries: []TreeEntry{{Mode: 0o100664, Name: "a", ID: id}}, want: "mode 100664"},
		{name: "duplicate", entries: []TreeEntry{{Mode: ModeFile, Name: "a", ID: id}, {Mode: ModeExec, Name: "a", ID: id}}, want: "twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := EncodeTree(tt.entries); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("EncodeTree = %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestParseTreeRejects(t *testing.T) {
	id := string(make([]byte, 20))
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "zero-padded", in: "040000 a\x00" + id, want: "zero-padded"},
		{name: "truncated", in: "100644 a\x00" + id[:5], want: "truncated"},
		{name: "unsorted", in: "100644 b\x00" + id + "100644 a\x00" + id, want: "order"},
		{name: "no-nul", in: "100644 a", want: "no NUL"},
		{name: "gitlink", in: "160000 a\x00" + id, want: "not a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseTree([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseTree = %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestCommitRoundTrip(t *testing.T) {
	c := Commit{
		Tree:    Hash(TypeTree, nil),
		Parents: []ID{Hash(TypeBlob, []byte("p"))},
		Name:    "Smith", Email: "smith@localhost",
		Time:    time.Unix(1700000000, 0).In(time.FixedZone("", -(5*3600 + 30*60))),
		Message: "snapshot\n\nSession: s\n",
	}
	b, err := EncodeCommit(c)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("> 1700000000 -0530\n")) {
		t.Fatalf("commit %q lacks the time and zone", b)
	}
	got, err := ParseCommit(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tree != c.Tree || len(got.Parents) != 1 || got.Parents[0] != c.Parents[0] || got.Message != c.Message ||
		!got.Time.Equal(c.Time) || got.Name != c.Name || got.Email != c.Email {
		t.Fatalf("ParseCommit = %+v; want %+v", got, c)
	}
}

func TestDirWriteRead(t *testing.T) {
	d := Dir{Path: t.TempDir(), Max: 1 << 20}
	id, fresh, err := d.Write(TypeBlob, []byte("hello\n"))
	if err != nil || !fresh {
		t.Fatalf("Write = %v, %v", fresh, err)
	}
	if _, fresh, _ := d.Write(TypeBlob, []byte("hello\n")); fresh {
		t.Fatal("second Write reported a new object")
	}
	typ, b, err := d.Read(id)
	if err != nil || typ != TypeBlob || string(b) != "hello\n" {
		t.Fatalf("Read = %s, %q, %v", typ, b, err)
	}
	if _, _, err := d.Read(Hash(TypeBlob, []byte("other"))); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("Read of a missing object = %v", err)
	}
}

func TestParseHeaderRejects(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "type", in: "tag 0\x00", want: "not blob"},
		{name: "size-mismatch", in: "blob 3\x00ab", want: "declares 3"},
		{name: "leading-zero", in: "blob 03\x00abc", want: "not a decimal"},
		{name: "too-big", in: "blob 99\x00", want: "exceeds"},
		{name: "no-nul", in: "blob 3", want: "not terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := ParseHeader([]byte(tt.in), 10); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseHeader = %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func FuzzParseTree(f *testing.F) {
	id := Hash(TypeBlob, nil)
	good, _ := EncodeTree([]TreeEntry{{Mode: ModeFile, Name: "a", ID: id}, {Mode: ModeTree, Name: "b", ID: id}, {Mode: ModeSymlink, Name: "c", ID: id}})
	f.Add(good)
	f.Add([]byte("40000 x\x00"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := ParseTree(b)
		if err != nil {
			return
		}
		again, err := EncodeTree(entries)
		if err != nil {
			t.Fatalf("EncodeTree of a parsed tree: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("tree does not round-trip:\n%q\n%q", b, again)
		}
	})
}

func FuzzParseCommit(f *testing.F) {
	good, _ := EncodeCommit(Commit{Tree: Hash(TypeTree, nil), Name: "n", Email: "e", Time: time.Unix(5, 0).UTC(), Message: "m\n"})
	f.Add(good)
	f.Add([]byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ncommitter a <b> 1 +0000\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseCommit(b)
		if err != nil {
			return
		}
		if _, err := EncodeCommit(c); err != nil && c.Name != "" && !strings.ContainsAny(c.Name+c.Email+c.Message, "<>\n\x00") {
			t.Fatalf("EncodeCommit of a parsed commit: %v", err)
		}
	})
}

func FuzzInflate(f *testing.F) {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write([]byte("blob 5\x00hello"))
	zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("x\x9c"))
	f.Fuzz(func(t *testing.T, b []byte) {
		typ, body, err := Inflate(bytes.NewReader(b), 1<<16)
		if err != nil {
			return
		}
		if typ == "" || len(body) > 1<<16 {
			t.Fatalf("Inflate = %q, %d bytes", typ, len(body))
		}
	})
}
