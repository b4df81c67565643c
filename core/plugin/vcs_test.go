package plugin

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/protocol"
)

// TestVCSFault: the runtime's refusals reach the guest as their fault
// cases, with the text a frontend would show; anything else is unknown.
func TestVCSFault(t *testing.T) {
	base := errors.New("runtime: nothing to undo in session s")
	tests := []struct {
		name string
		err  error
		want pluginabi.VCSFault
	}{
		{name: "busy", err: &VCSRefusal{Reason: VCSBusy, Err: base}, want: pluginabi.VCSFault{Case: pluginabi.VCSFaultBusy, Busy: base.Error()}},
		{name: "conflict", err: fmt.Errorf("wrapped: %w", &VCSRefusal{Reason: VCSConflict, Paths: []string{"a.txt"}, Err: base}),
			want: pluginabi.VCSFault{Case: pluginabi.VCSFaultConflict, Conflict: []string{"a.txt"}}},
		{name: "nothing", err: &VCSRefusal{Reason: VCSNothing, Err: base}, want: pluginabi.VCSFault{Case: pluginabi.VCSFaultNothing, Nothing: base.Error()}},
		{name: "target", err: &VCSRefusal{Reason: VCSTarget, Err: base}, want: pluginabi.VCSFault{Case: pluginabi.VCSFaultInvalidTarget, InvalidTarget: base.Error()}},
		{name: "other", err: base, want: pluginabi.VCSFault{Case: pluginabi.VCSFaultUnknown, Unknown: base.Error()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got pluginabi.VCSFault
			if !errors.As(vcsFault(tt.err), &got) || got.Case != tt.want.Case || got.Error() != tt.want.Error() {
				t.Errorf("vcsFault = %v; want %v", got, tt.want)
			}
		})
	}
	if !errors.Is(&VCSRefusal{Reason: VCSBusy, Err: base}, base) {
		t.Error("a refusal does not wrap its error")
	}
}

// TestFileChangesPatchBudget: the patches a diff hands a plugin stop at
// the budget; every path is still listed, and a left-out patch says so.
func TestFileChangesPatchBudget(t *testing.T) {
	big := strings.Repeat("+x\n", 400)
	cs := []protocol.FileChange{
		{Path: "a", Kind: "modified", Patch: big},
		{Path: "b", Kind: "type_changed", Patch: big},
		{Path: "c", Kind: "added", Patch: "+y\n"},
		{Path: "d", Kind: "renamed"},
	}
	got := fileChanges(cs, len(big)+10)
	if len(got) != 4 || got[0].Patch != big || !strings.Contains(got[1].Patch, "left out") || got[2].Patch != "+y\n" {
		t.Fatalf("fileChanges = %+v", got)
	}
	kinds := []pluginabi.ChangeKind{got[0].Kind, got[1].Kind, got[2].Kind, got[3].Kind}
	want := []pluginabi.ChangeKind{pluginabi.ChangeKindModified, pluginabi.ChangeKindTypeChanged, pluginabi.ChangeKindAdded, pluginabi.ChangeKindUnknown}
	for i := range kinds {
		if kinds[i] != want[i] {
			t.Errorf("kind of %s = %v; want %v", got[i].Path, kinds[i], want[i])
		}
	}
}
