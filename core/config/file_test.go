package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeUser writes a user smith.kdl into a temp dir and returns its path.
func writeUser(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func noEnv(string) (string, bool) { return "", false }

// TestInvalidFiles: every invalid file fails naming file:line:col, the
// field path, the bad value and a valid example, and never shows a
// literal key.
func TestInvalidFiles(t *testing.T) {
	const secret = "sk-test-SECRET-1234"
	tests := []struct {
		name string
		text string
		want []string // in the error, after FILE is replaced by the path
	}{
		{name: "syntax", text: "model \"a/b\nthinking \"high\"\n",
			want: []string{"FILE:2:1: near \"thinking \\\"high\\\"\" is not valid KDL 2", "for example: model"}},
		{name: "syntax next to a key", text: "provider \"x\" {\n  credential key=\"" + secret + "\" {\n",
			want: []string{"FILE:", "is not valid KDL 2"}},
		{name: "unknown node", text: "modle \"a/b\"\n",
			want: []string{"FILE:1:1: modle:", "is not a configuration node", "known nodes: model, thinking", "did you mean model?"}},
		{name: "string for a number", text: "max-output-tokens \"lots\"\n",
			want: []string{"FILE:1:19: max-output-tokens: \"lots\" is not a whole number of tokens", "for example: max-output-tokens 8192"}},
		{name: "zero tokens", text: "max-output-tokens 0\n", want: []string{"FILE:1:19", "0 is not a whole number"}},
		{name: "huge tokens", text: "max-output-tokens 123456789012345678901234567890\n", want: []string{"FILE:1:19", "123456789012345678901234567890 is not"}},
		{name: "ignore empty", text: "ignore \"dist/\" \" \"\n", want: []string{"FILE:1:16: ignore: \" \" is empty", `ignore "dist/" "*.min.js"`}},
		{name: "ignore not a string", text: "ignore 3\n", want: []string{"FILE:1:8: ignore: 3 is not a string"}},
		{name: "ignore no value", text: "ignore\n", want: []string{"FILE:1:1: ignore:", "needs at least 1 values, got 0"}},
		{name: "ignore line break", text: "ignore \"a\\nb\"\n", want: []string{"FILE:1:8: ignore:", "holds a line break or NUL"}},
		{name: "ignore comment", text: "ignore \"#tmp\"\n", want: []string{"FILE:1:8: ignore: \"#tmp\" starts with '#'"}},
		{name: "thinking level", text: "thinking \"ultra\"\n", want: []string{"FILE:1:10: thinking: \"ultra\" is not a thinking level", `thinking "medium"`}},
		{name: "set twice", text: "model \"a/b\"\nmodel \"c/d\"\n", want: []string{"FILE:2:1: model:", "set twice in this file (first at line 1)"}},
		{name: "two values", text: "model \"a/b\" \"c/d\"\n", want: []string{"FILE:1:13: model: \"c/d\" is one value too many"}},
		{name: "type annotation", text: "model (u8)\"a/b\"\n", want: []string{"model: (u8) has a type annotation"}},
		{name: "base URL scheme", text: "provider \"anthropic\" {\n  base-url \"ftp://x\"\n}\n",
			want: []string{"FILE:2:12: provider.anthropic.base-url: \"ftp://x\" is not an http:// or https:// URL", `base-url "https://gateway.example/v1"`}},
		{name: "base URL password hidden", text: "provider \"a\" {\n  base-url \"ftp://u:hunter2@x\"\n}\n",
			want: []string{"provider.a.base-url", "[redacted]"}},
		{name: "catalog refresh scheme", text: "catalog-refresh \"ftp://x/c.json\"\n",
			want: []string{"FILE:1:17: catalog-refresh: \"ftp://x/c.json\" is not an https:// URL", `catalog-refresh "https://example.com/smith/catalog.json"`}},
		{name: "catalog refresh plain http", text: "catalog-refresh \"http://u:tok3n@catalog.example/c.json\"\n",
			want: []string{"FILE:1:17: catalog-refresh: \"http://[redacted]@catalog.example/c.json\" is plain http to another machine; catalog data must come over https"}},
		{name: "tui unknown section", text: "tui {\n  colours { accent \"red\" }\n}\n",
			want: []string{"FILE:2:3: tui.colours:", "is not part of the tui block; it holds mouse, keys, theme, terminal"}},
		{name: "tui key not a string", text: "tui {\n  keys { search 3 }\n}\n",
			want: []string{"FILE:2:17: tui.keys.search: 3 is not a string", `keys { search "ctrl+s" }`}},
		{name: "tui mouse not a bool", text: "tui {\n  mouse \"off\"\n}\n",
			want: []string{"FILE:2:9: tui.mouse: \"off\" is not #true or #false", "mouse #false"}},
		{name: "tui key set twice", text: "tui {\n  keys { search \"ctrl+s\"; search \"ctrl+f\" }\n}\n",
			want: []string{"tui.keys.search:", "set twice in this file"}},
		{name: "system prompt text and file", text: "system-prompt \"x\" file=\"p.md\"\n", want: []string{"FILE:1:1: system-prompt:", "takes the prompt's text or file=, not both"}},
		{name: "system prompt empty", text: "system-prompt \" \"\n", want: []string{"FILE:1:15: system-prompt: \"\" is empty"}},
		{name: "system prompt nothing", text: "system-prompt\n", want: []string{"FILE:1:1: system-prompt:", "needs the prompt's text or file="}},
		{name: "system prompt unknown property", text: "system-prompt path=\"p.md\"\n", want: []string{"FILE:1:15: system-prompt: path= is not a property of system-prompt, which takes the properties file"}},
		{name: "catalog refresh not a URL", text: "catalog-refresh \"sometimes\"\n", want: []string{"FILE:1:17: catalog-refresh: \"sometimes\" is neither off nor a URL"}},
		{name: "catalog refresh fragment", text: "catalog-refresh \"https://x.test/c.json#v1\"\n", want: []string{"has a #fragment"}},
		{name: "catalog refresh twice", text: "catalog-refresh \"off\"\ncatalog-refresh \"off\"\n", want: []string{"FILE:2:1: catalog-refresh:", "set twice"}},
		{name: "unknown provider field", text: "provider \"a\" {\n  baseurl \"http://x\"\n}\n",
			want: []string{"FILE:2:3: provider.a.baseurl:", "known: api, base-url", "did you mean base-url?"}},
		{name: "bad provider name", text: "provider \"a/b\"\n", want: []string{"FILE:1:10: provider: \"a/b\" is not a valid name"}},
		{name: "credential with both", text: "provider \"a\" {\n  credential env=\"K\" key=\"" + secret + "\"\n}\n",
			want: []string{"FILE:2:3: provider.a.credential:", "exactly one of env= (a variable to read) and key="}},
		{name: "credential not a string", text: "provider \"a\" {\n  credential key=12\n}\n",
			want: []string{"provider.a.credential.key: [redacted] is not a non-empty string"}},
		{name: "credential unknown property", text: "provider \"a\" {\n  credential value=\"" + secret + "\"\n}\n",
			want: []string{"FILE:2:14: provider.a.credential: value= is not a property", "env, key, account"}},
		{name: "credential bad variable", text: "provider \"a\" {\n  credential env=\"MY KEY\"\n}\n",
			want: []string{"provider.a.credential.env: \"MY KEY\" is not an environment variable name"}},
		{name: "credential of an unlisted account", text: "provider \"a\" {\n  accounts \"work\"\n  credential account=\"home\" key=\"" + secret + "\"\n}\n",
			want: []string{"FILE:3:3: provider.a.credential: \"home\" names an account the provider lists the accounts work"}},
		{name: "quirk twice", text: "provider \"l\" {\n  quirks {\n    no-strict #true\n    no-strict #false\n  }\n}\n",
			want: []string{"FILE:4:5: provider.l.quirks.no-strict: is set twice in this block; keep one"}},
		{name: "quirk without a value", text: "provider \"l\" {\n  quirks {\n    no-strict\n  }\n}\n",
			want: []string{"FILE:3:5: provider.l.quirks.no-strict:", "needs"}},
		{name: "timeout not a duration", text: "idle-timeout \"soon\"\n", want: []string{`FILE:1:14: idle-timeout: "soon" is not a duration: write it as "90s", "2m" or "1h30m", or as a number of seconds`}},
		{name: "timeout too short", text: "head-timeout \"10ms\"\n", want: []string{`FILE:1:14: head-timeout: "10ms" is outside 1s to 24h0m0s`}},
		{name: "timeout too long in seconds", text: "response-timeout 100000000\n", want: []string{"FILE:1:18: response-timeout: 100000000 is outside 1s to 24h0m0s"}},
		{name: "timeout twice", text: "idle-timeout 60\nidle-timeout 90\n", want: []string{"FILE:2:1: idle-timeout:", "set twice"}},
		{name: "empty group", text: "group \"g\"\n", want: []string{"FILE:1:1: group: needs at least 2 values, got 1"}},
		{name: "group member twice", text: "group \"g\" \"a/b\" \"a/b\"\n", want: []string{"FILE:1:17: group.g: \"a/b\" is listed twice"}},
		{name: "alias and group", text: "alias \"x\" \"a/b\"\ngroup \"x\" \"a/b\" \"c/d\"\n", want: []string{"FILE:2:1: group.x: \"x\" is both a group and an alias (at FILE:1:1)"}},
		{name: "cycle", text: "alias \"a\" \"b\"\ngroup \"b\" \"x/y\" \"c\"\nalias \"c\" \"a\"\nalias \"ok\" \"a\"\n",
			want: []string{"FILE:1:1: alias.a: \"a\" is part of a cycle: a → b → c → a"}},
		{name: "self alias", text: "alias \"me\" \"me\"\n", want: []string{"FILE:1:1: alias.me: \"me\" is part of a cycle: me → me"}},
		{name: "alias with a space", text: "alias \"x\" \"a b\"\n", want: []string{"alias.x: \"a b\" is not a model name"}},
		{name: "relative trust", text: "trusted-project \"src/app\"\n", want: []string{"trusted-project: \"src/app\" is not an absolute path"}},
		{name: "model-info without limits", text: "model-info \"local/q\" {\n  thinking \"off\"\n}\n",
			want: []string{"FILE:1:1: model-info.local/q: needs context", "FILE:1:1: model-info.local/q: needs max-output"}},
		{name: "model-info output above context", text: "model-info \"local/q\" {\n  context 4096\n  max-output 8192\n}\n",
			want: []string{"FILE:1:1: model-info.local/q: is not a valid model: max_output 8192 is outside [1, context 4096]"}},
		{name: "model-info bad input", text: "model-info \"local/q\" {\n  context 4096\n  max-output 1024\n  input \"text\" \"audio\"\n}\n",
			want: []string{"FILE:4:16: model-info.local/q.input: \"audio\" is not one of text, image"}},
		{name: "model-info thinking order", text: "model-info \"local/q\" {\n  context 4096\n  max-output 1024\n  thinking \"high\" \"low\"\n}\n",
			want: []string{"model-info.local/q: is not a valid model: thinking levels must be listed once each in increasing order"}},
		{name: "model-info unknown field", text: "model-info \"local/q\" {\n  contxt 4096\n}\n",
			want: []string{"FILE:2:3: model-info.local/q.contxt:", "did you mean context?"}},
		{name: "model-info price", text: "model-info \"local/q\" {\n  context 4096\n  max-output 1024\n  price input=1 output=2\n}\n",
			want: []string{"FILE:4:3: model-info.local/q.price: needs cache-read= (US$ per million tokens)"}},
		{name: "model-info cache read above input", text: "model-info \"local/q\" {\n  context 4096\n  max-output 1024\n  price input=1 output=2 cache-read=3 cache-write=0\n}\n",
			want: []string{"price.cache_read 3 exceeds price.input 1"}},
		{name: "model-info ref", text: "model-info \"qwen\" {\n  context 4096\n}\n", want: []string{"FILE:1:12: model-info: \"qwen\" is not PROVIDER/MODEL"}},
		{name: "every error at once", text: "modle 1\nthinking \"x\"\n", want: []string{"FILE:1:1: modle", "FILE:2:10: thinking"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeUser(t, tt.text)
			cfg, err := Load(Inputs{UserFile: path, LookupEnv: noEnv})
			if err == nil {
				t.Fatalf("loaded %+v, want an error", cfg)
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %T %v is not Errors", err, err)
			}
			msg := strings.ReplaceAll(err.Error(), path, "FILE")
			if tt.name == "cycle" && len(es) != 1 {
				t.Errorf("%d errors, want the cycle reported once:\n%s", len(es), msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			for _, leak := range []string{secret, "hunter2", "tok3n"} {
				if strings.Contains(msg, leak) {
					t.Errorf("error reveals %q:\n%s", leak, msg)
				}
			}
			if !strings.HasPrefix(msg, "config: ") {
				t.Errorf("error %q lacks the package prefix", msg)
			}
		})
	}
}

// TestValidFile reads every node of the schema.
func TestValidFile(t *testing.T) {
	path := writeUser(t, `// a full smith.kdl
model "steady"
thinking "high"
max-output-tokens 8192
provider "anthropic" {
    base-url "https://gw.example/anthropic/"
    accounts "work" "home"
    credential env="WORK_ANTHROPIC_KEY" account="work"
    credential account="home" key="sk-home-literal"
}
provider "local" {
    api "openai-compatible"
    base-url "http://127.0.0.1:8000/v1"
    quirks {
        max-tokens-field "max_tokens"
        no-stream-usage #true
        max-tool-call-id-len 40
    }
}
alias "fast" "anthropic/claude-haiku-4-5"
group "steady" "anthropic/claude-sonnet-4-5" "local/qwen3"
model-info "local/qwen3" {
    name "Qwen3 32B"
    alias "qwen"
    context 32768
    max-output 8192
    input "text" "image"
    thinking "off" "high"
    price input=0.5 output=1.5 cache-read=0.05 cache-write=0
}
tui {
    mouse #false
    keys { search "ctrl+s"; follow-up "ctrl+enter" }
    theme { accent "#ff8800" }
    terminal { sync-output #false; colors "256" }
}
`)
	cfg, err := Load(Inputs{UserFile: path, LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	ui := cfg.UI
	if !ui.Mouse.IsSet() || ui.Mouse.Value || ui.Keys["search"].Value != "ctrl+s" || ui.Keys["follow-up"].Value != "ctrl+enter" ||
		ui.Keys["search"].Source.String() != path+":33:19" || ui.Theme["accent"].Value != "#ff8800" ||
		ui.Terminal["sync-output"].Value != "#false" || ui.Terminal["colors"].Value != "256" {
		t.Errorf("tui %+v", ui)
	}
	if cfg.Model.Value != "steady" || cfg.Model.Source.String() != path+":2:7" {
		t.Errorf("model %+v", cfg.Model)
	}
	if cfg.Thinking.Value != "high" || cfg.MaxOutputTokens.Value != 8192 || cfg.MaxOutputTokens.Source.Line != 4 {
		t.Errorf("thinking %+v, max tokens %+v", cfg.Thinking, cfg.MaxOutputTokens)
	}
	a := cfg.Provider("anthropic")
	if a.BaseURL.Value != "https://gw.example/anthropic/" || a.Codec() != "anthropic" {
		t.Errorf("anthropic %+v", a)
	}
	l := cfg.Provider("local")
	if l.Codec() != "openai-compatible" || string(l.QuirksJSON()) != `{"max_tokens_field":"max_tokens","max_tool_call_id_len":40,"no_stream_usage":true}` {
		t.Errorf("local: codec %s quirks %s", l.Codec(), l.QuirksJSON())
	}
	r := cfg.Route()
	if r.Aliases["fast"] != "anthropic/claude-haiku-4-5" || strings.Join(r.Groups["steady"], " ") != "anthropic/claude-sonnet-4-5 local/qwen3" ||
		strings.Join(r.Accounts["anthropic"], " ") != "work home" {
		t.Errorf("route %+v", r)
	}
	creds := cfg.Credentials()
	if w := creds["anthropic@work"]; w.Env != "WORK_ANTHROPIC_KEY" || w.Origin != path+":8:5" {
		t.Errorf("work credential %+v", w)
	}
	if h := creds["anthropic@home"]; h.Value.Reveal() != "sk-home-literal" {
		t.Error("the home credential's literal key was not kept")
	}
	layer := cfg.CatalogLayer()
	if len(layer.Models) != 1 {
		t.Fatalf("catalog layer %+v", layer)
	}
	m := layer.Models[0]
	if m.Ref() != "local/qwen3" || m.Name != "Qwen3 32B" || m.Context != 32768 || m.MaxOutput != 8192 || len(m.Input) != 2 || !m.Tools ||
		m.Price == nil || m.Price.Output != 1.5 || m.Aliases[0] != "qwen" || m.Provenance.Source != path+":22:1" || m.Provenance.Date == "" {
		t.Errorf("model %+v", m)
	}
	if p := cfg.Provider("none"); p.Name != "none" || p.BaseURL.IsSet() {
		t.Errorf("an unconfigured provider: %+v", p)
	}
}

func TestLiteralKeys(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{name: "quoted", src: `credential key="sk-a"`, want: []string{"sk-a"}},
		{name: "spaced", src: "credential key =\t\"sk-b\" account=\"w\"", want: []string{"sk-b"}},
		{name: "escaped quote", src: `credential key="sk-\"c"`, want: []string{`sk-\"c`}},
		{name: "unterminated", src: "credential key=\"sk-d\nmodel \"x\"", want: []string{"sk-d"}},
		{name: "raw", src: `credential key=##"sk-"#e"##`, want: []string{`sk-"#e`}},
		{name: "bare", src: "credential key=sk-f;", want: []string{"sk-f"}},
		{name: "other properties", src: `credential env="K" account="key"`, want: nil},
		{name: "at the end", src: `key=`, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := literalKeys([]byte(tt.src)); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("literalKeys(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}
