package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	envKey  = "sk-env-LEAKCHECK-1a2b3c4d"
	fileKey = "sk-file-LEAKCHECK-5e6f7a8b"
)

// runWith runs smith with extra environment variables.
func (e *env) runWith(vars []string, stdin string, args ...string) result {
	e.t.Helper()
	cmd := e.command(stdin, args...)
	cmd.Env = append(cmd.Env, vars...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(interface{ ExitCode() int }); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func TestAuthCommands(t *testing.T) {
	e := newEnv(t)
	vars := []string{"ANTHROPIC_API_KEY=" + envKey}
	var artifacts []string
	keep := func(r result) result { artifacts = append(artifacts, r.stdout, r.stderr); return r }

	r := keep(e.runWith(vars, "", "auth", "status"))
	if r.code != 0 || !strings.Contains(r.stdout, "anthropic") || !strings.Contains(r.stdout, "env") || !strings.Contains(r.stdout, "ANTHROPIC_API_KEY") {
		t.Fatalf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, `no credential for provider "openai"`) || !strings.Contains(r.stdout, "set OPENAI_API_KEY") {
		t.Errorf("missing credential not explained:\n%s", r.stdout)
	}

	r = keep(e.runWith(vars, fileKey+"\n", "auth", "set", "openai"))
	if r.code != 0 {
		t.Fatalf("set: exit %d %s", r.code, r.stderr)
	}
	path := filepath.Join(e.home, "auth.json")
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("auth file %v mode %v", err, info)
	}

	r = keep(e.runWith(vars, "", "auth", "status", "--output", "json"))
	st := parseAuthStatus(t, r.stdout)
	got := map[string]string{}
	for _, s := range st {
		got[s.Provider] = s.Source + " " + s.Origin
	}
	if got["anthropic"] != "env ANTHROPIC_API_KEY" || got["openai"] != "auth-file "+path || got["openai-compatible"] != "none " {
		t.Errorf("sources %v", got)
	}

	keep(e.runWith(vars, "", "auth", "remove", "openai"))
	r = keep(e.runWith(vars, "", "auth", "remove", "openai"))
	if r.code != exitUsage || !strings.Contains(r.stderr, `holds no key for "openai"`) {
		t.Errorf("second remove: exit %d %q", r.code, r.stderr)
	}
	r = keep(e.runWith(vars, "", "auth", "set"))
	if r.code != exitUsage || !strings.Contains(r.stderr, "expected one provider name") {
		t.Errorf("set without provider: exit %d %q", r.code, r.stderr)
	}
	// A corrupt auth file holding a key: the diagnostic must not echo it.
	if err := os.WriteFile(path, []byte(`{"version":1,"providers":{"openai":{"key":"`+fileKey+`"`), 0o600); err != nil {
		t.Fatal(err)
	}
	r = keep(e.runWith(vars, "", "auth", "status"))
	if !strings.Contains(r.stdout+r.stderr, "not valid JSON") {
		t.Errorf("corrupt file not reported:\n%s%s", r.stdout, r.stderr)
	}

	// Every artifact of the run except the auth file itself.
	_ = filepath.WalkDir(e.home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != path {
			b, _ := os.ReadFile(p)
			artifacts = append(artifacts, string(b))
		}
		return nil
	})
	for _, a := range artifacts {
		if strings.Contains(a, envKey) || strings.Contains(a, fileKey) {
			t.Fatalf("a credential leaked into an artifact:\n%s", a)
		}
	}
}

// authRow is one provider of `smith auth status --output json`.
type authRow struct {
	Provider, Source, Origin string
	OK                       bool
}

// parseAuthStatus parses the output of `smith auth status --output json`.
func parseAuthStatus(t *testing.T, out string) []authRow {
	t.Helper()
	var st []authRow
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("auth status json: %v\n%s", err, out)
	}
	return st
}
