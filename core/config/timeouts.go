package config

import (
	"fmt"
	"strconv"
	"time"

	"github.com/calico32/kdl-go"
)

// The time bounds of a provider exchange, each settable in smith.kdl, the
// environment and a flag.
const (
	KeyHeadTimeout     = "head-timeout"
	KeyIdleTimeout     = "idle-timeout"
	KeyResponseTimeout = "response-timeout"
)

// The time bounds when none is configured: 2 min for the response head
// (a streaming API answers its head at once), 2 min between pieces of
// content (thinking streams too), 30 min for a whole response.
const (
	DefaultHeadTimeout     = 2 * time.Minute
	DefaultIdleTimeout     = 2 * time.Minute
	DefaultResponseTimeout = 30 * time.Minute
)

// Timeout returns the time bound key names (KeyHeadTimeout,
// KeyIdleTimeout or KeyResponseTimeout) as configured, or its default.
func (c *Config) Timeout(key string) time.Duration {
	if t := c.timeoutSetting(key); t.Value > 0 {
		return t.Value
	}
	switch key {
	case KeyHeadTimeout:
		return DefaultHeadTimeout
	case KeyIdleTimeout:
		return DefaultIdleTimeout
	}
	return DefaultResponseTimeout
}

// The range a time bound may take.
const (
	minTimeout = time.Second
	maxTimeout = 24 * time.Hour
)

// parseTimeout reads a time bound as written: a Go duration ("90s",
// "2m", "1h30m") or a whole number of seconds. The problem is "" when the
// value is valid.
func parseTimeout(s string) (time.Duration, string) {
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.ParseInt(s, 10, 64)
		if nerr != nil {
			return 0, `is not a duration: write it as "90s", "2m" or "1h30m", or as a number of seconds`
		}
		if n > int64(maxTimeout/time.Second) {
			n = int64(maxTimeout/time.Second) + 1
		}
		d = time.Duration(n) * time.Second
	}
	if d < minTimeout || d > maxTimeout {
		return 0, fmt.Sprintf("is outside %v to %v", minTimeout, maxTimeout)
	}
	return d, ""
}

// timeoutSetting returns the setting a time bound's key names.
func (c *Config) timeoutSetting(key string) *Setting[time.Duration] {
	switch key {
	case KeyHeadTimeout:
		return &c.HeadTimeout
	case KeyIdleTimeout:
		return &c.IdleTimeout
	}
	return &c.ResponseTimeout
}

// timeout reads a time bound node of smith.kdl.
func (r *reader) timeout(n *kdl.Node, name string) {
	ex := name + ` "2m"`
	if !r.shape(n, name, 1, 1, nil, false, ex) || !r.once(name, n, name) {
		return
	}
	v := n.Arg(0)
	var text string
	switch v.Kind() {
	case kdl.String:
		text = v.String()
	case kdl.Int:
		text = strconv.Itoa(v.Int())
	default:
		r.fail(v.Location(), name, show(v), `is not a duration: write it as "90s", "2m" or "1h30m", or as a number of seconds`, ex)
		return
	}
	d, why := parseTimeout(text)
	if why != "" {
		r.fail(v.Location(), name, show(v), why, ex)
		return
	}
	*r.out.cfg.timeoutSetting(name) = Setting[time.Duration]{Value: d, Source: r.at(v.Location())}
}
