package guest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/handoff"
	"github.com/smith-agent/smith/wit/provider"
)

// BuildRequest builds the request template for a snapshot: the history is
// handed off to the target provider (foreign thinking and ids
// transformed), the base URL resolved (default < document base_url <
// the provider's conventional environment variable from the document's
// environment < base_url_flag), and the credential left as a secret reference named after
// the provider's first credential variable.
func (Plugin) BuildRequest(s provider.RequestSnapshot, _ provider.BuildOptions) (provider.RequestTemplate, error) {
	e, err := lookup(s.Provider)
	if err != nil {
		return provider.RequestTemplate{}, err
	}
	var doc Document
	if err := json.Unmarshal([]byte(s.Document), &doc); err != nil {
		return provider.RequestTemplate{}, unsupported("guest: request document for %q is not valid JSON: %v", s.Provider, err)
	}
	r, err := doc.request(s.Model)
	if err != nil {
		return provider.RequestTemplate{}, unsupported("%v", err)
	}
	r.Messages = handoff.Transform(r.Messages, handoff.Target{Provider: s.Provider, API: e.API, Model: s.Model, IDStyle: e.IDStyle})
	base, _, err := endpoints.ResolveBaseURL(e, doc.BaseURL, doc.Environment[e.BaseURLEnv], doc.BaseURLFlag)
	if err != nil {
		return provider.RequestTemplate{}, unsupported("%v", err)
	}
	quirks := e.Quirks
	if doc.Quirks != nil {
		quirks = *doc.Quirks
	}
	ref := ""
	if len(e.KeyEnv) > 0 {
		ref = e.KeyEnv[0]
	}
	h, err := codec.BuildRequest(codec.API(e.API), r, quirks, ref)
	if err != nil {
		return provider.RequestTemplate{}, unsupported("%v", err)
	}
	t := provider.RequestTemplate{Method: provider.HTTPMethodPost, Body: h.Body,
		URL: []provider.TemplatePart{literal(base + h.Path)}}
	if strings.ToUpper(h.Method) == "GET" {
		t.Method = provider.HTTPMethodGet
	}
	for _, hd := range h.Headers {
		v := []provider.TemplatePart{}
		if hd.Value != "" {
			v = append(v, literal(hd.Value))
		}
		if hd.SecretRef != "" {
			v = append(v, provider.TemplatePart{Case: provider.TemplatePartSecret, Secret: provider.SecretReference{Name: hd.SecretRef}})
		}
		t.Headers = append(t.Headers, provider.HeaderTemplate{Name: hd.Name, Value: v})
	}
	return t, nil
}

func literal(s string) provider.TemplatePart {
	return provider.TemplatePart{Case: provider.TemplatePartLiteral, Literal: s}
}

func unsupported(format string, args ...any) provider.CodecFault {
	return provider.CodecFault{Case: provider.CodecFaultUnsupportedRequest, UnsupportedRequest: fmt.Sprintf(format, args...)}
}

// lookup returns the endpoint of a declared provider.
func lookup(name string) (endpoints.Endpoint, error) {
	for _, p := range Providers {
		if p == name {
			return endpoints.Lookup(name)
		}
	}
	return endpoints.Endpoint{}, provider.CodecFault{Case: provider.CodecFaultUnknownProvider,
		UnknownProvider: fmt.Sprintf("%s (this plugin declares %s)", name, strings.Join(Providers, ", "))}
}
