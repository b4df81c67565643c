package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/pluginpkg"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
	"github.com/smith-agent/smith/wasmhost"
	"github.com/urfave/cli/v3"
)

func pluginCommand() *cli.Command {
	outputFlag := &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "table", Usage: "output `FORMAT`: table or json"}
	return &cli.Command{
		Name:  "plugin",
		Usage: "install, list and remove your own WebAssembly plugins",
		Description: "A plugin package is a directory holding plugin.kdl (name, version, world, artifact,\n" +
			"capability, timeout) and the .wasm artifact it names. Installing copies it to\n" +
			"DATA/plugins/NAME and records what it is granted (the capabilities its manifest requests)\n" +
			"and its artifact's SHA-256 in DATA/plugins/grants.json; a changed artifact is never run.\n" +
			"A project's .smith/plugins/NAME packages load only in a trusted project; --plugin DIR\n" +
			"trusts one package for one run.",
		Commands: []*cli.Command{
			{Name: "install", Usage: "install a plugin package (a directory with plugin.kdl), or a bare .wasm described by flags; prints what it grants",
				ArgsUsage: "PATH",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "name", Usage: "the plugin's `NAME`, for a bare .wasm (default: the file name)"},
					&cli.StringFlag{Name: "version", Usage: "the plugin's `VERSION`, for a bare .wasm", Value: "0.0.0"},
					&cli.StringSliceFlag{Name: "capability", Usage: "grant `CAP` (" + strings.Join(pluginpkg.Capabilities, ", ") + "), for a bare .wasm; repeatable"},
					&cli.StringSliceFlag{Name: "store", Usage: "a secret `NAME` the secrets capability may store and check, for a bare .wasm; repeatable"},
					&cli.StringSliceFlag{Name: "allow", Usage: "a `URL` prefix the http capability may reach, for a bare .wasm; repeatable"},
					&cli.StringSliceFlag{Name: "secret", Usage: "a registered secret `NAME` the http capability's request headers may carry as ${secret:NAME}, for a bare .wasm; repeatable"},
					&cli.StringFlag{Name: "timeout", Usage: "the budget hint of one call, such as 10s, for a bare .wasm"},
				},
				Action: pluginInstall},
			{Name: "list", Usage: "list the plugins: name, version, tier, status, grants and contributions", Flags: []cli.Flag{outputFlag}, Action: pluginList},
			{Name: "info", Usage: "show one installed plugin", ArgsUsage: "NAME", Flags: []cli.Flag{outputFlag}, Action: pluginInfo},
			{Name: "enable", Usage: "load an installed plugin again", ArgsUsage: "NAME", Action: func(ctx context.Context, cmd *cli.Command) error { return pluginEnable(cmd, true) }},
			{Name: "disable", Usage: "keep an installed plugin but stop loading it", ArgsUsage: "NAME", Action: func(ctx context.Context, cmd *cli.Command) error { return pluginEnable(cmd, false) }},
			{Name: "remove", Usage: "uninstall a plugin and forget its grant", ArgsUsage: "NAME", Action: pluginRemove},
			pluginCheckCommand(),
			pluginNewCommand(),
			pluginLogCommand(),
		},
	}
}

// pluginFlag is the global --plugin flag.
func pluginFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "plugin", Usage: "load the plugin package `DIR` for this run only, granted what its plugin.kdl requests (not recorded); repeatable"}
}

// pluginStore is the user's plugin store under Smith's data directory.
func pluginStore(cmd *cli.Command) (*pluginpkg.Store, runtime.Paths, error) {
	p, err := paths(cmd)
	if err != nil {
		return nil, runtime.Paths{}, err
	}
	return pluginpkg.NewStore(p.Data), p, nil
}

// onePluginName returns the single NAME argument.
func onePluginName(cmd *cli.Command) (string, error) {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return "", usageErrorf("%s: expected one plugin name, got %d arguments; such as `smith %s shout` (smith plugin list shows the names)", cmdName(cmd), len(args), cmdName(cmd))
	}
	if err := pluginpkg.ValidName(args[0]); err != nil {
		return "", usageErrorf("%s: %v", cmdName(cmd), err)
	}
	return args[0], nil
}

// storeError makes "not installed" a usage error.
func storeError(cmd *cli.Command, err error) error {
	if errors.Is(err, pluginpkg.ErrNotInstalled) {
		return usageErrorf("%s: %v", cmdName(cmd), err)
	}
	return fmt.Errorf("%s: %w", cmdName(cmd), err)
}

func pluginInstall(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return usageErrorf("plugin install: expected one PATH, got %d arguments; such as `smith plugin install ./shout` (a directory holding plugin.kdl)", len(args))
	}
	pkg, err := installPackage(cmd, args[0])
	if err != nil {
		return err
	}
	store, p, err := pluginStore(cmd)
	if err != nil {
		return err
	}
	sys, err := sysplugins.Artifacts()
	if err != nil {
		return err
	}
	if slices.Contains(sysplugins.Names(), pkg.Manifest.Name) {
		return usageErrorf("plugin install: plugin name %q is the name of a plugin embedded in Smith; choose another name", pkg.Manifest.Name)
	}
	if err := worldFindings(cmd, pkg); err != nil {
		return err
	}
	h, err := plugin.Open(ctx, plugin.Config{CacheDir: p.Cache})
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	a := pkg.Artifact()
	reg, err := pluginpkg.Register(ctx, h, sys, a)
	if err != nil {
		return usageErrorf("plugin install: %s was not installed: %s", pkg.Dir, strings.TrimPrefix(err.Error(), "plugin: "))
	}
	a.Registration = reg
	// The other installed plugins must still load beside it.
	others, _ := store.Candidates()
	others = slices.DeleteFunc(others, func(c pluginpkg.Candidate) bool { return c.Artifact.Name == a.Name })
	if _, notes := pluginpkg.Select(sys, append(others, pluginpkg.Candidate{Tier: pluginpkg.TierUser, Source: pkg.Dir, Artifact: a}), nil); len(notes) > 0 {
		why := notes[0]
		if _, after, ok := strings.Cut(why, "): "); ok {
			why = after
		}
		return usageErrorf("plugin install: %s was not installed: %s", pkg.Dir, why)
	}
	g, notes, err := store.Install(pkg, reg, sysplugins.Names())
	for _, n := range notes {
		fmt.Fprintf(cmd.Root().ErrWriter, "smith: %s\n", n)
	}
	if err != nil {
		return fmt.Errorf("plugin install: %w", err)
	}
	c, _ := pluginpkg.ContributionsOf(reg)
	w := cmd.Root().Writer
	fmt.Fprintf(w, "installed plugin %s %s from %s into %s\n", g.Name, g.Version, pkg.Dir, filepath.Join(store.Dir, g.Name))
	fmt.Fprintf(w, "  artifact     %s (SHA-256 %s)\n", g.Artifact, g.SHA256)
	printGrants(w, "  ", g)
	fmt.Fprintf(w, "  contributes  %s\n", contribText(c))
	fmt.Fprintf(w, "Every smith run loads it from now on; `smith plugin disable %s` stops that, `smith plugin remove %s` uninstalls it.\n", g.Name, g.Name)
	return nil
}

// worldFindings refuses a package that uses removed or unknown items of
// the world, with the migration (smith plugin check's findings), and
// warns of the deprecated items it uses.
func worldFindings(cmd *cli.Command, pkg *pluginpkg.Package) error {
	s, err := wasmhost.ReadSurface(pkg.Wasm)
	if err != nil {
		return usageErrorf("plugin install: %s: %v", pkg.ArtifactPath, strings.TrimPrefix(err.Error(), "wasmhost: "))
	}
	fs := pluginpkg.CheckSurface(s)
	for _, f := range fs {
		if f.Kind != pluginpkg.FindingDeprecated {
			return usageErrorf("plugin install: %s was not installed: %s %s: %s; %s ('smith plugin check %s' lists every such item)", pkg.Dir, f.Kind, f.Item, f.Text, f.Fix, pkg.Dir)
		}
	}
	for _, f := range fs {
		fmt.Fprintf(cmd.Root().ErrWriter, "smith: warning: plugin %s uses %s, %s: %s; 'smith doctor deprecator %s' asks the agent to migrate it\n",
			pkg.Manifest.Name, f.Item, f.Text, f.Fix, pkg.Dir)
	}
	return nil
}

// installPackage reads PATH: a package directory, or a bare .wasm
// described by the install flags.
func installPackage(cmd *cli.Command, path string) (*pluginpkg.Package, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, usageErrorf("plugin install: %s does not exist; pass a package directory (holding plugin.kdl) or a .wasm file", path)
	}
	bareFlags := []string{"name", "capability", "allow", "secret", "timeout"}
	if st.IsDir() {
		for _, f := range append(bareFlags, "version") {
			if cmd.IsSet(f) {
				return nil, usageErrorf("plugin install: --%s describes a bare .wasm, but %s is a package directory, whose plugin.kdl says that; edit plugin.kdl or drop --%s", f, path, f)
			}
		}
		pkg, err := pluginpkg.OpenPackage(path)
		if err != nil {
			return nil, usageErrorf("plugin install: %v", err)
		}
		return pkg, nil
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, usageErrorf("plugin install: cannot resolve %s: %v", path, err)
	}
	wasm, err := pluginpkg.ReadArtifact(abs)
	if err != nil {
		return nil, usageErrorf("plugin install: %v", err)
	}
	base := filepath.Base(abs)
	name := cmd.String("name")
	if name == "" {
		name = strings.TrimSuffix(base, ".wasm")
	}
	m := pluginpkg.Manifest{Name: name, Version: cmd.String("version"), World: plugin.WorldVersion, Artifact: base,
		Capabilities: cmd.StringSlice("capability"), Network: cmd.StringSlice("allow"), Secrets: cmd.StringSlice("secret"), Stores: cmd.StringSlice("store")}
	if t := cmd.String("timeout"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			return nil, usageErrorf("plugin install: --timeout %q is not a duration; such as --timeout 10s", t)
		}
		m.Timeout = d
	}
	if (len(m.Network) > 0 || len(m.Secrets) > 0) && !slices.Contains(m.Capabilities, "http") {
		return nil, usageErrorf("plugin install: --allow and --secret need --capability http; add it")
	}
	if len(m.Stores) > 0 != slices.Contains(m.Capabilities, "secrets") {
		return nil, usageErrorf("plugin install: --capability secrets and --store NAME go together: name each secret the plugin may store with --store")
	}
	text := pluginpkg.FormatManifest(m)
	// The flags are checked as the manifest they make, by the same rules.
	if m, err = pluginpkg.ParseManifest("(the install flags)", text); err != nil {
		return nil, usageErrorf("plugin install: %s\n(for a bare .wasm the flags are its manifest: --name, --version, --capability, --allow, --secret, --timeout)", err)
	}
	return &pluginpkg.Package{Dir: filepath.Dir(abs), Manifest: m, ManifestText: text, ArtifactPath: abs, Wasm: wasm}, nil
}

// grantText renders granted capabilities.
func grantText(caps []string) string {
	if len(caps) == 0 {
		return "nothing (pure computation)"
	}
	return strings.Join(caps, ", ")
}

// contribText renders contributions.
func contribText(c pluginpkg.Contributions) string {
	var parts []string
	for _, k := range []struct {
		kind  string
		names []string
	}{{"tools", c.Tools}, {"commands", c.Commands}, {"prompts", c.Prompts}, {"context transforms", c.ContextTransforms}, {"providers", c.Providers}} {
		if len(k.names) > 0 {
			parts = append(parts, k.kind+": "+strings.Join(k.names, ", "))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

// systemEntries are the embedded plugins as list shows them.
func systemEntries() []pluginpkg.Entry {
	arts, err := sysplugins.Artifacts()
	if err != nil {
		return nil
	}
	var out []pluginpkg.Entry
	for _, a := range arts {
		c, _ := pluginpkg.ContributionsOf(a.Registration)
		caps := a.Grants
		if caps == nil {
			caps = []string{}
		}
		out = append(out, pluginpkg.Entry{Grant: pluginpkg.Grant{Name: a.Name, Version: version, SHA256: a.SHA256, Capabilities: caps, Enabled: true},
			Tier: "system", Status: pluginpkg.StatusEnabled, Contributions: c})
	}
	return out
}

func pluginList(ctx context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "table", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErrorf("plugin list: takes no arguments, got %q", cmd.Args().First())
	}
	store, _, err := pluginStore(cmd)
	if err != nil {
		return err
	}
	user, notes, err := store.List()
	if err != nil {
		return fmt.Errorf("plugin list: %w", err)
	}
	for _, n := range notes {
		fmt.Fprintf(cmd.Root().ErrWriter, "smith: %s\n", n)
	}
	all := append(systemEntries(), user...)
	all = append(all, runEntries(ctx, cmd)...)
	w := cmd.Root().Writer
	if output == "json" {
		return writeJSON(w, all)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tTIER\tSTATUS\tGRANTS\tCONTRIBUTES")
	for _, e := range all {
		grants := grantText(e.Capabilities)
		if len(e.Capabilities) == 0 {
			grants = "-"
		}
		if len(e.Network) > 0 {
			grants += " (" + strings.Join(e.Network, " ") + ")"
		}
		if len(e.Secrets) > 0 {
			grants += " secrets " + strings.Join(e.Secrets, " ")
		}
		if len(e.Stores) > 0 {
			grants += " stores " + strings.Join(e.Stores, " ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, orDash(e.Version), e.Tier, e.Status, grants, contribText(e.Contributions))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, e := range all {
		if e.Problem != "" {
			fmt.Fprintf(cmd.Root().ErrWriter, "smith: plugin %s: %s\n", e.Name, e.Problem)
		}
	}
	return nil
}

// runEntries are the plugins this run loads beside the installed ones:
// a trusted project's (tier project) and --plugin packages (tier flag),
// with the contributions their registration declares. One that does not
// load is listed with the reason.
func runEntries(ctx context.Context, cmd *cli.Command) []pluginpkg.Entry {
	cwd, _ := os.Getwd()
	p, err := runtime.LocatePaths(cmd.String("home"), os.Getenv)
	if err != nil {
		return nil
	}
	flags := givenFlags(cmd)
	var pkgs []pluginpkg.Entry
	add := func(dir, tier string) {
		pkg, err := pluginpkg.OpenPackage(dir)
		if err != nil {
			pkgs = append(pkgs, pluginpkg.Entry{Grant: pluginpkg.Grant{Name: filepath.Base(dir)}, Tier: tier, Status: "invalid", Dir: dir, Problem: err.Error()})
			return
		}
		m := pkg.Manifest
		a := pkg.Artifact()
		pkgs = append(pkgs, pluginpkg.Entry{Grant: pluginpkg.Grant{Name: m.Name, Version: m.Version, Artifact: m.Artifact, SHA256: a.SHA256,
			Size: int64(len(pkg.Wasm)), Capabilities: m.Capabilities, Network: m.Network, Secrets: m.Secrets, Stores: m.Stores, Enabled: true, Source: pkg.Dir},
			Tier: tier, Status: pluginpkg.StatusEnabled, Dir: pkg.Dir})
	}
	if root := projectPluginRoot(cwd); root != "" && projectTrusted(p, cwd, root, flags) {
		ents, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(pluginpkg.ProjectPlugins)))
		for _, e := range ents {
			if e.IsDir() {
				add(filepath.Join(root, filepath.FromSlash(pluginpkg.ProjectPlugins), e.Name()), pluginpkg.TierProject)
			}
		}
	}
	for _, dir := range cmd.StringSlice("plugin") {
		add(dir, pluginpkg.TierFlag)
	}
	if len(pkgs) == 0 {
		return nil
	}
	// What loads, and what each contributes, is what a run would load.
	sys, err := sysplugins.Artifacts()
	if err != nil {
		return pkgs
	}
	var skipped []string
	loaded, err := extraPlugins(ctx, cmd, cwd, flags, sys, func(n string) { skipped = append(skipped, n) })
	if err != nil {
		return pkgs
	}
	for i := range pkgs {
		e := &pkgs[i]
		if e.Problem != "" {
			continue
		}
		e.Status, e.Problem = "skipped", "not loaded beside the other plugins; smith eval prints why"
		for _, n := range skipped {
			if strings.Contains(n, strconv.Quote(e.Name)) {
				e.Problem = n
			}
		}
		for _, a := range loaded {
			if a.Name == e.Name && a.SHA256 == e.SHA256 {
				e.Status, e.Problem = pluginpkg.StatusEnabled, ""
				e.Contributions, _ = pluginpkg.ContributionsOf(a.Registration)
			}
		}
	}
	return pkgs
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func pluginInfo(_ context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "table", "json")
	if err != nil {
		return err
	}
	name, err := onePluginName(cmd)
	if err != nil {
		return err
	}
	store, _, err := pluginStore(cmd)
	if err != nil {
		return err
	}
	e, err := store.Info(name)
	if err != nil {
		return storeError(cmd, err)
	}
	w := cmd.Root().Writer
	if output == "json" {
		return writeJSON(w, e)
	}
	printEntry(w, e)
	return nil
}

// printGrants prints what g grants, one field a line, each after indent.
func printGrants(w io.Writer, indent string, g pluginpkg.Grant) {
	fmt.Fprintf(w, "%sgranted      %s\n", indent, grantText(g.Capabilities))
	if len(g.Network) > 0 {
		fmt.Fprintf(w, "%snetwork      %s\n", indent, strings.Join(g.Network, ", "))
	}
	if len(g.Secrets) > 0 {
		fmt.Fprintf(w, "%ssecrets      %s (sent in its http request headers where it writes ${secret:NAME})\n", indent, strings.Join(g.Secrets, ", "))
	}
	if len(g.Stores) > 0 {
		fmt.Fprintf(w, "%sstores       %s (secrets it may store in Smith's auth file and check, never read back)\n", indent, strings.Join(g.Stores, ", "))
	}
	if g.Timeout != "" {
		fmt.Fprintf(w, "%stimeout      %s per call\n", indent, g.Timeout)
	}
	if g.Memory > 0 {
		fmt.Fprintf(w, "%smemory       %d KiB of linear memory at most\n", indent, g.Memory>>10)
	}
}

// printEntry prints one plugin as info shows it.
func printEntry(w io.Writer, e pluginpkg.Entry) {
	fmt.Fprintf(w, "name         %s\nversion      %s\ntier         %s\nstatus       %s\n", e.Name, orDash(e.Version), e.Tier, e.Status)
	fmt.Fprintf(w, "directory    %s\nartifact     %s\nsha256       %s\n", e.Dir, orDash(e.Artifact), orDash(e.SHA256))
	printGrants(w, "", e.Grant)
	fmt.Fprintf(w, "contributes  %s\n", contribText(e.Contributions))
	if !e.Installed.IsZero() {
		fmt.Fprintf(w, "installed    %s from %s\n", e.Installed.Format(time.RFC3339), e.Source)
	}
	if e.Problem != "" {
		fmt.Fprintf(w, "problem      %s\n", e.Problem)
	}
}

func pluginEnable(cmd *cli.Command, on bool) error {
	name, err := onePluginName(cmd)
	if err != nil {
		return err
	}
	store, _, err := pluginStore(cmd)
	if err != nil {
		return err
	}
	if on {
		// Enabling must not make the set fail to load.
		sys, err := sysplugins.Artifacts()
		if err != nil {
			return err
		}
		if _, err := store.SetEnabled(name, true); err != nil {
			return storeError(cmd, err)
		}
		cands, _ := store.Candidates()
		if _, notes := pluginpkg.Select(sys, cands, nil); len(notes) > 0 {
			if _, err := store.SetEnabled(name, false); err != nil {
				return storeError(cmd, err)
			}
			return usageErrorf("plugin enable: %s was not enabled: %s", name, strings.Join(notes, "; "))
		}
		_, err = fmt.Fprintf(cmd.Root().Writer, "enabled plugin %s; every smith run loads it\n", name)
		return err
	}
	if _, err := store.SetEnabled(name, false); err != nil {
		return storeError(cmd, err)
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "disabled plugin %s; it stays installed (smith plugin enable %s loads it again)\n", name, name)
	return err
}

func pluginRemove(_ context.Context, cmd *cli.Command) error {
	name, err := onePluginName(cmd)
	if err != nil {
		return err
	}
	store, _, err := pluginStore(cmd)
	if err != nil {
		return err
	}
	if err := store.Remove(name); err != nil {
		return storeError(cmd, err)
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "removed plugin %s and its grant\n", name)
	return err
}

// extraPlugins returns the plugins to load after the system plugins sys
// for a run in cwd: the enabled installed ones (tier user), a trusted
// project's .smith/plugins packages (tier project) and the --plugin
// packages (one-run trust; one replaces an installed or project plugin of
// its name), each skipped with a note to notify when it would not load
// beside the others. An unreadable --plugin package is a usage error.
func extraPlugins(ctx context.Context, cmd *cli.Command, cwd string, flags map[string]string, sys []plugin.Artifact, notify func(string)) ([]plugin.Artifact, error) {
	p, err := runtime.LocatePaths(cmd.String("home"), os.Getenv)
	if err != nil {
		return nil, nil // runtime.Open reports it
	}
	store := pluginpkg.NewStore(p.Data)
	cands, notes := store.Candidates()
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if root := projectPluginRoot(cwd); root != "" {
		dir := filepath.Join(root, filepath.FromSlash(pluginpkg.ProjectPlugins))
		if projectTrusted(p, cwd, root, flags) {
			pc, pn := pluginpkg.ProjectCandidates(root)
			cands, notes = append(cands, pc...), append(notes, pn...)
		} else {
			notes = append(notes, fmt.Sprintf("ignored the project's plugins in %s: the project %s is not trusted; trust it with 'smith config trust' (which adds trusted-project %q to your smith.kdl), or for one run with --trust-project", dir, root, root))
		}
	}
	for _, dir := range cmd.StringSlice("plugin") {
		c, err := pluginpkg.DirCandidate(dir, pluginpkg.TierFlag)
		if err != nil {
			return nil, usageErrorf("%s: --plugin %s: %v", cmdName(cmd), dir, err)
		}
		cands = slices.DeleteFunc(cands, func(o pluginpkg.Candidate) bool { return o.Artifact.Name == c.Artifact.Name })
		cands = append(cands, c)
	}
	var h *plugin.Host
	rc := pluginpkg.RegistrationCache{Dir: filepath.Join(p.Cache, "plugin-packages")}
	if p.Cache == "" {
		rc.Dir = ""
	}
	register := func(a plugin.Artifact) ([]byte, error) {
		if reg := rc.Get(a); reg != nil {
			return reg, nil
		}
		if h == nil {
			if h, err = plugin.Open(ctx, plugin.Config{CacheDir: p.Cache}); err != nil {
				return nil, err
			}
		}
		reg, err := pluginpkg.Register(ctx, h, sys, a)
		if err == nil {
			rc.Put(a, reg)
		}
		return reg, err
	}
	out, sn := pluginpkg.Select(sys, cands, register)
	if h != nil {
		_ = h.Close(context.WithoutCancel(ctx))
	}
	for _, n := range append(notes, sn...) {
		notify(n)
	}
	return out, nil
}

// projectPluginRoot returns the nearest directory from cwd up holding
// .smith/plugins, or "".
func projectPluginRoot(cwd string) string {
	for dir := cwd; ; {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(pluginpkg.ProjectPlugins))); err == nil && st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// projectTrusted decides the project's trust as core/config does: a
// trusted-project line of the user's smith.kdl naming root (symbolic
// links resolved), or --trust-project / SMITH_TRUST_PROJECT.
func projectTrusted(p runtime.Paths, cwd, root string, flags map[string]string) bool {
	cfg, err := config.Load(config.Inputs{UserFile: p.ConfigFile, ProjectDir: cwd, Flags: flags})
	if err != nil {
		return false
	}
	if cfg.TrustProject.Value {
		return true
	}
	id, err := pluginpkg.Canonical(root)
	if err != nil {
		return false
	}
	for _, t := range cfg.Trusted {
		if c, err := pluginpkg.Canonical(t.Value); err == nil && c == id {
			return true
		}
	}
	return false
}
