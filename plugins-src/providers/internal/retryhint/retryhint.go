package retryhint

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// httpDate is the IMF-fixdate form of an HTTP date (RFC 9110 §5.6.7); the
// codec avoids net/http to keep the wasm module small.
const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// Headers are response headers keyed by lower-case name.
type Headers map[string]string

// Get returns the header named name (any case), or "".
func (h Headers) Get(name string) string {
	if v, ok := h[name]; ok {
		return v
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// After returns the wait the headers ask for: retry-after-ms first, then
// retry-after (delta seconds or an HTTP date, relative to now), then the
// largest of the x-ratelimit-reset-requests/tokens durations. It returns 0
// when there is no usable hint.
func After(h Headers, now time.Time) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return scaled(ms, time.Millisecond)
		}
	}
	if v := h.Get("retry-after"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
			return scaled(s, time.Second)
		}
		if t, err := time.Parse(httpDate, v); err == nil {
			return clamp(t.Sub(now))
		}
	}
	var best time.Duration
	for _, k := range []string{"x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"} {
		if d, err := time.ParseDuration(h.Get(k)); err == nil && d > best {
			best = d
		}
	}
	return clamp(best)
}

// MaxWait bounds every hint: a vendor asking for longer is treated as
// asking for MaxWait (the caller's retry policy decides whether to wait
// at all).
const MaxWait = 24 * time.Hour

// scaled converts v units to a duration within [0, MaxWait]; NaN is 0.
func scaled(v float64, unit time.Duration) time.Duration {
	switch {
	case !(v > 0):
		return 0
	case v >= float64(MaxWait)/float64(unit):
		return MaxWait
	}
	return time.Duration(v * float64(unit))
}

func clamp(d time.Duration) time.Duration {
	return min(max(d, 0), MaxWait)
}

// ShouldRetry returns the vendor's explicit x-should-retry verdict and
// whether there was one.
func ShouldRetry(h Headers) (retry, ok bool) {
	switch strings.ToLower(h.Get("x-should-retry")) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

var tryAgain = regexp.MustCompile(`(?i)(?:try again|retry) in ([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec|seconds?)\b`)

// FromMessage finds a "try again in 3.328s" style hint in a message.
func FromMessage(msg string) time.Duration {
	m := tryAgain.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0
	}
	if m[2] == "ms" {
		return scaled(v, time.Millisecond)
	}
	return scaled(v, time.Second)
}

// Duration parses a protobuf JSON duration such as "34.4s" (Gemini's
// RetryInfo.retryDelay); it returns 0 when s is not one.
func Duration(s string) time.Duration {
	if !strings.HasSuffix(s, "s") {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
	if err != nil {
		return 0
	}
	return scaled(v, time.Second)
}
