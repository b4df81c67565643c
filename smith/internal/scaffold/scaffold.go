package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/smith-agent/smith/wit"
)

//go:embed templates
var templates embed.FS

// Languages are the languages a package can be written in, sorted.
var Languages = []string{"go", "rust"}

// Data is what the templates are filled with.
type Data struct {
	// Name is the plugin's name (lowercase letters, digits and '-'); it is
	// also the command's name.
	Name string
	// Tool is the tool's name: Name with '-' as '_', then "_reverse".
	Tool string
	// Crate is Name with '-' as '_', the Rust crate's name.
	Crate string
	// World is the smith:plugin world version the package targets.
	World string
	// Go is the Go version of the go directive, the wit module's.
	Go string
}

// NewData returns the template data of the plugin name for world.
func NewData(name, world string) Data {
	crate := strings.ReplaceAll(name, "-", "_")
	return Data{Name: name, Tool: crate + "_reverse", Crate: crate, World: world, Go: goVersion()}
}

// goVersion is the version of the wit module's go directive: the module
// a Go package builds against needs at least it.
func goVersion() string {
	b, _ := wit.Sources.ReadFile("go.mod")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return "1.24"
}

// Write writes the package of d in lang into dir, which must not exist or
// be empty, and returns the files written, slash-separated and relative to
// dir, sorted. On an error it removes what it wrote.
func Write(dir, lang string, d Data) (files []string, err error) {
	if !slices.Contains(Languages, lang) {
		return nil, fmt.Errorf("language %q is not one of %s", lang, strings.Join(Languages, ", "))
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s already exists and is not empty", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	out := map[string][]byte{}
	for _, root := range []string{"templates/common", "templates/" + lang} {
		if err := fillTemplates(root, d, out); err != nil {
			return nil, err
		}
	}
	if err := vendorAPI(lang, out); err != nil {
		return nil, err
	}
	created := false
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		created = true
	}
	defer func() {
		if err != nil && created {
			_ = os.RemoveAll(dir)
		}
	}()
	for name, b := range out {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, b, mode); err != nil {
			return nil, err
		}
		files = append(files, name)
	}
	slices.Sort(files)
	return files, nil
}

// fillTemplates executes every template under root into out, keyed by its
// path below root without the .tmpl suffix.
func fillTemplates(root string, d Data, out map[string][]byte) error {
	return fs.WalkDir(templates, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		src, err := templates.ReadFile(p)
		if err != nil {
			return err
		}
		t, err := template.New(p).Delims("[[", "]]").Option("missingkey=error").Parse(string(src))
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := t.Execute(&b, d); err != nil {
			return err
		}
		out[strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), ".tmpl")] = b.Bytes()
		return nil
	})
}

// vendorAPI adds the copy of the plugin API lang builds against: for Go
// the wit module (its go.mod, WIT files, reference and bindings, without
// tests) under wit/; for Rust the bindings as src/smith_plugin.rs and the
// WIT files and reference under wit/.
func vendorAPI(lang string, out map[string][]byte) error {
	return fs.WalkDir(wit.Sources, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		var to string
		switch {
		case p == "rust/smith_plugin.rs":
			if lang == "rust" {
				to = "src/smith_plugin.rs"
			}
		case path.Ext(p) == ".wit" || p == "docs/reference.md":
			to = "wit/" + p
		case lang == "go" && !strings.HasSuffix(p, "_test.go"):
			to = "wit/" + p
		}
		if to == "" {
			return nil
		}
		b, err := wit.Sources.ReadFile(p)
		if err != nil {
			return err
		}
		out[to] = b
		return nil
	})
}
