package codec_test

import (
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// A Chat Completions body decoded in two chunks split inside a JSON
// payload; the events are the same as for the whole body.
func ExampleNewDecoder() {
	d, _ := codec.NewDecoder(codec.OpenAIChat, "openai")
	var events []norm.Event
	events = append(events, d.Feed([]byte("data: {\"id\":\"c1\",\"model\":\"gpt-5\",\"choices\":[{\"delta\":{\"content\":\"Ol"))...)
	events = append(events, d.Feed([]byte("á!\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))...)
	events = append(events, d.Close()...)
	for _, e := range events {
		switch e := e.(type) {
		case norm.Start:
			fmt.Println("start", e.Model)
		case norm.TextDelta:
			fmt.Printf("text %q\n", e.Text)
		case norm.Done:
			fmt.Println("done", e.Reason, "usage known:", e.Usage.IsKnown())
		}
	}
	// Output:
	// start gpt-5
	// text "Olá!"
	// done end usage known: false
}

// A request template carries the credential as a reference only.
func ExampleBuildRequest() {
	r := &norm.Request{Model: "claude-sonnet-4-5", Messages: []norm.Message{norm.UserText("hi")}}
	hr, _ := codec.BuildRequest(codec.Anthropic, r, codec.Quirks{}, "ANTHROPIC_API_KEY")
	fmt.Println(hr.Method, hr.Path)
	for _, h := range hr.Headers {
		if h.SecretRef != "" {
			fmt.Printf("%s: %q + secret %s\n", h.Name, h.Value, h.SecretRef)
		}
	}
	fmt.Println(string(hr.Body))
	// Output:
	// POST /v1/messages
	// x-api-key: "" + secret ANTHROPIC_API_KEY
	// {"max_tokens":4096,"messages":[{"content":[{"text":"hi","type":"text"}],"role":"user"}],"model":"claude-sonnet-4-5","stream":true}
}
