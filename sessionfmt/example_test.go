package sessionfmt_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/smith-agent/smith/sessionfmt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "chat.session")

	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		panic(err)
	}
	hello, _ := sessionfmt.EncodeContent(map[string]string{"role": "user", "text": "hello"})
	root := sessionfmt.Entry{ID: sessionfmt.NewID(), Time: time.Now(), Kind: sessionfmt.KindMessage, Content: hello}
	if err := f.Append(root, sessionfmt.Durable); err != nil {
		panic(err)
	}
	effect := sessionfmt.NewID()
	intent, _ := sessionfmt.EncodeContent(map[string]string{"op": "fs.read", "path": "main.go"})
	err = f.Append(sessionfmt.Entry{ID: sessionfmt.NewID(), Parent: root.ID, Time: time.Now(),
		Kind: sessionfmt.KindEffectIntent, Pair: effect, Cause: root.ID, Content: intent}, sessionfmt.Durable)
	if err != nil {
		panic(err)
	}
	f.Close()

	s, report, err := sessionfmt.Load(path, nil)
	if err != nil {
		panic(err)
	}
	for _, i := range s.History(s.Selected(), nil) {
		var v map[string]string
		e := s.Entry(i)
		sessionfmt.DecodeContent(e.Content, &v)
		fmt.Println(e.Kind, v)
	}
	fmt.Println("damaged:", report.Damaged())
	// Output:
	// message map[role:user text:hello]
	// effect_intent map[op:fs.read path:main.go]
	// damaged: false
}
