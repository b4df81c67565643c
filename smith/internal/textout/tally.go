package textout

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Tally accumulates what a run's events say about its accounting and its
// failure. The zero Tally is empty and ready.
type Tally struct {
	// Usage sums the usage of the run's responses, compaction summaries
	// included; Responses counts them.
	Usage     model.Usage
	Responses int
	// Err is the last response's classified failure; nil when none failed.
	Err *model.Error
}

// Observe takes one event into account.
func (t *Tally) Observe(ev protocol.Event) {
	switch e := ev.(type) {
	case protocol.AgentStart:
		*t = Tally{}
	case protocol.MessageEnd:
		am, ok := e.Message.(model.AssistantMessage)
		if !ok {
			return
		}
		t.add(am.Usage)
		t.Err = am.Error
	case protocol.CompactionEnd:
		if e.Error == "" {
			// The summary request is one of the run's responses.
			t.add(e.Usage)
		}
	}
}

func (t *Tally) add(u model.Usage) {
	if t.Responses == 0 {
		t.Usage = u
	} else {
		t.Usage = t.Usage.Add(u)
	}
	t.Responses++
}

// Line is the run's accounting in one line, such as "2 responses · 12,345
// tokens in (10,240 read from cache, 512 written) · 340 out · $0.0213";
// what the provider did not report is "unknown", never 0.
func (t Tally) Line() string {
	responses := "1 response"
	if t.Responses != 1 {
		responses = strconv.Itoa(t.Responses) + " responses"
	}
	return Usage(responses, t.Usage)
}

// Usage renders the accounting u of what (such as "2 responses") in one
// line, as [Tally.Line] does.
func Usage(what string, u model.Usage) string {
	in := "input tokens unknown"
	// Cache reads and writes a provider did not report add nothing.
	if n, ok := u.Input.Value(); ok {
		for _, c := range []model.Amount{u.CacheRead, u.CacheWrite} {
			if v, ok := c.Value(); ok {
				n += v
			}
		}
		in = count(n) + " tokens in"
		var cache []string
		if r, ok := u.CacheRead.Value(); ok && r > 0 {
			cache = append(cache, count(r)+" read from cache")
		}
		if w, ok := u.CacheWrite.Value(); ok && w > 0 {
			cache = append(cache, count(w)+" written to cache")
		}
		if len(cache) > 0 {
			in += " (" + strings.Join(cache, ", ") + ")"
		}
	}
	out := "output tokens unknown"
	if n, ok := u.Output.Value(); ok {
		out = count(n) + " out"
	}
	_, inKnown := u.Input.Value()
	_, outKnown := u.Output.Value()
	n, costKnown := u.CostNanoUSD.Value()
	if !inKnown && !outKnown && !costKnown {
		return what + " · the provider reported no usage"
	}
	cost := "cost unknown (no price is known for the model; see smith models)"
	if costKnown {
		cost = Dollars(n)
	}
	return strings.Join([]string{what, in, out, cost}, " · ")
}

// Brief is a response's accounting in a few words: "1,234 in · 56 out ·
// $0.0012", "cost unknown" for a part not reported, or "" when nothing was.
func Brief(u model.Usage) string {
	var parts []string
	if n, ok := u.Input.Value(); ok {
		for _, c := range []model.Amount{u.CacheRead, u.CacheWrite} {
			if v, ok := c.Value(); ok {
				n += v
			}
		}
		parts = append(parts, count(n)+" in")
	}
	if n, ok := u.Output.Value(); ok {
		parts = append(parts, count(n)+" out")
	}
	if len(parts) == 0 {
		return ""
	}
	if n, ok := u.CostNanoUSD.Value(); ok {
		parts = append(parts, Dollars(n))
	} else {
		parts = append(parts, "cost unknown")
	}
	return strings.Join(parts, " · ")
}

// count renders n with thousands separators.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Dollars renders billionths of a US dollar: "$0", "<$0.0001",
// "$0.0123".
func Dollars(nano int64) string {
	switch {
	case nano == 0:
		return "$0"
	case nano < 100_000:
		return "<$0.0001"
	}
	return fmt.Sprintf("$%.4f", float64(nano)/1e9)
}

// describe is a classified error in a few words: "rate limit, HTTP 429".
func describe(e *model.Error) string {
	if e == nil {
		return "unknown failure"
	}
	s := strings.ReplaceAll(string(e.Kind), "_", " ")
	if e.HTTPStatus != 0 {
		s += fmt.Sprintf(", HTTP %d", e.HTTPStatus)
	}
	return s
}

// hints say what a user can do about each kind of failure.
var hints = map[model.ErrorKind]string{
	model.ErrAuth:            "check the credential: 'smith auth status' shows where each one comes from, 'smith auth set PROVIDER' stores a key",
	model.ErrInvalidRequest:  "the provider refused the request itself; check the options given for this model (--thinking, max-output-tokens) and its name in 'smith models'",
	model.ErrContextOverflow: "the conversation no longer fits the model's context window; start a new session, or choose a model with a larger window",
	model.ErrRateLimit:       "wait a minute and run again, or add a fallback model with a group in smith.kdl",
	model.ErrQuota:           "the account's quota or credit is used up; check the plan with the provider, or use another account or provider",
	model.ErrOverloaded:      "the provider is overloaded; wait and run again, or use another provider",
	model.ErrServer:          "the provider failed; wait and run again, or use another provider",
	model.ErrNotFound:        "the model or endpoint does not exist; check the name with 'smith models' and the base URL with 'smith config show'",
	model.ErrTransport:       "the connection failed; check the network and the provider's base URL ('smith config show')",
	model.ErrTruncated:       "the answer was cut off in transit; run again",
	model.ErrMalformed:       "the provider sent something Smith could not read; run again, and report it with the session if it persists",
	model.ErrAborted:         "run again",
}

// Failure is the one paragraph a failed run ends with: what failed, why
// and what to do, then next (where the transcript is). fallback is the
// run's end message, used when no response carried a classified error.
func (t Tally) Failure(fallback, next string) string {
	e := t.Err
	if e == nil {
		return "the run failed: " + fallback + "; " + next
	}
	var why strings.Builder
	why.WriteString(strings.TrimSuffix(e.Message, "."))
	var extra []string
	if e.HTTPStatus != 0 {
		extra = append(extra, fmt.Sprintf("HTTP %d", e.HTTPStatus))
	}
	if e.RequestID != "" {
		extra = append(extra, "request id "+e.RequestID)
	}
	if len(extra) > 0 {
		fmt.Fprintf(&why, " [%s]", strings.Join(extra, ", "))
	}
	hint := hints[e.Kind]
	if e.ProviderType == "endpoint" { // provider.EndpointRefused: Smith refused before dialing
		hint = "nothing was sent; decide where the credential may go as the message says"
	}
	if hint == "" {
		hint = "run again"
	}
	return fmt.Sprintf("the model request failed (%s): %s. What to do: %s; %s.", strings.ReplaceAll(string(e.Kind), "_", " "), why.String(), hint, next)
}

// EndReason says in words why a run ended, for a reason with no message.
func EndReason(r protocol.EndReason) string {
	switch r {
	case protocol.EndLength:
		return "the answer reached the output limit (raise max-output-tokens, or ask for less)"
	case protocol.EndRefusal:
		return "the model refused to answer"
	case protocol.EndMaxTurns:
		return "the run reached its turn limit"
	case protocol.EndMaxCost:
		return "the run reached its cost budget (max-cost)"
	case protocol.EndRecordFailed:
		return "a message could not be recorded in the session"
	case protocol.EndHandlerFailed:
		return "a plugin handler that had to decide whether a tool call may run failed"
	}
	return string(r)
}
