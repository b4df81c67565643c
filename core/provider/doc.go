// Package provider is the provider bridge: a [model.Provider] whose vendor
// knowledge lives in a provider codec plugin (the smith:plugin provider
// interface). For each request it asks the codec for a request template,
// resolves the template's secret references through a [Secrets] resolver,
// substitutes plaintext only in the request handed to the HTTP engine,
// records the exchange with the references in place of the values, feeds
// the raw response chunks to the plugin's decoder and yields normalized
// model stream events. A non-2xx response is classified by the codec into
// a model error with a retry hint. A declared secret whose name ends in "?"
// is optional ([OptionalSecret]): when the resolver has no value for it
// ([ErrNoSecret]) the header referencing it is not sent.
//
//	p, err := provider.New(provider.Config{
//		Name:      "anthropic",
//		Plugin:    "providers-anthropic",
//		Instances: generation,
//		Engine:    engine,
//		Secrets:   provider.EnvSecrets(os.Getenv),
//	})
//	stream := p.Stream(ctx, &model.Request{Model: "claude-sonnet-4-5", Messages: msgs})
package provider
