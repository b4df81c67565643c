package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/config"
	"github.com/urfave/cli/v3"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "inspect Smith's configuration (smith.kdl, environment, flags)",
		Commands: []*cli.Command{
			{Name: "show", Usage: "print every resolved value with its source (file:line:col, env NAME, flag --NAME or default); credentials are never shown",
				Description: "Reads your smith.kdl (SMITH_HOME/smith.kdl, else $XDG_CONFIG_HOME/smith/smith.kdl, else\n" +
					"~/.config/smith/smith.kdl), the project's .smith/smith.kdl when the project is trusted, the\n" +
					"environment, and the flags given here, with the precedence eval uses.",
				Flags: append(configFlags(),
					&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "the project `DIR` (default: the current directory)"},
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "text", Usage: "output `FORMAT`: text or json"}),
				Action: configShow},
			{Name: "trust", Usage: "trust a project: record it in your smith.kdl so its .smith/smith.kdl is read from now on", ArgsUsage: "[DIR]",
				Description: "DIR defaults to the project of the current directory (the nearest directory holding\n" +
					".smith/smith.kdl), else the current directory. The path is recorded with symbolic links\n" +
					"resolved, as a trusted-project line appended to your smith.kdl.",
				Action: configTrust},
		},
	}
}

// configListing is the JSON form of `smith config show`.
type configListing struct {
	Files   []configFile   `json:"files"`
	Values  []config.Entry `json:"values"`
	BaseURL []config.Entry `json:"base_url_variables"`
	// Endpoints are the base URLs configuration chose, with their sources
	// and whether a credential may go there.
	Endpoints []config.EndpointEntry `json:"endpoints"`
	// Sandbox describes the sandbox bash's commands run in here.
	Sandbox string   `json:"sandbox"`
	Notes   []string `json:"notes"`
}

type configFile struct {
	Layer string `json:"layer"`
	Path  string `json:"path"`
	State string `json:"state"`
	Trust string `json:"trust,omitempty"`
}

func configShow(ctx context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	dir, err := workDir(cmd, cmd.String("cwd"))
	if err != nil {
		return err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: dir, plugins: true, quiet: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	cfg := rt.Configuration()
	if err := rt.CheckProviders(ctx); err != nil {
		return cmdError(cmd, err)
	}
	l := configListing{Values: cfg.Entries(), BaseURL: baseURLVariables(os.Environ()), Endpoints: cfg.Endpoints(os.Environ()),
		Sandbox: rt.Sandbox(), Notes: append([]string{}, cfg.Notes...)}
	for _, f := range cfg.Files {
		l.Files = append(l.Files, configFile{Layer: f.Layer.String(), Path: f.Path, State: string(f.State), Trust: f.Trust})
	}
	w := cmd.Root().Writer
	if output == "json" {
		return writeJSON(w, l)
	}
	return writeConfig(w, l)
}

// baseURLVariables lists the *_BASE_URL variables set: each provider's
// codec reads its own conventional one, which beats smith.kdl and loses
// to --base-url.
func baseURLVariables(environ []string) []config.Entry {
	var out []config.Entry
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && v != "" && strings.HasSuffix(k, "_BASE_URL") {
			out = append(out, config.Entry{Path: k, Value: config.RedactURL(v), Source: "env " + k})
		}
	}
	slices.SortFunc(out, func(a, b config.Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func writeConfig(w io.Writer, l configListing) error {
	for _, f := range l.Files {
		state := f.State
		if f.Trust != "" {
			state += "; " + f.Trust
		}
		fmt.Fprintf(w, "%s file: %s (%s)\n", f.Layer, f.Path, state)
	}
	for _, n := range l.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tSOURCE")
	for _, e := range l.Values {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Path, e.Value, e.Source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nbash runs commands in the sandbox: %s\n", l.Sandbox)
	return writeEndpoints(w, l.Endpoints)
}

// writeEndpoints prints the base URLs configuration chose, each with the
// setting and source that chose it and whether a request carrying a
// credential may go there.
func writeEndpoints(w io.Writer, es []config.EndpointEntry) error {
	if len(es) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nendpoints (each provider's codec reads its own *_BASE_URL variable; --base-url beats it, and it beats base-url;")
	fmt.Fprintln(w, "a credential goes only over https or to this machine, and to a project's base-url only if your smith.kdl has trusted-base-url for it):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tURL\tSOURCE\tWITH A CREDENTIAL")
	for _, e := range es {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Setting, e.URL, e.Source, e.Credential)
	}
	return tw.Flush()
}

func configTrust(_ context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	if len(args) > 1 {
		return usageErrorf("config trust: got %d arguments; pass one project directory, or none for the current project", len(args))
	}
	dir := ""
	if len(args) == 1 {
		dir = args[0]
	} else {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("config trust: cannot read the current directory: %w; pass the project's directory", err)
		}
		if dir = config.ProjectRoot(wd); dir == "" {
			dir = wd
		}
	}
	p, err := paths(cmd)
	if err != nil {
		return err
	}
	user := p.ConfigFile
	id, already, err := config.Trust(user, dir)
	if err != nil {
		return usageErrorf("config trust: %w", err)
	}
	w := cmd.Root().Writer
	if already {
		_, err = fmt.Fprintf(w, "%s is already trusted in %s\n", id, user)
		return err
	}
	_, err = fmt.Fprintf(w, "trusted %s: added trusted-project to %s; its .smith/smith.kdl is read from now on\n", id, user)
	return err
}
