package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func testSnapshot(t *testing.T, extra ...Layer) *Snapshot {
	t.Helper()
	d := mustParse(t, testDoc("2026-01-01"), EvidenceBundled)
	return Build(d.Generated, append([]Layer{LayerOf(d, EvidenceBundled)}, extra...)...)
}

// TestExplicitEvidenceBeatsFamilyInference: "acme/vis-text" matches the
// family rule "vis-" (which says images are accepted) but its explicit entry
// says text only; the explicit entry wins. "acme/vis-new" has no entry and
// is inferred from the family.
func TestExplicitEvidenceBeatsFamilyInference(t *testing.T) {
	providerSays := Layer{Evidence: EvidenceProvider, Origin: FileOrigin{Source: "plugin acme"}, Models: []Model{{
		Provider: "acme", ID: "vis-declared", Name: "declared", Context: 4096, MaxOutput: 1024, Input: []Modality{Text},
		Thinking: []Level{LevelOff}, Cache: CacheNone, Provenance: Provenance{Source: "plugin acme", Date: "2026-01-01"}}}}
	s := testSnapshot(t, providerSays)
	img := Needs{Images: true}
	tests := []struct {
		name     string
		id       string
		evidence Evidence
		images   bool
	}{
		{name: "bundled entry beats family", id: "vis-text", evidence: EvidenceBundled, images: false},
		{name: "provider declaration beats family", id: "vis-declared", evidence: EvidenceProvider, images: false},
		{name: "family inference when nothing explicit", id: "vis-new", evidence: EvidenceInferred, images: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := s.Lookup("acme", tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if m.Evidence != tt.evidence {
				t.Errorf("evidence %q, want %q", m.Evidence, tt.evidence)
			}
			_, err = Admit(m, img, Policy{})
			if (err == nil) != tt.images {
				t.Errorf("image admitted = %v, want %v (err %v)", err == nil, tt.images, err)
			}
		})
	}
	if _, err := s.Lookup("acme", "other"); err == nil || !strings.Contains(err.Error(), `no model "other" at provider "acme"`) {
		t.Errorf("unknown model: %v", err)
	}
	if _, err := s.Lookup("elsewhere", "think"); err == nil || !strings.Contains(err.Error(), "served by acme/think") {
		t.Errorf("wrong provider should name the serving provider: %v", err)
	}
}

func TestAdmit(t *testing.T) {
	s := testSnapshot(t)
	text, _ := s.Lookup("acme", "vis-text")
	think, _ := s.Lookup("acme", "think-latest")
	tests := []struct {
		name    string
		m       Model
		needs   Needs
		policy  Policy
		want    Grant
		wantErr string
	}{
		{name: "image to text-only fails", m: text, needs: Needs{Images: true},
			wantErr: "catalog: model acme/vis-text does not support image input: it accepts text only"},
		{name: "image to text-only adjusts when declared", m: text, needs: Needs{Images: true}, policy: Policy{Images: DegradeAdjust},
			want: Grant{DropImages: true}},
		{name: "image to image model", m: think, needs: Needs{Images: true}, want: Grant{}},
		{name: "supported level kept", m: think, needs: Needs{Thinking: LevelHigh}, want: Grant{Thinking: LevelHigh}},
		{name: "xhigh clamps down to high", m: think, needs: Needs{Thinking: LevelXHigh}, want: Grant{Thinking: LevelHigh}},
		{name: "off clamps up to low", m: think, needs: Needs{Thinking: LevelOff}, want: Grant{Thinking: LevelLow}},
		{name: "medium tie goes to the lower", m: think, needs: Needs{Thinking: LevelMedium}, want: Grant{Thinking: LevelLow}},
		{name: "thinking on a model without it clamps to off", m: text, needs: Needs{Thinking: LevelHigh}, want: Grant{Thinking: LevelOff}},
		{name: "thinking fails when declared", m: think, needs: Needs{Thinking: LevelMedium}, policy: Policy{Thinking: DegradeFail},
			wantErr: "catalog: model acme/think does not support thinking level medium: it supports low, high"},
		{name: "strict tools degrade", m: text, needs: Needs{Tools: true, StrictTools: true}, want: Grant{}},
		{name: "strict tools fail when declared", m: text, needs: Needs{StrictTools: true}, policy: Policy{StrictTools: DegradeFail},
			wantErr: "does not support strict tool input"},
		{name: "strict tools kept", m: think, needs: Needs{StrictTools: true}, want: Grant{StrictTools: true}},
		{name: "output bound lowered", m: text, needs: Needs{MaxOutput: 100000}, want: Grant{MaxOutput: 4096}},
		{name: "output bound kept", m: text, needs: Needs{MaxOutput: 100}, want: Grant{MaxOutput: 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Admit(tt.m, tt.needs, tt.policy)
			if tt.wantErr != "" {
				var ce *CapabilityError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want a CapabilityError containing %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "bundled evidence: test") {
					t.Errorf("error %q does not name its evidence", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Thinking != tt.want.Thinking || g.StrictTools != tt.want.StrictTools || g.DropImages != tt.want.DropImages || g.MaxOutput != tt.want.MaxOutput {
				t.Errorf("grant %+v, want %+v", g, tt.want)
			}
			changed := tt.want.Thinking != tt.needs.Thinking || tt.want.DropImages || tt.want.StrictTools != tt.needs.StrictTools || tt.want.MaxOutput != tt.needs.MaxOutput
			if changed != (len(g.Notes) > 0) {
				t.Errorf("notes %q: every adjustment, and only an adjustment, needs a note", g.Notes)
			}
		})
	}
}

func TestNeedsOfAndStripImages(t *testing.T) {
	req := &model.Request{Model: "x", Tools: []model.ToolDefinition{{Name: "read"}}, MaxOutputTokens: 50,
		Messages: []model.Message{
			model.UserText("hi"),
			model.UserMessage{Content: []model.Content{model.Text{Text: "look"}, model.Image{MediaType: "image/png", Data: []byte{1}}}},
		}}
	n := NeedsOf(req, LevelLow)
	if !n.Images || !n.Tools || n.Thinking != LevelLow || n.MaxOutput != 50 {
		t.Fatalf("needs %+v", n)
	}
	out := StripImages(req)
	if NeedsOf(out, "").Images {
		t.Error("images remain after StripImages")
	}
	if _, ok := req.Messages[1].(model.UserMessage).Content[1].(model.Image); !ok {
		t.Error("StripImages modified its input")
	}
	note := out.Messages[1].(model.UserMessage).Content[1].(model.Text).Text
	if !strings.Contains(note, "image/png") {
		t.Errorf("note %q", note)
	}
}
