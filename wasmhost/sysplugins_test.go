package wasmhost

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tetratelabs/wabin/wasm"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// The committed system plugins (../smith/internal/sysplugins, built and
// instrumented by tools/pluginbuild) are this package's most realistic
// test data: the Anthropic codec (~300 KB) and the tools plugin
// (~110 KB). wasmhost knows no world, so the harness derives
// each plugin's WorldSpec from the artifact's own imports and exports and
// lowers the few calls of a turn by hand, following the canonical ABI
// layouts of wit/provider.wit, wit/tool.wit and wit/contrib.wit.

// sysWorld is the package the system plugins are built against.
const (
	sysPackage = "smith:plugin"
	sysVersion = "0.0.0"
	contribEx  = "smith:plugin/contrib@0.0.0#declare-contributions"
	providerEx = "smith:plugin/provider@0.0.0#"
	toolEx     = "smith:plugin/tool@0.0.0#invoke-tool"
)

// sysPlugin is one committed system plugin and the calls a turn makes on
// it.
type sysPlugin struct {
	name  string
	wasm  []byte
	world WorldSpec
	hosts []HostModule
	// turn makes the calls one agent turn makes on a fresh instance.
	turn func(ctx context.Context, in *Instance) error
}

var (
	sysMu      sync.Mutex
	sysPlugins = map[string]*sysPlugin{}
)

// loadSysPlugin reads ../smith/internal/sysplugins/<name>.wasm once per
// run.
func loadSysPlugin(tb testing.TB, name string) *sysPlugin {
	tb.Helper()
	p, err := readSysPlugin(name)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func readSysPlugin(name string) (*sysPlugin, error) {
	sysMu.Lock()
	defer sysMu.Unlock()
	if p, ok := sysPlugins[name]; ok {
		return p, nil
	}
	path := filepath.Join("..", "smith", "internal", "sysplugins", name+".wasm")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the committed system plugin %s: %w", path, err)
	}
	world, err := selfWorld(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p := &sysPlugin{name: name, wasm: b, world: world}
	switch name {
	case "providers-anthropic":
		p.hosts, p.turn = providerHosts(world), providerTurn
	case "tools":
		p.hosts, p.turn = toolHosts(world), toolTurn
	default:
		return nil, fmt.Errorf("no turn for system plugin %q", name)
	}
	sysPlugins[name] = p
	return p, nil
}

// artifact is the plugin as sysplugins hands it to core/plugin: in memory,
// pinned, verified and instrumented ahead of time.
func (p *sysPlugin) artifact() Artifact {
	sum := sha256.Sum256(p.wasm)
	return Artifact{Name: p.name, Bytes: p.wasm, Size: int64(len(p.wasm)), SHA256: hex.EncodeToString(sum[:]),
		Verified: true, Instrumented: InstrumentationVersion()}
}

func (p *sysPlugin) config() PluginConfig {
	return PluginConfig{World: p.world, Hosts: p.hosts}
}

// selfWorld is the world the artifact itself declares: every import that
// is neither WASI nor the fuel instrumentation's, and every export of the
// package with its own signature.
func selfWorld(raw []byte) (WorldSpec, error) {
	m, err := decodeHeader(raw)
	if err != nil {
		return WorldSpec{}, err
	}
	w := WorldSpec{Package: sysPackage, Version: sysVersion}
	var funcTypes []uint32
	for _, imp := range m.ImportSection {
		if imp.Type != wasm.ExternTypeFunc {
			continue
		}
		funcTypes = append(funcTypes, imp.DescFunc)
		if imp.Module == wasiModule || imp.Module == fuel.Module {
			continue
		}
		w.Imports = append(w.Imports, ImportSpec{Module: imp.Module, Name: imp.Name, Sig: coreSig(m.TypeSection[imp.DescFunc])})
	}
	funcTypes = append(funcTypes, m.FunctionSection...)
	for _, ex := range m.ExportSection {
		if ex.Type != wasm.ExternTypeFunc || !strings.HasPrefix(ex.Name, sysPackage+"/") {
			continue
		}
		if int(ex.Index) >= len(funcTypes) {
			return w, fmt.Errorf("export %q: function %d out of range", ex.Name, ex.Index)
		}
		w.Exports = append(w.Exports, ExportSpec{Name: ex.Name, Sig: coreSig(m.TypeSection[funcTypes[ex.Index]]), Optional: true})
	}
	return w, nil
}

// hostsFor implements every import of w: the ones impl names, and the
// rest failing with an error naming the call.
func hostsFor(w WorldSpec, impl map[string]HostFunc) []HostModule {
	var mods []HostModule
	idx := map[string]int{}
	for _, imp := range w.Imports {
		fn := impl[imp.Name]
		if fn == nil {
			name := imp.Module + " " + imp.Name
			fn = func(context.Context, *Call, []uint64) error {
				return fmt.Errorf("the harness does not implement %s", name)
			}
		}
		i, ok := idx[imp.Module]
		if !ok {
			i = len(mods)
			idx[imp.Module] = i
			mods = append(mods, HostModule{Name: imp.Module})
		}
		mods[i].Funcs = append(mods[i].Funcs, HostFuncDef{Name: imp.Name, Sig: imp.Sig, Fn: fn})
	}
	return mods
}

// lowerStrings allocates and writes each string into the guest and puts
// its pointer and length into params, two per string.
func lowerStrings(c *Call, params []uint64, ss ...string) error {
	for i, s := range ss {
		ptr, err := c.Alloc(uint32(len(s)), 1)
		if err != nil {
			return err
		}
		if err := c.WriteString(ptr, s); err != nil {
			return err
		}
		params[2*i], params[2*i+1] = uint64(ptr), uint64(len(s))
	}
	return nil
}

// resultOK lifts the discriminant of a result<_, E> behind a return
// pointer; an error case's payload, whose first field after the
// discriminant (at payloadAt) is a variant whose cases carry strings,
// becomes the error.
func resultOK(what string, payloadAt uint32) func(c *Call, results []uint64) error {
	return func(c *Call, results []uint64) error {
		ret := uint32(results[0])
		tag, err := c.ReadU8(ret)
		if err != nil || tag == 0 {
			return err
		}
		kind, _ := c.ReadU8(ret + payloadAt)
		ptr, _ := c.ReadU32(ret + payloadAt + 4)
		n, _ := c.ReadU32(ret + payloadAt + 8)
		msg, _ := c.ReadString(ptr, n)
		return fmt.Errorf("%s failed: case %d: %s", what, kind, msg)
	}
}

// declare calls declare-contributions, as the plugin manager does when it
// registers a plugin.
func declare(ctx context.Context, in *Instance) error {
	return in.Invoke(ctx, contribEx, func(c *Call, params []uint64) error {
		return lowerStrings(c, params, sysVersion, "{}")
	}, resultOK("declare-contributions", 4))
}

// providerHosts implements the codec's resource imports: a decoder's
// handle is its representation.
func providerHosts(w WorldSpec) []HostModule {
	same := func(_ context.Context, _ *Call, stack []uint64) error { return nil }
	return hostsFor(w, map[string]HostFunc{"[resource-new]decoder": same, "[resource-rep]decoder": same, "[resource-drop]decoder": same})
}

// providerTurn is BenchmarkEvalWarmProvider's turn (smith/bench_test.go)
// as the codec sees it: the plugin declares its providers, then two
// exchanges each build an Anthropic Messages request (the second carries
// the tool call and its result) and decode its recorded-format stream in
// 512-byte chunks, as the HTTP engine hands them over.
func providerTurn(ctx context.Context, in *Instance) error {
	if err := declare(ctx, in); err != nil {
		return err
	}
	for i, x := range turnExchanges {
		if err := buildRequest(ctx, in, x.document); err != nil {
			return fmt.Errorf("exchange %d: %w", i, err)
		}
		events, err := decodeStream(ctx, in, x.stream, 512)
		if err != nil {
			return fmt.Errorf("exchange %d: %w", i, err)
		}
		if events < 4 {
			return fmt.Errorf("exchange %d: the stream decoded into %d events, want at least 4", i, events)
		}
	}
	return nil
}

func buildRequest(ctx context.Context, in *Instance, document string) error {
	return in.Invoke(ctx, providerEx+"build-request", func(c *Call, params []uint64) error {
		params[6] = 1 // streaming
		return lowerStrings(c, params, "anthropic", "claude-loopback", document)
	}, resultOK("build-request", 4))
}

// decodeStream decodes stream in chunks of size bytes and returns the
// number of events, checking the last is a terminal done.
func decodeStream(ctx context.Context, in *Instance, stream string, size int) (int, error) {
	var rep uint64
	err := in.Invoke(ctx, providerEx+"[constructor]decoder", func(c *Call, params []uint64) error {
		if err := lowerStrings(c, params, "anthropic"); err != nil {
			return err
		}
		params[2] = 200
		return lowerStrings(c, params[3:], "text/event-stream")
	}, func(_ *Call, results []uint64) error {
		rep = results[0]
		return nil
	})
	if err != nil {
		return 0, err
	}
	events, last := 0, uint8(0)
	lift := func(what string) func(c *Call, results []uint64) error {
		ok := resultOK(what, 4)
		return func(c *Call, results []uint64) error {
			if err := ok(c, results); err != nil {
				return err
			}
			ret := uint32(results[0])
			ptr, err := c.ReadU32(ret + 4)
			if err != nil {
				return err
			}
			n, err := c.ReadU32(ret + 8)
			if err != nil {
				return err
			}
			if n > 0 {
				if last, err = c.ReadU8(ptr + (n-1)*104); err != nil {
					return err
				}
			}
			events += int(n)
			return nil
		}
	}
	for off := 0; off < len(stream); off += size {
		chunk := stream[off:min(off+size, len(stream))]
		if err := in.Invoke(ctx, providerEx+"[method]decoder.decode-chunk", func(c *Call, params []uint64) error {
			params[0] = rep
			return lowerStrings(c, params[1:], chunk)
		}, lift("decode-chunk")); err != nil {
			return events, err
		}
	}
	if err := in.Invoke(ctx, providerEx+"[method]decoder.finish", func(_ *Call, params []uint64) error {
		params[0] = rep
		return nil
	}, lift("finish")); err != nil {
		return events, err
	}
	if err := in.Invoke(ctx, providerEx+"[dtor]decoder", func(_ *Call, params []uint64) error {
		params[0] = rep
		return nil
	}, nil); err != nil {
		return events, err
	}
	const done = 7 // stream-event's case index
	if last != done {
		return events, fmt.Errorf("the stream's last event is case %d, want done (%d)", last, done)
	}
	return events, nil
}

// turnExchanges are the two exchanges of providerTurn.
var turnExchanges = func() []struct{ document, stream string } {
	tools := `[` +
		`{"name":"read","description":"Read a file's text, optionally a range of lines.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"The file to read."},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["path"]}},` +
		`{"name":"write","description":"Write a file, replacing its content.","parameters":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}},` +
		`{"name":"edit","description":"Replace exact text in a file.","parameters":{"type":"object","properties":{"path":{"type":"string"},"edits":{"type":"array","items":{"type":"object","properties":{"old_text":{"type":"string"},"new_text":{"type":"string"}}}}},"required":["path","edits"]}},` +
		`{"name":"bash","description":"Run a shell command in the project.","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"integer"}},"required":["command"]}},` +
		`{"name":"find","description":"Find files by glob.","parameters":{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}},"required":["pattern"]}},` +
		`{"name":"grep","description":"Search file contents.","parameters":{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"glob":{"type":"string"}},"required":["pattern"]}},` +
		`{"name":"ls","description":"List a directory.","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}]`
	system := strings.Repeat("You are Smith, a coding agent working in the user's project. Use the tools to read and change files. ", 12)
	user := `{"role":"user","content":[{"type":"text","text":"What does hello.txt say?"}]}`
	call := `{"role":"assistant","provider":"anthropic","model":"claude-loopback","response_id":"msg_1","content":[{"type":"text","text":"Reading it."},{"type":"tool_call","id":"toolu_1","name":"read","arguments_text":"{\"path\":\"hello.txt\"}"}]}`
	result := `{"role":"tool_result","call_id":"toolu_1","name":"read","content":[{"type":"text","text":"Hello from the benchmark!\n"}]}`
	doc := func(messages ...string) string {
		return `{"system":` + fmt.Sprintf("%q", system) + `,"messages":[` + strings.Join(messages, ",") + `],"tools":` + tools + `,"max_output_tokens":8192}`
	}
	return []struct{ document, stream string }{
		{doc(user), messagesStream("Reading it.", "toolu_1", "read", `{"path":"hello.txt"}`)},
		{doc(user, call, result), messagesStream("It says: Hello from the benchmark!", "", "", "")},
	}
}()

// messagesStream is an Anthropic Messages API stream in the recorded
// format: a text block, then a tool call if toolName is set.
func messagesStream(text, toolID, toolName, toolInput string) string {
	var b strings.Builder
	event := func(name, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	event("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-loopback","content":[],"stop_reason":null,"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":100,"output_tokens":1}}}`)
	event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for _, w := range strings.SplitAfter(text, " ") {
		event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}`, w))
	}
	event("content_block_stop", `{"type":"content_block_stop","index":0}`)
	stop := "end_turn"
	if toolName != "" {
		stop = "tool_use"
		event("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, toolID, toolName))
		event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":%q}}`, toolInput))
		event("content_block_stop", `{"type":"content_block_stop","index":1}`)
	}
	event("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q},"usage":{"output_tokens":7}}`, stop))
	event("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

// toolHosts implements the tools plugin's read-file import: every file
// holds helloText.
func toolHosts(w WorldSpec) []HostModule {
	return hostsFor(w, map[string]HostFunc{"read-file": func(_ context.Context, c *Call, stack []uint64) error {
		ptr, err := c.Alloc(uint32(len(helloText)), 1)
		if err != nil {
			return err
		}
		if err := c.WriteString(ptr, helloText); err != nil {
			return err
		}
		// result<file-text, file-fault>: the case at 0, file-text at 8.
		ret := uint32(stack[5])
		for _, f := range []struct{ at, v uint32 }{{0, 0}, {8, ptr}, {12, uint32(len(helloText))}, {16, 1}, {20, 0}} {
			if err := c.WriteU32(ret+f.at, f.v); err != nil {
				return err
			}
		}
		return nil
	}})
}

const helloText = "Hello from the benchmark!\n"

// toolTurn is BenchmarkEvalWarmRead's turn as the tools plugin sees it:
// the plugin declares its tools, then runs one read.
func toolTurn(ctx context.Context, in *Instance) error {
	if err := declare(ctx, in); err != nil {
		return err
	}
	return in.Invoke(ctx, toolEx, func(c *Call, params []uint64) error {
		if err := lowerStrings(c, params, "call_read", "read", `{"path":"hello.txt"}`); err != nil {
			return err
		}
		params[6] = 50 << 10
		return lowerStrings(c, params[7:], "/project")
	}, resultOK("invoke-tool", 4))
}

// TestSystemPluginTurns runs each system plugin's turn (interpreted: the
// optimizing compile of a codec takes seconds under -race), so the
// harness the benchmarks time is known to work.
func TestSystemPluginTurns(t *testing.T) {
	for _, name := range []string{"providers-anthropic", "tools"} {
		t.Run(name, func(t *testing.T) {
			sp := loadSysPlugin(t, name)
			e := newEngine(t, Config{tiers: tiersInterpreter})
			p, err := e.Compile(context.Background(), sp.artifact(), sp.config())
			if err != nil {
				t.Fatal(err)
			}
			_, in := acquire(t, p)
			defer in.Release()
			if err := sp.turn(context.Background(), in); err != nil {
				t.Fatal(err)
			}
		})
	}
}
