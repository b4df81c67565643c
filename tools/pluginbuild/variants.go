package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// variantsFile names, beside a Rust crate's src/, the artifacts built
// from the crate when it is more than one: a line is an artifact name and
// the module of src/ the artifact registers (built with --cfg variant
// --cfg MODULE); # starts a comment. Without the file the crate is one
// artifact named after its directory.
const variantsFile = "variants"

// variant is one artifact of a crate's variants file.
type variant struct {
	name   string // the artifact's name
	module string // the cfg it is built with
}

var (
	variantName   = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	variantModule = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// readVariants returns the variants of the crate in dir, nil when it has
// no variants file. Every line names an artifact once and a module that
// exists under src/.
func readVariants(dir string) ([]variant, error) {
	path := filepath.Join(dir, variantsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: %w", err)
	}
	vs, err := parseVariants(path, string(b))
	if err != nil {
		return nil, err
	}
	for i, v := range vs {
		if !exists(filepath.Join(dir, "src", v.module, "mod.rs")) && !exists(filepath.Join(dir, "src", v.module+".rs")) {
			return nil, fmt.Errorf("pluginbuild: %s: variant %s: no module %q (src/%s/mod.rs or src/%s.rs); name a module of the crate", path, vs[i].name, v.module, v.module, v.module)
		}
	}
	return vs, nil
}

// parseVariants parses the text of the variants file at path.
func parseVariants(path, text string) ([]variant, error) {
	var vs []variant
	for i, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, i+1)
		switch {
		case len(f) != 2:
			return nil, fmt.Errorf("pluginbuild: %s: %q: a line is an artifact name and a module, separated by spaces", at, strings.TrimSpace(line))
		case !variantName.MatchString(f[0]):
			return nil, fmt.Errorf("pluginbuild: %s: artifact name %q: use lower-case letters, digits and single dashes (providers-anthropic)", at, f[0])
		case !variantModule.MatchString(f[1]) || f[1] == "variant":
			return nil, fmt.Errorf("pluginbuild: %s: module %q: name a module of src/ in lower case (anthropic, openai_chat)", at, f[1])
		}
		for _, v := range vs {
			if v.name == f[0] || v.module == f[1] {
				return nil, fmt.Errorf("pluginbuild: %s: %s %s repeats an artifact name or a module of an earlier line; each appears once", at, f[0], f[1])
			}
		}
		vs = append(vs, variant{name: f[0], module: f[1]})
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("pluginbuild: %s lists no artifact; list one per line, or remove the file to build the crate as one artifact", path)
	}
	return vs, nil
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
