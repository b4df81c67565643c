package sysplugins

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestArtifactsVerified(t *testing.T) {
	arts, err := Artifacts("tools")
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) != 1 || arts[0].Name != "tools" || len(arts[0].Wasm) == 0 || strings.Join(arts[0].Grants, ",") != "fs,process" {
		t.Fatalf("Artifacts(tools) = %+v", arts)
	}
	all, err := Artifacts()
	if err != nil || len(all) != len(pins) {
		t.Fatalf("Artifacts() = %d artifacts, %v; want %d", len(all), err, len(pins))
	}
}

func TestLoadRefuses(t *testing.T) {
	good, err := files.ReadFile("tools.wasm")
	if err != nil {
		t.Fatal(err)
	}
	var p pin
	for _, q := range pins {
		if q.name == "tools" {
			p = q
		}
	}
	tests := []struct {
		name  string
		fsys  fstest.MapFS
		names []string
		want  string
	}{
		{name: "appended", fsys: fstest.MapFS{"tools.wasm": {Data: append(append([]byte(nil), good...), 0)}}, want: "tampered with"},
		{name: "missing", fsys: fstest.MapFS{}, want: "embedded tools.wasm"},
		{name: "unknown-name", fsys: fstest.MapFS{"tools.wasm": {Data: good}}, names: []string{"nope"}, want: `no embedded plugin "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(tt.fsys, []pin{p}, tt.names)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("load = %v; want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := load(fstest.MapFS{"tools.wasm": {Data: good}}, []pin{p}, nil); err != nil {
		t.Fatalf("load of the untampered artifact: %v", err)
	}
}
