package hostops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// memContents is a ContentStore in memory; fail makes Keep fail.
type memContents struct {
	mu   sync.Mutex
	byID map[string]string
	fail bool
}

func (m *memContents) Tree(ctx context.Context) (string, error) {
	if m.fail {
		return "", errors.New("store full")
	}
	return m.Keep([]byte("tree"))
}

func (m *memContents) Keep(b []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return "", errors.New("store full")
	}
	if m.byID == nil {
		m.byID = map[string]string{}
	}
	id := fmt.Sprintf("c%d", len(m.byID))
	m.byID[id] = string(b)
	return id, nil
}

// TestKeptContents: an applied write or edit names, in its completion
// output, the content it replaced (none for a new file) and the one it
// left; a failed edit, a store failure or no store keeps nothing and
// changes nothing else.
func TestKeptContents(t *testing.T) {
	ctx := context.Background()
	f := setup(t, nil)
	mem := &memContents{}
	f.ops.Contents = mem
	kept := func(i int) *KeptContent {
		t.Helper()
		_, cs := f.records(t)
		var out struct {
			RealPath string       `json:"real_path"`
			Kept     *KeptContent `json:"kept"`
		}
		if err := json.Unmarshal(cs[i].Output, &out); err != nil && len(cs[i].Output) > 0 {
			t.Fatal(err)
		}
		if out.Kept != nil && !strings.HasPrefix(string(cs[i].Output), `{"real_path":`) {
			t.Errorf("the output no longer leads with real_path: %s", cs[i].Output)
		}
		return out.Kept
	}
	if _, _, err := f.ops.Write(ctx, f.inv, "new.txt", "fresh\n"); err != nil {
		t.Fatal(err)
	}
	if k := kept(0); k == nil || k.Before != "" || mem.byID[k.After] != "fresh\n" {
		t.Fatalf("write of a new file kept %+v (%v)", k, mem.byID)
	}
	if _, _, err := f.ops.Edit(ctx, f.inv, "a.txt", "beta", "BETA"); err != nil {
		t.Fatal(err)
	}
	if k := kept(1); k == nil || mem.byID[k.Before] != "alpha\nbeta\n" || mem.byID[k.After] != "alpha\nBETA\n" {
		t.Fatalf("edit kept %+v (%v)", k, mem.byID)
	}
	if _, _, err := f.ops.Edit(ctx, f.inv, "a.txt", "missing", "x"); err == nil {
		t.Fatal("an edit of missing text succeeded")
	}
	if k := kept(2); k != nil {
		t.Fatalf("a failed edit kept %+v", k)
	}
	mem.fail = true
	if _, _, err := f.ops.Write(ctx, f.inv, "a.txt", "over\n"); err != nil {
		t.Fatalf("a write failed with its content store: %v", err)
	}
	if k := kept(3); k != nil {
		t.Fatalf("a store failure kept %+v", k)
	}
	f.ops.Contents = nil
	if _, _, err := f.ops.Write(ctx, f.inv, "a.txt", "again\n"); err != nil {
		t.Fatal(err)
	}
	if k := kept(4); k != nil {
		t.Fatalf("no store kept %+v", k)
	}
}
