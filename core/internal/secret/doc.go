// Package secret keeps registered secrets out of everything Smith sends to
// a model or writes down.
//
// A Set holds the secrets of one runtime: API keys from the environment
// and the auth file, values added with `smith secret add`, secrets of
// plugins. Before a request goes to a provider and before a record is
// written, Redact replaces each secret's plaintext, and each of its common
// encodings, with a reference ${secret:NAME} that the model can read and
// repeat. Restore turns references back into plaintext only where the
// caller authorizes it, at local effects such as a process's environment
// or arguments, and reports which secrets it restored. Writer redacts a
// stream, such as a command's output, even where a secret is split across
// writes; EnvFilter drops the variables holding known secrets from a child
// process's environment; Fingerprint identifies a value in records without
// holding it.
//
// # Encodings
//
// Redact finds a value v, of at least MinLen bytes, as
//
//   - v itself;
//   - the body of a JSON string holding v, as encoding/json writes it with
//     and without HTML escaping (\u003c for '<', \u0026 for '&'), each also
//     with '/' written \/ and with non-ASCII characters written \uXXXX;
//   - url.QueryEscape(v) and url.PathEscape(v), with upper- and lower-case
//     hex digits;
//   - hex of v, in lower and upper case;
//   - standard and URL-safe base64, padded and raw, of v alone and of v
//     inside a longer encoded blob (an HTTP Basic "user:v" credential, a
//     token) at each of the three byte alignments: there it replaces the
//     characters that depend on v's bytes alone, and through the padding
//     when v ends the blob. The one or two characters that mix v's first
//     or last bits with its neighbours' stay, so at most 4 bits of v show
//     at either end.
//
// Overlapping matches resolve to the longest match at the leftmost
// position.
//
// # JSON text
//
// RedactJSON and JSONStream redact JSON text (a request body, a tool
// call's arguments) without splitting an escape sequence or a string's
// quotes, so valid JSON stays valid: `\nXYZ…` is a newline and "XYZ…",
// not the secret "nXYZ…", and stays as it is (see json.go).
//
// # Not covered
//
// A secret a program transforms in any other way cannot be found: hashed,
// encrypted, compressed, reversed, split or case-changed, base32 or other
// encodings, base64 broken into lines (MIME, PEM), two encodings applied
// one after the other (base64 of a percent-encoded value, a JSON string
// inside a JSON string), or escapes other than those listed. Values shorter
// than MinLen are refused, as are the rare values that could overlap a
// reference's text (see Set.Add). Redaction happens where the caller calls
// it: text that never passes through a Set is not redacted.
//
// A Secret prints, marshals and logs as its name and source, but fmt prints
// the fields of a Secret kept in an unexported struct field, Value
// included, because it cannot call the Secret's methods there.
//
// # Concurrency and cost
//
// A Set is safe for concurrent use. Add builds a new matcher and publishes
// it atomically, so Redact and Restore never wait and see the secrets
// either before or after an Add. The matcher samples one 4-byte window out
// of every few positions (as many as the shortest encoding allows, up to
// 32) and filters it through a bitmap of the patterns' grams, so its cost
// hardly depends on the number of secrets: with 20 API keys, Redact of a
// 100 KB provider request takes about 11 µs and does not allocate when
// nothing matches, about 50-70 µs and one allocation with three matches
// (BenchmarkRedact100KB20Secrets, 2 cores). The first redaction after an
// Add builds the bitmap, so registering 20 secrets at start-up costs about
// 0.7 ms in all.
package secret
