package catalog

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
)

// Needs is what one request asks of a model.
type Needs struct {
	// Images is true when the conversation carries image content.
	Images bool
	// Tools is true when tools are offered.
	Tools bool
	// StrictTools asks for grammar-constrained tool input.
	StrictTools bool
	// Thinking is the requested level; "" means the provider's default.
	Thinking Level
	// MaxOutput is the requested output bound; 0 means the model's default.
	MaxOutput int
}

// NeedsOf derives Needs from a request and the requested thinking level.
func NeedsOf(req *model.Request, thinking Level) Needs {
	n := Needs{Tools: len(req.Tools) > 0, Thinking: thinking, MaxOutput: req.MaxOutputTokens}
	for _, m := range req.Messages {
		var blocks []model.Content
		switch m := m.(type) {
		case model.UserMessage:
			blocks = m.Content
		case model.ToolResultMessage:
			blocks = m.Content
		}
		for _, b := range blocks {
			if _, ok := b.(model.Image); ok {
				n.Images = true
			}
		}
	}
	return n
}

// Degrade says what to do when a request asks for something a model lacks.
type Degrade string

// The degradation choices.
const (
	// DegradeFail fails before dispatch.
	DegradeFail Degrade = "fail"
	// DegradeAdjust adjusts the request: thinking is clamped to the nearest
	// supported level (ties go to the lower, cheaper level), strict tool
	// input is sent as ordinary tool input, images are replaced by a text
	// note, an output bound above the model's is lowered to it.
	DegradeAdjust Degrade = "adjust"
)

// Policy declares how unsupported options degrade, per capability. The zero
// Policy adjusts thinking, strict tools and output bounds and fails on images
// and tools (dropping either would change what the model is asked).
type Policy struct {
	Images      Degrade
	Tools       Degrade
	Thinking    Degrade
	StrictTools Degrade
}

func (d Degrade) or(def Degrade) Degrade {
	if d == "" {
		return def
	}
	return d
}

// Grant is the admitted form of a request.
type Grant struct {
	// Thinking is the level to send ("" when none was asked).
	Thinking Level
	// StrictTools is whether to constrain tool input.
	StrictTools bool
	// DropImages is true when images must be replaced before dispatch
	// (see [StripImages]).
	DropImages bool
	// MaxOutput is the output bound to send (0: the model's default).
	MaxOutput int
	// Notes describe each adjustment, for a warning diagnostic.
	Notes []string
}

// CapabilityError is a request the model cannot serve under the policy. Its
// message names the model, the capability and the evidence.
type CapabilityError struct {
	Model      string
	Capability string
	Detail     string
}

func (e *CapabilityError) Error() string {
	return fmt.Sprintf("catalog: model %s does not support %s: %s", e.Model, e.Capability, e.Detail)
}

// Admit checks needs against m's advertised capabilities before dispatch.
// It returns the Grant to send, or a *CapabilityError naming the model and
// the capability.
func Admit(m Model, n Needs, p Policy) (Grant, error) {
	g := Grant{Thinking: n.Thinking, StrictTools: n.StrictTools, MaxOutput: n.MaxOutput}
	fail := func(capability, detail string) (Grant, error) {
		evidence := fmt.Sprintf("(%s evidence: %s)", m.Evidence, m.Provenance.Source)
		return Grant{}, &CapabilityError{Model: m.Ref(), Capability: capability, Detail: detail + " " + evidence}
	}
	if n.Images && !m.Accepts(Image) {
		if p.Images.or(DegradeFail) == DegradeFail {
			return fail("image input", fmt.Sprintf("it accepts %s only; remove the image or choose a model with image input", joinModalities(m.Input)))
		}
		g.DropImages = true
		g.Notes = append(g.Notes, fmt.Sprintf("%s takes no images; images were replaced by a text note", m.Ref()))
	}
	if n.Tools && !m.Tools {
		if p.Tools.or(DegradeFail) == DegradeFail {
			return fail("tool use", "it cannot call tools; choose a model with tool use or run without tools")
		}
		g.Notes = append(g.Notes, fmt.Sprintf("%s cannot call tools; the request is sent without them", m.Ref()))
	}
	if n.StrictTools && !m.StrictTools {
		if p.StrictTools.or(DegradeAdjust) == DegradeFail {
			return fail("strict tool input", "its tool input cannot be constrained to the schema; allow ordinary tool input")
		}
		g.StrictTools = false
		g.Notes = append(g.Notes, fmt.Sprintf("%s has no strict tool input; tool arguments are validated after the fact", m.Ref()))
	}
	if n.Thinking != "" && !m.Supports(n.Thinking) {
		if n.Thinking.rank() < 0 {
			return fail("thinking level "+string(n.Thinking), "that is not a thinking level; use off, minimal, low, medium, high or xhigh")
		}
		supported := joinLevels(m.Thinking)
		if p.Thinking.or(DegradeAdjust) == DegradeFail {
			return fail("thinking level "+string(n.Thinking), "it supports "+supported+"; pick one of those")
		}
		g.Thinking = nearest(n.Thinking, m.Thinking)
		g.Notes = append(g.Notes, fmt.Sprintf("%s has no thinking level %s (it supports %s); using %s", m.Ref(), n.Thinking, supported, g.Thinking))
	}
	if n.MaxOutput > 0 && m.MaxOutput > 0 && n.MaxOutput > m.MaxOutput {
		g.MaxOutput = m.MaxOutput
		g.Notes = append(g.Notes, fmt.Sprintf("%s writes at most %d output tokens; the bound %d was lowered to it", m.Ref(), m.MaxOutput, n.MaxOutput))
	}
	return g, nil
}

// nearest returns the supported level closest to want; ties go to the lower.
func nearest(want Level, supported []Level) Level {
	best, bestDist := supported[0], -1
	for _, l := range supported {
		d := l.rank() - want.rank()
		if d < 0 {
			d = -d
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = l, d
		}
	}
	return best
}

func joinLevels(ls []Level) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

func joinModalities(ms []Modality) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = string(m)
	}
	return strings.Join(s, ", ")
}

// StripImages returns a copy of req whose image blocks are replaced by a
// text note; req is not modified.
func StripImages(req *model.Request) *model.Request {
	out := *req
	out.Messages = make([]model.Message, len(req.Messages))
	for i, m := range req.Messages {
		switch m := m.(type) {
		case model.UserMessage:
			m.Content = replaceImages(m.Content)
			out.Messages[i] = m
		case model.ToolResultMessage:
			m.Content = replaceImages(m.Content)
			out.Messages[i] = m
		default:
			out.Messages[i] = m
		}
	}
	return &out
}

func replaceImages(in []model.Content) []model.Content {
	out := make([]model.Content, len(in))
	for i, b := range in {
		if img, ok := b.(model.Image); ok {
			b = model.Text{Text: fmt.Sprintf("[image (%s) omitted: this model takes no images]", img.MediaType)}
		}
		out[i] = b
	}
	return out
}
