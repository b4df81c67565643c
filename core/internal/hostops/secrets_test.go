//go:build unix

package hostops

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/internal/secret"
)

// The secrets of these tests: TOK a command may receive by reference,
// PROV (a provider's credential) it may not.
const (
	tokValue  = "tok-5ecr3t-VALUE-xyz1"
	provValue = "sk-prov-0123456789abcdef"
)

// secretOps returns a fixture whose Ops register TOK and PROV and allow
// TOK.
func secretOps(t *testing.T) *fixture {
	t.Helper()
	f := setup(t, nil)
	var set secret.Set
	for _, s := range []secret.Secret{{Name: "TOK", Source: "smith secret add", Value: tokValue}, {Name: "PROV", Source: "env PROV", Value: provValue}} {
		if err := set.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	f.ops.Secrets = &set
	f.ops.SecretAllowed = func(name string) bool { return name == "TOK" }
	return f
}

// bashCompletion is the completion output of the last process.run.
type bashCompletion struct {
	ExitCode int      `json:"exit_code"`
	Secrets  []string `json:"secrets"`
	Output   string   `json:"output"`
}

func lastBash(t *testing.T, f *fixture) (raw string, out bashCompletion) {
	t.Helper()
	_, completions := f.records(t)
	if len(completions) == 0 {
		t.Fatal("no completion recorded")
	}
	raw = string(completions[len(completions)-1].Output)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("completion output %s: %v", raw, err)
	}
	return raw, out
}

// TestBashSecretReferences: a reference to a secret the policy allows is
// replaced by its plaintext for the process (its length arrives), while
// every output — the result, the streamed copy and the completion — shows
// the reference instead of the value, plain or in base64; a reference to a
// secret the policy refuses, or to an unknown name, reaches the process
// as literal text; the intent keeps the reference and the completion
// names the secrets restored.
func TestBashSecretReferences(t *testing.T) {
	f := secretOps(t)
	tok := secret.Reference("TOK")
	tests := []struct {
		name    string
		cmd     string
		output  string
		secrets []string
	}{
		{name: "allowed value reaches the process", cmd: "printf %s " + tok + " | wc -c",
			output: strconv.Itoa(len(tokValue)), secrets: []string{"TOK"}},
		{name: "allowed value in the output is redacted", cmd: "echo " + tok,
			output: tok, secrets: []string{"TOK"}},
		{name: "its base64 is redacted", cmd: "printf %s " + tok + " | base64",
			output: tok, secrets: []string{"TOK"}},
		{name: "twice, named once", cmd: "printf %s " + tok + "-" + tok + " | wc -c",
			output: strconv.Itoa(2*len(tokValue) + 1), secrets: []string{"TOK"}},
		{name: "refused secret stays literal", cmd: "printf %s '" + secret.Reference("PROV") + "' | wc -c",
			output: strconv.Itoa(len(secret.Reference("PROV")))},
		{name: "refused secret printed as text", cmd: "printf %s '" + secret.Reference("PROV") + "'",
			output: secret.Reference("PROV")},
		{name: "unknown name stays literal", cmd: "printf %s '" + secret.Reference("NOPE") + "' | wc -c",
			output: strconv.Itoa(len(secret.Reference("NOPE")))},
		{name: "no reference", cmd: "echo plain", output: "plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var streamed []byte
			ctx := WithOutput(context.Background(), func(b []byte) {
				mu.Lock()
				defer mu.Unlock()
				streamed = append(streamed, b...)
			})
			res, _, err := f.ops.Bash(ctx, f.inv, BashArgs{Command: tt.cmd})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != 0 {
				t.Fatalf("exit %d: %s", res.ExitCode, res.Output)
			}
			if got := strings.TrimSpace(string(res.Output)); got != tt.output {
				t.Errorf("result output %q, want %q", got, tt.output)
			}
			mu.Lock()
			if got := strings.TrimSpace(string(streamed)); got != tt.output {
				t.Errorf("streamed output %q, want %q", got, tt.output)
			}
			mu.Unlock()
			raw, out := lastBash(t, f)
			if got := strings.TrimSpace(out.Output); got != tt.output {
				t.Errorf("completion output %q, want %q", got, tt.output)
			}
			if !slices.Equal(out.Secrets, tt.secrets) {
				t.Errorf("completion secrets %v, want %v", out.Secrets, tt.secrets)
			}
			if tt.secrets == nil && strings.Contains(raw, `"secrets"`) {
				t.Errorf("completion %s names secrets though none was restored", raw)
			}
			intents, _ := f.records(t)
			in := string(intents[len(intents)-1].Input)
			if q, _ := json.Marshal(tt.cmd); !strings.Contains(in, string(q)) {
				t.Errorf("intent input %s lacks the command as written", in)
			}
			for _, leak := range []string{tokValue, provValue, base64.StdEncoding.EncodeToString([]byte(tokValue))} {
				if strings.Contains(raw, leak) || strings.Contains(in, leak) || bytes.Contains(res.Output, []byte(leak)) {
					t.Errorf("a record or the result holds %q:\nintent %s\ncompletion %s", leak, in, raw)
				}
			}
		})
	}
}

// TestBashEnvironmentLosesSecrets: a process inherits no variable whose
// value holds a registered secret (plain or base64, allowed or not), from
// Ops.Env or, when it is nil, from Smith's own environment; the other
// variables stay.
func TestBashEnvironmentLosesSecrets(t *testing.T) {
	t.Setenv("SMITH_TEST_OWN_LEAK", "x"+tokValue+"x")
	t.Setenv("SMITH_TEST_OWN_KEEP", "kept-own")
	tests := []struct {
		name string
		env  []string
		// gone and kept are variables the process must lack and have (with
		// the value given).
		gone []string
		kept map[string]string
	}{
		{name: "explicit environment", env: []string{"PATH=" + os.Getenv("PATH"), "LEAK=" + provValue, "LEAK_TOK=" + tokValue,
			"LEAK_B64=" + base64.StdEncoding.EncodeToString([]byte(provValue)), "LEAK_INSIDE=Bearer " + provValue, "KEEP=plain-value"},
			gone: []string{"LEAK", "LEAK_TOK", "LEAK_B64", "LEAK_INSIDE"}, kept: map[string]string{"KEEP": "plain-value"}},
		{name: "own environment", gone: []string{"SMITH_TEST_OWN_LEAK"}, kept: map[string]string{"SMITH_TEST_OWN_KEEP": "kept-own"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := secretOps(t)
			f.ops.Env = tt.env
			res, _, err := f.ops.Bash(context.Background(), f.inv, BashArgs{Command: "env"})
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("env: %v, exit %d: %s", err, res.ExitCode, res.Output)
			}
			vars := map[string]string{}
			for _, line := range strings.Split(string(res.Output), "\n") {
				if k, v, ok := strings.Cut(line, "="); ok {
					vars[k] = v
				}
			}
			for _, k := range tt.gone {
				if v, ok := vars[k]; ok {
					t.Errorf("the process has %s=%s", k, v)
				}
			}
			for k, want := range tt.kept {
				if vars[k] != want {
					t.Errorf("the process has %s=%q, want %q", k, vars[k], want)
				}
			}
			if len(tt.env) > 0 && !slices.Equal(f.ops.Env, tt.env) {
				t.Errorf("Ops.Env changed: %v", f.ops.Env)
			}
		})
	}
}

// TestBashWithoutSecrets: with no Secrets a reference is passed to the
// shell as written, the environment as given, and the completion names
// no secrets.
func TestBashWithoutSecrets(t *testing.T) {
	f := setup(t, nil)
	f.ops.Env = []string{"PATH=" + os.Getenv("PATH"), "V=" + tokValue}
	res, _, err := f.ops.Bash(context.Background(), f.inv, BashArgs{Command: `printf '%s|%s' '${secret:TOK}' "$V"`})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Output); got != "${secret:TOK}|"+tokValue {
		t.Fatalf("output %q", got)
	}
	if raw, _ := lastBash(t, f); strings.Contains(raw, `"secrets"`) {
		t.Fatalf("completion %s names secrets", raw)
	}
}
