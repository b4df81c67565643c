// Package jsonout holds jsonout.rs, the Rust JSON writer the Rust provider
// codecs build request bodies with, and the Go tests that prove it writes
// what encoding/json.Marshal writes, byte for byte. The directory is
// otherwise a test-only Go package: it exports nothing.
//
// The Rust module is included by a crate with
//
//	#[path = "…/internal/jsonout/jsonout.rs"]
//	mod jsonout;
//
// and used the way Marshal walks a value: a struct's fields are written in
// declaration order with omitempty applied by the caller, a map's keys
// sorted (Writer::map sorts them), a json.RawMessage compacted and
// validated:
//
//	let mut w = jsonout::Writer::new();
//	w.begin_object();
//	w.key("model");
//	w.string(&model);
//	w.key("input_schema");
//	w.raw(&schema)?;
//	w.end_object();
//	let body = w.into_bytes();
//
// Strings are escaped as Marshal escapes them (HTML-safe, U+2028 and
// U+2029 escaped, each invalid UTF-8 byte as \ufffd); float64 uses the
// shortest round-trip digits (an exact tie between two to the even one, as
// strconv has it, where Rust's own formatting rounds up) with Marshal's
// switch to exponent notation below 1e-6 and from 1e21; NaN, ±Inf and
// invalid raw JSON are errors, as they are for Marshal.
//
// The tests run the module's own Rust tests (TestRustUnitTests), compare
// Go values of the codecs' shapes encoded by both (TestValues,
// TestValueErrors), sweep strings and float64 values where escaping and
// formatting change (TestStringSweep, TestFloat64Sweep), and fuzz the Rust
// writer against encoding/json through a native driver
// (testdata/driver.rs, see package rustdriver): strings of arbitrary bytes
// (FuzzString), float64 of arbitrary bits (FuzzFloat64), RawMessage
// compaction of arbitrary bytes (FuzzRawMessage) and values decoded from
// arbitrary JSON (FuzzValue).
package jsonout
