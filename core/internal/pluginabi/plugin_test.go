package pluginabi_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// examplePackage is a small plugin of the real world (a tool using fs, a
// provider codec with a decoder resource), built with the standard toolchain.
const examplePackage = "github.com/smith-agent/smith/wit/internal/exampleplugin"

var (
	buildOnce sync.Once
	buildDir  string
	example   []byte
	buildErr  error
	engOnce   sync.Once
	engine    *wasmhost.Engine
	engErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if engine != nil {
		engine.Close(context.Background())
	}
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func exampleWasm(tb testing.TB) []byte {
	tb.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "pluginabi-"); buildErr != nil {
			return
		}
		out := filepath.Join(buildDir, "example.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, examplePackage)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New("go build " + examplePackage + ": " + err.Error() + "\n" + string(msg))
			return
		}
		example, buildErr = os.ReadFile(out)
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return example
}

func compile(tb testing.TB, hosts []wasmhost.HostModule) (*wasmhost.Plugin, error) {
	tb.Helper()
	wasm := exampleWasm(tb)
	engOnce.Do(func() {
		engine, engErr = wasmhost.NewEngine(context.Background(), wasmhost.Config{CacheDir: filepath.Join(buildDir, "cache")})
	})
	if engErr != nil {
		tb.Fatal(engErr)
	}
	return engine.Compile(context.Background(), wasmhost.Artifact{Name: "example", Reader: bytes.NewReader(wasm)},
		wasmhost.PluginConfig{World: pluginabi.WorldSpec(), Hosts: hosts})
}

// dirFS serves fs.read-file from a real directory.
type dirFS struct{ root string }

func (d dirFS) ReadFile(_ context.Context, path string, _ pluginabi.ReadOptions) (pluginabi.FileText, error) {
	b, err := os.ReadFile(filepath.Join(d.root, path))
	if errors.Is(err, os.ErrNotExist) {
		return pluginabi.FileText{}, pluginabi.FileFault{Case: pluginabi.FileFaultNotFound, NotFound: path}
	}
	if err != nil {
		return pluginabi.FileText{}, err
	}
	return pluginabi.FileText{Text: string(b), TotalLines: uint32(bytes.Count(b, []byte("\n")))}, nil
}

func unsupported(op string) error {
	return pluginabi.FileFault{Case: pluginabi.FileFaultUnknown, Unknown: op + " is not served by this test host"}
}

func (dirFS) WriteFile(context.Context, string, string, pluginabi.WriteOptions) (uint64, error) {
	return 0, unsupported("write-file")
}
func (dirFS) EditFile(context.Context, string, []pluginabi.TextEdit, pluginabi.EditOptions) (pluginabi.EditOutcome, error) {
	return pluginabi.EditOutcome{}, unsupported("edit-file")
}
func (dirFS) ListDirectory(context.Context, string, pluginabi.ListOptions) ([]pluginabi.DirectoryEntry, error) {
	return nil, unsupported("list-directory")
}
func (dirFS) FindFiles(context.Context, string, string, pluginabi.FindOptions) ([]string, error) {
	return nil, unsupported("find-files")
}
func (dirFS) SearchText(context.Context, string, string, pluginabi.SearchOptions) ([]pluginabi.TextMatch, error) {
	return nil, unsupported("search-text")
}

// TestCapabilityGrants checks that a capability interface is importable
// only when granted: an artifact importing fs without the grant never runs.
func TestCapabilityGrants(t *testing.T) {
	if _, err := pluginabi.HostModules(pluginabi.Hosts{Fs: dirFS{}}); err == nil || !strings.Contains(err.Error(), `capability "fs" is not granted`) {
		t.Errorf("HostModules with an ungranted fs = %v; want a refusal naming the capability", err)
	}
	mods, err := pluginabi.HostModules(pluginabi.Hosts{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compile(t, mods)
	var ve *wasmhost.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `import "smith:plugin/fs@0.0.0" "read-file"`) || !strings.Contains(err.Error(), "not granted") {
		t.Fatalf("Compile without the fs grant = %v; want a validation error naming the import", err)
	}
	if !reflect.DeepEqual(pluginabi.Capabilities, []string{"compose", "fs", "http", "log", "process", "secrets", "state", "ui", "vcs"}) {
		t.Errorf("Capabilities = %v", pluginabi.Capabilities)
	}
}

func bind(t *testing.T, root string) *pluginabi.Guest {
	t.Helper()
	mods, err := pluginabi.HostModules(pluginabi.Hosts{Fs: dirFS{root: root}}, "fs")
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile(t, mods)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	gen, err := wasmhost.NewGeneration(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gen.Close)
	in, err := gen.Acquire(context.Background(), p.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(in.Release)
	return pluginabi.Bind(in)
}

// TestPluginWorld runs a standard-toolchain Go plugin of the real world:
// registration, a tool calling a granted host effect, and a provider codec.
func TestPluginWorld(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("hello\nworld\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := bind(t, root)
	ctx := context.Background()

	t.Run("declare-contributions", func(t *testing.T) {
		c, err := g.DeclareContributions(ctx, pluginabi.DeclareOptions{WorldVersion: "0.0.0", Configuration: "{}"})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Tools) != 1 || c.Tools[0].Name != "cat" || c.Tools[0].InputSchema != `{"type":"object"}` {
			t.Errorf("Tools = %+v", c.Tools)
		}
		if len(c.Providers) != 1 || !reflect.DeepEqual(c.Providers[0].SecretNames, []string{"lines-key"}) {
			t.Errorf("Providers = %+v", c.Providers)
		}
		if !reflect.DeepEqual(c.Subscriptions, []pluginabi.EventKind{pluginabi.EventKindTurnEnd, pluginabi.EventKindSettled}) {
			t.Errorf("Subscriptions = %v", c.Subscriptions)
		}
	})

	t.Run("invoke-tool", func(t *testing.T) {
		tests := []struct {
			name      string
			call      pluginabi.ToolCall
			setup     func()
			wantText  string
			wantFault pluginabi.ToolFault
		}{
			{name: "reads-through-fs", call: pluginabi.ToolCall{ID: "1", Name: "cat", Arguments: "{}"}, wantText: "hello\nworld\n"},
			{name: "unknown-tool", call: pluginabi.ToolCall{ID: "2", Name: "dog", Arguments: "{}"},
				wantFault: pluginabi.ToolFault{Case: pluginabi.ToolFaultUnknownTool, UnknownTool: "dog"}},
			{name: "host-fault-reaches-guest", call: pluginabi.ToolCall{ID: "3", Name: "cat", Arguments: "{}"},
				setup:     func() { os.Remove(filepath.Join(root, "notes.txt")) },
				wantFault: pluginabi.ToolFault{Case: pluginabi.ToolFaultEffectFailure, EffectFailure: "file-fault not-found: notes.txt"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if tt.setup != nil {
					tt.setup()
				}
				out, err := g.InvokeTool(ctx, tt.call, pluginabi.InvokeOptions{OutputLimit: 1 << 20, WorkingDirectory: root})
				if tt.wantText != "" {
					if err != nil {
						t.Fatal(err)
					}
					if len(out.Content) != 1 || out.Content[0].Case != pluginabi.ContentBlockText || out.Content[0].Text != tt.wantText {
						t.Errorf("content = %+v; want text %q", out.Content, tt.wantText)
					}
					return
				}
				var f pluginabi.ToolFault
				if !errors.As(err, &f) || f != tt.wantFault {
					t.Errorf("error = %v; want fault %v", err, tt.wantFault)
				}
			})
		}
	})

	t.Run("provider-codec", func(t *testing.T) {
		tpl, err := g.BuildRequest(ctx, pluginabi.RequestSnapshot{Provider: "lines", Model: "m1", Document: `{"messages":[]}`}, pluginabi.BuildOptions{Streaming: true})
		if err != nil {
			t.Fatal(err)
		}
		wantAuth := []pluginabi.TemplatePart{
			{Case: pluginabi.TemplatePartLiteral, Literal: "Bearer "},
			{Case: pluginabi.TemplatePartSecret, Secret: pluginabi.SecretReference{Name: "lines-key"}},
		}
		if tpl.Method != pluginabi.HTTPMethodPost || len(tpl.Headers) != 1 || !reflect.DeepEqual(tpl.Headers[0].Value, wantAuth) || string(tpl.Body) != `{"messages":[]}` {
			t.Errorf("template = %+v", tpl)
		}
		dec, err := g.NewDecoder(ctx, pluginabi.DecodeOptions{Provider: "lines", Status: 200, ContentType: "text/plain"})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, chunk := range []string{"text: he", "llo\ntext: wor", "ld\n"} {
			evs, err := dec.DecodeChunk(ctx, []byte(chunk))
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				texts = append(texts, ev.TextDelta.Text)
			}
		}
		if !reflect.DeepEqual(texts, []string{"hello", "world"}) {
			t.Errorf("decoded %q; want [hello world] across chunk boundaries", texts)
		}
		end, err := dec.Finish(ctx)
		if err != nil || len(end) != 1 || end[0].Case != pluginabi.StreamEventDone || end[0].Done.Reason != pluginabi.StopReasonEnd {
			t.Errorf("Finish = %+v, %v; want done(end)", end, err)
		}
		if err := dec.Drop(ctx); err != nil {
			t.Errorf("Drop: %v", err)
		}
		f, err := g.ClassifyFailure(ctx, []byte("slow down"), pluginabi.ClassifyOptions{Provider: "lines", Status: 429,
			Headers: []pluginabi.ResponseHeader{{Name: "retry-after", Value: "1"}, {Name: "request-id", Value: "req_7"}}})
		if err != nil || f.Kind != pluginabi.FailureKindRateLimit || f.RetryAfterMs == nil || *f.RetryAfterMs != 1000 || f.Message != "slow down" ||
			!f.Retryable || f.RequestID == nil || *f.RequestID != "req_7" {
			t.Errorf("ClassifyFailure = %+v, %v", f, err)
		}
		if _, err := g.BuildRequest(ctx, pluginabi.RequestSnapshot{Provider: "other"}, pluginabi.BuildOptions{}); !errors.As(err, new(pluginabi.CodecFault)) {
			t.Errorf("BuildRequest for another provider = %v; want a codec fault", err)
		}
	})
}
