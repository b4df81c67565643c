package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/catalog/runcatalog"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/route"
	"github.com/urfave/cli/v3"
)

func modelsCommand() *cli.Command {
	return &cli.Command{
		Name:  "models",
		Usage: "list the model catalog: limits, capabilities, prices and where each figure came from",
		Flags: append(configFlags(config.KeyTrustProject, config.KeyCatalogRefresh),
			&cli.StringFlag{Name: "provider", Usage: "list only the models of provider `NAME`"},
			&cli.BoolFlag{Name: "refresh", Usage: "refresh the catalog from the catalog-refresh URL now (waiting at most 30 s), cache it, and report what changed"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "table", Usage: "output `FORMAT`: table, or json (one document)"},
		),
		Action: modelsAction,
	}
}

// modelsListing is the JSON form of `smith models`.
type modelsListing struct {
	Generated string               `json:"generated"`
	Origins   []catalog.FileOrigin `json:"origins"`
	Models    []modelEntry         `json:"models"`
	Conflicts []catalog.Conflict   `json:"conflicts"`
	// Routes are the aliases and groups of smith.kdl, each with the
	// targets it resolves to (or why it does not resolve).
	Routes []routeListing `json:"routes"`
}

// modelEntry is one model of `smith models`, with where it came from.
type modelEntry struct {
	catalog.Model
	// From is "bundled", "refreshed DATE from URL" or "config
	// FILE:LINE:COL" (see runcatalog.Catalog.Provenance).
	From string `json:"from"`
}

// routeListing is one alias or group of smith.kdl.
type routeListing struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // alias or group
	Source  string   `json:"source"`
	Targets []string `json:"targets,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// configRoutes resolves every alias and group of cfg against snap, with
// no network.
func configRoutes(cfg *config.Config, snap *catalog.Snapshot) []routeListing {
	out := []routeListing{}
	add := func(name, kind string, src config.Source) {
		r := routeListing{Name: name, Kind: kind, Source: src.String()}
		targets, err := route.Resolve(cfg.Route(), snap, name)
		if err != nil {
			r.Error = err.Error()
		}
		for _, t := range targets {
			r.Targets = append(r.Targets, t.String())
		}
		out = append(out, r)
	}
	for _, n := range slices.Sorted(maps.Keys(cfg.Aliases)) {
		add(n, "alias", cfg.Aliases[n].Source)
	}
	for _, n := range slices.Sorted(maps.Keys(cfg.Groups)) {
		add(n, "group", cfg.Groups[n].Source)
	}
	return out
}

func modelsAction(ctx context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "table", "json")
	if err != nil {
		return err
	}
	if cmd.Bool("refresh") && cmd.IsSet("provider") {
		return usageErrorf("models: --refresh reports on the whole catalog; drop --provider, or list one provider's models afterwards with smith models --provider NAME")
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{plugins: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	cfg := rt.Configuration()
	cat, err := rt.Catalog()
	if err != nil {
		return cmdError(cmd, err)
	}
	if cmd.Bool("refresh") {
		return refreshCatalog(ctx, cmd, cat, output)
	}
	rt.StartCatalogRefresh(ctx)
	snap, err := rt.CatalogSnapshot(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	l := modelsListing{Generated: snap.Generated(), Origins: snap.Origins(), Conflicts: snap.Conflicts(), Models: []modelEntry{},
		Routes: configRoutes(cfg, snap)}
	want := cmd.String("provider")
	var providers []string
	for _, m := range snap.Models() {
		if !strings.Contains(strings.Join(providers, "\x00")+"\x00", m.Provider+"\x00") {
			providers = append(providers, m.Provider)
		}
		if want == "" || m.Provider == want {
			l.Models = append(l.Models, modelEntry{Model: m, From: cat.Provenance(m)})
		}
	}
	if len(l.Models) == 0 {
		return usageErrorf("models: --provider %q has no models in the catalog; known providers: %s", want, strings.Join(providers, ", "))
	}
	w := cmd.Root().Writer
	if output == "json" {
		return writeJSON(w, l)
	}
	return writeModelsTable(w, l)
}

func writeModelsTable(w io.Writer, l modelsListing) error {
	for _, o := range l.Origins {
		line := fmt.Sprintf("catalog %s: %s\n", o.Date, o.Source)
		if o.Date == "" {
			line = fmt.Sprintf("catalog: %s\n", o.Source)
		}
		if _, err := io.WriteString(w, line); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "prices: US$ per million tokens; ? marks figures not confirmed by two sources (see --output json for each source)")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tCONTEXT\tOUTPUT\tINPUT\tTOOLS\tTHINKING\tCACHE\tIN\tOUT\tCACHE-RD\tCACHE-WR\tCHECKED\tFROM")
	for _, e := range l.Models {
		m := e.Model
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Ref(), tokens(m.Context), tokens(m.MaxOutput), in, tools,
			strings.Join(levels, ","), m.Cache, price[0], price[1], price[2], price[3], checked, e.From)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range l.Conflicts {
		fmt.Fprintf(w, "conflict: %s %s: kept %s (%s), ignored %s (%s)\n", c.Ref, c.Field, c.Kept, c.KeptFrom, c.Ignored, c.IgnoredFrom)
	}
	if len(l.Routes) > 0 {
		fmt.Fprintln(w, "\naliases and groups from smith.kdl (--model NAME tries the targets in order):")
		for _, r := range l.Routes {
			if r.Error != "" {
				fmt.Fprintf(w, "%s %s: %s (%s)\n", r.Kind, r.Name, r.Error, r.Source)
				continue
			}
			fmt.Fprintf(w, "%s %s → %s (%s)\n", r.Kind, r.Name, strings.Join(r.Targets, ", "), r.Source)
		}
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

// refreshCatalog refreshes the catalog now (see runcatalog.Timeout)
// and reports what changed: models added, updated or removed, and the
// refreshed figures the configuration or the reviewed catalog kept.
func refreshCatalog(ctx context.Context, cmd *cli.Command, cat *runcatalog.Catalog, output string) error {
	if !cat.Enabled() {
		return usageErrorf("models: --refresh needs a catalog URL; set catalog-refresh \"https://…\" in smith.kdl, SMITH_CATALOG_REFRESH=URL, or pass --catalog-refresh URL")
	}
	r, err := cat.Refresh(ctx)
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	w := cmd.Root().Writer
	if output == "json" {
		return writeJSON(w, r)
	}
	models := "models"
	if r.Models == 1 {
		models = "model"
	}
	fmt.Fprintf(w, "refreshed the catalog from %s: a document dated %s with %d %s, cached for the next runs\n", r.URL, r.Generated, r.Models, models)
	list := func(what string, refs []string) {
		if len(refs) == 0 {
			refs = []string{"none"}
		}
		fmt.Fprintf(w, "%s: %s\n", what, strings.Join(refs, ", "))
	}
	list("added", r.Added)
	list("updated", r.Updated)
	list("removed", r.Removed)
	for _, k := range r.Kept {
		from := string(k.KeptFrom)
		if prov, id, ok := strings.Cut(k.Ref, "/"); ok {
			if m, err := r.Snapshot.Lookup(prov, id); err == nil && m.Evidence == k.KeptFrom {
				from = cat.Provenance(m)
			}
		}
		fmt.Fprintf(w, "kept %s %s = %s (%s); the refresh says %s\n", k.Ref, k.Field, k.Kept, from, k.Ignored)
	}
	return nil
}
