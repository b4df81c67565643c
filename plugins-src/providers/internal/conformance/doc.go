// Package conformance holds the tests that hold every codec to the recorded
// provider fixtures (plugins-src/providers/testdata/fixtures): each
// recorded body is decoded in several chunkings and must give its
// expect.json, each error body must classify as its expectation says, and
// the recorded follow-up requests must be reproduced by the builders. The
// tests walk the fixture folders, so new fixtures are picked up without a
// code change. The package has no non-test code besides this comment.
package conformance
