package protocol

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func TestDivergenceString(t *testing.T) {
	tests := []struct {
		name string
		d    Divergence
		want []string
	}{
		{"tool", Divergence{Kind: DivergeTool, Turn: 2, EffectID: "01E", Tool: "read", CallID: "call_1", Recorded: "a", Observed: "b",
			RecordedMutation: model.MutationApplied, ObservedMutation: model.MutationApplied},
			[]string{"turn 2", "tool read", "call call_1", "effect 01E", `recorded "a", observed "b"`}},
		{"mutation only", Divergence{Kind: DivergeTool, Turn: 1, EffectID: "01E", Tool: "edit", CallID: "c", Recorded: "x", Observed: "x",
			RecordedMutation: model.MutationApplied, ObservedMutation: model.MutationNotApplied},
			[]string{"mutation recorded applied, observed not_applied"}},
		{"decode", Divergence{Kind: DivergeDecode, Turn: 3, EffectID: "01X", Tool: "provider.exchange", Recorded: "{}", Observed: "{\"a\":1}"},
			[]string{"provider exchange 01X decodes differently", "turn 3"}},
		{"long outputs cut", Divergence{Kind: DivergeTool, Recorded: strings.Repeat("é", 300), Observed: ""},
			[]string{"…"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.d.String()
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("%q lacks %q", s, w)
				}
			}
			if len(s) > 700 {
				t.Errorf("%d bytes; outputs are cut to 200 bytes", len(s))
			}
		})
	}
	if !(ReplayReport{}).Matched() || (ReplayReport{Divergences: []Divergence{{}}}).Matched() {
		t.Error("Matched is wrong")
	}
}
