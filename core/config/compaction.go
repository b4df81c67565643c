package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// DefaultKeepRecentTokens is how much of the recent conversation a
// compaction keeps verbatim when keep-recent-tokens is not set: 20,000
// tokens.
const DefaultKeepRecentTokens = 20000

// DefaultReserveTokens is the room a compaction threshold leaves below
// the context window, besides the model's output, when neither threshold
// nor reserve-tokens is set: 16,384 tokens, or an eighth of the window
// when that is less.
const DefaultReserveTokens = 16384

// Compaction is the compaction block of smith.kdl: when and how the
// runtime compacts a session's context (summarises its older part so that
// the conversation fits the model's context window).
//
//	compaction {
//	    auto #true               // compact before a request that crosses the threshold
//	    threshold 0.8            // a fraction of the context window, or:
//	    reserve-tokens 16384     // the room left besides the model's output
//	    keep-recent-tokens 20000 // recent context kept verbatim
//	    model "fast"             // the model that writes the summary
//	}
//
// threshold and reserve-tokens are two ways of saying when: a block sets
// at most one of them, and the highest layer that sets either decides.
// The zero value is every default. It is immutable after [Load].
type Compaction struct {
	// Auto turns automatic compaction (at the threshold) on or off; unset
	// is on. Compaction on a provider's context-overflow error and on
	// demand happen either way.
	Auto Setting[bool]
	// Threshold is the fraction of the context window (0 < t ≤ 1) whose
	// crossing compacts; unset means the reserve decides.
	Threshold Setting[float64]
	// ReserveTokens is the room left below the context window besides the
	// model's output bound; unset is [DefaultReserveTokens] (or an eighth
	// of the window when that is less).
	ReserveTokens Setting[int]
	// KeepRecentTokens bounds the recent context kept verbatim; unset is
	// [DefaultKeepRecentTokens].
	KeepRecentTokens Setting[int]
	// Model is the model (an alias, a group or PROVIDER/MODEL) that writes
	// the summaries; unset is the session's own model.
	Model Setting[string]
}

// AutoEnabled reports whether compaction at the threshold is on (the
// default).
func (c Compaction) AutoEnabled() bool { return !c.Auto.IsSet() || c.Auto.Value }

// KeepRecent returns the token budget of the recent context kept verbatim.
func (c Compaction) KeepRecent() int {
	if c.KeepRecentTokens.IsSet() {
		return c.KeepRecentTokens.Value
	}
	return DefaultKeepRecentTokens
}

// Limit returns the estimated input size, in tokens, above which a
// request is compacted first, for a model with a context window of window
// tokens whose responses are bounded to maxOutput tokens: the threshold's
// fraction of the window, else the window less the output bound (at most
// half the window) and the reserve. It returns 0, meaning no threshold,
// when the window is unknown (0).
func (c Compaction) Limit(window, maxOutput int) int {
	if window <= 0 {
		return 0
	}
	if c.Threshold.IsSet() {
		return max(1, int(c.Threshold.Value*float64(window)))
	}
	reserve := min(DefaultReserveTokens, window/8)
	if c.ReserveTokens.IsSet() {
		reserve = c.ReserveTokens.Value
	}
	return max(1, window-min(max(maxOutput, 0), window/2)-reserve)
}

// compactionNodes are the nodes a compaction block may hold.
var compactionNodes = []string{"auto", "threshold", "reserve-tokens", "keep-recent-tokens", "model"}

const compactionExample = `compaction { threshold 0.8; keep-recent-tokens 20000; }`

// compaction reads the compaction block.
func (r *reader) compaction(n *kdl.Node) {
	if !r.shape(n, "compaction", 0, 0, nil, true, compactionExample) || !r.once("compaction", n, "compaction") {
		return
	}
	c := n.Children()
	if c == nil {
		return
	}
	out := &r.out.cfg.Compaction
	for _, k := range c.Nodes {
		path := "compaction." + k.Name()
		if !slices.Contains(compactionNodes, k.Name()) {
			r.fail(k.Location(), path, "", "is not part of the compaction block; it holds "+strings.Join(compactionNodes, ", ")+suggest(k.Name(), compactionNodes), compactionExample)
			continue
		}
		ex := compactionNodeExample(k.Name())
		if !r.shape(k, path, 1, 1, nil, false, ex) || !r.once(path, k, path) {
			continue
		}
		v := k.Arg(0)
		src := r.at(v.Location())
		switch k.Name() {
		case "auto":
			if v.Kind() != kdl.Bool {
				r.fail(v.Location(), path, show(v), "is not #true or #false", ex)
				continue
			}
			out.Auto = Setting[bool]{Value: v.Bool(), Source: src}
		case "threshold":
			f, ok := number(v)
			if !ok || !(f > 0 && f <= 1) {
				r.fail(v.Location(), path, show(v), "is not a fraction of the context window above 0 and at most 1", ex)
				continue
			}
			out.Threshold = Setting[float64]{Value: f, Source: src}
		case "reserve-tokens", "keep-recent-tokens":
			if v.Kind() != kdl.Int || v.Int() < 0 || v.Int() > maxTokens {
				r.fail(v.Location(), path, show(v), fmt.Sprintf("is not a whole number of tokens from 0 to %d", maxTokens), ex)
				continue
			}
			s := Setting[int]{Value: v.Int(), Source: src}
			if k.Name() == "reserve-tokens" {
				out.ReserveTokens = s
			} else {
				out.KeepRecentTokens = s
			}
		case "model":
			s, ok := r.str(v, path, ex)
			if !ok {
				continue
			}
			if strings.TrimSpace(s) == "" {
				r.fail(v.Location(), path, `""`, "is empty; name a model, or remove the node to summarise with the session's model", ex)
				continue
			}
			out.Model = Setting[string]{Value: s, Source: src}
		}
	}
	if out.Threshold.IsSet() && out.ReserveTokens.IsSet() {
		r.fail(n.Location(), "compaction", "", fmt.Sprintf("sets both threshold (%s) and reserve-tokens (%s); they are two ways of saying when to compact, keep one", out.Threshold.Source, out.ReserveTokens.Source), compactionExample)
	}
}

// compactionNodeExample is a valid form of the compaction block's node
// name.
func compactionNodeExample(name string) string {
	switch name {
	case "auto":
		return "auto #false"
	case "threshold":
		return "threshold 0.8"
	case "reserve-tokens":
		return "reserve-tokens 16384"
	case "keep-recent-tokens":
		return "keep-recent-tokens 20000"
	}
	return `model "anthropic/claude-haiku-4-5"`
}

// number returns v as a float when it is a number.
func number(v kdl.Value) (float64, bool) {
	switch v.Kind() {
	case kdl.Int:
		return float64(v.Int()), true
	case kdl.Float:
		return v.Float(), true
	case kdl.BigFloat:
		f, _ := v.BigFloat().Float64()
		return f, true
	}
	return 0, false
}

// mergeCompaction lays the compaction settings of a higher layer over
// cfg's. Threshold and reserve-tokens move together: the layer that sets
// either decides when to compact.
func mergeCompaction(cfg *Compaction, s Compaction) {
	if s.Auto.IsSet() {
		cfg.Auto = s.Auto
	}
	if s.Threshold.IsSet() || s.ReserveTokens.IsSet() {
		cfg.Threshold, cfg.ReserveTokens = s.Threshold, s.ReserveTokens
	}
	if s.KeepRecentTokens.IsSet() {
		cfg.KeepRecentTokens = s.KeepRecentTokens
	}
	if s.Model.IsSet() {
		cfg.Model = s.Model
	}
}

// entries lists the compaction settings that are set, for
// [Config.Entries].
func (c Compaction) entries(add func(path, value string, s Source)) {
	if c.Auto.IsSet() {
		add("compaction.auto", strconv.FormatBool(c.Auto.Value), c.Auto.Source)
	}
	if c.Threshold.IsSet() {
		add("compaction.threshold", strconv.FormatFloat(c.Threshold.Value, 'g', -1, 64), c.Threshold.Source)
	}
	if c.ReserveTokens.IsSet() {
		add("compaction.reserve-tokens", strconv.Itoa(c.ReserveTokens.Value), c.ReserveTokens.Source)
	}
	if c.KeepRecentTokens.IsSet() {
		add("compaction.keep-recent-tokens", strconv.Itoa(c.KeepRecentTokens.Value), c.KeepRecentTokens.Source)
	}
	if c.Model.IsSet() {
		add("compaction.model", c.Model.Value, c.Model.Source)
	}
}
