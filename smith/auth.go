package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/smith/internal/providers"
	"github.com/urfave/cli/v3"
)

func authCommand() *cli.Command {
	return &cli.Command{
		Name:  "auth",
		Usage: "check and store provider credentials",
		Commands: []*cli.Command{
			{Name: "status", Usage: "show where each provider's credential comes from (smith.kdl, environment or auth file), without a model request (values are never shown)",
				Flags:  append(configFlags(config.KeyTrustProject), &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "table", Usage: "output `FORMAT`: table or json"}),
				Action: authStatus},
			{Name: "set", Usage: "store a provider's key in Smith's auth file, read from standard input", ArgsUsage: "PROVIDER", Action: authSet},
			{Name: "remove", Usage: "remove a provider's key from Smith's auth file", ArgsUsage: "PROVIDER", Action: authRemove},
		},
	}
}

// providerSpecs returns the credential declarations of the providers the
// embedded provider codec plugin declares, sorted by name: vendor names and
// their variables are the plugin's data, never Smith's.
func providerSpecs(ctx context.Context) ([]auth.Spec, error) {
	declared, err := providers.Declared(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("auth: read the providers the provider plugin declares: %w", err)
	}
	specs := make([]auth.Spec, 0, len(declared))
	for name, env := range declared {
		specs = append(specs, auth.Spec{Provider: name, Env: env})
	}
	slices.SortFunc(specs, func(a, b auth.Spec) int { return strings.Compare(a.Provider, b.Provider) })
	return specs, nil
}

// configSpecs adds the credential specs smith.kdl implies to the declared
// ones: a provider block of a new name (such as an OpenAI-compatible
// server) takes the secrets of the codec provider serving it, and each
// account bucket is checked on its own. The result is sorted by key.
func configSpecs(declared []auth.Spec, cfg *config.Config) []auth.Spec {
	env := map[string][]string{}
	for _, s := range declared {
		env[s.Provider] = s.Env
	}
	out := slices.Clone(declared)
	for _, name := range cfg.ProviderNames() {
		p := cfg.Providers[name]
		secrets := env[p.Codec()]
		if secrets == nil {
			secrets = []string{}
		}
		if _, isDeclared := env[name]; !isDeclared {
			out = append(out, auth.Spec{Provider: name, Env: secrets})
		}
		for _, acct := range p.Accounts.Value {
			out = append(out, auth.Spec{Provider: name, Env: secrets, Account: acct})
		}
	}
	slices.SortFunc(out, func(a, b auth.Spec) int { return strings.Compare(specKey(a), specKey(b)) })
	return out
}

// checkProviders fails, as a usage error, when a provider block of the
// configuration names no declared provider (see config.CheckProviders).
func checkProviders(cmd *cli.Command, cfg *config.Config, declared []auth.Spec) error {
	names := make([]string, len(declared))
	for i, s := range declared {
		names[i] = s.Provider
	}
	if err := cfg.CheckProviders(names); err != nil {
		return usageErrorf("%s: %w", cmdName(cmd), err)
	}
	return nil
}

// specKey is the name a spec's credential is stored under:
// "provider" or "provider@account".
func specKey(s auth.Spec) string {
	if s.Account != "" {
		return s.Provider + "@" + s.Account
	}
	return s.Provider
}

// authFile is Smith's auth file in the data directory.
func authFile(cmd *cli.Command) (*auth.File, error) {
	dir, err := dataDir(cmd)
	if err != nil {
		return nil, err
	}
	return auth.OpenFile(filepath.Join(dir, "auth.json")), nil
}

func authStatus(ctx context.Context, cmd *cli.Command) error {
	output := cmd.String("output")
	if output != "table" && output != "json" {
		return usageErrorf("auth status: --output %q is not a format; use --output table or --output json", output)
	}
	f, err := authFile(cmd)
	if err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("auth status: cannot read the current directory: %w", err)
	}
	cfg, err := loadConfig(cmd, wd, cmd.ErrWriter)
	if err != nil {
		return err
	}
	specs, err := providerSpecs(ctx)
	if err != nil {
		return err
	}
	if err := checkProviders(cmd, cfg, specs); err != nil {
		return err
	}
	specs = configSpecs(specs, cfg)
	known := map[string]bool{}
	for _, s := range specs {
		known[specKey(s)] = true
	}
	// Providers stored in the file but not declared are shown too.
	if stored, err := f.Providers(); err == nil {
		for _, p := range stored {
			if !known[p] {
				specs = append(specs, auth.Spec{Provider: p, Env: []string{}})
			}
		}
	}
	r := auth.Resolver{File: f, Config: cfg.Credentials()}
	statuses := r.Check(specs)
	w := cmd.Root().Writer
	if output == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(statuses)
	}
	return writeAuthTable(w, statuses)
}

func writeAuthTable(w io.Writer, statuses []auth.Status) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tSTATUS\tSOURCE\tFROM")
	var problems []string
	for _, s := range statuses {
		state := "ok"
		if !s.OK {
			state = "missing"
			if s.Expires != nil {
				state = "expired"
			}
			problems = append(problems, s.Problem)
		}
		source := string(s.Source)
		if s.Source == auth.SourceNone {
			source = "none needed"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Provider, state, source, s.Origin)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range problems {
		if _, err := fmt.Fprintln(w, p); err != nil {
			return err
		}
	}
	return nil
}

// oneProvider returns the single PROVIDER argument.
func oneProvider(ctx context.Context, cmd *cli.Command) (string, error) {
	args := cmd.Args().Slice()
	if len(args) != 1 || args[0] == "" {
		specs, err := providerSpecs(ctx)
		if err != nil {
			return "", err
		}
		var names []string
		for _, s := range specs {
			names = append(names, s.Provider)
		}
		return "", usageErrorf("%s: expected one provider name, got %d arguments; providers: %s", cmdName(cmd), len(args), strings.Join(names, ", "))
	}
	return args[0], nil
}

func authSet(ctx context.Context, cmd *cli.Command) error {
	provider, err := oneProvider(ctx, cmd)
	if err != nil {
		return err
	}
	f, err := authFile(cmd)
	if err != nil {
		return err
	}
	in := bufio.NewReader(cmd.Root().Reader)
	if cmd.Root().Reader == nil {
		in = bufio.NewReader(os.Stdin)
	}
	line, err := in.ReadString('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("auth set: cannot read the key from standard input: %w", err)
	}
	key := strings.TrimSpace(line)
	if key == "" {
		return usageErrorf("auth set: standard input held no key; pipe it in, such as `smith auth set %s < keyfile`", provider)
	}
	if err := f.Set(provider, auth.Entry{Key: auth.NewSecret(key)}); err != nil {
		return err
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "stored the key of %s in %s\n", provider, f.Path())
	return err
}

func authRemove(ctx context.Context, cmd *cli.Command) error {
	provider, err := oneProvider(ctx, cmd)
	if err != nil {
		return err
	}
	f, err := authFile(cmd)
	if err != nil {
		return err
	}
	stored, err := f.Providers()
	if err != nil {
		return err
	}
	if !slices.Contains(stored, provider) {
		return usageErrorf("auth remove: %s holds no key for %q; it holds: %s", f.Path(), provider, strings.Join(stored, ", "))
	}
	if err := f.Delete(provider); err != nil {
		return err
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "removed the key of %s from %s\n", provider, f.Path())
	return err
}
