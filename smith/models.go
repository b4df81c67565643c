package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/urfave/cli/v3"
)

func modelsCommand() *cli.Command {
	return &cli.Command{
		Name:  "models",
		Usage: "list the model catalog: limits, capabilities, prices and where each figure came from",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: "list only the models of provider `NAME`"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "table", Usage: "output `FORMAT`: table, or json (one document)"},
		},
		Action: modelsAction,
	}
}

// modelsListing is the JSON form of `smith models`.
type modelsListing struct {
	Generated string               `json:"generated"`
	Origins   []catalog.FileOrigin `json:"origins"`
	Models    []catalog.Model      `json:"models"`
	Conflicts []catalog.Conflict   `json:"conflicts"`
}

func modelsAction(_ context.Context, cmd *cli.Command) error {
	output := cmd.String("output")
	if output != "table" && output != "json" {
		return usageErrorf("models: --output %q is not a format; use --output table or --output json", output)
	}
	snap, err := catalog.Bundled()
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	l := modelsListing{Generated: snap.Generated(), Origins: snap.Origins(), Conflicts: snap.Conflicts(), Models: []catalog.Model{}}
	want := cmd.String("provider")
	var providers []string
	for _, m := range snap.Models() {
		if !strings.Contains(strings.Join(providers, "\x00")+"\x00", m.Provider+"\x00") {
			providers = append(providers, m.Provider)
		}
		if want == "" || m.Provider == want {
			l.Models = append(l.Models, m)
		}
	}
	if len(l.Models) == 0 {
		return usageErrorf("models: --provider %q has no models in the catalog; known providers: %s", want, strings.Join(providers, ", "))
	}
	w := cmd.Root().Writer
	if output == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(l)
	}
	return writeModelsTable(w, l)
}

func writeModelsTable(w io.Writer, l modelsListing) error {
	for _, o := range l.Origins {
		if _, err := fmt.Fprintf(w, "catalog %s: %s\n", o.Date, o.Source); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "prices: US$ per million tokens; ? marks figures not confirmed by two sources (see --output json for each source)")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tCONTEXT\tOUTPUT\tINPUT\tTOOLS\tTHINKING\tCACHE\tIN\tOUT\tCACHE-RD\tCACHE-WR\tCHECKED")
	for _, m := range l.Models {
		in := "text"
		if m.Accepts(catalog.Image) {
			in = "text+image"
		}
		tools := "no"
		if m.Tools {
			tools = "yes"
			if m.StrictTools {
				tools = "strict"
			}
		}
		levels := make([]string, len(m.Thinking))
		for i, t := range m.Thinking {
			levels[i] = string(t)
		}
		price := []string{"?", "?", "?", "?"}
		if p := m.Price; p != nil {
			price = []string{money(p.Input), money(p.Output), money(p.CacheRead), money(p.CacheWrite)}
		}
		checked := m.Provenance.Date
		if !m.Provenance.Verified {
			checked += " ?"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Ref(), tokens(m.Context), tokens(m.MaxOutput), in, tools,
			strings.Join(levels, ","), m.Cache, price[0], price[1], price[2], price[3], checked)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range l.Conflicts {
		fmt.Fprintf(w, "conflict: %s %s: kept %s (%s), ignored %s (%s)\n", c.Ref, c.Field, c.Kept, c.KeptFrom, c.Ignored, c.IgnoredFrom)
	}
	return nil
}

func money(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func tokens(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000 && n%1000 == 0:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
