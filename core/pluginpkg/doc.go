// Package pluginpkg reads, installs and selects the plugins a person adds
// to Smith: a plugin package is a directory holding a plugin.kdl manifest
// and the WebAssembly artifact it names.
//
//	name "shout"
//	version "0.1.0"
//	world "0.0.0"
//	artifact "shout.wasm"
//	capability "fs"
//	capability "http" { allow "https://api.example.com/"; }
//	timeout "10s"
//
// [ParseManifest] validates every field, naming the file:line:col, the
// field and the fix; [OpenPackage] reads a package with bounded reads
// (manifest ≤ [MaxManifest], artifact ≤ [MaxArtifact], sizes checked
// before anything is read) and canonical paths that cannot leave the
// package directory, and checks the artifact starts with the WebAssembly
// magic.
//
// A [Store] is the user's installed plugins under Smith's data directory
// (DATA/plugins): each package copied to DATA/plugins/NAME, and
// grants.json recording per plugin its version, artifact SHA-256, granted
// capabilities and network scopes, enabled flag and install time. Install
// is atomic (a temporary directory in the same parent, synced, renamed);
// leftovers of an interrupted install are removed by the next Install,
// and reported by [Store.List].
//
// [Select] turns the candidates of every tier — installed user plugins
// ([Store.Candidates]), the trusted project's ([ProjectCandidates]) and
// explicit --plugin packages ([DirCandidate]) — into the artifacts to load
// after the system plugins, skipping with a note each one that would make
// core/plugin refuse the whole set (a name, tool, command, prompt, context
// transform or provider declared twice).
package pluginpkg
