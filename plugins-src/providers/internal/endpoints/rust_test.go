package endpoints_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustEndpointsUnit runs the #[test]s of endpoints.rs.
func TestRustEndpointsUnit(t *testing.T) {
	rustdriver.RunTests(t, "testdata/endpoints_tests.rs")
}

// driver is the Rust port's driver, built with overflow checks.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, "testdata/driver_endpoints.rs", "-C", "overflow-checks=on")
}

// endpointLine is the driver's endpoint_line: every field of e as
// " Name=value", strings quoted by strconv.Quote, KeyEnv a list.
func endpointLine(name string, e endpoints.Endpoint) string {
	keys := make([]string, len(e.KeyEnv))
	for i, k := range e.KeyEnv {
		keys[i] = strconv.Quote(k)
	}
	q := e.Quirks
	return fmt.Sprintf("Endpoint Name=%q Provider=%q API=%q BaseURL=%q BaseURLEnv=%q KeyEnv=[%s] DeveloperRole=%t MaxTokensField=%q NoStreamUsage=%t ThinkingFormat=%q EchoReasoning=%q ReasoningDetails=%t UsageInclude=%t ToolResultName=%t NoStrict=%t NoPromptCacheKey=%t MaxToolCallIDLen=%d IDStyle=%q\n",
		name, e.Provider, e.API, e.BaseURL, e.BaseURLEnv, strings.Join(keys, " "), q.DeveloperRole, q.MaxTokensField, q.NoStreamUsage,
		q.ThinkingFormat, q.EchoReasoning, q.ReasoningDetails, q.UsageInclude, q.ToolResultName, q.NoStrict, q.NoPromptCacheKey,
		q.MaxToolCallIDLen, e.IDStyle)
}

// TestRustTable compares the whole table: the names in order and every
// endpoint field for field, and lookup's error for unknown names.
func TestRustTable(t *testing.T) {
	d := driver(t)
	var want strings.Builder
	for _, n := range endpoints.Names() {
		e, err := endpoints.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString(endpointLine(n, e))
	}
	if got := string(d.Ask(t, 'n', nil)); got != want.String() {
		t.Fatalf("the Rust table differs from Go's\nrust:\n%s\n  go:\n%s", got, want.String())
	}
	for _, name := range []string{"", "nope", "Anthropic", "openai ", "é\n"} {
		_, err := endpoints.Lookup(name)
		if err == nil {
			t.Fatalf("lookup %q succeeded", name)
		}
		if got := string(d.Ask(t, 'l', []byte(name))); got != "ERR "+err.Error() {
			t.Errorf("lookup %q: rust %q, go %q", name, got, "ERR "+err.Error())
		}
	}
}

// resolveCase is one ResolveBaseURL question: a known endpoint by name,
// or (name unknown) an endpoint with the given provider, base URL and
// variable.
type resolveCase struct {
	name, provider, base, baseEnv string
	config, env, flag             string
}

func (c resolveCase) goAnswer() string {
	e, err := endpoints.Lookup(c.name)
	if err != nil {
		e = endpoints.Endpoint{Provider: c.provider, API: "openai-chat", BaseURL: c.base, BaseURLEnv: c.baseEnv}
	}
	url, src, err := endpoints.ResolveBaseURL(e, c.config, c.env, c.flag)
	if err != nil {
		return "ERR " + err.Error()
	}
	return url + " " + string(src)
}

func compareResolve(t *testing.T, d *rustdriver.Driver, c resolveCase) {
	t.Helper()
	var p []byte
	for _, s := range []string{c.name, c.provider, c.base, c.baseEnv, c.config, c.env, c.flag} {
		p = append(binary.LittleEndian.AppendUint32(p, uint32(len(s))), s...)
	}
	if got, want := string(d.Ask(t, 'r', p)), c.goAnswer(); got != want {
		t.Fatalf("resolve %+v: rust %q, go %q", c, got, want)
	}
}

var resolveValues = []string{"", "https://gw.example/anthropic/", "http://127.0.0.1:9", "https://a.example//", "api.anthropic.com",
	"HTTP://x", "https://", "http:/x", "ftp://x", "https:///", "http://é.example/\n", "/"}

// TestRustResolve compares ResolveBaseURL's answers and errors for every
// endpoint and every combination of config, environment and flag values
// from a list of good and bad URLs, and for endpoints without a default.
func TestRustResolve(t *testing.T) {
	d := driver(t)
	names := append(endpoints.Names(), "unknown")
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			for _, config := range resolveValues {
				for _, env := range resolveValues {
					for _, flag := range resolveValues[:6] {
						compareResolve(t, d, resolveCase{name: n, provider: "p\"q", base: "", baseEnv: "X_BASE_URL", config: config, env: env, flag: flag})
					}
				}
			}
		})
	}
}

// FuzzRustResolve compares ResolveBaseURL on arbitrary (valid UTF-8)
// values, for a known endpoint or a made-up one.
func FuzzRustResolve(f *testing.F) {
	f.Add("anthropic", "", "", "", "https://a/", "", "")
	f.Add("x", "p", "", "V", "", "ftp://e", "")
	f.Add("openai-compatible", "", "", "", "", "", "http://localhost:8000/v1//")
	d := driver(f)
	f.Fuzz(func(t *testing.T, name, provider, base, baseEnv, config, env, flag string) {
		v := func(s string) string { return strings.ToValidUTF8(s, "\ufffd") }
		compareResolve(t, d, resolveCase{v(name), v(provider), v(base), v(baseEnv), v(config), v(env), v(flag)})
	})
}
