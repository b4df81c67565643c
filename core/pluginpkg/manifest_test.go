package pluginpkg_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/pluginpkg"
)

func TestParseManifest(t *testing.T) {
	m, err := pluginpkg.ParseManifest("plugin.kdl", []byte(shoutManifest+`capability "process"
capability "fs"
capability "http" {
    allow "https://api.example.com/" "http://127.0.0.1:8080/v1"
    secret "GITHUB_TOKEN" "api.key"
}
timeout "10s"
memory "64MiB"
`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "shout" || m.Version != "0.1.0" || m.World != "0.0.0" || m.Artifact != "shout.wasm" || m.Timeout != 10*time.Second || m.Memory != 64<<20 ||
		strings.Join(m.Capabilities, ",") != "fs,http,process" || strings.Join(m.Network, ",") != "https://api.example.com/,http://127.0.0.1:8080/v1" ||
		strings.Join(m.Secrets, ",") != "GITHUB_TOKEN,api.key" {
		t.Fatalf("got %+v", m)
	}
	back, err := pluginpkg.ParseManifest("again", pluginpkg.FormatManifest(m))
	if err != nil || back.Name != m.Name || back.Timeout != m.Timeout || back.Memory != m.Memory || len(back.Network) != 2 || len(back.Secrets) != 2 {
		t.Fatalf("FormatManifest does not round-trip: %+v %v", back, err)
	}
}

func TestParseManifestErrors(t *testing.T) {
	base := map[string]string{"name": `name "shout"`, "version": `version "0.1.0"`, "world": `world "0.0.0"`, "artifact": `artifact "shout.wasm"`}
	// with replaces (or, with "", removes) one field of a valid manifest
	// and appends extra lines.
	with := func(field, line string, extra ...string) string {
		var lines []string
		for _, f := range []string{"name", "version", "world", "artifact"} {
			if f == field {
				if line != "" {
					lines = append(lines, line)
				}
				continue
			}
			lines = append(lines, base[f])
		}
		return strings.Join(append(lines, extra...), "\n") + "\n"
	}
	tests := []struct {
		name, src string
		// want are substrings of the error: position, field, fix.
		want []string
	}{
		{"syntax", with("", "", `name "unterminated`), []string{"plugin.kdl:5:", "not valid KDL 2", `such as name "shout"`}},
		{"missing name", with("name", ""), []string{"plugin.kdl:1:1: name is missing", `add name "shout"`}},
		{"missing world", with("world", ""), []string{"world is missing", `add world "0.0.0"`}},
		{"missing artifact", with("artifact", ""), []string{"artifact is missing"}},
		{"missing version", with("version", ""), []string{"version is missing"}},
		{"name upper", with("name", `name "Shout"`), []string{"plugin.kdl:1:6: name \"Shout\" does not start with a lowercase letter", "lowercase letters"}},
		{"name chars", with("name", `name "sh_out"`), []string{`holds "_"`}},
		{"name trailing dash", with("name", `name "shout-"`), []string{"ends with '-'"}},
		{"name too long", with("name", `name "`+strings.Repeat("a", 65)+`"`), []string{"1 to 64 characters"}},
		{"name smith", with("name", `name "smith"`), []string{"reserved for the plugins embedded in Smith", "choose another name"}},
		{"name smith-", with("name", `name "smith-tools"`), []string{"reserved"}},
		{"name smith:", with("name", `name "smith:tools"`), []string{"reserved"}},
		{"name twice", with("", "", `name "again"`), []string{"plugin.kdl:5:1: name is set twice (first at line 1); keep one"}},
		{"name not string", with("name", `name 3`), []string{"name 3 is not a string", `write it as name "shout"`}},
		{"name two values", with("name", `name "a" "b"`), []string{"needs one value, got 2"}},
		{"name property", with("name", `name "a" x=1`), []string{"x= is a property"}},
		{"name block", with("name", `name "a" { b }`), []string{"takes no { } block"}},
		{"name annotation", with("name", `(t)name "a"`), []string{"type annotation", "remove it"}},
		{"version", with("version", `version "1.0"`), []string{`version "1.0" is not a version MAJOR.MINOR.PATCH`, `such as version "0.1.0"`}},
		{"version leading zero", with("version", `version "01.0.0"`), []string{"is not a version"}},
		{"version pre", with("version", `version "1.0.0-"`), []string{"is not a version"}},
		{"world", with("world", `world "1.0.0"`), []string{`world "1.0.0" is not the smith:plugin world this Smith serves (0.0.0)`, "rebuild the plugin against world 0.0.0"}},
		{"artifact absolute", with("artifact", `artifact "/etc/passwd"`), []string{"is an absolute path", "inside the package directory"}},
		{"artifact escape", with("artifact", `artifact "../x.wasm"`), []string{"leaves the package directory"}},
		{"artifact empty", with("artifact", `artifact ""`), []string{"is empty"}},
		{"capability unknown", with("", "", `capability "network"`), []string{`capability "network" is not a capability (compose, fs, http, log, process, secrets, state, ui, vcs)`, `write one of capability "fs"`}},
		{"capability twice", with("", "", `capability "fs"`, `capability "fs"`), []string{"requested twice (first at line 5)"}},
		{"capability no value", with("", "", `capability`), []string{"needs one string value"}},
		{"capability block", with("", "", `capability "fs" { allow "https://x/" }`), []string{"takes no { } block (only http and secrets have one)"}},
		{"http without allow", with("", "", `capability "http"`), []string{"allows no URL", "add { allow"}},
		{"http bad allow", with("", "", `capability "http" { allow "ftp://x/" }`), []string{`allow "ftp://x/" is not an http:// or https:// URL`}},
		{"http allow query", with("", "", `capability "http" { allow "https://x/?q=1" }`), []string{"no user, query or fragment"}},
		{"http other child", with("", "", `capability "http" { deny "https://x/" }`), []string{`capability "http" deny is not a field of the http capability`}},
		{"http empty allow", with("", "", `capability "http" { allow }`), []string{"needs at least one URL prefix"}},
		{"http bad secret", with("", "", `capability "http" { allow "https://x/"; secret "1st key" }`), []string{`secret "1st key" is not a secret name`, "smith secret add"}},
		{"http empty secret", with("", "", `capability "http" { allow "https://x/"; secret }`), []string{"secret needs at least one secret name"}},
		{"timeout bad", with("", "", `timeout "soon"`), []string{`timeout "soon" is not a duration`, `such as timeout "10s"`}},
		{"timeout zero", with("", "", `timeout "0s"`), []string{"is not positive"}},
		{"timeout raise", with("", "", `timeout "1h"`), []string{"may only tighten a budget", `use at most "30s"`}},
		{"memory bad", with("", "", `memory "64MB"`), []string{`memory "64MB" has no unit`, `such as memory "64MiB"`}},
		{"memory raise", with("", "", `memory "1GiB"`), []string{"may only tighten a budget", `use at most "256MiB"`}},
		{"memory pages", with("", "", `memory "100KiB"`), []string{"is not a whole number of 64 KiB pages from 1 MiB"}},
		{"unknown node", with("", "", `author "me"`), []string{"plugin.kdl:5:1: author is not a manifest field", "use only name, version, world, artifact, capability, timeout and memory"}},
		{"too big", strings.Repeat("#", pluginpkg.MaxManifest+1), []string{"more than the 65536 a manifest may have"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pluginpkg.ParseManifest("plugin.kdl", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error for\n%s", tt.src)
			}
			var errs pluginpkg.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error is %T, not Errors: %v", err, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(shoutManifest))
	f.Add([]byte(shoutManifest + `capability "http" { allow "https://a/"; }` + "\ntimeout \"1s\"\n"))
	f.Add([]byte(`name "x" { y; }`))
	f.Add([]byte("name \"\x00\""))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := pluginpkg.ParseManifest("fuzz.kdl", src)
		if err != nil {
			var errs pluginpkg.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error %T is not Errors: %v", err, err)
			}
			return
		}
		// A valid manifest names a valid plugin, a local artifact, and
		// formats back to the same manifest.
		if pluginpkg.ValidName(m.Name) != nil || m.Artifact == "" || strings.HasPrefix(m.Artifact, "/") || strings.HasPrefix(m.Artifact, "..") {
			t.Fatalf("accepted %+v", m)
		}
		back, err := pluginpkg.ParseManifest("back.kdl", pluginpkg.FormatManifest(m))
		if err != nil || back.Name != m.Name || back.Artifact != m.Artifact || back.Timeout != m.Timeout || len(back.Capabilities) != len(m.Capabilities) {
			t.Fatalf("%+v formats to a manifest that does not parse back: %+v %v", m, back, err)
		}
	})
}
