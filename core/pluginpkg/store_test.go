package pluginpkg_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/pluginpkg"
)

// install installs the shout package under name into a store in data.
func install(t testing.TB, h *plugin.Host, s *pluginpkg.Store, name string) pluginpkg.Grant {
	t.Helper()
	dir := writePackage(t, strings.Replace(shoutManifest, `"shout"`, `"`+name+`"`, 1)+"capability \"fs\"\ntimeout \"5s\"\nmemory \"128MiB\"\n", "shout.wasm", shout(t))
	pkg, err := pluginpkg.OpenPackage(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := pluginpkg.Register(context.Background(), h, nil, pkg.Artifact())
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := s.Install(pkg, reg, []string{"tools"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func openHost(t testing.TB) *plugin.Host {
	t.Helper()
	shout(t) // makes buildDir, where the compile cache is shared
	h, err := plugin.Open(context.Background(), plugin.Config{CacheDir: filepath.Join(buildDir, "cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

func TestStoreRoundTrip(t *testing.T) {
	h := openHost(t)
	s := pluginpkg.NewStore(t.TempDir())
	g := install(t, h, s, "shout")
	if g.Name != "shout" || !g.Enabled || len(g.SHA256) != 64 || strings.Join(g.Capabilities, ",") != "fs" || g.Timeout != "5s" || g.Memory != 128<<20 {
		t.Fatalf("grant %+v", g)
	}
	es, notes, err := s.List()
	if err != nil || len(es) != 1 || len(notes) != 0 {
		t.Fatalf("List: %+v %v %v", es, notes, err)
	}
	if e := es[0]; e.Status != pluginpkg.StatusEnabled || e.Tier != pluginpkg.TierUser || strings.Join(e.Contributions.Tools, ",") != "shout" {
		t.Fatalf("entry %+v", e)
	}
	cands, notes := s.Candidates()
	if len(cands) != 1 || len(notes) != 0 || cands[0].Artifact.SHA256 != g.SHA256 || len(cands[0].Artifact.Registration) == 0 || cands[0].Artifact.MemoryPages != 2048 {
		t.Fatalf("Candidates: %+v %v", cands, notes)
	}
	// The candidate loads and its tool runs.
	gen, err := h.Load(context.Background(), []plugin.Artifact{cands[0].Artifact})
	if err != nil {
		t.Fatal(err)
	}
	if tools := gen.Tools(); len(tools) != 1 || tools[0].Name != "shout" {
		t.Fatalf("tools %+v", tools)
	}
	gen.Close()

	if _, err := s.SetEnabled("shout", false); err != nil {
		t.Fatal(err)
	}
	if cands, _ := s.Candidates(); len(cands) != 0 {
		t.Fatal("a disabled plugin is a candidate")
	}
	if e, err := s.Info("shout"); err != nil || e.Status != pluginpkg.StatusDisabled {
		t.Fatalf("Info: %+v %v", e, err)
	}
	if _, err := s.SetEnabled("shout", true); err != nil {
		t.Fatal(err)
	}
	// Reinstalling replaces the package.
	install(t, h, s, "shout")
	if es, _, _ := s.List(); len(es) != 1 {
		t.Fatalf("reinstall: %+v", es)
	}
	if err := s.Remove("shout"); err != nil {
		t.Fatal(err)
	}
	if es, _, _ := s.List(); len(es) != 0 {
		t.Fatalf("after remove: %+v", es)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "shout")); !os.IsNotExist(err) {
		t.Fatalf("the package directory stays: %v", err)
	}
	if err := s.Remove("shout"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("remove twice: %v", err)
	}
	if _, err := s.SetEnabled("nope", true); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("enable unknown: %v", err)
	}
}

func TestInstallRefusesReserved(t *testing.T) {
	s := pluginpkg.NewStore(t.TempDir())
	pkg, err := pluginpkg.OpenPackage(writePackage(t, strings.Replace(shoutManifest, `"shout"`, `"tools"`, 1), "shout.wasm", fakeWasm))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Install(pkg, nil, []string{"tools"}); err == nil || !strings.Contains(err.Error(), "embedded in Smith") {
		t.Fatalf("error %v", err)
	}
}

func TestChangedArtifactRefused(t *testing.T) {
	h := openHost(t)
	s := pluginpkg.NewStore(t.TempDir())
	install(t, h, s, "shout")
	art := filepath.Join(s.Dir, "shout", "shout.wasm")
	b := append([]byte(nil), shout(t)...)
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(art, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cands, notes := s.Candidates()
	if len(cands) != 0 || len(notes) != 1 || !strings.Contains(notes[0], `"shout"`) || !strings.Contains(notes[0], "changed since it was installed") ||
		!strings.Contains(notes[0], "smith plugin install PATH") {
		t.Fatalf("Candidates: %d, notes %q", len(cands), notes)
	}
	if e, _ := s.Info("shout"); e.Status != pluginpkg.StatusChanged || !strings.Contains(e.Problem, "smith plugin install PATH") {
		t.Fatalf("Info %+v", e)
	}
}

func TestInterruptedInstall(t *testing.T) {
	h := openHost(t)
	s := pluginpkg.NewStore(t.TempDir())
	// What a crash between the copy and the rename leaves, and a package
	// directory whose grant was never recorded.
	if err := os.MkdirAll(filepath.Join(s.Dir, ".install-shout-123", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(s.Dir, "half"), 0o755); err != nil {
		t.Fatal(err)
	}
	es, notes, err := s.List()
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "interrupted install") {
		t.Fatalf("List notes %q %v", notes, err)
	}
	if len(es) != 1 || es[0].Status != pluginpkg.StatusIncomplete {
		t.Fatalf("List %+v", es)
	}
	if cands, _ := s.Candidates(); len(cands) != 0 {
		t.Fatal("an incomplete package is a candidate")
	}
	install(t, h, s, "shout")
	if left := s.Leftovers(); len(left) != 0 {
		t.Fatalf("install left %v", left)
	}
	if err := s.Remove("half"); err != nil {
		t.Fatal(err)
	}
}

func TestSelectConflicts(t *testing.T) {
	h := openHost(t)
	s := pluginpkg.NewStore(t.TempDir())
	install(t, h, s, "shout")
	install(t, h, s, "shout-two")
	cands, notes := s.Candidates()
	if len(cands) != 2 || len(notes) != 0 {
		t.Fatalf("%d candidates, %q", len(cands), notes)
	}
	arts, notes := pluginpkg.Select(nil, cands, nil)
	if len(arts) != 1 || arts[0].Name != "shout" || len(notes) != 1 {
		t.Fatalf("Select: %d artifacts, notes %q", len(arts), notes)
	}
	for _, w := range []string{`tool "shout" is declared by both "shout" and "shout-two"`, "smith plugin disable NAME", "user plugin"} {
		if !strings.Contains(notes[0], w) {
			t.Errorf("note lacks %q: %s", w, notes[0])
		}
	}
	// What Select keeps loads as one set.
	gen, err := h.Load(context.Background(), arts)
	if err != nil {
		t.Fatal(err)
	}
	gen.Close()
	// core/plugin itself refuses both, naming both.
	if _, err := h.Load(context.Background(), []plugin.Artifact{cands[0].Artifact, cands[1].Artifact}); err == nil ||
		!strings.Contains(err.Error(), `"shout" and "shout-two"`) {
		t.Fatalf("Load both: %v", err)
	}
	// A name taken by a system plugin is skipped too.
	sys := []plugin.Artifact{{Name: "shout"}}
	if arts, notes := pluginpkg.Select(sys, cands[:1], nil); len(arts) != 0 || len(notes) != 1 || !strings.Contains(notes[0], "already loaded") {
		t.Fatalf("Select over sys: %v %q", arts, notes)
	}
	// A candidate without a registration is registered by the callback.
	c := cands[0]
	c.Artifact.Registration = nil
	called := false
	arts, notes = pluginpkg.Select(nil, []pluginpkg.Candidate{c}, func(a plugin.Artifact) ([]byte, error) {
		called = true
		return pluginpkg.Register(context.Background(), h, nil, a)
	})
	if !called || len(arts) != 1 || len(notes) != 0 || len(arts[0].Registration) == 0 {
		t.Fatalf("Select with register: %v %q", arts, notes)
	}
}

func TestProjectCandidates(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".smith", "plugins", "shout")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin.kdl"), []byte(shoutManifest+"capability \"fs\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shout.wasm"), fakeWasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".smith", "plugins", "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	cands, notes := pluginpkg.ProjectCandidates(root)
	if len(cands) != 1 || cands[0].Tier != pluginpkg.TierProject || strings.Join(cands[0].Artifact.Grants, ",") != "fs" {
		t.Fatalf("candidates %+v", cands)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "broken") {
		t.Fatalf("notes %q", notes)
	}
}

// BenchmarkLoadUserPlugin is what one small installed plugin adds to a
// warm start: reading grants.json, the artifact and its registration
// (Candidates), the conflict check (Select) and core/plugin's Load of it
// from that registration (nothing compiles or hashes).
func BenchmarkLoadUserPlugin(b *testing.B) {
	h := openHost(b)
	s := pluginpkg.NewStore(b.TempDir())
	install(b, h, s, "shout")
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		cands, notes := s.Candidates()
		arts, sn := pluginpkg.Select(nil, cands, nil)
		if len(arts) != 1 || len(notes)+len(sn) != 0 {
			b.Fatal(notes, sn)
		}
		gen, err := h.Load(ctx, arts)
		if err != nil {
			b.Fatal(err)
		}
		gen.Close()
	}
}
