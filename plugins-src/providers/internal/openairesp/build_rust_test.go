package openairesp_test

import (
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// buildDriverRoot is the crate root of the native driver of the request
// builder (and of its Rust unit tests).
const buildDriverRoot = "testdata/driver_build_openairesp.rs"

// TestBuildRustUnit runs the #[test]s of build.rs and replay.rs (and of
// the modules the driver includes, openaichat's builder among them). The
// differential tests that hold build.rs to BuildRequest (fixture-shaped
// requests, hand-made cases, FuzzRustBuild) are in package openaichat's
// build_rust_test.go, whose driver builds requests of both APIs: the two
// builders share openaichat's anyjson.rs.
func TestBuildRustUnit(t *testing.T) {
	rustdriver.RunTests(t, buildDriverRoot)
}
