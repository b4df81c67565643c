package index

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	in := Index{
		Worktree: "/w",
		Entries: []Entry{
			{Path: "b/c", Mode: 0o100755, Size: 3, MTime: 5, CTime: 6, Ino: 7, ID: [20]byte{1}, Racy: true},
			{Path: "a", Mode: 0o120000, Size: 1, MTime: -1, ID: [20]byte{2}},
		},
		Trees: []Tree{{Dir: "b/", ID: [20]byte{3}}, {Dir: "", ID: [20]byte{4}}},
	}
	b, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Worktree != "/w" || len(out.Entries) != 2 || out.Entries[0].Path != "a" || out.Entries[1] != in.Entries[1] {
		t.Fatalf("Parse = %+v", out)
	}
	if !slices.Equal(out.Trees, []Tree{{Dir: "", ID: [20]byte{4}}, {Dir: "b/", ID: [20]byte{3}}}) {
		t.Fatalf("Parse trees = %+v", out.Trees)
	}
}

func TestParseRejects(t *testing.T) {
	good, _ := Encode(Index{Worktree: "/w", Entries: []Entry{{Path: "a"}}})
	flip := bytes.Clone(good)
	flip[len(flip)-1] ^= 1
	two, _ := Encode(Index{Worktree: "/w", Entries: []Entry{{Path: "a"}, {Path: "b"}}, Trees: []Tree{{}}})
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{name: "short", in: []byte("SMITH"), want: "shorter"},
		{name: "checksum", in: flip, want: "checksum"},
		{name: "empty", in: nil, want: "shorter"},
		{name: "good-is-accepted", in: two, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %v; want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Encode(Index{Worktree: "/w", Entries: []Entry{{Path: "a"}, {Path: "a"}}}); err == nil {
		t.Fatal("Encode accepted a repeated path")
	}
	if _, err := Encode(Index{Worktree: "/w", Trees: []Tree{{Dir: "a"}}}); err == nil {
		t.Fatal("Encode accepted a tree dir without a trailing slash")
	}
}

func FuzzParse(f *testing.F) {
	good, _ := Encode(Index{Worktree: "/work", Entries: []Entry{{Path: "a", Mode: 0o100644, Size: 1}, {Path: "d/e", ID: [20]byte{9}, Racy: true}},
		Trees: []Tree{{ID: [20]byte{1}}, {Dir: "d/", ID: [20]byte{2}}}})
	f.Add(good)
	empty, _ := Encode(Index{})
	f.Add(empty)
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := Parse(b)
		if err != nil {
			return
		}
		again, err := Encode(ix)
		if err != nil {
			t.Fatalf("Encode of a parsed index: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatal("index does not round-trip")
		}
	})
}
