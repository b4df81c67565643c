package main

import (
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
)

// outputFormat returns the command's --output value, which must be one
// of formats; otherwise a usage error naming the value and the formats.
func outputFormat(cmd *cli.Command, formats ...string) (string, error) {
	v := cmd.String("output")
	if slices.Contains(formats, v) {
		return v, nil
	}
	return "", usageErrorf("%s: --output %q is not a format; use --output %s", cmdName(cmd), v, strings.Join(formats, " or --output "))
}

// writeJSON writes v to w as indented JSON (the --output json form).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
