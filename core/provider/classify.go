package provider

import (
	"net/http"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// classifyHeaderNames are the response headers passed to the codec's
// classify-failure, as the world lists them: request identifiers, retry
// signals and the server's date (an HTTP-date retry-after is measured from
// it). Headers starting with "x-ratelimit-" are passed too.
var classifyHeaderNames = []string{"request-id", "x-request-id", "x-should-retry", "retry-after", "retry-after-ms", "date"}

// maxClassifyHeaders bounds how many header values cross to the codec,
// so a response with thousands of x-ratelimit-* lines costs little.
const maxClassifyHeaders = 64

// classifyHeaders returns the headers of h that bear on classifying a
// failed response, lower-cased, sorted by name, each value in order.
func classifyHeaders(h http.Header) []pluginabi.ResponseHeader {
	var out []pluginabi.ResponseHeader
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		name := strings.ToLower(k)
		if !slices.Contains(classifyHeaderNames, name) && !strings.HasPrefix(name, "x-ratelimit-") {
			continue
		}
		for _, v := range h[k] {
			if len(out) == maxClassifyHeaders {
				return out
			}
			out = append(out, pluginabi.ResponseHeader{Name: name, Value: v})
		}
	}
	return out
}
