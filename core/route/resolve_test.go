package route

import (
	"slices"
	"strings"
	"testing"
)

type fakeCatalog map[string][]string

func (c fakeCatalog) Refs(name string) []string { return c[name] }

func TestResolve(t *testing.T) {
	cat := fakeCatalog{"m": {"acme/m"}, "shared": {"zeta/shared", "acme/shared", "beta/shared"}, "sonnet": {"acme/sonnet-4"}}
	cfg := Config{
		Aliases: map[string]string{"a": "b", "b": "acme/m", "sonnet": "beta/sonnet-x", "loop1": "loop2", "loop2": "loop3", "loop3": "loop1",
			"both": "acme/m", "viagroup": "g-cycle"},
		Groups: map[string][]string{"g": {"a", "beta/x", "acme/m", "m"}, "both": {"acme/m"}, "empty": {},
			"g-cycle": {"beta/x", "h"}, "h": {"g-cycle"}},
		Accounts: map[string][]string{"multi": {"work", "home"}},
	}
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string
	}{
		{name: "explicit", in: "acme/m", want: []string{"acme/m"}},
		{name: "model id containing a slash", in: "gateway/vendor/model", want: []string{"gateway/vendor/model"}},
		{name: "account buckets expand in order", in: "multi/m", want: []string{"multi@work/m", "multi@home/m"}},
		{name: "explicit account", in: "multi@home/m", want: []string{"multi@home/m"}},
		{name: "unknown account", in: "multi@play/m", wantErr: `names account "play", but provider "multi" has accounts work, home`},
		{name: "alias chain", in: "a", want: []string{"acme/m"}},
		{name: "group in order without duplicates", in: "g", want: []string{"acme/m", "beta/x"}},
		{name: "bare catalog name", in: "m", want: []string{"acme/m"}},
		{name: "configuration beats catalog", in: "sonnet", want: []string{"beta/sonnet-x"}},
		{name: "ambiguous catalog name", in: "shared", wantErr: `model name "shared" is ambiguous: served by acme/shared, beta/shared, zeta/shared`},
		{name: "alias and group", in: "both", wantErr: `"both" is ambiguous: it is both alias → acme/m and group [acme/m]`},
		{name: "alias cycle", in: "loop2", wantErr: "cycle in aliases and groups: loop2 → loop3 → loop1 → loop2"},
		{name: "group cycle", in: "viagroup", wantErr: "cycle in aliases and groups: g-cycle → h → g-cycle"},
		{name: "empty group", in: "empty", wantErr: `group "empty" is empty`},
		{name: "unknown", in: "nope", wantErr: `no alias, group or model named "nope"`},
		{name: "malformed", in: "acme/", wantErr: `"acme/" is not provider/model`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // map order must not matter
				got, err := Resolve(cfg, cat, tt.in)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %v, want %q", err, tt.wantErr)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				var s []string
				for _, g := range got {
					s = append(s, g.String())
				}
				if !slices.Equal(s, tt.want) {
					t.Fatalf("got %v, want %v", s, tt.want)
				}
			}
		})
	}
}

func TestResolveBoundsExpansion(t *testing.T) {
	cfg := Config{Groups: map[string][]string{}}
	var big []string
	for i := range 300 {
		big = append(big, "p/m"+strings.Repeat("x", i))
	}
	cfg.Groups["big"] = big
	if _, err := Resolve(cfg, nil, "big"); err == nil || !strings.Contains(err.Error(), "more than 256 targets") {
		t.Fatalf("unbounded expansion: %v", err)
	}
}

func BenchmarkResolve(b *testing.B) {
	cfg := Config{Aliases: map[string]string{"fast": "team"}, Groups: map[string][]string{"team": {"acme/big", "m", "other/small"}},
		Accounts: map[string][]string{"acme": {"work", "personal"}}}
	cat := fakeCatalog{"m": {"acme/m"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(cfg, cat, "fast"); err != nil {
			b.Fatal(err)
		}
	}
}
