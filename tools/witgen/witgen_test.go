package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.bytecodealliance.org/wit"
)

// repoRoot is the repository root, relative to this package's directory.
const repoRoot = "../.."

var (
	pluginOnce  sync.Once
	pluginModel *model
	pluginErr   error
)

// plugin loads the real smith:plugin world once per test run.
func plugin(t *testing.T) *model {
	t.Helper()
	pluginOnce.Do(func() {
		pluginModel, pluginErr = loadModel(filepath.Join(repoRoot, "wit"), "plugin", "core")
	})
	if pluginErr != nil {
		t.Fatal(pluginErr)
	}
	return pluginModel
}

// TestGeneratedFilesUpToDate regenerates every generation of the
// repository in memory and compares it with the committed files, docs
// included, so neither the bindings nor the reference can drift from the
// WIT.
func TestGeneratedFilesUpToDate(t *testing.T) {
	t.Chdir(repoRoot)
	for _, c := range repoConfigs {
		t.Run(c.world, func(t *testing.T) {
			if err := run(c, true); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestReferenceCoversWIT reads the committed reference and checks that it
// documents every interface, function and type of the WIT, with the WIT's
// own description.
func TestReferenceCoversWIT(t *testing.T) {
	m := plugin(t)
	ref, err := os.ReadFile(filepath.Join(repoRoot, "wit", "docs", "reference.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(ref)
	var want []string
	for _, in := range m.ifaces {
		want = append(want, "## interface "+in.name+"\n", firstSentence(in.wi.Docs.Contents))
		for _, f := range in.funcs {
			want = append(want, "### function "+f.Name+"\n", f.Name+": "+witSignature(f), firstSentence(f.Docs.Contents))
		}
		for _, td := range in.types {
			kind := map[string]string{"*wit.Record": "record", "*wit.Variant": "variant", "*wit.Enum": "enum", "*wit.Resource": "resource"}[typeKindName(td)]
			want = append(want, "### "+kind+" "+*td.Name+"\n", firstSentence(td.Docs.Contents))
		}
	}
	flat := strings.Join(strings.Fields(doc), " ")
	for _, w := range want {
		if !strings.Contains(doc, w) && !strings.Contains(flat, w) {
			t.Errorf("wit/docs/reference.md lacks %q; run scripts/gencheck.sh -write", w)
		}
	}
}

func typeKindName(td *wit.TypeDef) string {
	switch td.Kind.(type) {
	case *wit.Record:
		return "*wit.Record"
	case *wit.Variant:
		return "*wit.Variant"
	case *wit.Enum:
		return "*wit.Enum"
	case *wit.Resource:
		return "*wit.Resource"
	}
	return ""
}

// TestWorldLaws checks the spec's World surface laws that the WIT can
// express: capability interfaces separate from the core world, an
// `unknown` catch-all in shared variants and enums, options records last,
// verb-noun function names, typed faults per operation family.
func TestWorldLaws(t *testing.T) {
	m := plugin(t)
	caps := map[string]string{}
	for _, in := range m.ifaces {
		if in.capability != "" {
			caps[in.name] = in.capability
		}
	}
	for _, name := range []string{"fs", "process", "log", "http", "secrets", "ui", "vcs"} {
		if caps[name] != name {
			t.Errorf("interface %s: capability = %q; want %q (importable only when granted)", name, caps[name], name)
		}
	}
	for _, name := range []string{"types", "contrib", "tool", "provider", "handler", "prompt"} {
		if _, ok := caps[name]; ok {
			t.Errorf("interface %s is a capability; want it in the core world", name)
		}
	}
	verbs := []string{"declare", "invoke", "build", "classify", "decode", "finish", "handle", "read", "write", "edit", "list",
		"find", "search", "run", "send", "store", "check", "show", "request", "render", "transform",
		"compare", "undo", "redo", "restore", "take", "open"}
	for _, in := range m.ifaces {
		for _, td := range in.types {
			var cases []string
			switch k := td.Kind.(type) {
			case *wit.Variant:
				for _, c := range k.Cases {
					cases = append(cases, c.Name)
				}
			case *wit.Enum:
				for _, c := range k.Cases {
					cases = append(cases, c.Name)
				}
			default:
				continue
			}
			if !slices.Contains(cases, "unknown") {
				t.Errorf("%s.%s has no `unknown` catch-all case", in.name, *td.Name)
			}
		}
		for _, f := range in.funcs {
			if kind, _ := classify(f); kind == kindConstructor {
				continue
			}
			base := f.BaseName()
			verb, _, _ := strings.Cut(base, "-")
			if !slices.Contains(verbs, verb) {
				t.Errorf("%s.%s: %q is not a verb-noun name from the world's verbs", in.name, f.Name, base)
			}
			for i, p := range f.Params {
				if strings.HasSuffix(witType(p.Type), "-options") && i != len(f.Params)-1 {
					t.Errorf("%s.%s: options record %s is not the last parameter", in.name, f.Name, p.Name)
				}
			}
		}
	}
	if _, err := errorTypes(m); err != nil {
		t.Error(err)
	}
}

// loadTemp writes a WIT package to a temporary directory and loads world w.
func loadTemp(t *testing.T, src string) (*model, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "world.wit"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return loadModel(dir, "w", "")
}

func TestLawViolationsAreRefused(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(*model) error
		want  string
	}{
		{
			name: "missing-doc",
			src: `package test:law@0.0.0;
/// W.
world w { export api; }
/// API.
interface api {
  record r { a: u32 }
  /// Reads.
  read-r: func() -> r;
}`,
			check: checkDocs,
			want:  "api.r, api.r.a",
		},
		{
			name: "fault-without-catch-all",
			src: `package test:law@0.0.0;
world w { export api; }
interface api {
  variant read-fault { gone(string) }
  read-r: func() -> result<u32, read-fault>;
}`,
			check: func(m *model) error { _, err := errorTypes(m); return err },
			want:  "fault read-fault needs an `unknown(string)` catch-all case",
		},
		{
			name: "string-error",
			src: `package test:law@0.0.0;
world w { export api; }
interface api {
  read-r: func() -> result<u32, string>;
}`,
			check: func(m *model) error { _, err := errorTypes(m); return err },
			want:  "must be a named variant",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := loadTemp(t, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			err = tt.check(m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestUnsupportedTypesAreRefused(t *testing.T) {
	m, err := loadTemp(t, `package test:law@0.0.0;
/// W.
world w { export api; }
/// API.
interface api {
  /// Reads.
  read-pair: func() -> tuple<u32, string>;
}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate(config{witDir: "", world: "w"}.withModel(m, t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), "tuple is not supported; use a record") {
		t.Errorf("error = %v; want the tuple refused with the fix", err)
	}
}

func TestCoreSignature(t *testing.T) {
	m := plugin(t)
	find := func(iface, fn string) (*wit.Function, bool) {
		for _, in := range m.ifaces {
			if in.name != iface {
				continue
			}
			for _, f := range in.funcs {
				if f.Name == fn {
					return f, in.exported
				}
			}
		}
		t.Fatalf("%s.%s not found", iface, fn)
		return nil, false
	}
	tests := []struct {
		name, iface, fn string
		params, results string
	}{
		// Imports with a memory result take a trailing return pointer.
		{name: "import-retptr", iface: "fs", fn: "read-file", params: "(i32, i32, i32, i32, i64, i32)", results: "()"},
		// Flat scalar result.
		{name: "import-no-result", iface: "log", fn: "write-log", params: "(i32, i32, i32)", results: "()"},
		// Exports return a pointer to their result area.
		{name: "export-retptr", iface: "tool", fn: "invoke-tool", params: "(i32, i32, i32, i32, i32, i32, i32, i32, i32)", results: "(i32)"},
		// A resource method takes the rep first.
		{name: "method", iface: "provider", fn: "[method]decoder.finish", params: "(i32)", results: "(i32)"},
		{name: "constructor", iface: "provider", fn: "[constructor]decoder", params: "(i32, i32, i32, i32, i32)", results: "(i32)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, exported := find(tt.iface, tt.fn)
			p, r := coreSignature(f, exported)
			if coreList(p) != tt.params || coreList(r) != tt.results {
				t.Errorf("coreSignature = %s -> %s; want %s -> %s", coreList(p), coreList(r), tt.params, tt.results)
			}
		})
	}
}

func TestGoName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "simple", in: "read-file", want: "ReadFile"},
		{name: "initialism", in: "tool-call-id", want: "ToolCallID"},
		{name: "http", in: "http-method", want: "HTTPMethod"},
		{name: "escaped", in: "%type", want: "Type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := goName(tt.in); got != tt.want {
				t.Errorf("goName(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestGuestBindingsBuildForWasip1 type-checks and vets every generated
// guest package for the target they run on; the host-side gates never
// compile their wasip1 files.
func TestGuestBindingsBuildForWasip1(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "vet", "./...")
	cmd.Dir = filepath.Join(repoRoot, "wit")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=wasip1 go vet ./... in wit: %v\n%s", err, out)
	}
}

func TestWITType(t *testing.T) {
	m := plugin(t)
	got := map[string]string{}
	for _, in := range m.ifaces {
		for _, f := range in.funcs {
			got[in.name+"."+f.Name] = witSignature(f)
		}
	}
	tests := []struct{ name, fn, want string }{
		{name: "primitives", fn: "fs.write-file", want: "func(path: string, content: string, options: write-options) -> result<u64, file-fault>"},
		{name: "list-and-option", fn: "provider.classify-failure", want: "func(body: list<u8>, options: classify-options) -> failure"},
		{name: "empty-ok", fn: "secrets.store-secret", want: "func(name: string, value: string, options: store-options) -> result<_, secret-fault>"},
		{name: "constructor", fn: "provider.[constructor]decoder", want: "constructor(options: decode-options)"},
		{name: "no-result", fn: "log.write-log", want: "func(message: string, options: log-options)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got[tt.fn] != tt.want {
				t.Errorf("witSignature(%s) = %q; want %q", tt.fn, got[tt.fn], tt.want)
			}
		})
	}
}
