package config

import (
	"strings"
	"testing"
)

// TestCatalogRefresh: catalog-refresh is off by default; the file, the
// environment and the flag each set it (later layers win, "off" disables
// a lower layer's URL), and every value keeps its source.
func TestCatalogRefresh(t *testing.T) {
	const fileURL = "https://catalog.example/smith.json"
	tests := []struct {
		name       string
		file       string
		env        map[string]string
		flags      map[string]string
		want       string
		wantSource string
		wantErr    string
	}{
		{name: "off by default", want: "", wantSource: "default"},
		{name: "file", file: `catalog-refresh "` + fileURL + `"`, want: fileURL, wantSource: "FILE:1:17"},
		{name: "loopback http", file: `catalog-refresh "http://127.0.0.1:8080/c.json?v=1"`, want: "http://127.0.0.1:8080/c.json?v=1", wantSource: "FILE:1:17"},
		{name: "ipv6 loopback", flags: map[string]string{"catalog-refresh": "http://[::1]:8080/c.json"}, want: "http://[::1]:8080/c.json", wantSource: "flag --catalog-refresh"},
		{name: "env beats file", file: `catalog-refresh "` + fileURL + `"`, env: map[string]string{"SMITH_CATALOG_REFRESH": "https://env.example/c.json"},
			want: "https://env.example/c.json", wantSource: "env SMITH_CATALOG_REFRESH"},
		{name: "flag off beats env", env: map[string]string{"SMITH_CATALOG_REFRESH": "https://env.example/c.json"}, flags: map[string]string{"catalog-refresh": "off"},
			want: "", wantSource: "flag --catalog-refresh"},
		{name: "file off", file: `catalog-refresh "off"`, want: "", wantSource: "FILE:1:17"},
		{name: "bad env", env: map[string]string{"SMITH_CATALOG_REFRESH": "http://catalog.example/c.json"},
			wantErr: `env SMITH_CATALOG_REFRESH: catalog-refresh: "http://catalog.example/c.json" is plain http to another machine`},
		{name: "bad flag", flags: map[string]string{"catalog-refresh": "daily"},
			wantErr: `flag --catalog-refresh: catalog-refresh: "daily" is neither off nor a URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeUser(t, tt.file)
			cfg, err := Load(Inputs{UserFile: path, LookupEnv: envOf(tt.env), Flags: tt.flags})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v; want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			src := strings.ReplaceAll(cfg.CatalogRefresh.Source.String(), path, "FILE")
			if cfg.CatalogRefresh.Value != tt.want || src != tt.wantSource {
				t.Errorf("catalog-refresh = %q from %s; want %q from %s", cfg.CatalogRefresh.Value, src, tt.want, tt.wantSource)
			}
		})
	}
}
