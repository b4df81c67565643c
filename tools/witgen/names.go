package main

import "strings"

// initialisms are the kebab-case words written in capitals in Go names.
var initialisms = map[string]string{
	"id": "ID", "url": "URL", "http": "HTTP", "json": "JSON", "ui": "UI", "vcs": "VCS",
}

// goName converts a kebab-case WIT name to an exported Go identifier:
// "retry-after-ms" becomes "RetryAfterMs", "tool-call-id" "ToolCallID".
func goName(kebab string) string {
	var b strings.Builder
	for _, w := range strings.Split(strings.TrimPrefix(kebab, "%"), "-") {
		if w == "" {
			continue
		}
		if up, ok := initialisms[w]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// packageName is the Go package name of a WIT interface: its name without
// dashes ("file-system" becomes "filesystem").
func packageName(iface string) string {
	return strings.ReplaceAll(iface, "-", "")
}
