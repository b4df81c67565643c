// Package toolbox supplies the tools of an eval run. A [Source] opens them
// over the run's effect journal; the CLI depends only on that seam, so the
// implementation behind it is swapped in one place. [Plugins] is the one
// Smith ships: the built-in tools plugin, run by core/plugin.
package toolbox
