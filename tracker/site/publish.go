package site

import (
	"context"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// Published is what Publish did, for its log line.
type Published struct {
	Files, Series int
	Read, Built   time.Duration // reading the history; building and writing the files
}

// Publish reads the series of q from src, and its re-baseline points when
// o has none, builds the dashboard (Build) and writes it into dir (Write).
func Publish(ctx context.Context, src history.TrendSource, q model.TrendQuery, o Options, dir string) (Published, error) {
	start := time.Now()
	series, err := src.Trend(ctx, q)
	if err != nil {
		return Published{}, err
	}
	if o.Resets == nil {
		if o.Resets, err = trend.ReadResets(ctx, src); err != nil {
			return Published{}, err
		}
		o.Repo = q.Repo
	}
	p := Published{Series: len(series), Read: time.Since(start)}
	files, err := Build(series, o)
	if err != nil {
		return Published{}, err
	}
	if err := Write(dir, files); err != nil {
		return Published{}, err
	}
	p.Files, p.Built = len(files), time.Since(start)-p.Read
	return p, nil
}

// RepoURL is the default link of commits to repo (owner/name) on the
// GitHub at serverURL ("": https://github.com): "" without a repo.
func RepoURL(serverURL, repo string) string {
	if repo == "" {
		return ""
	}
	if serverURL == "" {
		serverURL = "https://github.com"
	}
	return strings.TrimSuffix(serverURL, "/") + "/" + repo
}
