package main

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestSecretProxy: a secret the user registered (smith secret add) and
// the provider's key never reach the model, the session file, the
// replay, the dump or the terminal — in plain text or encoded — while a
// command still gets the user's secret by reference; no process inherits
// the key, no command may ask for it, and a provider error echoing the
// key is shown redacted.
func TestSecretProxy(t *testing.T) {
	const (
		key   = "sk-loopback-secret-key-77aa31"
		token = "tok/user+secret=9f8e7d6c"
	)
	command := `echo "key=[$ANTHROPIC_API_KEY]"; printf %s ${secret:MYTOKEN} | wc -c; echo ${secret:MYTOKEN}; printf %s '${secret:ANTHROPIC_API_KEY}' | wc -c; env | grep -c loopback-secret`
	var mu sync.Mutex
	var bodies []string
	replies := []string{
		messagesStream("Running it.", "toolu_1", "bash", fmt.Sprintf(`{"command":%q}`, command)),
		messagesStream("Reading.", "toolu_2", "read", `{"path":"notes.txt"}`),
		messagesStream("The server saw "+key+" and "+token+".", "", "", ""),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(bodies)
		bodies = append(bodies, string(b))
		mu.Unlock()
		if n >= len(replies) {
			w.Header().Set("content-type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key %s"}}`, r.Header.Get("x-api-key"))
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, replies[n])
	}))
	defer srv.Close()

	e := newEnv(t)
	if err := os.WriteFile(filepath.Join(e.cwd, "notes.txt"), []byte("token: "+token+"\nkey: "+key+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.mustRun(token+"\n", "secret", "add", "MYTOKEN")
	eval := func(name string) result {
		t.Helper()
		cmd := e.command("", "eval", "--model", "anthropic/claude-loopback", "--session", name, "look at notes.txt")
		cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY="+key, "ANTHROPIC_BASE_URL="+srv.URL)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if err != nil {
			code = 1
		}
		return result{code: code, stdout: out.String(), stderr: errb.String()}
	}
	r := eval("secrets")
	if r.code != 0 {
		t.Fatalf("eval failed:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	mu.Lock()
	reqs := append([]string(nil), bodies...)
	mu.Unlock()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	// The bash result the model reads: no key in the environment, the
	// token's length (so the command had its value), the token itself as
	// its reference, the key's reference left literal (27 bytes), and no
	// variable holding the key.
	bashResult := reqs[1]
	for _, want := range []string{`key=[]`, fmt.Sprint(len(token)), `${secret:MYTOKEN}`, `27`} {
		if !strings.Contains(bashResult, want) {
			t.Errorf("the bash result sent to the model lacks %q:\n%s", want, bashResult)
		}
	}
	for _, want := range []string{"token: ${secret:MYTOKEN}", "key: ${secret:ANTHROPIC_API_KEY}"} {
		if !strings.Contains(reqs[2], want) {
			t.Errorf("the read result sent to the model lacks %q:\n%s", want, reqs[2])
		}
	}
	if !strings.Contains(r.stdout, "The server saw ${secret:ANTHROPIC_API_KEY} and ${secret:MYTOKEN}.") {
		t.Errorf("the answer is not shown redacted:\n%s", r.stdout)
	}

	// A provider error that echoes the key.
	bad := eval("error")
	if bad.code == 0 || !strings.Contains(bad.stderr+bad.stdout, "invalid x-api-key ${secret:ANTHROPIC_API_KEY}") {
		t.Errorf("the provider error is not shown, redacted (exit %d):\nstdout: %s\nstderr: %s", bad.code, bad.stdout, bad.stderr)
	}

	list := e.mustRun("", "secret", "list").stdout
	if !strings.Contains(list, "MYTOKEN") || !strings.Contains(list, "smith secret add") {
		t.Errorf("secret list:\n%s", list)
	}
	dump := e.mustRun("", "session", "dump", "secrets").stdout
	if !strings.Contains(dump, "secret_registration") {
		t.Errorf("the session records no secret registration:\n%s", dump)
	}
	surfaces := map[string]string{
		"eval stdout": r.stdout, "eval stderr": r.stderr,
		"error stdout": bad.stdout, "error stderr": bad.stderr,
		"secret list": list, "dump": dump,
		"show":   e.mustRun("", "session", "show", "secrets").stdout,
		"replay": e.mustRun("", "replay", "secrets").stdout,
	}
	for i, b := range reqs {
		surfaces[fmt.Sprintf("request %d", i+1)] = b
	}
	for _, name := range []string{"secrets", "error"} {
		raw, err := os.ReadFile(e.sessionInfo(name).Path)
		if err != nil {
			t.Fatal(err)
		}
		surfaces["session file "+name] = string(raw)
	}
	for _, v := range []string{key, token} {
		forms := map[string]string{
			"plain":  v,
			"base64": base64.StdEncoding.EncodeToString([]byte(v)),
			"url":    url.QueryEscape(v),
			"hex":    hex.EncodeToString([]byte(v)),
		}
		for surface, s := range surfaces {
			for form, f := range forms {
				if strings.Contains(s, f) {
					t.Errorf("the %s form of a secret leaked into the %s", form, surface)
				}
			}
		}
	}
}
