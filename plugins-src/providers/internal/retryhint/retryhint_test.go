package retryhint

import (
	"testing"
	"time"
)

func TestAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		h    Headers
		want time.Duration
	}{
		{"none", Headers{}, 0},
		{"ms first", Headers{"retry-after-ms": "250", "retry-after": "9"}, 250 * time.Millisecond},
		{"seconds", Headers{"Retry-After": "2.5"}, 2500 * time.Millisecond},
		{"http date", Headers{"retry-after": "Fri, 02 Jan 2026 03:05:05 GMT"}, time.Minute},
		{"http date in the past", Headers{"retry-after": "Fri, 02 Jan 2026 03:00:00 GMT"}, 0},
		{"garbage", Headers{"retry-after": "soon"}, 0},
		{"negative ms ignored", Headers{"retry-after-ms": "-5"}, 0},
		{"huge seconds clamp instead of overflowing", Headers{"retry-after": "1e300"}, MaxWait},
		{"infinite ms clamp", Headers{"retry-after-ms": "+Inf"}, MaxWait},
		{"NaN is no hint", Headers{"retry-after-ms": "NaN"}, 0},
		{"far future date clamps", Headers{"retry-after": "Fri, 02 Jan 2099 03:05:05 GMT"}, MaxWait},
		{"ratelimit reset durations: the longer wins", Headers{"x-ratelimit-reset-requests": "120ms", "x-ratelimit-reset-tokens": "3.328s"}, 3328 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := After(tt.h, now); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestHints(t *testing.T) {
	if r, ok := ShouldRetry(Headers{"X-Should-Retry": "False"}); !ok || r {
		t.Errorf("x-should-retry False: got %v %v", r, ok)
	}
	if _, ok := ShouldRetry(Headers{"x-should-retry": "maybe"}); ok {
		t.Errorf("x-should-retry maybe must be no verdict")
	}
	for msg, want := range map[string]time.Duration{
		"Please try again in 3.328s.": 3328 * time.Millisecond,
		"Please try again in 20ms.":   20 * time.Millisecond,
		"retry in 2 seconds":          2 * time.Second,
		"no hint here":                0,
	} {
		if got := FromMessage(msg); got != want {
			t.Errorf("FromMessage(%q) = %v, want %v", msg, got, want)
		}
	}
	if got := FromMessage("try again in 99999999999999999999999s"); got != MaxWait {
		t.Errorf("huge message hint: got %v, want %v", got, MaxWait)
	}
	for s, want := range map[string]time.Duration{"34.4s": 34400 * time.Millisecond, "0s": 0, "-1s": 0, "34": 0, "1e30s": MaxWait} {
		if got := Duration(s); got != want {
			t.Errorf("Duration(%q) = %v, want %v", s, got, want)
		}
	}
}
