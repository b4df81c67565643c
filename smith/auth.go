package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/config"
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

// providerNames returns the providers the embedded codec plugin
// declares, sorted.
func providerNames(ctx context.Context, cmd *cli.Command) ([]string, error) {
	rt, err := openRuntime(ctx, cmd, runtimeOptions{plugins: true, quiet: true})
	if err != nil {
		return nil, err
	}
	defer rt.Close(ctx)
	names, err := rt.Providers(ctx)
	return names, cmdError(cmd, err)
}

// authFile is Smith's auth file in the data directory.
func authFile(cmd *cli.Command) (*auth.File, error) {
	p, err := paths(cmd)
	if err != nil {
		return nil, err
	}
	return auth.OpenFile(p.AuthFile()), nil
}

func authStatus(ctx context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "table", "json")
	if err != nil {
		return err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{plugins: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	statuses, err := rt.CredentialStatus(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	w := cmd.Root().Writer
	if output == "json" {
		return writeJSON(w, statuses)
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
		names, err := providerNames(ctx, cmd)
		if err != nil {
			return "", err
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
