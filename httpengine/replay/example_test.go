package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/smith-agent/smith/httpengine"
	"github.com/smith-agent/smith/httpengine/replay"
)

func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data: recorded\n\n")
	}))
	defer srv.Close()
	fetch := func(rt http.RoundTripper) string {
		eng, _ := httpengine.New(httpengine.Config{Transport: rt})
		resp, err := eng.Exchange(context.Background(), httpengine.Request{URL: srv.URL + "/v1"})
		if err != nil {
			return err.Error()
		}
		var body []byte
		for c, ok := resp.Body.Next(); ok; c, ok = resp.Body.Next() {
			body = append(body, c...)
		}
		return fmt.Sprintf("%s %q", resp.Body.End().Outcome, body)
	}

	// Record a live exchange and store it.
	live, _ := httpengine.NewTransport(httpengine.TransportConfig{})
	rec := replay.NewRecorder(live)
	fmt.Println("live:  ", fetch(rec))
	var file bytes.Buffer
	replay.Encode(&file, rec.Exchanges())

	// Later, with the server gone: replay it from the stored bytes.
	srv.Close()
	exchanges, err := replay.Decode(file.Bytes())
	if err != nil {
		panic(err)
	}
	fmt.Println("replay:", fetch(replay.NewTransport(exchanges)))
	// Output:
	// live:   complete "data: recorded\n\n"
	// replay: complete "data: recorded\n\n"
}
