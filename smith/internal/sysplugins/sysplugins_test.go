package sysplugins

import (
	"strings"
	"testing"
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
	p := toolsPin(t)
	with := func(data []byte) pin { q := p; q.data = data; return q }
	tests := []struct {
		name  string
		pin   pin
		names []string
		want  string
	}{
		{name: "appended", pin: with(append(append([]byte(nil), p.data...), 0)), want: "tampered with"},
		{name: "missing", pin: with(nil), want: "embedded tools.wasm is empty"},
		{name: "unknown-name", pin: p, names: []string{"nope"}, want: `no embedded plugin "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load([]pin{tt.pin}, instrumented, tt.names)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("load = %v; want an error containing %q", err, tt.want)
			}
		})
	}
	arts, err := load([]pin{p}, instrumented, nil)
	if err != nil {
		t.Fatalf("load of the untampered artifact: %v", err)
	}
	if &arts[0].Wasm[0] != &toolsWasm[0] || arts[0].Instrumented != instrumented {
		t.Errorf("load copied the embedded bytes or dropped the instrumentation version %q", instrumented)
	}
}

// toolsPin is the tools plugin's pin.
func toolsPin(tb testing.TB) pin {
	tb.Helper()
	for _, q := range pins {
		if q.name == "tools" {
			return q
		}
	}
	tb.Fatal("no tools pin")
	return pin{}
}
