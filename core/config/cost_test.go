package config

import (
	"strings"
	"testing"
)

func TestMaxCost(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  string
		want int64
		err  string
	}{
		{name: "unset", want: 0},
		{name: "number", file: "max-cost 2.5\n", want: 2_500_000_000},
		{name: "dollar string", file: "max-cost \"$0.10\"\n", want: 100_000_000},
		{name: "integer", file: "max-cost 3\n", want: 3_000_000_000},
		{name: "env beats file", file: "max-cost 3\n", env: "0.5", want: 500_000_000},
		{name: "zero", file: "max-cost 0\n", err: "max-cost: 0 is not an amount above $0"},
		{name: "words", file: "max-cost \"lots\"\n", err: `max-cost: "lots" is not an amount of US dollars`},
		{name: "bad env", env: "-1", err: "SMITH_MAX_COST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Inputs{LookupEnv: envOf(map[string]string{"SMITH_MAX_COST": tt.env})}
			if tt.file != "" {
				in.UserFile = writeUser(t, tt.file)
			}
			cfg, err := Load(in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || cfg.MaxCost.Value != tt.want {
				t.Fatalf("max-cost %d, %v; want %d", cfg.MaxCost.Value, err, tt.want)
			}
		})
	}
}
