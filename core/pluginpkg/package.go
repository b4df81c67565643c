package pluginpkg

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/calico32/kdl-go"

	"github.com/smith-agent/smith/core/internal/bytesize"
)

// Read bounds, checked by stat before anything is read (and again while
// reading, in case the file grows).
const (
	MaxManifest = 64 << 10
	MaxArtifact = 64 << 20
)

// wasmMagic starts every core WebAssembly module: "\0asm", version 1.
var wasmMagic = []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}

// Package is a plugin package read from disk.
type Package struct {
	// Dir is the package directory, canonical (absolute, symbolic links
	// resolved).
	Dir string
	// Manifest is its validated manifest and ManifestText its bytes.
	Manifest     Manifest
	ManifestText []byte
	// ArtifactPath is the artifact's canonical path, inside Dir.
	ArtifactPath string
	// Wasm is the artifact's bytes.
	Wasm []byte
}

// Canonical returns dir absolute with its symbolic links resolved, or an
// error when it is not a directory.
func Canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("plugin package %s does not exist; pass the directory holding plugin.kdl", dir)
	}
	st, err := os.Stat(real)
	if err != nil || !st.IsDir() {
		return "", fmt.Errorf("plugin package %s is not a directory; pass the directory holding plugin.kdl (or a .wasm file to install)", dir)
	}
	return real, nil
}

// OpenPackage reads and validates the package at dir: its manifest and
// its artifact, both within the package directory once symbolic links are
// resolved, within the read bounds, the artifact a WebAssembly module.
func OpenPackage(dir string) (*Package, error) {
	root, err := Canonical(dir)
	if err != nil {
		return nil, err
	}
	mpath, err := inside(root, ManifestFile)
	if err != nil {
		return nil, err
	}
	text, err := readBounded(mpath, MaxManifest, "manifest")
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(mpath, text)
	if err != nil {
		return nil, err
	}
	apath, err := inside(root, m.Artifact)
	if err != nil {
		return nil, err
	}
	wasm, err := ReadArtifact(apath)
	if err != nil {
		return nil, err
	}
	return &Package{Dir: root, Manifest: m, ManifestText: text, ArtifactPath: apath, Wasm: wasm}, nil
}

// inside resolves rel (slash-separated) under root, following symbolic
// links, and refuses a path that ends up outside root.
func inside(root, rel string) (string, error) {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist; the package directory %s must hold it", p, root)
	}
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", p, err)
	}
	if r, err := filepath.Rel(root, real); err != nil || !filepath.IsLocal(r) {
		return "", fmt.Errorf("%s resolves to %s, outside the package directory %s; copy the file into the package instead of linking to it", p, real, root)
	}
	return real, nil
}

// readBounded reads the regular file path, refusing one larger than max
// before reading it.
func readBounded(path string, max int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the %s: %w", what, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot stat the %s %s: %w", what, path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("the %s %s is not a regular file; it must be one", what, path)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("the %s %s is %d bytes, more than the %d allowed; it cannot be a plugin's %s", what, path, st.Size(), max, what)
	}
	// One allocation of the size stat gave; a file that changes size
	// while it is read is refused.
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("cannot read the %s %s (did it change while it was read?): %w", what, path, err)
	}
	if n, _ := f.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("the %s %s grew while it was read; try again once it is written", what, path)
	}
	return b, nil
}

// ReadArtifact reads the artifact at path, within [MaxArtifact], and
// checks it starts with the WebAssembly magic.
func ReadArtifact(path string) ([]byte, error) {
	b, err := readBounded(path, MaxArtifact, "artifact")
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, wasmMagic) {
		return nil, fmt.Errorf("the artifact %s is not a WebAssembly module (it does not start with \\0asm version 1); build the plugin for wasm, such as GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared", path)
	}
	return b, nil
}

// FormatManifest writes m as plugin.kdl text (for a bare .wasm install).
func FormatManifest(m Manifest) []byte {
	var b strings.Builder
	q := func(s string) string { return `"` + kdl.EscapeString(s, kdl.Version2) + `"` }
	fmt.Fprintf(&b, "name %s\nversion %s\nworld %s\nartifact %s\n", q(m.Name), q(m.Version), q(m.World), q(m.Artifact))
	for _, c := range m.Capabilities {
		if c == "secrets" {
			b.WriteString("capability \"secrets\" {\n")
			for _, s := range m.Stores {
				fmt.Fprintf(&b, "    store %s\n", q(s))
			}
			b.WriteString("}\n")
			continue
		}
		if c != "http" {
			fmt.Fprintf(&b, "capability %s\n", q(c))
			continue
		}
		b.WriteString("capability \"http\" {\n")
		for _, u := range m.Network {
			fmt.Fprintf(&b, "    allow %s\n", q(u))
		}
		for _, s := range m.Secrets {
			fmt.Fprintf(&b, "    secret %s\n", q(s))
		}
		b.WriteString("}\n")
	}
	if m.Timeout > 0 {
		fmt.Fprintf(&b, "timeout %s\n", q(m.Timeout.String()))
	}
	if m.Memory > 0 {
		fmt.Fprintf(&b, "memory %s\n", q(bytesize.Format(m.Memory)))
	}
	return []byte(b.String())
}
