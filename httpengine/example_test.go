package httpengine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/smith-agent/smith/httpengine"
)

func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, event := range []string{"data: one\n\n", "data: two\n\n"} {
			io.WriteString(w, event)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()

	eng, err := httpengine.New(httpengine.Config{})
	if err != nil {
		panic(err)
	}
	resp, err := eng.Exchange(context.Background(), httpengine.Request{
		Method: "POST", URL: srv.URL, Body: []byte(`{"stream":true}`),
		Header: http.Header{"Authorization": {"Bearer secret"}}, // redacted in anything observed
	})
	var xe *httpengine.Error
	if errors.As(err, &xe) {
		fmt.Println("transport failed:", xe.Kind) // dns, connect, tls, timeout, reset, protocol...
		return
	}
	fmt.Println("status", resp.StatusCode)
	var body []byte
	for chunk, ok := resp.Body.Next(); ok; chunk, ok = resp.Body.Next() {
		body = append(body, chunk...) // a real consumer decodes each chunk as it arrives
	}
	end := resp.Body.End()
	fmt.Printf("%s %d bytes %q\n", end.Outcome, end.Delivered, body)
	// Output:
	// status 200
	// complete 22 bytes "data: one\n\ndata: two\n\n"
}
