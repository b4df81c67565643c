package plugin

import (
	"unicode/utf8"

	"github.com/smith-agent/smith/core/model"
)

// outputText turns a command's output chunks into text updates of the
// running tool call, holding back an incomplete UTF-8 sequence at a
// chunk's end for the next one. Each update carries only the new text.
func outputText(update func([]model.Content)) func([]byte) {
	var carry []byte
	return func(b []byte) {
		b = append(carry, b...)
		cut := len(b)
		for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
			if utf8.RuneStart(b[len(b)-i]) {
				if !utf8.FullRune(b[len(b)-i:]) {
					cut = len(b) - i
				}
				break
			}
		}
		carry = append([]byte(nil), b[cut:]...)
		if cut > 0 {
			update([]model.Content{model.Text{Text: string(b[:cut])}})
		}
	}
}
