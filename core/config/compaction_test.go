package config

import (
	"strconv"
	"strings"
	"testing"
)

// TestCompactionBlock: the compaction block's settings are read with
// their sources, and every invalid one fails naming file:line:col, the
// field path, the bad value and a valid example.
func TestCompactionBlock(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string   // the settings as "auto threshold reserve keep model", when valid
		errs []string // in the error, after FILE is replaced by the path
	}{
		{name: "empty block", text: "compaction {\n}\n", want: "true unset unset 20000 -"},
		{name: "every setting", text: "compaction {\n  auto #false\n  threshold 0.75\n  keep-recent-tokens 8000\n  model \"fast\"\n}\n",
			want: "false 0.75@FILE:3:13 unset 8000@FILE:4:22 fast@FILE:5:9"},
		{name: "reserve", text: "compaction {\n  reserve-tokens 4096\n}\n", want: "true unset 4096@FILE:2:18 20000 -"},
		{name: "threshold one", text: "compaction { threshold 1; }\n", want: "true 1@FILE:1:24 unset 20000 -"},
		{name: "keep nothing", text: "compaction { keep-recent-tokens 0; }\n", want: "true unset unset 0@FILE:1:33 -"},
		{name: "threshold zero", text: "compaction {\n  threshold 0\n}\n",
			errs: []string{"FILE:2:13: compaction.threshold: 0 is not a fraction of the context window above 0 and at most 1", "for example: threshold 0.8"}},
		{name: "threshold percent", text: "compaction {\n  threshold 80\n}\n",
			errs: []string{"FILE:2:13: compaction.threshold: 80 is not a fraction"}},
		{name: "threshold string", text: "compaction {\n  threshold \"0.8\"\n}\n",
			errs: []string{"FILE:2:13: compaction.threshold: \"0.8\" is not a fraction"}},
		{name: "both ways", text: "compaction {\n  threshold 0.8\n  reserve-tokens 100\n}\n",
			errs: []string{"FILE:1:1: compaction: sets both threshold (FILE:2:13) and reserve-tokens (FILE:3:18)", "keep one"}},
		{name: "auto not a bool", text: "compaction {\n  auto \"yes\"\n}\n",
			errs: []string{"FILE:2:8: compaction.auto: \"yes\" is not #true or #false", "auto #false"}},
		{name: "negative keep", text: "compaction {\n  keep-recent-tokens -1\n}\n",
			errs: []string{"FILE:2:22: compaction.keep-recent-tokens: -1 is not a whole number of tokens from 0 to 10000000", "keep-recent-tokens 20000"}},
		{name: "fractional reserve", text: "compaction {\n  reserve-tokens 1.5\n}\n",
			errs: []string{"FILE:2:18: compaction.reserve-tokens: 1.5 is not a whole number of tokens"}},
		{name: "empty model", text: "compaction {\n  model \"\"\n}\n",
			errs: []string{"FILE:2:9: compaction.model: \"\" is empty", `model "anthropic/claude-haiku-4-5"`}},
		{name: "unknown setting", text: "compaction {\n  keep-recent-token 100\n}\n",
			errs: []string{"FILE:2:3: compaction.keep-recent-token: is not part of the compaction block", "did you mean keep-recent-tokens?"}},
		{name: "two values", text: "compaction {\n  threshold 0.5 0.6\n}\n",
			errs: []string{"FILE:2:17: compaction.threshold: 0.6 is one value too many"}},
		{name: "set twice", text: "compaction {\n  auto #true\n  auto #false\n}\n",
			errs: []string{"FILE:3:3: compaction.auto:", "set twice in this file"}},
		{name: "block twice", text: "compaction {\n}\ncompaction {\n}\n",
			errs: []string{"FILE:3:1: compaction:", "set twice in this file"}},
		{name: "block with a value", text: "compaction \"on\"\n",
			errs: []string{"FILE:1:12: compaction: \"on\" is one value too many"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeUser(t, tt.text)
			cfg, err := Load(Inputs{UserFile: path, LookupEnv: noEnv})
			if tt.errs != nil {
				if err == nil {
					t.Fatalf("no error; want %q", tt.errs)
				}
				msg := strings.ReplaceAll(err.Error(), path, "FILE")
				for _, w := range tt.errs {
					if !strings.Contains(msg, w) {
						t.Errorf("error %s\nlacks %q", msg, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.ReplaceAll(compactionSummary(cfg.Compaction), path, "FILE"); got != tt.want {
				t.Errorf("settings %q, want %q", got, tt.want)
			}
		})
	}
}

// compactionSummary renders c as "auto threshold reserve keep model".
func compactionSummary(c Compaction) string {
	at := func(v string, s Source, set bool) string {
		if !set {
			return "unset"
		}
		return v + "@" + s.String()
	}
	thr := at(strconv.FormatFloat(c.Threshold.Value, 'g', -1, 64), c.Threshold.Source, c.Threshold.IsSet())
	keep := strconv.Itoa(c.KeepRecent())
	if c.KeepRecentTokens.IsSet() {
		keep += "@" + c.KeepRecentTokens.Source.String()
	}
	model := "-"
	if c.Model.IsSet() {
		model = c.Model.Value + "@" + c.Model.Source.String()
	}
	auto := "true"
	if !c.AutoEnabled() {
		auto = "false"
	}
	return strings.Join([]string{auto, thr, at(strconv.Itoa(c.ReserveTokens.Value), c.ReserveTokens.Source, c.ReserveTokens.IsSet()), keep, model}, " ")
}

// TestCompactionLayers: a higher layer's block replaces a lower one's
// settings one by one, except threshold and reserve-tokens, which move
// together (the layer that says when decides); config show lists what is
// set.
func TestCompactionLayers(t *testing.T) {
	root, sub := project(t, "compaction {\n  reserve-tokens 1000\n  model \"project/m\"\n}\n")
	user := writeUser(t, "compaction {\n  auto #false\n  threshold 0.5\n  keep-recent-tokens 300\n}\ntrusted-project \""+root+"\"\n")
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Compaction
	if c.AutoEnabled() || c.Threshold.IsSet() || c.ReserveTokens.Value != 1000 || c.KeepRecent() != 300 || c.Model.Value != "project/m" {
		t.Fatalf("merged %+v", c)
	}
	var shown []string
	for _, e := range cfg.Entries() {
		if strings.HasPrefix(e.Path, "compaction.") {
			shown = append(shown, e.Path+" = "+e.Value)
		}
	}
	want := "compaction.auto = false|compaction.reserve-tokens = 1000|compaction.keep-recent-tokens = 300|compaction.model = project/m"
	if got := strings.Join(shown, "|"); got != want {
		t.Errorf("entries %s\nwant %s", got, want)
	}
}

// TestCompactionLimit: the threshold in tokens for a context window and
// an output bound, by the fraction or by the reserve; no threshold for an
// unknown window.
func TestCompactionLimit(t *testing.T) {
	frac := Compaction{Threshold: Setting[float64]{Value: 0.8, Source: Source{Layer: LayerUser}}}
	reserve := Compaction{ReserveTokens: Setting[int]{Value: 1000, Source: Source{Layer: LayerUser}}}
	tests := []struct {
		name              string
		c                 Compaction
		window, maxOutput int
		want              int
	}{
		{name: "default", window: 200000, maxOutput: 64000, want: 200000 - 64000 - DefaultReserveTokens},
		{name: "default small window", window: 4096, maxOutput: 1024, want: 4096 - 1024 - 512},
		{name: "output bound over half the window", window: 8000, maxOutput: 8000, want: 8000 - 4000 - 1000},
		{name: "fraction", c: frac, window: 200000, maxOutput: 64000, want: 160000},
		{name: "reserve", c: reserve, window: 10000, maxOutput: 2000, want: 7000},
		{name: "unknown window", c: frac, window: 0, maxOutput: 2000, want: 0},
		{name: "reserve over the window", c: Compaction{ReserveTokens: Setting[int]{Value: 50000, Source: Source{Layer: LayerUser}}}, window: 4096, maxOutput: 1024, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Limit(tt.window, tt.maxOutput); got != tt.want {
				t.Errorf("Limit(%d, %d) = %d, want %d", tt.window, tt.maxOutput, got, tt.want)
			}
		})
	}
}
