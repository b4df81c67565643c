package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/session"
	"github.com/urfave/cli/v3"
)

// minSecretLen is the shortest value `smith secret add` stores: a shorter
// one cannot be redacted without mangling ordinary text.
const minSecretLen = 8

func secretCommand() *cli.Command {
	return &cli.Command{
		Name:  "secret",
		Usage: "register secrets that are redacted everywhere and passed to commands only by reference",
		Description: "A registered secret never reaches the model, a session record or a tool's output: each is\n" +
			"replaced by ${secret:NAME}. A command may use ${secret:NAME}; bash receives the value, and its\n" +
			"output is redacted again. Provider keys are registered too, but no command receives them.",
		Commands: []*cli.Command{
			{Name: "add", Usage: "store a secret in Smith's auth file, its value read from standard input", ArgsUsage: "NAME", Action: secretAdd},
			{Name: "list", Usage: "list the registered secrets (yours, and the provider credentials found) by name, source and fingerprint, never a value",
				Flags:  append(configFlags(config.KeyTrustProject), &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "table", Usage: "output `FORMAT`: table or json"}),
				Action: secretList},
			{Name: "remove", Usage: "remove a secret from Smith's auth file", ArgsUsage: "NAME", Action: secretRemove},
		},
	}
}

// oneSecretName returns the single NAME argument, checked.
func oneSecretName(cmd *cli.Command) (string, error) {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return "", usageErrorf("%s: expected one secret name, got %d arguments; such as `smith %s GITHUB_TOKEN`", cmdName(cmd), len(args), cmdName(cmd))
	}
	if !config.ValidSecretName(args[0]) {
		return "", usageErrorf("%s: %q is not a secret name: a letter or '_', then letters, digits, '_', '.' or '-', at most 128 bytes", cmdName(cmd), args[0])
	}
	return args[0], nil
}

func secretAdd(_ context.Context, cmd *cli.Command) error {
	name, err := oneSecretName(cmd)
	if err != nil {
		return err
	}
	f, err := authFile(cmd)
	if err != nil {
		return err
	}
	r := cmd.Root().Reader
	if r == nil {
		r = os.Stdin
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("secret add: cannot read the value from standard input: %w", err)
	}
	value := strings.TrimSpace(line)
	switch {
	case value == "":
		return usageErrorf("secret add: standard input held no value; pipe it in, such as `smith secret add %s < tokenfile`", name)
	case len(value) < minSecretLen:
		return usageErrorf("secret add: the value of %s is %d bytes long, shorter than %d: it cannot be redacted without mangling ordinary text; use a longer value", name, len(value), minSecretLen)
	}
	if err := f.SetSecret(name, auth.NewSecret(value)); err != nil {
		return err
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "stored secret %s in %s; a command uses it as ${secret:%s}\n", name, f.Path(), name)
	return err
}

func secretList(ctx context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "table", "json")
	if err != nil {
		return err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{plugins: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	regs, err := rt.Secrets(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	slices.SortFunc(regs, func(a, b session.SecretRegistration) int { return strings.Compare(a.Name, b.Name) })
	w := cmd.Root().Writer
	if output == "json" {
		if regs == nil {
			regs = []session.SecretRegistration{}
		}
		return writeJSON(w, regs)
	}
	if len(regs) == 0 {
		_, err := fmt.Fprintln(w, "no secrets registered; add one with `smith secret add NAME < file`, or a secret node in smith.kdl")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tFINGERPRINT")
	for _, r := range regs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Source, r.Fingerprint)
	}
	return tw.Flush()
}

func secretRemove(_ context.Context, cmd *cli.Command) error {
	name, err := oneSecretName(cmd)
	if err != nil {
		return err
	}
	f, err := authFile(cmd)
	if err != nil {
		return err
	}
	found, err := f.DeleteSecret(name)
	if err != nil {
		return err
	}
	if !found {
		stored, err := f.Secrets()
		if err != nil {
			return err
		}
		names := slices.Sorted(maps.Keys(stored))
		held := "none"
		if len(names) > 0 {
			held = strings.Join(names, ", ")
		}
		return usageErrorf("secret remove: %s holds no secret %q; it holds: %s", f.Path(), name, held)
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "removed secret %s from %s\n", name, f.Path())
	return err
}
