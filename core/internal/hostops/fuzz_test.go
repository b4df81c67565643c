package hostops

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"testing"
)

// FuzzRecordedFile: recordedFile never panics; what it accepts is an
// absolute path and a hash that encode back to the output's leading
// fields; and every output fileOutput writes for an absolute path is read
// back exactly.
func FuzzRecordedFile(f *testing.F) {
	f.Add([]byte(`{"real_path":"/p/f","sha256":"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881","Text":"x"}`), "/p/f")
	f.Add([]byte(`{"real_path":"/p/\u003c\"q\\","sha256":"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"`), "/p/\"q\\")
	f.Add([]byte(`{"real_path":"/p/f\"}`), "/ü\t\n")
	f.Add([]byte(`{"Text":"x","StartLine":1}`), "/")
	f.Fuzz(func(t *testing.T, out []byte, path string) {
		if fh, ok := recordedFile(out); ok {
			if !filepath.IsAbs(fh.Path) {
				t.Fatalf("accepted relative path %q from %q", fh.Path, out)
			}
			again, err := json.Marshal(fileOutput{RealPath: fh.Path, SHA256: hex.EncodeToString(fh.SHA256[:])})
			if err != nil {
				t.Fatal(err)
			}
			back, ok := recordedFile(again)
			if !ok || back != fh {
				t.Fatalf("%q read as %+v, which writes back as %s and reads as %+v, %v", out, fh, again, back, ok)
			}
		}
		if !filepath.IsAbs(path) {
			return
		}
		sum := bytes.Repeat([]byte{0xab}, 32)
		b, err := json.Marshal(struct {
			fileOutput
			Text string
		}{fileOutput{RealPath: path, SHA256: hex.EncodeToString(sum)}, string(out)})
		if err != nil {
			t.Fatal(err)
		}
		fh, ok := recordedFile(b)
		// encoding/json replaces invalid UTF-8 with U+FFFD, so compare with
		// what it wrote.
		var written fileOutput
		if err := json.Unmarshal(b, &written); err != nil {
			t.Fatal(err)
		}
		if !ok || fh.Path != written.RealPath || !bytes.Equal(fh.SHA256[:], sum) {
			t.Fatalf("%s read as %+v, %v; want path %q", b, fh, ok, written.RealPath)
		}
	})
}
