// Package retryhint reads the retry hints vendors put in error responses:
// the retry-after-ms and retry-after headers (seconds or an HTTP date),
// x-should-retry, OpenAI's x-ratelimit-reset-* durations ("120ms",
// "3.328s", "6m0s"), and "try again in 3.3s" phrases in message text.
package retryhint
