package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
)

// EndpointURL returns the URL a request for modelID would be sent to, as
// the codec builds it from its base URL (configuration's, a *_BASE_URL
// variable's or its own default), and whether it would carry a
// credential, without sending anything: the host can then refuse the
// endpoint before a prompt is recorded, where only the codec knows which
// variable it reads. It builds a one-message request through the codec
// and resolves its template (an optional credential nobody configured is
// left out, as at dispatch); nothing is recorded or journaled.
func (p *Provider) EndpointURL(ctx context.Context, modelID string) (url string, credentialed bool, err error) {
	cfg := &p.cfg
	req := &model.Request{Model: modelID, Messages: []model.Message{model.UserMessage{Content: []model.Content{model.Text{Text: "."}}}}, MaxOutputTokens: 1}
	doc, err := p.document(req)
	if err != nil {
		return "", false, fmt.Errorf("provider: encode a request for %q: %w", cfg.Name, err)
	}
	in, err := cfg.Instances.Acquire(ctx, cfg.Plugin)
	if err != nil {
		return "", false, fmt.Errorf("provider: start codec plugin %q for %q: %w", cfg.Plugin, cfg.Name, err)
	}
	defer in.Release()
	tpl, err := pluginabi.Bind(in).BuildRequest(ctx, pluginabi.RequestSnapshot{Provider: cfg.Name, Model: modelID, Document: doc},
		pluginabi.BuildOptions{Streaming: true})
	if err != nil {
		var fault pluginabi.CodecFault
		if errors.As(err, &fault) {
			return "", false, fmt.Errorf("provider: the codec for %q refused a request: %w", cfg.Name, fault)
		}
		return "", false, fmt.Errorf("provider: codec plugin %q failed building a request for %q: %w", cfg.Plugin, cfg.Name, err)
	}
	r, err := resolve(cfg.Name, tpl, cfg.Secrets, nil)
	if err != nil {
		return "", false, err
	}
	return r.req.URL, len(r.req.SecretHeaders) > 0, nil
}
