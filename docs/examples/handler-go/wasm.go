//go:build wasip1

package main

import "github.com/smith-agent/smith/wit/ui"

// In WebAssembly the guard asks and notifies through the ui capability
// (plugin.kdl grants it).
func init() {
	ask = ui.RequestConfirmation
	notify = func(m string) { ui.ShowNotification(m, ui.NotifyOptions{Severity: ui.SeverityWarning}) }
}
