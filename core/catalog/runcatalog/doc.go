// Package runcatalog is the model catalog of one run: the reviewed bundle,
// the configured layers (the user's model-info blocks) and, when catalog
// refresh is on, the newest cached refresh. It also runs the optional
// refresh: a catalog document in the bundled format, fetched from the URL
// of the catalog-refresh option through httpengine, validated by
// core/catalog, cached on disk under Smith's data directory, and layered at
// the next start as "refreshed" evidence, below the reviewed bundle and the
// user's configuration.
//
// Startup never waits on the network: [Open] reads only the cache, and
// [Catalog.Start] runs a due refresh (at most one a day, see [Interval])
// in the background for the next run. [Catalog.Refresh] refreshes at
// once, with a timeout, and reports what changed. The cache keeps one file
// per committed refresh, named by the refresh's ticket, so a refresh that
// started earlier and finished later can never replace a newer one, even
// in another process.
package runcatalog
