package main

import (
	"fmt"
	"os"
	"strings"
)

// hostLibs builds rustLibs for the host into dir (the native builds of
// the Rust tests link them) and returns the rustc flags that link them,
// one per line, for plugins-src/internal/rusttest.
func hostLibs(dir string) (string, error) {
	rustc, err := findRustc()
	if err != nil {
		return "", err
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("pluginbuild: %w", err)
	}
	root, err := repoRoot(wd)
	if err != nil {
		return "", err
	}
	if err := buildLibs(rustc, root, dir, "", "-C", "debuginfo=0", "-C", "opt-level=1"); err != nil {
		return "", err
	}
	return strings.Join(externs(dir, len(rustLibs)), "\n") + "\n", nil
}
