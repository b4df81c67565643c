package plugin

import (
	"context"
	"strings"
	"testing"
)

// TestChildInherits: a child's call state takes its depth, its narrowed
// authority and its caller's read-only scope from the context the
// compose host gave it; a top-level call's takes nothing.
func TestChildInherits(t *testing.T) {
	top := &callState{callID: "c1"}
	top.inherit(context.Background())
	if top.depth != 0 || top.allowed != nil || top.readOnly || top.permits("process") != "" {
		t.Fatalf("a top-level call inherited %+v", top)
	}
	ctx := context.WithValue(context.Background(), childKey{}, child{depth: 2, allowed: map[string]bool{"fs": true}, readOnly: true})
	st := &callState{callID: "c1/child"}
	st.inherit(ctx)
	if st.depth != 2 || !st.readOnly || st.permits("fs") != "" {
		t.Fatalf("a child inherited %+v", st)
	}
	if why := st.permits("process"); !strings.Contains(why, `may not use "process"`) {
		t.Fatalf("permits(process) = %q", why)
	}
}
