package pluginpkg

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/wasmhost"
)

// TestCheckSurface: an artifact's world names are sorted into deprecated
// (still loads), removed, another world version and unknown, each with
// its fix; the migration of a deprecated or removed item comes from the
// metadata; WASI and the artifact's own names are left alone.
func TestCheckSurface(t *testing.T) {
	w := wasmhost.WorldSpec{Package: "smith:plugin", Version: "0.3.1",
		Imports: []wasmhost.ImportSpec{{Module: "smith:plugin/vcs@0.3.1", Name: "take-checkpoint"}, {Module: "smith:plugin/vcs@0.3.1", Name: "list-turns"},
			{Module: "smith:plugin/ui@0.3.1", Name: "show-notification"}},
		Exports: []wasmhost.ExportSpec{{Name: "smith:plugin/tool@0.3.1#invoke-tool"}, {Name: "smith:plugin/contrib@0.3.1#declare-contributions"}}}
	deps := []Deprecation{
		{Removed: true, Item: "vcs.take-snapshot", Since: "0.2.0", Removal: "0.3.0", Replacement: "vcs.take-checkpoint", Steps: "Call take-checkpoint.", Before: "b", After: "a"},
		{Item: "vcs.list-turns", Since: "0.3.0", Removal: "0.4.0", Replacement: "vcs.take-checkpoint", Steps: "Read the checkpoints.", Before: "b", After: "a"},
		{Item: "ui", Since: "0.3.0", Removal: "0.4.0", Replacement: "vcs", Steps: "Stop notifying.", Before: "b", After: "a"},
	}
	imp := func(m, n string) wasmhost.ImportName { return wasmhost.ImportName{Module: m, Name: n} }
	tests := []struct {
		name string
		s    wasmhost.Surface
		want []string // kind item, in order
		fix  string   // a fix the findings must mention
	}{
		{name: "clean", s: wasmhost.Surface{Imports: []wasmhost.ImportName{imp("smith:plugin/vcs@0.3.1", "take-checkpoint"), imp("wasi_snapshot_preview1", "fd_write")},
			Exports: []string{"smith:plugin/tool@0.3.1#invoke-tool", "cabi_realloc", "acme:x/y@1.0.0#z"}}},
		{name: "deprecated", s: wasmhost.Surface{Imports: []wasmhost.ImportName{imp("smith:plugin/vcs@0.3.1", "list-turns")}},
			want: []string{"deprecated vcs.list-turns"}, fix: "use vcs.take-checkpoint: Read the checkpoints."},
		{name: "deprecated-interface-once", s: wasmhost.Surface{Imports: []wasmhost.ImportName{imp("smith:plugin/ui@0.3.1", "show-notification"), imp("smith:plugin/ui@0.3.1", "show-notification")}},
			want: []string{"deprecated ui"}},
		{name: "removed-from-an-older-build", s: wasmhost.Surface{Imports: []wasmhost.ImportName{imp("smith:plugin/vcs@0.2.4", "take-snapshot"), imp("smith:plugin/vcs@0.2.4", "take-checkpoint")}},
			want: []string{"removed vcs.take-snapshot", "version smith:plugin@0.2.4"}, fix: "rebuild it against the smith:plugin@0.3.1 WIT"},
		{name: "unknown", s: wasmhost.Surface{Imports: []wasmhost.ImportName{imp("smith:plugin/fs@0.3.1", "frobnicate")}, Exports: []string{"smith:plugin/tool@0.3.1#invoke-tools"}},
			want: []string{"unknown fs.frobnicate", "unknown tool.invoke-tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := checkSurface(tt.s, w, deps)
			var got, fixes []string
			for _, f := range fs {
				got = append(got, f.Kind.String()+" "+f.Item)
				fixes = append(fixes, f.Fix)
				if f.Use == "" || f.Text == "" || f.Fix == "" {
					t.Errorf("finding %+v lacks its use, text or fix", f)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Fatalf("findings = %v, want %v", got, tt.want)
			}
			if tt.fix != "" && !strings.Contains(strings.Join(fixes, "\n"), tt.fix) {
				t.Errorf("fixes %q lack %q", fixes, tt.fix)
			}
			if blocking := Blocking(fs); blocking != (len(tt.want) > 0 && !strings.HasPrefix(tt.want[0], "deprecated")) {
				t.Errorf("Blocking = %v", blocking)
			}
		})
	}
	if fs := CheckSurface(wasmhost.Surface{Imports: []wasmhost.ImportName{imp("smith:plugin/vcs@"+w.Version, "list-turns")}}); len(fs) != 1 || fs[0].Kind != FindingVersion {
		t.Errorf("against this Smith's world, an artifact of another version: %+v", fs)
	}
}
