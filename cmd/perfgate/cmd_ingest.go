package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func init() {
	commands.Register(&cli.Command{Name: "ingest", Run: runIngest})
}

// ingestOptions are the parsed flags of perfgate ingest.
type ingestOptions struct {
	format, suite, unit, better, metric, out string
	baseline                                 string
	files                                    []string
	meta                                     runMetaFlags
}

func runIngest(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "ingest", "--format FORMAT [--out results.json] FILE... (FILE - reads standard input)")
	var o ingestOptions
	fs.StringVar(&o.format, "format", e.GetenvOr("PERFGATE_INGEST_FORMAT", ""), "input `format`: "+strings.Join(ingest.Formats, ", ")+" (env PERFGATE_INGEST_FORMAT)")
	fs.StringVar(&o.suite, "suite", "", "suite name of the benchmarks (default: the format's name)")
	fs.StringVar(&o.unit, "unit", "", "unit of json-samples input that does not name one, e.g. ms")
	fs.StringVar(&o.better, "better", "", "direction of json-samples input that does not say: lower or higher (default: higher for …/s units, else lower)")
	fs.StringVar(&o.metric, "metric", "", "for --format gotest: the `unit` whose values are the samples (default ns/op), e.g. a b.ReportMetric unit")
	fs.StringVar(&o.baseline, "criterion-baseline", "", "for --format criterion: read the baseline `NAME` that criterion --save-baseline NAME saved (base: the run before the latest) instead of new/")
	fs.StringVar(&o.out, "out", "", "write the results document to this `file` (atomically; default: standard output)")
	o.meta.register(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	o.files = fs.Args()
	opts := ingest.Options{Suite: o.suite, Unit: o.unit, Better: model.Better(o.better), Metric: o.metric, CriterionBaseline: o.baseline, Stdin: e.Stdin}
	if err := ingest.Check(o.format, len(o.files), opts); err != nil {
		return err
	}
	bs, err := ingest.ParseFiles(o.format, o.files, opts)
	if err != nil {
		return err
	}
	run, err := o.meta.resolve(ctx, e, time.Now())
	if err != nil {
		return err
	}
	o.meta.printMeta(e, &run)
	r := &model.Results{Schema: model.Schema, Run: run, Benchmarks: bs}
	if err := runner.Validate(r); err != nil {
		return err
	}
	if o.out == "" {
		return resultsjson.Encode(e.Stdout, r)
	}
	if err := resultsjson.WriteFile(o.out, r); err != nil {
		return &model.InfraError{Op: "write " + o.out, Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %d benchmarks from %d file(s) to %s\n", len(bs), len(o.files), o.out)
	return nil
}
