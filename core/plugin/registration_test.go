package plugin

import "testing"

// TestRegistrationKeyConfiguration: a registration is cached per
// configuration, and an artifact without one ("" or "{}") keeps the key a
// registration computed ahead for it holds.
func TestRegistrationKeyConfiguration(t *testing.T) {
	base := Artifact{Name: "p", SHA256: "00ff", Grants: []string{"fs", "log"}}
	with := func(conf string) Artifact { a := base; a.Configuration = conf; return a }
	tests := []struct {
		name string
		a, b Artifact
		same bool
	}{
		{name: "empty is none", a: base, b: with("{}"), same: true},
		{name: "grant order", a: base, b: Artifact{Name: "p", SHA256: "00ff", Grants: []string{"log", "fs"}}, same: true},
		{name: "configuration", a: base, b: with(`{"permissions":{"mode":"ask"}}`)},
		{name: "two configurations", a: with(`{"permissions":{"mode":"ask"}}`), b: with(`{"permissions":{"mode":"read-only"}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := registrationKey(tt.a) == registrationKey(tt.b); got != tt.same {
				t.Errorf("same key %v, want %v", got, tt.same)
			}
		})
	}
}
