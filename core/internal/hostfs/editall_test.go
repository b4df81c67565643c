package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func TestEditAllIsAllOrNothing(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj)
	ctx := context.Background()
	res, err := h.EditAll(ctx, proj, "a.txt", []TextEdit{{Old: "three", New: "3"}, {Old: "one", New: "1"}}, 0)
	if err != nil || res.Line != 1 || res.After != "1\ntwo\n3\n" || res.Before != "one\ntwo\nthree\n" {
		t.Fatalf("edit = %+v, %v", res, err)
	}
	tests := []struct {
		name  string
		edits []TextEdit
		max   int
		fault Fault
		want  string
	}{
		{"second edit missing", []TextEdit{{"two", "2"}, {"four", "4"}}, 0, FaultConflict, "edit 2: the text to replace was not found"},
		{"overlap", []TextEdit{{"1\ntwo", "x"}, {"two\n3", "y"}}, 0, FaultConflict, "edits 1 and 2 overlap"},
		{"too large", []TextEdit{{"two", "twenty-two"}}, 8, FaultTooLarge, "over the 8-byte bound"},
		{"none", nil, 0, FaultOther, "no edits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.EditAll(ctx, proj, "a.txt", tt.edits, tt.max)
			wantErr(t, err, model.MutationNotApplied, tt.want)
			var e *Error
			errors.As(err, &e)
			if e.Fault() != tt.fault {
				t.Fatalf("fault = %d; want %d", e.Fault(), tt.fault)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "a.txt")); string(b) != "1\ntwo\n3\n" {
		t.Fatalf("a failed edit changed the file: %q", b)
	}
}

func TestFaults(t *testing.T) {
	proj, _ := project(t)
	if err := os.WriteFile(filepath.Join(proj, "bin"), []byte{0, 1}, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newFS(t, proj)
	ctx := context.Background()
	tests := []struct {
		name  string
		do    func() error
		fault Fault
	}{
		{"not found", func() error { _, err := h.Read(ctx, proj, "nope", ReadOptions{}); return err }, FaultNotFound},
		{"outside", func() error { _, err := h.Read(ctx, proj, "../x", ReadOptions{}); return err }, FaultDenied},
		{"binary", func() error { _, err := h.Read(ctx, proj, "bin", ReadOptions{}); return err }, FaultNotText},
		{"missing parent", func() error { _, err := h.WriteFile(ctx, proj, "no/dir/f", []byte("x"), false); return err }, FaultNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *Error
			if err := tt.do(); !errors.As(err, &e) || e.Fault() != tt.fault {
				t.Fatalf("err = %v; want fault %d", err, tt.fault)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(proj, "no")); !os.IsNotExist(err) {
		t.Fatal("WriteFile without createParents created a directory")
	}
}

func TestFindIncludeIgnored(t *testing.T) {
	h, root := searchFS(t)
	res, err := h.Find(context.Background(), root, "", "*.log", FindOptions{IncludeIgnored: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"debug.log", "keep.log", "src/app.log"}
	if !reflect.DeepEqual(res.Paths, want) {
		t.Fatalf("find = %v; want %v", res.Paths, want)
	}
}
