package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/site"
)

func init() {
	commands.Register(&cli.Command{Name: "site", Run: runSite})
}

func runSite(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "site", "--out DIR [--branch main] [--since 365d] [--repo owner/name] [--repo-url URL] [--store DIR | --db URL]")
	var sf storeFlags
	sf.register(fs, e)
	sf.existing = true // reads or deletes history only: a mistyped --store is refused
	out := fs.String("out", "", "write the dashboard into this `DIR` (created; its files are replaced)")
	branch := fs.String("branch", e.GetenvOr(compare.Lookup(check.SetBranch).Env, check.DefaultBranch), envUsage("the baseline `BRANCH` whose runs are drawn", check.SetBranch))
	since := fs.String("since", "365d", "only runs that started within this `age` (0 = all)")
	repo := fs.String("repo", e.Getenv("GITHUB_REPOSITORY"), "only runs of this `owner/name` (env GITHUB_REPOSITORY; '' = any)")
	repoURL := fs.String("repo-url", "", "link commits to this repository `URL` (default https://github.com/ + --repo)")
	maxPoints := fs.Int("max-points", site.DefaultOptions().MaxPoints, "draw at most `N` points a series (LTTB downsampling)")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return cli.UsageErrorf("site: unexpected argument %q", fs.Arg(0))
	case *out == "":
		return cli.UsageErrorf("--out: name the directory to write the dashboard into")
	case *maxPoints < 10 || *maxPoints > 100000:
		return cli.UsageErrorf("--max-points: must be between 10 and 100000, got %d", *maxPoints)
	}
	cutoff, err := cli.AgeCutoff("since", *since, time.Now())
	if err != nil {
		return err
	}
	if *repoURL == "" {
		*repoURL = site.RepoURL(e.Getenv("GITHUB_SERVER_URL"), *repo)
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer st.Close()
	o := site.DefaultOptions()
	o.RepoURL, o.Branch, o.Generated, o.MaxPoints = *repoURL, *branch, time.Now(), *maxPoints
	p, err := site.Publish(ctx, st, model.TrendQuery{Repo: *repo, Since: cutoff, Branch: strings.TrimSpace(*branch)}, o, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %d files to %s (%d series; history read in %s, built in %s)\n",
		p.Files, *out, p.Series, p.Read.Round(time.Millisecond), p.Built.Round(time.Millisecond))
	return nil
}
