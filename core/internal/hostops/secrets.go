package hostops

import (
	"context"
	"io"
	"os"

	"github.com/smith-agent/smith/core/internal/hostproc"
	"github.com/smith-agent/smith/core/internal/secret"
)

// process is a command made ready to run under the secret proxy.
type process struct {
	command  string         // with the allowed references restored
	restored []string       // the names restored, sorted
	env      []string       // without the variables holding secrets; nil: the process's own
	output   func([]byte)   // the redacted output sink, or nil
	flush    io.WriteCloser // the redacting writer behind output, or nil
	set      *secret.Set
}

// process prepares command: the references o.SecretAllowed accepts are
// restored, the environment loses every variable holding a registered
// secret, and the output streamed to ctx's sink is redacted.
func (o *Ops) process(ctx context.Context, command string) *process {
	sink := outputFrom(ctx)
	p := &process{command: command, env: o.Env, output: sink, set: o.Secrets}
	if o.Secrets == nil {
		return p
	}
	p.command, p.restored = o.Secrets.Restore(command, o.SecretAllowed)
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	p.env = o.Secrets.EnvFilter(env)
	if sink != nil {
		w := o.Secrets.Writer(sinkWriter(sink))
		p.flush = w
		p.output = func(b []byte) { _, _ = w.Write(b) }
	}
	return p
}

// done flushes the streamed output and redacts the result's.
func (p *process) done(res *hostproc.Result) {
	if p.flush != nil {
		_ = p.flush.Close()
	}
	if p.set != nil {
		res.Output, _ = p.set.Redact(res.Output)
	}
}

// sinkWriter adapts an output sink to an io.Writer.
type sinkWriter func([]byte)

func (w sinkWriter) Write(b []byte) (int, error) {
	w(append([]byte(nil), b...))
	return len(b), nil
}
