// Package permissions documents Smith's permission plugin, whose source
// is the Rust crate in this directory (src/lib.rs): the permission policy
// that decides every tool call before it runs, from the policy the user
// configured (smith.kdl's permissions block, --permission-mode, --yes),
// as the required decision on tool-execution-start. tools/pluginbuild
// builds it into smith/internal/sysplugins. It is granted nothing.
//
// It subscribes to tool calls only when a policy is configured; with the
// default policy it is never called, so a start never compiles it.
//
// The Go file here is a test only: it runs the crate's Rust unit tests:
//
//	cd plugins-src && go test ./permissions
//
// core/runtime's TestPermissionPolicy exercises the built module through
// the real runtime: configuration, decisions and recorded refusals.
package permissions
