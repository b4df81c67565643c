// Package testworld is the sandbox the frontends' tests run Smith in: a
// project directory and a Smith home holding nothing of the real user's,
// mock scripts written into the project, and a runtime over them with the
// embedded system plugins. It is for tests only.
//
// # Concurrency
//
// A World belongs to one test; distinct Worlds may be used in parallel
// (they share only the plugin compile cache, which is safe for that).
package testworld

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
)

// World is one test's project and Smith home, both in its temp directory.
type World struct {
	TB            testing.TB
	Project, Home string
	// Cache is the plugin compile cache (XDG_CACHE_HOME), shared by the
	// Worlds of one package so plugins compile once.
	Cache string
	// Flags are configuration flags Open adds to the model's (such as
	// "permission-mode").
	Flags map[string]string
	// Answers makes Open's runtime let a person answer confirmations
	// (runtime.Config.Answers), as the interactive mode's does.
	Answers bool
}

// New makes a World; cache names the package's compile cache directory
// under os.TempDir().
func New(tb testing.TB, cache string) *World {
	tb.Helper()
	root := tb.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	w := &World{TB: tb, Project: filepath.Join(root, "project"), Home: filepath.Join(root, "home"), Cache: filepath.Join(os.TempDir(), cache)}
	for _, d := range []string{w.Project, w.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return w
}

// Script writes a mock script into the project and returns the --model
// value selecting it.
func (w *World) Script(body string) string {
	w.TB.Helper()
	p := filepath.Join(w.Project, fmt.Sprintf("script-%d.json", time.Now().UnixNano()))
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		w.TB.Fatal(err)
	}
	return "mock/" + p
}

// Open opens a runtime over the World with model; plugins loads the
// system plugins (the tools, the product plugin's commands and
// presentation). The test's cleanup closes it.
func (w *World) Open(model string, plugins bool) *runtime.Runtime {
	w.TB.Helper()
	var arts []plugin.Artifact
	if plugins {
		var err error
		if arts, err = sysplugins.Artifacts(); err != nil {
			w.TB.Fatal(err)
		}
	}
	env := map[string]string{"HOME": filepath.Join(w.Home, "user"), "XDG_CACHE_HOME": w.Cache}
	flags := map[string]string{"model": model}
	for k, v := range w.Flags {
		flags[k] = v
	}
	rt, err := runtime.Open(context.Background(), runtime.Config{Cwd: w.Project, Home: w.Home, Flags: flags, Answers: w.Answers,
		Plugins: arts, Version: "test", LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		w.TB.Fatal(err)
	}
	w.TB.Cleanup(func() { _ = rt.Close(context.Background()) })
	return rt
}
