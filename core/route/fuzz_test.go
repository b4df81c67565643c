package route

import (
	"slices"
	"testing"
)

// FuzzResolve resolves arbitrary names against a configuration with
// cycles and ambiguity: it never panics, is deterministic, and every target
// it returns is complete and unique.
func FuzzResolve(f *testing.F) {
	cfg := Config{
		Aliases:  map[string]string{"a": "b", "b": "g", "c": "c", "d": "multi/m"},
		Groups:   map[string][]string{"g": {"a", "p/x", "m"}, "h": {"d", "p@x/y", "shared"}},
		Accounts: map[string][]string{"multi": {"one", "two"}},
	}
	cat := fakeCatalog{"m": {"p/m"}, "shared": {"p/shared", "q/shared"}}
	for _, s := range []string{"a", "g", "h", "c", "d", "p/m", "p@a/m", "/", "@/", "m", "shared"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := Resolve(cfg, cat, name)
		again, err2 := Resolve(cfg, cat, name)
		if (err == nil) != (err2 == nil) || !slices.Equal(got, again) {
			t.Fatalf("not deterministic: %v %v / %v %v", got, err, again, err2)
		}
		if err != nil {
			return
		}
		for i, tg := range got {
			if tg.Provider == "" || tg.Model == "" || slices.Contains(got[:i], tg) {
				t.Fatalf("bad target %+v in %v", tg, got)
			}
		}
	})
}
