package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
)

// comparer compares a fixture's expected value with a built one and
// collects readable differences.
type comparer struct {
	diffs []string
	// synth maps each "<synthesized-N>" placeholder to the id the decoder
	// made up for it; any unique non-empty id is accepted.
	synth map[string]string
	// compactRaw compares arguments_raw as compacted JSON: Gemini sends
	// arguments as a JSON object, and the expectations hold a
	// re-serialization of it rather than the wire bytes.
	compactRaw bool
	// subset compares only the keys the expectation has.
	subset bool
}

var synthRe = regexp.MustCompile(`^<synthesized-\d+>$`)

func (c *comparer) compare(path string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			c.diff(path, want, got)
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			c.compareField(path+"."+k, k, w[k], g[k])
		}
		for k, v := range g {
			if _, ok := w[k]; !ok && !isZero(v) && !c.subset {
				c.diffs = append(c.diffs, fmt.Sprintf("%s.%s: not in the expectation, but built as %s", path, k, show(v)))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			c.diff(path, want, got)
			return
		}
		for i := range w {
			c.compare(fmt.Sprintf("%s[%d]", path, i), w[i], g[i])
		}
	case json.Number:
		g, ok := got.(json.Number)
		wf, _ := strconv.ParseFloat(string(w), 64)
		gf, _ := strconv.ParseFloat(string(g), 64)
		if !ok || wf != gf {
			c.diff(path, want, got)
		}
	case string:
		if synthRe.MatchString(w) {
			g, _ := got.(string)
			if prev, seen := c.synth[w]; seen && prev != g || g == "" {
				c.diff(path, want, got)
				return
			}
			for k, v := range c.synth {
				if v == g && k != w {
					c.diffs = append(c.diffs, fmt.Sprintf("%s: synthesized id %q reused for %s and %s", path, g, k, w))
				}
			}
			c.synth[w] = g
			return
		}
		if !reflect.DeepEqual(want, got) {
			c.diff(path, want, got)
		}
	default:
		if !reflect.DeepEqual(want, got) {
			c.diff(path, want, got)
		}
	}
}

func (c *comparer) compareField(path, key string, want, got any) {
	if key == "arguments_raw" && c.compactRaw {
		ws, _ := want.(string)
		gs, _ := got.(string)
		if compact(ws) != compact(gs) {
			c.diff(path, want, got)
		}
		return
	}
	c.compare(path, want, got)
}

func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

func (c *comparer) diff(path string, want, got any) {
	c.diffs = append(c.diffs, fmt.Sprintf("%s:\n\twant %s\n\t got %s", path, show(want), show(got)))
}

func show(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		return string(b[:300]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return string(b)
}

func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case string:
		return v == ""
	}
	return false
}
