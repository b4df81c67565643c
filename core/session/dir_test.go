package session

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

func texts(t *testing.T, sess *sessionfmt.Session) string {
	t.Helper()
	msgs, err := Messages(sess)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.(model.UserMessage).Content[0].(model.Text).Text)
	}
	return strings.Join(out, " ")
}

func record(t *testing.T, st *Store, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if err := st.Record(context.Background(), model.UserText(s)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDirCreateListFind(t *testing.T) {
	d, err := OpenDir(t.TempDir() + "/sessions")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Latest(); !errors.Is(err, ErrNoSessions) {
		t.Fatalf("latest of empty dir: %v", err)
	}
	f1, a, err := d.Create("fix-login")
	if err != nil {
		t.Fatal(err)
	}
	f1.Close()
	f2, b, err := d.Create("")
	if err != nil {
		t.Fatal(err)
	}
	f2.Close()
	all, err := d.List()
	if err != nil || len(all) != 2 || all[0].ID != a.ID || all[0].Name != "fix-login" || all[1].ID != b.ID || all[1].Name != "" {
		t.Fatalf("list = %+v, %v", all, err)
	}
	if err := os.WriteFile(d.path+"/notes.txt", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, ref, want, err string
	}{
		{"by name", "fix-login", a.ID, ""},
		{"by id", b.ID, b.ID, ""},
		{"by lower-case prefix", strings.ToLower(b.ID[:20]), b.ID, ""},
		{"ambiguous prefix", a.ID[:4], "", "matches 2 sessions"},
		{"too short", a.ID[:3], "", "no session is named"},
		{"unknown", "nope", "", `no session is named "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := d.Find(tt.ref)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v; want %q", err, tt.err)
				}
				return
			}
			if err != nil || in.ID != tt.want {
				t.Fatalf("find = %+v, %v", in, err)
			}
		})
	}
	for _, bad := range []string{"a--b", "-x", "has space", strings.Repeat("x", 65), strings.ToLower(a.ID)} {
		if _, _, err := d.Create(bad); err == nil || !strings.Contains(err.Error(), "session: name") {
			t.Fatalf("name %q: err = %v", bad, err)
		}
	}
	if _, _, err := d.Create("fix-login"); err == nil || !strings.Contains(err.Error(), "is taken by session "+a.ID) {
		t.Fatalf("duplicate name: %v", err)
	}
}

// TestContinueLatest: the latest session is the last one written to.
func TestContinueLatest(t *testing.T) {
	d, _ := OpenDir(t.TempDir())
	f1, a, _ := d.Create("first")
	f1.Close()
	f2, b, _ := d.Create("second")
	f2.Close()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(b.Path, old, old); err != nil {
		t.Fatal(err)
	}
	latest, err := d.Latest()
	if err != nil || latest.ID != a.ID {
		t.Fatalf("latest = %+v, %v; want %s", latest, err, a.ID)
	}
}

// TestForkAndBranches: forking copies the history up to an entry into a new
// session; selecting an earlier entry and continuing makes a branch while
// every earlier entry stays, and the selection survives reopening.
func TestForkAndBranches(t *testing.T) {
	d, _ := OpenDir(t.TempDir())
	f, info, err := d.Create("main")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := New(f)
	record(t, st, "one", "two", "three")
	second := f.Session().ID(1)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	nf, forked, err := d.Fork(info, second, "alt")
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(t, nf.Session()); got != "one two" {
		t.Fatalf("fork = %q", got)
	}
	nf.Close()
	if found, err := d.Find("alt"); err != nil || found.ID != forked.ID {
		t.Fatalf("find fork = %+v, %v", found, err)
	}
	if _, _, err := d.Fork(info, sessionfmt.NewID(), ""); err == nil || !strings.Contains(err.Error(), "no such entry") {
		t.Fatalf("fork at unknown entry: %v", err)
	}

	f, err = sessionfmt.Open(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(t, f.Session()); got != "one two three" {
		t.Fatalf("original after fork = %q", got)
	}
	oldLeaf := f.Session().ID(f.Session().Selected())
	if err := f.Select(f.Session().ID(0), sessionfmt.Durable); err != nil {
		t.Fatal(err)
	}
	st, _ = New(f)
	record(t, st, "two-b")
	if got := texts(t, f.Session()); got != "one two-b" {
		t.Fatalf("new branch = %q", got)
	}
	if n := len(f.Session().Leaves(nil)); n != 2 {
		t.Fatalf("leaves = %d", n)
	}
	if err := f.Select(oldLeaf, sessionfmt.Durable); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sess, _, err := sessionfmt.Load(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(t, sess); got != "one two three" {
		t.Fatalf("reopened selection = %q", got)
	}
	if n := sess.Len(); n != 4 {
		t.Fatalf("entries = %d; history must keep all four", n)
	}
}
