package runtime

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/streamasm"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/provider"
)

// replayExchangeIntent and replayExchangeOutput are the fields of a
// provider exchange's journaled input and output that replay reads (see
// core/provider's journal).
type replayExchangeIntent struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

type replayExchangeOutput struct {
	Status  int    `json:"status"`
	Outcome string `json:"outcome"`
	Body    string `json:"body"`
}

// redecode decodes the response body an exchange recorded through its
// codec plugin, as the live stream did, and compares the message it
// assembles with the recorded one m. On a match it returns the decoded
// deltas; otherwise a divergence (and nil deltas). Notes say why an
// exchange could not be compared; that is not a divergence.
func (r *replayer) redecode(ex replayEffect, m model.AssistantMessage) (deltas []model.StreamEvent, notes []string, div *protocol.Divergence) {
	c, ok := r.completion(ex.id)
	if !ok || c.Recovered {
		return nil, nil, nil
	}
	var in replayExchangeIntent
	var out replayExchangeOutput
	if json.Unmarshal([]byte(ex.intent.Input), &in) != nil || json.Unmarshal(c.Output, &out) != nil {
		return nil, []string{fmt.Sprintf("replay: provider exchange %s is not in a form this Smith reads; its response is not decoded again", ex.id)}, nil
	}
	if out.Status < 200 || out.Status > 299 || out.Outcome != "complete" || c.OutputTruncated {
		return nil, nil, nil // a refused or cut response: nothing to compare
	}
	gen, err := r.rt.Generation(r.ctx)
	if err != nil {
		return nil, []string{fmt.Sprintf("replay: provider exchange %s is not decoded again: %v", ex.id, err)}, nil
	}
	def, ok := gen.Provider(in.Provider)
	if !ok {
		return nil, []string{fmt.Sprintf("replay: provider exchange %s is not decoded again: no codec plugin of this Smith declares provider %q", ex.id, in.Provider)}, nil
	}
	observed, evs, err := replayDecode(r, def.Plugin, in, out)
	d := protocol.Divergence{Kind: protocol.DivergeDecode, Turn: r.run, EffectID: ex.id.String(), Tool: provider.ExchangeKind}
	rec, _ := json.Marshal(m)
	d.Recorded = string(rec)
	if err != nil {
		d.Observed = err.Error()
		return nil, nil, &d
	}
	// The cost is the catalog's price of the usage, not the codec's
	// decoding: compare the rest.
	observed.Usage.CostNanoUSD = m.Usage.CostNanoUSD
	obs, _ := json.Marshal(observed)
	if string(obs) != string(rec) {
		d.Observed = string(obs)
		return nil, nil, &d
	}
	return evs, nil, nil
}

// replayDecode runs the codec plugin's decoder over body and assembles
// the message; it returns the message and its non-terminal deltas.
func replayDecode(r *replayer, plugin string, in replayExchangeIntent, out replayExchangeOutput) (model.AssistantMessage, []model.StreamEvent, error) {
	gen, err := r.rt.Generation(r.ctx)
	if err != nil {
		return model.AssistantMessage{}, nil, err
	}
	dec, err := provider.NewDecoder(r.ctx, gen, plugin, provider.DecodeOptions{Provider: in.Provider, Model: in.Model, Status: out.Status})
	if err != nil {
		return model.AssistantMessage{}, nil, err
	}
	defer dec.Close()
	evs, err := dec.Decode(r.ctx, []byte(out.Body), nil)
	if err == nil {
		evs, err = dec.Finish(r.ctx, evs)
	}
	if err != nil {
		return model.AssistantMessage{}, nil, err
	}
	var asm streamasm.Assembler
	deltas := make([]model.StreamEvent, 0, len(evs))
	for _, ev := range evs {
		switch ev.(type) {
		case model.Retrying, model.FailingOver, model.Note:
			continue
		}
		if err := asm.Push(ev); err != nil {
			break
		}
		switch ev.(type) {
		case model.Done, model.StreamError:
		default:
			deltas = append(deltas, ev)
		}
	}
	msg := asm.Message()
	if msg.Content == nil {
		msg.Content = []model.Content{}
	}
	return msg, deltas, nil
}

// replayCompare compares a recorded tool result with the one observed
// when the call ran again: their text and mutation state.
func replayCompare(recorded, observed model.ToolResultMessage) (protocol.Divergence, bool) {
	rt, ot := replayText(recorded), replayText(observed)
	if rt == ot && recorded.Mutation == observed.Mutation && recorded.IsError == observed.IsError {
		return protocol.Divergence{}, false
	}
	return protocol.Divergence{Kind: protocol.DivergeTool, Tool: recorded.Name, CallID: recorded.CallID, Recorded: rt, Observed: ot,
		RecordedMutation: recorded.Mutation, ObservedMutation: observed.Mutation}, true
}

// replayText is the text of a tool result's content, an error marked.
func replayText(m model.ToolResultMessage) string {
	var b strings.Builder
	if m.IsError {
		b.WriteString("error: ")
	}
	for _, c := range m.Content {
		switch c := c.(type) {
		case model.Text:
			b.WriteString(c.Text)
		case model.Image:
			fmt.Fprintf(&b, "[image %s, %d bytes]", c.MediaType, len(c.Data))
		}
	}
	return b.String()
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// jsonUnquote decodes the JSON string b into s.
func jsonUnquote(b []byte, s *string) error { return json.Unmarshal(b, s) }
